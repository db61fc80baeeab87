"""One large TREC text run evaluated in parts: byte ranges of whole query blocks, one task each.

:func:`cut_points` cuts a run file into about ``size / RANGE_BYTES`` byte ranges at query-block
boundaries: for each ``k``, it seeks to ``k * size / n``, goes to the next line start, and on
to the next data line whose query id differs from the previous data line's (blank and comment
lines do not count).  Only the few kilobytes around each cut are read.  Each range is a
:class:`RangeTask`: the worker reads its own bytes from storage it sees (:class:`ByteRange`),
cuts them into pieces and query blocks, and judges and measures the blocks
(:func:`cranfield.scale.streaming.measure_blocks`); it sends back the measured blocks (per-query
values), the query ids in file order and the pieces' line counts (:class:`RangePart`).  The
caller puts the parts together in file order with
:func:`cranfield.scale.streaming.finish_blocks` (:func:`~cranfield.results.blocks.combine`: values
in ``strcmp`` order of the query ids, sums taken once over the whole run), so the Results are
those of the whole file, bit for bit.

Never a wrong result: a range that does not parse, check or judge, a file that changed since it
was cut, or a run that turns out not to be grouped by query (a query in two ranges, or met
again inside a range) gives no part, and the run is evaluated whole by one task instead
(:func:`cranfield.evaluation.evaluate_task`), whose result or error is the reference one.
Compressed runs cannot be cut (one task), nor can runs that are not TREC text, nor options
that need the whole run (:func:`cranfield.scale.streaming.streamable`).

:class:`RangeSplitting` puts this behind the executor seam: given to
:meth:`cranfield.judging.runs.JudgedRuns.map` in place of an executor, it sends each large run
as its ranges and each other run as one task.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

from cranfield.errors import CranfieldError

__all__ = [
    "RANGE_BYTES",
    "ByteRange",
    "RangePart",
    "RangeSplitting",
    "RangeTask",
    "cut_points",
    "evaluate_range",
    "join_parts",
]

RANGE_BYTES = 64 << 20
"""Bytes of a run per range (runs of at least twice this are cut; tests lower it)."""
MAX_RANGES = 4096
"""At most this many ranges per run."""
_SCAN = 1 << 16


# ------------------------------------------------------------------------------ cutting
def _query_id(line: bytes) -> bytes | None:
    """The query id of a data line (its first field); ``None`` for a blank or comment line."""
    fields = line.split(None, 1)
    if not fields or fields[0].startswith(b"#"):
        return None
    return fields[0]


def _next_query_start(fh: Any, target: int, limit: int) -> int | None:
    """The offset of the first data line at or after the line start at or after ``target``
    whose query id differs from the data line before it (scanning no further than
    ``limit``), or ``None``."""
    fh.seek(target - 1)
    if fh.read(1) != b"\n":
        fh.readline()  # the rest of the line ``target`` falls in
    pos = fh.tell()
    previous = None
    while pos < limit:
        line = fh.readline()
        if not line:
            return None
        qid = _query_id(line)
        if qid is not None:
            if previous is not None and qid != previous:
                return pos
            previous = qid
        pos += len(line)
    return None


def cut_points(path: str | os.PathLike[str], parts: int) -> list[int]:
    """Byte offsets ``[0, c1, ..., size]`` cutting the file into at most ``parts`` ranges,
    each starting at a line whose query id differs from the data line before it."""
    size = os.stat(path).st_size
    cuts = [0]
    with open(path, "rb") as fh:
        for k in range(1, parts):
            target = k * size // parts
            if target <= cuts[-1]:
                continue
            limit = min((k + 1) * size // parts, size)
            pos = _next_query_start(fh, target, limit)
            if pos is not None and cuts[-1] < pos < size:
                cuts.append(pos)
    cuts.append(size)
    return cuts


def _plain_trec_text(path: Any, detect: bool) -> bool:
    """Whether ``path`` is uncompressed and (``detect``) its first data line is one of a TREC
    text run."""
    from cranfield.errors import CranfieldError
    from cranfield.io import formats
    from cranfield.io.decompress import sniff
    from cranfield.io.source import Stream
    from cranfield.io.textcheck import TextCheck

    try:
        with open(path, "rb") as fh:
            if sniff(fh.read(16)) is not None:
                return False
        if not detect:
            return True
        stream = Stream(path, lambda: TextCheck(str(path)))
        try:
            return formats.starts_as_trec_run(stream)
        finally:
            stream.close()
    except (CranfieldError, OSError, ValueError):  # the task that reads the run says what
        return False  # is wrong (a bug of this look, a TypeError say, is not hidden here)


def ranges_of(source: Any, options: Any, parts: int | None = None) -> list[int] | None:
    """The cut points of a run worth cutting (``None``: evaluate it as one task): one range
    per :data:`RANGE_BYTES` for a run of at least twice that; with ``parts`` (the number of
    local workers, which share the qrels at no cost) any run, in a multiple of ``parts``
    ranges."""
    from cranfield.io.formats import FormattedPath
    from cranfield.scale.streaming import streamable

    if not isinstance(source, str | os.PathLike) or os.fspath(source) == "-":
        return None
    try:
        size = os.stat(source).st_size
    except (OSError, ValueError):
        return None  # not seen here: the worker's task says what is wrong, or reads it
    count = -(-size // RANGE_BYTES)
    if parts is not None:
        count = -(-count // parts) * parts
    elif size < 2 * RANGE_BYTES:
        return None
    if not streamable(source, options):
        return None
    if not _plain_trec_text(source, detect=not isinstance(source, FormattedPath)):
        return None
    cuts = cut_points(source, min(MAX_RANGES, count))
    return cuts if len(cuts) > 2 else None


# ------------------------------------------------------------------------------ a range
class RangeTask(NamedTuple):
    """Bytes ``start:stop`` of the run ``source`` (named ``name``, at ``run_index`` among the
    runs), cut when the file had ``size`` bytes and modification time ``mtime_ns``."""

    run_index: int  # (not ``index``: that is tuple.index)
    source: Any
    name: str
    start: int
    stop: int
    size: int
    mtime_ns: int


class RangePart(NamedTuple):
    """What a range gives: its measured blocks, its query ids in file order, and the line
    counts of its consecutive pieces (each numbering its lines from 1)."""

    blocks: list
    run_ids: list[str]
    counts: list[Any]
    metadata: dict[str, Any] | None = None
    """The run's ir_metadata, read by the range at the file's start."""


class _Unusable(Exception):
    """The range cannot be evaluated alone: evaluate the run whole."""


class ByteRange:
    """Bytes ``start:stop`` of a file in checked chunks (the ``Stream`` interface that
    :func:`cranfield.io.trec.run_pieces.pieces` reads; ``checked=False`` as in
    :meth:`cranfield.io.source.Stream.chunks`)."""

    def __init__(self, path: Any, start: int, stop: int) -> None:
        from cranfield.io.source import source_name

        self.path = path
        self.source = source_name(path)
        self.start = start
        self.stop = stop

    def core_reader(self) -> Any | None:
        """The core's reader of the range (see
        :func:`cranfield.io.trec.run_pieces.core_reader`), or ``None``: read it with
        :meth:`chunks`."""
        from cranfield.io.trec.run_pieces import core_reader

        return core_reader(self, self.start, self.stop)  # type: ignore[arg-type]

    def chunks(self, size: int, *, checked: bool = True) -> Iterator[bytes]:
        from cranfield.io.source import input_errors, open_input, read_full
        from cranfield.io.textcheck import BOM, TextCheck

        check = TextCheck(self.source) if checked else None
        with input_errors(self.source), open_input(self.path, self.source) as fh:
            fh.seek(self.start)
            left = self.stop - self.start
            first = True
            while left > 0:
                chunk = read_full(fh, min(size, left))
                if not chunk:
                    raise _Unusable("the file is shorter than when it was cut")
                if first and self.start and chunk.startswith(BOM):
                    raise _Unusable("a byte order mark inside the file")
                first = False
                if check is not None:
                    check.feed(chunk)
                left -= len(chunk)
                yield chunk
        if check is not None:
            check.close()


def evaluate_range(shared: Any, task: RangeTask) -> RangePart | None:
    """The measured blocks of one range (``None``: evaluate the run whole instead)."""
    from cranfield.io.trec.run_pieces import Fallback, NotGrouped, pieces, query_blocks
    from cranfield.scale.streaming import _Counted, core_judges, measure_blocks, measure_judged

    try:
        st = os.stat(task.source)
    except (OSError, ValueError):
        return None
    if st.st_size != task.size or st.st_mtime_ns != task.mtime_ns:
        return None  # changed since it was cut
    plan = shared.work._replace(options=shared.options, pipeline=False)
    stream = ByteRange(task.source, task.start, task.stop)
    if core_judges(plan.options):
        from cranfield.base import progress

        try:
            with progress.task(f"lines of {stream.source} read", lines=True) as bar:
                blocks, run_ids, counts, metadata = measure_judged(
                    shared.qrels, stream, task.name, plan, progress=bar.advance
                )
        except (NotGrouped, Fallback, _Unusable, CranfieldError):
            return None
        return RangePart(blocks, run_ids, [counts], metadata if task.start == 0 else None)
    # ByteRange has the part of the Stream interface that pieces() reads; it is no Stream
    parts = _Counted(pieces(stream, task.name), stream.source)  # type: ignore[arg-type]
    try:
        blocks, run_ids = measure_blocks(
            shared.qrels, query_blocks(iter(parts), task.name, stream.source), plan, checked=True
        )
    except (NotGrouped, Fallback, _Unusable, CranfieldError):
        return None
    finally:
        parts.close()
    metadata = parts.metadata if task.start == 0 else None
    return RangePart(blocks, run_ids, [p.counts for p in parts.seen], metadata)


def join_parts(shared: Any, task: Any, parts: Sequence[RangePart | None]) -> Any:
    """The Results of a run from its ranges' parts in file order, or ``None`` when the run
    must be evaluated whole (a part missing, a query in two ranges, an error)."""
    from cranfield.io.trec.run_pieces import Fallback, joined_counts
    from cranfield.scale.streaming import finish_blocks

    present = [p for p in parts if p is not None]
    if len(present) < len(parts):
        return None
    run_ids = [q for p in present for q in p.run_ids]
    if len(set(run_ids)) != len(run_ids):
        return None  # not grouped by query
    blocks = [b for p in present for b in p.blocks]
    counts = joined_counts([c for p in present for c in p.counts])
    plan = shared.work._replace(options=shared.options, pipeline=False)
    source = str(task.source)
    try:
        return finish_blocks(
            shared.qrels,
            blocks,
            run_ids,
            task.name,
            plan,
            task.run_index == 0,
            (source, counts),
            present[0].metadata,
        )
    except (Fallback, CranfieldError):
        return None


# ------------------------------------------------------------------------------ the seam
class _Joined:
    """The future of a run evaluated in ranges: ``result()`` joins the parts (or evaluates
    the run whole) and returns what :func:`cranfield.scale.processes.recorded` returns."""

    def __init__(self, splitting: RangeSplitting, shared: Any, task: Any, futures: list) -> None:
        self._splitting = splitting
        self._shared = shared
        self._task = task
        self._futures = futures

    def result(self, timeout: float | None = None) -> Any:
        from cranfield.scale.processes import recorded

        done = [f.result(timeout) for f in self._futures]
        caught = [w for _, ws in done for w in ws]
        parts = [part for part, _ in done]
        joined, more = recorded(_join_args, self._shared, (self._task, parts))
        if joined is not None:
            return joined, [*caught, *more]
        # evaluated whole, by one task: its warnings (or error) are the reference ones
        return self._splitting.whole(self._shared, self._task).result(timeout)

    def cancel(self) -> bool:
        return all([f.cancel() for f in self._futures])


def _join_args(shared: Any, args: tuple[Any, list]) -> Any:
    task, parts = args
    return join_parts(shared, task, parts)


class RangeSplitting(Executor):
    """An executor that sends a large TREC text run evaluated by
    :func:`cranfield.evaluation.evaluate_task` to ``executor`` as its byte ranges (one task
    each), and any other work as it is; ``parts``: the executor is ``parts`` local worker
    processes (``jobs``), and a run is cut into a multiple of ``parts`` ranges
    (:func:`ranges_of`)."""

    def __init__(self, executor: Executor, evaluate: Callable, parts: int | None = None) -> None:
        self._executor = executor
        self._evaluate = evaluate
        self._parts = parts
        self.lines = getattr(executor, "lines", None)
        """The lines read by the executor's workers (a local pool's; its progress)."""

    def submit(self, call: Callable, /, *args: Any, **kwargs: Any) -> Any:
        fn, shared, task = args
        if fn is self._evaluate:
            cuts = ranges_of(task.source, shared.options, self._parts)
            if cuts is not None:
                st = os.stat(task.source)
                futures = [
                    self._executor.submit(
                        call,
                        evaluate_range,
                        shared,
                        RangeTask(
                            task.run_index, task.source, task.name, a, b, st.st_size, st.st_mtime_ns
                        ),
                    )
                    for a, b in itertools.pairwise(cuts)
                ]
                return _Joined(self, shared, task, futures)
        return self._executor.submit(call, *args, **kwargs)

    def whole(self, shared: Any, task: Any) -> Any:
        """The future of ``task``'s run evaluated whole, by one task."""
        from cranfield.scale.processes import recorded

        return self._executor.submit(recorded, self._evaluate, shared, task)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass  # the caller's executor is the caller's to shut down


def split_locally(evaluate: Callable, pool: Executor, count: int, qrels: Any) -> RangeSplitting:
    """``pool`` (``count`` worker processes of this machine, forked from this process at their
    first task) behind a :class:`RangeSplitting` that cuts each large run into a multiple of
    ``count`` ranges; the qrels' lookup structures are built here first, so that the workers
    inherit them instead of each building its own."""
    from cranfield.scale.streaming import _prepare

    _prepare(qrels)
    return RangeSplitting(pool, evaluate, count)
