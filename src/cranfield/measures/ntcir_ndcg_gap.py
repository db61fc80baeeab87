"""NTCIREVAL's MSnDCG and GAP (Sakai; Robertson, Kanoulas & Yilmaz): graded gains discounted
by ``log(r + 1)`` at every rank, and graded average precision over users who each set their
own relevance threshold.

The family ``ntcir`` (:mod:`cranfield.measures.ntcir` has the notation, the gains and the
condensed lists); sums are added in rank order as ``ntcir_eval.c`` adds them.
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_cumsum, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import c_log, ratio
from cranfield.measures.kernels.gains import Gains
from cranfield.measures.kernels.ntcir_lists import (
    Ranked,
    condensed_rankings,
    cut,
    gain_of,
    ideal_list,
    per_query,
    prefix_at,
    ranked,
)
from cranfield.measures.ntcir import (
    BURGES,
    CONDENSED,
    GAINS,
    NO_REL,
    NOTES,
    NTCIREVAL,
    ROBERTSON_GAP,
    UNVERIFIED,
    relevant_grades_only,
)
from cranfield.measures.registry import CUTOFF_OPTIONAL, measure

__all__ = ["gap", "msndcg"]


def _ideal_msdcg(jr: JudgedRankings, gains: Gains | None, cutoff: int | None) -> np.ndarray:
    ideal = ideal_list(jr, gains)
    pos = ideal.position
    keep = np.ones(len(pos), dtype=bool) if cutoff is None else pos <= cutoff
    return segment_total(ideal.query[keep], ideal.gain[keep] / c_log(pos[keep] + 1), jr.num_queries)


def _tie_msndcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None, judged_only: bool
) -> np.ndarray:
    """E[MSnDCG@k] = sum_g (G_g / n_g) sum_{i in level g, i <= k} 1/log(i+1) / IDCG@k (the
    levels of the condensed list when judged_only)."""
    from cranfield.ties.expected import positional_sum

    cj = condensed_rankings(jr) if judged_only else jr
    gain = gain_of(cj.grades, gains)
    dcg = positional_sum(cj, gain, lambda w, i: w / c_log(i + 1), cutoff)
    return ratio(dcg, _ideal_msdcg(jr, gains, cutoff))


@measure(
    "MSnDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONDENSED),
    check=relevant_grades_only,
    summary="Microsoft-style nDCG: every rank discounted by log(r + 1)",
    formula="MSnDCG@k = sum_{r<=k} g(r) / log(r + 1) / sum_{r<=min(k,R)} g*(r) / log(r + 1)",
    source=f"{BURGES} (NDCG{UNVERIFIED}); {NTCIREVAL} (MSnDCG@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_msndcg,
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_readme_sample",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_pyntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
        "tests/measures/test_measures_ntcir.py::test_msndcg_under_weak_ties_is_the_mean_over_orders",
    ),
    notes=NOTES + " The gains are NTCIREVAL's (linear by default), not Burges' 2^g - 1: use "
    "gains= for those, or nDCG(dcg=exp-log2). No k: the whole ranking and ideal list.",
)
def msndcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = cut(rk, np.flatnonzero(rk.relevant), cutoff)
    dcg = per_query(jr, rk, rows, rk.gain[rows] / c_log(rk.rank[rows] + 1))
    return ratio(dcg, _ideal_msdcg(jr, gains, cutoff))


# ------------------------------------------------------------------ GAP
def _h(level: np.ndarray) -> np.ndarray:
    """``l (l + 1)``: twice the sum of the thresholds 1..l (NTCIREVAL's weights)."""
    f = level.astype(np.float64)
    return f * (f + 1.0)


def _gap_sums(rk: Ranked, rows: np.ndarray) -> np.ndarray:
    """Per relevant row r: ``sum_{j<=r} h(min(l(r), l(j)))`` over every row j above it."""
    out = np.zeros(len(rows))
    level = np.maximum(rk.level, 0)
    for v in np.unique(level[rows]).tolist():
        at = rows[level[rows] == v]
        ge = segment_cumsum(rk.query, (level >= v).astype(np.float64))
        below = segment_cumsum(rk.query, np.where(level < v, _h(level), 0.0))
        out[np.searchsorted(rows, at)] = _h(np.array([v]))[0] * ge[at] + below[at]
    return out


@measure(
    "GAP",
    cutoff=CUTOFF_OPTIONAL,
    params=(CONDENSED,),
    summary="graded average precision: AP over users who each set their own relevance threshold",
    formula="GAP@k = sum_{r<=k} I(r) (1/r) sum_{j<=r} h(min(l(r), l(j))) / sum_{i<=min(k,R)} "
    "h(l*(i)), h(l) = l (l + 1), l the grade",
    source=f"{ROBERTSON_GAP} (GAP{UNVERIFIED}); {NTCIREVAL} -gap (GAP, GAP@k: thresholds "
    "weighted in proportion to the grade)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="not derived: a document's term depends on the grades of the documents above it",
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_gap_worked_example",
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes="GAP reads the grades, not gains (as NTCIREVAL): the probability that a user's "
    "threshold is grade j is taken in proportion to j, so the weight of a pair of documents of "
    "grades a and b is min(a,b)(min(a,b)+1). judged_only=true: the condensed list. "
    "No k: the whole ranking, divided by the whole ideal list.",
)
def gap(jr: JudgedRankings, *, cutoff: int | None, judged_only: bool) -> np.ndarray:
    rk = ranked(jr, None, judged_only)
    rows = cut(rk, np.flatnonzero(rk.relevant), cutoff)
    num = per_query(jr, rk, rows, _gap_sums(rk, rows) / rk.rank[rows])
    ideal = ideal_list(jr, None)
    ih = segment_cumsum(ideal.query, _h(ideal.level))
    size = ideal.size
    at = size if cutoff is None else np.minimum(size, cutoff)
    return ratio(num, prefix_at(ih, ideal.offsets[:-1], at))
