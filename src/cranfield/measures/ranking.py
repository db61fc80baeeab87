"""Average precision, its geometric mean, and reciprocal rank.

Baeza-Yates & Ribeiro-Neto (seed 001) sec. 3.2.1 (average precision at seen relevant
documents); trec_eval 10.0 ``m_map.c``, ``m_map_cut.c``, ``m_gm_map.c``, ``m_recip_rank.c``,
``m_yaap.c``.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .counting import (
    c_log,
    memo,
    num_rel,
    rel_count_at,
    rel_position,
    rel_ret,
    relevant_rows,
    segment_cumsum,
)
from .precision import NO_REL
from .registry import CUTOFF_OPTIONAL, GM_EPS, REL, measure

SEED1 = "Baeza-Yates & Ribeiro-Neto, Modern IR (seed 001) sec. 3.2.1"


def ap_running(jr: JudgedRankings, rel: int) -> np.ndarray:
    """Per relevant row: sum of P@i over the relevant rows up to it (rank order, sequential)."""

    def build():
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
    total = _ap_sum(jr, cutoff, rel)
    R = num_rel(jr, rel)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=R > 0)
    return out


@measure(
    "AP",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    aliases=("MAP",),
    summary="average precision (at relevant documents; unretrieved relevant count 0)",
    formula="AP@k = (1/R) sum_{i <= k, d_i relevant} P@i",
    source=SEED1 + ", average precision at seen relevant documents; trec_eval m_map.c, m_map_cut.c",
    family="ranking",
    undefined=(NO_REL,),
    trec="map / map_cut_k",
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
    source="Robertson (2006) 'On GMAP'; trec_eval m_gm_map.c (MIN_GEO_MEAN = 1e-5)",
    family="ranking",
    aggregate="gmean",
    undefined=(NO_REL,),
    trec="gm_map",
    notes="Per query the value shown is AP; the aggregate is the geometric mean with the floor.",
)
def gmap(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    return _ap(jr, None, rel)


@measure(
    "RR",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    aliases=("MRR",),
    summary="reciprocal rank of the first relevant document (0 if none in the top k)",
    formula="RR@k = 1 / min{i <= k : d_i relevant}",
    source="Voorhees (1999) TREC-8 QA track; trec_eval m_recip_rank.c",
    family="ranking",
    trec="recip_rank",
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
    family="ranking",
    trec="yaap",
    notes="S is AP before division by R; a query with R = 0 gets ln(1) = 0, a query with "
    "relevant documents but none retrieved ln(1/(1+R)).",
)
def yaap(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    s = _ap_sum(jr, None, rel)
    R = num_rel(jr, rel).astype(np.float64)
    return c_log((1.0 + s) / (1.0 + R - s))
