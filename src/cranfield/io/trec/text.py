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
:mod:`.fields` and the Arrow parser of :mod:`.trec_arrow` that the core replaced remain only as
the oracle of its tests (:func:`_parse_run_oracle`, :func:`_parse_qrels_oracle`,
``tests/io/test_core_reader.py``).
"""

from __future__ import annotations

import dataclasses
import operator
import os
import stat
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Qrels, Run
from cranfield.errors import CranfieldError, DataWarning, InputError, warn
from cranfield.io import number_text
from cranfield.io.source import STDIN_SOURCE, Stream, read_source, source_name
from cranfield.io.textcheck import BOM, NO_CR, TextCheck, check_text, line_ends
from cranfield.io.trec.fields import Fields, split_fields
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

FAST_PATH_BYTES = 4 << 20
"""Runs at least this large are parsed with Arrow first (tests lower it to cover that path);
below it, importing pyarrow costs more than the vectorised splitter saves."""
FIELDS_PATH = True
"""Below the Arrow sizes, parse with the vectorised splitter of :mod:`.fields` first (tests
turn it off to cover the line parser, which stays the reference and names every error)."""
PIECES_FROM_BYTES = 4 << 20
"""Run files at least this large are read in pieces (tests lower it)."""
QRELS_FAST_PATH_BYTES = 4 << 20
"""The same for qrels (the line parser costs more per line there: it also sorts)."""

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


def _parse_qrels_oracle(data: bytes, source: str) -> Qrels:
    """The readers the core replaced (Arrow, the field splitter, the line parser), kept
    only as the oracle of the core's tests (tests/io/test_core_reader.py)."""
    data, crs = _check_trec(data, source)
    qrels = None
    if len(data) >= QRELS_FAST_PATH_BYTES:
        from cranfield.io.trec.arrow_parse import _parse_qrels_arrow

        qrels = _parse_qrels_arrow(data, source, crs)
        if qrels is None:
            from cranfield.io.trec.normalize import normalize_fields

            norm = normalize_fields(data, comment_fields=(QRELS_FIELDS, QRELS_FIELDS))
            if norm.data and _suspects_are_fine(data, norm.suspects, "qrels"):
                counts = _line_counts(
                    norm.nlines, norm.nlines - norm.blank - norm.comments, norm.comments, norm.blank
                )
                qrels = _parse_qrels_arrow(norm.data, source, NO_CR, norm.lines, counts)
    elif FIELDS_PATH:
        qrels = _parse_qrels_fields(data, source)
    if qrels is None:
        qrels = _parse_qrels_python(data, source)
    return qrels


def _parse_qrels_fields(data: bytes, source: str) -> Qrels | None:
    """Vectorised parse (:mod:`.fields`); ``None`` hands over to the exact parser."""
    f = split_fields(data)
    if not len(f) or (f.count != QRELS_FIELDS).any() or not _comments_are_fine(f, "qrels"):
        return None
    grades = f.integers(3)
    if grades is None:
        return None
    blocks = np.flatnonzero(f.changes(0))  # first line of each block of one query id
    block_qids, docs = f.strings(0, blocks), f.strings(2)
    if len(set(block_qids)) == len(block_qids):  # one block per query: one id string each
        qrels = Qrels.from_blocks(block_qids, blocks, docs, grades, source=source, lines=f.lines)
    else:
        qrels = Qrels.from_rows(f.strings(0), docs, grades, source=source, lines=f.lines)
    counts = _line_counts(f.nlines, len(f), len(f.comment_lines), f.blank)
    return dataclasses.replace(qrels, line_counts=counts)


def _comments_are_fine(f: Fields, kind: str) -> bool:
    """Whether no comment line has the shape of a data line (else the exact parser says so)."""
    if not len(f.comment_first):
        return True
    nfields = f.comment_count
    suspect = nfields >= RUN_FIELDS if kind == "run" else nfields == QRELS_FIELDS
    for first, n in zip(f.comment_first[suspect].tolist(), nfields[suspect].tolist(), strict=True):
        if _hidden_result(f.line_tokens(first, n), kind):
            return False
    return True


