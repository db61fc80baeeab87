"""The nesting of JSON text, bounded before any parser sees it.

A JSON parser's time and stack grow with the nesting: Arrow's JSON reader took 87 s on one
line nested 7,000 levels deep, and crashed the process (a segmentation fault) at 20,000, a
40 KB file, even when the nesting was in a key the reader ignores.  Qrels and runs are tables,
so no line of JSON lines (and no JSON document) may nest arrays and objects more than
:data:`MAX_DEPTH` levels deep; the first place that does is an error naming the line and the
column, found by numpy over the bytes (the brackets outside strings, counted by the quotes
before them on their line, escaped quotes aside) before any parser runs.  Under the bound,
the parsers' work on a line is proportional to its length.
"""

from __future__ import annotations

import numpy as np

from cranfield.errors import InputError

__all__ = ["MAX_DEPTH", "check_depth"]

MAX_DEPTH = 128
"""The deepest nesting of arrays and objects accepted (serde_json's default limit); a row of
a table is an object, 1."""
_CHUNK = 1 << 20
"""Bytes looked at a time (extended to a line end), so that the scratch arrays stay small."""
_OPEN = (ord("["), ord("{"))
_CLOSE = (ord("]"), ord("}"))


def check_depth(data: bytes, source: str, *, lines: bool) -> None:
    """Refuse ``data`` if it nests deeper than :data:`MAX_DEPTH`: every line on its own
    (``lines``: JSON lines), or the whole text as one document."""
    a = np.frombuffer(data, dtype=np.uint8)
    depth = 0  # the nesting carried from one chunk to the next (one document)
    lo = 0
    while lo < len(a):
        hi = min(lo + _CHUNK, len(a))
        if hi < len(a):
            end = data.find(b"\n", hi)
            hi = len(a) if end < 0 else end + 1
        chunk = a[lo:hi]
        if lines and _opens_per_line_at_most(chunk, MAX_DEPTH):
            lo = hi
            continue
        depth, deep = _depths(chunk, 0 if lines else depth, lines)
        if deep is not None:
            at = lo + deep
            line = data.count(b"\n", 0, at) + 1
            column = len(data[data.rfind(b"\n", 0, at) + 1 : at].decode("utf-8", "replace")) + 1
            raise InputError(
                source,
                f"JSON nested more than {MAX_DEPTH} levels deep (at column {column}); a row of "
                "qrels or a run is one object, and deeper nesting is refused before parsing",
                line=line,
            )
        lo = hi


def _opens_per_line_at_most(chunk: np.ndarray, limit: int) -> bool:
    """Whether no line of ``chunk`` has more than ``limit`` ``[`` or ``{`` (then none nests
    deeper): the usual JSON lines file, one object per line, costs a few passes."""
    opens = np.flatnonzero((chunk == _OPEN[0]) | (chunk == _OPEN[1]))
    if len(opens) <= limit:
        return True
    line_of = np.searchsorted(np.flatnonzero(chunk == 10), opens)
    return int(np.bincount(line_of).max()) <= limit


def _depths(chunk: np.ndarray, depth: int, lines: bool) -> tuple[int, int | None]:
    """The nesting after ``chunk`` (from ``depth`` before it) and the offset of the first
    bracket that opens level :data:`MAX_DEPTH` + 1, or ``None``.  Brackets inside strings do
    not count: a bracket is inside one when an odd number of unescaped quotes precede it on
    its line (a JSON string cannot hold a newline)."""
    n = len(chunk)
    quotes = np.flatnonzero(chunk == ord('"'))
    if len(quotes) and (chunk == ord("\\")).any():  # drop the quotes a backslash escapes
        at = np.arange(n)
        last_other = np.maximum.accumulate(np.where(chunk != ord("\\"), at, -1))
        before = quotes - 1
        run = np.where(before >= 0, before - last_other[np.maximum(before, 0)], 0)
        quotes = quotes[run % 2 == 0]
    opens = np.flatnonzero((chunk == _OPEN[0]) | (chunk == _OPEN[1]))
    closes = np.flatnonzero((chunk == _CLOSE[0]) | (chunk == _CLOSE[1]))
    pos = np.concatenate((opens, closes))
    step = np.concatenate((np.ones(len(opens), np.int64), -np.ones(len(closes), np.int64)))
    order = np.argsort(pos, kind="stable")
    pos, step = pos[order], step[order]
    newlines = np.flatnonzero(chunk == 10)
    line = np.searchsorted(newlines, pos)  # the line (within the chunk) of each bracket
    line_start = np.concatenate(([0], newlines + 1))[line]
    inside = (np.searchsorted(quotes, pos) - np.searchsorted(quotes, line_start)) % 2 == 1
    pos, step, line = pos[~inside], step[~inside], line[~inside]
    if not len(pos):
        return depth, None
    level = np.cumsum(step) + depth
    if lines:  # each line starts at level 0: subtract the level before its first bracket
        first = np.ones(len(line), dtype=bool)
        first[1:] = line[1:] != line[:-1]
        before = level - step
        start = np.maximum.accumulate(np.where(first, np.arange(len(line)), 0))
        level = level - before[start]
    deep = np.flatnonzero(level > MAX_DEPTH)
    return int(level[-1]), (int(pos[deep[0]]) if len(deep) else None)
