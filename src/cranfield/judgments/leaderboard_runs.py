"""Leaderboard agreement: do several judgment sets rank the same runs alike?

Every run is read once, judged and evaluated against each of the M judgment sets
(:func:`leaderboards`, one task per run, on any executor); the runs' means under each set
give one leaderboard per set and measure.  Two leaderboards are compared with (each
statistic declared once, in :data:`STATISTICS`):

- ``tau_b``: Kendall's tau-b (Kendall 1945, ties corrected), scipy's ``kendalltau``;
- ``tau_ap_b``: Urbano & Marrero's symmetric AP correlation with ties (ICTIR 2017),
  :func:`cranfield.comparing.agreement.tau_ap_b`, top-weighted by the measure's direction;
- ``spearman``, ``pearson``: Spearman's rho (average ranks for ties) and Pearson's r of the
  means;
- ``top_k_tau``: tau-b over the runs in the top ``k`` under *either* set (rank <= k, ties at
  the k-th place included).  Clarke & Dietz ("LLM-based relevance assessment still can't
  replace human relevance assessment", arXiv:2412.17156, 2024) show that a correlation over
  all runs hides disagreement among the best runs; the union of both top-k lists also keeps
  a run that one set alone promotes to the top;
- ``swaps``: the pairs of runs ordered one way under A and the other way under B
  (discordant pairs; a pair tied under either set is no swap);
- ``largest rank change``: the run whose rank (1 + the runs strictly better) moves most,
  the first such run in the runs' order on a tie;
- ``same verdict``: the share of the run pairs tested whose significance verdict ("1st
  better", "2nd better", "indistinguishable": :func:`cranfield.compare` with the chosen test
  and correction) is the same under both sets.

A statistic that is undefined (fewer than two runs, a leaderboard whose means are all equal,
fewer than two queries for a test) is ``NaN``, declared in the output, with a warning.

Queries: by default the means are over the queries judged in every set (``queries="common"``;
a :class:`~cranfield.errors.DataWarning` gives, per set, how many of its queries are left
out); ``queries="each"`` keeps each set's own queries.  Every set is read with its own grades;
``rel`` (``-l``) is the same for every set.

The statistics are computed in :mod:`.leaderboard_stats`; the result,
:class:`~cranfield.judgments.leaderboard.LeaderboardAgreement`, is in :mod:`.leaderboard`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from cranfield.errors import DataWarning, ParameterError
from cranfield.judgments.leaderboard import LeaderboardAgreement
from cranfield.judgments.leaderboard_stats import SetPair, rank_statistics

__all__ = ["Work", "leaderboards", "name_sets", "note", "run_task", "verdicts"]


class Work(NamedTuple):
    """What every run's task needs: the judgment sets and the evaluation plan."""

    sets: tuple[Any, ...]
    plan: Any
    judged: frozenset[str]
    """The queries judged in some set (before the sets were cut to the common queries)."""
    names: tuple[str, ...]
    """The sets' names (for the warnings of each run under each)."""


def run_task(shared: Any, task: Any) -> tuple[list[Any], list[str]]:
    """One run read once, judged against every set: its Results under each, and the
    queries of the run that no set judges (the judging's own notes would also name the
    queries left out of every set by ``queries="common"``, once per set)."""
    from dataclasses import replace

    from cranfield.data.tables import Run
    from cranfield.evaluation import evaluate_planned
    from cranfield.judging.join import judge

    plan = shared.work.plan._replace(options=shared.options)
    source = task.source
    if not isinstance(source, Run):
        from cranfield.io import read_run

        source = read_run(source)
        if source.name != task.name:
            source = replace(source, name=task.name)
    kw = plan.options.judge_keywords()
    first = task.run_index == 0
    work = shared.work
    results = []
    for q, set_name in zip(work.sets, work.names, strict=True):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            jr = judge(q, source, _notes=False, **kw)
            results.append(evaluate_planned(jr, q, task.name, plan, first))
        for w in caught:  # which set the warning is about
            warnings.warn(w.category(f"under {set_name}: {w.message}"), stacklevel=2)
    return results, [q for q in source.query_ids if q not in shared.work.judged]


def name_sets(sources: Sequence[Any], names: Sequence[str] | None) -> list[str]:
    from cranfield.data.run_names import path_names, unique

    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(sources):
            raise ParameterError(f"set_names: {len(names)} names for {len(sources)} judgment sets")
        if len(set(names)) != len(names):
            raise ParameterError(f"set_names must be distinct, got {', '.join(names)}")
        return names
    paths = [i for i, s in enumerate(sources) if isinstance(s, str | os.PathLike)]
    given = path_names([sources[i] for i in paths]) if paths else []
    out = [f"qrels{i + 1}" for i in range(len(sources))]
    for i, n in zip(paths, given, strict=True):
        out[i] = n
    return unique(out)


def note(notes: list[str], text: str) -> None:
    if text not in notes:
        notes.append(text)
        warnings.warn(DataWarning(f"leaderboards: {text}"), stacklevel=3)


