"""Bytes of an input: a path or ``-`` (standard input), decompressed, read in bounded chunks.

Compression is detected from the first bytes (magic numbers), never from the name: gzip,
bzip2 and xz with the standard library, Zstandard with the ``zstandard`` package (the ``zstd``
extra).  Concatenated streams (``cat a.gz b.gz``) are read one after the other, with NUL
padding between them allowed; anything else after the end of a stream is an error.

Nothing is read without bound before it is checked.  A stream (standard input, a pipe, a
device such as ``/dev/urandom``) and every decompressed input arrive in chunks of
:data:`CHUNK_BYTES`, and each chunk goes through the caller's check (for text:
:class:`~cranfield.io.textcheck.TextCheck`) before the next one is read, so garbage or a
decompression bomb fails on its first chunk.  A regular file has a known size: one of at most
:data:`CHUNK_BYTES` is read in one call; of a larger one the first :data:`HEAD_BYTES` are
checked, then the whole file is read in one call (one allocation, no copy) and checked.
Every failure is an :class:`~cranfield.errors.InputError` naming the file (``<stdin>`` for
standard input).

:class:`Stream` reads an input chunk by chunk without ever holding it whole (the readers that
work on query blocks), and can read it again from the start: a file is opened again, standard
input is copied to an anonymous temporary file as it is read.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import weakref
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, Protocol

from cranfield.base import progress
from cranfield.errors import InputError

__all__ = [
    "STDIN",
    "STDIN_SOURCE",
    "Check",
    "ClientFile",
    "Stream",
    "claim_stdin",
    "client_file",
    "read_source",
    "source_name",
]

STDIN = "-"
"""The path that means standard input."""
STDIN_SOURCE = "<stdin>"
"""How standard input is named in messages."""
CHUNK_BYTES = 16 << 20
"""Bytes of a stream or of decompressed output checked at a time (tests lower it)."""
HEAD_BYTES = 1 << 16
"""Bytes of a large regular file checked before the rest is read."""
INPUT_BYTES = 1 << 20
"""Compressed bytes read at a time."""
ZSTD_PIECE = 2 << 10
"""Compressed bytes given to the Zstandard decoder at a time: its API has no output limit,
and one compressed byte expands to at most about 32 KiB, so a piece yields at most 64 MiB."""
XZ_MEMLIMIT = 1 << 30
"""Memory the xz decoder may use (xz -9 needs 65 MiB); a header asking for more is refused."""

_consumed_stdin: weakref.WeakSet[Any] = weakref.WeakSet()
_claimed_stdin: weakref.WeakSet[Any] = weakref.WeakSet()


class Check(Protocol):
    """What :func:`read_source` calls on the bytes as they arrive."""

    def feed(self, chunk: bytes) -> None: ...

    def close(self) -> None: ...


def source_name(path: str | os.PathLike[str]) -> str:
    """The name of an input in messages: the path, or ``<stdin>`` for ``-``."""
    return STDIN_SOURCE if _is_stdin(path) else str(path)


def _is_stdin(path: Any) -> bool:
    return isinstance(path, str) and path == STDIN


def read_source(path: str | os.PathLike[str], check: Callable[[], Check] | None = None) -> bytes:
    """All the (decompressed) bytes of ``path`` or of standard input (``-``).

    ``check`` makes a fresh checker; its ``feed`` sees every chunk in order as it arrives
    and may raise; ``close`` is called at the end.
    """
    source = source_name(path)
    with input_errors(source):
        if _is_stdin(path):
            return _read_stream(_stdin(), source, check, size=None)
        with open_input(path, source) as fh:
            st = os.fstat(fh.fileno())
            size = st.st_size if stat.S_ISREG(st.st_mode) else None
            return _read_stream(fh, source, check, size=size)


class input_errors:
    """Turns the failures of reading ``source`` into one :class:`InputError`."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if exc is None or isinstance(exc, InputError | GeneratorExit):
            return False
        source = self.source
        if isinstance(exc, OSError):
            raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
        if isinstance(exc, ValueError):  # e.g. standard input already closed
            raise InputError(source, f"cannot read: {exc}") from None
        if isinstance(exc, MemoryError):
            raise InputError(source, "too large to read into memory") from None
        return False


