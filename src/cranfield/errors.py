"""One exception tree and one warning tree for the whole package.

Every error a user can cause is a :class:`CranfieldError`; the CLI prints its message (no
traceback) and exits with status 2.  Input errors carry the file and line they refer to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from types import FrameType

__all__ = [
    "ClusterError",
    "CranfieldError",
    "CranfieldWarning",
    "DataWarning",
    "InputError",
    "MeasureError",
    "MissingExtraError",
    "ParameterError",
    "UndefinedMeasureWarning",
    "warn",
]


class CranfieldError(Exception):
    """Base class of every error raised on purpose by cranfield."""


class InputError(CranfieldError, ValueError):
    """Bad input data: names the source (file), the line (1-based) when known, and the problem."""

    pair: tuple[int, int] | None = None
    """The two lines of a duplicate judgment, when that is the problem (for a reader's hint)."""

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.problem = problem
        where = f"{source}: line {line}" if line is not None else source
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):  # picklable (errors come back from worker processes)
        return (type(self), (self.source, self.problem, self.line))


class ParameterError(CranfieldError, ValueError):
    """An invalid parameter value or option, rejected at the boundary."""


class MeasureError(ParameterError):
    """A measure string that does not parse or names no known measure."""


class ClusterError(CranfieldError):
    """A cluster that cannot be used or failed: a Dask scheduler that cannot be reached or
    was lost, a cluster without workers, a task whose worker died each time it ran it."""


class MissingExtraError(CranfieldError, ImportError):
    """An optional dependency is missing; the message names the pip extra that provides it."""


class CranfieldWarning(UserWarning):
    """Base class of cranfield's warnings."""


class UndefinedMeasureWarning(CranfieldWarning):
    """A measure is undefined for some queries; the declared value was used (count given)."""


class DataWarning(CranfieldWarning):
    """Something about the data the user should know (queries skipped, rows dropped on request)."""


def warn(warning: Warning | str, category: type[Warning] | None = None) -> None:
    """Issue ``warning`` at the caller's line: the first frame outside the cranfield package
    (the user's script or notebook cell), whatever depth of cranfield's own calls lies
    between, so that ``warnings`` shows and filters it where the user called cranfield."""
    import os
    import sys
    import warnings

    root = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame: FrameType | None = sys._getframe(1)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(root):
        frame = frame.f_back
        level += 1
    warnings.warn(warning, category, stacklevel=level)
