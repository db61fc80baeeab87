"""Text of names that came from file names: the bytes that are not UTF-8 shown as ``\\xNN``.

A run named after its file keeps the file name's undecodable bytes as lone surrogates
(``surrogateescape``), so that output files written under that name get the same bytes back.
Where only text can go (an HTML page, a JSON string, a pandas or Arrow string column, a curve
table) such a name is shown with each of those bytes as ``\\xNN``, as the text tables show it.
"""

from __future__ import annotations

import re

__all__ = ["undecoded_as_text"]

_UNDECODED = re.compile("[\udc80-\udcff]")


def undecoded_as_text(text: str, escape: str = "\\") -> str:
    """``text`` with the bytes of a file name that are not UTF-8 (surrogate escapes) shown as
    ``\\xNN`` (``escape``: the backslash as written where it lands)."""
    return _UNDECODED.sub(lambda m: f"{escape}x{ord(m[0]) - 0xDC00:02x}", text)
