"""Measures from the contingency table at a cut-off: F and E, F' (AP with recall), fallout,
generality, generality-adjusted precision and Giuliano & Jones's sliding ratio.

Keen, 'Evaluation parameters', SMART report ISR-13, sec. II, Fig. 1: of the top ``k``, ``a``
relevant and ``b`` non-relevant are examined;
``c`` relevant and ``d`` non-relevant are not.  ``R = a + c`` relevant in the qrels and
``N = a + b + c + d`` documents in the collection.  A document the qrels do not judge relevant
(grade < rel, or not judged) counts as non-relevant.  The tie-aware forms: F, E, fallout and
the sliding ratio are linear in the count at k, so each is the measure of the expected count
``E[rel@k]`` (as P@k); generality does not depend on the run.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import ratio
from cranfield.measures.kernels.rank_sums import collection_size
from cranfield.measures.oracles import LIT, NAIVE
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.registry import (
    CUTOFF,
    REGISTRY,
    REL,
    REQUIRED,
    SAME,
    Param,
    Undefined,
    measure,
)
from cranfield.measures.sources import CHEN, KEEN, MAGDY_JONES, RAGHAVAN
from cranfield.ties.expected import expected_count_at

BETA = Param(
    "beta",
    "float",
    1.0,
    "weight of recall relative to precision",
    at_least=0.0,
    at_most=MAX_WEIGHT,
)


def _no_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = jr.num_rel(rel) == 0
    return result


NO_REL = Undefined("the query has no relevant document (R = 0)", "0", _no_rel)


def _rel_at(jr: JudgedRankings, cutoff: int, rel: int) -> np.ndarray:
    return jr.count_at(jr.relevant(rel), cutoff)


def _f_parts(
    jr: JudgedRankings, *, cutoff: int, rel: int, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    b2 = beta * beta
    num = (1.0 + b2) * _rel_at(jr, cutoff, rel)
    den = b2 * jr.num_rel(rel) + float(cutoff)
    return num, den


def _tie_f(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    """E[F@k] = (1 + b^2) E[rel@k] / (b^2 R + k)."""
    b2 = beta * beta
    num = (1.0 + b2) * expected_count_at(jr, jr.relevant(rel), cutoff)
    return ratio(num, b2 * jr.num_rel(rel) + float(cutoff))


@measure(
    "F",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="F measure of precision and recall at rank k (beta weights recall)",
    formula="F@k = (1+b^2) P R / (b^2 P + R) = (1+b^2) rel(k) / (b^2 R + k); 0 if rel(k) = 0",
    source=f"{CHEN} (F measure); van Rijsbergen, Information Retrieval, 1979, ch. 7; "
    f"{MAGDY_JONES}, Table 1",
    better="higher",
    undefined=(),
    micro=_f_parts,
    ties=_tie_f,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_f_and_f_prime_table1",
        NAIVE,
        LIT,
    ),
    notes="P@k divides by k even when fewer than k documents are retrieved (as P@k).",
)
def f_measure(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    num, den = _f_parts(jr, cutoff=cutoff, rel=rel, beta=beta)
    return ratio(num, den)


def _e_parts(
    jr: JudgedRankings, *, cutoff: int, rel: int, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    num, den = _f_parts(jr, cutoff=cutoff, rel=rel, beta=beta)
    return den - num, den


def _tie_e(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    """E[E@k] = 1 - E[F@k]."""
    return 1.0 - _tie_f(jr, cutoff=cutoff, rel=rel, beta=beta)


@measure(
    "E",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="van Rijsbergen's effectiveness E = 1 - F at rank k (beta > 1 favours recall)",
    formula="E@k = 1 - (1+b^2) P R / (b^2 P + R); 1 if rel(k) = 0",
    source=f"{CHEN} (E measure); van Rijsbergen, Information Retrieval, 1979, ch. 7, pp. 174-175",
    better="lower",
    undefined=(),
    micro=_e_parts,
    ties=_tie_e,
    checked_by=(
        "tests/measures/test_measures_literature.py::"
        "test_e_is_van_rijsbergens_normalized_symmetric_difference_at_beta_1",
        NAIVE,
        LIT,
    ),
)
def e_measure(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    return 1.0 - f_measure(jr, cutoff=cutoff, rel=rel, beta=beta)


@measure(
    "Fprime",
    cutoff=CUTOFF,
    params=(REL, BETA),
    summary="F' of Magdy & Jones: harmonic combination of AP@k and recall@k",
    formula="F'@k = (1+b^2) AP R / (b^2 AP + R), AP = AP@k, R = R@k; 0 if both are 0",
    source=f"{MAGDY_JONES}, eq. 1, Table 1",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="no closed form: a nonlinear combination of AP@k and recall@k",
    checked_by=("tests/measures/test_measures_literature.py::test_f_and_f_prime_table1", NAIVE),
)
def f_prime(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    ap = REGISTRY["AP"].func(jr, cutoff=cutoff, rel=rel)
    r = ratio(_rel_at(jr, cutoff, rel), jr.num_rel(rel))
    b2 = beta * beta
    return ratio((1.0 + b2) * ap * r, b2 * ap + r)


def _fallout_parts(jr: JudgedRankings, *, cutoff: int, rel: int) -> tuple[np.ndarray, np.ndarray]:
    N = collection_size(jr, "Fallout")
    nonrel = np.minimum(jr.num_ret, cutoff) - _rel_at(jr, cutoff, rel)
    return nonrel.astype(np.float64), (N - jr.num_rel(rel)).astype(np.float64)


def _all_relevant(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    if jr.collection_size is None:
        return np.zeros(jr.num_queries, dtype=bool)
    return jr.num_rel(rel) >= jr.collection_size


def _tie_fallout(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[Fallout@k] = (min(n, k) - E[rel@k]) / (N - R)."""
    N = collection_size(jr, "Fallout")
    nonrel = np.minimum(jr.num_ret, cutoff) - expected_count_at(jr, jr.relevant(rel), cutoff)
    return ratio(nonrel, (N - jr.num_rel(rel)).astype(np.float64))


