"""``cranfield.report(...)``: one self-contained HTML file about a set of runs.

Every run is read and judged once (:func:`~cranfield.judging.runs.judge_many`), and while it
is in memory the report takes from it everything it shows: its
:class:`~cranfield.results.tables.Results`
(:func:`~cranfield.evaluation.evaluate_judged`), its precision-recall and gain curves
(:func:`cranfield.curves.precision_recall`, :func:`cranfield.curves.gain` on the judged
rankings) and its tie ranges (:func:`cranfield.ties.analysis.tie_range`); then
:func:`cranfield.compare` compares the results.  The page itself is rendered by
:mod:`cranfield.render.html` from these objects; nothing here formats a number.
"""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.base import progress
from cranfield.errors import ParameterError
from cranfield.judging.options import JudgeOptions

__all__ = ["GAIN_RANKS", "CollectionSummary", "Report", "ReportData", "nugget_report", "report"]

GAIN_RANKS = 100
"""Ranks of the gain curves by default (each run's curve stops at its deepest ranking)."""
PR_LEVELS = 11


def _shown(path: str) -> str:
    from cranfield.render.provenance import display_path

    return display_path(path)


@dataclass(frozen=True)
class CollectionSummary:
    """What the qrels hold: queries, judgments, distinct judged documents, relevant judgments
    (grade >= ``rel``) and the number of judgments at each grade."""

    source: str
    queries: int
    judgments: int
    documents: int
    relevant: int
    rel: int
    grades: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, qrels: Any, rel: int) -> CollectionSummary:
        grades, counts = np.unique(np.asarray(qrels.grades), return_counts=True)
        return cls(
            source=_shown(str(qrels.source)),
            queries=qrels.num_queries,
            judgments=len(qrels),
            documents=len(qrels.doc_vocabulary),
            relevant=int(np.count_nonzero(np.asarray(qrels.grades) >= rel)),
            rel=rel,
            grades=tuple((int(g), int(c)) for g, c in zip(grades, counts, strict=True)),
        )


@dataclass(frozen=True, eq=False)
class ReportData:
    """Everything a report shows, as the project's result objects."""

    title: str
    comparison: Any  # Comparison
    results: Any  # ResultsSet
    collection: CollectionSummary | None  # None: no qrels (nugget scores)
    pr: Any  # DataFrame of cranfield.curves.precision_recall, all runs; None without rankings
    gain: Any  # DataFrame of cranfield.curves.gain, all runs; None without rankings
    ties: tuple[Any, ...]  # TieRange per run
    tie_labels: tuple[str, ...]  # measures ranged over tie-breakings
    settings: dict[str, Any]
    provenance: Any  # report.provenance.Provenance
    notes: tuple[str, ...] = ()  # the warnings raised while gathering, each once
    digits: int = 4
    run_notes: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per run: judged queries it has no results for, queries it has that are not judged."""
    intervals: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Per measure and run: the interval of the run's mean (arithmetic means), by the method
    of ``mean_intervals``."""
    mean_intervals: Any = None
    """The :class:`~cranfield.comparing.intervals.RunIntervals` of the means: their method and
    settings, and the values of ``intervals`` by run."""
    leaderboard: Any = None
    """With ``judgments=``: the leaderboards' agreement between the qrels and the other sets
    (:class:`~cranfield.judgments.leaderboard.LeaderboardAgreement`)."""


@dataclass(frozen=True, eq=False)
class Report:
    """A rendered report: ``html`` (the page), ``data`` (what it shows); :meth:`save` writes
    it, and a notebook shows it inline."""

    html: str
    data: ReportData

    def save(self, path: str | Path) -> Path:
        from cranfield.base.output_files import write_text_file

        write_text_file(path, self.html)
        return Path(path)

    def _repr_html_(self) -> str:  # notebooks: the page in a frame of its own (its CSS apart)
        from html import escape

        return (
            f'<iframe srcdoc="{escape(self.html, quote=True)}" '
            'style="width:100%;height:700px;border:1px solid #8884"></iframe>'
        )

    def __repr__(self) -> str:
        c = self.data.comparison
        return (
            f"<Report {self.data.title!r}: {len(c.runs)} runs x {len(c.labels)} measures, "
            f"{c.notes.get('queries')} queries, {len(self.html):,} characters>"
        )


