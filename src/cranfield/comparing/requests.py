"""Per-request analysis: how many queries favour each run, by how much, and for which queries.

- Precision histogram (Baeza-Yates & Ribeiro-Neto, *Modern Information Retrieval*, 1999,
  sec. 3.2.1, eq. 3.5): per query
  ``M_{A/B}(i) = M_A(i) - M_B(i)`` for any measure M, drawn as one bar per query.
- Keen's per-request tables (Keen, "Evaluation Parameters", SMART report ISR-13, sec. 9,
  Fig. 35): the numbers of requests favouring
  option I, option II and equal on both, and their percentages computed three ways (ignoring
  the equal cases, including them, adding them to both options), each with the
  "superiority percentage" = percentage for I minus percentage for II.
- Keen's magnitude-difference plot (Fig. 36): the requests favouring each option, sorted by
  decreasing size of the difference.
- Specific versus general requests (Keen sec. 8): the query set divided into two equal or
  nearly equal groups by the number of relevant documents.

Two values are equal when ``|x - y| <= 1e-12 * max(1, |x|, |y|)`` (float noise is not a win).
"""

from __future__ import annotations

import numbers
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.comparing.checks import floats, show
from cranfield.comparing.paired import differences
from cranfield.errors import ParameterError

__all__ = [
    "GeneralitySplit",
    "KeenRow",
    "MagnitudeDifference",
    "RequestCounts",
    "keen_table",
    "magnitude_difference",
    "natural_key",
    "request_counts",
    "split_by_relevant",
    "superiority",
]


_DIGITS = re.compile(r"(\d+)")


def natural_key(qid: str) -> tuple:
    """Sort key putting ``q2`` before ``q10``: runs of decimal digits compare as numbers (of
    any length, in any script), other characters (superscript digits included) as text."""
    # the digit runs captured by the split sit at the odd positions
    return tuple(
        _number_key(part) if i % 2 else (1, 0, part)
        for i, part in enumerate(_DIGITS.split(qid))
        if part
    )


def _number_key(digits: str) -> tuple[int, int, str]:
    """A run of decimal digits ordered by value, without int() (which refuses more than 4,300
    digits): by length without leading zeros, then digit by digit."""
    if not digits.isascii():
        digits = "".join(str(unicodedata.decimal(c)) for c in digits)
    digits = digits.lstrip("0")
    return (0, len(digits), digits)


@dataclass(frozen=True)
class RequestCounts:
    """Numbers of requests favouring option I (``first``), option II (``second``), or equal."""

    first: int
    second: int
    equal: int

    @property
    def total(self) -> int:
        return self.first + self.second + self.equal


def request_counts(first, second) -> RequestCounts:
    """Count the queries on which the per-query values ``first`` beat, lose to or equal
    ``second`` (higher is better)."""
    d = differences(second, first)  # first - second, float noise zeroed
    return RequestCounts(
        first=int(np.count_nonzero(d > 0)),
        second=int(np.count_nonzero(d < 0)),
        equal=int(np.count_nonzero(d == 0)),
    )


# Request counts are stored as floats in Keen's table: beyond 2^53 they would not be exact.
_MAX_COUNT = 2**53


def _count(value: object) -> int:
    """A number of requests: a whole number (an integral float is accepted) in [0, 2^53]."""
    if isinstance(value, bool):
        raise ParameterError(f"request counts must be whole numbers, got {value!r}")
    try:
        v = int(value) if isinstance(value, numbers.Integral) else _integral_float(value)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"request counts must be whole numbers, got {show(value)}") from None
    if not 0 <= v <= _MAX_COUNT:
        raise ParameterError(f"request counts must lie between 0 and 2^53, got {show(v)}")
    return v


def _integral_float(value: object) -> int:
    f = float(value)  # type: ignore[arg-type]  # any object: float() refusing it is the check
    if not f.is_integer():
        raise ValueError(value)
    return int(f)


def superiority(first: int, second: int) -> float:
    """Keen's superiority percentage ignoring equal cases (Fig. 35, row 2):
    ``100 (first - second) / (first + second)``; 0 when no request favours either option."""
    first, second = _count(first), _count(second)
    if first + second == 0:
        return 0.0
    return 100 * (first - second) / (first + second)  # integers: one correct rounding


@dataclass(frozen=True)
class KeenRow:
    """One row of Keen's Fig. 35; ``None`` where the figure shows a dash or nothing."""

    method: str
    first: float
    second: float
    equal: float | None
    superiority: float | None


KEEN_METHODS = (
    "numbers",
    "percentages ignoring equal cases",
    "percentages including equal cases",
    "percentages adding equal cases to both options",
)


