"""Exact arithmetic over segments (the queries of CSR arrays), shared by the whole package.

A *segment* array gives, for each element, the index of its query; it must be
non-decreasing (elements of one query are contiguous and in rank order).

trec_eval adds per-rank contributions one by one in rank order.  Floating-point addition is
not associative, so running sums here are sequential within a segment (never pairwise, as
``np.add.reduceat`` is), which makes sums agree with trec_eval to the last bit.  Two
strategies compute them: one ``ufunc.accumulate`` along a padded matrix or per segment
(sequential by definition), or one vectorised step per position when segments are many and
of very unequal length.  All give identical bits.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "permute_blocks",
    "segment_bounds",
    "segment_cummax_reverse",
    "segment_cumprod",
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


def permute_blocks(starts: np.ndarray, lengths: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Row positions that lay out the blocks ``(starts, lengths)`` (of rows, one after the
    other) in the given order, each block's rows kept in order: linear time, no row sort."""
    lengths = lengths[order]
    src = np.repeat(starts[order] - (np.cumsum(lengths) - lengths), lengths)
    src += np.arange(len(src), dtype=np.int64)
    return src


def _accumulate(ufunc: np.ufunc, segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    out = np.empty(len(values), dtype=np.float64)
    n = len(values)
    if n == 0:
        return out
    starts, lengths = segment_bounds(np.asarray(segment))
    nseg, maxlen = len(starts), int(lengths.max())
    if nseg * maxlen <= max(4 * n, 1 << 16):  # one accumulate along the rows of a padded matrix
        first = np.repeat(starts, lengths)
        pos = np.arange(n) - first
        seg = np.repeat(np.arange(nseg), lengths)
        pad = np.zeros((nseg, maxlen))
        pad[seg, pos] = values
        result: np.ndarray = ufunc.accumulate(pad, axis=1)[seg, pos]
        return result
    if nseg <= maxlen:  # few (long) segments: one sequential accumulate each
        for a, m in zip(starts.tolist(), lengths.tolist(), strict=True):
            ufunc.accumulate(values[a : a + m], out=out[a : a + m])
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


def segment_cumprod(segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Running product within each segment, multiplied one element at a time."""
    return _accumulate(np.multiply, segment, values)


def segment_cummax_reverse(segment: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per element: the maximum of the values at or after it within its segment."""
    values = np.asarray(values, dtype=np.float64)
    segment = np.asarray(segment)
    rev = _accumulate(np.maximum, segment[::-1], values[::-1])
    return rev[::-1]


def segment_last(
    segment: np.ndarray, values: np.ndarray, num_segments: int, fill: float = 0.0
) -> np.ndarray:
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
