"""Recall levels and document cut-offs: parsing and exact arithmetic.

Recall levels are kept as exact fractions (``Fraction("0.3") == 3/10``), so that "recall
``h/R`` reaches level ``r``" is decided exactly (``ceil(0.3 * 10) == 3``, whereas in floating
point ``0.3 * 10 == 3.0000000000000004``).  trec_eval's rules, which *do* compute ``r * R`` in
double precision, use :func:`as_double` of the level, which is the value C's ``atof`` gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from cranfield.base.limits import MAX_CUTOFF
from cranfield.errors import ParameterError
from cranfield.io.python_values import show

__all__ = [
    "STANDARD_CUTOFFS",
    "ceil_count",
    "floor_count",
    "parse_cutoffs",
    "parse_levels",
]

MAX_LEVEL_DENOMINATOR = 10**30
"""A recall level is a fraction with a denominator up to 10**30 (30 decimals)."""

_MAX_EXPONENT = 1000
STANDARD_CUTOFFS = (5, 10, 15, 20, 30, 50, 100)
"""Baeza-Yates & Ribeiro-Neto, *Modern Information Retrieval*, 1999, sec. 3.2.1: average
precision "when 5, 10, 15, 20, 30, 50, or 100 documents have been seen"."""


def _fraction(value: object) -> Fraction:
    try:
        if isinstance(value, Fraction):
            return value
        if isinstance(value, float):
            return Fraction(repr(value))  # the shortest decimal: what the user wrote
        if isinstance(value, int | np.integer):
            return Fraction(int(value))
        if isinstance(value, np.floating):
            return Fraction(repr(float(value)))
        text = str(value).strip()
        if "/" in text:  # "1/3": two integers (Python refuses more than 4300 digits)
            return Fraction(text)
        exact = Decimal(text)  # reads the exponent without expanding it
        if not exact.is_finite():
            raise ValueError
    except (ValueError, ZeroDivisionError, ArithmeticError):
        raise ParameterError(f"recall level {_shown(value)} is not a number") from None
    if exact and not -_MAX_EXPONENT <= exact.adjusted() <= _MAX_EXPONENT:
        # a Fraction would expand 10**exponent: no recall level needs that
        raise ParameterError(
            f"recall level {text[:40]!r} is outside [1e-{_MAX_EXPONENT}, 1] (and not 0)"
        )
    return Fraction(exact)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 30 else f"{text[:25]}... ({len(text)} characters)"


def parse_levels(levels: int | str | Iterable[object] | None) -> tuple[Fraction, ...]:
    """Recall levels, ascending: ``11`` (0, 0.1, ..., 1), ``21`` (0, 0.05, ..., 1; Raghavan, Jung &
    Bollmann, ACM TOIS 1989, sec. 2.2) or any list of numbers in [0, 1] (``"0.1,0.25"`` or a
    sequence).
    """
    if levels is None:
        levels = 11
    if isinstance(levels, str):
        text = levels.strip()
        if text in ("11", "21"):
            levels = int(text)
        else:
            parts = [p for p in text.split(",")]
            if not text or any(not p.strip() for p in parts):
                raise ParameterError(f"recall levels {levels!r}: expected 11, 21 or a comma list")
            levels = parts
    if isinstance(levels, int | np.integer) and not isinstance(levels, bool):
        if int(levels) == 11:
            return tuple(Fraction(i, 10) for i in range(11))
        if int(levels) == 21:
            return tuple(Fraction(i, 20) for i in range(21))
        raise ParameterError(f"recall levels {levels!r}: expected 11, 21 or a list of levels")
    if not isinstance(levels, Iterable) or isinstance(levels, bytes | Mapping):
        raise ParameterError(f"recall levels {levels!r}: expected 11, 21 or a list of levels")
    given = {}
    for v in levels:  # type: ignore[union-attr]  # an Iterable: tested above
        f = _fraction(v)
        if not 0 <= f <= 1:
            raise ParameterError(f"recall level {_shown(v)} is outside [0, 1]")
        if f.denominator > MAX_LEVEL_DENOMINATOR:  # 1e-400: beyond what floats can hold
            raise ParameterError(f"recall level {_shown(v)} has more than 30 decimals")
        given[f] = v
    if not given:
        raise ParameterError("no recall levels given")
    return tuple(sorted(given))


def parse_cutoffs(cutoffs: str | int | Sequence[int] | None) -> tuple[int, ...] | str | None:
    """Document cut-offs: a comma list or sequence of positive integers, ``"standard"``
    (Baeza-Yates & Ribeiro-Neto's 5, 10, 15, 20, 30, 50, 100) or ``"all"`` (every rank of the
    longest ranking)."""
    if cutoffs is None:
        return None
    if isinstance(cutoffs, str):
        text = cutoffs.strip().lower()
        if text == "all":
            return "all"
        if text == "standard":
            return STANDARD_CUTOFFS
        items: list[object] = [p.strip() for p in text.split(",")]
    elif isinstance(cutoffs, int | np.integer) and not isinstance(cutoffs, bool):
        items = [cutoffs]
    elif isinstance(cutoffs, Iterable) and not isinstance(cutoffs, bytes | Mapping):
        items = list(cutoffs)
    else:
        raise ParameterError(
            f"document cut-offs {cutoffs!r}: expected 'all', 'standard' or a list of integers"
        )
    out = []
    for v in items:
        try:
            if isinstance(v, bool | np.bool_):
                raise TypeError
            k = int(v)  # type: ignore[call-overload]  # any item: int() refusing it is the check
            if not isinstance(v, int | np.integer) and str(v).strip() != str(k):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            raise ParameterError(f"document cut-off {show(v)} is not an integer") from None
        if k < 1:
            raise ParameterError(f"document cut-off {k} must be >= 1")
        if k > MAX_CUTOFF:
            raise ParameterError(f"document cut-off {show(k)} must be <= {MAX_CUTOFF:,}")
        out.append(k)
    if not out:
        raise ParameterError("no document cut-offs given")
    return tuple(sorted(set(out)))


def _num_den(level: Fraction, R: np.ndarray) -> tuple[Any, Any, np.ndarray]:
    """Numerator, denominator and ``R`` ready for exact products: int64 when ``b * max(R)``
    fits, else Python integers (a level like ``1e-999`` has a 1000-digit denominator)."""
    a, b = level.numerator, level.denominator
    R = np.asarray(R)
    top = int(R.max(initial=0)) if R.size else 0
    if b * max(top, 1) < 2**62:
        return a, b, R
    return a, b, R.astype(object)


def ceil_count(level: Fraction, R: np.ndarray) -> np.ndarray:
    """``ceil(level * R)`` exactly: relevant documents needed to reach recall ``level``."""
    a, b, R = _num_den(level, R)
    return np.asarray(-((-a * R) // b)).astype(np.int64)


def floor_count(level: Fraction, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(h, t)`` with ``level * R = h + t``, ``h`` integer, ``0 <= t < 1`` (``t`` as a float)."""
    a, b, R = _num_den(level, R)
    h = (a * R) // b
    t = (
        np.asarray([float(Fraction(int(x), b)) for x in (a * R - h * b).ravel()])
        if (R.dtype == object)
        else (a * R - h * b) / b
    )
    return np.asarray(h).astype(np.int64), np.asarray(t, dtype=np.float64).reshape(np.shape(R))
