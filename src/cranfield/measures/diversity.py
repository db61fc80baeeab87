"""Novelty and intent-aware (diversity) measures, TREC Web track style, as ndeval 4.5
computes them (the program behind pyndeval and ir_measures' diversity measures).

Every measure reads subtopic judgments (``subtopics=``, ``--subtopics FILE``;
:mod:`cranfield.io.trec.subtopics`) through :mod:`cranfield.measures.kernels.subtopic_view`, whose
docstring defines ``J(d_i, j)``, ``c_j(i)``, ``S``, the novelty-discounted gain ``G(i)`` and
ndeval's greedy ideal ranking.  Names, parameters and defaults are ir_measures' (``alpha``
and ``beta`` 0.5, ``rel`` 1, ``judged_only`` false where it has it; ``MAP_IA`` is ``AP_IA``).

ndeval's own conventions, kept:

- ``alpha_DCG`` and ``ERR_IA`` are divided by an "ideal ideal" cumulated gain (every document
  relevant to all ``S`` subtopics) from rank 2 on; at k = 1 ndeval does not divide, so
  ``alpha_DCG@1`` and ``ERR_IA@1`` are the number of subtopics the first document covers.
- ``ERR_IA`` is ndeval's "intent-aware ERR": the novelty gains discounted by ``1/i``, not
  Chapelle et al.'s cascade with graded stop probabilities.
- A query with ``S = 0`` scores 0 on every measure (ndeval's nNRBP is 0/0 there: NaN).
- The documents are ranked by the tie policy (``trec``: score descending, ties by document id
  descending, which is ``ndeval -traditional``; ``given``: the rank column, ndeval's default).
  pyndeval sorts ties by document id ascending, so on tied scores ir_measures' values differ
  from both.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.subtopic_ties import subtopic_mean
from cranfield.measures.kernels.subtopic_view import (
    DEPTH,
    View,
    discounts,
    ideal_ideal,
    leading_sum,
    view,
)
from cranfield.measures.registry import CUTOFF, REL, Param, Undefined, measure
from cranfield.measures.sources import AGRAWAL, CHAPELLE, CLARKE_ICTIR, CLARKE_SIGIR, NDEVAL, ZHAI

__all__ = ["ALPHA", "BETA", "DIVERSITY_JUDGED_ONLY"]

ALPHA = Param(
    "alpha",
    "float",
    0.5,
    "redundancy intolerance: each document relevant to a subtopic already seen gains "
    "(1 - alpha) times less for it",
    at_least=0.0,
    at_most=1.0,
)
BETA = Param(
    "beta",
    "float",
    0.5,
    "patience: the chance of reading on to the next rank",
    at_least=0.0,
    at_most=1.0,
)
DIVERSITY_JUDGED_ONLY = Param(
    "judged_only",
    "bool",
    False,
    "drop the documents the subtopic qrels do not list for the query before measuring",
)

NDEVAL_TEST = (
    "tests/measures/test_diversity_ndeval.py::test_generated_collections_agree_with_pyndeval"
)
BY_HAND = "tests/measures/test_diversity_by_hand.py::test_{}_by_hand"
TIES = "tests/measures/test_diversity_ties.py::test_tie_aware_forms_are_means_over_tie_breakings"
CUT = "tests/measures/test_diversity_ties.py::test_tie_aware_forms_under_a_depth_cut"
NO_TIES = (
    "not derived: the novelty discount makes a document's gain depend on which documents of "
    "its tie group precede it"
)


def _no_subtopic(
    jr: JudgedRankings, rel: int = 1, judged_only: bool = False, **_: object
) -> np.ndarray:
    result: np.ndarray = view(jr, rel, judged_only).S == 0
    return result


NO_SUBTOPIC = Undefined(
    "the query has no subtopic with a relevant document (S = 0), or no line in the subtopic qrels",
    "0 (as ndeval)",
    _no_subtopic,
)


def _cumulated(v: View, alpha: float, cutoff: int, form: str, ideal: bool = False) -> np.ndarray:
    """sum_{i <= k} G(i) w(i) per query, ``w`` the DCG discount or 1/i, of the run or of the
    ideal ranking, added in rank order."""
    query, rank, gains = v.ideal(alpha) if ideal else (v.query, v.rank, v.gains(alpha))
    sel = rank <= cutoff
    r = rank[sel]
    if form == "dcg":
        values = gains[sel] * discounts(int(r.max()) if len(r) else 0)[r - 1]
    else:
        values = gains[sel] / r
    return leading_sum(query[sel], r, values, None, v.num_queries)


def _normalised(
    jr: JudgedRankings, cutoff: int, rel: int, alpha: float, judged_only: bool, form: str
) -> np.ndarray:
    """alpha-DCG@k or ERR-IA@k: ndeval's cumulated gain over its ideal-ideal one (k >= 2)."""
    v = view(jr, rel, judged_only)
    total = _cumulated(v, alpha, cutoff, form)
    if cutoff == 1:
        return total
    result: np.ndarray = total / ideal_ideal(v.S, cutoff, alpha, form)
    return result


