"""Precision and recall at a cut-off, R-precision, success, and the judged fraction of the top k.

Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999, sec. 3.2.1 (recall, precision,
precision at document cut-offs, R-precision); trec_eval 10.0 ``m_P.c``, ``m_recall.c``,
``m_Rprec.c``, ``m_Rprec_mult.c``, ``m_success.c``, ``m_rel_P.c``, ``m_unjudged.c``.

Each tie-aware form is the count at k over tie-breakings, ``E[c@k] = S_g + (k - T_g) r_g /
n_g`` for the level g holding position k (McSherry & Najork, ECIR 2008, sec. 2.1; the notation
of :mod:`cranfield.ties.levels`).
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import mask_count_at, num_rel, ratio, rel_count_at
from cranfield.measures.oracles import CUT, ORACLE, TIES
from cranfield.measures.params import MAX_COUNT
from cranfield.measures.registry import CUTOFF, REL, Param, TrecEval, Undefined, measure
from cranfield.measures.sources import BAEZA_YATES
from cranfield.ties.expected import AtK, expected_count_at
from cranfield.ties.levels import log_binom

BYR = f"{BAEZA_YATES}, sec. 3.2.1"
__all__ = ["DEFAULT_CUTOFFS", "MULT", "NO_REL"]

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
"""trec_eval's default cut-offs of P, recall, ndcg_cut, map_cut and relative_P."""
MULT = Param(
    "mult", "float", 1.0, "multiple x of R: precision at rank x*R", above=0.0, at_most=MAX_COUNT
)


