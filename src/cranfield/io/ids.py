"""The text rule every query and document id follows, whatever the source.

An id is one field of a TREC line: it is not empty and holds no whitespace or control
character.  Refused are the C0 controls and space (U+0000-U+0020, tab, LF, CR, VT and FF
included), DEL (U+007F) and the C1 controls (U+0080-U+009F): written to a TREC file or to
``--format trec`` output they would split or join fields and lines, so the data could not be
read back.  A lone surrogate (U+D800-U+DFFF, which a JSON ``"\ud800"`` or a Python string can
hold) is refused too: it is not a character, and no UTF-8 file, Arrow array or DataFrame can
hold it.  Any other character is fine (``#``, non-breaking space, emoji...).

Arrow string arrays are checked with numpy over their UTF-8 bytes in fixed-size chunks (no
temporary as large as the data); Python lists go through the same check once joined.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["WHY", "bad_id_in_arrow", "bad_id_in_list", "id_message", "id_problem"]

WHY = (
    "ids cannot hold whitespace, control characters or lone surrogates, which would break TREC "
    "files and output"
)

_CHUNK = 1 << 18
_C1_LEAD = 0xC2  # U+0080-U+00BF are 0xC2 followed by 0x80-0xBF; C1 is 0x80-0x9F
_BAD_CHAR = re.compile("[\x00-\x20\x7f-\x9f\ud800-\udfff]")
_NAMES = {"\t": "a tab", "\n": "a newline", "\r": "a carriage return", " ": "a space"}


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be an id (``"is empty"``, ``"contains a tab at position 3"``...),
    or ``None``; messages add :data:`WHY` after a bad character."""
    if not value:
        return "is empty"
    m = _BAD_CHAR.search(value)
    if m is None:
        return None
    ch = m.group()
    what = _NAMES.get(ch) or f"the control character U+{ord(ch):04X}"
    if "\ud800" <= ch <= "\udfff":
        what = f"the lone surrogate U+{ord(ch):04X} (not a character: no UTF-8 text holds it)"
    return f"contains {what} at position {m.start()}"


def id_message(what: str, value: str, column: str = "") -> str:
    """The message for the invalid id ``value`` (``query id 'a b' contains a space at
    position 1; ids cannot ...``; ``empty document id``), the same from every reader;
    ``column`` names a table's column (`` (column 'qid')``)."""
    problem = id_problem(value)
    if problem == "is empty":
        return f"empty {what}{column}"
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{what} {shown}{column} {problem}; {WHY}"


def bad_id_in_list(values: Sequence[str]) -> int | None:
    """The index of the first value that is not a valid id, or ``None``.

    The values are joined and checked at once: ASCII text (``isascii`` is a flag of the
    string) by its bytes' minimum and maximum, other text by one regular-expression search."""
    joined = "".join(values)
    if all(values) and (_printable_ascii(joined) or _BAD_CHAR.search(joined) is None):
        return None
    return next(i for i, v in enumerate(values) if id_problem(v) is not None)


def _printable_ascii(text: str) -> bool:
    """Whether ``text`` is empty or only ASCII from ``!`` to ``~`` (no id rule can fail)."""
    if not text.isascii():
        return False
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return not len(data) or _printable(data)


def _printable(data: np.ndarray) -> bool:
    """Whether the (non-empty) UTF-8 bytes are only ASCII from ``!`` to ``~``: two SIMD
    reductions."""
    return bool(data.min() > 0x20 and data.max() < 0x7F)


def _suspect_bytes(data: np.ndarray) -> np.ndarray:
    """Positions of bytes that make an id invalid (C0, space, DEL, a C1 character's lead)."""
    bad = (data <= 0x20) | (data == 0x7F)
    lead = np.flatnonzero(data[:-1] == _C1_LEAD)
    if len(lead):
        bad[lead[data[lead + 1] < 0xA0]] = True
    return np.flatnonzero(bad)


def bad_id_in_arrow(arr: Any) -> int | None:
    """The row of the first invalid id of a ``pa.string()`` (or ``large_string``) array
    without nulls, or ``None``."""
    import pyarrow as pa

    n = len(arr)
    if n == 0:
        return None
    _, offsets_buf, data_buf = arr.buffers()
    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(
        offsets_buf, dtype=width, count=n + 1, offset=arr.offset * width(0).itemsize
    )
    empty = np.flatnonzero(offsets[1:] == offsets[:-1])  # from the offsets: no pyarrow call
    first_empty = int(empty[0]) if len(empty) else n
    start, stop = int(offsets[0]), int(offsets[-1])
    if data_buf is None or stop == start:
        return None if first_empty == n else first_empty
    data = np.frombuffer(data_buf, dtype=np.uint8, count=stop - start, offset=start)
    if _printable(data):
        return None if first_empty == n else first_empty
    for lo in range(0, len(data), _CHUNK):
        # one byte of overlap so that a C1 lead byte at a chunk's end sees its next byte
        chunk = data[lo : lo + _CHUNK + 1]
        top = min(_CHUNK, len(data) - lo)
        if not ((chunk <= 0x20).any() or (chunk == 0x7F).any() or (chunk == _C1_LEAD).any()):
            continue
        pos = _suspect_bytes(chunk)
        pos = pos[pos < top]
        if len(pos):
            row = int(np.searchsorted(offsets, start + lo + int(pos[0]), side="right")) - 1
            return min(row, first_empty)
    return None if first_empty == n else first_empty
