"""Files cranfield writes (``-o``, ``--plot``, the charts of a comparison): checked before the
work starts, and replaced atomically.

- :func:`check_output_file` / :func:`check_output_dir`: a name that cannot be written (missing
  or read-only directory, a directory given as a file, a file given as a directory, an unknown
  image suffix) is a :class:`~cranfield.errors.ParameterError` before anything is computed.
- :func:`replace_atomically`: the new content goes to a temporary file in the same directory,
  is flushed to disk (``fsync``) and renamed over the old file (``os.replace``), which keeps its
  permission bits.  If anything fails on the way, the old file is untouched and the temporary
  file is removed.  A symbolic link is followed (the file it points to is replaced; the link
  stays).  A device, FIFO or socket (``/dev/null``, ``/dev/stdout``, a named pipe) is written
  in place: it cannot be replaced.  SIGTERM or SIGHUP while a temporary file exists (this one
  or the check's) removes it and ends the process by that signal (:data:`TERMINATING`).
- :func:`write_all`: every byte of a buffer written to a file descriptor, or an ``OSError``
  (standard output's one writer, ``cli/_output.py``).
"""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import BinaryIO

from cranfield.errors import ParameterError

__all__ = [
    "ENCODING_ERRORS",
    "check_output_dir",
    "check_output_file",
    "replace_atomically",
    "write_all",
    "write_text_file",
]

StrPath = str | os.PathLike[str]

ENCODING_ERRORS = "cranfield-names"
"""The encoding error handler of everything cranfield writes: the bytes of a file name that is
not UTF-8 are written back as they were (``surrogateescape``); any other character the encoding
cannot hold becomes a backslash escape, never an error."""


