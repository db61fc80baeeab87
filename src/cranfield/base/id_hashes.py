"""64-bit hashes of ids from their bytes, by numpy passes over an Arrow string array's buffers
(:func:`hash_arrow`), over spans of a text (:func:`hash_spans`: the TREC reader's fields, read in
place) or over Python strings encoded at once (:func:`hash_strings`); the same hash for the
same bytes from all three.

For a string of ``L`` bytes cut into words of 8 bytes ``w_1 .. w_m`` (``m = ceil(L / 8)``),
each read as a little-endian integer, a last word of ``r < 8`` bytes with ``8 - r`` zero
bytes put before it (all arithmetic mod 2**64)::

    y_j     = fmix64(w_j XOR (j * K))
    hash    = fmix64(L * K + y_1 + ... + y_m)

with MurmurHash3's finaliser (Appleby 2011)::

    fmix64(x) = x ^= x >> 33;  x *= 0xFF51AFD7ED558CCD;  x ^= x >> 33;
                x *= 0xC4CEB9FE1A85EC53;  x ^= x >> 33

with ``K = 0x9E3779B97F4A7C15`` (2**64 over the golden ratio).  The hash depends only on the
string's bytes: equal strings hash alike in any array, slice or process, on any machine.
Different strings may share a hash, so a caller confirms every equal hash on the strings;
the hash only has to be fast and spread well.  Each word is mixed on its own (its position
``j`` salts it) and the words' values are summed, so every word of every string is one
element of the same vectorised passes: the cost is linear in the bytes, whatever the lengths
(a chained hash would take one pass per 8 bytes of the longest id, and URLs as ids are long).

Before this module the hashes came from polars (``Series.hash``), whose import alone took
0.17 s and started three threads in every process that read a large run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["hash_arrow", "hash_spans", "hash_strings"]

_K_INT = 0x9E3779B97F4A7C15
_M64 = (1 << 64) - 1
K = np.uint64(_K_INT)
_FMIX_1 = np.uint64(0xFF51AFD7ED558CCD)
_FMIX_2 = np.uint64(0xC4CEB9FE1A85EC53)
CHUNK = 1 << 15
"""Rows (and at most words, but for one long string) hashed at a time."""
LOOP_WORDS = 8
"""Up to ids of this many words, one pass per word position; longer, one pass over all words."""


def hash_arrow(arr: Any) -> np.ndarray:
    """The hash of each string of an Arrow string array (any string type, chunked or
    not), as int64; a null hashes as the empty string."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    width: type[np.int32] | type[np.int64]
    if pa.types.is_large_string(arr.type):
        width = np.int64
    elif pa.types.is_string(arr.type):
        width = np.int32
    else:  # string_view, binary, dictionary, ...: the offsets layout
        return hash_arrow(arr.cast(pa.large_string()))
    n = len(arr)
    buffers = arr.buffers()
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.frombuffer(
        buffers[1], dtype=width, count=n + 1, offset=arr.offset * np.dtype(width).itemsize
    )
    data = buffers[2]
    data = np.zeros(0, dtype=np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8)
    if arr.null_count:  # a null's offsets may span bytes: make it empty
        from cranfield.base.arrow import bool_numpy

        valid = bool_numpy(arr.is_valid())
        return _hash(data, offsets, valid)
    return _hash(data, offsets)


