"""Measures from the contingency table at a cut-off: F and E, F' (AP with recall), fallout,
generality, generality-adjusted precision and Giuliano & Jones's sliding ratio.

Keen (seed 002) Fig. 1: of the top ``k``, ``a`` relevant and ``b`` non-relevant are examined;
``c`` relevant and ``d`` non-relevant are not.  ``R = a + c`` relevant in the qrels and
``N = a + b + c + d`` documents in the collection.  A document the qrels do not judge relevant
(grade < rel, or not judged) counts as non-relevant.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .normalized import collection_size
from .params import MAX_WEIGHT
from .registry import CUTOFF, REGISTRY, REL, REQUIRED, Param, Undefined, measure

KEEN = "Keen, 'Evaluation Parameters', ISR-13 (seed 002)"
CHEN = "Chen, 'Retrieval Evaluation - Measures' (seed 004)"


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


BETA = Param(
    "beta",
    "float",
    1.0,
    "weight of recall relative to precision",
    at_least=0.0,
    at_most=MAX_WEIGHT,
)


def _no_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return jr.num_rel(rel) == 0


NO_REL = Undefined("the query has no relevant document (R = 0)", "0", _no_rel)


def _rel_at(jr: JudgedRankings, cutoff: int, rel: int) -> np.ndarray:
    return jr.count_at(jr.relevant(rel), cutoff)


def _f_parts(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float):
    b2 = beta * beta
    num = (1.0 + b2) * _rel_at(jr, cutoff, rel)
    den = b2 * jr.num_rel(rel) + float(cutoff)
    return num, den


@measure(
    "F",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="F measure of precision and recall at rank k (beta weights recall)",
    formula="F@k = (1+b^2) P R / (b^2 P + R) = (1+b^2) rel(k) / (b^2 R + k); 0 if rel(k) = 0",
    source=CHEN + " F measure; van Rijsbergen (1979) ch. 7; Magdy & Jones (seed 000) Table 1",
    family="contingency",
    micro=_f_parts,
    notes="P@k divides by k even when fewer than k documents are retrieved (as P@k).",
)
def f_measure(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    num, den = _f_parts(jr, cutoff=cutoff, rel=rel, beta=beta)
    return _ratio(num, den)


def _e_parts(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float):
    num, den = _f_parts(jr, cutoff=cutoff, rel=rel, beta=beta)
    return den - num, den


@measure(
    "E",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="van Rijsbergen's effectiveness E = 1 - F at rank k (beta > 1 favours recall)",
    formula="E@k = 1 - (1+b^2) P R / (b^2 P + R); 1 if rel(k) = 0",
    source=CHEN + " E measure; van Rijsbergen (1979) ch. 7 pp. 174-175",
    family="contingency",
    micro=_e_parts,
)
def e_measure(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    return 1.0 - f_measure(jr, cutoff=cutoff, rel=rel, beta=beta)


@measure(
    "Fprime",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="F' of Magdy & Jones: harmonic combination of AP@k and recall@k",
    formula="F'@k = (1+b^2) AP R / (b^2 AP + R), AP = AP@k, R = R@k; 0 if both are 0",
    source="Magdy & Jones, PRES, SIGIR 2010 (seed 000) eq. 1, Table 1",
    family="contingency",
    undefined=(NO_REL,),
)
def f_prime(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    ap = REGISTRY["AP"].func(jr, cutoff=cutoff, rel=rel)
    r = _ratio(_rel_at(jr, cutoff, rel), jr.num_rel(rel))
    b2 = beta * beta
    return _ratio((1.0 + b2) * ap * r, b2 * ap + r)


def _fallout_parts(jr: JudgedRankings, *, cutoff: int, rel: int):
    N = collection_size(jr, "Fallout")
    nonrel = np.minimum(jr.num_ret, cutoff) - _rel_at(jr, cutoff, rel)
    return nonrel.astype(np.float64), (N - jr.num_rel(rel)).astype(np.float64)


def _all_relevant(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    if jr.collection_size is None:
        return np.zeros(jr.num_queries, dtype=bool)
    return jr.num_rel(rel) >= jr.collection_size


@measure(
    "Fallout",
    cutoff=CUTOFF,
    params=(REL,),
    summary="fallout: share of the collection's non-relevant documents in the top k",
    formula="Fallout@k = b / (b + d) = nonrel(k) / (N - R)",
    source=KEEN + " Fig. 1; Cleverdon & Keen (1966)",
    family="contingency",
    micro=_fallout_parts,
    undefined=(Undefined("every document is relevant (N = R)", "0", _all_relevant),),
    notes="Needs --collection-size.",
)
def fallout(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _ratio(*_fallout_parts(jr, cutoff=cutoff, rel=rel))


def _generality_parts(jr: JudgedRankings, *, rel: int):
    N = collection_size(jr, "Generality")
    return 1000.0 * jr.num_rel(rel), N.astype(np.float64)


@measure(
    "Generality",
    params=(REL,),
    summary="generality number: relevant documents per thousand in the collection",
    formula="Generality = 1000 (a + c) / (a + b + c + d) = 1000 R / N",
    source=KEEN + " sec. 2, Fig. 1",
    family="contingency",
    micro=_generality_parts,
    notes="Needs --collection-size. Does not depend on the run.",
)
def generality(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _ratio(*_generality_parts(jr, rel=rel))


def _adj_den_zero(jr: JudgedRankings, *, cutoff: int, rel: int = 1, **_: object) -> np.ndarray:
    a = _rel_at(jr, cutoff, rel)
    b = np.minimum(jr.num_ret, cutoff) - a
    return (a == 0) & (b == 0) | (jr.num_rel(rel) == 0)


@measure(
    "AdjP",
    cutoff=CUTOFF,
    params=(
        REL,
        Param(
            "generality",
            "float",
            REQUIRED,
            "target generality number G (relevant per thousand)",
            above=0.0,
            at_most=1000.0,
        ),
    ),
    summary="generality-adjusted precision: precision at rank k moved to generality G",
    formula="AdjP@k = R_k G / (R_k G + F_k (1000 - G)), R_k = recall@k, F_k = fallout@k",
    source=KEEN + " sec. 6 (Fig. 28c); Raghavan, Jung & Bollmann (seed 003) eq. 3.5; "
    "Robertson (1969)",
    family="contingency",
    undefined=(
        Undefined(
            "nothing examined in the top k, or no relevant document (R = 0)",
            "0",
            _adj_den_zero,
        ),
    ),
    notes="Needs --collection-size. With G = the query's own generality it equals the "
    "precision of the examined documents a / (a + b). Keen's OCR prints the target as "
    "'2316'; it is 23.6 (Cran-1's generality).",
)
def adjusted_precision(
    jr: JudgedRankings, *, cutoff: int, rel: int, generality: float
) -> np.ndarray:
    nonrel, nonrel_total = _fallout_parts(jr, cutoff=cutoff, rel=rel)
    r1 = _ratio(_rel_at(jr, cutoff, rel), jr.num_rel(rel))
    f1 = _ratio(nonrel, nonrel_total)
    g = float(generality)
    return _ratio(r1 * g, r1 * g + f1 * (1000.0 - g))


def _sliding_parts(jr: JudgedRankings, *, cutoff: int, rel: int):
    return _rel_at(jr, cutoff, rel), np.minimum(jr.num_rel(rel), cutoff)


@measure(
    "SlidingRatio",
    cutoff=CUTOFF,
    params=(REL,),
    summary="Giuliano & Jones's normalized sliding ratio: relevant in the top k, actual/ideal",
    formula="SlidingRatio@k = rel(k) / min(k, R)",
    source=KEEN + " sec. 3B, Fig. 6; Giuliano & Jones ESD-TR-66-405 (1966)",
    family="contingency",
    micro=_sliding_parts,
    undefined=(NO_REL,),
    notes="Keen prints mu(n) = f(n)/f*(n) with the definitions swapped; the worked column is "
    "actual over ideal. Equals precision for k <= R and recall for k >= R.",
)
def sliding_ratio(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _ratio(*_sliding_parts(jr, cutoff=cutoff, rel=rel))
