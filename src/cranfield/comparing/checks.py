"""Input checks and exact rescaling shared by the statistical routines of ``comparing``.

Every public routine converts and checks its arguments with these helpers, so bad input is one
:class:`~cranfield.errors.ParameterError` and never a numpy or scipy exception (``ValueError``,
``OverflowError`` for ``10**400``, ``TypeError``).

:func:`unit_exponents` supports the rescaling that keeps sums finite: every statistic in
``comparing`` is invariant under multiplying the data by a constant, and multiplying by a power
of two is exact (only the exponent of each number changes), so the routines compute on data
whose largest magnitude lies in [0.5, 1).  Values of 1e308 then add up without overflow and
values of 5e-324 square without underflow.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

from cranfield.errors import ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from numpy.typing import ArrayLike

__all__ = [
    "MAX_RESAMPLES",
    "check_confidence",
    "check_count",
    "check_seed",
    "finite",
    "floats",
    "show",
    "unit_exponents",
]

# Upper bound for permutations / bootstrap samples: 10^9 resamples already take minutes at 50
# queries; beyond it a number is a mistake (or 10**400), not a request.
MAX_RESAMPLES = 10**9


def show(value: object) -> str:
    """``repr`` of a value for an error message, short even for a 10**5000 integer (whose
    decimal conversion Python refuses)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit integer"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def floats(values: object, what: str) -> np.ndarray:
    """``values`` as a float64 array, or a ParameterError naming ``what``."""
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ParameterError(f"{what} must be numbers ({exc})") from None


def finite(arr: np.ndarray, what: str) -> None:
    """Refuse NaN and +-infinity, naming the first position holding one."""
    ok = np.isfinite(arr)
    if not ok.all():
        pos = np.unravel_index(int(np.argmin(ok)), arr.shape)
        where = ", ".join(str(int(i)) for i in pos)
        raise ParameterError(
            f"{what} must be finite (no NaN or infinity); position ({where}) holds "
            f"{float(arr[pos])!r}"
        )


def runs_table(values: object, who: str, queries: int) -> np.ndarray:
    """``values`` as a finite queries x runs table of at least 2 runs and ``queries`` queries;
    a :class:`ParameterError` beginning with ``who`` (``"MaxT / MinP need"``) otherwise."""
    Y = floats(values, "the queries x runs table")
    if Y.ndim != 2:
        raise ParameterError(f"{who} a queries x runs table")
    n, k = Y.shape
    if k < 2:
        raise ParameterError(f"{who} at least 2 runs, got {k}")
    if n < queries:
        what = "query" if queries == 1 else "queries"
        raise ParameterError(f"{who} at least {queries} {what}, got {n}")
    finite(Y, "the per-query values")
    return Y


def check_count(value: object, name: str, maximum: int = MAX_RESAMPLES) -> int:
    """A whole number between 1 and ``maximum`` (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(f"{name} must be a whole number, got {show(value)}")
    v = int(value)
    if not 1 <= v <= maximum:
        raise ParameterError(f"{name} must be between 1 and {maximum:,}, got {show(v)}")
    return v


def check_alpha(value: object) -> float:
    """A significance level: a number strictly between 0 and 1."""
    try:
        alpha = float(value)  # type: ignore[arg-type]  # any object: float() refusing it is the check
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"alpha must be a number, got {value!r}") from None
    if not 0.0 < alpha < 1.0:
        raise ParameterError(f"alpha must be between 0 and 1, got {value!r}")
    return alpha


def check_seed(value: object) -> int | None:
    """``None`` (fresh entropy) or a non-negative whole number (``numpy.random.default_rng``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 0:
        raise ParameterError(f"seed must be a non-negative whole number or None, got {show(value)}")
    return int(value)


def check_confidence(value: object) -> float:
    """A confidence level in (0, 1]; 1 (what ``1 - alpha`` rounds to for alpha < 1.1e-16) gives
    the infinite t interval and the full range of the bootstrap means."""
    try:
        c = float(value)  # type: ignore[arg-type]  # any object: float() refusing it is the check
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"confidence must be a number, got {show(value)}") from None
    if not 0.0 < c <= 1.0:
        raise ParameterError(f"confidence must be in (0, 1], got {show(value)}")
    return c


def unit_exponents(top: ArrayLike) -> np.ndarray:
    """Exponents ``e`` such that ``top * 2**-e`` lies in [0.5, 1) (``e = 0`` where top is 0);
    ``np.ldexp(x, -e)`` rescales exactly."""
    return np.frexp(np.asarray(top, dtype=np.float64))[1]