def open_input(path: str | os.PathLike[str], source: str) -> BinaryIO:
    try:
        fh = open(path, "rb", buffering=0)  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise InputError(source, "no such file") from None
    except IsADirectoryError:
        raise InputError(source, "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL character in the name
        raise InputError(source, f"cannot open: {exc}") from None
    if isinstance(path, ClientFile):
        try:
            path.check(fh)
        except BaseException:
            fh.close()
            raise
    return fh


SEEN_BYTES = 1 << 16
"""Bytes at the start of a file that :class:`ClientFile` hashes."""


class ClientFile(os.PathLike):
    """A file named on the client, to be read elsewhere (a Dask worker, which has a working
    directory and maybe a file system of its own): its absolute path on the client, which is
    what is opened; the name the user gave, which is what messages say; and what the client
    saw of it (``seen``: size, modification time in nanoseconds and a hash of the first
    :data:`SEEN_BYTES`), which every opening checks (:func:`open_input`): another file at that
    path is an :class:`~cranfield.errors.InputError`, never read.  ``seen`` is ``None`` for
    a file the client could not read (the workers may see what the client does not)."""

    def __init__(self, path: str, name: str, seen: tuple[int, int, str] | None) -> None:
        self.path = path
        self.name = name
        self.seen = seen

    def __fspath__(self) -> str:
        return self.path

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.path!r}, {self.name!r}, {self.seen!r})"

    def check(self, fh: BinaryIO) -> None:
        """An :class:`~cranfield.errors.InputError` unless the open ``fh`` is the file the
        client saw."""
        if self.seen is None:
            return
        size, mtime_ns, digest = self.seen
        try:
            st = os.fstat(fh.fileno())
            why = None
            if st.st_size != size:
                why = f"{st.st_size} bytes on the worker, {size} on the client"
            elif st.st_mtime_ns != mtime_ns:
                why = (
                    f"modified {_when(st.st_mtime_ns)} on the worker, "
                    f"{_when(mtime_ns)} on the client"
                )
            elif _digest(fh.fileno(), size) != digest:
                why = f"its first {min(size, SEEN_BYTES)} bytes differ from the client's"
        except OSError as exc:
            raise InputError(self.name, f"cannot read: {exc.strerror or exc}") from None
        if why is not None:
            import socket

            raise InputError(
                self.name,
                f"on the worker (host {socket.gethostname()}), {self.path} is not the file "
                f"the client read: {why}",
            )


def client_file(path: str | os.PathLike[str]) -> ClientFile | None:
    """The file ``path`` names here, as a :class:`ClientFile` to be read elsewhere (a path
    read in a given format keeps it), or ``None`` for an input that only this process can
    read: standard input, a pipe (``<(zcat run.gz)``), a device, a directory."""
    from cranfield.io.formats import FormattedClientFile, FormattedPath

    if _is_stdin(path):
        return None
    absolute = os.path.abspath(os.fspath(path))
    seen = None
    try:
        fd = os.open(absolute, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe: no wait
    except (OSError, ValueError):  # (ValueError: a NUL in the name)
        pass  # not seen here: sent unchecked, the reader there says what is wrong
    else:
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None
            seen = (st.st_size, st.st_mtime_ns, _digest(fd, st.st_size))
        except OSError:
            seen = None
        finally:
            os.close(fd)
    if isinstance(path, FormattedPath):
        return FormattedClientFile(absolute, str(path), seen, path.format)
    return ClientFile(absolute, str(path), seen)


def _digest(fd: int, size: int) -> str:
    """The hash of the first :data:`SEEN_BYTES` of the file open as ``fd`` (of ``size``)."""
    import hashlib

    want = min(size, SEEN_BYTES)
    head = b""
    while len(head) < want:
        more = os.pread(fd, want - len(head), len(head))
        if not more:
            break
        head += more
    return hashlib.blake2b(head, digest_size=16).hexdigest()


def _when(ns: int) -> str:
    """A modification time in nanoseconds, as UTC to the nanosecond."""
    import time

    seconds, rest = divmod(ns, 10**9)
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds)) + f".{rest:09d} UTC"