def _hash(data: np.ndarray, offsets: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Hashes of the strings between ``offsets`` (empty where not ``valid``)."""

    def span(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        starts = offsets[lo:hi].astype(np.int64)
        lengths = offsets[lo + 1 : hi + 1] - starts
        if valid is not None:
            lengths[~valid[lo:hi]] = 0
        return starts, lengths

    return _hash_chunks(_Words(data), len(offsets) - 1, span)


def hash_spans(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The hash of each string ``data[starts[i] : starts[i] + lengths[i]]`` (``data``: uint8
    bytes; ``starts`` non-decreasing), as int64: what :func:`hash_arrow` gives for the same
    strings, from the text they were read from (nothing gathered or copied)."""

    def span(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return starts[lo:hi].astype(np.int64), lengths[lo:hi].astype(np.int64)

    return _hash_chunks(_Words(data), len(starts), span)


def _hash_chunks(words: _Words, n: int, span: Any) -> np.ndarray:
    """The hashes of ``n`` strings, ``span(lo, hi)`` giving the (starts, lengths) of rows
    ``lo:hi``, about :data:`CHUNK` rows and words at a time: the scratch arrays stay in the
    cache and are reused, not faulted in afresh."""
    out = np.empty(n, dtype=np.uint64)
    lo = 0
    while lo < n:
        hi = min(lo + CHUNK, n)
        starts, lengths = span(lo, hi)
        if int(lengths.sum()) > 8 * CHUNK:  # long strings: fewer rows
            ends = np.cumsum((lengths + 7) >> 3)
            cut = max(int(np.searchsorted(ends, CHUNK, side="right")), 1)
            hi, starts, lengths = lo + cut, starts[:cut], lengths[:cut]
        _hash_rows(words, starts, lengths, out[lo:hi])
        lo = hi
    return out.view(np.int64)


def hash_strings(values: Sequence[str]) -> np.ndarray:
    """The hash of each Python string (of its UTF-8 bytes; a lone surrogate as its three
    bytes), as int64: what :func:`hash_arrow` gives for the same strings.  The strings are
    encoded at once, joined by LF (ids hold no control character; when one holds a LF, each
    is measured on its own)."""
    if not values:
        return np.zeros(0, dtype=np.int64)
    joined = "\n".join(values).encode("utf-8", "surrogatepass")
    data = np.frombuffer(joined, dtype=np.uint8)
    starts = np.empty(len(values), dtype=np.int64)
    starts[0] = 0
    cuts = np.flatnonzero(data == 10)
    if len(cuts) == len(values) - 1:
        starts[1:] = cuts + 1
        lengths = np.empty(len(values), dtype=np.int64)
        lengths[:-1] = cuts - starts[:-1]
        lengths[-1] = len(data) - starts[-1]
    else:  # an id with a LF in it
        sizes = [len(v.encode("utf-8", "surrogatepass")) for v in values]
        lengths = np.array(sizes, dtype=np.int64)
        np.cumsum(lengths[:-1] + 1, out=starts[1:])
    return hash_spans(data, starts, lengths)


def _hash_rows(words: _Words, starts: np.ndarray, lengths: np.ndarray, h: np.ndarray) -> None:
    """The hashes of the rows ``(starts, lengths)`` (int64) of ``words``' bytes, into ``h``."""
    if not len(h):
        return
    maxlen = int(lengths.max())
    if maxlen > 8 * LOOP_WORDS:
        y = _sum_by_word(words, starts, lengths)
    else:
        y = _sum_by_position(words, starts, lengths, maxlen)
    np.multiply(lengths.view(np.uint64), K, out=h)
    h += y
    _fmix64(h)


def _sum_by_position(
    words: _Words, starts: np.ndarray, lengths: np.ndarray, maxlen: int
) -> np.ndarray:
    """``y_1 + ... + y_m`` of each row, one pass per word position (for short ids)."""
    y = _mixed(words.at(starts), lengths, K)
    if not lengths.all():
        y[lengths == 0] = 0  # no word
    rows = None  # the rows with words left (None: all of them)
    pos, left = starts, lengths
    for j in range(2, (maxlen + 7) // 8 + 1):
        more = np.flatnonzero(left > 8)
        if len(more) == len(left):
            pos, left = pos + 8, left - 8
        else:
            rows = more if rows is None else rows[more]
            pos, left = pos[more] + 8, left[more] - 8
        y_j = _mixed(words.at(pos), left, np.uint64(j * _K_INT & _M64))
        if rows is None:
            y += y_j
        else:
            y[rows] += y_j
    return y


def _sum_by_word(words: _Words, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``y_1 + ... + y_m`` of each row, every word of every row in one pass (for long ids)."""
    nwords = (lengths + 7) >> 3
    firsts = np.cumsum(nwords) - nwords  # each row's first word
    row_of = np.repeat(np.arange(len(nwords)), nwords)
    j = np.arange(len(row_of), dtype=np.int64) - firsts[row_of]  # 0-based in its row
    at = 8 * j
    y_j = _mixed(words.at(starts[row_of] + at), lengths[row_of] - at, (j + 1).view(np.uint64) * K)
    y = np.zeros(len(nwords), dtype=np.uint64)
    has = nwords > 0
    if has.any():
        y[has] = np.add.reduceat(y_j, firsts[has])
    return y


def _fmix64(x: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser, in place."""
    x ^= x >> np.uint64(33)
    x *= _FMIX_1
    x ^= x >> np.uint64(33)
    x *= _FMIX_2
    x ^= x >> np.uint64(33)
    return x


def _mixed(w: np.ndarray, left: np.ndarray, salt: Any) -> np.ndarray:
    """``y_j`` of the words ``w`` (``left``: bytes of the string from each word on, >= 1
    where it matters; ``salt``: ``j * K`` of their 1-based positions)."""
    shift = np.minimum(left, 8).view(np.uint64)  # bytes of this word in the string
    np.subtract(np.uint64(8), shift, out=shift)
    shift <<= np.uint64(3)
    w <<= shift  # only the string's bytes remain (moved to the top)
    w ^= salt
    return _fmix64(w)


class _Words:
    """The 8 bytes at any offset of ``data`` as a little-endian uint64, zero after its end."""

    def __init__(self, data: np.ndarray) -> None:
        n = len(data)
        self.safe = n - 8  # offsets up to here are read in place
        self.base = max(n - 8, 0)
        tail = np.zeros(16, dtype=np.uint8)
        tail[: n - self.base] = data[self.base :]
        self.tail = _unaligned(tail, 9)
        self.words = _unaligned(data, max(n - 7, 0))

    def at(self, pos: np.ndarray) -> np.ndarray:
        """The words at ``pos`` (non-decreasing offsets up to ``len(data)``, where an empty
        string at the end starts)."""
        cut = int(np.searchsorted(pos, self.safe, side="right"))
        if cut == len(pos):
            result: np.ndarray = self.words[pos]
            return result
        out = np.empty(len(pos), dtype=np.uint64)
        out[:cut] = self.words[pos[:cut]]
        out[cut:] = self.tail[pos[cut:] - self.base]
        return out


def _unaligned(data: np.ndarray, n: int) -> np.ndarray:
    """``n`` little-endian uint64 values, one starting at each byte of ``data``."""
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    return np.ndarray((n,), dtype="<u8", buffer=data, strides=(1,))