def report(
    qrels: Any,
    runs: Any,
    measures: str | Sequence[str] | None = None,
    *,
    output: str | Path | None = None,
    title: str | None = None,
    test: str = "t",
    correction: str | None = "none",
    baseline: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    ci: str | None = None,
    mean_ci: str = "t",
    interpolation: str = "max",
    gain_ranks: int = GAIN_RANKS,
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
    digits: int = 4,
    timestamp: bool = False,
    command: str | None = None,
    judgments: Sequence[Any] = (),
    top_k: int = 10,
    bounds: bool = False,
) -> Report:
    """An HTML evaluation report of ``runs`` on ``qrels`` (docs/report.md).

    The comparison's arguments (``measures``, ``test``, ``correction``, ``baseline``,
    ``alpha``, ``alternative``, ``permutations``, ``seed``, ``ci``) and the judging options
    (``complete`` -- on by default, as in :func:`cranfield.compare` --, ``ties``, ``depth``,
    ``judged_only``, ``names``, ``collection_size``, ``known``, ``target``, ``prefs``,
    ``judgment_groups``, ``subtopics``, ``rel``) are those of :func:`cranfield.compare`.
    ``bounds``: each measure's pessimistic and optimistic bounds over the runs' unjudged
    documents (``label:lo``, ``label:hi``; :mod:`cranfield.judgments.bounds`) compared and shown
    after it, as ``compare(..., bounds=True)`` does.
    ``mean_ci``: the interval of each run's mean in the summary, ``t``, ``bootstrap`` or
    ``bca`` (as ``evaluate(..., ci=...)``, at confidence 1 - ``alpha``, the bootstrap with
    ``permutations`` resamples drawn from ``seed``).
    ``interpolation``: the precision-recall method
    (``max``, ``trec``, ``trec9``, ``ceiling``, ``quasi-cranfield``, ``semi-cranfield``; 11
    recall levels); ``gain_ranks``: the ranks of the gain curves; ``digits``: decimals shown;
    ``timestamp``: note the time of writing (off: the same inputs give the same bytes);
    ``command``: the command line to show (the command line tool passes its own; by default
    the call is shown).  ``output``: also write the page to this file.

    ``judgments``: other judgment sets of the same queries (paths, tables, dicts, Qrels):
    the report then adds a section comparing the runs' leaderboards under ``qrels`` and under
    each of them (:func:`cranfield.leaderboards`, every set against ``qrels``, tau_b among
    the runs in the top ``top_k``; the runs are read once more for it).
    """
    call = dict(locals())  # the arguments as given, for the provenance
    from cranfield.comparing.pair_tests import check_settings
    from cranfield.comparing.result import direction
    from cranfield.curves.interpolate import INTERPOLATIONS
    from cranfield.evaluation import DEFAULT_MEASURES, measure_specs

    stats = check_settings(test, correction, alternative, alpha, permutations, seed, ci)
    from cranfield.comparing.intervals import INTERVALS

    if not isinstance(mean_ci, str) or mean_ci not in INTERVALS:
        raise ParameterError(
            f"unknown interval {mean_ci!r} of the means; choose one of {', '.join(INTERVALS)}"
        )
    if baseline is not None and not isinstance(baseline, str):
        raise ParameterError(f"baseline must be a run name, got {baseline!r}")
    if interpolation not in INTERPOLATIONS or interpolation == "none":
        choices = ", ".join(i for i in INTERPOLATIONS if i != "none")
        raise ParameterError(f"unknown interpolation {interpolation!r}; choose one of {choices}")
    gain_ranks = A.integer(gain_ranks, "gain_ranks", minimum=1, maximum=100_000)
    digits = A.integer(digits, "digits", maximum=17)
    timestamp = A.flag(timestamp, "timestamp")
    if title is not None and not isinstance(title, str):
        raise ParameterError(f"title must be text, got {title!r}")
    if command is not None and not isinstance(command, str):
        raise ParameterError(f"command must be text, got {command!r}")
    if output is not None:
        from cranfield.base.output_files import check_output_file

        check_output_file(output)
    options = JudgeOptions.of(locals())
    labels = [str(m) for m in A.measure_list(measures, DEFAULT_MEASURES)]
    specs = measure_specs(list(dict.fromkeys([*labels, "NumRel"])))
    labels = list(dict.fromkeys(labels))
    for label, m in specs:
        m.definition.function(options.ties)  # no tie-aware form under "weak": fail now
        if label in labels and direction(m) == 0:
            raise ParameterError(
                f"{label} declares no direction (counts and diagnostics, better=none in "
                "'cranfield measures'): no run is better for a higher or a lower value, so a "
                "report does not compare runs by it"
            )
    from cranfield.render.provenance import provenance

    defaults = {
        k: p.default
        for k, p in inspect.signature(report).parameters.items()
        if p.kind == p.KEYWORD_ONLY
    }
    prov = provenance(call, defaults=defaults, command=command, timestamp=timestamp)
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            gathered = _gather(
                qrels,
                runs,
                names,
                options,
                specs,
                labels,
                stats,
                baseline,
                interpolation,
                gain_ranks,
                mean_ci,
                A.flag(bounds, "bounds"),
            )
            if judgments:
                gathered["leaderboard"] = _leaderboard(
                    qrels, judgments, runs, names, options, labels, stats, baseline, top_k
                )
    finally:  # each warning once, in the order raised (also when an error ends the work)
        for w in {str(w.message): w for w in caught}.values():
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    from cranfield.render.html import render_report

    data = ReportData(
        title=title if title is not None else "Evaluation report",
        provenance=prov,
        notes=tuple(dict.fromkeys(str(w.message) for w in caught)),
        digits=digits,
        settings={"interpolation": interpolation, "gain_ranks": gain_ranks, "options": options},
        **gathered,
    )
    with progress.task("writing the report"):
        page = render_report(data)
    out = Report(page, data)
    if output is not None:
        out.save(output)
    return out


