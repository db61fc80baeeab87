"""Precision and recall at a cut-off, on the retrieved set, and R-precision.

Baeza-Yates & Ribeiro-Neto (seed 001) sec. 3.2.1 (recall, precision, precision at document
cut-offs, R-precision); Keen (seed 002) Fig. 1 (the contingency table); trec_eval 10.0
``m_P.c``, ``m_recall.c``, ``m_Rprec.c``, ``m_success.c``, ``m_set_*.c``.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .counting import mask_count_at, num_rel, rel_count_at, rel_ret
from .params import MAX_COUNT, MAX_WEIGHT
from .registry import CUTOFF, REL, Param, Undefined, measure

SEED1 = "Baeza-Yates & Ribeiro-Neto, Modern IR (seed 001) sec. 3.2.1"


def _no_relevant(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return num_rel(jr, rel) == 0


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
    return rel_count_at(jr, rel, cutoff) / float(cutoff)


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
    return _ratio(rel_count_at(jr, rel, cutoff), num_rel(jr, rel))


@measure(
    "Rprec",
    params=(
        REL,
        Param(
            "mult",
            "float",
            1.0,
            "multiple x of R: precision at rank x*R",
            above=0.0,
            at_most=MAX_COUNT,
        ),
    ),
    summary="precision at rank R (R-precision), or at a multiple of R",
    formula="Rprec = rel(min(n, R)) / R; Rprec(mult=x) = rel(min(n, c)) / c, c = (long)(x*R + 0.9)",
    source=SEED1 + ", R-precision; trec_eval m_Rprec.c, m_Rprec_mult.c (Rprec_mult_x)",
    family="precision",
    undefined=(NO_REL,),
    trec="Rprec / Rprec_mult_x",
    notes="Divides by R (by c) even when fewer documents were retrieved (trec_eval). "
    "c is truncated after adding 0.9, as trec_eval 10.0 still does; mult=1 gives Rprec.",
)
def r_precision(jr: JudgedRankings, *, rel: int, mult: float = 1.0) -> np.ndarray:
    R = num_rel(jr, rel)
    if mult == 1.0:
        return _ratio(rel_count_at(jr, rel, np.minimum(jr.num_ret, R)), R)
    c = np.trunc(mult * R.astype(np.float64) + 0.9).astype(np.int64)
    c = np.maximum(c, 0)
    return _ratio(rel_count_at(jr, rel, np.minimum(jr.num_ret, c)), c)


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
    return (rel_count_at(jr, rel, cutoff) > 0).astype(np.float64)


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
    return _ratio(rel_ret(jr, rel), jr.num_ret)


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
    return _ratio(rel_ret(jr, rel), num_rel(jr, rel))


@measure(
    "SetF",
    params=(
        REL,
        Param(
            "beta",
            "float",
            1.0,
            "weight of recall (F_beta)",
            at_least=0.0,
            at_most=MAX_WEIGHT,
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


@measure(
    "SetRelP",
    params=(REL,),
    summary="relative precision of the retrieved set: RR / min(n, R)",
    formula="SetRelP = RR / min(n, R); 0 if n = 0 or R = 0",
    source="trec_eval 10.0 m_set_rel_P.c (set_relative_P)",
    family="set",
    undefined=(NO_REL,),
    trec="set_relative_P",
)
def set_relative_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _ratio(rel_ret(jr, rel), np.minimum(jr.num_ret, num_rel(jr, rel)))


@measure(
    "SetAP",
    params=(REL,),
    summary="set-based average precision: SetP * SetR",
    formula="SetAP = RR^2 / (n R); 0 if n = 0 or R = 0",
    source="trec_eval 10.0 m_set_map.c (set_map)",
    family="set",
    undefined=(NO_REL,),
    trec="set_map",
)
def set_average_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rr = rel_ret(jr, rel).astype(np.float64)
    den = jr.num_ret.astype(np.float64) * num_rel(jr, rel).astype(np.float64)
    return _ratio(rr * rr, den)


@measure(
    "RelP",
    cutoff=CUTOFF,
    params=(REL,),
    summary="relative precision at k: relevant in the top k over min(k, R)",
    formula="RelP@k = rel(k) / min(k, R); 0 if R = 0",
    source="trec_eval 10.0 m_rel_P.c (relative_P_k)",
    family="precision",
    undefined=(NO_REL,),
    trec="relative_P_k",
)
def relative_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _ratio(rel_count_at(jr, rel, cutoff), np.minimum(cutoff, num_rel(jr, rel)))


@measure(
    "Unjudged",
    cutoff=CUTOFF,
    summary="fraction of the top k that is unjudged (missing ranks count as judged)",
    formula="Unjudged@k = |{i <= min(k, n) : d_i not judged}| / k",
    source="trec_eval 10.0 m_unjudged.c (unj_k, Soboroff 2023)",
    family="precision",
    trec="unj_k",
    notes="Unjudged = not in the qrels or in them with a negative grade; always 0 under "
    "judged_only. trec_eval prints 0 for queries missing from the run under -c (an empty "
    "ranking gives 0 here too).",
)
def unjudged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return mask_count_at(jr, "unjudged", lambda: jr.grades < 0, cutoff) / float(cutoff)


@measure(
    "Judged",
    cutoff=CUTOFF,
    summary="fraction of the top k that is judged",
    formula="Judged@k = |{i <= min(k, n) : grade(d_i) >= 0}| / k",
    source="MacAvaney, Macdonald & Ounis, 'Streamlining evaluation with ir-measures', ECIR "
    "2022 (Judged@k, 'P@k with a rel lower than any judgment'); its complement is trec_eval "
    "10.0's unj_k (m_unjudged.c)",
    family="precision",
    notes="Divides by k, as P@k and as ir_measures describes it; ir_measures' implementation "
    "divides by min(k, n) when fewer than k documents are retrieved (3 judged of 3 retrieved: "
    "Judged@10 = 0.3 here, 1.0 there) and counts a negative qrels grade as judged. Here a "
    "negative grade means 'in the pool, not judged' (trec_eval's convention, as in unj_k), so "
    "Judged@k + Unjudged@k = min(k, n) / k.",
)
def judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return mask_count_at(jr, "judged", lambda: jr.grades >= 0, cutoff) / float(cutoff)
