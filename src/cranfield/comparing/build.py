"""``compare()``: significance, agreement and per-request analysis over evaluated runs.

The comparison consumes :class:`~cranfield.results.tables.Results` (per-query values computed by
``evaluate``); it never computes a measure itself.

Which queries are compared (the explicit rule for queries present in one run only):

- ``compare(qrels, runs, ...)`` evaluates every run with ``complete=True`` by default (the rule
  of every command, :mod:`cranfield.results.query_sets`), so every judged query is scored for every
  run (a run without results for a query scores what an empty ranking scores, trec_eval
  ``-c``) and all runs share the same queries; so does ``evaluate``, whose results give the
  same means here;
- given already evaluated results, only the queries present in *every* run are compared
  (``missing="intersect"``; a :class:`~cranfield.errors.DataWarning` gives the count and the
  first one left out), or ``missing="error"`` refuses;
- a query whose value is NaN in some run is left out of that measure only (with a warning).

Means are over the compared queries: arithmetic, or geometric for measures aggregated that way
(GMAP); ``mean_diff = mean(b) - mean(a)``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.base import progress
from cranfield.comparing.arrangements import exact_arrangements
from cranfield.comparing.pair_tests import adjusted, check_settings, test_pairs, warn_fit
from cranfield.comparing.paired import (
    differences,
    effect_size,
    exact_enumeration,
)
from cranfield.comparing.rbo import RankingsKept, persistence
from cranfield.comparing.requests import natural_key, superiority
from cranfield.comparing.result import Comparison, PairResult, direction, mean_of
from cranfield.comparing.sweep import _sweep, parse_sweep
from cranfield.data.run_names import find_run
from cranfield.errors import CranfieldWarning, DataWarning, ParameterError
from cranfield.errors import warn as _warn
from cranfield.judging.options import JudgeOptions
from cranfield.results.tables import Results, ResultsSet

__all__ = ["check_settings", "compare"]


def _is_results(obj: Any) -> bool:
    if isinstance(obj, ResultsSet | Results):
        return True
    return isinstance(obj, list | tuple) and bool(obj) and all(isinstance(r, Results) for r in obj)


def compare(
    results: Any,
    runs: Any = None,
    measures: str | Sequence[str] | None = None,
    *,
    test: str = "t",
    correction: str | None = "none",
    baseline: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    ci: str | None = None,
    missing: str = "intersect",
    sweep: str | Sequence[str] = (),
    complete: bool = True,
    ties: str = "trec",
    depth: int | None = None,
    judged_only: bool = False,
    names: Sequence[str] | None = None,
    collection_size: Any = None,
    known: Any = None,
    target: Any = None,
    prefs: Any = None,
    judgment_groups: Any = None,
    subtopics: Any = None,
    rel: int | None = None,
    rbo: float | None = None,
    executor: Any = None,
    bounds: bool = False,
) -> Comparison:
    """Compare runs pairwise under one or more measures.

    ``compare(results_set, ["AP", ...])`` takes evaluated results (a
    :class:`~cranfield.results.tables.ResultsSet` or list of
    :class:`~cranfield.results.tables.Results`);
    ``compare(qrels, [run_a, run_b, ...], ["AP", "P@10"])`` (or a dict ``{name: run}``)
    evaluates first (with ``complete=True``: every judged query counts for every run), with
    the judging options of :func:`cranfield.evaluate` (``ties``, ``depth``, ``judged_only``,
    ``complete``, ``names``, ``collection_size``, ``known``, ``target``, ``prefs``,
    ``judgment_groups``, ``subtopics``, ``rel``).

    Parameters
    ----------
    test
        ``t`` (default), ``wilcoxon``, ``sign``, ``randomization``, ``bootstrap``, ``tukey``
        or ``rthsd`` (randomised Tukey HSD, with ``permutations`` and ``seed``).
    correction
        ``none`` (default), ``bonferroni``, ``holm`` or ``bh``, applied per measure over the
        pairs compared; ``tukey`` and ``rthsd`` need none.  Also ``sidak``, ``holm-sidak``,
        ``hochberg``, ``hommel``, ``by``, ``tsbh``, ``tsbky``, ``gbs`` (statsmodels'
        ``multipletests``), and ``maxt``, ``minp`` (Westfall & Young's permutation step-down,
        with ``permutations`` and ``seed``); see ``docs/compare.md``.
    baseline
        Compare every run with this one only (its name, a path ending with its name, or the
        end of its name; one run must match); default: every pair of runs.
    alpha
        Significance level; a pair is significant when its adjusted p-value is below alpha.
    alternative
        ``two-sided``, ``greater`` (mean(b) > mean(a)) or ``less``.
    permutations, seed
        Resamples of the randomization and bootstrap tests, and their seed.
    ci
        Interval of the mean difference: ``t`` (default) or ``bootstrap`` (percentile; the
        default with ``test="bootstrap"``), at confidence ``1 - alpha``.
    missing
        ``intersect`` (compare the queries all runs have, with a warning) or ``error``.
    sweep
        Specs like ``"P@5,10,20"`` or ``"PRES@10,100,1000"`` (evaluated when compare
        evaluates), or a measure name whose cut-offs are taken from the results.
    rbo
        Persistence ``p`` in (0, 1): also the rank-biased overlap of the runs' rankings for
        every pair of runs compared (mean RBO_min, residual and RBO_ext over the compared
        queries; Webber, Moffat & Zobel 2010), in :attr:`Comparison.overlaps`.  Needs the
        runs, not evaluated results; the rankings follow ``ties`` and ``depth``.
    executor
        A :class:`concurrent.futures.Executor` or a ``dask.distributed.Client``: the run
        files are evaluated there (as :func:`cranfield.evaluate` does), and the randomization
        and bootstrap tests of the pairs run there in groups of pairs, with the same seeds
        and the same p-values as here (``docs/scale.md``, "Beyond one machine").
    bounds
        Also compare each measure's pessimistic and optimistic bounds (``label:lo``,
        ``label:hi``, each run with its own unjudged documents filled; see
        :mod:`cranfield.judgments.bounds`).  Needs the runs: evaluated results carry their
        bounds when evaluated with ``bounds=True``.
    """
    settings = check_settings(test, correction, alternative, alpha, permutations, seed, ci)
    options = JudgeOptions.of(locals())
    if missing not in ("intersect", "error"):
        raise ParameterError(f"missing must be 'intersect' or 'error', got {missing!r}")
    if baseline is not None and not isinstance(baseline, str | os.PathLike):
        raise ParameterError(f"baseline must be a run name, got {baseline!r}")
    if isinstance(sweep, str):
        sweeps = [sweep]
    elif isinstance(sweep, list | tuple) and all(isinstance(s, str) for s in sweep):
        sweeps = list(sweep)
    else:
        raise ParameterError(
            f"sweep must be a spec such as 'P@5,10,20' or a list of them, got {sweep!r}"
        )
    sweep_specs = [parse_sweep(s) for s in sweeps]
    rbo_p = None if rbo is None else persistence(rbo)
    kept = RankingsKept(ties=ties, seed=seed, depth=depth)
    A.flag(bounds, "bounds")

    if _is_results(results):
        if bounds:
            raise ParameterError(
                "bounds= fills the runs' unjudged documents: give compare(qrels, runs, "
                "measures, bounds=True), or evaluated results made with bounds=True"
            )
        if rbo_p is not None:
            raise ParameterError(
                "rank-biased overlap (rbo=) compares the runs' rankings: give "
                "compare(qrels, runs, measures, rbo=...), not evaluated results"
            )
        if runs is not None:
            if measures is not None:
                raise ParameterError(
                    "give compare(results, measures) or compare(qrels, runs, measures)"
                )
            measures = runs
        rs = list(results) if not isinstance(results, Results) else [results]
        labels = A.measure_list(measures, list(rs[0].labels))
    else:
        if runs is None:
            raise ParameterError("compare(qrels, runs, measures): runs are missing")
        from cranfield.evaluation.runs import evaluate_runs
        from cranfield.judging.runs import judge_many
        from cranfield.results.core_dicts import DEFAULT_MEASURES

        judged = judge_many(results, runs, names=names, options=options)
        if rbo_p is not None:
            kept.queries = list(judged.qrels.query_ids)
            judged.on_run = kept.add
        if len(judged) < 2:
            raise ParameterError(f"comparing needs at least 2 runs, got {len(judged)}")
        labels = A.measure_list(measures, DEFAULT_MEASURES)
        extra = [label for _, cut_labels in sweep_specs for label in cut_labels]
        wanted = list(dict.fromkeys([*labels, *extra, "NumRel"]))
        rs = evaluate_runs(judged, wanted, executor=executor, bounds=bounds)
        if bounds:
            labels = [f"{m}{s}" for m in labels for s in ("", ":lo", ":hi")]
    if executor is not None:
        from cranfield.scale.dask_executor import as_executor

        executor = as_executor(executor)
    cmp = _build(
        rs,
        [str(m) for m in labels],
        executor=executor,
        baseline=baseline,
        missing=missing,
        sweep_specs=sweep_specs,
        **settings,
    )
    if rbo_p is not None:
        cmp.overlaps = kept.overlaps(cmp, rbo_p)
    return cmp


def _common_queries(rs: list[Results], missing: str) -> list[str]:
    sets = [set(r.query_ids) for r in rs]
    common = set.intersection(*sets)
    union = set.union(*sets)
    dropped = sorted(union - common, key=natural_key)
    if dropped:
        where = [r.run for r in rs if set(r.query_ids) != union]
        msg = (
            f"{len(dropped)} queries are not in every run (missing from {', '.join(where[:3])}"
            f"{', ...' if len(where) > 3 else ''}; first: {dropped[0]!r})"
        )
        # what would score them: evaluating with complete=True, unless the results say
        # otherwise (nugget scores: an answer to every question)
        advice = {r.notes.get("missing_advice") for r in rs}
        if missing == "error":
            hint = (
                advice.pop()
                if len(advice) == 1 and None not in advice
                else ("evaluate with complete=True (the default) to score them")
            )
            raise ParameterError(f"compare: {msg}; {hint}")
        hint = (
            advice.pop()
            if len(advice) == 1 and None not in advice
            else (
                "evaluate with complete=True (the default; not --no-complete) to score them as "
                "empty rankings"
            )
        )
        _warn(DataWarning(f"compare: {msg} and were left out of every run's mean; {hint}"))
    return sorted(common, key=natural_key)


def _build(
    rs: list[Results],
    labels: list[str],
    *,
    executor: Any = None,
    test: str,
    correction: str,
    baseline: str | None,
    alpha: float,
    alternative: str,
    permutations: int,
    seed: int | None,
    ci: str,
    missing: str,
    sweep_specs: list[tuple[str, list[str]]],
) -> Comparison:
    if len(rs) < 2:
        raise ParameterError(f"comparing needs at least 2 runs, got {len(rs)}")
    names = [r.run for r in rs]
    if len(set(names)) != len(names):
        raise ParameterError(f"run names must be distinct, got {', '.join(names)}")
    labels = list(dict.fromkeys(labels))
    if not labels:
        raise ParameterError("no measures to compare")
    for r in rs:
        absent = [m for m in labels if m not in r.labels]
        if absent:
            raise ParameterError(
                f"run {r.run!r} has no values for {', '.join(absent)} (it has: "
                f"{', '.join(r.labels)})"
            )
    base = None if baseline is None else find_run(baseline, names, "baseline")
    common = _common_queries(rs, missing)
    measures = [rs[0].measures[rs[0].labels.index(m)] for m in labels]
    undirected = [label for label, m in zip(labels, measures, strict=True) if direction(m) == 0]
    if undirected:
        raise ParameterError(
            f"{', '.join(undirected)} declare no direction (counts and diagnostics, "
            "better=none in 'cranfield measures'): no run is better for a higher or a lower "
            "value, so compare does not rank runs by them; evaluate them with 'cranfield evaluate'"
        )
    index = [{q: i for i, q in enumerate(r.query_ids)} for r in rs]
    if base is None:
        pair_idx = [(i, j) for i in range(len(rs)) for j in range(i + 1, len(rs))]
    else:
        bi = names.index(base)
        pair_idx = [(bi, j) for j in range(len(rs)) if j != bi]

    values: dict[str, np.ndarray] = {}
    qids: dict[str, tuple[str, ...]] = {}
    means: dict[str, dict[str, float]] = {}
    pairs: dict[str, list[PairResult]] = {}
    notes: dict[str, Any] = {"queries": len(common)}
    undefined_sup = 0
    for label, m in zip(labels, measures, strict=True):
        V = np.empty((len(common), len(rs)))
        for j, (r, ix) in enumerate(zip(rs, index, strict=True)):
            V[:, j] = r.column(label)[[ix[q] for q in common]]
        ok = np.asarray(np.isfinite(V).all(axis=1))  # an array (mypy: not a numpy.bool)
        if not ok.all():
            bad = [q for q, f in zip(common, ok, strict=True) if not f]
            _warn(
                DataWarning(
                    f"compare: {label} is undefined (NaN) or infinite in some run for "
                    f"{len(bad)} queries "
                    f"(first: {bad[0]!r}); they were left out of {label}"
                )
            )
        V = V[ok]
        q_m = tuple(q for q, f in zip(common, ok, strict=True) if f)
        n = len(q_m)
        if n < 2:
            raise ParameterError(f"{label}: comparing needs at least 2 queries, got {n}")
        values[label] = V
        qids[label] = q_m
        means[label] = {name: mean_of(V[:, j], m) for j, name in enumerate(names)}
        D = np.column_stack([differences(V[:, i], V[:, j]) for i, j in pair_idx])
        with progress.named(label):  # the bars of the resampling tests name the measure
            results, cis = test_pairs(
                V, D, pair_idx, test, alternative, permutations, seed, ci, 1.0 - alpha, executor
            )
            padj = adjusted(
                V, pair_idx, results, correction, alpha, permutations, seed, notes, label
            )
        sgn = direction(m)
        plist = []
        for k, ((i, j), t, pa, (lo, hi)) in enumerate(
            zip(pair_idx, results, padj, cis, strict=True)
        ):
            d = D[:, k]
            wins = int(np.count_nonzero(sgn * d > 0))
            losses = int(np.count_nonzero(sgn * d < 0))
            if wins + losses == 0:
                undefined_sup += 1
            sig = bool(pa < alpha)
            sign = sgn * t.direction
            outcome = ("b" if sign > 0 else "a" if sign < 0 else "=") if sig else "="
            effect = effect_size(d)
            plist.append(
                PairResult(
                    measure=label,
                    a=names[i],
                    b=names[j],
                    mean_a=means[label][names[i]],
                    mean_b=means[label][names[j]],
                    mean_diff=means[label][names[j]] - means[label][names[i]],
                    statistic=t.statistic,
                    p_value=t.p_value,
                    p_adjusted=float(pa),
                    significant=sig,
                    outcome=outcome,
                    wins=wins,
                    losses=losses,
                    ties=n - wins - losses,
                    superiority=superiority(wins, losses),
                    ci_low=lo,
                    ci_high=hi,
                    effect_size=effect,
                    queries=n,
                )
            )
        pairs[label] = plist
    warn_fit(test, [len(q) for q in qids.values()])
    if undefined_sup:
        _warn(
            CranfieldWarning(
                f"compare: for {undefined_sup} pair(s) every query is equal on the measure, so "
                "the superiority percentage is undefined; reported as 0"
            )
        )
    if test in ("randomization", "bootstrap", "rthsd"):
        notes["resamples"] = permutations
    if test == "rthsd":
        notes["exact"] = sorted(
            {
                label
                for label in labels
                if exact_arrangements(len(qids[label]), len(names), permutations)
            }
        )
    if test == "randomization":
        # exact enumeration of the 2^n sign vectors wherever 2^n <= permutations
        notes["exact"] = sorted(
            {label for label in labels if exact_enumeration(len(qids[label]), permutations)}
        )
    sweeps = tuple(_sweep(rs, common, spec) for spec in sweep_specs)
    return Comparison(
        results=tuple(rs),
        runs=tuple(names),
        labels=tuple(labels),
        measures=tuple(measures),
        query_ids=qids,
        values=values,
        means=means,
        pairs=pairs,
        test=test,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        baseline=base,
        ci=ci,
        permutations=permutations,
        seed=seed,
        sweeps=sweeps,
        notes=notes,
    )
