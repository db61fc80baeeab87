"""The runs of :func:`cranfield.evaluate` judged and measured: here, one run in memory at a
time (a large TREC text run one query block at a time), on ``jobs`` worker processes of this
machine (one large run cut into query ranges), or on an executor or a Dask cluster; and the
intervals of the means (``ci=``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from cranfield.base import arguments as A
from cranfield.data.tables import Qrels, Run
from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.judging.runs import JudgedRuns, RunTask, Shared
from cranfield.measures import Measure
from cranfield.results.aggregate import resolve_aggregation
from cranfield.results.core_dicts import measure_specs
from cranfield.results.tables import Results

__all__ = [
    "evaluate_judged",
    "evaluate_on",
    "evaluate_planned",
    "evaluate_runs",
    "evaluate_task",
    "interval_settings",
    "with_intervals",
    "with_metadata",
]


def interval_settings(
    ci: str | None, confidence: Any, samples: Any, seed: Any
) -> dict[str, Any] | None:
    """The checked settings of ``evaluate(ci=...)`` (``None`` without ``ci``); the seed of
    the resamples is ``seed``, 0 when it is None (as ``cranfield evaluate --ci``)."""
    if ci is None:
        return None
    from cranfield.comparing.checks import check_confidence, check_count, check_seed
    from cranfield.comparing.intervals import INTERVALS

    if not isinstance(ci, str) or ci not in INTERVALS:
        raise ParameterError(f"unknown interval {ci!r}; choose one of {', '.join(INTERVALS)}")
    return {
        "method": ci,
        "confidence": check_confidence(confidence),
        "samples": check_count(samples, "samples"),
        "seed": 0 if seed is None else check_seed(seed),
    }


def with_intervals(results: Sequence[Results], **settings: Any) -> list[Results]:
    """``results``, each carrying the interval of its means
    (:func:`~cranfield.comparing.intervals.run_intervals` with ``settings``)."""
    from cranfield.comparing.intervals import run_intervals

    ri = run_intervals(results, **settings)
    return [replace(r, intervals=ri.of_run(r.run)) for r in results]


def evaluate_runs(
    judged: JudgedRuns,
    measures: str | Measure | Sequence[str | Measure] | None,
    *,
    aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
    jobs: int | None = 1,
    executor: Any = None,
    bounds: bool = False,
    specs: Sequence[tuple[str, Measure]] | None = None,
) -> list[Results]:
    """The results of every run of ``judged`` (from :func:`~cranfield.judging.runs.judge_many`),
    one run in memory at a time (a large TREC text run one query block at a time), or ``jobs``
    runs at a time in worker processes (``None``: as many as there are cores), or on
    ``executor`` (an Executor or a Dask Client: :func:`evaluate_on`); ``measures`` and
    ``aggregate`` are checked before any input is read; ``bounds``: each measure followed by
    its bounds (:func:`cranfield.judgments.bounds.bounded`); ``specs``: the ``(label, Measure)``
    pairs of ``measures`` parsed already (:func:`measure_specs`, by :class:`Evaluator`)."""
    from cranfield.results.blocks import micro_labels
    from cranfield.scale.processes import check_jobs, default_jobs
    from cranfield.scale.query_ranges import split_locally
    from cranfield.scale.streaming import Plan

    pool = None
    if executor is not None:  # concurrent.futures (and Dask) imported only then
        from cranfield.scale.dask_executor import as_executor

        pool = as_executor(executor, jobs if jobs != 1 else None)

    specs = measure_specs(measures) if specs is None else list(specs)
    if A.flag(bounds, "bounds"):
        from cranfield.judgments.bounds import bounded, bounded_aggregate

        aggregate = bounded_aggregate(specs, aggregate)
        specs = bounded(specs)
    ties = judged.options.ties
    for _, m in specs:
        m.definition.function(ties)  # fail before reading: no tie-aware form under "weak"
    resolve_aggregation(specs, aggregate, warn=False)  # fail before reading
    if pool is not None:
        plan = Plan(specs, aggregate, judged.options, micro_labels(specs, aggregate))
        return evaluate_on(judged, plan, pool)
    jobs = check_jobs(jobs)
    pipeline = jobs > 1 and default_jobs() > 1
    plan = Plan(specs, aggregate, judged.options, micro_labels(specs, aggregate), pipeline)
    split = partial(split_locally, evaluate_task)  # one large run on all the jobs
    return list(judged.map(evaluate_task, plan, jobs=jobs, split=split))


def evaluate_on(judged: JudgedRuns, plan: Any, executor: Any) -> list[Results]:
    """The results of every run of ``judged`` with the run files evaluated on ``executor``:
    one task per run, or one per query range of a large TREC text run
    (:class:`~cranfield.scale.query_ranges.RangeSplitting`); a bar of the tasks done on a
    terminal."""
    from cranfield.base import progress
    from cranfield.scale.dask_executor import DaskExecutor
    from cranfield.scale.query_ranges import RangeSplitting

    work = RangeSplitting(executor, evaluate_task)
    if not isinstance(executor, DaskExecutor):
        return list(judged.map(evaluate_task, plan, executor=work))
    with progress.task("tasks done", 0) as bar:
        executor.on_submit = bar.expect
        executor.on_done = lambda _: bar.advance()
        try:
            return list(judged.map(evaluate_task, plan, executor=work))
        finally:
            executor.on_submit = executor.on_done = None
            executor.shutdown()


def evaluate_task(shared: Shared, task: RunTask) -> Results:
    """The Results of one run (:meth:`JudgedRuns.map`'s work for :func:`evaluate`)."""
    from cranfield.judging.join import judge
    from cranfield.scale.streaming import evaluate_path, streamable

    plan = shared.work._replace(options=shared.options)
    first = task.run_index == 0
    source = task.source
    if streamable(source, plan.options):
        return evaluate_path(shared.qrels, source, task.name, plan, warn_agg=first)
    if not isinstance(source, Run):
        from cranfield.io import read_run

        source = read_run(source)
        if source.name != task.name:
            source = replace(source, name=task.name)
    metadata = source.metadata
    jr = judge(shared.qrels, source, **plan.options.judge_keywords())
    del source  # the judged rankings hold what the measures need: free the run's columns
    return with_metadata(evaluate_planned(jr, shared.qrels, task.name, plan, first), metadata)


def with_metadata(results: Results, metadata: dict[str, Any] | None) -> Results:
    """``results`` carrying its run's ir_metadata (:attr:`Results.metadata`)."""
    return results if metadata is None else replace(results, metadata=metadata)


def evaluate_planned(
    jr: JudgedRankings, qrels: Qrels, name: str, plan: Any, warn_agg: bool
) -> Results:
    """:func:`evaluate_judged` with a :class:`~cranfield.scale.streaming.Plan`'s measures, defaults
    and aggregation (a run judged whole, here or by the streamed path's fallback)."""
    return evaluate_judged(
        jr,
        plan.measures,
        run_name=name,
        qrels=qrels,
        defaults=plan.options.defaults,
        aggregate=plan.aggregate,
        warn_agg=warn_agg,
    )


def evaluate_judged(
    jr: JudgedRankings,
    measures: Sequence[tuple[str, Measure]],
    *,
    run_name: str | None = None,
    qrels: Qrels | None = None,
    defaults: dict[str, Any] | None = None,
    warn: bool = True,
    aggregate: str | Mapping[str, str] | None = None,
    warn_agg: bool = True,
) -> Results:
    """Compute ``measures`` (label, Measure) on judged rankings, in ``strcmp`` query order."""
    from cranfield.results.blocks import combine, measure_block, micro_labels

    name = run_name or jr.run_name
    src = qrels.source if qrels is not None else "the qrels"
    if jr.num_queries == 0:  # the checks of combine(), before any measure is computed
        combine(
            [],
            measures,
            name=name,
            notes={},
            complete=False,
            qrels_source=src,
            aggregate=aggregate,
            warn=warn,
            warn_agg=warn_agg,
        )
    block = measure_block(jr, measures, defaults, micro_labels(measures, aggregate))
    return combine(
        [block],
        measures,
        name=name,
        notes=dict(jr.notes),
        complete=not jr.in_run.all(),
        qrels_source=src,
        aggregate=aggregate,
        warn=warn,
        warn_agg=warn_agg,
    )