def _parse_qrels_python(data: bytes, source: str) -> Qrels:
    qids: list[str] = []
    docs: list[str] = []
    grades: list[int] = []
    lines: list[int] = []
    fullmatch = _INT.fullmatch
    blank = comments = 0
    pieces, nlines = _physical_lines(data)
    for lineno, raw in enumerate(pieces, 1):
        f = raw.split()
        if not f:
            blank += 1
            continue
        if f[0][:1] == b"#":
            if _hidden_result(f, "qrels"):
                raise _hidden_result_error(source, lineno, f, "qrels")
            comments += 1
            continue
        if len(f) != QRELS_FIELDS:
            raise _column_count_error(
                source, "4 columns (query, iteration, document, grade)", f, lineno, "qrels"
            )
        g = f[3]
        if len(g) <= _SHORT and fullmatch(g):  # the rule's common case, inline: in range
            value = int(g)
        else:
            try:
                value = number_text.grade(g)
            except number_text.NumberError as exc:
                raise InputError(source, str(exc), line=lineno) from None
        qids.append(f[0].decode())
        docs.append(f[2].decode())
        grades.append(value)
        lines.append(lineno)
    if not qids:
        raise InputError(source, "no judgments (only comments or blank lines)")
    blank -= len(pieces) - nlines  # the empty piece after a final LF is not a line
    qrels = Qrels.from_rows(qids, docs, grades, source=source, lines=np.asarray(lines))
    counts = _line_counts(nlines, len(qids), comments, blank)
    return dataclasses.replace(qrels, line_counts=counts)


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
    left to the caller.  The documents are Python strings below ``trec_arrow.ARROW_IDS_ROWS``
    rows, an Arrow column from there on (``arrow_ids``: always an Arrow column, for the pieces
    of a large file).  ``top``: the text is the start of the file, whose ir_metadata block
    (:mod:`cranfield.io.ir_metadata`) becomes the run's ``metadata``."""
    from cranfield.io.trec import arrow_parse as trec_arrow
    from cranfield.io.trec.core import core_run

    data, _ = _check_trec(data, source)
    metadata = None
    if top and data.startswith(b"# ir_metadata.start"):
        from cranfield.io.ir_metadata import parse_block

        metadata = parse_block(data, source)
    run = core_run(data, source, name, 0 if arrow_ids else trec_arrow.ARROW_IDS_ROWS)
    check_scores(run)
    return run if metadata is None else dataclasses.replace(run, metadata=metadata)


def _parse_run_oracle(data: bytes, source: str, name: str, *, top: bool = True) -> Run:
    """The readers the core replaced (Arrow, the field splitter, the line parser), kept
    only as the oracle of the core's tests (tests/io/test_core_reader.py)."""
    data, crs = _check_trec(data, source)
    metadata = None
    if top and data.startswith(b"# ir_metadata.start"):
        from cranfield.io.ir_metadata import parse_block

        metadata = parse_block(data, source)
    run = _parse_checked_run(data, crs, source, name)
    return run if metadata is None else dataclasses.replace(run, metadata=metadata)


def _parse_checked_run(data: bytes, crs: int, source: str, name: str) -> Run:
    """:func:`_parse_run` of text :func:`_check_trec` passed (``crs``: its CRs)."""
    if len(data) >= FAST_PATH_BYTES:
        from cranfield.io.trec.arrow_parse import _parse_run_arrow

        run = _parse_run_arrow(data, source, name, crs)
        if run is None:
            from cranfield.io.trec.normalize import normalize_fields

            norm = normalize_fields(
                data,
                max_fields=RUN_FIELDS,
                comment_fields=(RUN_FIELDS, len(data)),
                joined=True,
            )
            if norm.data and _suspects_are_fine(data, norm.suspects, "run"):
                counts = _line_counts(
                    norm.nlines,
                    norm.nlines - norm.blank - norm.comments,
                    norm.comments,
                    norm.blank,
                    norm.extra,
                    norm.first_extra,
                )
                run = _parse_run_arrow(norm.data, source, name, NO_CR, norm.lines, counts)
            del norm
        if run is not None and np.isfinite(run.scores).all():
            return run  # a NaN (or 'nan(1)') score: the exact parser names it
    elif FIELDS_PATH:
        run = _parse_run_fields(data, source, name)
        if run is not None:
            check_scores(run)
            return run
    run = _parse_run_python(data, source, name)
    check_scores(run)
    return run


def _parse_run_fields(data: bytes, source: str, name: str) -> Run | None:
    """Vectorised parse (:mod:`.fields`); ``None`` hands over to the exact parser (which also
    reports a rank column that is not all integers)."""
    f = split_fields(data)
    n = len(f)
    if not n or (f.count < RUN_FIELDS).any() or not _comments_are_fine(f, "run"):
        return None
    extra = np.flatnonzero(f.count > RUN_FIELDS)
    if len(extra) and int(f.count.max()) >= JOINED_FIELDS:
        for i in np.flatnonzero(f.may_hold_two_results()).tolist():
            if _joined_at(f.line_tokens(int(f.first[i]), int(f.count[i]))) is not None:
                return None
    scores = f.decimals(4)
    if scores is None:
        return None
    ranks = f.integers(3)
    if ranks is None:
        return None
    qindex: dict[str, int] = {}
    blocks = np.flatnonzero(f.changes(0))  # first line of each block of one query id
    qcodes = _block_codes(f.strings(0, blocks), blocks, n, qindex)
    first_extra = int(f.lines[extra[0]]) if len(extra) else None
    return Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=qcodes,
        docs=IdColumn(f.strings(2), hashes=f.hashes(2)),
        scores=scores,
        ranks=ranks,
        tag=f.last_string(5),
        source=source,
        lines=None if int(f.lines[-1]) == n else f.lines,
        line_counts=_line_counts(
            f.nlines, n, len(f.comment_lines), f.blank, len(extra), first_extra
        ),
    )