def _no_relevant(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = num_rel(jr, rel) == 0
    return result


NO_REL = Undefined("the query has no relevant document (R = 0)", "0 (as trec_eval)", _no_relevant)


def _micro_at_k(
    jr: JudgedRankings, *, cutoff: int, rel: int, **_: object
) -> tuple[np.ndarray, np.ndarray]:
    return jr.count_at(jr.relevant(rel), cutoff), np.full(jr.num_queries, float(cutoff))


def _tie_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[P@k] = E[rel@k] / k."""
    return expected_count_at(jr, jr.relevant(rel), cutoff) / float(cutoff)


@measure(
    "P",
    core_kernel="p",
    cutoff=CUTOFF,
    params=(REL,),
    summary="precision at rank k (missing ranks count as non-relevant)",
    formula="P@k = rel(k) / k",
    source=f"{BYR}, precision at document cut-offs; trec_eval 10.0 m_P.c",
    better="higher",
    undefined=(),
    micro=_micro_at_k,
    ties=_tie_precision,
    trec_eval=TrecEval(
        "P", params="long_cutoffs", default=DEFAULT_CUTOFFS, compute="per_cutoff", printed="P_k"
    ),
    checked_by=(ORACLE, TIES, CUT),
)
def precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return rel_count_at(jr, rel, cutoff) / float(cutoff)


def _micro_recall(
    jr: JudgedRankings, *, cutoff: int, rel: int, **_: object
) -> tuple[np.ndarray, np.ndarray]:
    return jr.count_at(jr.relevant(rel), cutoff), jr.num_rel(rel)


def _tie_recall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[R@k] = E[rel@k] / R."""
    return ratio(expected_count_at(jr, jr.relevant(rel), cutoff), jr.num_rel(rel))


@measure(
    "R",
    core_kernel="recall",
    cutoff=CUTOFF,
    params=(REL,),
    aliases=("Recall",),
    summary="recall at rank k",
    formula="R@k = rel(k) / R",
    source=f"{BYR}, eq. 3.1 (recall); trec_eval 10.0 m_recall.c",
    better="higher",
    undefined=(NO_REL,),
    micro=_micro_recall,
    ties=_tie_recall,
    trec_eval=TrecEval(
        "recall",
        params="long_cutoffs",
        default=DEFAULT_CUTOFFS,
        compute="per_cutoff",
        printed="recall_k",
    ),
    checked_by=(ORACLE, TIES, CUT),
)
def recall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return ratio(rel_count_at(jr, rel, cutoff), num_rel(jr, rel))


def _rprec_cut(jr: JudgedRankings, rel: int, mult: float) -> np.ndarray:
    """R, or c = (long)(x R + 0.9) with mult=x: the rank R-precision reads at."""
    R = num_rel(jr, rel)
    if mult == 1.0:
        return R
    return np.maximum(np.trunc(mult * R.astype(np.float64) + 0.9).astype(np.int64), 0)


def _micro_rprec(jr: JudgedRankings, *, rel: int, **_: object) -> tuple[np.ndarray, np.ndarray]:
    R = jr.num_rel(rel)
    return jr.count_at(jr.relevant(rel), np.minimum(jr.num_ret, R)), R


def _tie_r_precision(jr: JudgedRankings, *, rel: int, mult: float = 1.0) -> np.ndarray:
    """E[Rprec] = E[rel@min(n, R)] / R (with mult=x: c = (long)(x R + 0.9) for R)."""
    c = _rprec_cut(jr, rel, mult)
    return ratio(expected_count_at(jr, jr.relevant(rel), np.minimum(jr.num_ret, c)), c)


@measure(
    "Rprec",
    core_kernel="rprec",
    params=(REL, MULT),
    summary="precision at rank R (R-precision), or at a multiple of R",
    formula="Rprec = rel(min(n, R)) / R; Rprec(mult=x) = rel(min(n, c)) / c, c = (long)(x*R + 0.9)",
    source=f"{BYR}, R-precision; trec_eval 10.0 m_Rprec.c, m_Rprec_mult.c",
    better="higher",
    undefined=(NO_REL,),
    micro=_micro_rprec,
    ties=_tie_r_precision,
    trec_eval=(
        TrecEval("Rprec"),
        TrecEval(
            "Rprec_mult",
            params="double_cutoffs",
            default=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            compute="rprec_mult",
            printed="Rprec_mult_x",
        ),
    ),
    notes="Divides by R (by c) even when fewer documents were retrieved (trec_eval). "
    "c is truncated after adding 0.9, as trec_eval 10.0 still does; mult=1 gives Rprec.",
    checked_by=(
        "tests/measures/test_measures_trec.py::test_byr_average_precision_and_r_precision",
        ORACLE,
        TIES,
        CUT,
    ),
)
def r_precision(jr: JudgedRankings, *, rel: int, mult: float = 1.0) -> np.ndarray:
    c = _rprec_cut(jr, rel, mult)
    return ratio(rel_count_at(jr, rel, np.minimum(jr.num_ret, c)), c)


def _tie_success(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """P(rel@k > 0) = 1 - [S_g = 0] C(n_g - r_g, m) / C(n_g, m), m = k - T_g (McSherry &
    Najork sec. 2.3)."""
    at = AtK(jr, jr.relevant(rel), cutoff)
    i = at.n - at.r
    none = np.zeros(len(at.q))
    possible = (at.S == 0) & (at.m <= i)
    m = np.where(possible, at.m, 0)
    none[possible] = np.exp(log_binom(i, m) - log_binom(at.n, m))[possible]
    out = np.zeros(jr.num_queries)
    out[at.q] = 1.0 - none
    return out


@measure(
    "Success",
    core_kernel="success",
    cutoff=CUTOFF,
    params=(REL,),
    summary="1 if a relevant document is in the top k, else 0",
    formula="Success@k = [rel(k) > 0]",
    source="trec_eval 10.0 m_success.c",
    better="higher",
    undefined=(),
    ties=_tie_success,
    trec_eval=TrecEval(
        "success",
        params="long_cutoffs",
        default=(1, 5, 10),
        compute="per_cutoff",
        printed="success_k",
    ),
    checked_by=(ORACLE, TIES, CUT),
)
def success(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return (rel_count_at(jr, rel, cutoff) > 0).astype(np.float64)


def _tie_relative_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[RelP@k] = E[rel@k] / min(k, R)."""
    R = jr.num_rel(rel)
    return ratio(expected_count_at(jr, jr.relevant(rel), cutoff), np.minimum(cutoff, R))


@measure(
    "RelP",
    cutoff=CUTOFF,
    params=(REL,),
    summary="relative precision at k: relevant in the top k over min(k, R)",
    formula="RelP@k = rel(k) / min(k, R); 0 if R = 0",
    source="trec_eval 10.0 m_rel_P.c (relative_P_k)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_relative_precision,
    core_kernel="rel_p",
    trec_eval=TrecEval(
        "relative_P",
        params="long_cutoffs",
        default=DEFAULT_CUTOFFS,
        compute="per_cutoff",
        printed="relative_P_k",
    ),
    checked_by=(ORACLE, TIES, CUT),
)
def relative_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return ratio(rel_count_at(jr, rel, cutoff), np.minimum(cutoff, num_rel(jr, rel)))


def _tie_unjudged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Unjudged@k] = E[unjudged@k] / k."""
    return expected_count_at(jr, jr.grades < 0, cutoff) / float(cutoff)


@measure(
    "Unjudged",
    cutoff=CUTOFF,
    summary="fraction of the top k that is unjudged (missing ranks count as judged)",
    formula="Unjudged@k = |{i <= min(k, n) : d_i not judged}| / k",
    source="trec_eval 10.0 m_unjudged.c (unj_k, Soboroff 2023)",
    better="none",
    undefined=(),
    ties=_tie_unjudged,
    trec_eval=TrecEval(
        "unj", params="long_cutoffs", default=(5, 10, 20), compute="unj", printed="unj_k"
    ),
    notes="A diagnostic of the judgments, not a measure of the run's quality (compare does "
    "not rank runs by it). Unjudged = not in the qrels or in them with a negative grade; always "
    "0 under judged_only. trec_eval prints 0 for queries missing from the run under -c (an "
    "empty ranking gives 0 here too).",
    checked_by=(ORACLE, TIES, CUT),
)
def unjudged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return mask_count_at(jr, "unjudged", lambda: jr.grades < 0, cutoff) / float(cutoff)


def _micro_judged(jr: JudgedRankings, *, cutoff: int, **_: object) -> tuple[np.ndarray, np.ndarray]:
    return jr.count_at(jr.grades >= 0, cutoff), np.full(jr.num_queries, float(cutoff))


def _tie_judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Judged@k] = E[judged@k] / k."""
    return expected_count_at(jr, jr.grades >= 0, cutoff) / float(cutoff)


@measure(
    "Judged",
    cutoff=CUTOFF,
    summary="fraction of the top k that is judged",
    formula="Judged@k = |{i <= min(k, n) : grade(d_i) >= 0}| / k",
    source="MacAvaney, Macdonald & Ounis, 'Streamlining evaluation with ir-measures', ECIR "
    "2022 (Judged@k, 'P@k with a rel lower than any judgment'); its complement is trec_eval "
    "10.0's unj_k (m_unjudged.c)",
    better="none",
    undefined=(),
    micro=_micro_judged,
    ties=_tie_judged,
    notes="A diagnostic of the judgments (compare does not rank runs by it). Divides by k, as "
    "P@k and as ir_measures describes it; ir_measures' implementation divides by min(k, n) "
    "when fewer than k documents are retrieved (3 judged of 3 retrieved: Judged@10 = 0.3 here, "
    "1.0 there) and counts a negative qrels grade as judged. Here a negative grade means 'in "
    "the pool, not judged' (trec_eval's convention, as in unj_k), so Judged@k + Unjudged@k = "
    "min(k, n) / k.",
    checked_by=(
        "tests/judging/test_judged_vs_ir_measures.py::"
        "test_equal_with_at_least_k_documents_distinct_scores_and_no_negative_grades",
        TIES,
        CUT,
    ),
)
def judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return mask_count_at(jr, "judged", lambda: jr.grades >= 0, cutoff) / float(cutoff)
