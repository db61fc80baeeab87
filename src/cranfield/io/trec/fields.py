"""Vectorised field splitter for TREC text, the fast path of small and mid-size files.

:func:`split_fields` reads text the way the exact line parser (``text._data_lines``) does:
fields are maximal runs of bytes that are not C ``isspace`` (space, tab, LF, CR, VT, FF); a
line is ended by LF only; a line without fields (blank) or whose first field starts with ``#``
(a comment) carries no data.  It does this with a few numpy passes over the bytes instead of a
Python loop over lines, and converts columns without creating a Python object per field.
Fresh memory costs a page fault per 4 KiB (about 2 microseconds each on the project machine,
much of the time a small run took to read), so the work is done in a few arrays of one entry
per line or per field, never of several bytes per byte of text:

- :func:`split_fields` scans the bytes for field edges and line ends 64 KiB at a time, in
  reused scratch buffers, and keeps the edges as int32;
- :meth:`Fields.strings` gathers one column's bytes, separated by ``\\n``, and decodes them
  with one ``decode`` and one ``split``;
- :meth:`Fields.integers` reads ``[+-]?[0-9]+`` tokens as int64, digit by digit, one byte
  position of every token at a time (:class:`_Column`);
- :meth:`Fields.decimals` reads scores as float64 exactly as Python's ``float`` does: a token
  ``[+-]?digits[.digits]`` with at most 15 digits is the integer ``m`` of its digits divided
  by ``10**k`` (``k`` digits after the point), and since ``m < 2**53`` and ``10**k <= 10**15``
  are both exact doubles, the one correctly rounded IEEE division gives the correctly rounded
  value of the decimal, which is what ``float`` returns (Clinger's fast path, W. D. Clinger,
  "How to read floating point numbers accurately", PLDI 1990, sec. 5).  Other tokens (an
  exponent, more digits, ``inf``) go through ``float`` one by one.

A conversion returns ``None`` when a token is not what the exact parser accepts; the reader
then hands the whole file to the exact parser, so every error message is the exact parser's.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["Fields", "repeats_field_1", "split_fields"]

_NL = 10
_SPACE = 32
_HASH = ord("#")
_ZERO = ord("0")
_DOT = ord(".")
_PLUS = ord("+")
_MINUS = ord("-")
_POW10_FLOAT = 10.0 ** np.arange(16, dtype=np.float64)  # exact doubles
_MAX_DIGITS = 15  # 10**15 < 2**53: every such digit string is an exact double
_MAX_WIDTH = 32  # longer tokens are read one by one
_LEAD = _MAX_WIDTH  # spaces before the text: no token window starts before the array
_BLOCK = 1 << 16  # bytes per block of the whitespace scan (_scan)


class Fields:
    """The fields of the data lines of one text (see :func:`split_fields`).

    ``lines`` holds the 1-based line number of each data line, ``first`` the index of its
    first field in ``starts``/``ends`` and ``count`` its number of fields.  ``starts`` and
    ``ends`` (exclusive) are offsets in the internal byte array, which is the text after
    :data:`_LEAD` spaces.  ``comment_first``/``comment_count``/``comment_lines`` say the
    same of the comment lines; ``nlines`` is the number of lines of the text, ``blank`` of
    those without fields.
    """

    __slots__ = (
        "_bytes",
        "blank",
        "comment_count",
        "comment_first",
        "comment_lines",
        "count",
        "ends",
        "first",
        "lines",
        "nlines",
        "starts",
    )
    # set by split_fields after construction
    nlines: int
    blank: int
    comment_first: np.ndarray
    comment_count: np.ndarray
    comment_lines: np.ndarray

    def __init__(
        self,
        data: np.ndarray,
        starts: np.ndarray,
        ends: np.ndarray,
        first: np.ndarray,
        count: np.ndarray,
        lines: np.ndarray,
    ) -> None:
        self._bytes = data
        self.starts, self.ends = starts, ends
        self.first, self.count, self.lines = first, count, lines

    def __len__(self) -> int:
        return len(self.first)

    def may_hold_two_results(self) -> np.ndarray:
        """Per data line: :func:`repeats_field_1`."""
        return repeats_field_1(self._bytes, self.starts, self.ends, self.first, self.count)

    def line_tokens(self, first: int, count: int) -> list[bytes]:
        """The ``count`` fields from field index ``first`` on (one line's), as bytes."""
        return [self._token(i) for i in range(first, first + count)]

    def strings(self, k: int, rows: np.ndarray | None = None) -> list[str]:
        """Field ``k`` of every line (or of the given line indices) as Python strings (the
        text must be valid UTF-8).

        The tokens' bytes are gathered into one buffer, each followed by ``\\n``, which one
        ``decode`` and one ``split`` turn into strings.  Tokens up to :data:`_MAX_WIDTH`
        bytes are gathered as a (lines x width) byte matrix of the windows ending at each
        token's separator, kept where a byte belongs to the token or is its separator: one
        byte and one flag per cell, instead of two 8-byte positions per byte gathered."""
        idx = self.first + k if rows is None else self.first[rows] + k
        if not len(idx):
            return []
        ends = self.ends[idx]  # each token's separator (whitespace, or the final LF)
        length = ends - self.starts[idx]
        w = int(length.max()) + 1
        if w <= _MAX_WIDTH + 1:  # the text is preceded by _LEAD >= w - 1 spaces
            windows = np.lib.stride_tricks.sliding_window_view(self._bytes, w)
            m = windows[ends - (w - 1)]
            m[:, -1] = _NL
            keep = np.arange(w - 1, -1, -1) <= length[:, None]  # distance from the end
            out = m[keep]
        else:
            s = self.starts[idx]
            length += 1  # with the separator
            stop = np.cumsum(length)
            pos = np.arange(int(stop[-1]), dtype=np.int64)
            pos -= np.repeat(stop - length - s, length)
            out = self._bytes[pos]
            out[stop - 1] = _NL
        return out[:-1].tobytes().decode("utf-8").split("\n")

    def hashes(self, k: int) -> np.ndarray:
        """Field ``k`` of every line hashed (:func:`cranfield.base.id_hashes.hash_spans`: the
        hashes :meth:`strings`' strings have), read in place from the text."""
        from cranfield.base.id_hashes import hash_spans

        idx = self.first + k
        starts = self.starts[idx]
        return hash_spans(self._bytes, starts, self.ends[idx] - starts)

    def changes(self, k: int) -> np.ndarray:
        """Whether field ``k`` of each line differs from the previous line's (the first line
        counts as a change): the blocks of equal ids, without a string per line."""
        n = len(self)
        changed = np.ones(n, dtype=bool)
        if n < 2:
            return changed
        col = _Column(self, k)
        same = np.ones(n - 1, dtype=bool)
        for _, row, _ in col.rows():  # NUL padding: lengths are compared too
            same &= row[1:] == row[:-1]
        changed[1:] = ~same
        for i in np.flatnonzero(same & (col.long[1:] | col.long[:-1])).tolist():  # cut tokens
            changed[i + 1] = self._token(col.idx[i + 1]) != self._token(col.idx[i])
        return changed

    def _token(self, i: int) -> bytes:
        return self._bytes[self.starts[i] : self.ends[i]].tobytes()

    def last_string(self, k: int) -> str | None:
        """Field ``k`` of the last line."""
        if not len(self):
            return None
        return self._token(int(self.first[-1]) + k).decode("utf-8")

    def integers(self, k: int) -> np.ndarray | None:
        """Field ``k`` as int64 if every token is ``[+-]?[0-9]+`` with at most 18 digits (so
        in range), else ``None``."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        t = _Number(_Column(self, k))
        if not t.plain.all() or t.ndots.any() or t.col.long.any():
            return None
        if not ((t.ndigits >= 1) & (t.ndigits <= 18)).all():
            return None
        return t.signed(t.mantissa)

    def decimals(self, k: int) -> np.ndarray | None:
        """Field ``k`` as float64, each value equal to Python's ``float(token)``; ``None`` if a
        token is not a number ``float`` reads, or holds an underscore (which ``float`` would
        accept as a digit separator but the exact parser refuses)."""
        if not len(self):
            return np.zeros(0, dtype=np.float64)
        t = _Number(_Column(self, k))
        simple = t.plain & (t.ndigits >= 1) & (t.ndigits <= _MAX_DIGITS) & (t.ndots <= 1)
        simple &= ~t.col.long
        # digits after the point: every byte right of the point is a digit in a simple token
        frac = np.where(simple & (t.ndots == 1), t.col.width - 1 - t.dot_row, 0)
        values = t.signed(t.mantissa / _POW10_FLOAT[frac])
        for i in np.flatnonzero(~simple).tolist():  # exponents, long digit strings, inf, ...
            tok = self._token(t.col.idx[i])
            if b"_" in tok:
                return None
            try:
                values[i] = float(tok)
            except ValueError:
                return None
        return values


class _Column:
    """Field ``k`` of every line, read one byte position (row) at a time: the tokens
    right-aligned to a common width and padded on the left with NUL (which the text cannot
    hold), row ``r`` holding byte ``r`` of every token.  Tokens longer than
    :data:`_MAX_WIDTH` are cut to their last bytes and marked ``long``.  A row is one byte
    per line, so the work needs no more memory than a few arrays of the lines."""

    def __init__(self, fields: Fields, k: int) -> None:
        self.idx = fields.first + k
        self._a = fields._bytes
        self.ends = fields.ends[self.idx]
        length = self.ends - fields.starts[self.idx]
        self.long = length > _MAX_WIDTH
        self.width = min(int(length.max()), _MAX_WIDTH)
        self.start_row = self.width - length  # row of each token's first byte (< 0 if long)

    def rows(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """``(r, bytes, pad)`` for each row: the bytes (NUL where padded) and where padded.
        The text is preceded by :data:`_LEAD` >= ``width`` spaces, so every position read
        lies inside the array."""
        pos = self.ends - self.width
        for r in range(self.width):
            row = self._a[pos]
            pad = self.start_row > r
            row[pad] = 0
            yield r, row, pad
            pos += 1


class _Number:
    """What :meth:`Fields.integers` and :meth:`Fields.decimals` need of a column, in one pass
    over its rows: whether each token holds only digits, points, a leading sign (``plain``),
    its numbers of digits and points, the row of its (last) point, whether it has a ``-``,
    and the integer of its digits by Horner's rule (``m = m * 10 + d`` at a digit, unchanged
    elsewhere; garbage, never used, beyond 18 digits)."""

    def __init__(self, col: _Column) -> None:
        self.col = col
        n = len(col.ends)
        self.plain = np.ones(n, dtype=bool)
        self.ndigits = np.zeros(n, dtype=np.int8)  # at most _MAX_WIDTH
        self.ndots = np.zeros(n, dtype=np.int8)
        self.dot_row = np.zeros(n, dtype=np.int8)
        negative = np.zeros(n, dtype=bool)
        m = np.zeros(n, dtype=np.int64)
        for r, row, pad in col.rows():
            digit = row - np.uint8(_ZERO)
            is_digit = digit < 10
            is_dot = row == _DOT
            minus = row == _MINUS
            negative |= minus
            sign = minus | (row == _PLUS)
            sign &= col.start_row == r  # a sign counts only as the first byte
            self.plain &= is_digit | is_dot | sign | pad
            self.ndigits += is_digit
            self.ndots += is_dot
            self.dot_row[is_dot] = r
            m *= is_digit.view(np.uint8) * np.uint8(9) + np.uint8(1)  # 10 at a digit, else 1
            digit *= is_digit
            m += digit
        self.mantissa = m
        self.negative = negative & ~col.long

    def signed(self, values: np.ndarray) -> np.ndarray:
        """``values`` negated where the token has a ``-`` (``-0`` gives ``-0.0``)."""
        values[self.negative] = -values[self.negative]
        return values


def split_fields(data: bytes) -> Fields:
    """Split ``data`` into fields per line, dropping blank and comment lines."""
    # spaces before the text and a LF after it: every field starts and ends at a change
    a = np.frombuffer(b"".join((b" " * _LEAD, data, b"\n")), dtype=np.uint8)
    edges, newlines = _scan(a)
    starts, ends = edges[0::2], edges[1::2]
    bounds = np.empty(len(newlines) + 1, dtype=np.int64)  # first field of each line
    bounds[0] = 0
    bounds[1:] = np.searchsorted(starts, newlines)
    count = np.diff(bounds)
    has_fields = count > 0
    first = bounds[:-1]
    data_line = has_fields.copy()
    data_line[has_fields] = a[starts[first[has_fields]]] != _HASH
    comment = has_fields & ~data_line
    lines = np.flatnonzero(data_line) + 1
    f = Fields(a, starts, ends, first[data_line], count[data_line], lines)
    # the LF appended above ends one more line, empty when the text ends with its own LF
    ends_with_lf = data[-1:] == b"\n"
    f.nlines = len(count) - ends_with_lf
    f.blank = len(count) - int(np.count_nonzero(has_fields)) - ends_with_lf
    f.comment_first, f.comment_count = first[comment], count[comment]
    f.comment_lines = np.flatnonzero(comment) + 1
    return f


def _scan(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The field edges of ``a`` (the positions ``i`` where ``a[i - 1]`` and ``a[i]`` differ
    in being whitespace) and its LF positions, in order, as int32 (int64 from 2 GiB on).

    Worked out :data:`_BLOCK` bytes at a time in the same few scratch buffers, into arrays
    as long as the text of which only the part written is ever touched: fresh memory costs
    a page fault per 4 KiB, a large part of the time a small run takes to read."""
    n = len(a)
    dtype = np.int32 if n < 2**31 else np.int64
    size = min(_BLOCK, n)
    scratch = np.empty(size + 1, dtype=np.uint8)
    sep = np.empty(size + 1, dtype=bool)
    flag = scratch.view(bool)
    edges = np.empty(n, dtype=dtype)
    newlines = np.empty(n, dtype=dtype)
    ne = nl = 0
    for lo in range(1, n, size):  # a[0] is a space: neither an edge nor a LF
        w = a[lo - 1 : lo + size]  # the block and the byte before it
        m = len(w)
        np.subtract(w, np.uint8(9), out=scratch[:m])
        np.less(scratch[:m], 5, out=sep[:m])  # \t \n \v \f \r
        sep[:m] |= np.equal(w, _SPACE, out=flag[:m])
        found = np.flatnonzero(np.not_equal(sep[1:m], sep[: m - 1], out=flag[: m - 1]))
        found += lo
        edges[ne : ne + len(found)] = found
        ne += len(found)
        found = np.flatnonzero(np.equal(w[1:], _NL, out=flag[: m - 1]))
        found += lo
        newlines[nl : nl + len(found)] = found
        nl += len(found)
    return edges[:ne], newlines[:nl]