def _parse_run_python(data: bytes, source: str, name: str) -> Run:
    qindex: dict[str, int] = {}
    qcodes: list[int] = []
    docs: list[str] = []
    scores: list[float] = []
    ranks: list[int] = []
    lines: list[int] = []
    rank_problem: str | None = None
    tag: str | None = None
    fullmatch = _INT.fullmatch
    blank = comments = extra = 0
    first_extra = None
    pieces, nlines = _physical_lines(data)
    for lineno, raw in enumerate(pieces, 1):
        f = raw.split()
        if not f:
            blank += 1
            continue
        if f[0][:1] == b"#":
            if _hidden_result(f, "run"):
                raise _hidden_result_error(source, lineno, f, "run")
            comments += 1
            continue
        if len(f) != RUN_FIELDS:
            if len(f) < RUN_FIELDS:
                raise _column_count_error(
                    source,
                    "at least 6 columns (query, Q0, document, rank, score, run tag)",
                    f,
                    lineno,
                    "run",
                )
            if len(f) >= JOINED_FIELDS and (k := _joined_at(f)) is not None:
                raise _joined_error(source, lineno, f, k)
            extra += 1
            first_extra = first_extra or lineno
        s = f[4]
        try:
            if b"_" in s:  # the rule's common case, inline (float() of ASCII, no '_')
                raise ValueError
            value = float(s)
        except ValueError:
            try:
                value = number_text.score(s)
            except number_text.NumberError as exc:
                raise InputError(source, str(exc), line=lineno) from None
        q = f[0].decode()
        code = qindex.get(q)
        if code is None:
            code = qindex[q] = len(qindex)
        qcodes.append(code)
        docs.append(f[2].decode())
        scores.append(value)
        if rank_problem is None:
            r = f[3]
            short = len(r) <= _SHORT and fullmatch(r)  # the rule's common case, inline
            problem = None if short else number_text.rank_problem(r)
            if problem is None:
                ranks.append(int(r))
            else:
                rank_problem = f"line {lineno}: {problem}"
        lines.append(lineno)
        tag = f[5].decode()
    if not qcodes:
        raise InputError(source, "no results (only comments or blank lines)")
    blank -= len(pieces) - nlines  # the empty piece after a final LF is not a line
    n = len(qcodes)
    line_arr = np.asarray(lines, dtype=np.int64)
    contiguous = bool(line_arr[-1] == n)  # no blank or comment line before the last data line
    return Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=np.asarray(qcodes, dtype=np.int32),
        docs=IdColumn(docs),
        scores=np.asarray(scores, dtype=np.float64),
        ranks=np.asarray(ranks, dtype=np.int64) if rank_problem is None else None,
        tag=tag,
        source=source,
        lines=None if contiguous else line_arr,
        rank_problem=rank_problem,
        line_counts=_line_counts(nlines, n, comments, blank, extra, first_extra),
    )


def _query_codes(qids: list[str], qindex: dict[str, int]) -> np.ndarray:
    """Codes of ``qids`` in ``qindex`` (extended in order of first appearance), int32."""
    n = len(qids)
    changed = np.fromiter(map(operator.ne, qids[1:], qids[:-1]), dtype=bool, count=max(n - 1, 0))
    blocks = np.concatenate(([0], np.flatnonzero(changed) + 1)) if n else np.zeros(0, np.int64)
    return _block_codes([qids[i] for i in blocks.tolist()], blocks, n, qindex)


def _block_codes(ids: list[str], blocks: np.ndarray, n: int, qindex: dict[str, int]) -> np.ndarray:
    """Codes of ``n`` rows in blocks of one query id (``ids[j]`` from row ``blocks[j]`` on):
    queries come in blocks, so each block is coded once."""
    keys = [qindex.setdefault(q, len(qindex)) for q in ids]
    lengths = np.diff(blocks, append=n)
    return np.repeat(np.asarray(keys, dtype=np.int32), lengths)
