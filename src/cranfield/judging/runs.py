"""From the user's inputs to named judged rankings: the one path of evaluate, compare, the
curves and the tie analysis.

:func:`judge_many` checks its arguments at once (nothing is read), and returns
:class:`JudgedRuns`: iterating it reads the qrels (and the ``known`` documents) once, then
each run in turn, names it (:mod:`cranfield.data.run_names`), judges it and lets it go before the
next is read, so that only one run is in memory at a time.

:meth:`JudgedRuns.map` is the seam for doing the runs' work elsewhere: it hands each run, as a
:class:`RunTask`, to a function that gets what every run shares (:class:`Shared`: the qrels,
the options and the caller's work) and returns the run's result.  Runs given as paths go to a
:class:`concurrent.futures.Executor` when one is given (a process pool for ``jobs``:
:mod:`cranfield.scale.processes`); runs given in memory are read and named here.  Results come back
in the order of the runs, whatever order they finish in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from cranfield.base import arguments as A
from cranfield.data.run_names import Namer
from cranfield.data.tables import Qrels
from cranfield.errors import ParameterError
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["JudgedRuns", "RunTask", "Shared", "judge_many"]

T = TypeVar("T")


class Shared(NamedTuple):
    """What the work on every run needs besides the run (sent once to each worker process)."""

    qrels: Qrels
    options: JudgeOptions
    """The judging options, ``known`` documents already read."""
    work: Any
    """The caller's description of the work (for evaluate: the measures)."""


def _sent(options: JudgeOptions) -> JudgeOptions:
    """``options`` with the side files that each run's task reads (collection sizes and
    targets given as files) named as :class:`~cranfield.io.source.ClientFile`: the other
    files are read here already (the qrels, ``known``, preferences, judgment groups and
    subtopics)."""
    from cranfield.io.source import client_file

    changes = {}
    for name in ("collection_size", "target"):
        value = getattr(options, name)
        if isinstance(value, str | os.PathLike):
            changes[name] = client_file(value) or value
    return options.replace(**changes) if changes else options


class RunTask(NamedTuple):
    """One run: its position among the runs, its source (a path, or the :class:`Run` read
    here from an in-memory source) and its final name."""

    run_index: int  # (not ``index``: that is tuple.index)
    source: Any
    name: str


def judge_many(
    qrels: Any,
    runs: Any,
    *,
    names: Sequence[str] | None = None,
    options: JudgeOptions | None = None,
) -> JudgedRuns:
    """``runs`` (one run, a list of runs or a dict ``{name: run}``; paths, tables, dicts or
    Runs) judged against ``qrels``, as ``(name, JudgedRankings)`` pairs in order.

    ``names``: one distinct name per run (the naming rule otherwise: docs/input.md, "Run
    names"); ``options``: a :class:`~cranfield.judging.options.JudgeOptions`.  Every
    argument is checked here, before anything is read.
    """
    if options is None:
        options = JudgeOptions()
    elif not isinstance(options, JudgeOptions):
        raise ParameterError(f"options must be a JudgeOptions, got a {type(options).__name__}")
    A.qrels_given(qrels)
    sources, keys, many = A.run_list(runs)
    given = A.run_names(names, len(sources))
    return JudgedRuns(qrels, sources, given if given is not None else keys, options, many)


