"""Counts: queries, retrieved, relevant, relevant retrieved and judged non-relevant retrieved.

Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999, sec. 3.2.1 ("summary table
statistics"); trec_eval 10.0 ``m_num_q.c``, ``m_num_ret.c``, ``m_num_rel.c``,
``m_num_rel_ret.c``, ``m_num_nonrel_judged_ret.c``.  Summed over queries; directionless
(``better="none"``): ``compare`` does not rank runs by them.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels import counting
from cranfield.measures.oracles import CONFORMANCE, ORACLE
from cranfield.measures.registry import REL, SAME, TrecEval, measure
from cranfield.measures.sources import BAEZA_YATES
from cranfield.ties.expected import expected_retrieved

SOURCE = f"{BAEZA_YATES}, sec. 3.2.1, summary table statistics; trec_eval 10.0"


@measure(
    "NumQ",
    core_kernel="num_q",
    summary="number of queries evaluated",
    formula="NumQ = |Q|",
    source=SOURCE + " m_num_q.c",
    better="none",
    aggregate="sum",
    integer=True,
    undefined=(),
    ties=SAME,
    trec_eval=TrecEval("num_q", kind="num_q", compute="ones"),
    checked_by=(CONFORMANCE,),
)
def num_q(jr: JudgedRankings) -> np.ndarray:
    return np.ones(jr.num_queries)


@measure(
    "NumRet",
    core_kernel="num_ret",
    summary="number of documents retrieved (after depth cut)",
    formula="NumRet = n",
    source=SOURCE + " m_num_ret.c",
    better="none",
    aggregate="sum",
    integer=True,
    undefined=(),
    ties=SAME,
    trec_eval=TrecEval("num_ret", kind="long", compute="single_norel"),
    checked_by=(ORACLE,),
)
def num_ret(jr: JudgedRankings) -> np.ndarray:
    return jr.num_ret.astype(np.float64)


@measure(
    "NumRel",
    core_kernel="num_rel",
    summary="number of relevant documents in the qrels (retrieved or not)",
    formula="NumRel = R = |{d in qrels : grade(d) >= rel}|",
    source=SOURCE + " m_num_rel.c",
    params=(REL,),
    better="none",
    aggregate="sum",
    integer=True,
    undefined=(),
    ties=SAME,
    trec_eval=TrecEval("num_rel", kind="long"),
    checked_by=(ORACLE,),
)
def num_rel(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return counting.num_rel(jr, rel).astype(np.float64)


def _expected_num_rel_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[RR]: the count, except where a depth cut splits a level g: S_g + m r_g / n_g."""
    if not jr.cut:
        return num_rel_ret(jr, rel=rel)
    return expected_retrieved(jr, jr.relevant(rel))


@measure(
    "NumRelRet",
    core_kernel="num_rel_ret",
    summary="number of relevant documents retrieved",
    formula="NumRelRet = |{i <= n : grade(d_i) >= rel}|",
    source=SOURCE + " m_num_rel_ret.c",
    params=(REL,),
    better="none",
    aggregate="sum",
    integer=True,
    undefined=(),
    ties=_expected_num_rel_ret,
    trec_eval=TrecEval("num_rel_ret", kind="long"),
    checked_by=(
        ORACLE,
        "tests/ties/test_ties_enumeration_depth_cut.py::"
        "test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking",
    ),
)
def num_rel_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return counting.rel_ret(jr, rel).astype(np.float64)


def _nonrel_judged(jr: JudgedRankings, rel: int) -> np.ndarray:
    L = max(rel, 0)
    return (jr.grades >= 0) & (jr.grades < L)


def _expected_num_nonrel_judged_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[judged non-relevant retrieved]: the count, except under a depth cut inside a level."""
    if not jr.cut:
        return num_nonrel_judged_ret(jr, rel=rel)
    return expected_retrieved(jr, _nonrel_judged(jr, rel))


@measure(
    "NumNonRelJudgedRet",
    summary="number of judged non-relevant documents retrieved",
    formula="NumNonRelJudgedRet = |{i <= n : 0 <= grade(d_i) < rel}|",
    source="trec_eval 10.0 m_num_nonrel_judged_ret.c",
    params=(REL,),
    better="none",
    aggregate="sum",
    integer=True,
    undefined=(),
    ties=_expected_num_nonrel_judged_ret,
    core_kernel="num_nonrel_judged_ret",
    trec_eval=TrecEval("num_nonrel_judged_ret", kind="long"),
    checked_by=(ORACLE,),
)
def num_nonrel_judged_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    L = max(rel, 0)
    rows = counting.memo(jr, ("nonrel_rows", L), lambda: np.flatnonzero(_nonrel_judged(jr, rel)))
    return np.bincount(jr.row_query[rows], minlength=jr.num_queries).astype(np.float64)
