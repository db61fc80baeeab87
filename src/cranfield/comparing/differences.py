"""The per-query differences ``d = b - a`` that every paired test works on, checked once.

Rules shared by all tests (see ``docs/compare.md``):

- a difference with ``|b - a| <= 1e-12 * max(1, |a|, |b|)`` is an exact tie (``0``), so float
  noise never counts as a win;
- if every difference is 0 the runs are identical on the measure: statistic 0, p = 1;
- ``alternative="greater"`` means mean(b) > mean(a), ``"less"`` mean(b) < mean(a);
- NaN or infinite differences are refused (ParameterError); the tests compute on the
  differences rescaled by a power of two (exact, see ``checks.py``), so values up to 1e308 and
  down to 5e-324 give the same p-values as moderate ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.comparing.checks import finite, floats, unit_exponents
from cranfield.comparing.registry import choices
from cranfield.errors import ParameterError

__all__ = ["ALTERNATIVES", "EQUAL_TOLERANCE", "TESTS", "PairedTestResult", "differences"]

ALTERNATIVES = ("two-sided", "greater", "less")
EQUAL_TOLERANCE = 1e-12

TESTS: dict[str, tuple[str, str]] = choices("test")
"""Test name -> (title, source), from the declarations (:mod:`.registry`)."""


@dataclass(frozen=True)
class PairedTestResult:
    """Outcome of one paired test of run b against run a.

    ``direction`` is +1 when the test statistic says b > a, -1 when a > b and 0 when neither;
    ``resamples`` is the number of permutations or bootstrap samples (0 for closed-form tests),
    ``exact`` tells whether the p-value was enumerated exactly.
    """

    test: str
    statistic: float
    p_value: float
    direction: int
    n: int
    resamples: int = 0
    exact: bool = False


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ParameterError(
            f"unknown alternative {alternative!r}; choose one of {', '.join(ALTERNATIVES)}"
        )


def differences(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> np.ndarray:
    """``b - a`` per query, with float-noise differences set to exactly 0 (see module doc)."""
    x = floats(a, "paired values")
    y = floats(b, "paired values")
    if x.shape != y.shape or x.ndim not in (1, 2):
        raise ParameterError(f"paired values must have the same shape, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError("paired values must be finite (no NaN or infinity)")
    with np.errstate(over="ignore"):
        d = y - x
    if not np.isfinite(d).all():
        pos = np.unravel_index(int(np.argmin(np.isfinite(d))), d.shape)
        raise ParameterError(
            f"the difference b - a at position {', '.join(str(int(i)) for i in pos)} "
            f"({float(y[pos])!r} - {float(x[pos])!r}) exceeds the float64 range"
        )
    scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    d[np.abs(d) <= EQUAL_TOLERANCE * scale] = 0.0
    return d


def _matrix(D: object) -> np.ndarray:
    """A finite queries x pairs float64 table of differences."""
    M = floats(D, "differences")
    if M.ndim != 2:
        raise ParameterError(f"differences must be a queries x pairs table, got shape {M.shape}")
    finite(M, "differences")
    return M


def _vector(d: object) -> np.ndarray:
    v = floats(d, "differences")
    if v.ndim != 1:
        raise ParameterError(f"differences must be a flat list, got shape {v.shape}")
    finite(v, "differences")
    return v


def _scaled(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column of ``D`` times ``2**-e``, with ``e`` per column putting its largest ``|d|``
    in [0.5, 1) (exact; see ``checks.py``), and ``e``."""
    e = unit_exponents(np.abs(D).max(axis=0, initial=0.0))
    return np.ldexp(D, -e), e


def _unscale(x: np.ndarray | float, e: np.ndarray | int) -> np.ndarray:
    """``x * 2**e``, infinite where that exceeds the float64 range."""
    with np.errstate(over="ignore"):
        return np.ldexp(x, e)


def _need(n: int, minimum: int, test: str) -> None:
    if n < minimum:
        raise ParameterError(f"the {test} needs at least {minimum} queries, got {n}")


def _sign(x: float) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0