class JudgedRuns:
    """The runs of one call, read, named and judged one at a time as they are iterated
    (once: a second iteration is an error, since standard input cannot be read twice).

    ``options`` are the judging options; ``many`` is true when the runs were given as a list
    or a dict (a caller then returns one result per run); ``len()`` is the number of runs.
    """

    def __init__(
        self,
        qrels: Any,
        sources: list[Any],
        names: list[str] | None,
        options: JudgeOptions,
        many: bool,
    ) -> None:
        self._qrels_source = qrels
        self._sources = sources
        self._namer = Namer(sources, names)
        self.options = options
        self.many = many
        self._started = False
        self.on_run: Callable[[str, Any], None] | None = None
        """Called with (name, Run) as each run is read, before it is let go (compare's
        rank-biased overlap keeps the runs' rankings)."""

    def __len__(self) -> int:
        return len(self._sources)

    @cached_property
    def qrels(self) -> Qrels:
        """The qrels, read on first use.  Subtopic judgments as the qrels (the ``Subtopics``,
        or the file ``subtopics`` was read from) give each judged document once, with its
        highest judgment: read as plain qrels they would repeat it once per subtopic."""
        from cranfield.io import read_qrels

        source, sub = self._qrels_source, self.options.subtopics
        if sub is None and isinstance(source, str | os.PathLike | Qrels):
            return read_qrels(source)  # no subtopics to import
        from cranfield.io.trec.subtopics import Subtopics, same_file

        if isinstance(source, Subtopics):
            return source.as_qrels()
        if sub is not None and same_file(source, sub):
            return sub.as_qrels()
        return read_qrels(source)

    def __iter__(self) -> Iterator[tuple[str, JudgedRankings]]:
        for name, (jr,) in self.each((self.options,)):
            yield name, jr

    def map(
        self,
        fn: Callable[[Shared, RunTask], T],
        work: Any,
        *,
        jobs: int = 1,
        executor: Executor | None = None,
        split: Callable[[Executor, int, Qrels], Executor] | None = None,
    ) -> Iterator[T]:
        """``fn(shared, task)`` for every run, in the order of the runs.

        Runs given as paths go to ``executor`` when one is given, or to a pool of ``jobs``
        worker processes when :func:`cranfield.scale.processes.workers` finds them worth it; ``fn``
        must then be picklable (a module-level function).  ``split(pool, count, qrels)``:
        the executor that sends the work to this process's own pool of ``count`` workers
        (one that cuts a large run into query ranges), which also makes one large run worth
        a pool.  Runs given in memory are read,
        named and done here, in order, meanwhile.  Warnings of the work elsewhere are raised
        here in the order of the runs; the first error, in the order of the runs, is raised
        and the runs not started are cancelled.
        """
        if self._started:
            raise ParameterError("the judged runs were already read: call judge_many again")
        self._started = True
        shared = Shared(self.qrels, self._read_known(self.options), work)
        own = None
        if self.on_run is not None:
            executor = None  # every run read here, for the hook
        elif executor is None:
            from cranfield.scale.processes import process_pool, workers

            count = workers(jobs, self._sources, split=split is not None)
            if count:
                executor = own = process_pool(count, shared)
                if split is not None:
                    executor = split(own, count, shared.qrels)
        else:  # the caller's: maybe another directory or machine (a Dask worker)
            shared = shared._replace(options=_sent(shared.options))
        try:
            yield from self._map(fn, shared, executor, sent=own is None)
        finally:
            if own is not None:
                own.shutdown(wait=True, cancel_futures=True)

    def _map(
        self, fn: Callable, shared: Shared, executor: Executor | None, *, sent: bool = False
    ) -> Iterator:
        """``map``'s work: the runs given as paths on ``executor`` (``sent``: as
        :class:`~cranfield.io.source.ClientFile`, each checked where it is read to be the
        file this process sees; a pipe or a device is read here), in order."""
        from cranfield.base import progress
        from cranfield.data.run_names import is_path
        from cranfield.io.source import client_file
        from cranfield.scale.processes import recorded

        futures: dict[int, Any] = {}
        if executor is not None:
            for i, source in enumerate(self._sources):
                if is_path(source) and source != "-":
                    if sent:
                        source = client_file(source)
                        if source is None:
                            continue  # only this process can read it: read in turn, here
                    task = RunTask(i, source, self._planned_name(i))
                    futures[i] = executor.submit(recorded, fn, shared, task)
        lines = getattr(executor, "lines", None) if futures else None
        try:
            with progress.follow(lines, "lines of runs read in worker processes"):
                yield from self._each(fn, shared, futures)
        finally:
            for f in futures.values():
                f.cancel()

    def _each(self, fn: Callable, shared: Shared, futures: dict[int, Any]) -> Iterator:
        from cranfield.base import progress
        from cranfield.data.run_names import is_path
        from cranfield.scale.processes import replay

        for i, source in enumerate(progress.track(self._sources, "runs")):
            if i in futures:
                yield replay(futures.pop(i).result())
            elif is_path(source) and self.on_run is None:
                yield fn(shared, RunTask(i, source, self._planned_name(i)))
            else:
                from cranfield.io import read_run

                run = read_run(source)
                name = self._namer.name(i, run.name)
                if run.name != name:
                    run = replace(run, name=name)
                if self.on_run is not None:
                    self.on_run(name, run)
                yield fn(shared, RunTask(i, run, name))
                del run

    def _planned_name(self, i: int) -> str:
        name = self._namer.planned[i]
        assert name is not None  # paths are named before they are read
        return name

    def _read_known(self, o: JudgeOptions) -> JudgeOptions:
        from cranfield.io import read_qrels

        if o.known is None or isinstance(o.known, Qrels):
            return o
        return o.replace(known=read_qrels(o.known))

    def each(
        self, variants: Sequence[JudgeOptions]
    ) -> Iterator[tuple[str, tuple[JudgedRankings, ...]]]:
        """Every run read once and judged under each of ``variants`` (options that differ,
        say, in the tie policy): ``(name, (judged under variants[0], ...))``."""
        if self._started:
            raise ParameterError("the judged runs were already read: call judge_many again")
        self._started = True
        return self._judge(list(variants))

    def _judge(
        self, variants: list[JudgeOptions]
    ) -> Iterator[tuple[str, tuple[JudgedRankings, ...]]]:
        from cranfield.base import progress
        from cranfield.io import read_qrels, read_run
        from cranfield.judging.join import judge

        q = self.qrels
        known: dict[Any, Qrels] = {}  # each known-documents source read once
        for o in variants:
            if o.known is not None and not isinstance(o.known, Qrels):
                known.setdefault(id(o.known), read_qrels(o.known))
        keywords = [
            {**o.judge_keywords(), "known": known.get(id(o.known), o.known)} for o in variants
        ]
        for i, source in enumerate(progress.track(self._sources, "runs")):
            run = read_run(source)
            name = self._namer.name(i, run.name)
            if run.name != name:
                run = replace(run, name=name)
            judged = tuple(judge(q, run, **kw) for kw in keywords)
            if self.on_run is not None:
                self.on_run(name, run)
            del run  # the judged rankings hold what the measures need: free the run's columns
            yield name, judged