class Stream:
    """The (decompressed) bytes of ``path`` or of standard input (``-``) in chunks, each
    checked (``check`` makes a fresh checker per reading) before it is handed out.

    :meth:`chunks` reads the input once in chunks of about ``size`` bytes (a compressed
    input's chunks are those of its decoder, at most :data:`CHUNK_BYTES`); :meth:`read` gives
    all of it at once, as :func:`read_source` does, even after :meth:`chunks` was read in part
    or in full: a regular file (or a device) is opened again; an input that can be read only
    once (standard input, a named pipe, a socket) is copied to an anonymous temporary file
    as it is read, and read again from the copy, then from where the first reading stopped.
    """

    def __init__(
        self, path: str | os.PathLike[str], check: Callable[[], Check] | None = None
    ) -> None:
        self.path = path
        self.source = source_name(path)
        self._check = check
        self._spool: _Spool | None = None

    def chunks(self, size: int) -> Iterator[bytes]:
        """The checked chunks, in order (one reading; the checker is closed at the end)."""
        check = self._check() if self._check is not None else None
        with input_errors(self.source):
            if self._spool is not None:  # read again: from the copy, then on
                yield from _stream_chunks(self._spool.replay(), self.source, check, size)
            elif _is_stdin(self.path):
                self._spool = _Spool(_stdin())
                yield from _stream_chunks(self._spool, self.source, check, size)
            else:
                fh = open_input(self.path, self.source)
                if _once(fh):
                    self._spool = _Spool(fh, owned=True)
                    yield from _stream_chunks(self._spool, self.source, check, size)
                else:
                    with fh:
                        yield from _stream_chunks(fh, self.source, check, size)
            if check is not None:
                check.close()

    def read(self) -> bytes:
        """All the bytes, checked (what :func:`read_source` returns)."""
        if self._spool is None:
            return read_source(self.path, self._check)
        with input_errors(self.source):
            return _read_stream(self._spool.replay(), self.source, self._check, size=None)

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()


def _once(fh: BinaryIO) -> bool:
    """Whether an open input can be read only once (a named pipe or a socket)."""
    mode = os.fstat(fh.fileno()).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _Spool:
    """An input that can be read only once, copied to an anonymous temporary file as it is
    read (``owned``: closed with the copy)."""

    def __init__(self, fh: BinaryIO, *, owned: bool = False) -> None:
        self.fh = fh
        self.owned = owned
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self.size = 0

    def read(self, n: int = -1) -> bytes:
        data = self.fh.read(n)
        if data:
            self.file.seek(self.size)
            self.file.write(data)
            self.size += len(data)
        return data

    def replay(self) -> _Replay:
        """The whole input again: the copy, then the rest as it is read (and copied)."""
        return _Replay(self)

    def close(self) -> None:
        self.file.close()
        if self.owned:
            self.fh.close()


class _Replay:
    """A reading of a :class:`_Spool` from its start."""

    def __init__(self, spool: _Spool) -> None:
        self.spool = spool
        self.pos = 0

    def read(self, n: int = -1) -> bytes:
        s = self.spool
        if self.pos < s.size:
            s.file.seek(self.pos)
            data = s.file.read(s.size - self.pos if n < 0 else min(n, s.size - self.pos))
            if n < 0:
                data += s.read(-1)
        else:
            data = s.read(n)
        self.pos += len(data)
        return data


def _stream_chunks(fh, source: str, check: Check | None, size: int) -> Iterator[bytes]:
    """Checked chunks of a file or stream (decompressed if it starts with a magic number)."""
    head = read_full(fh, max(size, _MAGIC_BYTES))
    fmt = sniff(head)
    chunks = _decompress(fmt, head, fh, source) if fmt is not None else _plain(head, fh, size)
    for chunk in chunks:
        if check is not None:
            check.feed(chunk)
        yield chunk


def _plain(head: bytes, fh, size: int) -> Iterator[bytes]:
    if head:
        yield head
    while len(chunk := read_full(fh, size)):
        yield chunk


def claim_stdin() -> bool:
    """Note that an argument names standard input; ``False`` if one already did (the command
    line checks this before anything is read: only one input can be ``-``)."""
    stream = getattr(sys.stdin, "buffer", None) or sys.stdin
    if stream is None:
        return True  # the read reports it
    if stream in _claimed_stdin:
        return False
    _claimed_stdin.add(stream)
    return True


