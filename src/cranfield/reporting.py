"""``cranfield.report(...)``: one self-contained HTML file about a set of runs.

Every run is read and judged once (:func:`~cranfield.judging.runs.judge_many`), and while it
is in memory the report takes from it everything it shows: its
:class:`~cranfield.results.tables.Results`
(:func:`~cranfield.evaluation.evaluate_judged`), its precision-recall and gain curves
(:func:`cranfield.curves.precision_recall`, :func:`cranfield.curves.gain` on the judged
rankings) and its tie ranges (:func:`cranfield.ties.analysis.tie_range`); then
:func:`cranfield.compare` compares the results.  The page itself is rendered by
:mod:`cranfield.render.html` from these objects; nothing here formats a number.

This module holds the entry points (their arguments checked, the provenance, the warnings
collected); the gathering is :mod:`cranfield.render.report_gather`, the report's data
:mod:`cranfield.render.report_data` (its names stay importable from here).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cranfield.base import arguments as A
from cranfield.base import progress
from cranfield.errors import ParameterError
from cranfield.judging.options import JudgeOptions
from cranfield.render.report_data import GAIN_RANKS, CollectionSummary, Report, ReportData
from cranfield.render.report_gather import (
    gather,
    interval_table,
    leaderboard_agreement,
    mean_intervals,
)

__all__ = ["GAIN_RANKS", "CollectionSummary", "Report", "ReportData", "nugget_report", "report"]


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
            gathered = gather(
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
                gathered["leaderboard"] = leaderboard_agreement(
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
            means = None if mean_ci is None else mean_intervals(rs, comparison, mean_ci)
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
        intervals=interval_table(comparison, means),
        mean_intervals=means,
    )
    with progress.task("writing the report"):
        page = render_report(data)
    out = Report(page, data)
    if output is not None:
        out.save(output)
    return out