def _encode_error(exc: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    chunk = exc.object[exc.start : exc.end]
    out = b"".join(
        bytes([ord(c) - 0xDC00])
        if 0xDC80 <= ord(c) <= 0xDCFF
        else c.encode("ascii", "backslashreplace")
        for c in chunk
    )
    return out, exc.end


codecs.register_error(ENCODING_ERRORS, _encode_error)


def _existing(path: str | os.PathLike[str]) -> tuple[str, os.stat_result | None]:
    """The real path of ``path`` and its status (None when nothing is there yet); refused when
    it is a directory or cannot be examined."""
    target = os.path.realpath(os.fspath(path))
    try:
        st: os.stat_result | None = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as exc:
        raise _fail(path, f"cannot write: {_why(exc)}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _fail(path, "is a directory")
    return target, st


def _fail(path: StrPath, problem: str) -> ParameterError:
    return ParameterError(f"{os.fspath(path)}: {problem}")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _refusal(target: str) -> str:
    """Why ``target``, which ``access`` says this process may not write, cannot be written: the
    system's own reason (a read-only file system, permissions, a running program's file, an
    immutable file), not one word for all of them.  ``access`` gives no reason, so the file is
    opened for writing here, which fails with it (nothing is written, and a FIFO without a
    reader fails at once instead of waiting)."""
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        return _why(exc)
    os.close(fd)  # writable for this process's effective ids, not its real ones (setuid)
    return "permission denied"


def _probe(directory: str, path: StrPath) -> None:
    """Create and remove a temporary file in ``directory``: the one test that tells whether a
    file can be written there (permissions, read-only file systems, ``/proc``)."""
    with _temporary_file(directory, ".cranfield-", path) as (fd, tmp):
        os.close(fd)
        with suppress(OSError):
            os.unlink(tmp)


def check_output_file(path: StrPath, *, suffixes: Sequence[str] | None = None) -> str:
    """``path`` if a file can be written there, else :class:`ParameterError`.  ``suffixes``:
    the accepted name endings (``.png``, ...), compared case-insensitively."""
    name = os.fspath(path)
    if not name.strip():
        raise ParameterError("the output file name is empty")
    target, st = _existing(path)
    if suffixes is not None and Path(name).suffix.lower() not in suffixes:
        *most, last = suffixes
        names = f"{', '.join(most)} or {last}" if most else last
        raise _fail(path, f"unknown file type: use a {names} name")
    if st is not None and not os.access(target, os.W_OK):
        raise _fail(path, f"cannot write: {_refusal(target)}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return name  # a device or a pipe: written in place
    parent = os.path.dirname(target) or "."
    if not os.path.isdir(parent):
        problem = "is not a directory" if os.path.exists(parent) else "does not exist"
        raise _fail(path, f"directory {parent!r} {problem}")
    _probe(parent, path)
    return name


def check_output_dir(path: StrPath) -> str:
    """``path`` if files can be written into it (created when missing), else
    :class:`ParameterError`.  Nothing is created here."""
    name = os.fspath(path)
    if not name.strip():
        raise ParameterError("the output directory name is empty")
    here = os.path.abspath(name)
    while not os.path.exists(here):  # the nearest existing ancestor will hold the new folders
        here = os.path.dirname(here)
    if not os.path.isdir(here):
        what = "is a file" if here == os.path.abspath(name) else f"is inside a file ({here!r})"
        raise _fail(path, what)
    _probe(here, path)
    return name


@cache
def _umask() -> int:
    """The process umask (read from /proc on Linux; else set and restored once)."""
    with (
        suppress(OSError, ValueError),
        open("/proc/self/status", encoding="ascii", errors="replace") as fh,
    ):
        for line in fh:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def replace_atomically(path: StrPath) -> Iterator[BinaryIO]:
    """Yield a binary file whose content replaces ``path`` when the block ends without error.

    On any error the previous file (if any) is untouched and no temporary file is left; an
    ``OSError`` becomes a :class:`ParameterError` naming ``path``.  SIGTERM or SIGHUP while the
    temporary file exists removes it, then ends the process by that signal (see
    :func:`_removed_on_termination`); Ctrl-C (``KeyboardInterrupt``) removes it on its way out."""
    target, st = _existing(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(target, "wb") as fh:
                yield fh
        except OSError as exc:
            raise _fail(path, f"cannot write: {_why(exc)}") from None
        return
    parent = os.path.dirname(target) or "."
    prefix = f".{os.path.basename(target)[:100]}."
    with _temporary_file(parent, prefix, path) as (fd, tmp):
        try:
            with os.fdopen(fd, "wb") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
                os.fchmod(fh.fileno(), (st.st_mode & 0o7777) if st else (0o666 & ~_umask()))
                if st is not None and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
                    with suppress(OSError):  # only root may give the file back to its owner
                        os.fchown(fh.fileno(), st.st_uid, st.st_gid)
            os.replace(tmp, target)
        except BaseException as exc:
            with suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise _fail(path, f"cannot write: {_why(exc)}") from None
            raise
    with suppress(OSError):  # make the rename itself durable
        dfd = os.open(parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


# ------------------------------------------------------------------------------ signals
@contextmanager
def _temporary_file(directory: str, prefix: str, path: StrPath) -> Iterator[tuple[int, str]]:
    """A new file ``PREFIX*.tmp`` in ``directory`` (its descriptor and name) that the block
    renames or removes; SIGTERM or SIGHUP until then removes it (see
    :func:`_removed_on_termination`)."""
    import tempfile

    with _removed_on_termination() as temporaries:
        with _termination_deferred():  # its name is recorded before a signal can end us
            try:
                fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
            except OSError as exc:
                raise _fail(path, f"cannot write in directory {directory!r}: {_why(exc)}") from None
            temporaries.add(tmp)
        try:
            yield fd, tmp
        finally:
            temporaries.discard(tmp)


TERMINATING = ("SIGTERM", "SIGHUP")
"""The signals that end a process which does not handle them, and after which no temporary
file of :func:`replace_atomically` may stay behind (``kill``, a closed terminal or ssh
session, a job scheduler's time limit).  SIGINT raises ``KeyboardInterrupt``, which removes
the file on its way out; SIGKILL cannot be handled."""

_temporaries: set[str] = set()
_handled: dict[int, object] = {}  # signal -> the disposition it had before
_writers = 0  # replace_atomically blocks running (they may nest or run in threads)
_owner = 0  # the process whose temporary files _temporaries names (a fork is not it)
_deferring = 0
_deferred: list[int] = []


@contextmanager
def _removed_on_termination() -> Iterator[set[str]]:
    """The set of temporary files to remove if SIGTERM or SIGHUP arrives while it is held.

    While a write is under way each signal of :data:`TERMINATING` whose disposition is the
    default one (to end the process) is handled: the handler removes the temporary files, puts
    the default disposition back and raises the signal again, so the process ends as it would
    have, by that signal (a shell shows status 128 + the signal's number: 143 for SIGTERM, 129
    for SIGHUP), the old file untouched.  A signal that is ignored (``nohup``) or has a handler
    of the program's own is left alone; the dispositions are put back when the last write ends.
    Handlers can only be set from the main thread: a write in another thread is covered while
    one in the main thread is under way, else only by ``KeyboardInterrupt``'s rule."""
    global _writers, _owner
    import signal
    import threading

    lock = _signal_lock()
    with lock:
        _writers += 1
        if threading.current_thread() is threading.main_thread():
            _owner = os.getpid()
            for name in TERMINATING:
                signum = getattr(signal, name, None)
                if signum is None or signum in _handled:
                    continue
                if signal.getsignal(signum) is signal.SIG_DFL:
                    _handled[signum] = signal.signal(signum, _on_termination)
    try:
        yield _temporaries
    finally:
        with lock:
            _writers -= 1
            if _writers == 0 and threading.current_thread() is threading.main_thread():
                for signum, before in list(_handled.items()):
                    if signal.getsignal(signum) is _on_termination:
                        # the handler signal.signal returned, given back as it was (None too)
                        signal.signal(signum, before)  # type: ignore[arg-type]
                    del _handled[signum]


@cache
def _signal_lock() -> AbstractContextManager[bool]:
    """The one re-entrant lock of the signal bookkeeping (threading imported only then)."""
    import threading

    return threading.RLock()


@contextmanager
def _termination_deferred() -> Iterator[None]:
    """A signal of :data:`TERMINATING` that arrives inside the block takes effect at its end
    (between the creation of a temporary file and the record of its name, say).  Signal
    handlers run in the main thread: elsewhere the block defers nothing."""
    global _deferring
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
        if not _deferring and _deferred:
            _end_by(_deferred[0])


def _on_termination(signum: int, frame: object) -> None:
    if _deferring:
        _deferred.append(signum)
        return
    _end_by(signum)


def _end_by(signum: int) -> None:
    """Remove this process's temporary files and end it by ``signum``, as the signal's default
    disposition would have."""
    import signal

    if os.getpid() == _owner:
        for tmp in list(_temporaries):
            with suppress(OSError):
                os.unlink(tmp)
    signal.signal(signum, signal.SIG_DFL)
    with suppress(AttributeError, OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
    signal.raise_signal(signum)
    os._exit(128 + signum)  # only if the signal could not end the process


def write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    """Write every byte of ``data`` to the file descriptor ``fd``, or raise ``OSError``.

    ``write(2)`` may take only part of what it is given (a file size limit, a disk filling up,
    a pipe, a signal) and says so only by its count; CPython's unbuffered file objects (standard
    output under ``python -u`` or ``PYTHONUNBUFFERED``) return that count, which a text stream
    drops.  Here the rest is written again until it is all taken: the next write then fails
    with the reason (``EFBIG``, ``ENOSPC``, ``EPIPE``, ...).  A write that takes nothing and
    names no error is an error too, never a loop.  A descriptor left non-blocking (shared
    with another program) is waited on until it takes more."""
    view = memoryview(data).cast("B")
    total = len(view)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            _wait_writable(fd)
            continue
        if n <= 0:
            raise OSError(0, f"only {total - len(view)} of {total} bytes were written")
        view = view[n:]


def _wait_writable(fd: int) -> None:
    import select

    poll = select.poll()
    poll.register(fd, select.POLLOUT)
    poll.poll()


def write_text_file(path: StrPath, text: str) -> None:
    """Replace ``path`` with ``text`` in UTF-8 (see :data:`ENCODING_ERRORS`)."""
    data = text.encode("utf-8", ENCODING_ERRORS)
    with replace_atomically(path) as fh:
        fh.write(data)
