"""evaluate(): read -> validate -> judge (:mod:`cranfield.judged_runs`) -> measures -> Results."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .aggregate import resolve_aggregation
from .arguments import measure_list
from .data import Qrels
from .errors import DataWarning, InputError, UndefinedMeasureWarning
from .io import QrelsSource, RunSource
from .judged_rankings import JudgedRankings
from .judged_runs import JudgedRuns, judge_many
from .judging_options import JudgeOptions
from .measures import Measure, parse
from .results import Results, ResultsSet

__all__ = ["DEFAULT_MEASURES", "evaluate", "evaluate_judged", "evaluate_runs"]

DEFAULT_MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@1000")


def _measures(
    measures: str | Measure | Sequence[str | Measure] | None,
) -> list[tuple[str, Measure]]:
    out: list[tuple[str, Measure]] = []
    seen: set[str] = set()
    for m in measure_list(measures, DEFAULT_MEASURES):
        label = m if isinstance(m, str) else str(m)
        if label in seen:
            continue
        seen.add(label)
        out.append((label, parse(m)))
    return out


def evaluate(
    qrels: QrelsSource,
    runs: RunSource | Sequence[RunSource] | Mapping[str, RunSource],
    measures: str | Measure | Sequence[str | Measure] | None = None,
    *,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
    names: Sequence[str] | None = None,
    collection_size: Any = None,
    known: Any = None,
    target: Any = None,
    prefs: Any = None,
    judgment_groups: Any = None,
    subtopics: Any = None,
    aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
    rel: int | None = None,
) -> Results | ResultsSet:
    """Evaluate one run (returns :class:`Results`) or several (:class:`ResultsSet`).

    Parameters
    ----------
    qrels
        Path (TREC qrels, ``.gz``, ``.jsonl``, ``.parquet``), DataFrame, ``{qid: {doc: grade}}``
        or :class:`~cranfield.data.Qrels`.
    runs
        One run (path, DataFrame, ``{qid: {doc: score}}`` or :class:`~cranfield.data.Run`), a
        list of them, or a dict ``{name: run}`` of named runs.
    measures
        Measure strings such as ``"AP"``, ``"P(rel=2)@10"``, ``"nDCG@10"``; the labels of the
        results are these strings as written.  Default: AP, nDCG@10, P@10, RR, R@1000.
    ties
        ``trec`` (trec_eval's order: score descending, then document id descending),
        ``given`` (the rank column / given order), ``random`` (reproducible with ``seed``) or
        ``weak`` (equal scores form one level of a weak ordering; each measure is its
        expectation over uniformly random tie-breaking, see ``docs/ties.md``).
    depth, judged_only, complete
        trec_eval's ``-M``, ``-J`` and ``-c``; see :func:`cranfield.judging.judge`.
    names
        One distinct name per run; by default a dict's keys, a Run's name, a table's
        ``run``/``name`` column, the file name (made distinguishable: ``a/run.txt``,
        ``b/run.txt``), or ``run1``, ``run2``... (docs/input.md, "Run names").
    collection_size, known, target
        Collection size N (a number, ``{qid: N}`` or a file of ``qid N`` lines), documents
        known to the user (qrels-format source) and the number of relevant documents the user
        wants (like ``collection_size``); see :mod:`cranfield.measure_inputs`.
    prefs, judgment_groups
        Preference judgments and judgments by judgment group (paths of trec_eval's ``-R
        prefs`` and ``-R qrels_jg`` files, or what :mod:`cranfield.io.judgment_files` reads)
        for the preference (``prefs_*``) and ``*_avgjg`` measures.
    subtopics
        Subtopic judgments for the diversity measures (``alpha_nDCG@k``, ``ERR_IA@k``,
        ``NRBP``...): the path of a ``topic subtopic docno judgment`` file (ndeval's qrels) or
        :func:`cranfield.io.subtopics.read_subtopics` / ``Subtopics.from_rows``; ``qrels`` may
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

    Warnings
    --------
    :class:`~cranfield.errors.UndefinedMeasureWarning` names each measure that is undefined
    for some queries, with the count and the value used; :class:`~cranfield.errors.DataWarning`
    reports queries that were not evaluated.
    """
    options = JudgeOptions(
        ties=ties,
        seed=seed,
        depth=depth,
        judged_only=judged_only,
        complete=complete,
        collection_size=collection_size,
        known=known,
        target=target,
        prefs=prefs,
        judgment_groups=judgment_groups,
        subtopics=subtopics,
        rel=rel,
    )
    judged = judge_many(qrels, runs, names=names, options=options)
    results = evaluate_runs(judged, measures, aggregate=aggregate)
    return ResultsSet(tuple(results)) if judged.many else results[0]


def evaluate_runs(
    judged: JudgedRuns,
    measures: str | Measure | Sequence[str | Measure] | None,
    *,
    aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
) -> list[Results]:
    """The results of every run of ``judged`` (from :func:`~cranfield.judged_runs.judge_many`),
    one run in memory at a time; ``measures`` and ``aggregate`` are checked before any input
    is read."""
    specs = _measures(measures)
    ties = judged.options.ties
    for _, m in specs:
        m.definition.function(ties)  # fail before reading: no tie-aware form under "weak"
    resolve_aggregation(specs, aggregate, warn=False)  # fail before reading
    return [
        evaluate_judged(
            jr,
            specs,
            run_name=name,
            qrels=judged.qrels,
            defaults=judged.options.defaults,
            aggregate=aggregate,
            warn_agg=i == 0,
        )
        for i, (name, jr) in enumerate(judged)
    ]


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
    aggregation = resolve_aggregation(measures, aggregate, warn=warn and warn_agg)
    name = run_name or jr.run_name
    if jr.num_queries == 0:
        src = qrels.source if qrels is not None else "the qrels"
        raise InputError(name, f"no query of this run has judgments in {src}")
    if warn:
        _data_warnings(jr, name)
    cols = []
    for label, m in measures:
        params = m.resolve(defaults)
        values = m.definition.function(jr.ties)(jr, **params)
        cols.append(np.asarray(values, dtype=np.float64))
        if warn:
            for u in m.definition.undefined:
                count = int(np.count_nonzero(u.mask(jr, **params)))
                if count:
                    warnings.warn(
                        UndefinedMeasureWarning(
                            f"{name}: {label} is undefined for {count} of {jr.num_queries} "
                            f"queries ({u.when}); scored {u.value}"
                        ),
                        stacklevel=3,
                    )
    order = sorted(range(jr.num_queries), key=jr.query_ids.__getitem__)
    values = np.column_stack(cols)[order] if cols else np.zeros((jr.num_queries, 0))
    rel = (defaults or {}).get("rel", 1)
    summary = {
        "queries": jr.num_queries,
        "retrieved": int(jr.num_ret.sum()),
        "relevant": int(jr.num_rel(rel).sum()),
        "relevant_retrieved": _relevant_retrieved(jr, rel),
    }
    parts = {}
    for j, (label, m) in enumerate(measures):
        if aggregation.get(label) == "micro" and m.definition.micro is not None:
            num, den = m.definition.micro(jr, **m.resolve(defaults))
            if jr.ties == "weak":  # micro denominators do not depend on the order (tested)
                num = cols[j] * np.asarray(den, dtype=np.float64)
            parts[label] = (
                np.asarray(num, dtype=np.float64)[order],
                np.asarray(den, dtype=np.float64)[order],
            )
    return Results(
        run=name,
        query_ids=tuple(jr.query_ids[i] for i in order),
        labels=tuple(label for label, _ in measures),
        measures=tuple(m for _, m in measures),
        values=values,
        summary=summary,
        notes=dict(jr.notes),
        aggregation=aggregation,
        parts=parts,
    )


def _relevant_retrieved(jr: JudgedRankings, rel: int) -> int | float:
    """Relevant documents retrieved, summed over queries: the expected number when a depth
    cut splits a tie group under ``weak`` (see :attr:`JudgedRankings.cut`)."""
    if jr.cut:
        from .ties.expected import expected_retrieved

        return float(expected_retrieved(jr, jr.relevant(rel)).sum())
    return int(jr.count(jr.relevant(rel)).sum())


def _data_warnings(jr: JudgedRankings, name: str) -> None:
    run_only = jr.notes.get("run_only_queries", [])
    if run_only:
        warnings.warn(
            DataWarning(
                f"{name}: {len(run_only)} queries have results but no judgments and were not "
                f"evaluated (first: {run_only[0]!r})"
            ),
            stacklevel=3,
        )
    missing = jr.notes.get("missing_queries", [])
    if missing:
        if jr.in_run.all():
            what = "were skipped (use complete=True / --complete to score them as empty rankings)"
        else:
            what = "were evaluated as empty rankings (complete)"
        warnings.warn(
            DataWarning(
                f"{name}: {len(missing)} judged queries have no results and {what} "
                f"(first: {missing[0]!r})"
            ),
            stacklevel=3,
        )
