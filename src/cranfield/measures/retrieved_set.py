"""Measures of the retrieved set (the ranking read as an unordered set): its precision, recall,
F measure, relative precision and set-based average precision.

Keen, 'Evaluation parameters', SMART report ISR-13, sec. II, Fig. 1 (the contingency table:
precision a/(a+b), recall a/(a+c)); van Rijsbergen, Information Retrieval, 1979, ch. 7 (F);
trec_eval 10.0 ``m_set_P.c``, ``m_set_recall.c``, ``m_set_F.c``, ``m_set_rel_P.c``,
``m_set_map.c``.

No order of the ranking changes a set, so each is its own tie-aware form, except where a depth
cut falls inside a tie group (``JudgedRankings.cut``): which of the group's documents are
retrieved is then random, and each form is the expectation of the measure over that choice
(linear in the relevant count RR when n is fixed; SetAP is quadratic: ``E[RR^2] = E[RR]^2 +
Var[RR]``, the hypergeometric variance of the split group's part).
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import num_rel, ratio, rel_ret
from cranfield.measures.oracles import CUT, ORACLE
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.precision import NO_REL
from cranfield.measures.registry import REL, Param, TrecEval, Undefined, measure
from cranfield.measures.sources import CHEN, KEEN
from cranfield.ties.expected import expected_retrieved, retrieved_variance

__all__ = ["set_f_weighted"]

NOTHING_RETRIEVED = Undefined(
    "nothing retrieved (n = 0)", "0 (as trec_eval)", lambda jr, **_: jr.num_ret == 0
)


def _rr(jr: JudgedRankings, rel: int) -> np.ndarray:
    """RR, or its expectation where a depth cut splits a tie group (the tie-aware forms)."""
    if jr.cut:
        return expected_retrieved(jr, jr.relevant(rel))
    return rel_ret(jr, rel).astype(np.float64)


def _micro_set_p(jr: JudgedRankings, *, rel: int, **_: object) -> tuple[np.ndarray, np.ndarray]:
    return jr.count(jr.relevant(rel)), jr.num_ret


def _tie_set_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetP] = E[RR] / n."""
    return ratio(_rr(jr, rel), jr.num_ret)


@measure(
    "SetP",
    params=(REL,),
    summary="precision of the whole retrieved set",
    formula="SetP = RR / n",
    source=f"{KEEN}, Fig. 1, precision a/(a+b); trec_eval 10.0 m_set_P.c",
    better="higher",
    undefined=(NOTHING_RETRIEVED,),
    micro=_micro_set_p,
    ties=_tie_set_precision,
    core_kernel="set_p",
    trec_eval=TrecEval("set_P"),
    checked_by=(ORACLE, CUT),
)
def set_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return ratio(rel_ret(jr, rel), jr.num_ret)


def _micro_set_r(jr: JudgedRankings, *, rel: int, **_: object) -> tuple[np.ndarray, np.ndarray]:
    return jr.count(jr.relevant(rel)), jr.num_rel(rel)


def _tie_set_recall(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetR] = E[RR] / R."""
    return ratio(_rr(jr, rel), num_rel(jr, rel))


@measure(
    "SetR",
    params=(REL,),
    summary="recall of the whole retrieved set",
    formula="SetR = RR / R",
    source=f"{KEEN}, Fig. 1, recall a/(a+c); trec_eval 10.0 m_set_recall.c",
    better="higher",
    undefined=(NO_REL,),
    micro=_micro_set_r,
    ties=_tie_set_recall,
    core_kernel="set_r",
    trec_eval=TrecEval("set_recall"),
    checked_by=(ORACLE, CUT),
)
def set_recall(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return ratio(rel_ret(jr, rel), num_rel(jr, rel))


def _tie_set_f(jr: JudgedRankings, *, rel: int, beta: float) -> np.ndarray:
    """E[SetF] = (1 + b^2) E[RR] / (b^2 R + n): SetF is linear in RR when n is fixed."""
    if not jr.cut:
        return set_f(jr, rel=rel, beta=beta)
    b2 = beta * beta
    return ratio((1.0 + b2) * _rr(jr, rel), b2 * num_rel(jr, rel) + jr.num_ret)


@measure(
    "SetF",
    params=(
        REL,
        Param("beta", "float", 1.0, "weight of recall (F_beta)", at_least=0.0, at_most=MAX_WEIGHT),
    ),
    summary="F measure of the retrieved set",
    formula="SetF = (1 + b^2) P R / (b^2 P + R), P = RR/n, R = RR/R; 0 if RR = 0",
    source=f"van Rijsbergen, Information Retrieval, 1979, ch. 7, via {CHEN} (F measure); "
    "trec_eval 10.0 m_set_F.c",
    better="higher",
    undefined=(),
    ties=_tie_set_f,
    core_kernel="set_f",
    trec_eval=TrecEval("set_F", params="doubles", default=(1.0,), compute="set_f"),
    notes="trec_eval's set_F parameter is beta squared; SetF(beta=b) equals set_F.(b*b).",
    checked_by=(ORACLE, CUT),
)
def set_f(jr: JudgedRankings, *, rel: int, beta: float) -> np.ndarray:
    return set_f_weighted(jr, rel=rel, x=beta * beta)


def set_f_weighted(jr: JudgedRankings, *, rel: int, x: float) -> np.ndarray:
    """trec_eval's ``set_F.x``: ``(x+1) P R / (x P + R)`` (``x`` = beta squared), 0 if RR = 0."""
    rr = rel_ret(jr, rel)
    out = np.zeros(jr.num_queries)
    ok = rr > 0
    if ok.any():
        p = rr[ok] / jr.num_ret[ok].astype(np.float64)
        r = rr[ok] / num_rel(jr, rel)[ok].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[ok] = (x + 1.0) * p * r / (x * p + r)
    return out


def _tie_set_relative_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetRelP] = E[RR] / min(n, R)."""
    return ratio(_rr(jr, rel), np.minimum(jr.num_ret, num_rel(jr, rel)))


@measure(
    "SetRelP",
    params=(REL,),
    summary="relative precision of the retrieved set: RR / min(n, R)",
    formula="SetRelP = RR / min(n, R); 0 if n = 0 or R = 0",
    source="trec_eval 10.0 m_set_rel_P.c (set_relative_P)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_set_relative_precision,
    core_kernel="set_rel_p",
    trec_eval=TrecEval("set_relative_P"),
    checked_by=(ORACLE, CUT),
)
def set_relative_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return ratio(rel_ret(jr, rel), np.minimum(jr.num_ret, num_rel(jr, rel)))


def _tie_set_average_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetAP] = E[RR^2] / (n R), E[RR^2] = E[RR]^2 + Var[RR]."""
    if not jr.cut:
        return set_average_precision(jr, rel=rel)
    mean = _rr(jr, rel)
    var = retrieved_variance(jr, jr.relevant(rel))
    den = jr.num_ret.astype(np.float64) * num_rel(jr, rel).astype(np.float64)
    return ratio(mean * mean + var, den)


@measure(
    "SetAP",
    params=(REL,),
    summary="set-based average precision: SetP * SetR",
    formula="SetAP = RR^2 / (n R); 0 if n = 0 or R = 0",
    source="trec_eval 10.0 m_set_map.c (set_map)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_set_average_precision,
    core_kernel="set_ap",
    trec_eval=TrecEval("set_map"),
    checked_by=(ORACLE, CUT),
)
def set_average_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rr = rel_ret(jr, rel).astype(np.float64)
    den = jr.num_ret.astype(np.float64) * num_rel(jr, rel).astype(np.float64)
    return ratio(rr * rr, den)
