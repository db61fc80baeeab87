"""One run's averaged precision-recall curve and its per-query values, as column dicts: at
recall levels (each query's curve interpolated by :mod:`.interpolate`, then averaged level by
level; Keen's reference run and Raghavan et al.'s weak orderings) or at document cut-offs
(averaged over ND, micro or macro; read at recall levels when some are given).  The method is
a checked :class:`~cranfield.curves.pr.PRSpec`; :func:`cranfield.curves.precision_recall`
calls :func:`curve_of` for each run.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.curves.average import column_statistic
from cranfield.curves.cutoffs import read_at_levels, relevant_at
from cranfield.curves.inputs import align, collection_sizes
from cranfield.curves.interpolate import CRANFIELD, at_levels
from cranfield.curves.precall import WeakLevels
from cranfield.curves.steps import Steps
from cranfield.errors import UndefinedMeasureWarning, warn
from cranfield.judging.rankings import JudgedRankings

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.curves.pr import PRSpec

__all__ = ["BLOCK", "curve_of"]


BLOCK = 256  # cut-offs per block (bounds memory at queries x BLOCK)


def _warn_no_relevant(steps: Steps, what: str) -> None:
    k = int((steps.R == 0).sum())
    if k:
        warn(f"{k} queries have no relevant document: {what}", UndefinedMeasureWarning)


def curve_of(
    jr: JudgedRankings,
    spec: PRSpec,
    *,
    rel: int = 1,
    reference: JudgedRankings | None = None,
    keep: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One run's averaged curve and (if ``keep``) per-query values, as column dicts."""
    steps = Steps.of(jr, rel)
    if spec.mode == "cutoffs":
        return _by_cutoffs(jr, steps, spec, keep)
    if spec.interpolation in CRANFIELD:
        _warn_no_relevant(steps, "they have no curve and enter no average (Keen sec. 4C)")
    else:
        _warn_no_relevant(steps, "precision 0 is used at every level (as trec_eval)")
    empty = None
    if spec.interpolation in ("trec", "trec9"):
        # trec_eval evaluates a query missing from the run (-c) as a one-document dummy
        # ranking, which -M 0 and -J remove as well
        dummy = 0 if jr.judged_only or jr.depth == 0 else 1
        empty = np.where(jr.in_run, steps.n, dummy) == 0
        if empty.any():
            warn(
                f"{int(empty.sum())} queries rank no document (depth 0 or judged-only): their "
                "precision is NaN where c = 0, as trec_eval's -nan",
                UndefinedMeasureWarning,
            )
    weak_levels = remainder = ref_end = None
    if spec.interpolation == "ceiling" and spec.weak:
        weak_levels = WeakLevels.of(jr, rel=rel, weak=True)
        N = collection_sizes(jr, rel)
        if N is not None:
            remainder = (steps.n - steps.RR, N - steps.n - (steps.R - steps.RR))
    if reference is not None:
        ref_steps = Steps.of(reference, rel)
        ref_lv = at_levels(
            ref_steps,
            [Fraction(1)],
            interpolation="quasi-cranfield",
            step=spec.step or "highest",
            extrapolation=spec.extrapolation or 5,
        )
        ref_end = align(ref_lv.values[:, 0], reference.query_ids, jr.query_ids, "reference run")
    assert spec.levels is not None
    lv = at_levels(
        steps,
        spec.levels,
        interpolation=spec.interpolation or "max",
        step=spec.step or "highest",
        extrapolation=spec.extrapolation or 5,
        weak_levels=weak_levels,
        remainder=remainder,
        reference_end=ref_end,
        empty=empty,
    )
    value, queries = column_statistic(lv.values, lv.entered, spec.statistic)
    extrap = (lv.entered & lv.extrapolated).sum(axis=0).astype(np.int64)
    levels = np.array([float(x) for x in spec.levels])
    if (queries == 0).any():
        empty = ", ".join(f"{x:g}" for x in levels[queries == 0])
        warn(
            f"run {jr.run_name!r}: no query enters the average at recall level(s) {empty}; "
            "the value is NaN",
            UndefinedMeasureWarning,
        )
    table = {
        "run": [jr.run_name] * len(levels),
        "level": levels,
        "value": value,
        "queries": queries,
        "extrapolated": extrap,
    }
    Q, L = lv.values.shape
    per_query = {
        "run": [jr.run_name] * (Q * L),
        "query_id": np.repeat(np.array(jr.query_ids, dtype=object), L),
        "level": np.tile(levels, Q),
        "value": np.where(lv.entered, lv.values, np.nan).ravel(),
        "extrapolated": (lv.entered & lv.extrapolated).ravel(),
    }
    return table, per_query


def _cutoff_list(spec: PRSpec, steps: Steps) -> np.ndarray:
    if spec.cutoffs == "all":
        top = max(int(steps.n.max(initial=0)), 1)
        return np.arange(1, top + 1, dtype=np.int64)
    return np.asarray(spec.cutoffs, dtype=np.int64)


def _by_cutoffs(jr: JudgedRankings, steps: Steps, spec: PRSpec, keep: bool):
    _warn_no_relevant(steps, "their recall is taken as 0 at every document cut-off")
    ks = _cutoff_list(spec, steps)
    Q = steps.num_queries
    Rf = steps.R.astype(np.float64)
    recall = np.zeros(len(ks))
    precision = np.zeros(len(ks))
    pq_rec: list[np.ndarray] = []
    pq_prec: list[np.ndarray] = []
    for start in range(0, len(ks), BLOCK):
        k = ks[start : start + BLOCK]
        relk = relevant_at(steps, k)
        rec = np.zeros(relk.shape)
        np.divide(relk, Rf[:, None], out=rec, where=Rf[:, None] > 0)
        prec = relk / k[None, :].astype(np.float64)
        sl = slice(start, start + len(k))
        if spec.average == "micro":
            total_R = Rf.sum()
            recall[sl] = relk.sum(axis=0) / total_R if total_R > 0 else 0.0
            precision[sl] = relk.sum(axis=0) / (Q * k.astype(np.float64)) if Q else np.nan
        else:
            ones = np.ones(relk.shape, dtype=bool)
            recall[sl] = column_statistic(rec, ones, spec.statistic)[0]
            precision[sl] = column_statistic(prec, ones, spec.statistic)[0]
        if keep:
            pq_rec.append(rec)
            pq_prec.append(prec)
    rec_all = np.concatenate(pq_rec, axis=1) if pq_rec else np.zeros((Q, 0))
    prec_all = np.concatenate(pq_prec, axis=1) if pq_prec else np.zeros((Q, 0))
    name = jr.run_name
    if spec.levels is not None:
        value, left = read_at_levels(recall, precision, spec.levels)
        levels = np.array([float(x) for x in spec.levels])
        table = {
            "run": [name] * len(levels),
            "level": levels,
            "value": value,
            "queries": np.full(len(levels), Q, dtype=np.int64),
            "extrapolated": np.where(left, Q, 0).astype(np.int64),
        }
    else:
        table = {
            "run": [name] * len(ks),
            "level": recall,
            "value": precision,
            "queries": np.full(len(ks), Q, dtype=np.int64),
            "extrapolated": np.zeros(len(ks), dtype=np.int64),
            "cutoff": ks,
        }
    if not keep:
        return table, {}
    K = len(ks)
    per_query = {
        "run": [name] * (Q * K),
        "query_id": np.repeat(np.array(jr.query_ids, dtype=object), K),
        "cutoff": np.tile(ks, Q),
        "level": rec_all.ravel(),
        "value": prec_all.ravel(),
    }
    return table, per_query
