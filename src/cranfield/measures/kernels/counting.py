"""Exact per-query (segment) arithmetic shared by the measure families.

trec_eval adds per-rank contributions one by one in rank order and uses the C library's
``log``/``log2``; to agree with it to the last bit, sums here are sequential (never pairwise),
and logarithms of non-integers come from :mod:`math` (CPython calls the C library).

The exact segment arithmetic itself (running sums and maxima, totals) lives in
:mod:`cranfield.base.segments`, shared with the judged rankings; this module adds what only the
measures need (C-library logarithms, ``lround``, a per-rankings memo, relevant-row helpers).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from cranfield.base.segments import segment_total

T = TypeVar("T")

__all__ = [
    "c_log",
    "c_log2",
    "count_above",
    "lround",
    "memo",
    "ratio",
    "rel_count_at",
    "relevant_rows",
    "seqsum",
]


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` per query, 0 where ``den <= 0`` (trec_eval's convention for an empty
    denominator: no relevant document, nothing retrieved, no ideal gain)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def lround(x: np.ndarray) -> np.ndarray:
    """C ``lround``: round half away from zero, exactly (no ``x + 0.5`` rounding error)."""
    x = np.asarray(x, dtype=np.float64)
    t = np.trunc(x)
    frac = x - t  # exact
    result: np.ndarray = (t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)).astype(np.int64)
    return result


def _c_log(fn: Callable[[float], float], x: float) -> float:
    if x > 0:
        return fn(x)
    if x == 0:
        return -math.inf
    return math.nan


def c_log2(x: np.ndarray) -> np.ndarray:
    """``log2`` of each element by the C library (NumPy's SIMD log2 may differ in the last bit)."""
    f = math.log2
    return np.array([_c_log(f, v) for v in np.asarray(x, dtype=np.float64).tolist()])


def c_log(x: np.ndarray) -> np.ndarray:
    """Natural ``log`` of each element by the C library."""
    f = math.log
    return np.array([_c_log(f, v) for v in np.asarray(x, dtype=np.float64).tolist()])


# ------------------------------------------------------------------ per-rankings memo
_MEMO: weakref.WeakKeyDictionary[Any, dict[Any, Any]] = weakref.WeakKeyDictionary()


def memo(jr: Any, key: Any, fn: Callable[[], T]) -> T:
    """``fn()`` computed once per judged rankings ``jr`` and ``key`` (arrays shared by many
    measures and cut-offs: relevant rows, gain tables, running sums)."""
    cache = _MEMO.setdefault(jr, {})
    if key not in cache:
        cache[key] = fn()
    value: T = cache[key]  # (stored by this function for this key: fn's type)
    return value


def relevant_rows(jr: Any, rel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, query, rank) of the relevant ranked documents (grade >= rel), in rank order."""

    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = np.flatnonzero(jr.relevant(rel))
        return rows, jr.row_query[rows], jr.rank[rows]

    return memo(jr, ("relevant_rows", max(rel, 0)), build)


def rel_count_at(jr: Any, rel: int, k: int | np.ndarray) -> np.ndarray:
    """Per query: relevant documents among ranks ``1..k`` (``k`` scalar or per query)."""
    _rows, q, rank = relevant_rows(jr, rel)
    limit = k if np.isscalar(k) else np.asarray(k)[q]
    return np.bincount(q[rank <= limit], minlength=jr.num_queries)


def count_above(jr: Any, mask_rows: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per row of ``rows``: how many of ``mask_rows`` (sorted) lie above it in its query."""
    start = jr.offsets[jr.row_query[rows]]
    result: np.ndarray = np.searchsorted(mask_rows, rows) - np.searchsorted(mask_rows, start)
    return result


def seqsum(jr: Any, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per-query sum of ``values`` at ``rows`` (ascending), added one by one in rank order."""
    return segment_total(jr.row_query[rows], values, jr.num_queries)


def rel_ret(jr: Any, rel: int) -> np.ndarray:
    """Per query: number of relevant documents retrieved (RR)."""
    return memo(
        jr,
        ("rel_ret", max(rel, 0)),
        lambda: np.bincount(relevant_rows(jr, rel)[1], minlength=jr.num_queries),
    )


def num_rel(jr: Any, rel: int) -> np.ndarray:
    """Per query: number of relevant documents in the qrels (R)."""
    return memo(jr, ("num_rel", max(rel, 0)), lambda: jr.num_rel(rel))


def mask_count_at(jr: Any, name: str, mask: Callable[[], np.ndarray], k: int) -> np.ndarray:
    """Per query: rows among ranks ``1..k`` where the (memoised) row ``mask`` holds."""

    def build() -> np.ndarray:
        return np.concatenate(([0], np.cumsum(mask(), dtype=np.int64)))

    cs = memo(jr, ("mask_cumsum", name), build)
    start = jr.offsets[:-1]
    result: np.ndarray = (
        cs[start + np.minimum(k, jr.num_ret)] - cs[start]
    )  # k capped first: no overflow
    return result


def rel_position(jr: Any, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """(index of each query's first relevant row within ``relevant_rows``, 1-based position
    of every relevant row among its query's relevant rows)."""

    def build() -> tuple[np.ndarray, np.ndarray]:
        _rows, q, _rank = relevant_rows(jr, rel)
        first = np.searchsorted(q, np.arange(jr.num_queries))
        return first, np.arange(len(q)) - first[q] + 1

    return memo(jr, ("rel_position", max(rel, 0)), build)


def row_seqsum(jr: Any, values: np.ndarray) -> np.ndarray:
    """Per-query sequential sum of a value given for *every* ranked row (rank order)."""
    n = jr.num_ret
    if len(n) and len(values) and (n == n[0]).all():  # rectangular: no scatter needed
        return np.add.accumulate(np.asarray(values, dtype=np.float64).reshape(len(n), -1), axis=1)[
            :, -1
        ]
    return segment_total(jr.row_query, values, jr.num_queries)
