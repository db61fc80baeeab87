"""A TREC run judged as it is read, by the compiled core (``_core.RunJudge``,
``rust/src/run_judge.rs``; ``rust/src/run_collect.rs`` for a run not grouped by query), under
the ``trec`` tie policy.

The run's text is read in pieces of whole lines (:func:`~cranfield.io.trec.run_pieces.texts`);
the core checks the text as :class:`~cranfield.io.textcheck.TextCheck` does (no NUL byte,
valid UTF-8, no inner byte order mark), splits each line, checks it by the rules of the
whole-file reader, and judges each query once its block of lines has ended: its duplicates
looked for, its documents put in ``trec`` order (score descending, document id descending),
cut at ``depth``, looked up in the qrels' index, and (``judged_only``) the unjudged ones
dropped.  No document id becomes a Python object.  The judged queries come out in batches of
about :data:`BATCH_ROWS` rows, each a :class:`~cranfield.judging.rankings.JudgedRankings`
whose queries are in the qrels' order (``strcmp``), as :func:`~cranfield.judging.join.judge`
makes them.

What the pass does not settle raises :class:`~cranfield.io.trec.run_pieces.NotGrouped` (a
query met again after its block ended) or :class:`~cranfield.io.trec.run_pieces.Fallback`
(text the check rejects, a line the reader rejects, a document listed twice for one query, an
id with a control character, no result at all): the caller reads the run whole with the
reference reader, whose error or result stands, so every message is the one that reader gives.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from cranfield.base import core_ahead
from cranfield.base import pieces as sizes
from cranfield.data.tables import LineCounts, Qrels
from cranfield.io.source import Stream, input_errors
from cranfield.io.trec import run_pieces
from cranfield.io.trec.run_pieces import Fallback, NotGrouped, core_reader, texts
from cranfield.judging.join import _qrels_grades, qrels_index
from cranfield.judging.rankings import JudgedRankings

__all__ = ["BATCH_ROWS", "JudgedBatch", "judged_batches"]

BATCH_ROWS = sizes.BATCH_ROWS
"""Judged rows per batch (about 1.5 MB of arrays, and the measures' temporaries); tests lower
it."""


class JudgedBatch(NamedTuple):
    """The queries judged in one batch (``None`` when none of them is in the qrels), the
    run's query ids met in it (file order), the tag of its last result, the lines of the
    text read so far (the whole text's, in the last batch), the run's ir_metadata (the
    block at the top of its text, if any) and what ``judged_batches``'s ``measure`` made of
    its rankings (``None`` without rankings or ``measure``)."""

    rankings: JudgedRankings | None
    run_ids: list[str]
    tag: str
    counts: LineCounts
    metadata: dict[str, Any] | None = None
    measured: Any = None


def judged_batches(
    stream: Stream,
    qrels: Qrels,
    name: str,
    *,
    depth: int | None = None,
    judged_only: bool = False,
    grouped: bool = True,
    rows: int | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    measure: Callable[[JudgedRankings], Any] | None = None,
) -> Iterator[JudgedBatch]:
    """The run text of ``stream`` judged against ``qrels`` (see the module docstring),
    batch by batch; the run's name is ``name``.  With ``grouped=False`` (a run whose queries'
    lines are not together, which the grouped pass stops at), the core collects each query's
    results as the text is read and judges them once it has ended.  ``threads``: how many
    threads read and judge a large piece (``None``: one per core); ``progress``: called with
    the lines of each piece read; ``measure``: called with the rankings of each batch, in
    order (its value is the batch's ``measured``): for a file the core reads, while the core
    judges the next piece (on other threads; a batch is then yielded a piece later)."""
    from cranfield import _core

    rows = BATCH_ROWS if rows is None else rows
    index = qrels_index(qrels)
    batches = _Batches(qrels, name, depth, judged_only, measure)
    own = getattr(stream, "core_reader", None)  # a byte range's: its bytes only
    reader = own() if own is not None else core_reader(stream)
    ahead = None
    if reader is not None and own is None:  # cranfield trec_eval's, judged while it imported
        ahead = core_ahead.judged_run(
            index,
            reader.device,
            reader.inode,
            depth=depth,
            judged_only=judged_only,
            grouped=grouped,
            rows=rows,
            threads=threads,
            piece_bytes=run_pieces.PIECE_BYTES,
        )
    if ahead is not None:
        judge, reader, steps = ahead.judge, ahead.reader, ahead.steps()
    else:
        judge, steps = _core.RunJudge(index, depth, judged_only, grouped, rows, threads), iter([])
    if reader is None:
        fed = _fed(judge, stream, batches, rows)
    else:
        fed = _fed_by_core(judge, reader, stream, batches, rows, steps)
    seen = 0
    for stop in fed:
        yield from batches.ready()  # made while the piece was judged: before its stop
        if stop is not None:
            _stopped(stop)
        if progress is not None:
            lines = judge.lines
            progress(lines - seen)
            seen = lines
    while True:
        batches.check()
        got = _taken(judge.take(True))
        batches.taken.append(got)
        batches.make()
        yield from batches.ready()
        if not got.more:
            return


class _Batches:
    """The batches taken from the core (``taken``), made into :class:`JudgedBatch` and
    measured in order (:meth:`make`, which keeps what it raised for :meth:`check`: raised
    by the caller, not worded as a failed read), and yielded (:meth:`ready`)."""

    def __init__(self, qrels: Qrels, name: str, depth, judged_only: bool, measure) -> None:
        self.taken: deque[Any] = deque()  # _core.Taken
        self.made: deque[JudgedBatch] = deque()
        self.failed: list[BaseException] = []
        self.keywords = (qrels, name, depth, judged_only)
        self.measure = measure
        self.metadata: dict[str, Any] | None = None

    def work(self) -> Callable[[], None] | None:
        """:meth:`make` if a batch was taken and not made, else ``None``."""
        return self.make if self.taken else None

    def make(self) -> None:
        try:
            while self.taken:
                got = self.taken.popleft().batch()  # the core's arrays made here
                batch = _batch(got, *self.keywords, self.metadata)
                if self.measure is not None and batch.rankings is not None:
                    batch = batch._replace(measured=self.measure(batch.rankings))
                self.made.append(batch)
        except BaseException as exc:
            self.failed.append(exc)

    def make_now(self) -> None:
        """:meth:`make`, then raise what it raised (not while the core judges)."""
        self.make()
        self.check()

    def check(self) -> None:
        """Raise what :meth:`make` raised."""
        if self.failed:
            raise self.failed[0]

    def ready(self) -> Iterator[JudgedBatch]:
        """The batches made (after :meth:`check`)."""
        self.check()
        while self.made:
            yield self.made.popleft()


def _taken(got: Any) -> Any:
    """What ``RunJudge.take`` gave (a ``_core.Taken``), or why the pass stopped raised."""
    if isinstance(got, str):
        _stopped(got)
    return got


def _fed(judge: Any, stream: Stream, batches: _Batches, rows: int) -> Iterator[Any]:
    """The pieces of the text read by :func:`texts` fed to ``judge``, one by one: why the pass
    stopped, or ``None``; the run's ir_metadata put in ``batches``, whose batches taken are
    made before each piece is fed; a batch taken (once the caller has seen the piece's
    result) whenever ``rows`` judged rows are held."""
    from cranfield.io.ir_metadata import parse_block

    first = True
    for data in texts(stream, read_ahead=True, checked=False):  # the core checks it
        if first:
            batches.metadata = parse_block(data, stream.source)
            first = False
        batches.make_now()
        stop = judge.feed(data)
        del data
        yield stop
        _take(judge, batches, rows)


def _fed_by_core(
    judge: Any,
    reader: Any,
    stream: Stream,
    batches: _Batches,
    rows: int,
    steps: Iterator[tuple[Any, Any]],
) -> Iterator[Any]:
    """The pieces of a plain file read by the core (``reader``: a ``_core.TextReader``) fed
    to ``judge``, one by one, as :func:`_fed` does (such a file has no ir_metadata); the
    batches taken are made while the core judges each piece, and what that raised comes
    before the piece's own failure.  ``steps``: what the pass gave for the pieces it judged
    ahead, and the batches taken after them (:meth:`.JudgedAhead.steps`), given first."""
    for got, taken in steps:
        if isinstance(got, OSError):
            with input_errors(stream.source):
                raise got
        batches.make_now()
        if got is False:
            return
        yield None if got is True else got
        if taken is not None:
            batches.taken.append(taken)
    while True:
        try:
            with input_errors(stream.source):
                got = judge.feed_next(reader, batches.work())
        finally:
            batches.check()
        if got is False:
            return
        yield None if got is True else got
        _take(judge, batches, rows)


def _take(judge: Any, batches: _Batches, rows: int) -> None:
    """A batch taken from ``judge`` when it holds ``rows`` judged rows."""
    if judge.held >= rows:
        batches.taken.append(_taken(judge.take(False)))


def _stopped(why: str) -> None:
    if why == "not grouped":
        raise NotGrouped([])
    raise Fallback(f"the run needs the whole-file reader ({why})")


def _batch(
    got: dict,
    qrels: Qrels,
    name: str,
    depth: int | None,
    judged_only: bool,
    metadata: dict[str, Any] | None,
) -> JudgedBatch:
    counts = LineCounts(*got["counts"])
    qidx = got["qrels_queries"]
    if not len(qidx):
        return JudgedBatch(None, got["run_ids"], got["tag"], counts, metadata)
    ids = qrels.query_ids
    qoff, qgrades = _qrels_grades(qrels, qidx)
    rankings = JudgedRankings(
        query_ids=tuple(ids[i] for i in qidx.tolist()),
        offsets=got["offsets"],
        grades=got["grades"],
        scores=got["scores"],
        tie_ids=got["tie_ids"],
        qrels_offsets=qoff,
        qrels_grades=qgrades,
        in_run=np.ones(len(qidx), dtype=bool),
        run_name=name,
        ties="trec",
        qrels_max_grade=qrels.max_grade,
        depth=depth,
        judged_only=judged_only,
    )
    return JudgedBatch(rankings, got["run_ids"], got["tag"], counts, metadata)
