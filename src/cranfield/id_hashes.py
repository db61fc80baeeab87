"""64-bit hashes of the strings of an Arrow string array, by numpy passes over its buffers.

For a string of ``L`` bytes cut into words of 8 bytes ``w_1 .. w_m`` (``m = ceil(L / 8)``),
each read as a little-endian integer, a last word of ``r < 8`` bytes with ``8 - r`` zero
bytes put before it::

    h_0     = L * K                          (mod 2**64)
    x_j     = (h_{j-1} XOR w_j) * K          (mod 2**64)
    h_j     = x_j XOR (x_j >> 29)
    hash    = fmix64(h_m)                    (MurmurHash3's finaliser, Appleby 2011)

with ``K = 0x9E3779B97F4A7C15`` (2**64 over the golden ratio).  The hash depends only on the
string's bytes: equal strings hash alike in any array, slice or process, on any machine.
Different strings may share a hash, so a caller confirms every equal hash on the strings;
the hash only has to be fast and spread well.  Pass ``j`` touches only the strings longer
than ``8 * (j - 1)`` bytes, so one long id among short ones costs no pass over all rows.

Before this module the hashes came from polars (``Series.hash``), whose import alone took
0.17 s and started three threads in every process that read a large run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["hash_arrow", "hash_strings"]

K = np.uint64(0x9E3779B97F4A7C15)
_FMIX_1 = np.uint64(0xFF51AFD7ED558CCD)
_FMIX_2 = np.uint64(0xC4CEB9FE1A85EC53)
CHUNK = 1 << 15
"""Rows hashed at a time."""


def hash_arrow(arr: Any) -> np.ndarray:
    """The hash of each string of an Arrow string array (any string type, chunked or
    not), as int64; a null hashes as the empty string."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
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
        buffers[1], dtype=width, count=n + 1, offset=arr.offset * width(0).itemsize
    )
    data = buffers[2]
    data = np.zeros(0, dtype=np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8)
    if arr.null_count:  # a null's offsets may span bytes: make it empty
        from .arrow import bool_numpy

        valid = bool_numpy(arr.is_valid())
        return _hash(data, offsets, valid)
    return _hash(data, offsets)


def hash_strings(data: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The hash of each string ``data[offsets[i]:offsets[i + 1]]`` (uint8 bytes,
    non-decreasing offsets), as int64."""
    return _hash(data, offsets)


def _hash(data: np.ndarray, offsets: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Hashes of the strings between ``offsets`` (empty where not ``valid``), :data:`CHUNK`
    rows at a time: the scratch arrays stay in the cache and are reused, not faulted in."""
    words = _Words(data)
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint64)
    for lo in range(0, n, CHUNK):
        hi = min(lo + CHUNK, n)
        starts = offsets[lo:hi].astype(np.int64)
        lengths = offsets[lo + 1 : hi + 1] - starts
        if valid is not None:
            lengths[~valid[lo:hi]] = 0
        _hash_chunk(words, starts, lengths, out[lo:hi])
    return out.view(np.int64)


def _hash_chunk(words: _Words, pos: np.ndarray, left: np.ndarray, h: np.ndarray) -> None:
    np.multiply(left.view(np.uint64), K, out=h)
    rows = None  # the strings with bytes left (None: all of them)
    while len(pos):
        w = words.at(pos)
        shift = np.minimum(left, 8).view(np.uint64)  # bytes of this word in the string
        np.subtract(np.uint64(8), shift, out=shift)
        shift <<= np.uint64(3)
        w <<= shift  # only the string's bytes remain (moved to the top)
        x = h if rows is None else h[rows]
        x ^= w
        x *= K
        x ^= x >> np.uint64(29)
        if rows is not None:
            h[rows] = x
        more = np.flatnonzero(left > 8)
        if len(more) == len(left):
            pos, left = pos + 8, left - 8
            continue
        rows = more if rows is None else rows[more]
        pos, left = pos[more] + 8, left[more] - 8
    h ^= h >> np.uint64(33)
    h *= _FMIX_1
    h ^= h >> np.uint64(33)
    h *= _FMIX_2
    h ^= h >> np.uint64(33)


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
        """The words at ``pos`` (non-decreasing offsets below ``len(data)``)."""
        cut = int(np.searchsorted(pos, self.safe, side="right"))
        if cut == len(pos):
            return self.words[pos]
        out = np.empty(len(pos), dtype=np.uint64)
        out[:cut] = self.words[pos[:cut]]
        out[cut:] = self.tail[pos[cut:] - self.base]
        return out


def _unaligned(data: np.ndarray, n: int) -> np.ndarray:
    """``n`` little-endian uint64 values, one starting at each byte of ``data``."""
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    return np.ndarray((n,), dtype="<u8", buffer=data, strides=(1,))