def _versus_ideal(
    jr: JudgedRankings, cutoff: int, rel: int, alpha: float, judged_only: bool, form: str
) -> np.ndarray:
    """alpha-nDCG@k or nERR-IA@k: the run's cumulated gain over the ideal ranking's, each
    first divided by the ideal-ideal one as ndeval does where it computes (k <= 20)."""
    v = view(jr, rel, judged_only)
    run = _cumulated(v, alpha, cutoff, form)
    best = _cumulated(v, alpha, cutoff, form, ideal=True)
    if 2 <= cutoff <= DEPTH:
        norm = ideal_ideal(v.S, cutoff, alpha, form)
        run, best = run / norm, best / norm
    out = np.zeros(v.num_queries)
    ok = run != 0
    out[ok] = run[ok] / best[ok]
    return out


@measure(
    "alpha_DCG",
    cutoff=CUTOFF,
    params=(REL, ALPHA, DIVERSITY_JUDGED_ONLY),
    summary="novelty-discounted cumulative gain at k over subtopics, normalised by a "
    "ranking relevant to every subtopic at every rank",
    formula="alpha_DCG@k = sum_{i<=k} G(i)/log2(i+1) / sum_{i<=k} S (1-alpha)^(i-1)/log2(i+1) "
    "(k >= 2); alpha_DCG@1 = G(1); G(i) = sum_j J(d_i,j) (1-alpha)^(c_j(i))",
    source=f"{CLARKE_SIGIR} (alpha-nDCG); {NDEVAL} (computeDCG)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    notes="ndeval's collection-independent normalisation: it divides from rank 2 on, so "
    "alpha_DCG@1 is the number of subtopics the first document is relevant to.",
    checked_by=(NDEVAL_TEST, BY_HAND.format("alpha_dcg")),
)
def alpha_dcg(
    jr: JudgedRankings, *, cutoff: int, rel: int, alpha: float, judged_only: bool
) -> np.ndarray:
    return _normalised(jr, cutoff, rel, alpha, judged_only, "dcg")


@measure(
    "alpha_nDCG",
    cutoff=CUTOFF,
    params=(REL, ALPHA, DIVERSITY_JUDGED_ONLY),
    summary="novelty-discounted cumulative gain at k over subtopics, relative to the greedy "
    "ideal ranking",
    formula="alpha_nDCG@k = sum_{i<=k} G(i)/log2(i+1) / sum_{i<=k} G*(i)/log2(i+1), G* the "
    "greedy ideal ranking's gains; G(i) = sum_j J(d_i,j) (1-alpha)^(c_j(i))",
    source=f"{CLARKE_SIGIR} (alpha-nDCG, its ideal by a greedy approximation); "
    f"{NDEVAL} (computeDCG, idealResult)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    notes="The ideal ranking is ndeval's greedy approximation (exactly equal gains: the "
    "greatest document id first), which a run can beat: values above 1 are possible.",
    checked_by=(NDEVAL_TEST, BY_HAND.format("alpha_ndcg")),
)
def alpha_ndcg(
    jr: JudgedRankings, *, cutoff: int, rel: int, alpha: float, judged_only: bool
) -> np.ndarray:
    return _versus_ideal(jr, cutoff, rel, alpha, judged_only, "dcg")


@measure(
    "ERR_IA",
    cutoff=CUTOFF,
    params=(REL, DIVERSITY_JUDGED_ONLY),
    summary="intent-aware expected reciprocal rank at k (ndeval's), normalised by a ranking "
    "relevant to every subtopic at every rank",
    formula="ERR_IA@k = sum_{i<=k} G(i)/i / sum_{i<=k} S (1-alpha)^(i-1)/i (k >= 2); "
    "ERR_IA@1 = G(1); alpha = 0.5",
    source=f"{CHAPELLE} (ERR), intent-aware as in {AGRAWAL}; {NDEVAL} (computeERR)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    notes="ndeval's ERR-IA: the novelty gains G(i) (alpha = 0.5, ndeval's default, which "
    "ir_measures does not let change) discounted by 1/i; divided from rank 2 on, so ERR_IA@1 "
    "is the number of subtopics the first document is relevant to.",
    checked_by=(NDEVAL_TEST, BY_HAND.format("err_ia")),
)
def err_ia(jr: JudgedRankings, *, cutoff: int, rel: int, judged_only: bool) -> np.ndarray:
    return _normalised(jr, cutoff, rel, 0.5, judged_only, "err")


