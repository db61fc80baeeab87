"""TREC text formats: qrels (``qid iter docno grade``) and runs (``qid Q0 docno rank score tag``).

Fields are separated by any run of ASCII whitespace (C ``isspace``: space, tab, CR, VT, FF), so
tabs, repeated spaces and CRLF line endings all work; compressed files (gzip, bzip2, xz,
Zstandard) and standard input (``-``) are read by :mod:`.source`.  A line whose first
non-blank character is ``#`` is a comment; blank lines are skipped.  Every rule is documented
in ``docs/input.md``; the rules that catch damaged files (lines joined by a bare CR or by a
missing newline, a result hidden behind ``#``) are checked by every parser.

Every TREC text qrels and run is parsed by the compiled core (:mod:`.core`, one pass per
line), which reports the first problem as its kind, line and field; the messages are worded
here, by the helpers of the line parser.  The line parser, the vectorised field splitter of
:mod:`.fields` and the Arrow parser of :mod:`.arrow_parse` that the core replaced remain only
as the oracle of its tests, in :mod:`.text_oracle` (``tests/io/test_core_reader.py``).
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

import numpy as np

from cranfield.data.tables import LineCounts, Qrels, Run
from cranfield.errors import CranfieldError, DataWarning, InputError, warn
from cranfield.io import number_text
from cranfield.io.source import STDIN_SOURCE, Stream, read_source, source_name
from cranfield.io.textcheck import BOM, TextCheck, check_text, line_ends
from cranfield.io.validate import (
    check_qrels_duplicates,
    check_qrels_ids,
    check_run_duplicates,
    check_run_ids,
    check_scores,
)

if TYPE_CHECKING:
    from cranfield.io.trec.run_pieces import Piece

__all__ = [
    "parse_trec_qrels",
    "parse_trec_run",
    "read_bytes",
    "read_text",
    "read_trec_qrels",
    "read_trec_run",
]

PIECES_FROM_BYTES = 4 << 20
"""Run files at least this large are read in pieces (tests lower it)."""

RUN_FIELDS = 6
QRELS_FIELDS = 4
JOINED_FIELDS = 2 * RUN_FIELDS - 1
"""A run line of this many fields or more may hold two results (a missing newline)."""
_INT = number_text.INT
_SHORT = 18
"""An integer token of at most this many bytes (sign included) is within int64."""


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a text file (or ``-``, standard input), decompressed, checked as UTF-8
    text without NUL bytes or inner byte order marks (a leading one is kept)."""
    return read_text(path)


def read_text(path: str | os.PathLike[str]) -> bytes:
    """:func:`read_bytes` (the checks of :class:`~cranfield.io.textcheck.TextCheck` run on
    each chunk as it is read)."""
    source = source_name(path)
    return read_source(path, lambda: TextCheck(source))


def _check_trec(data: bytes, source: str) -> tuple[bytes, int]:
    """Drop a leading BOM; reject empty text and CRs that join lines (:func:`line_ends`).

    Returns the text and what its CRs are: :data:`NO_CR`, :data:`CRLF_ONLY` or
    :data:`OTHER_CR`."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data or data.isspace():
        raise InputError(source, "file is empty")
    return data, line_ends(data, source)


def _column_count_error(
    source: str, expected: str, fields: list[bytes], lineno: int, kind: str
) -> InputError:
    """The wrong number of columns on a line of a ``kind`` ("qrels" or "run") file, with a
    hint when the line is what the other kind of file holds (QRELS and RUN swapped)."""
    hint = ""
    if kind == "qrels" and len(fields) >= 6 and fields[1] in (b"Q0", b"q0"):
        hint = (
            ": this looks like a run (query Q0 document rank score tag): are the qrels and the "
            "run swapped? The qrels come first (QRELS RUN... in a command, evaluate(qrels, runs))"
        )
    elif kind == "run" and len(fields) == 4 and _INT.fullmatch(fields[3]):
        hint = (
            ": this looks like qrels (query iteration document grade): are the qrels and the "
            "run swapped? The qrels come first (QRELS RUN... in a command, evaluate(qrels, runs))"
        )
    return InputError(source, f"expected {expected}, found {len(fields)}{hint}", line=lineno)


def _result_at(f: list[bytes], k: int = 0) -> bool:
    """Whether ``f[k:k+6]`` has the shape of a run line: an integer rank, a numeric score."""
    return _INT.fullmatch(f[k + 3]) is not None and number_text.is_score(f[k + 4])


def _joined_at(f: list[bytes]) -> int | None:
    """Where a second result starts in the fields of one run line (a missing newline), or
    ``None``: the first ``k >= 5`` from which six fields have the shape of a result with the
    line's own iteration token (``Q0``)."""
    for k in range(RUN_FIELDS - 1, len(f) - RUN_FIELDS + 1):
        if f[k + 1] == f[1] and _result_at(f, k):
            return k
    return None