def verdicts(
    per_run: Sequence[Sequence[Any]],
    sets: Sequence[str],
    labels: Sequence[str],
    settings: dict[str, Any],
    baseline: str | None,
    notes: list[str],
) -> tuple[dict[str, list[list[str]]], list[tuple[str, str]]]:
    """The significance verdict of every tested run pair under each set, by the rule of
    :func:`cranfield.compare` (its test of the pairs, its correction, ``a``/``b``/``=``), or
    ``({}, [])`` when they are undefined (fewer than 2 runs or queries).  Only the verdicts
    are computed (compare's intervals and effect sizes are not needed here: 11,175 pairs of
    150 runs under 42 sets)."""
    from cranfield.comparing.corrections import adjust
    from cranfield.comparing.pair_tests import test_pairs
    from cranfield.comparing.paired import differences, paired_tests
    from cranfield.comparing.result import direction
    from cranfield.data.run_names import find_run

    if len(per_run) < 2:
        return {}, []
    names = [r[0].run for r in per_run]
    if baseline is None:
        idx = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    else:
        b = names.index(find_run(baseline, names, "baseline"))
        idx = [(b, j) for j in range(len(names)) if j != b]
    out: dict[str, list[list[str]]] = {label: [] for label in labels}
    first = np.array([i for i, _ in idx], dtype=np.int64)
    second = np.array([j for _, j in idx], dtype=np.int64)
    for s, name in enumerate(sets):
        rs = [r[s] for r in per_run]
        common = set(rs[0].query_ids).intersection(*(r.query_ids for r in rs[1:]))
        for label in labels:
            m = rs[0].measures[rs[0].labels.index(label)]
            V = np.column_stack([r.column(label)[[q in common for q in r.query_ids]] for r in rs])
            V = V[np.isfinite(V).all(axis=1)]
            if len(V) < 2:
                note(
                    notes,
                    f"{label} under {name}: fewer than 2 queries to test, so no "
                    "significance verdicts: same_verdict is NaN",
                )
                return {}, []
            D = differences(V[:, first], V[:, second])
            if settings["test"] == "tukey":
                tests, _ = test_pairs(V, D, idx, "tukey", "two-sided", 1, None, "t", 0.5)
            else:
                tests = paired_tests(
                    D,
                    settings["test"],
                    alternative=settings["alternative"],
                    permutations=settings["permutations"],
                    seed=settings["seed"],
                )
            padj = adjust([t.p_value for t in tests], settings["correction"])
            sgn = direction(m)
            verdicts = []
            for t, pa in zip(tests, padj, strict=True):
                sign = sgn * t.direction
                sig = bool(pa < settings["alpha"])
                verdicts.append(("b" if sign > 0 else "a" if sign < 0 else "=") if sig else "=")
            out[label].append(verdicts)
    return out, [(names[i], names[j]) for i, j in idx]


