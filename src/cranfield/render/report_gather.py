"""What a report takes from the runs (:func:`cranfield.report`): each run read and judged
once (:func:`~cranfield.judging.runs.judge_many`), and while it is in memory its
:class:`~cranfield.results.tables.Results` (:func:`~cranfield.evaluation.evaluate_judged`), its
precision-recall and gain curves and its tie ranges; then the comparison, the intervals of the
means and, with other judgment sets, the leaderboards' agreement.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.options import JudgeOptions
from cranfield.render.report_data import PR_LEVELS, CollectionSummary

__all__ = ["gather", "interval_table", "leaderboard_agreement", "mean_intervals"]


def gather(
    qrels: Any,
    runs: Any,
    names: Any,
    options: JudgeOptions,
    specs: list[tuple[str, Any]],
    labels: list[str],
    stats: dict[str, Any],
    baseline: str | None,
    interpolation: str,
    ranks: int,
    mean_ci: str = "t",
    bounds: bool = False,
) -> dict[str, Any]:
    """Read each run once and keep what the report needs of it; then compare."""
    import pandas as pd

    from cranfield.comparing import compare
    from cranfield.curves import gain, precision_recall
    from cranfield.evaluation.runs import evaluate_judged, with_metadata
    from cranfield.judging.runs import judge_many
    from cranfield.results.tables import ResultsSet
    from cranfield.ties.analysis import grades_alone, tie_range

    tie_labels = []
    for label, m in specs:
        try:
            m.definition.function("weak")
        except ParameterError:
            continue
        if label in labels and grades_alone(m):  # best/worst by grade are its extremes
            tie_labels.append(label)
    variants = [options]  # the measures' judgement, then trec_eval's and weak ones if needed
    trec = weak = 0
    if options.ties != "trec":
        variants.append(options.replace(ties="trec"))
        trec = len(variants) - 1
    if options.depth is not None and options.ties != "weak":
        variants.append(options.replace(ties="weak"))  # the ranges keep a split tie group whole
        weak = len(variants) - 1
    judged = judge_many(qrels, runs, names=names, options=options)
    metadata: dict[str, Any] = {}  # each run's ir_metadata, kept as the run is read
    judged.on_run = lambda name, run: metadata.__setitem__(name, run.metadata)
    if len(judged) < 2:
        raise ParameterError(f"a report compares runs: it needs at least 2, got {len(judged)}")
    measured = specs
    if bounds:  # each measure followed by its bounds, compared as measures are
        from cranfield.judgments.bounds import bounded

        measured = bounded(specs)
        labels = [f"{m}{s}" for m in labels for s in ("", ":lo", ":hi")]
    results, prs, gains, ranges = [], [], [], []
    run_notes: dict[str, dict[str, int]] = {}
    rel = 1 if options.rel is None else options.rel
    for i, (name, jrs) in enumerate(judged.each(variants)):
        jr = jrs[0]
        results.append(
            with_metadata(
                evaluate_judged(
                    jr,
                    measured,
                    run_name=name,
                    qrels=judged.qrels,
                    defaults=options.defaults,
                    warn_agg=i == 0,
                ),
                metadata.pop(name, None),
            )
        )
        run_notes[name] = {
            "missing": len(jr.notes.get("missing_queries", [])),
            "run_only": len(jr.notes.get("run_only_queries", [])),
        }
        curve_jr = jrs[trec] if jr.cut else jr  # a curve reads whole positions
        named = curve_jr if curve_jr.run_name == name else _renamed(curve_jr, name)
        prs.append(precision_recall(named, interpolation=interpolation, levels=PR_LEVELS, rel=rel))
        top = min(ranks, max(int(named.max_rank), 1))
        gains.append(gain(named, cutoffs=list(range(1, top + 1))))
        if tie_labels:
            ranges.append(
                tie_range(
                    jrs[weak] if options.depth is not None else jrs[trec],
                    tie_labels,
                    run_name=name,
                    trec=jrs[trec],
                    rel=options.rel,
                )
            )
    rs = ResultsSet(tuple(results))
    comparison = compare(rs, labels, baseline=baseline, missing="intersect", **stats)
    means = mean_intervals(rs, comparison, mean_ci)
    return {
        "intervals": interval_table(comparison, means),
        "mean_intervals": means,
        "comparison": comparison,
        "results": rs,
        "collection": CollectionSummary.of(judged.qrels, rel),
        "pr": pd.concat(prs, ignore_index=True),
        "gain": pd.concat(gains, ignore_index=True),
        "ties": tuple(ranges),
        "tie_labels": tuple(tie_labels),
        "run_notes": run_notes,
    }


def interval_table(c: Any, means: Any) -> dict[str, dict[str, tuple[float, float]]]:
    """Per measure and run the interval of the run's mean (the measures with one)."""
    if means is None:
        return {}
    return {
        label: {r: ci for r in c.runs if (ci := means.get(r, label)) is not None}
        for label in c.labels
        if any(means.get(r, label) is not None for r in c.runs)
    }


def leaderboard_agreement(
    qrels: Any,
    judgments: Sequence[Any],
    runs: Any,
    names: Any,
    options: JudgeOptions,
    labels: list[str],
    stats: dict[str, Any],
    baseline: str | None,
    top_k: int,
) -> Any:
    """The leaderboards of the runs under ``qrels`` and each of ``judgments``, compared."""
    from cranfield.judgments.leaderboard_runs import leaderboards

    if isinstance(judgments, str | os.PathLike) or not isinstance(judgments, list | tuple):
        raise ParameterError("judgments must be a list of judgment sets")
    o = options
    return leaderboards(
        [qrels, *judgments],
        runs,
        labels,
        top_k=top_k,
        names=names,
        baseline=baseline,
        complete=o.complete,
        ties=o.ties,
        depth=o.depth,
        judged_only=o.judged_only,
        rel=o.rel,
        jobs=1,
        **{k: v for k, v in stats.items() if k != "ci"},
    )


def mean_intervals(rs: Any, c: Any, method: str) -> Any:
    """The interval (confidence 1 - alpha; the bootstrap's resamples and seed the
    comparison's) of each run's mean over the compared queries, per measure averaged
    arithmetically: :func:`~cranfield.comparing.intervals.mean_interval` on the run's values
    in its own order of queries (``strcmp``, as ``evaluate(..., ci=method)``: the same
    resamples give the same interval)."""
    from cranfield.comparing.intervals import RunIntervals, mean_interval

    settings = {"confidence": 1.0 - c.alpha, "samples": c.permutations, "seed": c.seed}
    out: dict[str, dict[str, tuple[float, float] | None]] = {r: {} for r in c.runs}
    for label in c.labels:
        compared = set(c.query_ids[label])
        for r in rs:
            if r.aggregation_of(label) != "mean":
                out[r.run][label] = None
                continue
            keep = np.fromiter((q in compared for q in r.query_ids), bool, len(r.query_ids))
            x = r.column(label)[keep]
            out[r.run][label] = mean_interval(x, method, what=f"{r.run}, {label}", **settings)
    return RunIntervals(method, values=out, **settings)


def _renamed(jr: Any, name: str) -> Any:
    import dataclasses

    return dataclasses.replace(jr, run_name=name)