def _hidden_result(f: list[bytes], kind: str) -> bool:
    """Whether the fields of a comment line have the complete shape of a data line."""
    if kind == "run":
        return len(f) >= RUN_FIELDS and _result_at(f)
    return len(f) == QRELS_FIELDS and _INT.fullmatch(f[3]) is not None


def _hidden_result_error(source: str, lineno: int, f: list[bytes], kind: str) -> InputError:
    what = "result" if kind == "run" else "judgment"
    line = b" ".join(f).decode("utf-8", "replace")
    return InputError(
        source,
        f"ambiguous line {line!r}: it has the shape of a {what}, but lines starting with "
        "'#' are comments (a query id cannot start with '#'); delete the line or the '#'",
        line=lineno,
    )


def _joined_error(source: str, lineno: int, f: list[bytes], k: int) -> InputError:
    second = b" ".join(f[k : k + RUN_FIELDS]).decode("utf-8", "replace")
    return InputError(
        source,
        f"two results on one line? fields {k + 1}-{k + RUN_FIELDS} ({second!r}) have the "
        "shape of another result: a missing newline (files joined with cat?)",
        line=lineno,
    )


def _suspects_are_fine(data: bytes, offsets: np.ndarray, kind: str) -> bool:
    """Whether none of the suspect lines (given by their first field's offset) breaks a rule:
    a comment line must not have the shape of a data line, a run line must not hold two."""
    for offset in offsets.tolist():
        end = data.find(b"\n", offset)
        f = data[offset : end if end >= 0 else len(data)].split()
        bad = _hidden_result(f, kind) if f[0][:1] == b"#" else _joined_at(f) is not None
        if bad:
            return False
    return True


def _line_counts(nlines: int, data: int, comments: int, blank: int, extra=0, first_extra=None):
    return LineCounts(
        lines=nlines,
        data=data,
        comments=comments,
        blank=blank,
        extra_columns=extra,
        first_extra_line=first_extra,
    )


def _physical_lines(data: bytes) -> tuple[list[bytes], int]:
    """The text split at LF, and its number of lines (a final LF ends the last line)."""
    pieces = data.split(b"\n")
    return pieces, len(pieces) - (data[-1:] == b"\n")


# ----------------------------------------------------------------------------------- qrels


def read_trec_qrels(path: str | os.PathLike[str], *, detect: bool = True) -> Qrels:
    """Read a TREC qrels file, or ``-`` (the file's bytes are freed before the duplicate
    check); with ``detect``, a file that is CSV/TSV with a header is read as one
    (:mod:`.formats`)."""
    data = read_text(path)
    if detect:
        from cranfield.io.formats import detect_qrels

        other = detect_qrels(data, source_name(path))
        if other is not None:
            return other
    qrels = _parse_qrels(data, source_name(path))
    del data
    from cranfield.io.trec.core import ids_ok

    if not ids_ok(qrels):
        check_qrels_ids(qrels)
    try:
        _check_qrels_duplicates(qrels)
    except InputError as exc:
        raise _subtopics_hint(exc, path) from None
    return qrels


def _subtopics_hint(exc: InputError, path: str | os.PathLike[str]) -> InputError:
    """A document judged twice on lines whose second columns differ: the file is likely
    subtopic judgments (ndeval's ``topic subtopic document judgment``), given as qrels."""
    pair = getattr(exc, "pair", None)
    if pair is None or source_name(path) == STDIN_SOURCE:
        return exc
    try:
        lines = read_text(path).split(b"\n", max(pair))
        a, b = (lines[i - 1].split() for i in pair)
    except (CranfieldError, IndexError):
        return exc
    if len(a) < 2 or len(b) < 2 or a[1] == b[1]:
        return exc
    sub = (a[1].decode("utf-8", "replace"), b[1].decode("utf-8", "replace"))
    return InputError(
        exc.source,
        f"{exc.problem}; the second columns differ ({sub[0]} and {sub[1]}): if this file holds "
        "subtopic judgments (topic subtopic document judgment, as ndeval reads them), give it "
        "with --subtopics FILE (subtopics= in Python; QRELS may name the same file) for the "
        "diversity measures",
        line=exc.line,
    )


def parse_trec_qrels(data: bytes, source: str) -> Qrels:
    """Parse TREC qrels text (exactly 4 fields per line, integer grade)."""
    check_text(data, source)
    qrels = _parse_qrels(data, source)
    from cranfield.io.trec.core import ids_ok

    if not ids_ok(qrels):
        check_qrels_ids(qrels)
    _check_qrels_duplicates(qrels)
    return qrels