def repeats_field_1(
    a: np.ndarray, starts: np.ndarray, ends: np.ndarray, first: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """Per line: whether one of its fields 7 to ``count - 5`` (1-based) is byte for byte its
    field 2, the iteration token (``Q0``): the lines that may hold a second result, which the
    exact rule (``text._joined_at``) then looks at one by one.

    ``a`` holds the bytes, ``starts``/``ends`` the fields and ``first``/``count`` each line's
    first field and number of fields, as in :class:`Fields`.  Vectorised over all (line,
    field) pairs: lengths first, then the bytes position by position for the pairs still
    equal.
    """
    lo, tail = 6, 5  # 0-based field j from 6 to count - 5: a result of 6 fields from j - 1
    npairs = np.maximum(count - tail - lo + 1, 0)
    out = np.zeros(len(first), dtype=bool)
    total = int(npairs.sum())
    if not total:
        return out
    line = np.repeat(np.arange(len(first)), npairs)
    offset = np.arange(total) - np.repeat(np.cumsum(npairs) - npairs, npairs)
    tj = first[line] + lo + offset
    t1 = first[line] + 1
    length = ends[t1] - starts[t1]
    live = np.flatnonzero(ends[tj] - starts[tj] == length)
    sj, s1, length = starts[tj[live]], starts[t1[live]], length[live]
    m = 0
    while len(live):
        done = length <= m  # every byte compared: equal
        out[line[live[done]]] = True
        keep = ~done
        keep[keep] = a[sj[keep] + m] == a[s1[keep] + m]
        live, sj, s1, length = live[keep], sj[keep], s1[keep], length[keep]
        m += 1
    return out
