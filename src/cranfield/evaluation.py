"""evaluate(): read -> validate -> judge (:mod:`cranfield.judging.runs`) -> measures -> Results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

from cranfield.base import arguments as A
from cranfield.data.tables import Qrels, Run
from cranfield.errors import ParameterError
from cranfield.io import QrelsSource, RunSource
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings
from cranfield.judging.runs import JudgedRuns, RunTask, Shared, judge_many
from cranfield.measures import Measure
from cranfield.results.aggregate import resolve_aggregation
from cranfield.results.core_dicts import (
    DEFAULT_MEASURES,
    cached_measures,
    cached_options,
    cached_plan,
    cached_specs,
    dict_index,
    evaluate_dicts,
    measure_specs,
    quiet,
    results_of,
)
from cranfield.results.tables import Results, ResultsSet

__all__ = ["DEFAULT_MEASURES", "Evaluator", "evaluate", "evaluate_judged", "evaluate_runs"]


def evaluate(
    qrels: QrelsSource,
    runs: RunSource | Sequence[RunSource] | Mapping[str, RunSource],
    measures: str | Measure | Sequence[str | Measure] | None = None,
    *,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = True,
    names: Sequence[str] | None = None,
    collection_size: Any = None,
    known: Any = None,
    target: Any = None,
    prefs: Any = None,
    judgment_groups: Any = None,
    subtopics: Any = None,
    aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
    rel: int | None = None,
    jobs: int | None = None,
    executor: Any = None,
    bounds: bool = False,
    ci: str | None = None,
    confidence: float = 0.95,
    samples: int = 10_000,
) -> Results | ResultsSet:
    """Evaluate one run (returns :class:`Results`) or several (:class:`ResultsSet`).

    Parameters
    ----------
    qrels
        Path (TREC qrels, ``.gz``, ``.jsonl``, ``.parquet``), DataFrame, ``{qid: {doc: grade}}``
        or :class:`~cranfield.data.tables.Qrels`.
    runs
        One run (path, DataFrame, ``{qid: {doc: score}}`` or :class:`~cranfield.data.tables.Run`), a
        list of them, or a dict ``{name: run}`` of named runs.
    measures
        Measure strings such as ``"AP"``, ``"P(rel=2)@10"``, ``"nDCG@10"``; the labels of the
        results are these strings as written.  Default: AP, nDCG@10, P@10, RR, R@1000.
    ties
        ``trec`` (trec_eval's order: score descending, then document id descending),
        ``given`` (the rank column / given order), ``random`` (reproducible with ``seed``) or
        ``weak`` (equal scores form one level of a weak ordering; each measure is its
        expectation over uniformly random tie-breaking, see ``docs/ties.md``).
    depth, judged_only
        trec_eval's ``-M`` and ``-J``; see :func:`cranfield.judging.join.judge`.
    complete
        Which queries a mean is over (:mod:`cranfield.results.query_sets`, the rule of every
        command):
        ``True`` (default, trec_eval ``-c``): every judged query of the qrels, a judged query
        the run has no results for scored as an empty ranking; ``False`` (trec_eval's
        default): the judged queries the run has results for, each run its own (a
        :class:`~cranfield.errors.DataWarning` when runs are then averaged over different
        queries).
    names
        One distinct name per run; by default a dict's keys, a Run's name, a table's
        ``run``/``name`` column, the file name (made distinguishable: ``a/run.txt``,
        ``b/run.txt``), or ``run1``, ``run2``... (docs/input.md, "Run names").
    collection_size, known, target
        Collection size N (a number, ``{qid: N}`` or a file of ``qid N`` lines), documents
        known to the user (qrels-format source) and the number of relevant documents the user
        wants (like ``collection_size``); see :mod:`cranfield.judging.side_inputs`.
    prefs, judgment_groups
        Preference judgments and judgments by judgment group (paths of trec_eval's ``-R
        prefs`` and ``-R qrels_jg`` files, or what :mod:`cranfield.io.trec.judgment_files` reads)
        for the preference (``prefs_*``) and ``*_avgjg`` measures.
    subtopics
        Subtopic judgments for the diversity measures (``alpha_nDCG@k``, ``ERR_IA@k``,
        ``NRBP``...): the path of a ``topic subtopic docno judgment`` file (ndeval's qrels) or
        :func:`cranfield.io.trec.subtopics.read_subtopics` / ``Subtopics.from_rows``; ``qrels`` may
        then be the same ``Subtopics`` object (each judged document with its highest judgment).
    aggregate
        ``mean``, ``gmean``, ``median`` or ``micro`` for every measure, ``{label: how}``, or
        a list of ``how`` and ``label=how`` items (``["gmean", "P@10=micro"]``); default: each
        measure's own (mean; sum for counts; geometric mean for GMAP).  ``micro`` (Keen's sum
        of numerators over sum of denominators) falls back to the mean, with a warning, for
        measures that are not ratios of per-query counts.
    rel
        Minimum grade counted relevant by every measure with a ``rel`` parameter that its
        string does not set (trec_eval's ``-l``): ``rel=2`` makes ``P@10`` ``P(rel=2)@10``.

    jobs
        Runs evaluated at once, in worker processes (default: the number of cores); run
        files smaller than 64 MiB together are evaluated in this process.  The results are
        the same whatever the number (see ``docs/scale.md``).
    executor
        Where to evaluate the run files instead: a :class:`concurrent.futures.Executor` (a
        process pool, say) or a ``dask.distributed.Client`` (each worker gets the qrels once;
        a large TREC text run is cut into query ranges evaluated apart).  The results are
        the same, bit for bit (``docs/scale.md``, "Beyond one machine").  Not with ``jobs``.
    bounds
        Also the pessimistic and optimistic bound of every measure, as the columns
        ``label:lo`` (the run's unjudged documents judged non-relevant) and ``label:hi``
        (judged with the top grade of the query), after each ``label``; see
        :mod:`cranfield.judgments.bounds` and ``docs/judgments.md``.
    ci, confidence, samples
        ``t``, ``bootstrap`` or ``bca``: also the interval of each run's mean over the
        queries at ``confidence`` (Student t, bootstrap percentile, BCa bootstrap with
        ``samples`` resamples drawn from ``seed``, 0 when ``seed`` is None), for the measures
        averaged by the arithmetic mean; the values of ``cranfield evaluate --ci``
        (``docs/statistics.md``).  Each :class:`Results` keeps them as ``intervals``; they
        show in ``to_frame()`` (``ci_low``, ``ci_high``), ``to_dict()`` and the notebook
        display.

    Warnings
    --------
    :class:`~cranfield.errors.UndefinedMeasureWarning` names each measure that is undefined
    for some queries, with the count and the value used; :class:`~cranfield.errors.DataWarning`
    reports queries that were not evaluated.
    """
    if (
        type(qrels) is dict
        and type(runs) is dict
        and ties == "trec"
        and seed is None
        and names is None
        and jobs is None
        and executor is None
        and bounds is False
        and ci is None
        and collection_size is None
        and known is None
        and target is None
        and prefs is None
        and judgment_groups is None
        and subtopics is None
    ):  # plain dicts: the compiled core's small path, else (None) the general one
        fast = evaluate_dicts(qrels, runs, measures, depth, judged_only, complete, rel, aggregate)
        if fast is not None:
            return fast
    options = JudgeOptions.of(locals())
    interval = interval_settings(ci, confidence, samples, seed)  # fail before reading
    judged = judge_many(qrels, runs, names=names, options=options)
    results = evaluate_runs(
        judged, measures, aggregate=aggregate, jobs=jobs, executor=executor, bounds=bounds
    )
    if interval is not None:
        results = with_intervals(results, **interval)
    if not judged.many:
        return results[0]
    from cranfield.results.query_sets import warn_if_mixed

    warn_if_mixed(results)
    return ResultsSet(tuple(results))


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
    return list(judged.map(evaluate_task, plan, jobs=jobs))


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


class Evaluator:
    """Qrels and measures prepared once, for many evaluations (``cranfield.Evaluator``).

    ``Evaluator(qrels, measures, **options)`` reads and checks the qrels once, parses the
    measures once and checks the judging options (the keywords of :func:`evaluate`: ``ties``,
    ``depth``, ``judged_only``, ``complete``, ``rel``...) and ``aggregate`` once; then
    :meth:`evaluate` takes a run (path, DataFrame, ``{qid: {doc: score}}`` or
    :class:`~cranfield.data.tables.Run`) and returns the :class:`Results` that
    ``evaluate(qrels, run, measures, **options)`` returns, bit for bit, and
    :meth:`evaluate_query` one query's ``{label: value}``.  Nothing of one call is kept for
    the next.  Plain qrels and run dicts are judged and measured by the compiled core
    (:func:`~cranfield.results.core_dicts.dict_results`), everything else by the general
    path, with the same values.
    """

    def __init__(
        self,
        qrels: QrelsSource,
        measures: str | Measure | Sequence[str | Measure] | None = None,
        *,
        aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
        **options: Any,
    ) -> None:
        self.options = cached_options(options)
        measured = cached_measures(measures)
        self.measures = measured.measures
        self.specs = list(measured.specs)
        for _, m in self.specs:
            m.definition.function(self.options.ties)  # no tie-aware form under "weak"
        resolve_aggregation(self.specs, aggregate, warn=False)
        self.aggregate = aggregate
        A.qrels_given(qrels)
        self._qrels_source = qrels
        self._prepare(measured.specs, cached_options(options, complete=False))

    def _prepare(self, specs: tuple[tuple[str, Measure], ...], query: JudgeOptions) -> None:
        """Plain qrels dicts indexed by the compiled core, with the plans of
        :meth:`evaluate` and of :meth:`evaluate_query` (options ``query``); otherwise the
        qrels read and checked now."""
        qrels = self._qrels_source
        self._index = dict_index(qrels) if type(qrels) is dict else None
        self._plan = self._query_plan = None
        if self._index is not None:
            self._plan = cached_plan(specs, self.options, self.aggregate)
            self._query_plan = cached_plan(specs, query, self.aggregate)
        if self._plan is None or self._query_plan is None:
            self._index = self._plan = self._query_plan = None
            _ = self.qrels  # read and checked now

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the core's index and plans (made again when unpickled)."""
        state = dict(self.__dict__)
        for name in ("_index", "_plan", "_query_plan"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        specs = cached_specs(list(self.measures))
        self._prepare(specs, self.options.replace(complete=False))

    @cached_property
    def qrels(self) -> Qrels:
        """The qrels, read and checked (on first use when they are plain dicts, which the
        compiled core has indexed and checked already)."""
        return JudgedRuns(self._qrels_source, [], None, self.options, False).qrels

    def evaluate(self, run: RunSource, *, name: str | None = None) -> Results:
        """The :class:`Results` of one run, as :func:`evaluate` gives them."""
        plan = self._plan
        if plan is not None and name is None:  # the core's index and plan (see _prepare)
            out = plan.core(self._index, run)
            if out is not None:
                return results_of(out, self._index, plan, "run", self.aggregate)
        judged = judge_many(
            self.qrels, run, names=None if name is None else [name], options=self.options
        )
        if judged.many:
            raise ParameterError("Evaluator.evaluate takes one run, not a list or dict of runs")
        return evaluate_runs(judged, None, aggregate=self.aggregate, jobs=1, specs=self.specs)[0]

    def evaluate_query(self, qid: str, ranking: Mapping[str, float]) -> dict[str, float]:
        """One query's values, ``{label: value}``, for a ranking ``{doc: score}``."""
        qid = str(qid)
        plan = self._query_plan
        if plan is not None:  # the core's index and plan (see _prepare)
            out = plan.core(self._index, {qid: ranking})
            if out is not None:  # the one query has judgments
                # the qrels' other queries were not asked for: not "judged queries without
                # results" (the core lists them as missing, index 7 of its output)
                out = (*out[:7], [], *out[8:])
                if quiet(plan, out):
                    return dict(zip(plan.labels, out[1].tolist(), strict=True))
                values = results_of(out, self._index, plan, "run", self.aggregate).values
                return dict(zip(plan.labels, values[0].tolist(), strict=True))
        judged = judge_many(
            self.qrels, {qid: ranking}, names=["run"], options=self.options.replace(complete=False)
        )
        res = evaluate_runs(judged, None, aggregate=self.aggregate, jobs=1, specs=self.specs)[0]
        table = res.per_query()
        if qid not in table.index:
            return {}
        row = table.loc[qid]
        return {label: float(row[label]) for label, _ in self.specs}


# ------------------------------------------------------------------ small in-memory calls
# Plain dicts ({qid: {doc: value}} of str ids, int grades, finite float or int scores) are
# judged and measured by the compiled core (rust/src/dicts.rs) in one pass, without a Run,
# a Qrels or pandas: the measures that declare a ``core_kernel`` are computed per query in
# the core, the others by their functions on the judged rankings the core returns.  Anything
# else (another tie policy, side inputs, micro averages, other value types, any problem in
# the input) takes the general path, which words every error: the results are the same.
