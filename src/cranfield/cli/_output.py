"""Where the command's output goes: standard output, the ``-o`` file, standard error.

Rules (docs/cli.md): output that cannot be written (standard output closed or full, a file
that fails midway) is an error with exit status 2, never lost silently; a closed pipe
(``| head``) ends the command quietly with status 0; messages to standard error never fail
(a closed standard error only loses the message, not the exit status) and show control
characters as escapes.
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import suppress
from typing import IO

from cranfield.base.output_files import ENCODING_ERRORS, write_all, write_text_file
from cranfield.errors import CranfieldError

_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(32), *range(127, 160)) if c != 9}


class OutputError(CranfieldError):
    """Standard output could not be written."""


def _stdout_failed(exc: OSError | None) -> OutputError:
    why = "it is closed" if exc is None else exc.strerror or str(exc)
    return OutputError(f"cannot write to standard output: {why}")


def prepare_streams() -> None:
    """Make standard output write any text: bytes of non-UTF-8 file names as they were,
    characters its encoding cannot hold as escapes (see ``ENCODING_ERRORS``).

    A standard stream closed at start (``>&-``) stays closed for Python (``sys.stdout`` is
    None: writing to it is an error), but its descriptor is taken by /dev/null, so that no
    file opened later (an input, the ``-o`` file) lands on descriptor 1 or 2, where a C
    library's message would go."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with suppress(OSError):
                null = os.open(os.devnull, os.O_RDONLY)  # read-only: writes still fail
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
    out = sys.stdout
    if out is not None and hasattr(out, "reconfigure"):
        with suppress(OSError, ValueError):  # a stream that cannot be reconfigured keeps its rules
            out.reconfigure(errors=ENCODING_ERRORS)


def echo(text: str, err: bool = False) -> None:
    """Write ``text`` to standard output (see :func:`write_stdout`).  ``err=True`` writes to
    standard error (see :func:`say`)."""
    if err:
        write_stderr(text)
        return
    write_stdout(text)


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (not when it is replaced or closed)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def write_stdout(data: str | bytes) -> None:
    """The one way the command writes to standard output: every byte is checked.

    Text is encoded as the stream's encoding (with :data:`ENCODING_ERRORS`); the bytes go to the
    stream's file descriptor through :func:`~cranfield.base.output_files.write_all`, which writes
    again what a short write left until all is taken or the system names the failure (a text
    stream over CPython's unbuffered standard output drops a short write's count: ``ulimit -f``
    cut the output and the exit status was 0).  What was written through the stream itself is
    flushed first.  A stream that is not a file's (a capture in memory: tests, notebooks) is
    written through its own methods, and a short count there is an error too.

    A closed pipe raises ``BrokenPipeError`` (the caller ends quietly); any other failure
    raises :class:`OutputError`."""
    stream = sys.stdout
    if stream is None:
        raise _stdout_failed(None)
    try:
        stream.flush()
        fd = _descriptor(stream)
        if fd is not None:
            if isinstance(data, str):
                data = data.encode(stream.encoding, ENCODING_ERRORS)
            write_all(fd, data)
        else:
            _write_stream(stream, data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _stdout_failed(exc) from None
    except ValueError:  # closed by the program (sys.stdout.close())
        raise _stdout_failed(None) from None


def _descriptor(stream: IO[str]) -> int | None:
    """The file descriptor under ``stream`` when it is a file's text stream (the process's
    standard output or a file put in its place), else None."""
    buffer = getattr(stream, "buffer", None)
    raw = getattr(buffer, "raw", buffer)
    if isinstance(stream, io.TextIOWrapper) and isinstance(raw, io.FileIO):
        return raw.fileno()
    return None


def _write_stream(stream: IO[str], data: str | bytes) -> None:
    """``data`` written to a standard output that is not a file's, through its binary buffer
    when it has one, else as text; a short count is an error."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        if isinstance(data, str):
            data = data.encode(getattr(stream, "encoding", None) or "utf-8", ENCODING_ERRORS)
        taken = buffer.write(data)
        buffer.flush()
    else:
        if isinstance(data, bytes):
            data = data.decode("utf-8", "surrogateescape")
        taken = stream.write(data)
        stream.flush()
    if isinstance(taken, int) and taken != len(data):
        raise OSError(0, f"only {taken} of {len(data)} bytes were written")


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` to the ``-o`` file (replaced atomically), or to standard output without
    one (or with ``-``)."""
    if not path or path == "-":
        echo(text)
    else:
        write_text_file(path, text)


def write_stderr(text: str) -> None:
    """Write ``text`` to standard error as it is; never fails (a closed or broken standard
    error loses the text, nothing else)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


def say(line: str) -> None:
    """One line on standard error, control characters (file names!) shown as ``\\xNN``."""
    write_stderr(line.translate(_CONTROLS) + "\n")


class StdoutBytes:
    """Standard output as a binary stream with :func:`write_stdout`'s rules (trec_eval's bytes)."""

    def write(self, data: bytes) -> int:
        write_stdout(data)
        return len(data)

    def flush(self) -> None:
        flush_stdout()


class StderrText:
    """Standard error as a text stream that never fails (see :func:`write_stderr`)."""

    def write(self, text: str) -> int:
        write_stderr(text)
        return len(text)

    def flush(self) -> None:
        pass


def flush_stdout() -> None:
    """Flush standard output (what is still buffered must not be lost at exit)."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _stdout_failed(exc) from None


def discard_stdout() -> None:
    """Point standard output at /dev/null, so that nothing still buffered fails again (with a
    second message) when Python flushes it at exit."""
    stream: IO[str] | None = sys.stdout
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # not a real file (captured in tests)
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)
