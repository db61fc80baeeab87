"""Compressed inputs: the format told by its magic number, never by the name (:func:`sniff`),
and the decompressed bytes in chunks of a bounded size (:func:`decompress`), stream after
stream: gzip, bzip2 and xz with the standard library, Zstandard with the ``zstandard``
package (the ``zstd`` extra).  Concatenated streams (``cat a.gz b.gz``) are read one after the
other, with NUL padding between them allowed; anything else after the end of a stream, a
truncated or corrupt stream, is one :class:`~cranfield.errors.InputError` naming the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from cranfield.errors import InputError

__all__ = [
    "INPUT_BYTES",
    "MAGIC_BYTES",
    "XZ_MEMLIMIT",
    "ZSTD_PIECE",
    "Readable",
    "decompress",
    "sniff",
]


class Readable(Protocol):
    """What bytes are read from: an open binary file, or a replay of standard input."""

    def read(self, n: int = -1, /) -> bytes: ...


INPUT_BYTES = 1 << 20
"""Compressed bytes read at a time."""
ZSTD_PIECE = 2 << 10
"""Compressed bytes given to the Zstandard decoder at a time: its API has no output limit,
and one compressed byte expands to at most about 32 KiB, so a piece yields at most 64 MiB."""
XZ_MEMLIMIT = 1 << 30
"""Memory the xz decoder may use (xz -9 needs 65 MiB); a header asking for more is refused."""


MAGIC_BYTES = 10  # enough to tell every format (bzip2's block magic ends at byte 10)


_LABELS = {"gzip": "gzip", "bzip2": "bzip2", "xz": "xz", "zstd": "Zstandard"}


_BZ2_BLOCK = (b"1AY&SY", b"\x17rE8P\x90")  # first block, or the end of an empty stream


def sniff(head: bytes) -> str | None:
    """The compression format whose magic number starts ``head``, or ``None``."""
    if head[:2] == b"\x1f\x8b":
        return "gzip"
    if head[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if head[:4] == b"\x28\xb5\x2f\xfd":
        return "zstd"
    # "BZh1".."BZh9" could begin a text file: the block magic that follows cannot
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[4:10] in _BZ2_BLOCK:
        return "bzip2"
    return None


class _Corrupt(Exception):
    """A decompression failure (the message says what)."""


def decompress(fmt: str, head: bytes, fh: Readable, source: str, limit: int) -> Iterator[bytes]:
    """Decompressed chunks of at most about ``limit`` bytes, stream after stream (``head``:
    the first bytes, already read from ``fh``)."""
    label = _LABELS[fmt]
    errors: tuple[type[BaseException], ...] = (_Corrupt, EOFError, OSError, ValueError)
    if fmt == "gzip":
        import zlib

        errors += (zlib.error,)
        members = _zlib_members
    elif fmt == "zstd":
        from cranfield.base.optional import require

        zstd = require("zstandard", "zstd", f"reading the Zstandard-compressed {source}")
        errors += (zstd.ZstdError,)
        members = _zstd_members
    else:
        import lzma

        errors += (lzma.LZMAError,)
        members = _bz2_members if fmt == "bzip2" else _xz_members
    reader = _Input(head, fh)
    try:
        yield from members(reader, limit)
    except errors as exc:
        raise InputError(source, f"corrupt {label} data: {_why(exc)}") from None
    except MemoryError:
        raise InputError(source, f"corrupt {label} data: out of memory decompressing it") from None


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, EOFError) or "ended before" in text:
        return _TRUNCATED
    if text.startswith("Error ") and "while decompressing data: " in text:  # zlib's prefix
        text = text.split("while decompressing data: ", 1)[1]
    return text


class _Input:
    """Compressed bytes: the head already read, then the file in :data:`INPUT_BYTES` reads."""

    def __init__(self, head: bytes, fh: Readable) -> None:
        self.pending = head
        self.fh = fh

    def read(self) -> bytes:
        if self.pending:
            out, self.pending = self.pending, b""
            return out
        return self.fh.read(INPUT_BYTES) or b""

    def next_stream(self, magic: bytes) -> bytes | None:
        """The input at the start of the next stream (NUL padding skipped), ``None`` at the
        end; anything but another stream of the same format is an error."""
        data = self.pending.lstrip(b"\x00")
        while not data:
            data = self.fh.read(INPUT_BYTES)
            if not data:
                return None
            data = data.lstrip(b"\x00")
        while len(data) < len(magic) and (more := self.fh.read(INPUT_BYTES)):
            data += more
        if not data.startswith(magic):
            raise _Corrupt("unexpected data after the end of the compressed stream")
        self.pending = b""
        return data


_TRUNCATED = "the compressed data ends early (truncated file?)"


def _zlib_members(src: _Input, limit: int) -> Iterator[bytes]:
    import zlib

    while (buf := src.next_stream(b"\x1f\x8b")) is not None:
        d = zlib.decompressobj(31)  # gzip wrapper: header, CRC-32 and length are checked
        while not d.eof:
            if not buf:
                buf = src.read()
            out = d.decompress(buf, limit)
            if out:
                yield out
            elif not buf:
                raise _Corrupt(_TRUNCATED)
            buf = d.unconsumed_tail
        src.pending = d.unused_data + buf


def _bz2_members(src: _Input, limit: int) -> Iterator[bytes]:
    import bz2

    yield from _limited_members(src, b"BZh", bz2.BZ2Decompressor, limit)


def _xz_members(src: _Input, limit: int) -> Iterator[bytes]:
    import lzma

    def make():
        return lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT)

    yield from _limited_members(src, b"\xfd7zXZ\x00", make, limit)


def _limited_members(src: _Input, magic: bytes, make, limit: int) -> Iterator[bytes]:
    """Streams of a decoder with an output limit and an internal input buffer (bz2, lzma)."""
    while (buf := src.next_stream(magic)) is not None:
        d = make()
        while not d.eof:
            if d.needs_input:
                if not buf:
                    buf = src.read()
                    if not buf:
                        raise _Corrupt(_TRUNCATED)
                out = d.decompress(buf, limit)
                buf = b""
            else:
                out = d.decompress(b"", limit)
            if out:
                yield out
        src.pending = d.unused_data + buf


def _zstd_members(src: _Input, limit: int) -> Iterator[bytes]:
    # no output limit in its API: ZSTD_PIECE bounds each output instead
    import zstandard

    while (buf := src.next_stream(b"\x28\xb5\x2f\xfd")) is not None:
        d = zstandard.ZstdDecompressor().decompressobj()
        pos = 0
        while not d.eof:
            if pos >= len(buf):
                buf, pos = src.read(), 0
                if not buf:
                    raise _Corrupt(_TRUNCATED)
            out = d.decompress(buf[pos : pos + ZSTD_PIECE])
            pos += ZSTD_PIECE
            if out:
                yield out
        src.pending = d.unused_data + buf[pos:]
