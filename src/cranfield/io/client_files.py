"""Files named on the client and read elsewhere (a Dask worker, with a working directory and
maybe a file system of its own): :class:`ClientFile` carries the absolute path, the name the
user gave and what the client saw of the file, and every opening checks that it is still that
file (:meth:`ClientFile.check`, called by :func:`cranfield.io.source.open_input`).
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from cranfield.errors import InputError

__all__ = ["SEEN_BYTES", "ClientFile", "client_file"]


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
    from cranfield.io.source import is_stdin

    if is_stdin(path):
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