def keen_table(counts: RequestCounts | tuple[int, int, int]) -> list[KeenRow]:
    """Keen's Fig. 35: the numbers of requests and three ways of turning them into percentages.

    With ``f``, ``s``, ``e`` the requests favouring option I, option II and equal, ``t = f+s+e``:

    1. numbers: ``f``, ``s``, ``e``;
    2. ignoring equal cases: ``100 f/(f+s)``, ``100 s/(f+s)``;
    3. including equal cases: ``100 f/t``, ``100 s/t``, ``100 e/t``;
    4. adding equal cases to both options: ``100 (f+e)/t``, ``100 (s+e)/t``;

    and in rows 2-4 the superiority percentage, the option I percentage minus the option II
    percentage.  Empty denominators give 0.  (The OCR'd text says "six methods" but the figure
    has these four rows; we implement the rows shown.)
    """
    if not isinstance(counts, RequestCounts):
        try:
            counts = RequestCounts(*counts)
        except TypeError:
            raise ParameterError(
                f"Keen's table needs three request counts (first, second, equal), got "
                f"{show(counts)}"
            ) from None
    f, s, e = _count(counts.first), _count(counts.second), _count(counts.equal)
    t = f + s + e

    def pct(x: int, total: int) -> float:
        return 100 * x / total if total else 0.0  # integers: one correct rounding

    ign = (pct(f, f + s), pct(s, f + s))
    inc = (pct(f, t), pct(s, t), pct(e, t))
    add = (pct(f + e, t), pct(s + e, t))
    return [
        KeenRow(KEEN_METHODS[0], float(f), float(s), float(e), None),
        KeenRow(KEEN_METHODS[1], ign[0], ign[1], None, ign[0] - ign[1]),
        KeenRow(KEEN_METHODS[2], inc[0], inc[1], inc[2], inc[0] - inc[1]),
        KeenRow(KEEN_METHODS[3], add[0], add[1], None, add[0] - add[1]),
    ]


@dataclass(frozen=True)
class MagnitudeDifference:
    """Keen's magnitude-difference data (Fig. 36): for each option the ``(query, difference)``
    pairs of the requests it wins, by decreasing difference; ``equal`` lists the ties."""

    first_name: str
    second_name: str
    first: tuple[tuple[str, float], ...]
    second: tuple[tuple[str, float], ...]
    equal: tuple[str, ...]


def magnitude_difference(
    query_ids: Sequence[str],
    first,
    second,
    *,
    first_name: str = "I",
    second_name: str = "II",
) -> MagnitudeDifference:
    """Split the per-query differences of two options into the requests favouring each one,
    each sorted by decreasing magnitude (ties of magnitude by query id, naturally)."""
    d = differences(second, first)  # first - second
    if d.ndim != 1 or len(query_ids) != len(d):
        raise ParameterError("query_ids and values differ in length")
    if not all(isinstance(q, str) for q in query_ids):
        raise ParameterError("query ids must be strings")
    wins_first = [(q, float(x)) for q, x in zip(query_ids, d, strict=True) if x > 0]
    wins_second = [(q, float(-x)) for q, x in zip(query_ids, d, strict=True) if x < 0]
    eq = [q for q, x in zip(query_ids, d, strict=True) if x == 0]

    def order(items: list[tuple[str, float]]) -> tuple[tuple[str, float], ...]:
        return tuple(sorted(items, key=lambda t: (-t[1], natural_key(t[0]))))

    return MagnitudeDifference(
        first_name,
        second_name,
        order(wins_first),
        order(wins_second),
        tuple(sorted(eq, key=natural_key)),
    )


@dataclass(frozen=True)
class GeneralitySplit:
    """Queries divided by their number of relevant documents: ``specific`` have at most
    ``threshold`` relevant documents, ``general`` more."""

    threshold: float  # an int when whole (counts may be fractional: num_rel is a mapping)
    specific: tuple[str, ...]
    general: tuple[str, ...]


def split_by_relevant(num_rel: Mapping[str, float]) -> GeneralitySplit:
    """Keen's split into specific and general requests (Keen, ISR-13, sec. 8).

    Queries are divided "into equal or nearly equal groups according to the numbers of
    documents in the collection that are relevant".  Queries with the same number of relevant
    documents stay in the same group: the threshold ``t`` (specific: ``R <= t``, general:
    ``R > t``) is the one that makes the two groups most nearly equal in size (the smaller
    ``t`` on a tie).  Both groups must be non-empty.
    """
    if not num_rel:
        raise ParameterError("no queries to split")
    if not all(isinstance(q, str) for q in num_rel):
        raise ParameterError("query ids must be strings")
    arr = floats(list(num_rel.values()), "numbers of relevant documents")
    if arr.ndim != 1 or not np.isfinite(arr).all():
        raise ParameterError("numbers of relevant documents must be finite numbers")
    counts = dict(zip(num_rel, arr.tolist(), strict=True))
    values, sizes = np.unique(arr, return_counts=True)
    if len(values) < 2:
        raise ParameterError(
            "cannot split requests into specific and general: every query has "
            f"{values[0]:g} relevant documents"
        )
    # k(t) = #{R <= t} for each candidate t (every value but the largest); argmin takes the
    # first, i.e. the smallest t, on a tie of the gap
    gaps = np.abs(len(arr) - 2 * np.cumsum(sizes[:-1]))
    t = float(values[int(np.argmin(gaps))])
    spec = tuple(sorted((q for q, v in counts.items() if v <= t), key=natural_key))
    gen = tuple(sorted((q for q, v in counts.items() if v > t), key=natural_key))
    return GeneralitySplit(
        threshold=int(t) if float(t).is_integer() else t, specific=spec, general=gen
    )