def _check_qrels_duplicates(qrels: Qrels) -> None:
    """The duplicate check, skipped when the core found no duplicate while reading (the
    check, over a Python string per judgment, cost 1.2 s of 10.5M dense judgments)."""
    from cranfield.io.trec.core import no_duplicates

    if not no_duplicates(qrels):
        check_qrels_duplicates(qrels)


def _parse_qrels(data: bytes, source: str) -> Qrels:
    """Parse text that passed :class:`~cranfield.io.textcheck.TextCheck`: the compiled
    core's reader (:mod:`.core`), whatever the size."""
    from cranfield.io.trec.core import core_qrels

    data, _ = _check_trec(data, source)
    return core_qrels(data, source)


# ------------------------------------------------------------------------------------- run


def read_trec_run(path: str | os.PathLike[str], name: str, *, detect: bool = True) -> Run:
    """Read a TREC run file, or ``-``: a large input in pieces of whole lines
    (:mod:`.run_pieces`), never held whole; a small file at once.  With ``detect``, a file
    that is an MS MARCO run or CSV/TSV with a header is read as one (:mod:`.formats`)."""
    source = source_name(path)
    stream = Stream(path, lambda: TextCheck(source))
    try:
        if detect:
            from cranfield.io.formats import detect_run_stream

            other = detect_run_stream(stream, name)
            if other is not None:
                return other
        return read_run_stream(stream, name)
    finally:
        stream.close()


def read_run_stream(stream: Stream, name: str, parts: Iterable[Piece] | None = None) -> Run:
    """The validated run of a TREC text stream: what :func:`parse_trec_run` makes of its text.

    Read in pieces (``parts``: pieces already read, then the rest) when :func:`in_pieces`
    says so; from the whole text when a piece does not parse, so that the error is that
    reader's, whatever the size of the pieces."""
    if parts is None and not in_pieces(stream.path):
        run = _parse_run(stream.read(), stream.source, name)
    else:
        from cranfield.io.trec.run_pieces import Fallback, join_runs, pieces

        try:
            got = list(parts if parts is not None else pieces(stream, name))
            run = join_runs(got, name, stream.source)
        except Fallback:
            run = _parse_run(stream.read(), stream.source, name)
    check_run_ids(run)
    check_run_duplicates(run)
    warn_extra_columns(run)
    return run


def in_pieces(path: str | os.PathLike[str]) -> bool:
    """Whether a run is read in pieces: standard input, and files of at least
    :data:`PIECES_FROM_BYTES` (compressed or not) or of unknown size."""
    if isinstance(path, str) and path == "-":
        return True
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False  # the reader says what is wrong
    return not stat.S_ISREG(st.st_mode) or st.st_size >= PIECES_FROM_BYTES


def parse_trec_run(data: bytes, source: str, name: str) -> Run:
    """Parse a TREC run (at least 6 fields per line; fields after the 6th are ignored)."""
    check_text(data, source)
    run = _parse_run(data, source, name)
    check_run_ids(run)
    check_run_duplicates(run)
    warn_extra_columns(run)
    return run


class Counted(Protocol):
    """What :func:`warn_extra_columns` reads: a :class:`Run`, or a large file's summed counts."""

    @property
    def source(self) -> str: ...
    @property
    def line_counts(self) -> LineCounts | None: ...


def warn_extra_columns(run: Counted) -> None:
    """One :class:`DataWarning` per file whose lines have fields after the run tag."""
    c = run.line_counts
    if c is None or not c.extra_columns:
        return
    n = c.extra_columns
    lines = "1 line has" if n == 1 else f"{n} lines have"
    warn(
        DataWarning(
            f"{run.source}: {lines} more than 6 columns (first: line {c.first_extra_line}); "
            "the columns after the 6th (the run tag) are ignored, as trec_eval does"
        )
    )


def _parse_run(
    data: bytes, source: str, name: str, *, top: bool = True, arrow_ids: bool = False
) -> Run:
    """Parse text that passed :class:`~cranfield.io.textcheck.TextCheck` with the compiled
    core's reader (:mod:`cranfield.io.trec.core`) and check the scores; the duplicate check is
    left to the caller.  The documents are Python strings below ``core.ARROW_IDS_ROWS``
    rows, an Arrow column from there on (``arrow_ids``: always an Arrow column, for the pieces
    of a large file).  ``top``: the text is the start of the file, whose ir_metadata block
    (:mod:`cranfield.io.ir_metadata`) becomes the run's ``metadata``."""
    from cranfield.io.trec import core

    data, _ = _check_trec(data, source)
    metadata = None
    if top and data.startswith(b"# ir_metadata.start"):
        from cranfield.io.ir_metadata import parse_block

        metadata = parse_block(data, source)
    run = core.core_run(data, source, name, 0 if arrow_ids else core.ARROW_IDS_ROWS)
    check_scores(run)
    return run if metadata is None else dataclasses.replace(run, metadata=metadata)