def leaderboards(
    qrels: Sequence[Any] | Mapping[str, Any],
    runs: Any,
    measures: Any = None,
    *,
    set_names: Sequence[str] | None = None,
    pairs: str = "reference",
    top_k: int = 10,
    queries: str = "common",
    test: str = "t",
    correction: str = "none",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    baseline: str | None = None,
    names: Sequence[str] | None = None,
    complete: bool = True,
    ties: str = "trec",
    depth: int | None = None,
    judged_only: bool = False,
    rel: int | None = None,
    jobs: int | None = None,
) -> LeaderboardAgreement:
    """Evaluate ``runs`` under every judgment set of ``qrels`` (a list, or ``{name: qrels}``)
    and compare the leaderboards, per measure.

    ``pairs``: ``reference`` (every set against the first) or ``all`` (every pair of sets);
    ``top_k``: the k of ``top_k_tau``; ``queries``: ``common`` (the queries judged in every
    set, default) or ``each``; ``test``, ``correction``, ``alpha``, ``alternative``,
    ``permutations``, ``seed``, ``baseline``: the significance tests of
    :func:`cranfield.compare` whose verdicts are compared; the judging options as
    :func:`cranfield.compare` (``complete=True``: a judged query without results scores as
    an empty ranking).  See the module's docstring for the statistics.
    """
    from cranfield.base import arguments as A
    from cranfield.comparing.pair_tests import check_settings
    from cranfield.comparing.result import direction
    from cranfield.evaluation import DEFAULT_MEASURES, measure_specs
    from cranfield.io import read_qrels
    from cranfield.judging.options import JudgeOptions
    from cranfield.judging.runs import judge_many
    from cranfield.results.blocks import micro_labels
    from cranfield.scale.streaming import Plan

    settings = check_settings(test, correction, alternative, alpha, permutations, seed, None)
    options = JudgeOptions(
        ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete, rel=rel
    )
    pairs = A.choice(pairs, "pairs", ("reference", "all"))
    queries = A.choice(queries, "queries", ("common", "each"))
    top_k = A.integer(top_k, "top_k", minimum=1)
    from cranfield.scale.processes import check_jobs

    jobs = check_jobs(jobs)
    if isinstance(qrels, Mapping):
        if set_names is not None:
            raise ParameterError("give set_names or a dict {name: qrels}, not both")
        set_names, sources = [str(k) for k in qrels], list(qrels.values())
    elif isinstance(qrels, list | tuple):
        sources = list(qrels)
    else:
        raise ParameterError("qrels must be a list of judgment sets or a dict {name: qrels}")
    if not sources:
        raise ParameterError("no judgment sets given")
    sets = name_sets(sources, set_names)
    specs = measure_specs(measures if measures is not None else list(DEFAULT_MEASURES))
    undirected = [label for label, m in specs if direction(m) == 0]
    if undirected:
        raise ParameterError(
            f"{', '.join(undirected)} declare no direction (counts and diagnostics): no run "
            "is better for a higher or a lower value, so they make no leaderboard"
        )
    notes: list[str] = []
    read = original = [read_qrels(s) for s in sources]
    if queries == "common":
        common = set(read[0].query_ids).intersection(*(q.query_ids for q in read[1:]))
        if not common:
            raise ParameterError(
                "no query is judged in every judgment set: the leaderboards share no query "
                "(queries='each', --queries each, ranks each set's runs over its own queries)"
            )
        left = [(s, q.num_queries - len(common)) for s, q in zip(sets, read, strict=True)]
        if any(n for _, n in left):
            msg = (
                f"the means are over the {len(common)} queries judged in every set; left out: "
                + ", ".join(
                    f"{n} of {s}'s {q.num_queries}" for (s, n), q in zip(left, read, strict=True)
                )
            )
            notes.append(msg)
            warnings.warn(DataWarning(f"leaderboards: {msg}"), stacklevel=2)
        read = [q.restrict(sorted(common)) for q in read]
    judged = judge_many(read[0], runs, names=names, options=options)
    plan = Plan(specs, None, options, micro_labels(specs, None))
    work = Work(
        tuple(read),
        plan,
        frozenset().union(*(q.query_ids for q in original)),
        tuple(sets),
    )
    done = list(judged.map(run_task, work, jobs=jobs))
    per_run = [r for r, _ in done]
    unjudged = [(r[0].run, u) for r, u in done if u]
    if unjudged:
        note(
            notes,
            f"{len(unjudged)} runs have results for queries no set judges, left out "
            f"(first: {unjudged[0][0]}, {len(unjudged[0][1])} queries such as "
            f"{unjudged[0][1][0]!r})",
        )
    run_names = tuple(r[0].run for r in per_run)
    labels = tuple(label for label, _ in specs)
    dirs = {label: direction(m) for label, m in specs}
    n_queries = {s: len(per_run[0][i].query_ids) if per_run else 0 for i, s in enumerate(sets)}
    means = {
        label: np.array([[r[i].aggregate_of(label) for r in per_run] for i in range(len(sets))])
        for label in labels
    }
    if len(run_names) < 2:
        note(notes, f"{len(run_names)} run: the correlations and verdicts are undefined (NaN)")
    if len(sets) < 2:
        note(notes, "one judgment set: no pair of leaderboards to compare")

    outcomes, pair_runs = verdicts(per_run, sets, labels, settings, baseline, notes)
    if pairs == "reference":
        set_pairs = [(0, j) for j in range(1, len(sets))]
    else:
        set_pairs = [(i, j) for i in range(len(sets)) for j in range(i + 1, len(sets))]
    rows = []
    for label in labels:
        M, sgn = means[label], dirs[label]
        for i, j in set_pairs:
            for s in (i, j):
                if not np.isfinite(M[s]).all():
                    note(
                        notes,
                        f"{label}: some run's mean under {sets[s]} is not a number: "
                        "no leaderboard, its statistics are undefined (NaN)",
                    )
                elif len(run_names) >= 2 and np.ptp(M[s]) == 0:
                    note(
                        notes,
                        f"{label}: every run has the same mean under {sets[s]}: its "
                        "correlations are undefined (NaN)",
                    )
            st = rank_statistics(sgn * M[i], sgn * M[j], k=top_k)
            same, tested = float("nan"), 0
            oc = outcomes.get(label)
            if oc is not None:
                tested = len(oc[i])
                if tested:
                    same = sum(u == v for u, v in zip(oc[i], oc[j], strict=True)) / tested
            rows.append(
                SetPair(
                    measure=label,
                    a=sets[i],
                    b=sets[j],
                    runs=len(run_names),
                    tau_b=st.tau_b,
                    tau_ap_b=st.tau_ap_b,
                    spearman=st.spearman,
                    pearson=st.pearson,
                    top_k=top_k,
                    top_runs=st.top_runs,
                    top_k_tau=st.top_k_tau,
                    swaps=st.swaps,
                    pairs=st.pairs,
                    moved=None if st.moved is None else run_names[st.moved],
                    rank_a=st.rank_a,
                    rank_b=st.rank_b,
                    same_verdict=same,
                    tested_pairs=tested,
                )
            )
    return LeaderboardAgreement(
        sets=tuple(sets),
        runs=run_names,
        labels=labels,
        directions=dirs,
        means=means,
        queries=n_queries,
        rows=rows,
        top_k=top_k,
        test=settings["test"],
        correction=settings["correction"],
        alpha=settings["alpha"],
        pair_runs=pair_runs,
        outcomes=outcomes,
        notes=notes,
    )
