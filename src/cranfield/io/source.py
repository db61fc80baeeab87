"""Bytes of an input: a path or ``-`` (standard input), decompressed, read in bounded chunks.

Compression is detected from the first bytes (magic numbers), never from the name, and
undone chunk by chunk (:mod:`cranfield.io.decompress`).  A file named on the client and read
on a Dask worker is a :class:`~cranfield.io.client_files.ClientFile`, checked where it is
opened (:func:`open_input`).

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
from typing import Any, BinaryIO, Literal, Protocol, cast

from cranfield.base import progress
from cranfield.errors import InputError
from cranfield.io.client_files import ClientFile, client_file  # their path before client_files
from cranfield.io.decompress import MAGIC_BYTES, Readable, decompress, sniff

__all__ = [
    "STDIN",
    "STDIN_SOURCE",
    "Check",
    "ClientFile",
    "Stream",
    "claim_stdin",
    "client_file",
    "is_stdin",
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

_consumed_stdin: weakref.WeakSet[Any] = weakref.WeakSet()
_claimed_stdin: weakref.WeakSet[Any] = weakref.WeakSet()


class Check(Protocol):
    """What :func:`read_source` calls on the bytes as they arrive."""

    def feed(self, chunk: bytes) -> None: ...

    def close(self) -> None: ...


def source_name(path: str | os.PathLike[str]) -> str:
    """The name of an input in messages: the path, or ``<stdin>`` for ``-``."""
    return STDIN_SOURCE if is_stdin(path) else str(path)


def is_stdin(path: Any) -> bool:
    return isinstance(path, str) and path == STDIN


def read_source(path: str | os.PathLike[str], check: Callable[[], Check] | None = None) -> bytes:
    """All the (decompressed) bytes of ``path`` or of standard input (``-``).

    ``check`` makes a fresh checker; its ``feed`` sees every chunk in order as it arrives
    and may raise; ``close`` is called at the end.
    """
    source = source_name(path)
    with input_errors(source):
        if is_stdin(path):
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

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> Literal[False]:
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

    def chunks(self, size: int, *, checked: bool = True) -> Iterator[bytes]:
        """The checked chunks, in order (one reading; the checker is closed at the end);
        ``checked=False``: not checked (the caller checks them as ``check`` would, and reads
        the input again with :meth:`read` for the check's error)."""
        check = self._check() if self._check is not None and checked else None
        with input_errors(self.source):
            if self._spool is not None:  # read again: from the copy, then on
                yield from _stream_chunks(self._spool.replay(), self.source, check, size)
            elif is_stdin(self.path):
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
    head = read_full(fh, max(size, MAGIC_BYTES))
    fmt = sniff(head)
    chunks = (
        decompress(fmt, head, fh, source, CHUNK_BYTES)
        if fmt is not None
        else _plain(head, fh, size)
    )
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


def _read_stream(fh: Readable, source: str, make_check: Any, *, size: int | None) -> bytes:
    """Read and check (a progress line on a terminal if it takes long)."""
    with progress.task(f"reading {source}"):
        return _read_chunks(fh, source, make_check, size=size)


def _read_chunks(fh: Readable, source: str, make_check: Any, *, size: int | None) -> bytes:
    """Read and check; ``size`` is a regular file's size (``None``: a stream)."""
    want = CHUNK_BYTES  # a stream: a chunk; a small file: all of it (and 1 byte: its end)
    if size is not None:
        want = size + 1 if size <= CHUNK_BYTES else HEAD_BYTES
    want = max(want, MAGIC_BYTES)
    head = read_full(fh, want)
    fmt = sniff(head)
    check = make_check() if make_check is not None else None
    if fmt is not None:
        chunks = []
        for chunk in decompress(fmt, head, fh, source, CHUNK_BYTES):
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
            cast(BinaryIO, fh).seek(0)  # a regular file: its size is known
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


def read_full(fh: Readable, n: int) -> bytes:
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
