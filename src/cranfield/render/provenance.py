"""How a report was made, so that a reader can make it again: the command line or Python call,
the versions of cranfield and of the libraries that compute its statistics, and the SHA-256
checksum and size of every input file.  No time unless asked (the same inputs then give the
same bytes)."""

from __future__ import annotations

import hashlib
import os
import platform
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["InputFile", "Provenance", "display_path", "provenance"]

_READ = 1 << 20
_FILE_ROLES = (
    ("qrels", "qrels"),
    ("runs", "run"),
    ("known", "known documents"),
    ("collection_size", "collection sizes"),
    ("target", "targets"),
    ("files", "nugget assignments"),
)
_LISTS = ("runs", "files")
"""The keys whose value may be several sources (one, a list or a dict)."""


@dataclass(frozen=True)
class InputFile:
    """One input: its role, its name as given, and its checksum and size when it is a file
    (``note`` says why not otherwise: standard input, a table in memory)."""

    role: str
    name: str
    sha256: str | None = None
    size: int | None = None
    note: str = ""


@dataclass(frozen=True)
class Provenance:
    command: str
    version: str
    libraries: tuple[tuple[str, str], ...]
    inputs: tuple[InputFile, ...]
    timestamp: str | None = None


def _versions() -> tuple[str, tuple[tuple[str, str], ...]]:
    from importlib.metadata import PackageNotFoundError, version

    from cranfield.base.version import __version__

    try:
        own = version("cranfield")
    except PackageNotFoundError:  # pragma: no cover - a checkout on sys.path
        own = __version__
    libs = [("Python", platform.python_version())]
    for name in ("numpy", "scipy"):
        try:
            libs.append((name, version(name)))
        except PackageNotFoundError:  # pragma: no cover
            continue
    return own, tuple(libs)


def _items(value: Any) -> Iterator[tuple[str | None, Any]]:
    """The run sources of ``runs`` (one, a list or a dict) with their dict keys."""
    if isinstance(value, Mapping):
        yield from ((str(k), v) for k, v in value.items())
    elif isinstance(value, list | tuple):
        yield from ((None, v) for v in value)
    else:
        yield None, value


def display_path(path: str | os.PathLike[str]) -> str:
    """A file name as a report shows it: relative to the working directory (a report is
    shared: no absolute path, with the user's home and folders, in it), the file's name
    where there is no relative path (another drive); ``-`` and ``irds:...`` as given."""
    text = os.fsdecode(path)
    if text == "-" or not os.path.isabs(text):
        return text
    try:
        return os.path.relpath(text)
    except ValueError:  # another drive (Windows)
        return os.path.basename(text)


def _describe(value: Any) -> str:
    """A source as a reader sees it: a path (:func:`display_path`), or what kind of object
    it was."""
    if isinstance(value, str | os.PathLike):
        return display_path(value)
    shape = getattr(value, "shape", None)
    if shape is not None and len(shape) == 2:
        return f"<{type(value).__name__}: {shape[0]:,} rows>"
    return f"<{type(value).__name__}>"


def checksum(path: str | os.PathLike[str]) -> tuple[str, int]:
    """SHA-256 (hex) and size in bytes of a file, read in 1 MiB pieces."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(_READ):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def _input(role: str, key: str | None, value: Any) -> InputFile:
    name = _describe(value) if key is None else f"{key}: {_describe(value)}"
    if not isinstance(value, str | os.PathLike):
        return InputFile(role, name, note="in memory: no checksum")
    if os.fsdecode(value) == "-":
        return InputFile(role, name, note="standard input: no checksum")
    try:
        if not stat.S_ISREG(os.stat(value).st_mode):  # a pipe is read once, by the reader
            return InputFile(role, name, note="not a regular file (a pipe?): no checksum")
        digest, size = checksum(value)
    except OSError as exc:
        return InputFile(role, name, note=f"not checksummed: {exc.strerror or exc}")
    return InputFile(role, name, digest, size)


def _call(
    call: Mapping[str, Any],
    defaults: Mapping[str, Any],
    function: str = "cranfield.report",
    positional: tuple[str, ...] = ("qrels", "runs"),
    optional: str = "measures",
) -> str:
    """``function(...)`` as it was called: the ``positional`` arguments (sources shown by
    :func:`_describe`), the ``optional`` one when given, then the keywords that differ from
    their defaults."""

    def shown(v: Any) -> str:
        if isinstance(v, Mapping):
            return "{" + ", ".join(f"{k!r}: {shown(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list | tuple):
            return "[" + ", ".join(shown(x) for x in v) + "]"
        if isinstance(v, str | os.PathLike):
            return repr(display_path(v))
        if isinstance(v, bool | int | float) or v is None:
            return repr(v)
        return _describe(v)

    parts = [shown(call[k]) for k in positional]
    if call.get(optional) is not None:
        parts.append(shown(call[optional]))
    for k, v in call.items():
        if k in (*positional, optional, "command", "output"):
            continue
        if k in defaults and _same(v, defaults[k]):
            continue
        parts.append(f"{k}={shown(v)}")
    return f"{function}({', '.join(parts)})"


def _same(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def provenance(
    call: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any],
    command: str | None = None,
    timestamp: bool = False,
    function: str = "cranfield.report",
    positional: tuple[str, ...] = ("qrels", "runs"),
    optional: str = "measures",
) -> Provenance:
    """The provenance of a report made by ``function(**call)`` (``cranfield.report`` by
    default; ``positional`` and ``optional``: its arguments shown without their names;
    ``command``: the command line instead of the call); checksums every input file."""
    from cranfield.base import progress

    sources = []
    for key, role in _FILE_ROLES:
        value = call.get(key)
        if value is None or (key in ("collection_size", "target") and isinstance(value, int)):
            continue
        items = list(_items(value)) if key in _LISTS else [(None, value)]
        sources += [(role, k, v) for k, v in items]
    inputs = [_input(*s) for s in progress.track(sources, "checksums")]
    version, libs = _versions()
    when = None
    if timestamp:
        from datetime import UTC, datetime

        when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return Provenance(
        command=command
        if command is not None
        else _call(call, defaults, function, positional, optional),
        version=version,
        libraries=libs,
        inputs=tuple(inputs),
        timestamp=when,
    )
