"""Numbers written as text: the one rule every reader applies to a grade, a rank or a score.

A number reaches cranfield as text in a field of a TREC or MS MARCO line, a cell of a CSV or
TSV file, or a number of a JSON document; whatever the format, its text is read here, exactly,
on its bytes (never through an intermediate double):

- an **integer** (a grade, a rank) is ``[+-]?[0-9]+`` in ASCII digits, within the 64-bit
  range: ``2``, ``+2``, ``-1``, ``007``; not ``2.0``, ``1e3``, ``0x10``, ``١`` or ``２``;
- a **score** is what Python's ``float`` reads from ASCII bytes, without ``_`` digit
  separators: ``3``, ``-2.5``, ``+.5``, ``5.``, ``1E-07`` (and ``inf``/``nan``, which parse
  and are then refused as not finite), each the double nearest its value;
- a CSV or TSV cell is first stripped of the ASCII whitespace around it (C ``isspace``: what
  separates the fields of a TREC line); a non-breaking space or any other character is part
  of the number, and makes it not one.

The messages (``grade '1.5' is a number but not an integer``) are the same for every format;
the readers add the place (line, row or keys).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "ASCII_SPACE",
    "INT",
    "INT64",
    "JsonNumber",
    "NumberError",
    "cell_token",
    "cells",
    "grade",
    "is_score",
    "rank_problem",
    "score",
    "show",
]

INT = re.compile(rb"[+-]?[0-9]+")
"""An integer token (grades, ranks): optional sign, ASCII digits."""
INT64 = (-(2**63), 2**63 - 1)
ASCII_SPACE = " \t\n\r\x0b\x0c"
"""C ``isspace``: the whitespace that separates the fields of a TREC line (and blank lines)."""
_MAX_DIGITS = 19
"""No integer of more digits (leading zeros aside) is in the 64-bit range: checked before
``int()``, which refuses more than 4300 digits (and would be slow long before)."""


class NumberError(ValueError):
    """A token that is not the number its field needs; the message names it, not its place."""


_SHOWN = 60
"""Longer tokens are quoted by their start and length."""


def show(tok: bytes) -> str:
    """A token as messages quote it (the text is UTF-8 by then): ``'1.5'``, or its start
    and length when it is long."""
    text = tok.decode("utf-8", "replace")
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:40]!r}... ({len(text)} characters)"


def is_score(tok: bytes) -> bool:
    """Whether ``tok`` is a number by the score rule (``float`` of ASCII bytes, no ``_``)."""
    if b"_" in tok:
        return False
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _in_range(tok: bytes) -> int | None:
    """The value of an integer token (``INT`` matched), or ``None`` outside int64."""
    if len(tok.lstrip(b"+-").lstrip(b"0")) > _MAX_DIGITS:
        return None
    value = int(tok)
    return value if INT64[0] <= value <= INT64[1] else None


def grade(tok: bytes) -> int:
    """The grade written ``tok``, or :class:`NumberError`."""
    if INT.fullmatch(tok) is None:
        kind = "a number but not an integer" if is_score(tok) else "not a number"
        raise NumberError(f"grade {show(tok)} is {kind}")
    value = _in_range(tok)
    if value is None:
        raise NumberError(f"grade {show(tok)} is out of range (grades are 64-bit integers)")
    return value


def rank_problem(tok: bytes) -> str | None:
    """Why ``tok`` is not a rank (``rank 'x' is not an integer``), or ``None``."""
    if INT.fullmatch(tok) is None:
        return f"rank {show(tok)} is not an integer"
    if _in_range(tok) is None:
        return f"rank {show(tok)} is out of range"
    return None


def score(tok: bytes) -> float:
    """The score written ``tok`` (the double nearest its value), or :class:`NumberError`;
    ``inf`` and ``nan`` are returned, for the readers' finiteness check to name."""
    if b"_" not in tok:
        try:
            return float(tok)
        except ValueError:
            pass
    raise NumberError(f"score {show(tok)} is not a number")


def _plain(text: str) -> bool:
    """Whether Python's ``int`` or ``float`` of a ``str`` reads ``text``'s cells as the rules
    do: no ``_`` separator and nothing beyond ASCII (non-ASCII digits and spaces: ``٣``,
    ``\xa0``, ``\x85``)."""
    return text.isascii() and "_" not in text


def cells(column: list[str], kind: str) -> tuple[list[Any], int | None, str | None]:
    """The values of a column of CSV/TSV cells of one ``kind`` (``grade``, ``rank`` or
    ``score``): ``(values, None, None)``, or ``(values so far, index of the first cell the
    rule refuses, the problem)``.  A column of plain ASCII is read at once by ``int`` or
    ``float`` (which agree with the rules there); any other, or any failure, cell by cell."""
    joined = "".join(column)
    if _plain(joined):
        try:
            if kind == "score":
                return list(map(float, column)), None, None
            values = list(map(int, column))
            if not values or (INT64[0] <= min(values) and max(values) <= INT64[1]):
                return values, None, None
        except ValueError:
            pass
    out: list[Any] = []
    for i, cell in enumerate(column):
        tok = cell_token(cell)
        if kind == "rank":
            problem = rank_problem(tok)
            if problem is not None:
                return out, i, problem
            out.append(int(tok))
            continue
        try:
            out.append(grade(tok) if kind == "grade" else score(tok))
        except NumberError as exc:
            return out, i, str(exc)
    return out, None, None


def cell_token(cell: str) -> bytes:
    """The token of a CSV or TSV cell: its text without the ASCII whitespace around it."""
    return cell.strip(ASCII_SPACE).encode("utf-8", "surrogatepass")


class JsonNumber:
    """A number of a JSON document, kept as its text (the JSON readers' ``parse_int`` and
    ``parse_float``) so that a grade or a score is read from the text by the rules above:
    ``0.99999999999999999`` is not the grade 1, and ``-0`` is the score ``-0.0``."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def token(self) -> bytes:
        return self.text.encode("ascii")

    @property
    def is_integer(self) -> bool:
        """Whether JSON wrote it as an integer (no fraction, no exponent)."""
        return INT.fullmatch(self.token) is not None

    def __repr__(self) -> str:
        return self.text
