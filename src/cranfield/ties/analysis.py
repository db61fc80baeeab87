"""When does tie-breaking matter?  Best/worst ranges over tie-breakings, and weak-order curves.

- :func:`tie_ranges`: per run and query, a measure under the worst tie-breaking, trec_eval's,
  the expectation over uniformly random tie-breaking (the ``weak`` policy) and the best.  The
  best order puts, within every tie group, the documents in decreasing grade (relevant first),
  the worst in increasing grade: moving a higher-graded document above a lower-graded one never
  lowers AP, P@k or nDCG@k (gains increasing in the grade), so these are the exact extremes over
  all tie-breakings (checked by enumeration in the tests).
- :func:`weak_curves`: averaged curves of Raghavan, Jung & Bollmann ("A Critical Investigation of
  Recall and Precision as Measures of Retrieval System Performance", ACM TOIS 7(3), 1989) sec. 4:
  precision at recall levels (default .1 .3 .5 .7 .9) by PRR and PRECALL under ceiling and intuitive
  interpolation, averaged over queries (over NR, Tables I-VIII), and expected recall and precision
  at chosen ND values (averaged over ND, Tables IX-XII), each with the average over the levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.errors import ParameterError, UndefinedMeasureWarning
from cranfield.errors import warn as _warn  # (warn= is a parameter below)
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings
from cranfield.judging.runs import JudgedRuns
from cranfield.measures import parse
from cranfield.results.aggregate import aggregate_values
from cranfield.ties.levels import levels

__all__ = [
    "RANGE_MEASURES",
    "RECALL_LEVELS",
    "TieRange",
    "WeakCurves",
    "reorder_ties",
    "tie_range",
    "tie_ranges",
    "weak_curves",
    "weak_curves_judged",
]

RANGE_MEASURES = ("AP", "P@10", "nDCG@10")
RECALL_LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)
ND_VALUES = (5, 10, 20, 50, 100)
CURVE_METHODS = (
    ("PRR", "ceiling"),
    ("PRR", "intuitive"),
    ("PRECALL", "ceiling"),
    ("PRECALL", "intuitive"),
)


def _judged(
    qrels: Any, runs: Any, names: Any, judge_args: dict[str, Any], ties: str
) -> tuple[JudgedRuns, JudgeOptions]:
    """The runs to analyse, judged under ``ties`` (the analysis's own tie policy)."""
    from cranfield.judging.runs import judge_many

    options = JudgeOptions.from_keywords(judge_args, fixed={"ties": ties})
    return judge_many(qrels, runs, names=names, options=options), options


_BEYOND_GRADES = {
    "prefs": "preference",
    "judgment_groups": "judgment-group",
    "subtopics": "subtopic",
}
"""Judgments besides the grades: the best and worst orders of a tie group (relevant documents
first or last, by grade) are not those of a measure that reads them."""


def grades_alone(m: Any) -> bool:
    """Whether the measure ``m`` reads no judgments besides the grades (then the orders that
    put a tie group's relevant documents first or last give its best and worst values)."""
    return not any(n in _BEYOND_GRADES for n in m.definition.needs)


def _range_measures(measures: Any) -> list[tuple[str, Any]]:
    specs = [(str(m), parse(m)) for m in A.measure_list(measures, RANGE_MEASURES)]
    for label, m in specs:
        beyond = [n for n in m.definition.needs if n in _BEYOND_GRADES]
        if beyond:
            raise ParameterError(
                f"{label}: the tie analysis orders each tie group by grade (relevant documents "
                f"first for the best value, last for the worst), but {label} reads "
                f"{_BEYOND_GRADES[beyond[0]]} judgments, so those orders are not its best "
                "and worst; evaluate it with --ties weak (its expectation over tie-breaking), "
                "if it has a tie-aware form, or under trec_eval's order"
            )
    return specs


def _weak_levels(recall: Any, nd: Any, rel: Any) -> tuple[tuple[float, ...], tuple[int, ...], int]:
    """The recall levels (each in [0, 1]), ND values (each >= 1) and ``rel``, checked."""
    for what, values in (("recall levels", recall), ("ND values", nd)):
        if not isinstance(values, list | tuple | np.ndarray):
            raise ParameterError(f"{what} must be a list of numbers, got {values!r}")
    levels_ = tuple(A.number(x, "a recall level") for x in recall)
    for x in levels_:
        if not 0.0 <= x <= 1.0:
            raise ParameterError(f"recall levels must be between 0 and 1, got {x}")
    nds = tuple(A.integer(k, "an ND value", minimum=1) for k in nd)
    return levels_, nds, A.integer(rel, "rel")


# ---------------------------------------------------------------------------- ranges
def reorder_ties(jr: JudgedRankings, best: bool) -> JudgedRankings:
    """``jr`` with every tie group sorted by grade, descending (``best``) or ascending."""
    lv = levels(jr, True)
    g = jr.grades
    o = np.lexsort((-g if best else g, lv.level_of_row()))
    known = None if jr.known is None else replace(jr.known, rows=jr.known.rows[o])
    sub = jr.subtopics
    sub = None if sub is None else replace(sub, pair_of_row=sub.pair_of_row[o])
    return replace(jr, grades=g[o], scores=jr.scores[o], known=known, subtopics=sub, ties="trec")


@dataclass(frozen=True, eq=False)
class TieRange:
    """Per query and measure: worst, trec_eval's, expected and best value over tie-breakings."""

    run: str
    query_ids: tuple[str, ...]
    labels: tuple[str, ...]
    worst: np.ndarray  # queries x measures
    trec: np.ndarray
    expected: np.ndarray
    best: np.ndarray
    tied: np.ndarray  # per query: a tie group of more than one document
    rel_tied: np.ndarray  # per query: such a group holds a relevant document
    notes: dict = field(default_factory=dict)

    def summary(self) -> list[dict[str, Any]]:
        """Per measure: means over queries of each column, the range, and counts."""
        rows = []
        for j, label in enumerate(self.labels):
            mean = {
                k: aggregate_values(getattr(self, k)[:, j], "mean")
                for k in ("worst", "trec", "expected", "best")
            }
            rows.append(
                {
                    "measure": label,
                    "queries": len(self.query_ids),
                    "tied": int(self.tied.sum()),
                    "rel_tied": int(self.rel_tied.sum()),
                    "changed": int(np.count_nonzero(self.best[:, j] != self.worst[:, j])),
                    **mean,
                    "range": mean["best"] - mean["worst"],
                }
            )
        return rows

    def to_dict(self, *, per_query: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.run, "summary": self.summary()}
        if per_query:
            out["per_query"] = {
                q: {
                    label: {
                        k: float(getattr(self, k)[i, j])
                        for k in ("worst", "trec", "expected", "best")
                    }
                    for j, label in enumerate(self.labels)
                }
                for i, q in enumerate(self.query_ids)
            }
        return out


def tie_range(
    jr: JudgedRankings,
    measures: str | Sequence[str] | None = RANGE_MEASURES,
    *,
    run_name: str | None = None,
    trec: JudgedRankings | None = None,
    rel: int | None = None,
) -> TieRange:
    """Worst / trec / expected / best values of ``measures`` on judged rankings ``jr``.

    The ``trec`` column is the plain measure on ``trec`` (default ``jr``) as ordered: judge
    with ``ties="trec"`` for trec_eval's order.  With a depth cut, judge ``jr`` with
    ``ties="weak"`` (a tie group the cut splits is then kept whole, and the other columns
    range over which of its documents are retrieved) and pass the ``trec`` judgement too, as
    :func:`tie_ranges` does.  ``rel``: the minimum grade counted relevant by the measures
    whose string does not set it, and by ``rel_tied`` (trec_eval's ``-l``; default 1).
    """
    specs = _range_measures(measures)
    defaults = None if rel is None else {"rel": A.integer(rel, "rel")}
    for _, m in specs:
        m.definition.function("weak")
    linear = replace(trec if trec is not None else jr, ties="trec").truncated()
    best = reorder_ties(jr, True).truncated()
    worst = reorder_ties(jr, False).truncated()
    weak = replace(jr, ties="weak")

    def table(j: JudgedRankings) -> np.ndarray:
        cols = [m.compute(j, defaults) for _, m in specs]
        return np.column_stack(cols) if cols else np.zeros((j.num_queries, 0))

    lv = levels(jr, True)
    big = lv.size > 1
    has_rel = lv.count_where(jr.relevant(1 if rel is None else rel)) > 0
    tied = np.bincount(lv.query[big], minlength=jr.num_queries) > 0
    rel_tied = np.bincount(lv.query[big & has_rel], minlength=jr.num_queries) > 0
    order = sorted(range(jr.num_queries), key=jr.query_ids.__getitem__)
    return TieRange(
        run=run_name or jr.run_name,
        query_ids=tuple(jr.query_ids[i] for i in order),
        labels=tuple(label for label, _ in specs),
        worst=table(worst)[order],
        trec=table(linear)[order],
        expected=table(weak)[order],
        best=table(best)[order],
        tied=tied[order],
        rel_tied=rel_tied[order],
        notes=dict(jr.notes),
    )


def tie_ranges(
    qrels: Any,
    runs: Any,
    measures: str | Sequence[str] | None = RANGE_MEASURES,
    *,
    names: Sequence[str] | None = None,
    **judge_args: Any,
) -> list[TieRange]:
    """:func:`tie_range` for one run, a list or a dict of runs (paths, DataFrames, dicts,
    Runs); ``names`` and ``judge_args`` (the judging options of :func:`cranfield.evaluate`
    but ``ties``, which the analysis sets) as there."""
    judged, options = _judged(qrels, runs, names, judge_args, "trec")
    for _, m in _range_measures(measures):  # fail before reading
        m.definition.function("weak")
    rel = options.rel
    if options.depth is None:
        return [tie_range(jr, measures, run_name=name, rel=rel) for name, jr in judged]
    weak = options.replace(ties="weak")  # keeps a tie group the cut splits
    return [
        tie_range(w, measures, run_name=name, trec=t, rel=rel)
        for name, (t, w) in judged.each((options, weak))
    ]


# ---------------------------------------------------------------------------- curves
@dataclass(frozen=True, eq=False)
class WeakCurves:
    """Averaged weak-order curves of one run (Raghavan, Jung & Bollmann 1989, sec. 4).

    ``by_recall[method][i]`` is the mean over queries at ``recall[i]``; ``method`` is e.g.
    ``"PRR ceiling"``.  ``er[i]``, ``ep[i]`` are the means at ``nd[i]``.  ``average`` holds the
    mean over the levels of each column (the tables' "Average" row).
    """

    run: str
    queries: int
    recall: tuple[float, ...]
    by_recall: dict[str, tuple[float, ...]]
    nd: tuple[int, ...]
    er: tuple[float, ...]
    ep: tuple[float, ...]
    average: dict[str, float]
    unmet: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.run,
            "queries": self.queries,
            "recall": list(self.recall),
            "precision_at_recall": {k: list(v) for k, v in self.by_recall.items()},
            "nd": list(self.nd),
            "ER": list(self.er),
            "EP": list(self.ep),
            "average": dict(self.average),
            "unmet": dict(self.unmet),
        }