@measure(
    "Fallout",
    cutoff=CUTOFF,
    params=(REL,),
    summary="fallout: share of the collection's non-relevant documents in the top k",
    formula="Fallout@k = b / (b + d) = nonrel(k) / (N - R)",
    source=f"{KEEN}, Fig. 1; Cleverdon & Keen, Factors determining the performance of "
    "indexing systems, vol. 2, 1966",
    better="lower",
    needs=("collection_size",),
    micro=_fallout_parts,
    ties=_tie_fallout,
    checked_by=(NAIVE, LIT),
    undefined=(Undefined("every document is relevant (N = R)", "0", _all_relevant),),
    notes="Needs --collection-size.",
)
def fallout(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return ratio(*_fallout_parts(jr, cutoff=cutoff, rel=rel))


def _generality_parts(jr: JudgedRankings, *, rel: int) -> tuple[np.ndarray, np.ndarray]:
    N = collection_size(jr, "Generality")
    return 1000.0 * jr.num_rel(rel), N.astype(np.float64)


@measure(
    "Generality",
    params=(REL,),
    summary="generality number: relevant documents per thousand in the collection",
    formula="Generality = 1000 (a + c) / (a + b + c + d) = 1000 R / N",
    source=f"{KEEN}, sec. 2, Fig. 1",
    better="none",
    needs=("collection_size",),
    undefined=(),
    micro=_generality_parts,
    ties=SAME,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_adi_generality_and_full_examination_precision",
    ),
    notes="Needs --collection-size. Does not depend on the run.",
)
def generality(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return ratio(*_generality_parts(jr, rel=rel))


def _adj_den_zero(jr: JudgedRankings, *, cutoff: int, rel: int = 1, **_: object) -> np.ndarray:
    a = _rel_at(jr, cutoff, rel)
    b = np.minimum(jr.num_ret, cutoff) - a
    result: np.ndarray = (a == 0) & (b == 0) | (jr.num_rel(rel) == 0)
    return result


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
    source=f"{KEEN}, sec. 6 (Fig. 28c); {RAGHAVAN}, eq. 3.5; Robertson, 'The parametric "
    "description of retrieval tests', Journal of Documentation 25, 1969",
    better="higher",
    needs=("collection_size",),
    ties=None,
    no_ties="no closed form: a nonlinear combination of recall and fallout at k",
    checked_by=(
        "tests/measures/test_measures_literature.py::test_adi_adjusted_to_cran1_generality",
        "tests/measures/test_measures_literature.py::"
        "test_adjusted_precision_at_own_generality_is_precision_eq_3_5",
    ),
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
    r1 = ratio(_rel_at(jr, cutoff, rel), jr.num_rel(rel))
    f1 = ratio(nonrel, nonrel_total)
    g = float(generality)
    return ratio(r1 * g, r1 * g + f1 * (1000.0 - g))


def _sliding_parts(jr: JudgedRankings, *, cutoff: int, rel: int) -> tuple[np.ndarray, np.ndarray]:
    return _rel_at(jr, cutoff, rel), np.minimum(jr.num_rel(rel), cutoff)


def _tie_sliding_ratio(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[SlidingRatio@k] = E[rel@k] / min(k, R)."""
    den = np.minimum(jr.num_rel(rel), cutoff)
    return ratio(expected_count_at(jr, jr.relevant(rel), cutoff), den)


@measure(
    "SlidingRatio",
    cutoff=CUTOFF,
    params=(REL,),
    summary="Giuliano & Jones's normalized sliding ratio: relevant in the top k, actual/ideal",
    formula="SlidingRatio@k = rel(k) / min(k, R)",
    source=f"{KEEN}, sec. 3B, Fig. 6; Giuliano & Jones, report ESD-TR-66-405, 1966",
    better="higher",
    micro=_sliding_parts,
    ties=_tie_sliding_ratio,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_q268_sliding_ratio_column",
        "tests/measures/test_measures_literature.py::test_q268_sliding_ratio_is_precision_then_recall",
        LIT,
    ),
    undefined=(NO_REL,),
    notes="Keen prints mu(n) = f(n)/f*(n) with the definitions swapped; the worked column is "
    "actual over ideal. Equals precision for k <= R and recall for k >= R.",
)
def slidingratio(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return ratio(*_sliding_parts(jr, cutoff=cutoff, rel=rel))
