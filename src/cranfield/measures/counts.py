"""Counts: number of queries, retrieved, relevant and relevant retrieved documents.

Baeza-Yates & Ribeiro-Neto (seed 001) sec. 3.2.1 "summary table statistics"; trec_eval 10.0
``m_num_q.c``, ``m_num_ret.c``, ``m_num_rel.c``, ``m_num_rel_ret.c``.  Aggregated by sum.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from . import counting as segments
from .registry import REL, measure

SOURCE = (
    "Baeza-Yates & Ribeiro-Neto (seed 001) sec. 3.2.1, summary table statistics; trec_eval 10.0"
)


@measure(
    "NumQ",
    summary="number of queries evaluated",
    formula="NumQ = |Q|",
    source=SOURCE + " m_num_q.c",
    family="counts",
    aggregate="sum",
    integer=True,
    trec="num_q",
)
def num_q(jr: JudgedRankings) -> np.ndarray:
    return np.ones(jr.num_queries)


@measure(
    "NumRet",
    summary="number of documents retrieved (after depth cut)",
    formula="NumRet = n",
    source=SOURCE + " m_num_ret.c",
    family="counts",
    aggregate="sum",
    integer=True,
    trec="num_ret",
)
def num_ret(jr: JudgedRankings) -> np.ndarray:
    return jr.num_ret.astype(np.float64)


@measure(
    "NumRel",
    summary="number of relevant documents in the qrels (retrieved or not)",
    formula="NumRel = R = |{d in qrels : grade(d) >= rel}|",
    source=SOURCE + " m_num_rel.c",
    family="counts",
    params=(REL,),
    aggregate="sum",
    integer=True,
    trec="num_rel",
)
def num_rel(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return segments.num_rel(jr, rel).astype(np.float64)


@measure(
    "NumRelRet",
    summary="number of relevant documents retrieved",
    formula="NumRelRet = |{i <= n : grade(d_i) >= rel}|",
    source=SOURCE + " m_num_rel_ret.c",
    family="counts",
    params=(REL,),
    aggregate="sum",
    integer=True,
    trec="num_rel_ret",
)
def num_rel_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return segments.rel_ret(jr, rel).astype(np.float64)


@measure(
    "NumNonRelJudgedRet",
    summary="number of judged non-relevant documents retrieved",
    formula="NumNonRelJudgedRet = |{i <= n : 0 <= grade(d_i) < rel}|",
    source="trec_eval 10.0 m_num_nonrel_judged_ret.c",
    family="counts",
    params=(REL,),
    aggregate="sum",
    integer=True,
    trec="num_nonrel_judged_ret",
)
def num_nonrel_judged_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    L = max(rel, 0)
    rows = segments.memo(
        jr, ("nonrel_rows", L), lambda: np.flatnonzero((jr.grades >= 0) & (jr.grades < L))
    )
    return np.bincount(jr.row_query[rows], minlength=jr.num_queries).astype(np.float64)