def _stdin() -> BinaryIO:
    """Standard input's byte stream, once per process (only one input can be ``-``)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError(STDIN_SOURCE, "standard input is not available")
    if stream in _consumed_stdin:
        raise InputError(STDIN_SOURCE, "standard input was already read: only one input can be '-'")
    _consumed_stdin.add(stream)
    return stream


def _read_stream(fh: BinaryIO, source: str, make_check, *, size: int | None) -> bytes:
    """Read and check (a progress line on a terminal if it takes long)."""
    with progress.task(f"reading {source}"):
        return _read_chunks(fh, source, make_check, size=size)


def _read_chunks(fh: BinaryIO, source: str, make_check, *, size: int | None) -> bytes:
    """Read and check; ``size`` is a regular file's size (``None``: a stream)."""
    want = CHUNK_BYTES  # a stream: a chunk; a small file: all of it (and 1 byte: its end)
    if size is not None:
        want = size + 1 if size <= CHUNK_BYTES else HEAD_BYTES
    want = max(want, _MAGIC_BYTES)
    head = read_full(fh, want)
    fmt = sniff(head)
    check = make_check() if make_check is not None else None
    if fmt is not None:
        chunks = []
        for chunk in _decompress(fmt, head, fh, source):
            if check is not None:
                check.feed(chunk)
            chunks.append(chunk)
        data = b"".join(chunks)
        del chunks
    elif size is not None:
        if check is not None:
            check.feed(head)  # garbage fails before the rest is read
        if len(head) < want:
            data = head
        else:
            fh.seek(0)
            data = fh.read()  # one allocation of the file's size, one copy from the kernel
            if check is not None:
                check = make_check()
                check.feed(data)
    else:
        chunks = [head]
        if check is not None:
            check.feed(head)
        while len(chunk := read_full(fh, CHUNK_BYTES)):
            if check is not None:
                check.feed(chunk)
            chunks.append(chunk)
        data = b"".join(chunks)
        del chunks
    if check is not None:
        check.close()
    return data


def read_full(fh: BinaryIO, n: int) -> bytes:
    """``n`` bytes, or fewer only at the end of the input (pipes return short reads)."""
    first = fh.read(n)
    if not first or len(first) >= n:
        return first or b""
    parts = [first]
    got = len(first)
    while got < n:
        more = fh.read(n - got)
        if not more:
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


# ---------------------------------------------------------------------------- compression

_MAGIC_BYTES = 10  # enough to tell every format (bzip2's block magic ends at byte 10)
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


def _decompress(fmt: str, head: bytes, fh: BinaryIO, source: str) -> Iterator[bytes]:
    """Decompressed chunks of at most about :data:`CHUNK_BYTES`, stream after stream."""
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
        yield from members(reader)
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

    def __init__(self, head: bytes, fh: BinaryIO) -> None:
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


def _zlib_members(src: _Input) -> Iterator[bytes]:
    import zlib

    while (buf := src.next_stream(b"\x1f\x8b")) is not None:
        d = zlib.decompressobj(31)  # gzip wrapper: header, CRC-32 and length are checked
        while not d.eof:
            if not buf:
                buf = src.read()
            out = d.decompress(buf, CHUNK_BYTES)
            if out:
                yield out
            elif not buf:
                raise _Corrupt(_TRUNCATED)
            buf = d.unconsumed_tail
        src.pending = d.unused_data + buf


def _bz2_members(src: _Input) -> Iterator[bytes]:
    import bz2

    yield from _limited_members(src, b"BZh", bz2.BZ2Decompressor)


def _xz_members(src: _Input) -> Iterator[bytes]:
    import lzma

    def make():
        return lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT)

    yield from _limited_members(src, b"\xfd7zXZ\x00", make)


def _limited_members(src: _Input, magic: bytes, make) -> Iterator[bytes]:
    """Streams of a decoder with an output limit and an internal input buffer (bz2, lzma)."""
    while (buf := src.next_stream(magic)) is not None:
        d = make()
        while not d.eof:
            if d.needs_input:
                if not buf:
                    buf = src.read()
                    if not buf:
                        raise _Corrupt(_TRUNCATED)
                out = d.decompress(buf, CHUNK_BYTES)
                buf = b""
            else:
                out = d.decompress(b"", CHUNK_BYTES)
            if out:
                yield out
        src.pending = d.unused_data + buf


def _zstd_members(src: _Input) -> Iterator[bytes]:
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
