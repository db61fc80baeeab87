"""Average precision, its geometric mean, and reciprocal rank.

Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999, sec. 3.2.1 (average
precision at seen relevant documents); trec_eval 10.0 ``m_map.c``, ``m_map_cut.c``,
``m_gm_map.c``, ``m_recip_rank.c``, ``m_yaap.c``.  Tie-aware forms: McSherry & Najork,
ECIR 2008, sec. 2.2 (AP) and 2.3 (RR), in the notation of :mod:`cranfield.ties.levels`.
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_cumsum, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import (
    c_log,
    memo,
    num_rel,
    ratio,
    rel_count_at,
    rel_position,
    rel_ret,
    relevant_rows,
)
from cranfield.measures.oracles import CUT, ORACLE, TIES
from cranfield.measures.precision import DEFAULT_CUTOFFS, NO_REL
from cranfield.measures.registry import CUTOFF_OPTIONAL, GM_EPS, REL, TrecEval, measure
from cranfield.measures.sources import BAEZA_YATES
from cranfield.ties.levels import expand, log_binom, marked_levels

BYR = f"{BAEZA_YATES}, sec. 3.2.1"


def ap_running(jr: JudgedRankings, rel: int) -> np.ndarray:
    """Per relevant row: sum of P@i over the relevant rows up to it (rank order, sequential)."""

    def build() -> np.ndarray:
        _rows, q, rank = relevant_rows(jr, rel)
        _first, pos = rel_position(jr, rel)
        return segment_cumsum(q, pos / rank.astype(np.float64))

    return memo(jr, ("ap_running", max(rel, 0)), build)


def _ap_sum(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """Per query: sum of P@i over relevant ranks i <= cutoff, added in rank order."""
    running = ap_running(jr, rel)
    first, _pos = rel_position(jr, rel)
    c = rel_ret(jr, rel) if cutoff is None else rel_count_at(jr, rel, cutoff)
    out = np.zeros(jr.num_queries)
    ok = c > 0
    out[ok] = running[first[ok] + c[ok] - 1]
    return out


def _ap(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    return ratio(_ap_sum(jr, cutoff, rel), num_rel(jr, rel))


def tie_average_precision(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """Expected AP (AP@k with ``cutoff``), normalised by R as trec_eval."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n, T, r, S = ml.size, ml.before, ml.marked, ml.marked_before
    limit = jr.limit(cutoff)
    m = n if limit is None else np.minimum(n, limit - T)
    idx = np.flatnonzero(m > 0)
    contrib = np.zeros(len(idx))
    single = n[idx] == 1
    si = idx[single]
    contrib[single] = (S[si] + 1).astype(np.float64) / (T[si] + 1).astype(np.float64)
    multi = idx[~single]
    if len(multi):
        rows, seg = expand(ml.start[multi], m[multi])
        rank = rows + np.repeat(T[multi] + 1 - ml.start[multi], m[multi])
        h = np.add.reduceat(1.0 / rank.astype(np.float64), seg)
        nm, rm, Tm, Sm, mm = n[multi], r[multi], T[multi], S[multi], m[multi]
        c = (rm - 1) / (nm - 1)
        inner = (Sm + 1) * h + c * (mm - (Tm + 1) * h)
        contrib[~single] = rm / nm * inner
    total = segment_total(ml.query[idx], contrib, jr.num_queries)
    return ratio(total, jr.num_rel(rel))


