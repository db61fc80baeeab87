"""Vectorised whitespace normaliser for TREC text, so that irregular large files parse fast.

``normalize_fields(data)`` rewrites text the way the exact line parser reads it: fields are the
maximal runs of bytes that are not C ``isspace`` (space, tab, LF, CR, VT, FF); a line without
fields (blank) or whose first field starts with ``#`` (a comment) is dropped; every other line
becomes its fields joined by single spaces and ended by ``\\n``.  With ``max_fields=k`` only the
first ``k`` fields of a line are kept (a run line's fields after the run tag are ignored anyway).

The output is the regular layout the Arrow fast path accepts, and ``lines`` maps each output
line to its 1-based line in the input (``None`` when no line was dropped, so that output line
``i`` is input line ``i``).  The result also counts the input's lines (blank, comments, data
lines with more than ``max_fields`` fields) and lists the *suspects*: lines the caller must
look at one by one (comment lines with ``comment_fields`` fields; with ``joined``, data lines
that may hold two results, see :func:`~cranfield.io.trec.fields.repeats_field_1`), by the byte
offset of their first field.  Everything is numpy over
fixed-size chunks of whole lines, so the memory overhead is a few tens of megabytes whatever
the input size.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cranfield.io.trec.fields import repeats_field_1

__all__ = ["Normalized", "normalize_fields"]

CHUNK_BYTES = 4 << 20
"""Bytes per chunk (rounded up to the next line end); tests lower it to cover chunk seams."""

_SEP = np.zeros(256, dtype=bool)
_SEP[[9, 10, 11, 12, 13, 32]] = True  # C isspace in the C locale
_NL = 10
_SPACE = 32
_HASH = ord("#")


class Normalized(NamedTuple):
    """The result of :func:`normalize_fields`."""

    data: bytes
    lines: np.ndarray | None
    """1-based input line of each output line, ``None`` if they are the same."""
    nlines: int
    """Lines of the input."""
    blank: int
    comments: int
    extra: int
    """Data lines with more than ``max_fields`` fields."""
    first_extra: int | None
    suspects: np.ndarray
    """Byte offsets (in the input) of the first field of each suspect line, in file order."""


class _Chunk(NamedTuple):
    text: bytes
    kept: np.ndarray  # 0-based indices of the kept lines in the chunk
    lines: int
    blank: int
    comments: int
    extra: np.ndarray  # 0-based indices of the data lines with extra fields
    suspects: np.ndarray  # offsets in the chunk


def normalize_fields(
    data: bytes,
    max_fields: int | None = None,
    *,
    comment_fields: tuple[int, int] | None = None,
    joined: bool = False,
) -> Normalized:
    """Normalise ``data`` (see the module docstring).

    ``comment_fields=(lo, hi)`` makes comment lines of ``lo`` to ``hi`` fields suspects,
    ``joined`` the data lines that may hold two run results.
    """
    pieces: list[bytes] = []
    kept_lines: list[np.ndarray] = []
    suspects: list[np.ndarray] = []
    line_base = 0  # input lines before the current chunk
    nlines = blank = comments = extra = 0
    first_extra = None
    start = 0
    n = len(data)
    while start < n:
        stop = data.find(b"\n", min(start + CHUNK_BYTES, n) - 1)
        stop = n if stop < 0 else stop + 1
        chunk = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
        c = _normalize_chunk(chunk, max_fields, comment_fields, joined)
        pieces.append(c.text)
        kept_lines.append(c.kept + line_base + 1)
        suspects.append(c.suspects + start)
        nlines += c.lines
        blank += c.blank
        comments += c.comments
        if len(c.extra):
            if first_extra is None:
                first_extra = int(c.extra[0]) + line_base + 1
            extra += len(c.extra)
        line_base += int(np.count_nonzero(chunk == _NL))
        start = stop
    lines = np.concatenate(kept_lines) if kept_lines else np.zeros(0, dtype=np.int64)
    identity = len(lines) == 0 or int(lines[-1]) == len(lines)  # no line dropped
    return Normalized(
        b"".join(pieces),
        None if identity else lines,
        nlines,
        blank,
        comments,
        extra,
        first_extra,
        np.concatenate(suspects) if suspects else np.zeros(0, dtype=np.int64),
    )


def _normalize_chunk(
    a: np.ndarray,
    max_fields: int | None,
    comment_fields: tuple[int, int] | None,
    joined: bool,
) -> _Chunk:
    """Normalise whole lines in ``a`` (and count them)."""
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
    nlines = len(newlines) + int(size > 0 and a[-1] != _NL)  # a last line without its LF
    ncomments = len(is_data) - int(np.count_nonzero(is_data))
    suspect = np.zeros(len(first), dtype=bool)
    if comment_fields is not None and ncomments:
        lo, hi = comment_fields
        suspect |= ~is_data & (nfields >= lo) & (nfields <= hi)
    if joined:
        suspect |= is_data & repeats_field_1(a, starts, ends, first, nfields)
    extra = np.zeros(0, dtype=np.int64)
    if max_fields is not None:
        long = is_data & (nfields > max_fields)
        if long.any():
            extra = line_idx[long]
        nfields = np.minimum(nfields, max_fields)
    stats = (nlines, nlines - len(line_idx), ncomments, extra, starts[first[suspect]])

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
    return _Chunk(text, line_idx.astype(np.int64), *stats)
