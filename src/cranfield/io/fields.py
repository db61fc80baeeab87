"""Vectorised field splitter for TREC text, the fast path of small and mid-size files.

:func:`split_fields` reads text the way the exact line parser (``text._data_lines``) does:
fields are maximal runs of bytes that are not C ``isspace`` (space, tab, LF, CR, VT, FF); a
line is ended by LF only; a line without fields (blank) or whose first field starts with ``#``
(a comment) carries no data.  It does this with a few numpy passes over the bytes instead of a
Python loop over lines, and converts columns without creating a Python object per field:

- :meth:`Fields.strings` gathers one column's bytes, separated by ``\\n``, and decodes them
  with one ``decode`` and one ``split``;
- :meth:`Fields.integers` reads ``[+-]?[0-9]+`` tokens as int64, digit by digit;
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

    def __init__(self, data: np.ndarray, starts, ends, first, count, lines) -> None:
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

    def _column(self, k: int, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The bytes of field ``k`` of every line (or of the given line indices), each
        followed by ``\n``, and the offset of each token in them (lines must have more than
        ``k`` fields)."""
        idx = self.first + k if rows is None else self.first[rows] + k
        s = self.starts[idx]
        length = self.ends[idx] - s + 1  # with the separator after the token
        ends = np.cumsum(length)
        offsets = ends - length
        pos = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
        pos -= np.repeat(offsets - s, length)
        out = self._bytes[pos]  # the separator after a token is whitespace (or the final LF)
        out[ends - 1] = _NL
        return out, offsets

    def strings(self, k: int, rows: np.ndarray | None = None) -> list[str]:
        """Field ``k`` of every line (or of the given line indices) as Python strings (the
        text must be valid UTF-8)."""
        if not len(self) or (rows is not None and not len(rows)):
            return []
        out, _ = self._column(k, rows)
        return out[:-1].tobytes().decode("utf-8").split("\n")

    def changes(self, k: int) -> np.ndarray:
        """Whether field ``k`` of each line differs from the previous line's (the first line
        counts as a change): the blocks of equal ids, without a string per line."""
        n = len(self)
        changed = np.ones(n, dtype=bool)
        if n < 2:
            return changed
        m = _Matrix(self, k)
        same = (m.bytes[:, 1:] == m.bytes[:, :-1]).all(axis=0)  # NUL padding: lengths too
        changed[1:] = ~same
        for i in np.flatnonzero(same & (m.long[1:] | m.long[:-1])).tolist():  # cut tokens
            changed[i + 1] = self._token(m.idx[i + 1]) != self._token(m.idx[i])
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
        t = _Digits(self, k)
        if not (t.is_digit | t.leading_sign | t.pad).all() or t.long.any():
            return None
        ndigits = t.count(t.is_digit)
        if not ((ndigits >= 1) & (ndigits <= 18)).all():
            return None
        return t.signed(t.mantissa())

    def decimals(self, k: int) -> np.ndarray | None:
        """Field ``k`` as float64, each value equal to Python's ``float(token)``; ``None`` if a
        token is not a number ``float`` reads, or holds an underscore (which ``float`` would
        accept as a digit separator but the exact parser refuses)."""
        if not len(self):
            return np.zeros(0, dtype=np.float64)
        t = _Digits(self, k)
        is_dot = t.bytes == _DOT
        ndigits = t.count(t.is_digit)
        simple = (t.is_digit | is_dot | t.leading_sign | t.pad).all(axis=0)
        simple &= (ndigits >= 1) & (ndigits <= _MAX_DIGITS) & (t.count(is_dot) <= 1) & ~t.long
        # digits after the point: every byte right of the point is a digit in a simple token
        frac = np.where(is_dot.any(axis=0), t.width - 1 - np.argmax(is_dot, axis=0), 0)
        frac[~simple] = 0
        values = t.signed(t.mantissa() / _POW10_FLOAT[frac])
        for i in np.flatnonzero(~simple).tolist():  # exponents, long digit strings, inf, ...
            tok = self._token(t.idx[i])
            if b"_" in tok:
                return None
            try:
                values[i] = float(tok)
            except ValueError:
                return None
        return values


class _Matrix:
    """Field ``k`` of every line as a (width x lines) byte matrix, tokens right-aligned and
    padded on the left with NUL (which the text cannot hold), for column-wise work (one row
    per position: contiguous rows make the per-position steps fast).  Tokens longer than
    :data:`_MAX_WIDTH` are cut to their last bytes and marked ``long``."""

    def __init__(self, fields: Fields, k: int) -> None:
        self.idx = fields.first + k
        ends = fields.ends[self.idx]
        length = ends - fields.starts[self.idx]
        self.long = length > _MAX_WIDTH
        self.width = w = min(int(length.max()), _MAX_WIDTH)
        # the w bytes up to each token's end (the text is preceded by _LEAD >= w spaces, so
        # every window lies inside the array), copied as one block per token, then turned
        windows = np.lib.stride_tricks.sliding_window_view(fields._bytes, w)
        self.bytes = np.ascontiguousarray(windows[ends - w].T)
        self.rows = np.arange(w, dtype=np.int64)[:, None]
        self.start_row = w - length  # row of each token's first byte (< 0 if long)
        self.pad = self.rows < self.start_row
        self.bytes[self.pad] = 0


class _Digits(_Matrix):
    """:class:`_Matrix` with the digits, signs and sign of each token."""

    def __init__(self, fields: Fields, k: int) -> None:
        super().__init__(fields, k)
        self.digit = self.bytes - np.uint8(_ZERO)
        self.is_digit = self.digit < 10
        sign = (self.bytes == _PLUS) | (self.bytes == _MINUS)
        self.leading_sign = sign & (self.rows == self.start_row)
        self.negative = (self.bytes == _MINUS).any(axis=0) & ~self.long

    def count(self, mask: np.ndarray) -> np.ndarray:
        return mask.sum(axis=0, dtype=np.int64)

    def mantissa(self) -> np.ndarray:
        """The integer of each token's digits, by Horner's rule row by row (garbage, never
        used, for tokens of more than 18 digits): ``m = m * 10 + d`` at a digit, unchanged at
        any other byte."""
        digit = self.is_digit.view(np.uint8)
        times = digit * np.uint8(9)
        times += 1  # 10 at a digit, 1 elsewhere
        plus = self.digit * digit  # the digit, or 0
        m = np.zeros(self.bytes.shape[1], dtype=np.int64)
        for row in range(self.width):
            m *= times[row]
            m += plus[row]
        return m

    def signed(self, values: np.ndarray) -> np.ndarray:
        """``values`` negated where the token has a ``-`` (``-0`` gives ``-0.0``)."""
        values[self.negative] = -values[self.negative]
        return values


def split_fields(data: bytes) -> Fields:
    """Split ``data`` into fields per line, dropping blank and comment lines."""
    # spaces before the text and a LF after it: every field starts and ends at a change
    a = np.frombuffer(b"".join((b" " * _LEAD, data, b"\n")), dtype=np.uint8)
    scratch = np.subtract(a, np.uint8(9))  # one scratch buffer: fresh memory costs page faults
    sep = scratch < 5  # \t \n \v \f \r
    flag = scratch.view(bool)
    sep |= np.equal(a, _SPACE, out=flag)
    edges = np.flatnonzero(np.not_equal(sep[1:], sep[:-1], out=flag[:-1]))  # (not a diff)
    edges += 1
    starts, ends = edges[0::2], edges[1::2]
    newlines = np.flatnonzero(np.equal(a, _NL, out=flag))
    del scratch, sep, flag
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
