"""Vectorised whitespace normaliser for TREC text, so that irregular large files parse fast.

``normalize_fields(data)`` rewrites text the way the exact line parser reads it: fields are the
maximal runs of bytes that are not C ``isspace`` (space, tab, LF, CR, VT, FF); a line without
fields (blank) or whose first field starts with ``#`` (a comment) is dropped; every other line
becomes its fields joined by single spaces and ended by ``\\n``.  With ``max_fields=k`` only the
first ``k`` fields of a line are kept (a run line's fields after the run tag are ignored anyway).

The output is the regular layout the Arrow fast path accepts, and ``lines`` maps each output
line to its 1-based line in the input (``None`` when no line was dropped, so that output line
``i`` is input line ``i``).  Everything is numpy over fixed-size chunks of whole lines, so the
memory overhead is a few tens of megabytes whatever the input size.
"""

from __future__ import annotations

import numpy as np

__all__ = ["normalize_fields"]

CHUNK_BYTES = 4 << 20
"""Bytes per chunk (rounded up to the next line end); tests lower it to cover chunk seams."""

_SEP = np.zeros(256, dtype=bool)
_SEP[[9, 10, 11, 12, 13, 32]] = True  # C isspace in the C locale
_NL = 10
_SPACE = 32
_HASH = ord("#")


def normalize_fields(data: bytes, max_fields: int | None = None) -> tuple[bytes, np.ndarray | None]:
    """``(normalised bytes, 1-based input line of each output line or None)``."""
    pieces: list[bytes] = []
    kept_lines: list[np.ndarray] = []
    line_base = 0  # input lines before the current chunk
    start = 0
    n = len(data)
    while start < n:
        stop = data.find(b"\n", min(start + CHUNK_BYTES, n) - 1)
        stop = n if stop < 0 else stop + 1
        chunk = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
        out, lines = _normalize_chunk(chunk, max_fields)
        pieces.append(out)
        kept_lines.append(lines + line_base + 1)
        line_base += int(np.count_nonzero(chunk == _NL))
        start = stop
    lines = np.concatenate(kept_lines) if kept_lines else np.zeros(0, dtype=np.int64)
    identity = len(lines) == 0 or int(lines[-1]) == len(lines)  # no line dropped
    return b"".join(pieces), None if identity else lines


def _normalize_chunk(a: np.ndarray, max_fields: int | None) -> tuple[bytes, np.ndarray]:
    """Normalise whole lines in ``a``; returns the bytes and the 0-based kept line indices."""
    size = len(a)
    sep = ((a - np.uint8(9)) < 5) | (a == _SPACE)  # \t \n \v \f \r or space
    edges = np.flatnonzero(np.diff(sep.view(np.int8), prepend=np.int8(1), append=np.int8(1)))
    starts, ends = edges[0::2], edges[1::2]  # fields are [start, end); end is a separator
    del edges
    newlines = np.flatnonzero(a == _NL)
    bounds = np.empty(len(newlines) + 2, dtype=np.int64)  # first field of each line, and T
    bounds[0] = 0
    bounds[1:-1] = np.searchsorted(starts, newlines)
    bounds[-1] = len(starts)
    nfields = np.diff(bounds)
    line_idx = np.flatnonzero(nfields)  # lines that have fields
    first = bounds[line_idx]
    nfields = nfields[line_idx]
    is_data = a[starts[first]] != _HASH
    if max_fields is not None:
        nfields = np.minimum(nfields, max_fields)

    keep_tokens = ~sep
    del sep
    if not is_data.all() or (max_fields is not None and len(starts) != int(nfields.sum())):
        counts = np.diff(np.append(first, len(starts)))  # fields per line, before truncation
        keep = np.repeat(is_data, counts)
        if max_fields is not None:
            keep &= np.arange(len(starts)) - np.repeat(first, counts) < max_fields
        drop = ~keep
        marks = np.zeros(size + 1, dtype=np.int8)
        marks[starts[drop]] = 1
        marks[ends[drop]] -= 1
        keep_tokens &= ~np.cumsum(marks[:size], dtype=np.int8).view(bool)
        del marks
        starts, ends = starts[keep], ends[keep]
        first, nfields = first[is_data], nfields[is_data]
        first = np.cumsum(nfields) - nfields  # positions among the kept fields
        line_idx = line_idx[is_data]

    out = a.copy()
    inside = ends < size
    sep_pos = ends[inside]
    out[sep_pos] = _SPACE
    last = ends[first + nfields - 1]
    out[last[last < size]] = _NL
    keep_tokens[sep_pos] = True
    text = out[keep_tokens].tobytes()
    if len(ends) and not inside[-1]:
        text += b"\n"  # the input's last line had no final newline
    return text, line_idx.astype(np.int64)
