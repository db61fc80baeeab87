"""The TREC text readers the compiled core replaced, kept only as the oracle of its tests
(``tests/io/test_core_reader.py`` compares the two on generated and damaged files): the exact
line parser (:func:`parse_run_python`, :func:`parse_qrels_python`, the reference that names
every error), the vectorised field splitter of :mod:`.fields` (small and mid-size texts) and
the Arrow parser of :mod:`.arrow_parse` with :mod:`.normalize` (large ones).  Production reads
every TREC text with the core (:mod:`.core`, through :mod:`.text`); nothing here is on that
path.  The messages are worded by :mod:`.text`'s helpers, shared with the core's reader.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError
from cranfield.io import number_text
from cranfield.io.textcheck import NO_CR
from cranfield.io.trec.arrow_parse import block_codes
from cranfield.io.trec.fields import Fields, split_fields
from cranfield.io.trec.text import (
    _INT,
    _SHORT,
    JOINED_FIELDS,
    QRELS_FIELDS,
    RUN_FIELDS,
    _check_trec,
    _column_count_error,
    _hidden_result,
    _hidden_result_error,
    _joined_at,
    _joined_error,
    _line_counts,
    _physical_lines,
    _suspects_are_fine,
)
from cranfield.io.validate import check_scores

FAST_PATH_BYTES = 4 << 20
"""Runs at least this large are parsed with Arrow first (tests lower it to cover that path)."""
FIELDS_PATH = True
"""Below the Arrow sizes, parse with the vectorised splitter of :mod:`.fields` first (tests
turn it off to cover the line parser, which names every error)."""
QRELS_FAST_PATH_BYTES = 4 << 20
"""The same for qrels."""


def parse_qrels_oracle(data: bytes, source: str) -> Qrels:
    """The readers the core replaced (Arrow, the field splitter, the line parser), kept
    only as the oracle of the core's tests (tests/io/test_core_reader.py)."""
    data, crs = _check_trec(data, source)
    qrels = None
    if len(data) >= QRELS_FAST_PATH_BYTES:
        from cranfield.io.trec.arrow_parse import parse_qrels_arrow

        qrels = parse_qrels_arrow(data, source, crs)
        if qrels is None:
            from cranfield.io.trec.normalize import normalize_fields

            norm = normalize_fields(data, comment_fields=(QRELS_FIELDS, QRELS_FIELDS))
            if norm.data and _suspects_are_fine(data, norm.suspects, "qrels"):
                counts = _line_counts(
                    norm.nlines, norm.nlines - norm.blank - norm.comments, norm.comments, norm.blank
                )
                qrels = parse_qrels_arrow(norm.data, source, NO_CR, norm.lines, counts)
    elif FIELDS_PATH:
        qrels = parse_qrels_fields(data, source)
    if qrels is None:
        qrels = parse_qrels_python(data, source)
    return qrels


def parse_qrels_fields(data: bytes, source: str) -> Qrels | None:
    """Vectorised parse (:mod:`.fields`); ``None`` hands over to the exact parser."""
    f = split_fields(data)
    if not len(f) or (f.count != QRELS_FIELDS).any() or not comments_are_fine(f, "qrels"):
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


def comments_are_fine(f: Fields, kind: str) -> bool:
    """Whether no comment line has the shape of a data line (else the exact parser says so)."""
    if not len(f.comment_first):
        return True
    nfields = f.comment_count
    suspect = nfields >= RUN_FIELDS if kind == "run" else nfields == QRELS_FIELDS
    for first, n in zip(f.comment_first[suspect].tolist(), nfields[suspect].tolist(), strict=True):
        if _hidden_result(f.line_tokens(first, n), kind):
            return False
    return True


def parse_qrels_python(data: bytes, source: str) -> Qrels:
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


def parse_run_oracle(data: bytes, source: str, name: str, *, top: bool = True) -> Run:
    """The readers the core replaced (Arrow, the field splitter, the line parser), kept
    only as the oracle of the core's tests (tests/io/test_core_reader.py)."""
    data, crs = _check_trec(data, source)
    metadata = None
    if top and data.startswith(b"# ir_metadata.start"):
        from cranfield.io.ir_metadata import parse_block

        metadata = parse_block(data, source)
    run = parse_checked_run(data, crs, source, name)
    return run if metadata is None else dataclasses.replace(run, metadata=metadata)


def parse_checked_run(data: bytes, crs: int, source: str, name: str) -> Run:
    """:func:`_parse_run` of text :func:`_check_trec` passed (``crs``: its CRs)."""
    if len(data) >= FAST_PATH_BYTES:
        from cranfield.io.trec.arrow_parse import parse_run_arrow

        run = parse_run_arrow(data, source, name, crs)
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
                run = parse_run_arrow(norm.data, source, name, NO_CR, norm.lines, counts)
            del norm
        if run is not None and np.isfinite(run.scores).all():
            return run  # a NaN (or 'nan(1)') score: the exact parser names it
    elif FIELDS_PATH:
        run = parse_run_fields(data, source, name)
        if run is not None:
            check_scores(run)
            return run
    run = parse_run_python(data, source, name)
    check_scores(run)
    return run


def parse_run_fields(data: bytes, source: str, name: str) -> Run | None:
    """Vectorised parse (:mod:`.fields`); ``None`` hands over to the exact parser (which also
    reports a rank column that is not all integers)."""
    f = split_fields(data)
    n = len(f)
    if not n or (f.count < RUN_FIELDS).any() or not comments_are_fine(f, "run"):
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
    qcodes = block_codes(f.strings(0, blocks), blocks, n, qindex)
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


def parse_run_python(data: bytes, source: str, name: str) -> Run:
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
