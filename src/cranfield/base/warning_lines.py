"""Warnings on the command line: one line each, whatever the caller's warning filters.

A command prints ``cranfield: warning: ...`` on standard error for each of cranfield's
warnings, as a process started from a shell does with Python's default filters.  The same
command run in-process (``cranfield.cli.main([...])``, the ``trec_eval`` work-alike's
``main``) must behave the same way when its caller turned warnings into errors (a test
suite's ``-W error``): its warnings are part of its output, not exceptions.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from cranfield.errors import CranfieldWarning


@contextmanager
def warnings_as_lines(write: Callable[[str], object]) -> Iterator[None]:
    """Within the block, every warning shown is passed to ``write`` as ``cranfield: warning:
    MESSAGE`` (without a newline), and cranfield's own warnings are shown once per message
    (Python's ``default`` action) even where the caller's filters say ``error`` or
    ``ignore``.  The caller's filters and ``warnings.showwarning`` are restored on exit."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        write(f"cranfield: warning: {message}")

    with warnings.catch_warnings():
        warnings.simplefilter("default", CranfieldWarning)
        warnings.showwarning = show
        yield
