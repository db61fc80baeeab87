"""A TREC run read in pieces of whole lines, so that the file is never held whole.

:func:`pieces` cuts the checked bytes of a :class:`~cranfield.io.source.Stream` into pieces of
about :data:`PIECE_BYTES` that end at a line end, and parses each with the readers of
:mod:`.text` (Arrow, the field splitter or the exact parser, by size), numbering its lines from
the piece's first.  Two ways to use them:

- :func:`join_runs` puts the pieces back into one :class:`~cranfield.data.tables.Run`, the one
  :func:`~cranfield.io.trec.text.parse_trec_run` makes of the whole text (any layout);
- :func:`query_blocks` regroups them into runs that each hold every row of their queries, as
  long as the file keeps each query's rows together (the usual layout), so that each can be
  judged and measured alone; a query met again after its block ended raises
  :class:`NotGrouped`.

A piece that does not parse raises :class:`Fallback`: the caller then reads the whole text
with the whole-file reader, whose error (or result) is the reference one.  The rules that
look at more than one line (an empty file, a file of bare CR line ends, duplicates) are left
to that reader, so every error message is the same whatever the size of the pieces.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from cranfield.base import pieces as sizes
from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Run
from cranfield.errors import InputError
from cranfield.io.decompress import MAGIC_BYTES, sniff
from cranfield.io.source import Stream, input_errors, is_stdin, open_input
from cranfield.io.textcheck import BOM

__all__ = [
    "PIECE_BYTES",
    "Fallback",
    "NotGrouped",
    "Piece",
    "core_reader",
    "join_runs",
    "joined_counts",
    "pieces",
    "query_blocks",
    "regrouped",
    "sum_counts",
    "texts",
]

PIECE_BYTES = sizes.PIECE_BYTES
"""Bytes of text parsed at a time (rounded up to the next line end); tests lower it."""


class Fallback(Exception):
    """A piece did not parse or check: read the whole text instead (it names the problem)."""


class NotGrouped(Exception):
    """A query's rows are not all in one block of the file; ``pending`` holds the pieces
    read but not used yet when nothing was used (else it is empty)."""

    def __init__(self, pending: list[Piece]) -> None:
        super().__init__("the run is not grouped by query")
        self.pending = pending


class Piece(NamedTuple):
    """The rows of one piece (``None`` if it has no data line), the number of lines before it
    and how its lines were read."""

    run: Run | None
    line_base: int
    counts: LineCounts


def texts(
    stream: Stream, size: int | None = None, *, read_ahead: bool = False, checked: bool = True
) -> Iterator[bytes]:
    """The checked text of ``stream`` in pieces of about ``size`` bytes that end at a line end
    (the last one may not), the first without its byte order mark; at least one piece (empty
    for an empty text).  With ``read_ahead``, the next chunk is read (and decompressed, and
    checked) in a second thread while this one works on the piece; ``checked=False``: the
    text is not checked (see :meth:`~cranfield.io.source.Stream.chunks`)."""
    size = PIECE_BYTES if size is None else size
    pending: list[bytes] = []  # chunks not handed out yet; all but the last have no line end
    held = 0
    first = True
    chunks = stream.chunks(size, checked=checked)
    for chunk in _ahead(chunks) if read_ahead else chunks:
        pending.append(chunk)
        held += len(chunk)
        end = chunk.rfind(b"\n") + 1
        if held < size or end == 0:
            if end == 0 and len(pending) > 1:
                pending = [b"".join(pending)]  # a piece's text has line ends in its last chunk only
            continue
        if len(pending) == 1 and end == len(chunk):
            data, pending, held = chunk, [], 0
        else:
            data = b"".join([*pending[:-1], memoryview(chunk)[:end]])  # one copy
            rest = chunk[end:]
            pending, held = ([rest], len(rest)) if rest else ([], 0)
        del chunk
        yield _without_bom(data) if first else data
        del data
        first = False
    data = b"".join(pending)
    if data or first:
        yield _without_bom(data) if first else data


def core_reader(stream: Stream, start: int = 0, stop: int | None = None) -> Any | None:
    """A ``cranfield._core.TextReader`` that reads the text of ``stream`` (its bytes
    ``start:stop``) in pieces of whole lines of about :data:`PIECE_BYTES`, the first without
    its byte order mark, as :func:`texts` does, when the input is a regular file (on a POSIX
    system) that is not compressed and has no ir_metadata block (a range after the file's
    start: does not start with a byte order mark); else ``None`` (read it with
    :func:`texts`).  The core reads it with no Python thread and no copy of a piece; it opens
    the file by its path again, and is used only when it opened the file opened here (a
    :class:`ClientFile` is checked by that opening)."""
    from cranfield.io.ir_metadata import START, has_block

    if os.name != "posix" or is_stdin(stream.path):
        return None
    try:
        if not stat.S_ISREG(os.stat(stream.path).st_mode):
            return None  # not opened here: a named pipe is read once, by texts()
    except (OSError, ValueError):
        return None  # texts() words the error
    from cranfield import _core

    with input_errors(stream.source), open_input(stream.path, stream.source) as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        head = os.pread(fh.fileno(), max(MAGIC_BYTES, len(BOM) + len(START)), 0)
        if sniff(head) is not None or has_block(head):  # as much of a block as head holds
            return None
        if start and os.pread(fh.fileno(), len(BOM), start) == BOM:
            return None
        path = os.fspath(stream.path)
        reader = _core.TextReader(path, PIECE_BYTES, start, stop)
    if (reader.device, reader.inode) != (st.st_dev, st.st_ino):
        return None  # another file at that path now: the reading by texts() decides
    return reader


def _without_bom(data: bytes) -> bytes:
    return data[len(BOM) :] if data.startswith(BOM) else data


def pieces(
    stream: Stream, name: str, size: int | None = None, *, read_ahead: bool = False
) -> Iterator[Piece]:
    """The parsed pieces of the run text of ``stream`` (see the module docstring and
    :func:`texts`)."""
    base = 0
    first = True
    for data in texts(stream, size, read_ahead=read_ahead):
        run, counts = _parse(data, stream, name, first)
        del data
        yield Piece(run, base, counts)
        base += counts.lines
        first = False


def _ahead(items: Iterator[bytes]) -> Iterator[bytes]:
    """``items``, produced one ahead in a second thread (its errors raised here, in order)."""
    import queue
    import threading

    box: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()
    done = object()

    def produce() -> None:
        try:
            for item in items:
                if stop.is_set():
                    return
                box.put((item, None))
            box.put((done, None))
        except BaseException as exc:  # handed to the consumer, raised there
            box.put((None, exc))

    thread = threading.Thread(target=produce, name="cranfield-read", daemon=True)
    thread.start()
    try:
        while True:
            item, exc = box.get()
            if exc is not None:
                raise exc
            if item is done:
                return
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # let the producer finish its put and see the stop
            with contextlib.suppress(queue.Empty):
                box.get(timeout=0.01)
        thread.join()


def _parse(data: bytes, stream: Stream, name: str, first: bool) -> tuple[Run | None, LineCounts]:
    """The rows of one piece (``None`` when it has only blank lines) and its line counts."""
    from cranfield.io.trec.text import _parse_run

    if not data or data.isspace():
        lines = data.count(b"\n") + (data[-1:] not in (b"", b"\n"))
        return None, LineCounts(lines=lines, data=0, blank=lines)
    try:
        run = _parse_run(data, stream.source, name, top=first, arrow_ids=True)
    except InputError as exc:
        raise Fallback(str(exc)) from None
    assert run.line_counts is not None
    return run, run.line_counts


def sum_counts(parts: Sequence[Piece]) -> LineCounts:
    """The line counts of the whole text from those of its pieces."""
    return joined_counts([p.counts for p in parts])


def joined_counts(counts: Sequence[LineCounts]) -> LineCounts:
    """The line counts of a text from those of its consecutive pieces (each numbering its
    lines from 1)."""
    first, base = None, 0
    for c in counts:
        if first is None and c.extra_columns and c.first_extra_line is not None:
            first = base + c.first_extra_line
        base += c.lines
    return LineCounts(
        lines=base,
        data=sum(c.data for c in counts),
        comments=sum(c.comments for c in counts),
        blank=sum(c.blank for c in counts),
        extra_columns=sum(c.extra_columns for c in counts),
        first_extra_line=first,
    )


def _shifted(problem: str, base: int) -> str:
    """A piece's ``rank_problem`` (``line N: ...``) with the line counted from the file's start."""
    head, _, rest = problem.partition(": ")
    return f"line {int(head.removeprefix('line ')) + base}: {rest}"


def join_runs(parts: list[Piece], name: str, source: str) -> Run:
    """One run from its pieces in file order: what the whole-file reader makes of the text
    (line numbers counted from the file's start, query codes in order of first appearance).
    ``parts`` is emptied: each column of the pieces is let go once it is joined."""
    counts = sum_counts(parts)
    contiguous = all(p.run is None or p.counts.lines == len(p.run) for p in parts)
    runs = [(p.run, p.line_base) for p in parts if p.run is not None]
    parts.clear()
    if not runs:
        raise Fallback("no results")
    problem = next(
        (_shifted(r.rank_problem, b) for r, b in runs if r.rank_problem is not None), None
    )
    lines = None
    if not contiguous:
        lines = np.concatenate(
            [(r.lines if r.lines is not None else np.arange(1, len(r) + 1)) + b for r, b in runs]
        )
        if int(lines[-1]) == len(lines):
            lines = None  # blank or comment lines only after the last result
    tag = runs[-1][0].tag
    metadata = runs[0][0].metadata  # the first piece's: the top of the file
    only = [r for r, _ in runs]
    del runs
    run = _concat(only, name, source, ranks=problem is None)
    return Run(
        name=name,
        query_ids=run.query_ids,
        qcodes=run.qcodes,
        docs=run.docs,
        scores=run.scores,
        ranks=run.ranks,
        tag=tag,
        source=source,
        lines=lines,
        rank_problem=problem,
        line_counts=counts,
        metadata=metadata,
    )


def _concat(runs: list[Run], name: str, source: str, ranks: bool = True) -> Run:
    """The rows of ``runs`` one after the other (no line numbers); ``runs`` is emptied, and
    each column of the runs let go as soon as it is joined."""
    if len(runs) == 1:
        r = runs.pop()
        return Run(
            name, r.query_ids, r.qcodes, r.docs, r.scores, r.ranks if ranks else None, r.tag, source
        )
    qindex: dict[str, int] = {}
    codes = []
    for r in runs:
        mapping = np.fromiter(
            (qindex.setdefault(q, len(qindex)) for q in r.query_ids), np.int32, len(r.query_ids)
        )
        codes.append((mapping, r.qcodes))
    tag = runs[-1].tag
    scores = [r.scores for r in runs]
    rank_cols = [r.ranks for r in runs] if ranks else []
    docs = [r.docs for r in runs]
    runs.clear()
    qcodes = np.concatenate([m[c] for m, c in codes])
    del codes
    score_col = np.concatenate(scores)
    del scores
    rank_col: np.ndarray | None = None
    present = [c for c in rank_cols if c is not None]
    if ranks and len(present) == len(rank_cols):
        rank_col = np.concatenate(present)
    del rank_cols, present
    return Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=qcodes,
        docs=_concat_ids(docs),
        scores=score_col,
        ranks=rank_col,
        tag=tag,
        source=source,
    )


def _concat_ids(columns: list[IdColumn]) -> IdColumn:
    """The ids of ``columns`` one after the other (``columns`` is emptied)."""
    if not any(c.is_arrow for c in columns):
        out = IdColumn([v for c in columns for v in c.to_list()])
        columns.clear()
        return out
    import pyarrow as pa

    arrays = [c.arrow() for c in columns]
    columns.clear()
    if len({a.type for a in arrays}) > 1:
        arrays = [a.cast(pa.large_string()) for a in arrays]
    if sum(a.nbytes for a in arrays) >= 2**31 - 1 and arrays[0].type == pa.string():
        arrays = [a.cast(pa.large_string()) for a in arrays]  # 32-bit offsets would overflow
    joined = pa.concat_arrays(arrays)
    del arrays
    pa.default_memory_pool().release_unused()
    return IdColumn(joined)


def _slice(run: Run, start: int, stop: int, query_ids: tuple[str, ...] | None = None) -> Run:
    """Rows ``start:stop`` of a run (views; no line numbers)."""
    return Run(
        name=run.name,
        query_ids=run.query_ids if query_ids is None else query_ids,
        qcodes=run.qcodes[start:stop],
        docs=run.docs.slice(start, stop),
        scores=run.scores[start:stop],
        ranks=None if run.ranks is None else run.ranks[start:stop],
        tag=run.tag,
        source=run.source,
    )


def _block_end(codes: np.ndarray, start: int = 0) -> int:
    """The end of the block of rows of one query that starts at row ``start``."""
    other = np.flatnonzero(codes[start:] != codes[start])
    return start + int(other[0]) if len(other) else len(codes)


def _block_start(codes: np.ndarray) -> int:
    """The start of the last block of rows of one query."""
    other = np.flatnonzero(codes != codes[-1])
    return int(other[-1]) + 1 if len(other) else 0


def _one_query(run: Run, start: int, stop: int) -> Run:
    """Rows ``start:stop``, all of one query, as a run of that query alone."""
    part = _slice(run, start, stop, (run.query_ids[int(run.qcodes[start])],))
    return Run(
        part.name,
        part.query_ids,
        np.zeros(stop - start, np.int32),
        part.docs,
        part.scores,
        part.ranks,
        part.tag,
        part.source,
    )


def _without_first_query(run: Run, start: int) -> Run:
    """Rows ``start:`` of a run whose rows before ``start`` are all of query code 0 and whose
    rows from ``start`` on are of other queries: code 0 dropped, the others shifted down."""
    rest = _slice(run, start, len(run), run.query_ids[1:])
    return Run(
        rest.name,
        rest.query_ids,
        rest.qcodes - 1,
        rest.docs,
        rest.scores,
        rest.ranks,
        rest.tag,
        rest.source,
    )


def query_blocks(parts: Iterator[Piece], name: str, source: str) -> Iterator[Run]:
    """Runs that each hold all the rows of their queries, from the pieces in file order (no
    line numbers: an error is the whole-file reader's business).

    The last block of a piece is held back until the next piece shows where it ends.  Raises
    :class:`NotGrouped` when a query comes back after its block ended in an earlier run; when
    the first piece already shows it (more blocks than queries), before anything is yielded,
    with that piece in ``pending`` so that the caller can go on with ``parts``.
    """
    seen: set[str] = set()
    carry: Run | None = None
    started = False
    for piece in parts:
        run = piece.run
        if run is None:
            continue
        codes = run.qcodes
        if not started:
            started = True
            blocks = 1 + int(np.count_nonzero(codes[1:] != codes[:-1]))
            if blocks > len(run.query_ids):
                raise NotGrouped([piece])
        if carry is not None:
            if run.query_ids[0] == carry.query_ids[0]:  # the held block goes on
                end = _block_end(codes)
                if end == len(run):
                    carry = _concat([carry, _one_query(run, 0, end)], name, source)
                    continue
                if (codes[end:] == 0).any():
                    raise NotGrouped([])
                unit = _concat([carry, _one_query(run, 0, end)], name, source)
                run = _without_first_query(run, end)
                codes = run.qcodes
            else:
                unit = carry
            carry = None
            _check_new(unit.query_ids, seen)
            yield unit
        start = _block_start(codes)
        carry = _one_query(run, start, len(run))
        if start:
            ids = run.query_ids
            last = int(codes[-1])
            if last == len(ids) - 1 and not (codes[:start] == last).any():
                ids = ids[:-1]  # the held query starts in the held block
            head = _slice(run, 0, start, ids)
            _check_new(head.query_ids, seen)
            yield head
    if carry is not None:
        _check_new(carry.query_ids, seen)
        yield carry


def regrouped(run: Run, rows: int | None = None) -> Iterator[Run]:
    """The rows of a run that is not grouped by query, as runs of whole queries of about
    ``rows`` rows each (default: as many as a piece holds), queries in order of first
    appearance, each query's rows in file order (no line numbers)."""
    from cranfield.judging.ordering import stable_order

    n = len(run)
    rows = max(1, rows or PIECE_BYTES // 40)
    if run.docs.is_arrow:
        run.docs.codes()  # the blocks' ids are views: their hashes are taken from the run's
    order = stable_order(run.qcodes.astype(np.int64))
    codes = run.qcodes[order]
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    # cut at the first query start at or after every multiple of ``rows``
    cuts = np.unique(
        starts[np.minimum(np.searchsorted(starts, np.arange(0, n, rows)), len(starts) - 1)]
    )
    bounds = [*cuts.tolist(), n]
    for a, b in itertools.pairwise(bounds):
        take = order[a:b]
        first, last = int(codes[a]), int(codes[b - 1])
        yield Run(
            name=run.name,
            query_ids=run.query_ids[first : last + 1],
            qcodes=(codes[a:b] - first).astype(np.int32),
            docs=run.docs.view(take),
            scores=run.scores[take],
            ranks=None if run.ranks is None else run.ranks[take],
            tag=run.tag,
            source=run.source,
        )


def _check_new(query_ids: tuple[str, ...], seen: set[str]) -> None:
    if not seen.isdisjoint(query_ids):
        raise NotGrouped([])
    seen.update(query_ids)