@measure(
    "nERR_IA",
    cutoff=CUTOFF,
    params=(REL, DIVERSITY_JUDGED_ONLY),
    summary="intent-aware expected reciprocal rank at k (ndeval's), relative to the greedy "
    "ideal ranking",
    formula="nERR_IA@k = sum_{i<=k} G(i)/i / sum_{i<=k} G*(i)/i, G* the greedy ideal "
    "ranking's gains; alpha = 0.5",
    source=f"{CHAPELLE} (ERR), intent-aware as in {AGRAWAL}; {NDEVAL} (computeERR, idealResult)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=(NDEVAL_TEST, BY_HAND.format("nerr_ia")),
)
def nerr_ia(jr: JudgedRankings, *, cutoff: int, rel: int, judged_only: bool) -> np.ndarray:
    return _versus_ideal(jr, cutoff, rel, 0.5, judged_only, "err")


def _nrbp(
    v: View, alpha: float, beta: float, ideal: bool = False, scaled: bool = True
) -> np.ndarray:
    """(1 - (1-alpha) beta)/S sum_i beta^(i-1) G(i), over the whole ranking (without the
    factor when not ``scaled``)."""
    query, rank, gains = v.ideal(alpha) if ideal else (v.query, v.rank, v.gains(alpha))
    steps = np.full(max(int(rank.max()) if len(rank) else 1, 1), beta)
    steps[0] = 1.0
    decay = np.multiply.accumulate(steps)  # decay *= beta, as ndeval
    total = leading_sum(query, rank, gains * decay[rank - 1], None, v.num_queries)
    if not scaled:
        return total
    out = np.zeros(v.num_queries)
    ok = v.S > 0
    out[ok] = total[ok] * ((1.0 - (1.0 - alpha) * beta) / v.S[ok])
    return out


@measure(
    "NRBP",
    params=(REL, ALPHA, BETA),
    summary="novelty- and rank-biased precision: rank-biased precision of the "
    "novelty-discounted gains, averaged over the subtopics",
    formula="NRBP = (1 - (1-alpha) beta)/S sum_i beta^(i-1) G(i)",
    source=f"{CLARKE_ICTIR} (NRBP); {NDEVAL} (computeNRBP)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=(NDEVAL_TEST, BY_HAND.format("nrbp")),
)
def nrbp(jr: JudgedRankings, *, rel: int, alpha: float, beta: float) -> np.ndarray:
    return _nrbp(view(jr, rel), alpha, beta)


@measure(
    "nNRBP",
    params=(REL, ALPHA, BETA),
    summary="NRBP relative to the NRBP of the greedy ideal ranking",
    formula="nNRBP = NRBP / NRBP of the greedy ideal ranking",
    source=f"{CLARKE_ICTIR} (NRBP); {NDEVAL} (computeNRBP, renormalize)",
    better="higher",
    needs=("subtopics",),
    undefined=(
        Undefined(
            NO_SUBTOPIC.when,
            "0 (ndeval: NaN, 0/0)",
            NO_SUBTOPIC.mask,
        ),
    ),
    ties=None,
    no_ties=NO_TIES,
    notes="With alpha = 0 and beta = 1 NRBP's factor 1 - (1-alpha) beta is 0 and ndeval's "
    "nNRBP is 0/0; cranfield divides the sums without the factor, which cancels.",
    checked_by=(NDEVAL_TEST, BY_HAND.format("nnrbp")),
)
def nnrbp(jr: JudgedRankings, *, rel: int, alpha: float, beta: float) -> np.ndarray:
    v = view(jr, rel)
    scaled = (1.0 - alpha) * beta != 1.0  # else NRBP's factor is 0 (ndeval: 0/0)
    run = _nrbp(v, alpha, beta, scaled=scaled)
    best = _nrbp(v, alpha, beta, ideal=True, scaled=scaled)
    out = np.zeros(v.num_queries)
    ok = v.S > 0
    out[ok] = run[ok] / best[ok]
    return out


