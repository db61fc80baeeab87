"""evaluate(): read -> validate -> judge (:mod:`cranfield.judging.runs`) -> measures -> Results.

The runs judged and measured, here or on workers, by :mod:`.runs`; ``cranfield.Evaluator``
(qrels and measures prepared once) in :mod:`.evaluator`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cranfield.evaluation.evaluator import Evaluator
from cranfield.evaluation.runs import (
    evaluate_judged,
    evaluate_runs,
    interval_settings,
    with_intervals,
)
from cranfield.evaluation.runs import evaluate_on as evaluate_on
from cranfield.evaluation.runs import evaluate_planned as evaluate_planned
from cranfield.evaluation.runs import evaluate_task as evaluate_task
from cranfield.evaluation.runs import with_metadata as with_metadata
from cranfield.io import QrelsSource, RunSource
from cranfield.judging.options import JudgeOptions
from cranfield.judging.runs import judge_many
from cranfield.measures import Measure
from cranfield.results.core_dicts import DEFAULT_MEASURES, evaluate_dicts
from cranfield.results.core_dicts import measure_specs as measure_specs
from cranfield.results.tables import Results, ResultsSet

__all__ = ["DEFAULT_MEASURES", "Evaluator", "evaluate", "evaluate_judged", "evaluate_runs"]
# also here, as before the package: evaluate_on, evaluate_planned, evaluate_task, with_metadata
# (.runs) and measure_specs (results/core_dicts)


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
        and ties in ("trec", "given")
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
        fast = evaluate_dicts(
            qrels, runs, measures, depth, judged_only, complete, rel, aggregate, ties
        )
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
