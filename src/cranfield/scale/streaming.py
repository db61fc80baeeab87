"""Evaluating one run: a large TREC text file as it is read, anything else whole.

Under the ``trec`` tie policy without side inputs, a run file is judged by the compiled core
as it is read (:mod:`cranfield.judging.streamed_run`: each query once its block of lines has
ended; a run not grouped by query collected by the core and judged at its end), and each batch
of judged queries is measured (:func:`~cranfield.results.blocks.measure_block`) and let go.
Otherwise the file is read in pieces of whole lines (:mod:`cranfield.io.trec.run_pieces`),
regrouped into blocks that hold every row of their queries, and each block is judged and
measured in Python.  Either way memory is bounded by a piece and a batch or block, not by the
run, and the results are put together by :func:`~cranfield.results.blocks.combine` into the
Results of the whole run, bit for bit.

What cannot be streamed falls back, with the same results:

- in the Python path, a run that is not grouped by query (a query's rows in several places):
  when the first piece shows it, the pieces are joined into one run as they are read
  (memory: the run's columns, about 40 bytes a row, not its text); when a later piece shows
  it, the file is read again (standard input from the temporary copy
  :class:`~cranfield.io.source.Stream` keeps). The run's rows are then put in query order
  (one sort of 64-bit keys) and evaluated in blocks of whole queries as a grouped run is;
- any error (a piece that does not parse, an id or duplicate problem, a judging error): the
  whole file is read by the whole-file reader, whose error is the reference one;
- options whose result depends on the whole run: ``ties="random"`` (one random stream over all
  ties), and side inputs given as files or as known documents (read once per judgment);
- runs judged with preferences, judgment groups or subtopics (read whole);
- a file whose first data line says it is not TREC text (an MS MARCO run, CSV/TSV with a
  header: :mod:`cranfield.io.formats`) is read whole by its reader.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, NamedTuple

from cranfield.data.tables import Qrels, Run
from cranfield.errors import CranfieldError
from cranfield.judging.options import JudgeOptions
from cranfield.measures import Measure
from cranfield.results.blocks import Block, combine, measure_block
from cranfield.results.tables import Results

__all__ = [
    "Plan",
    "core_judges",
    "evaluate_path",
    "finish_blocks",
    "measure_blocks",
    "measure_judged",
    "streamable",
]


class Plan(NamedTuple):
    """What :func:`evaluate_path` computes: the measures, aggregation and judging options;
    ``pipeline``: judge and measure a block in a second thread while the next is read."""

    measures: list[tuple[str, Measure]]
    aggregate: Any
    options: JudgeOptions
    micro: list[str]
    pipeline: bool = False


def streamable(source: Any, options: JudgeOptions) -> bool:
    """Whether ``source`` is a TREC text run read in pieces, and ``options`` allow judging it
    one query block at a time."""
    from cranfield.io import is_trec_text_path
    from cranfield.io.trec.text import in_pieces

    if not is_trec_text_path(source) or not in_pieces(source):
        return False
    o = options
    if o.ties == "random" or o.known is not None:
        return False
    if any(v is not None for v in (o.prefs, o.judgment_groups, o.subtopics)):
        return False  # judgments beside the qrels: the run is judged whole
    return not any(isinstance(v, str | os.PathLike) for v in (o.collection_size, o.target))


def evaluate_path(
    qrels: Qrels, source: Any, name: str, plan: Plan, *, warn_agg: bool = True
) -> Results:
    """The Results of the TREC run file (or ``-``) ``source``, named ``name``, read and judged
    one query block at a time (see the module docstring)."""
    from cranfield.io.formats import FormattedPath, detect_run_stream
    from cranfield.io.source import Stream
    from cranfield.io.textcheck import TextCheck
    from cranfield.io.trec.run_pieces import Fallback, NotGrouped, pieces, query_blocks
    from cranfield.io.trec.text import read_run_stream

    source_text = "<stdin>" if source == "-" else str(source)
    stream = Stream(source, lambda: TextCheck(source_text))
    parts = None
    try:
        if not isinstance(source, FormattedPath):  # format "auto": the first line decides
            other = detect_run_stream(stream, name)
            if other is not None:
                return _evaluate_run(qrels, other, name, plan, warn_agg)
        from cranfield.scale.processes import IN_WORKER

        ahead = plan.pipeline and not IN_WORKER
        if core_judges(plan.options):
            results = _evaluate_judged(qrels, stream, name, plan, warn_agg, threads=ahead)
            if results is not None:
                return results
            return _evaluate_run(qrels, read_run_stream(stream, name), name, plan, warn_agg)
        parts = _Counted(pieces(stream, name, read_ahead=ahead), stream.source)
        try:
            blocks = query_blocks(iter(parts), name, stream.source)
            return _evaluate_blocks(qrels, blocks, name, plan, warn_agg, parts=parts)
        except NotGrouped as exc:
            run = None
            if exc.pending:  # nothing judged yet: join the pieces as they come
                try:
                    run = read_run_stream(stream, name, [*exc.pending, *parts.rest()])
                except (Fallback, CranfieldError):
                    run = None
        except (Fallback, CranfieldError):
            run = None
        parts.close()
        if run is None:  # read again, whole (errors: the whole-file reader's)
            run = read_run_stream(stream, name)
        return _evaluate_run(qrels, run, name, plan, warn_agg)
    finally:
        if parts is not None:
            parts.close()
        stream.close()


def core_judges(options: JudgeOptions) -> bool:
    """Whether the compiled core judges the run as it is read
    (:mod:`cranfield.judging.streamed_run`): the ``trec`` tie policy, no side input."""
    o = options
    if o.ties != "trec" or o.known is not None:
        return False
    sides = (o.collection_size, o.target, o.prefs, o.judgment_groups, o.subtopics)
    return all(v is None for v in sides)


def _evaluate_judged(
    qrels: Qrels, stream: Any, name: str, plan: Plan, warn_agg: bool, *, threads: bool
) -> Results | None:
    """The Results of a run judged by the core as it is read (grouped by query, or else
    collected), or ``None`` when the whole-file reader must take over; ``threads``: a large
    piece is read and judged on all cores (else on one)."""
    from cranfield.base import progress
    from cranfield.io.trec.run_pieces import Fallback, NotGrouped

    for grouped in (True, False):
        try:
            with progress.task(f"lines of {stream.source} read", lines=True) as bar:
                blocks, run_ids, counts, metadata = measure_judged(
                    qrels,
                    stream,
                    name,
                    plan,
                    grouped=grouped,
                    threads=None if threads else 1,
                    progress=bar.advance,
                )
            return finish_blocks(
                qrels, blocks, run_ids, name, plan, warn_agg, (stream.source, counts), metadata
            )
        except NotGrouped:
            continue
        except (Fallback, CranfieldError):
            return None
    return None


def measure_judged(
    qrels: Qrels,
    stream: Any,
    name: str,
    plan: Plan,
    *,
    grouped: bool = True,
    threads: int | None = 1,
    progress: Any = None,
) -> tuple[list[Block], list[str], Any, dict[str, Any] | None]:
    """The measured blocks of the run text of ``stream`` judged by the core
    (:func:`~cranfield.judging.streamed_run.judged_batches`), the run's query ids in file
    order, the text's line counts and the run's ir_metadata; raises to fall back."""
    from cranfield.judging.streamed_run import judged_batches

    o = plan.options
    blocks: list[Block] = []

    def measure(rankings: Any) -> None:  # while the core judges the next piece
        blocks.append(measure_block(rankings, plan.measures, o.defaults, plan.micro))

    batches = judged_batches(
        stream,
        qrels,
        name,
        depth=o.depth,
        judged_only=o.judged_only,
        grouped=grouped,
        threads=threads,
        progress=progress,
        measure=measure,
    )
    run_ids: list[str] = []
    last = None
    for batch in batches:
        run_ids.extend(batch.run_ids)
        last = batch
    assert last is not None  # judged_batches yields a last batch or raises
    return blocks, run_ids, last.counts, last.metadata


def _evaluate_run(qrels: Qrels, run: Run, name: str, plan: Plan, warn_agg: bool) -> Results:
    """A run read whole (validated): regrouped in memory into query blocks and evaluated as
    they are, unless the random tie policy draws one random stream for the whole run."""
    from cranfield.evaluation.runs import evaluate_planned, with_metadata
    from cranfield.io.trec.run_pieces import regrouped
    from cranfield.judging.join import judge

    if plan.options.ties != "random":
        try:
            blocks = regrouped(run)
            results = _evaluate_blocks(qrels, blocks, name, plan, warn_agg)
            return with_metadata(results, run.metadata)
        except CranfieldError:
            pass  # judged whole below: its error is the reference one
    metadata = run.metadata
    jr = judge(qrels, run, **plan.options.judge_keywords())
    del run
    return with_metadata(evaluate_planned(jr, qrels, name, plan, warn_agg), metadata)


class _Counted:
    """The pieces of a run, with their line counts kept (for the whole run's), and shown:
    a bar of the lines read (a worker process adds them to its parent's bar)."""

    def __init__(self, parts: Iterator, source: str) -> None:
        from contextlib import ExitStack

        from cranfield.base import progress

        self._parts = parts
        self.source = source
        self.seen: list = []
        self.metadata = None  # the run's ir_metadata: its first piece's
        self._open = ExitStack()  # the bar, until close()
        self._bar = self._open.enter_context(progress.task(f"lines of {source} read", lines=True))

    def __iter__(self):
        for piece in self._parts:
            if not self.seen and piece.run is not None:
                self.metadata = piece.run.metadata
            self.seen.append(piece._replace(run=None))
            self._bar.advance(piece.counts.lines)
            yield piece

    def rest(self) -> Iterator:
        return self._parts

    def close(self) -> None:
        """Stop reading (a thread reading ahead ends) and remove the bar."""
        close = getattr(self._parts, "close", None)
        if close is not None:
            close()
        self._open.close()


def _evaluate_blocks(
    qrels: Qrels,
    runs: Iterator[Run],
    name: str,
    plan: Plan,
    warn_agg: bool,
    parts: _Counted | None = None,
) -> Results:
    """Judge and measure each block of whole queries as it comes; raise to fall back.

    ``parts``: the pieces the blocks come from, checked here (ids, duplicates) and counted
    for the extra-columns warning; without them the blocks come from a run read and checked
    whole."""
    from cranfield.io.trec.run_pieces import sum_counts

    blocks, run_ids = measure_blocks(qrels, runs, plan, checked=parts is not None)
    seen = (parts.source, sum_counts(parts.seen)) if parts is not None else None
    metadata = parts.metadata if parts is not None else None
    return finish_blocks(qrels, blocks, run_ids, name, plan, warn_agg, seen, metadata)


def measure_blocks(
    qrels: Qrels, runs: Iterator[Run], plan: Plan, *, checked: bool
) -> tuple[list[Block], list[str]]:
    """The measured blocks of ``runs`` (blocks of whole queries) and the run's query ids in
    file order; ``checked``: check each block's ids and duplicates (blocks read in pieces)."""
    from cranfield.io.validate import check_run_duplicates, check_run_ids
    from cranfield.judging.join import judge

    keywords = {**plan.options.judge_keywords(), "complete": False, "_notes": False}
    run_ids: list[str] = []
    _prepare(qrels)

    def work(block: Run) -> Block | None:
        if checked:
            check_run_ids(block)
            check_run_duplicates(block)
        jr = judge(qrels, block, **keywords)
        del block
        if not jr.num_queries:
            return None
        return measure_block(jr, plan.measures, plan.options.defaults, plan.micro)

    from cranfield.scale.processes import IN_WORKER

    threads = plan.pipeline and not IN_WORKER
    blocks = [b for b in _pipelined(work, runs, run_ids, threads) if b is not None]
    return blocks, run_ids


def finish_blocks(
    qrels: Qrels,
    blocks: list[Block],
    run_ids: list[str],
    name: str,
    plan: Plan,
    warn_agg: bool,
    line_counts: tuple[str, Any] | None = None,
    metadata: dict[str, Any] | None = None,
) -> Results:
    """The Results of a run from its measured blocks and its query ids in file order (the
    judged queries it lacks added under ``complete``); ``line_counts``: the run's source and
    its text's line counts, for the extra-columns warning; ``metadata``: the run's
    ir_metadata.  Raises to fall back."""
    from cranfield.evaluation.runs import with_metadata
    from cranfield.io.trec.run_pieces import Fallback
    from cranfield.io.trec.text import warn_extra_columns

    judged = set(qrels.query_ids)
    in_run = set(run_ids)
    missing = [q for q in qrels.query_ids if q not in in_run]
    if plan.options.complete and missing:
        blocks = [*blocks, _empty_rankings(qrels, missing, name, plan)]
    if line_counts is not None:
        source, counts = line_counts
        if counts.data == 0:
            raise Fallback("no results")
        warn_extra_columns(_Counts(source, counts))
    notes = {
        "run_only_queries": [q for q in run_ids if q not in judged],
        "missing_queries": missing,
    }
    results = combine(
        blocks,
        plan.measures,
        name=name,
        notes=notes,
        complete=plan.options.complete,
        qrels_source=qrels.source,
        aggregate=plan.aggregate,
        warn_agg=warn_agg,
    )
    return with_metadata(results, metadata)


def _pipelined(work, blocks: Iterator[Run], run_ids: list[str], threads: bool) -> list:
    """``work(block)`` of every block, in order; with ``threads``, each block's work is done
    in a second thread while the next block is read (at most one block waits)."""
    out = []
    if not threads:
        for block in blocks:
            run_ids.extend(block.query_ids)
            out.append(work(block))
        return out
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="cranfield-block") as pool:
        pending: deque = deque()
        try:
            for block in blocks:
                run_ids.extend(block.query_ids)
                pending.append(pool.submit(work, block))
                del block
                while len(pending) > 1:
                    out.append(pending.popleft().result())
            while pending:
                out.append(pending.popleft().result())
        finally:
            for f in pending:
                f.cancel()
    return out


class _Counts(NamedTuple):
    """What the extra-columns warning reads of a run."""

    source: str
    line_counts: Any


def _empty_rankings(qrels: Qrels, missing: list[str], name: str, plan: Plan) -> Block:
    """The block of the judged queries the run has no result for (``complete``)."""

    from cranfield.judging.join import judge

    empty = Run.empty(name)
    keywords = {**plan.options.judge_keywords(), "complete": True}
    jr = judge(qrels.restrict(missing), empty, **keywords)
    return measure_block(jr, plan.measures, plan.options.defaults, plan.micro)


def _prepare(qrels: Qrels) -> None:
    """Build the qrels' lookup structures once, before blocks are judged (several threads may
    judge blocks at once: a cached property must not be built twice)."""
    from cranfield.judging.join import qrels_index

    qrels.query_index  # noqa: B018 - cached properties
    # the core's index of the judgments, which judge() reads, its lookup tables made now (a
    # qrels the core read has them made at the first lookup otherwise: in each worker)
    qrels_index(qrels).prepare()
