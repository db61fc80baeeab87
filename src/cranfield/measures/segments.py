"""Exact per-query (segment) arithmetic shared by the measure families.

trec_eval adds per-rank contributions one by one in rank order and uses the C library's
``log``/``log2``; to agree with it to the last bit, sums here are sequential (never pairwise),
and logarithms of non-integers come from :mod:`math` (CPython calls the C library).

A *segment* array gives, for each element, the index of its query; it must be
non-decreasing (elements of one query are contiguous and in rank order).

Two strategies compute per-segment running sums/maxima exactly: one ``ufunc.accumulate``
per segment (sequential by definition) when segments are few, or one vectorised step per
position when segments are many and short.  Both give identical bits.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "c_log",
    "c_log2",
    "first_in_segment",
    "lround",
    "segment_bounds",
    "segment_cummax_reverse",
    "segment_cumsum",
    "segment_last",
    "segment_total",
]


def segment_bounds(segment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, length) of every non-empty segment, in order."""
    n = len(segment)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(segment[1:], segment[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return starts, np.diff(np.append(starts, n))


def _accumulate(ufunc: np.ufunc, segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    out = np.empty(len(values), dtype=np.float64)
    if len(values) == 0:
        return out
    starts, lengths = segment_bounds(np.asarray(segment))
    maxlen = int(lengths.max())
    if len(starts) <= maxlen:  # few (long) segments: one sequential accumulate each
        for a, n in zip(starts.tolist(), lengths.tolist(), strict=True):
            ufunc.accumulate(values[a : a + n], out=out[a : a + n])
        return out
    order = np.argsort(-lengths, kind="stable")
    s = starts[order]
    active = np.searchsorted(-lengths[order], -np.arange(maxlen), side="left")
    out[s] = values[s]
    for j in range(1, maxlen):
        idx = s[: active[j]] + j
        out[idx] = ufunc(out[idx - 1], values[idx])
    return out


def segment_cumsum(segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Running sum within each segment, added one element at a time from 0.0."""
    return _accumulate(np.add, segment, values)


def segment_cummax_reverse(segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per element: the maximum of the values at or after it within its segment."""
    values = np.asarray(values, dtype=np.float64)
    segment = np.asarray(segment)
    rev = _accumulate(np.maximum, segment[::-1], values[::-1])
    return rev[::-1]


def segment_last(segment: np.ndarray, values: np.ndarray, num_segments: int, fill: float = 0.0):
    """The last value of every segment (``fill`` for segments without elements)."""
    out = np.full(num_segments, fill, dtype=np.float64)
    if len(segment):
        starts, lengths = segment_bounds(np.asarray(segment))
        last = starts + lengths - 1
        out[np.asarray(segment)[last]] = np.asarray(values, dtype=np.float64)[last]
    return out


def segment_total(segment: np.ndarray, values: np.ndarray, num_segments: int) -> np.ndarray:
    """Per-segment sums added sequentially in the given order (0.0 for empty segments)."""
    return segment_last(segment, segment_cumsum(segment, values), num_segments)


def first_in_segment(segment: np.ndarray) -> np.ndarray:
    """Boolean per element: is it the first of its segment."""
    segment = np.asarray(segment)
    out = np.ones(len(segment), dtype=bool)
    if len(segment) > 1:
        np.not_equal(segment[1:], segment[:-1], out=out[1:])
    return out


def lround(x: np.ndarray) -> np.ndarray:
    """C ``lround``: round half away from zero, exactly (no ``x + 0.5`` rounding error)."""
    x = np.asarray(x, dtype=np.float64)
    t = np.trunc(x)
    frac = x - t  # exact
    return (t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)).astype(np.int64)


def _c_log(fn, x: float) -> float:
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
