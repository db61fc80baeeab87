"""Precision and recall at a cut-off, on the retrieved set, and R-precision.

Baeza-Yates & Ribeiro-Neto (seed 001) sec. 3.2.1 (recall, precision, precision at document
cut-offs, R-precision); Keen (seed 002) Fig. 1 (the contingency table); trec_eval 10.0
``m_P.c``, ``m_recall.c``, ``m_Rprec.c``, ``m_success.c``, ``m_set_*.c``.
"""

from __future__ import annotations

import numpy as np

from ..judged import JudgedRankings
from .registry import CUTOFF, REL, Param, Undefined, measure

SEED1 = "Baeza-Yates & Ribeiro-Neto, Modern IR (seed 001) sec. 3.2.1"


def _no_relevant(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return jr.num_rel(rel) == 0


NO_REL = Undefined("the query has no relevant document (R = 0)", "0 (as trec_eval)", _no_relevant)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0 where den == 0 (trec_eval's convention for empty denominators)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


@measure(
    "P",
    cutoff=CUTOFF,
    params=(REL,),
    summary="precision at rank k (missing ranks count as non-relevant)",
    formula="P@k = rel(k) / k",
    source=SEED1 + ", precision at document cut-offs; trec_eval m_P.c",
    family="precision",
    trec="P_k",
)
def precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return jr.count_at(jr.relevant(rel), cutoff) / float(cutoff)


@measure(
    "R",
    cutoff=CUTOFF,
    params=(REL,),
    aliases=("Recall",),
    summary="recall at rank k",
    formula="R@k = rel(k) / R",
    source=SEED1 + " eq. 3.1 (recall); trec_eval m_recall.c",
    family="precision",
    undefined=(NO_REL,),
    trec="recall_k",
)
def recall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _ratio(jr.count_at(jr.relevant(rel), cutoff), jr.num_rel(rel))


@measure(
    "Rprec",
    params=(REL,),
    summary="precision at rank R (R-precision)",
    formula="Rprec = rel(min(n, R)) / R",
    source=SEED1 + ", R-precision; trec_eval m_Rprec.c",
    family="precision",
    undefined=(NO_REL,),
    trec="Rprec",
    notes="Divides by R even when fewer than R documents were retrieved (trec_eval).",
)
def r_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    R = jr.num_rel(rel)
    return _ratio(jr.count_at(jr.relevant(rel), np.minimum(jr.num_ret, R)), R)


@measure(
    "Success",
    cutoff=CUTOFF,
    params=(REL,),
    summary="1 if a relevant document is in the top k, else 0",
    formula="Success@k = [rel(k) > 0]",
    source="trec_eval 10.0 m_success.c",
    family="precision",
    trec="success_k",
)
def success(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return (jr.count_at(jr.relevant(rel), cutoff) > 0).astype(np.float64)


@measure(
    "SetP",
    params=(REL,),
    summary="precision of the whole retrieved set",
    formula="SetP = RR / n",
    source="Keen (seed 002) Fig. 1, precision a/(a+b); trec_eval m_set_P.c",
    family="set",
    undefined=(
        Undefined("nothing retrieved (n = 0)", "0 (as trec_eval)", lambda jr, **_: jr.num_ret == 0),
    ),
    trec="set_P",
)
def set_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _ratio(jr.count(jr.relevant(rel)), jr.num_ret)


@measure(
    "SetR",
    params=(REL,),
    summary="recall of the whole retrieved set",
    formula="SetR = RR / R",
    source="Keen (seed 002) Fig. 1, recall a/(a+c); trec_eval m_set_recall.c",
    family="set",
    undefined=(NO_REL,),
    trec="set_recall",
)
def set_recall(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _ratio(jr.count(jr.relevant(rel)), jr.num_rel(rel))


@measure(
    "SetF",
    params=(
        REL,
        Param(
            "beta",
            "float",
            1.0,
            "weight of recall (F_beta)",
            check=lambda v: None if v >= 0 else "must be >= 0",
        ),
    ),
    summary="F measure of the retrieved set",
    formula="SetF = (1 + b^2) P R / (b^2 P + R), P = RR/n, R = RR/R; 0 if RR = 0",
    source="van Rijsbergen (1979) ch. 7, via Chen (seed 004) F measure; trec_eval m_set_F.c",
    family="set",
    trec="set_F",
    notes="trec_eval's set_F parameter is beta squared; SetF(beta=b) equals set_F.(b*b).",
)
def set_f(jr: JudgedRankings, *, rel: int, beta: float) -> np.ndarray:
    rr = jr.count(jr.relevant(rel)).astype(np.float64)
    p = _ratio(rr, jr.num_ret)
    r = _ratio(rr, jr.num_rel(rel))
    b2 = beta * beta
    return _ratio((b2 + 1.0) * p * r, b2 * p + r) * (rr > 0)


@measure(
    "Judged",
    cutoff=CUTOFF,
    summary="fraction of the top k that is judged",
    formula="Judged@k = |{i <= min(k, n) : d_i judged}| / k",
    source="ir_measures Judged (Sakai & Kando 2008); complement of trec_eval unj_k",
    family="precision",
    notes="Documents with a negative grade in the qrels count as unjudged, as in trec_eval's unj.",
)
def judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return jr.count_at(jr.grades >= 0, cutoff) / float(cutoff)