def _gather(
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
    from cranfield.evaluation import evaluate_judged, with_metadata
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
    means = _intervals(rs, comparison, mean_ci)
    return {
        "intervals": _interval_table(comparison, means),
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


NUGGET_COUNTS = (("queries", "responses"), ("nuggets", "nuggets"), ("vital", "vital nuggets"))
"""The runs table of a nugget report: ``Results.summary`` keys and their column heads."""


def nugget_report(
    files: Any,
    scores: str | Sequence[str] | None = None,
    *,
    output: str | Path | None = None,
    title: str | None = None,
    test: str = "t",
    correction: str | None = "none",
    baseline: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    ci: str | None = None,
    mean_ci: str | None = None,
    digits: int = 4,
    timestamp: bool = False,
    command: str | None = None,
) -> Report:
    """An HTML report of RAG runs' nugget scores (docs/nuggets.md, "The report"):
    ``files`` are nugget-assignment files (or what :func:`cranfield.nuggets.read` returns),
    ``scores`` some of :data:`cranfield.nuggets.SCORES` (default: all four), scored by
    :func:`cranfield.nuggets.score` and compared by :func:`cranfield.compare` with the
    comparison's arguments (``test``, ``correction``, ``baseline``, ``alpha``,
    ``alternative``, ``permutations``, ``seed``, ``ci``).  The page is that of
    :func:`report` without the sections that need qrels and rankings (collection, curves,
    ties): the runs (responses, nuggets), the means (with ``mean_ci``: ``t``, ``bootstrap``
    or ``bca``, the interval of each run's mean at confidence 1 - ``alpha``, as in
    :func:`report`), the per-query table, the agreement of the scores, the pairwise tests,
    the notes and the provenance.  ``digits``, ``timestamp``, ``command``, ``output``: as in
    :func:`report` (the same inputs give the same bytes)."""
    call = dict(locals())
    from cranfield.comparing.build import check_settings
    from cranfield.comparing.intervals import INTERVALS

    stats = check_settings(test, correction, alternative, alpha, permutations, seed, ci)
    if mean_ci is not None and (not isinstance(mean_ci, str) or mean_ci not in INTERVALS):
        raise ParameterError(
            f"unknown interval {mean_ci!r} of the means; choose one of {', '.join(INTERVALS)}"
        )
    if baseline is not None and not isinstance(baseline, str):
        raise ParameterError(f"baseline must be a run name, got {baseline!r}")
    digits = A.integer(digits, "digits", maximum=17)
    timestamp = A.flag(timestamp, "timestamp")
    if title is not None and not isinstance(title, str):
        raise ParameterError(f"title must be text, got {title!r}")
    if command is not None and not isinstance(command, str):
        raise ParameterError(f"command must be text, got {command!r}")
    if output is not None:
        from cranfield.base.output_files import check_output_file

        check_output_file(output)
    from cranfield.nuggets.scores import score_list

    names = score_list(scores)  # fail before reading
    from cranfield.render.provenance import provenance

    defaults = {
        k: p.default
        for k, p in inspect.signature(nugget_report).parameters.items()
        if p.kind == p.KEYWORD_ONLY
    }
    prov = provenance(
        call,
        defaults=defaults,
        command=command,
        timestamp=timestamp,
        function="cranfield.reporting.nugget_report",
        positional=("files",),
        optional="scores",
    )
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            from cranfield.comparing import compare
            from cranfield.nuggets import score

            rs = score(files, names)
            if len(rs) < 2:
                raise ParameterError(f"a report compares runs: it needs at least 2, got {len(rs)}")
            comparison = compare(rs, names, baseline=baseline, missing="intersect", **stats)
            means = None if mean_ci is None else _intervals(rs, comparison, mean_ci)
    finally:  # each warning once, in the order raised (also when an error ends the work)
        for w in {str(w.message): w for w in caught}.values():
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    from cranfield.render.html import render_report

    data = ReportData(
        title=title if title is not None else "Nugget evaluation report",
        comparison=comparison,
        results=rs,
        collection=None,
        pr=None,
        gain=None,
        ties=(),
        tie_labels=(),
        settings={"run_counts": NUGGET_COUNTS},
        provenance=prov,
        notes=tuple(dict.fromkeys(str(w.message) for w in caught)),
        digits=digits,
        intervals=_interval_table(comparison, means),
        mean_intervals=means,
    )
    with progress.task("writing the report"):
        page = render_report(data)
    out = Report(page, data)
    if output is not None:
        out.save(output)
    return out


def _interval_table(c: Any, means: Any) -> dict[str, dict[str, tuple[float, float]]]:
    """Per measure and run the interval of the run's mean (the measures with one)."""
    if means is None:
        return {}
    return {
        label: {r: ci for r in c.runs if (ci := means.get(r, label)) is not None}
        for label in c.labels
        if any(means.get(r, label) is not None for r in c.runs)
    }


def _leaderboard(
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


def _intervals(rs: Any, c: Any, method: str) -> Any:
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
