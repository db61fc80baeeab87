"""A pytest plugin that makes ``import ranx`` give :mod:`cranfield.compat.ranx`, so that ranx's
own test suite runs against the work-alike (``tests/compat/test_ranx_peer_suite.py`` runs it).

    RANX_SUITE=/tmp/ranx_suite python -m pytest -p ranx_hook $RANX_SUITE/tests/unit/ranx/...

with this folder and the checkout's ``src`` on PYTHONPATH.  ``ranx`` becomes a package holding
only what the work-alike has (``Qrels``, ``Run``, ``evaluate``, ``compare``, ``Report``):
ranx's submodules (``ranx.metrics``, ``ranx.data_structures``, fusion, normalization) are
absent, and a test that imports one fails at import, which the record counts.
"""

from __future__ import annotations

import sys
import types

from cranfield.compat import ranx as workalike

if "ranx" in sys.modules and sys.modules["ranx"].__dict__.get("__workalike__") is None:
    raise RuntimeError("the real ranx was imported before the hook: load it with -p ranx_hook")

module = types.ModuleType("ranx", "cranfield.compat.ranx under ranx's name")
module.__path__ = []  # a package: `import ranx.metrics` is a ModuleNotFoundError
module.__workalike__ = workalike
for name in ("Qrels", "Run", "Report", "evaluate", "compare"):
    setattr(module, name, getattr(workalike, name))
sys.modules["ranx"] = module


def _internal(*_: object, **__: object) -> None:
    raise NotImplementedError("a ranx internal the work-alike does not have")


# ranx's qrels and run tests import one internal helper; with a stand-in that refuses to work,
# their other tests run (and the one that calls it fails)
for sub in ("data_structures", "data_structures.qrels", "data_structures.run"):
    part = types.ModuleType(f"ranx.{sub}")
    part.__path__ = []
    part.get_file_kind = _internal
    sys.modules[f"ranx.{sub}"] = part
