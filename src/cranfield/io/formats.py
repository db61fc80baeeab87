"""Which text format a file is in: TREC, MS MARCO's 3-column run, or CSV/TSV with a header.

A format is given (``read_run(path, format="msmarco")``, ``--run-format msmarco``), or found
without guessing: a text file (whatever its name: MS MARCO's ``run.dev.small.tsv`` has no
header) is read as TREC text, unless its first data line says otherwise:

- a line of comma- or tab-separated column names that include a query or a document column
  (``qid,docno,score``) is a header: the file is read as CSV or TSV;
- a run whose first line has exactly 3 fields is read as an MS MARCO run if, and only if,
  every line is ``qid docid rank`` and each query's ranks run 1, 2, 3... (or 0, 1, 2...) in
  file order; otherwise it is an error that says why and which option reads it;
- a header separated by spaces is an error (TREC text has no header; give a format).

Nothing else is inferred: a TREC file is read exactly as before.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from cranfield.errors import InputError, ParameterError
from cranfield.io.client_files import ClientFile
from cranfield.io.column_names import DOC_NAMES, QUERY_NAMES
from cranfield.io.format_registry import INPUT_FORMATS, get, names
from cranfield.io.textcheck import line_ends

if TYPE_CHECKING:
    from collections.abc import Generator

    from cranfield.data.tables import Qrels, Run
    from cranfield.io.source import Stream

__all__ = [
    "QRELS_FORMATS",
    "RUN_FORMATS",
    "FormattedPath",
    "detect_qrels",
    "detect_run",
    "read_qrels_as",
    "read_run_as",
]

RUN_FORMATS = names("run")
QRELS_FORMATS = names("qrels")
_HEAD_LINES = 1000
"""Leading comment and blank lines looked through for the first data line."""


class FormattedPath(os.PathLike):
    """A path read in a given format (what ``--run-format``/``--qrels-format`` make of the
    command line's paths); a path like any other for naming (its file name)."""

    def __init__(self, path: str | os.PathLike[str], format: str) -> None:
        self.path = os.fspath(path)
        self.format = format

    def __fspath__(self) -> str:
        return self.path

    def __str__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"FormattedPath({self.path!r}, {self.format!r})"


class FormattedClientFile(ClientFile, FormattedPath):
    """A :class:`~cranfield.io.client_files.ClientFile` read in a given format."""

    def __init__(
        self, path: str, name: str, seen: tuple[int, int, str] | None, format: str
    ) -> None:
        super().__init__(path, name, seen)
        self.format = format


def check_format(fmt: Any, kind: str) -> str:
    choices = RUN_FORMATS if kind == "run" else QRELS_FORMATS
    if not isinstance(fmt, str) or fmt not in choices:
        raise ParameterError(f"unknown {kind} format {fmt!r}; choose one of {', '.join(choices)}")
    return fmt


class _Unsettled(Exception):
    """The first data line does not end within the bytes looked at."""


def _first_line(data: bytes, source: str, *, whole: bool = True) -> tuple[int, bytes] | None:
    """The 1-based number and text of the first line that is not blank or a comment
    (``whole=False``: ``data`` is the start of the input; raises :class:`_Unsettled` when the
    line that would decide does not end in it).  The lines up to it follow the line-end rule
    of every format (:func:`~cranfield.io.textcheck.line_ends`): a bare CR joining two lines
    is that error, whatever the format would have been."""
    pos = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    for lineno in range(1, _HEAD_LINES + 1):
        end = data.find(b"\n", pos)
        if end < 0 and not whole:
            raise _Unsettled
        line = data[pos:] if end < 0 else data[pos:end]
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            line_ends(data[: len(data) if end < 0 else end + 1], source)
            return lineno, line
        if end < 0:
            return None
        pos = end + 1
    return None


def _spaced_header(line: bytes, lineno: int, source: str, kind: str) -> None:
    names = set(line.decode("utf-8", "replace").split())
    if names & set(QUERY_NAMES) and names & set(DOC_NAMES):
        option = "--run-format" if kind == "run" else "--qrels-format"
        raise InputError(
            source,
            f"this line names columns ({' '.join(line.decode('utf-8', 'replace').split())}), "
            f"but TREC text has no header line: remove it, or write the file as CSV or TSV "
            f"with a header and give {option} csv|tsv",
            line=lineno,
        )


def _headless_csv(line: bytes, not_trec: bool, lineno: int, source: str) -> None:
    """Comma-separated values where TREC fields were expected, and no header line."""
    if not_trec and len(line.split(b",")) >= 3:
        raise InputError(
            source,
            "comma-separated values without a header line: a CSV file must name its columns "
            "on its first line (for example qid,docno,score or query_id,doc_id,relevance)",
            line=lineno,
        )


def _detected(first: tuple[int, bytes] | None, source: str, kind: str) -> str | None:
    """The format of :data:`~cranfield.io.format_registry.INPUT_FORMATS` whose detector
    takes the first data line ``first`` of a ``kind`` file (the header detectors first, then
    the line's mistakes are errors, then the others); ``None``: TREC text."""
    if first is None:
        return None
    lineno, line = first
    formats = [f for f in INPUT_FORMATS if kind in f.kinds and f.detect is not None]
    for fmt in formats:
        # (detect is not None: filtered above, for both loops)
        if fmt.by_header and fmt.detect(lineno, line):  # type: ignore[misc]
            return fmt.name
    _spaced_header(line, lineno, source, kind)
    fields = len(line.split())
    _headless_csv(line, fields < 6 if kind == "run" else fields != 4, lineno, source)
    for fmt in formats:
        if not fmt.by_header and fmt.detect(lineno, line):  # type: ignore[misc]
            return fmt.name
    return None


def detect_run(data: bytes, source: str, name: str) -> Run | None:
    """The run of ``data`` when it is not TREC text (see the module docstring); ``None``
    when it is TREC text (or looks like nothing else: the TREC reader reports it)."""
    kind = _run_kind(_first_line(data, source), source)
    if kind == "msmarco":
        return _detected_msmarco(data, source, name)
    if kind is not None:
        # a format detected by its first line has a parser (parse_run is not None)
        return get(kind).parse_run(data, source, name)  # type: ignore[misc]
    return None


def detect_run_stream(stream: Stream, name: str) -> Run | None:
    """:func:`detect_run` of a stream (:class:`~cranfield.io.source.Stream`), from its first
    :data:`~cranfield.io.source.HEAD_BYTES`: a TREC run is then read by the caller (in
    pieces, if large); any other is read whole, as :func:`detect_run` reads it."""
    head, whole = _head(stream)
    try:
        kind = _run_kind(_first_line(head, stream.source, whole=whole), stream.source)
    except _Unsettled:
        return detect_run(stream.read(), stream.source, name)
    if kind is None:
        return None
    return detect_run(head if whole else stream.read(), stream.source, name)


def starts_as_trec_run(stream: Stream) -> bool:
    """Whether the first data line of ``stream`` (within its first
    :data:`~cranfield.io.source.HEAD_BYTES`) is one of a TREC text run; ``False`` when the
    head does not settle it.  Errors of the first lines are raised as the readers raise them."""
    head, whole = _head(stream)
    try:
        return _run_kind(_first_line(head, stream.source, whole=whole), stream.source) is None
    except _Unsettled:
        return False


def _head(stream: Stream) -> tuple[bytes, bool]:
    """The first :data:`~cranfield.io.source.HEAD_BYTES` (or more) of ``stream`` (a file's
    first read); whether that is all of it."""
    from cranfield.io import source

    want = source.HEAD_BYTES
    got: list[bytes] = []
    size = 0
    # cast: Stream.chunks is a generator function (closed below, to let go of the file at
    # once) annotated as returning an Iterator in io/source.py
    chunks = cast("Generator[bytes, None, None]", stream.chunks(want))
    try:
        for chunk in chunks:
            got.append(chunk)
            size += len(chunk)
            if size >= want:
                return b"".join(got), False
    finally:
        chunks.close()
    return b"".join(got), True


def _run_kind(first: tuple[int, bytes] | None, source: str) -> str | None:
    """What a run's first data line says it is: ``csv``/``tsv`` (a header), ``msmarco`` (3
    fields) or ``None`` (TREC text); a header separated by spaces or comma-separated values
    without a header are errors."""
    return _detected(first, source, "run")


def _detected_msmarco(data: bytes, source: str, name: str) -> Run:
    from cranfield.io.msmarco import check_consecutive, parse_msmarco_run

    try:
        run = parse_msmarco_run(data, source, name)
    except InputError as exc:
        raise InputError(
            source,
            f"{exc.problem} (the file has 3 columns: it was read as an MS MARCO run, query "
            "document rank; a TREC run has 6: query Q0 document rank score tag)",
            line=exc.line,
        ) from None
    why = check_consecutive(run)
    if why is not None:
        raise InputError(
            source,
            "the file has 3 columns, like an MS MARCO run (query document rank), but it was "
            f"not read as one: {why}, where an MS MARCO run ranks each query's results 1, 2, "
            "3... in file order. If the third column is a rank, give --run-format msmarco "
            "(read_run(..., format='msmarco'))",
        )
    return run


def detect_qrels(data: bytes, source: str) -> Qrels | None:
    """The qrels of ``data`` when it is CSV/TSV with a header, else ``None`` (TREC)."""
    fmt = _detected(_first_line(data, source), source, "qrels")
    # a format detected by its first line has a parser (parse_qrels is not None)
    return None if fmt is None else get(fmt).parse_qrels(data, source)  # type: ignore[misc]


def read_run_as(path: str | os.PathLike[str], fmt: str, name: str) -> Run:
    """The run at ``path`` (or ``-``) read in format ``fmt`` (a run format of
    :data:`~cranfield.io.format_registry.INPUT_FORMATS`)."""
    # fmt is a run format: it has a reader (read_run is not None)
    return get(fmt).read_run(path, name)  # type: ignore[misc]


def read_qrels_as(path: str | os.PathLike[str], fmt: str) -> Qrels:
    """The qrels at ``path`` (or ``-``) read in format ``fmt`` (a qrels format of
    :data:`~cranfield.io.format_registry.INPUT_FORMATS`)."""
    # fmt is a qrels format: it has a reader (read_qrels is not None)
    return get(fmt).read_qrels(path)  # type: ignore[misc]
