"""The package's one aligned-text table: every table printed to a terminal goes through here.

Layout: columns two spaces apart, a row of dashes under the header (``rule``), label columns
left-aligned, numbers right-aligned, no trailing spaces.  Widths are display widths measured by
rich (:func:`rich.cells.cell_len`): a CJK character or an emoji takes two cells, a combining
mark none, so such names line up.  Control characters (C0, DEL, C1) and the bidirectional
controls, which would move the cursor or reorder the line on a terminal, are shown as
``\\xNN`` / ``\\uNNNN``.

The lines are those of rich's own ``Table`` (``box=None``, ``padding=(0, 2, 0, 0)``, columns
``no_wrap``, the rule as a first row of dashes, each line right-stripped; the tests check the
two agree cell for cell), padded here from the same widths: rich's ``Table`` takes some 35 µs
a cell, 4 s for the per-query table of 10,000 queries, where padding takes 40 ms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["counted", "escape_controls", "table_lines", "text_table"]

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(32), *range(127, 160))}
_ESCAPES.update({c: f"\\u{c:04x}" for c in _BIDI})


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for one: ``1 chart``, ``2 charts``, ``1 query``,
    ``0 queries`` (``plural``: the plural when it is not the noun + s or y -> ies)."""
    if n == 1:
        return f"{n} {noun}"
    if plural is None:
        consonant_y = noun.endswith("y") and noun[-2:-1] not in "aeiou"
        plural = noun[:-1] + "ies" if consonant_y else noun + "s"
    return f"{n} {plural}"


def escape_controls(text: str) -> str:
    """``text`` with its control characters (C0 including tab and newline, DEL, C1) as
    ``\\xNN`` and the bidirectional controls as ``\\uNNNN``."""
    return text.translate(_ESCAPES)


def table_lines(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    left: int | Sequence[bool] = 1,
    rule: bool = True,
) -> list[str]:
    """The lines of an aligned table (no line ends).

    ``left``: how many leading columns are left-aligned (the rest are right-aligned), or one
    flag per column; ``rule``: a row of dashes under the header."""
    from rich.cells import cell_len

    n = len(head)
    lefts = [k < left for k in range(n)] if isinstance(left, int) else list(left)
    if len(lefts) != n or any(len(r) != n for r in rows):
        raise ValueError("every row of a table needs one cell per column")
    cells = [[escape_controls(str(c)) for c in r] for r in (head, *rows)]
    sizes = [[cell_len(c) for c in r] for r in cells]
    widths = [max(s[k] for s in sizes) for k in range(n)]

    def line(row: list[str], size: list[int]) -> str:
        parts = [
            c + " " * (w - z) if lf else " " * (w - z) + c
            for c, z, w, lf in zip(row, size, widths, lefts, strict=True)
        ]
        return "  ".join(parts).rstrip(" ")

    out = [line(cells[0], sizes[0])]
    if rule:
        out.append("  ".join("-" * w for w in widths).rstrip(" "))
    out += [line(r, s) for r, s in zip(cells[1:], sizes[1:], strict=True)]
    return out


def text_table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    left: int | Sequence[bool] = 1,
    rule: bool = True,
) -> str:
    """:func:`table_lines` as text, each line ended by a newline."""
    return "".join(x + "\n" for x in table_lines(head, rows, left=left, rule=rule))


def fmt_number(x: float | None, digits: int, sign: bool = False) -> str:
    """A number with ``digits`` decimals (a sign when ``sign``); ``nan`` for None and NaN,
    ``inf``/``-inf`` (``+inf`` when ``sign``) for the infinities."""
    if x is None or math.isnan(x):
        return "nan"
    if math.isinf(x):
        return ("+" if x > 0 and sign else "-" if x < 0 else "") + "inf"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