def weak_curves_judged(
    jr: JudgedRankings,
    recall: Sequence[float] = RECALL_LEVELS,
    nd: Sequence[int] = ND_VALUES,
    *,
    rel: int = 1,
    run_name: str | None = None,
    warn: bool = True,
) -> WeakCurves:
    """The averaged curves of ``jr`` (levels = tie groups under ``weak``, else documents).

    Queries with no relevant document are excluded (precision at a recall level is undefined
    for them); a recall level a ranking cannot reach scores 0 (counted in ``unmet``).
    """
    recall, nd, rel = _weak_levels(recall, nd, rel)
    has_rel = jr.num_rel(rel) > 0
    nq = int(has_rel.sum())
    if nq == 0:
        raise ParameterError(f"{run_name or jr.run_name}: no query has a relevant document")

    def mean_of(text: str) -> float:
        m = parse(text)
        return aggregate_values(m.compute(jr)[has_rel], "mean")

    by_recall: dict[str, tuple[float, ...]] = {}
    unmet: dict[str, int] = {}
    for name, how in CURVE_METHODS:
        label = f"{name} {how}"
        by_recall[label] = tuple(
            mean_of(f"{name}(recall={x!r},interpolation={how},rel={rel})") for x in recall
        )
    for x in recall:
        m = parse(f"PRR(recall={x!r},rel={rel})")
        mask = m.definition.undefined[1].mask(jr, **m.resolve())
        unmet[repr(x)] = int(np.count_nonzero(mask))
    er = tuple(mean_of(f"ER(ND={k},rel={rel})") for k in nd)
    ep = tuple(mean_of(f"EP(ND={k},rel={rel})") for k in nd)
    average = {label: aggregate_values(np.array(v), "mean") for label, v in by_recall.items()}
    if nd:
        average["ER"] = aggregate_values(np.array(er), "mean")
        average["EP"] = aggregate_values(np.array(ep), "mean")
    name = run_name or jr.run_name
    missed = {x: c for x, c in unmet.items() if c}
    if warn and missed:
        detail = ", ".join(f"{c} at recall {x}" for x, c in missed.items())
        _warn(
            UndefinedMeasureWarning(
                f"{name}: some queries retrieve too few relevant documents to reach a recall "
                f"level ({detail} of {nq}); scored 0"
            )
        )
    return WeakCurves(
        run=name,
        queries=nq,
        recall=recall,
        by_recall=by_recall,
        nd=nd,
        er=er,
        ep=ep,
        average=average,
        unmet=unmet,
    )


def weak_curves(
    qrels: Any,
    runs: Any,
    recall: Sequence[float] = RECALL_LEVELS,
    nd: Sequence[int] = ND_VALUES,
    *,
    rel: int = 1,
    names: Sequence[str] | None = None,
    **judge_args: Any,
) -> list[WeakCurves]:
    """:func:`weak_curves_judged` for one run, a list or a dict of runs, under the ``weak``
    policy; ``names`` and ``judge_args`` as for :func:`tie_ranges`."""
    judged, _ = _judged(qrels, runs, names, judge_args, "weak")
    _weak_levels(recall, nd, rel)  # fail before reading
    return [weak_curves_judged(jr, recall, nd, rel=rel, run_name=name) for name, jr in judged]