def _tie_ap(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[AP@k] = (1/R) sum_g (r_g/n_g) sum_{j<=m_g} [S_g + 1 + (j-1)(r_g-1)/(n_g-1)] / (T_g + j),
    m_g = n_g or, at a cut-off k, min(n_g, k - T_g)."""
    return tie_average_precision(jr, cutoff, rel)


def _tie_gmap(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    """Per query E[AP]; the aggregate is the geometric mean of these expectations."""
    return tie_average_precision(jr, None, rel)


@measure(
    "AP",
    core_kernel="ap",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    aliases=("MAP",),
    summary="average precision (at relevant documents; unretrieved relevant count 0)",
    formula="AP@k = (1/R) sum_{i <= k, d_i relevant} P@i",
    source=f"{BYR}, average precision at seen relevant documents; trec_eval 10.0 m_map.c, "
    "m_map_cut.c",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_ap,
    trec_eval=(
        TrecEval("map"),
        TrecEval(
            "map_cut",
            params="long_cutoffs",
            default=DEFAULT_CUTOFFS,
            compute="per_cutoff",
            printed="map_cut_k",
        ),
    ),
    checked_by=(
        "tests/measures/test_measures_trec.py::test_byr_average_precision_and_r_precision",
        ORACLE,
        TIES,
        CUT,
    ),
)
def average_precision(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    return _ap(jr, cutoff, rel)


@measure(
    "GMAP",
    params=(
        REL,
        GM_EPS,
    ),
    summary="geometric mean of average precision over queries",
    formula="GMAP = exp(mean_q ln(max(AP_q, eps))), eps = 1e-5",
    source="Robertson, 'On GMAP: and other transformations', CIKM 2006; trec_eval 10.0 "
    "m_gm_map.c (MIN_GEO_MEAN = 1e-5)",
    better="higher",
    aggregate="gmean",
    undefined=(NO_REL,),
    ties=_tie_gmap,
    core_kernel="ap",
    trec_eval=TrecEval("gm_map", kind="gm", compute="gm"),
    checked_by=(ORACLE, TIES),
    notes="Per query the value shown is AP; the aggregate is the geometric mean with the floor.",
)
def gmap(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    return _ap(jr, None, rel)


def tie_reciprocal_rank(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """E[RR@k] over the first level holding a relevant document."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    first = np.flatnonzero(ml.marked_before == 0)
    n, rg, T = ml.size[first], ml.marked[first], ml.before[first]
    J = n - rg + 1
    limit = jr.limit(cutoff)
    if limit is not None:
        J = np.minimum(J, limit - T)
    ok = J > 0
    first, n, rg, T, J = first[ok], n[ok], rg[ok], T[ok], J[ok]
    out = np.zeros(jr.num_queries)
    if len(first) == 0:
        return out
    seg = np.cumsum(J) - J
    j = np.arange(int(J.sum())) - np.repeat(seg, J) + 1
    nn, rr, TT = np.repeat(n, J), np.repeat(rg, J), np.repeat(T, J)
    p = np.exp(log_binom(nn - j, rr - 1) - log_binom(nn, rr))
    out[ml.query[first]] = np.add.reduceat(p / (TT + j).astype(np.float64), seg)
    return out


def _tie_rr(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[RR@k] = sum_j C(n-j, r-1)/C(n, r) / (T+j) over the first level with a relevant
    document."""
    return tie_reciprocal_rank(jr, cutoff, rel)


@measure(
    "RR",
    core_kernel="rr",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    aliases=("MRR",),
    summary="reciprocal rank of the first relevant document (0 if none in the top k)",
    formula="RR@k = 1 / min{i <= k : d_i relevant}",
    source="Voorhees, 'The TREC-8 question answering track report', TREC-8, 1999; "
    "trec_eval 10.0 m_recip_rank.c",
    better="higher",
    undefined=(),
    ties=_tie_rr,
    trec_eval=TrecEval("recip_rank"),
    checked_by=(ORACLE, TIES, CUT),
)
def reciprocal_rank(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    _rows, _q, rank = relevant_rows(jr, rel)
    first, _pos = rel_position(jr, rel)
    has = rel_ret(jr, rel) > 0
    out = np.zeros(jr.num_queries)
    top = rank[first[has]]
    if cutoff is not None:
        keep = top <= cutoff
        has[has] = keep
        top = top[keep]
    out[has] = 1.0 / top
    return out


@measure(
    "YAAP",
    params=(REL,),
    summary="Robertson's 'yet another average precision': log-odds form of AP",
    formula="YAAP = ln((1 + S) / (1 + R - S)), S = sum_{i: d_i relevant} P@i",
    source="Robertson (2012) 'On smoothing average precision', ECIR, LNCS 7224; "
    "trec_eval 10.0 m_yaap.c",
    better="higher",
    undefined=(),
    ties=None,
    no_ties="no closed form: the logarithm of a ratio of sums over the ranking",
    trec_eval=TrecEval("yaap"),
    checked_by=("tests/measures/test_measures_trec.py::test_yaap_bing_and_g", ORACLE),
    notes="S is AP before division by R; a query with R = 0 gets ln(1) = 0, a query with "
    "relevant documents but none retrieved ln(1/(1+R)).",
)
def yaap(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    s = _ap_sum(jr, None, rel)
    R = num_rel(jr, rel).astype(np.float64)
    return c_log((1.0 + s) / (1.0 + R - s))
