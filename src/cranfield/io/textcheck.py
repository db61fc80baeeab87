"""Checks on text input, chunk by chunk as it is read, naming the line of the first problem.

Every text input must be UTF-8 without NUL bytes, and may carry a byte order mark only at its
very start (a BOM further in comes from files joined with ``cat``: Arrow would strip it at the
start of each block it reads, so the same bytes would give different ids by file size).
:class:`TextCheck` sees the text in chunks: a character may straddle two chunks, and the
problem reported is the first one in the file whatever the chunk size.  ASCII chunks cost two
scans at memory speed (``find`` of a NUL byte, ``isascii``); other chunks are also decoded.
Nothing is kept of the chunks already checked but the number of lines they end and where the
current line starts, so checking a stream takes constant memory.
"""

from __future__ import annotations

import codecs
import re

from cranfield.errors import InputError

__all__ = ["BOM", "CRLF_ONLY", "NO_CR", "OTHER_CR", "TextCheck", "check_text", "line_ends"]

BOM = b"\xef\xbb\xbf"
NO_CR, CRLF_ONLY, OTHER_CR = 0, 1, 2
"""What :func:`line_ends` finds: no CR, every CR the first half of a CRLF, other CRs (each
followed on its line only by whitespace)."""
_BARE_CR = re.compile(rb"\r[\t\x0b\x0c\r ]*[^\t\n\x0b\x0c\r ]")
"""A CR followed, on the same line, by more data."""


class TextCheck:
    """Raises :class:`InputError` at the first NUL byte, undecodable byte or inner BOM."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._lines = 0  # line ends (LF) in the chunks checked so far
        self._line_start = 0  # offset of the first byte of the line the last chunk ended in
        self._offset = 0  # bytes before the current chunk
        self._scratch: list = []  # a work array for counting lines
        self._decoder: codecs.IncrementalDecoder | None = None
        self._tail = b""  # the last 3 bytes checked: a BOM or a character may straddle chunks

    def feed(self, chunk: bytes) -> None:
        problems: list[tuple[int, str]] = []  # (position in the chunk, what)
        nul = chunk.find(b"\x00")
        if nul >= 0:
            problems.append((nul, "nul"))
        pending = self._decoder is not None and bool(self._decoder.getstate()[0])
        if pending or not chunk.isascii():
            if self._decoder is None:
                self._decoder = codecs.getincrementaldecoder("utf-8")()
            carried = len(self._decoder.getstate()[0])
            try:
                self._decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                problems.append((exc.start - carried, "utf8"))
            bom = chunk.find(BOM, 1 if self._offset == 0 else 0)
            if bom >= 0:
                problems.append((bom, "bom"))
            if self._tail:
                edge = (self._tail + chunk[:2]).find(BOM)
                if edge >= 0 and self._offset + edge - len(self._tail) > 0:  # not the first
                    problems.append((edge - len(self._tail), "bom"))
        if problems:
            pos, what = min(problems)
            self._raise(chunk, self._offset + pos, what)
        self._lines += _count_lf(chunk, self._scratch)
        last = chunk.rfind(b"\n")
        if last >= 0:
            self._line_start = self._offset + last + 1
        self._offset += len(chunk)
        self._tail = (self._tail + chunk)[-3:] if len(chunk) < 3 else chunk[-3:]

    def close(self) -> None:
        """The end of the text: a character cut short is an error."""
        if self._decoder is None:
            return
        carried = len(self._decoder.getstate()[0])
        try:
            self._decoder.decode(b"", final=True)
        except UnicodeDecodeError as exc:
            self._raise(b"", self._offset - carried + exc.start, "utf8")

    def _raise(self, chunk: bytes, pos: int, what: str) -> None:
        """Raise for the problem at file offset ``pos``: in ``chunk`` or, for a character
        cut by the chunk boundary, in the bytes just before it (the current line)."""
        rel = pos - self._offset
        if rel <= 0:  # at the start of the chunk or on the line the previous chunk ended in
            line, start = self._lines + 1, self._line_start
        else:
            line = self._lines + chunk.count(b"\n", 0, rel) + 1
            last = chunk.rfind(b"\n", 0, rel)
            start = self._offset + last + 1 if last >= 0 else self._line_start
        if what == "nul":
            raise InputError(self.source, "NUL byte in a text file", line=line)
        if what == "bom":
            raise InputError(
                self.source,
                "byte order mark inside the file: files joined with cat? (a byte order mark "
                "is only allowed at the very start)",
                line=line,
            )
        col = pos - start + 1
        bad = (chunk[rel : rel + 1] if rel >= 0 else self._tail[rel:][:1]).hex()
        problem = f"undecodable byte 0x{bad} at column {col} (files must be UTF-8)"
        raise InputError(self.source, problem, line=line)


def _count_lf(chunk: bytes, scratch: list) -> int:
    """``chunk.count(b"\\n")``, with numpy for a large chunk (a third of the time), a block
    of :data:`_LF_BLOCK` bytes at a time through one scratch array kept from chunk to chunk:
    fresh memory costs a page fault per 4 KiB, and a scratch as long as the chunk cost more
    than numpy saves on a file read at once (0.9 against 0.5 ms on 1.9 MB)."""
    if len(chunk) < _LF_BLOCK:
        return chunk.count(b"\n")
    import numpy as np

    if not scratch:
        scratch.append(np.empty(_LF_BLOCK, dtype=bool))
    flags = scratch[0]
    a = np.frombuffer(chunk, dtype=np.uint8)
    total = 0
    for lo in range(0, len(a), _LF_BLOCK):
        part = a[lo : lo + _LF_BLOCK]
        out = flags[: len(part)]
        np.equal(part, 10, out=out)
        total += int(np.count_nonzero(out))
    return total


_LF_BLOCK = 1 << 18
"""Bytes counted at a time by :func:`_count_lf` (chunks shorter than this: ``bytes.count``)."""


def check_text(data: bytes, source: str) -> None:
    """Check text already in memory (the same rules and messages as a file read)."""
    check = TextCheck(source)
    check.feed(data)
    check.close()


def line_ends(data: bytes, source: str) -> int:
    """The line-end rule of every text format (TREC, MS MARCO, CSV, TSV, JSON lines, JSON):
    lines end in LF or CRLF; a CR followed, on its line, only by whitespace (space, tab, CR,
    VT, FF) is whitespace; a CR followed by more data on its line is an error naming the line
    (C reads it as a field separator, Python's csv module and Arrow as a line end: the line
    after it would silently become extra columns of the line before, or a line of its own,
    and every later line number would be off by one); a text whose lines all end in a bare
    CR (classic Mac OS) is refused as such.

    Returns :data:`NO_CR`, :data:`CRLF_ONLY` or :data:`OTHER_CR` (the text's CRs, for the
    parsers that treat CRLF alone on a fast path)."""
    if b"\r" not in data:
        return NO_CR
    if data.count(b"\r") == data.count(b"\r\n"):
        return CRLF_ONLY
    bad = _BARE_CR.search(data)
    if bad is None:
        return OTHER_CR
    if b"\n" not in data:
        raise InputError(
            source, "lines end in a bare CR (classic Mac OS line endings); convert them to LF"
        )
    raise InputError(
        source,
        "bare CR (carriage return) inside the line: two lines joined? convert the line "
        "endings (for example with dos2unix)",
        line=data.count(b"\n", 0, bad.start()) + 1,
    )