def _tie_ap_ia(jr: JudgedRankings, *, rel: int, judged_only: bool) -> np.ndarray:
    """E[AP_IA] = (1/S) sum_j E[AP_j] (subtopic_ties.py)."""
    return subtopic_mean(jr, "AP", rel, judged_only, "AP_IA")


def _tie_p_ia(jr: JudgedRankings, *, cutoff: int, rel: int, judged_only: bool) -> np.ndarray:
    """E[P_IA@k] = sum_j E[rel_j(k)] / (k S) (subtopic_ties.py)."""
    return subtopic_mean(jr, f"count@{cutoff}", rel, judged_only, "P_IA", scale=float(cutoff))


def _tie_strecall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[StRecall@k] = (1/S) sum_j P(subtopic j covered in the top k) (subtopic_ties.py)."""
    return subtopic_mean(jr, f"Success@{cutoff}", rel, False, "StRecall")


@measure(
    "AP_IA",
    params=(REL, DIVERSITY_JUDGED_ONLY),
    aliases=("MAP_IA",),
    summary="intent-aware average precision: AP per subtopic, averaged over the subtopics",
    formula="AP_IA = (1/S) sum_j (1/R_j) sum_{i : J(d_i,j) = 1} (c_j(i) + 1)/i, R_j the "
    "documents relevant to subtopic j",
    source=f"{AGRAWAL} (MAP-IA); {NDEVAL} (computeMAP)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=_tie_ap_ia,
    checked_by=(NDEVAL_TEST, BY_HAND.format("ap_ia"), TIES, CUT),
)
def ap_ia(jr: JudgedRankings, *, rel: int, judged_only: bool) -> np.ndarray:
    from cranfield.base.segments import segment_total

    v = view(jr, rel, judged_only)
    o = v.by_subtopic  # pairs by (query, subtopic, rank)
    term = (v.pair_seen[o] + 1.0) / v.rank[v.pair_row[o]]
    q, s = v.query[v.pair_row[o]], v.pair_sub[o]
    new = np.ones(len(o), dtype=bool)
    new[1:] = (q[1:] != q[:-1]) | (s[1:] != s[:-1])
    group = np.cumsum(new) - 1
    first = np.flatnonzero(new)
    per_subtopic = segment_total(group, term, len(first)) / v.pair_nrel[o][first]
    total = segment_total(q[first], per_subtopic, v.num_queries)
    out = np.zeros(v.num_queries)
    ok = v.S > 0
    out[ok] = total[ok] / v.S[ok]
    return out


@measure(
    "P_IA",
    cutoff=CUTOFF,
    params=(REL, DIVERSITY_JUDGED_ONLY),
    summary="intent-aware precision at k: precision at k per subtopic, averaged over the subtopics",
    formula="P_IA@k = (1/(k S)) sum_{i<=k} sum_j J(d_i,j)",
    source=f"{AGRAWAL} (intent-aware precision); {NDEVAL} (computePrecision)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=_tie_p_ia,
    checked_by=(NDEVAL_TEST, BY_HAND.format("p_ia"), TIES, CUT),
)
def p_ia(jr: JudgedRankings, *, cutoff: int, rel: int, judged_only: bool) -> np.ndarray:
    v = view(jr, rel, judged_only)
    count = np.bincount(v.query[v.pair_row[v.rank[v.pair_row] <= cutoff]], minlength=v.num_queries)
    return _per_subtopic(count, v.S, float(cutoff))


def _per_subtopic(count: np.ndarray, S: np.ndarray, k: float = 1.0) -> np.ndarray:
    out = np.zeros(len(S))
    ok = S > 0
    out[ok] = count[ok] / (k * S[ok])  # one product, then the division: ndeval's
    return out


@measure(
    "StRecall",
    cutoff=CUTOFF,
    params=(REL,),
    summary="subtopic recall at k: the share of the subtopics that the top k cover",
    formula="StRecall@k = |{j : J(d_i,j) = 1 for some i <= k}| / S",
    source=f"{ZHAI} (S-recall); {NDEVAL} (computeSTRecall)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=_tie_strecall,
    checked_by=(NDEVAL_TEST, BY_HAND.format("strecall"), TIES, CUT),
)
def strecall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    v = view(jr, rel)
    first = v.pair_row[(v.pair_seen == 0) & (v.rank[v.pair_row] <= cutoff)]
    return _per_subtopic(np.bincount(v.query[first], minlength=v.num_queries), v.S)
