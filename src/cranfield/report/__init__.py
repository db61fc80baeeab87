"""Renderers: results in, text, HTML and charts out (docs/cli.md, "Output formats"; the HTML
report: docs/report.md).  A renderer never computes a measure.

``cranfield.report`` is this package, and calling it makes an HTML report:
``cranfield.report(qrels, runs, measures, ...)`` is :func:`cranfield.reporting.report`
(the package and the function share the name, so the package is callable).
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any


class _CallablePackage(ModuleType):
    """The ``cranfield.report`` package, which can also be called: ``cranfield.report(...)``
    makes a report (:func:`cranfield.reporting.report`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from cranfield.reporting import report

        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
