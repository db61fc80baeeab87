"""Measures for incomplete judgments: bpref, its geometric mean, and inferred AP.

Buckley & Voorhees, 'Retrieval evaluation with incomplete information', SIGIR 2004 (bpref,
in the corrected form of trec_eval 8.0); Yilmaz & Aslam, 'Estimating average precision with
incomplete and imperfect judgments', CIKM 2006 (infAP); trec_eval 10.0 ``m_bpref.c``,
``m_gm_bpref.c``, ``m_infap.c``.  Bpref's tie-aware form is this project's derivation,
verified by enumeration: a relevant document's place among the ``u_g`` judged non-relevant
documents of its own level is uniform.
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.judging.rankings import UNJUDGED, JudgedRankings
from cranfield.measures.kernels.counting import (
    count_above,
    memo,
    num_rel,
    ratio,
    rel_position,
    relevant_rows,
    seqsum,
)
from cranfield.measures.oracles import CUT, ORACLE, TIES
from cranfield.measures.precision import NO_REL
from cranfield.measures.registry import GM_EPS, REL, TrecEval, measure
from cranfield.ties.expected import cut_levels, retrieved_part_mean, uniform_before
from cranfield.ties.levels import marked_levels

INFAP_EPSILON = 1e-5


def _nonrel_rows(jr: JudgedRankings, rel: int) -> np.ndarray:
    """Rows of judged non-relevant documents (0 <= grade < rel)."""
    L = max(rel, 0)
    return memo(jr, ("nonrel_rows", L), lambda: np.flatnonzero((jr.grades >= 0) & (jr.grades < L)))


def _bpref(jr: JudgedRankings, rel: int) -> np.ndarray:
    L = max(rel, 0)
    rows, q, _rank = relevant_rows(jr, rel)
    R = num_rel(jr, rel)
    n_nonrel = jr.qrels_count((jr.qrels_grades >= 0) & (jr.qrels_grades < L))
    nr = count_above(jr, _nonrel_rows(jr, rel), rows)
    terms = np.ones(len(rows))
    some = nr > 0
    terms[some] = 1.0 - (
        np.minimum(nr[some], R[q[some]]).astype(np.float64)
        / np.minimum(n_nonrel[q[some]], R[q[some]]).astype(np.float64)
    )
    total = seqsum(jr, rows, terms)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=R > 0)
    return out


def tie_bpref(jr: JudgedRankings, rel: int) -> np.ndarray:
    """E[Bpref] = (1/R) sum_g r_g (1 - E[min(a_g + V, R)] / min(N, R)), V uniform on 0..u_g
    (a_g, u_g: judged non-relevant before / in level g; N: judged non-relevant in the qrels)."""
    L = max(rel, 0)
    relv = jr.relevant(rel)
    ml = marked_levels(jr, np.flatnonzero(relv), True)
    nonrel = np.flatnonzero((jr.grades >= 0) & (jr.grades < L))
    a, u = uniform_before(jr, ml, nonrel)
    R = jr.num_rel(rel)
    D = np.minimum(jr.qrels_count((jr.qrels_grades >= 0) & (jr.qrels_grades < L)), R)
    Rg, Dg = R[ml.query], D[ml.query]
    # sum_{v=0..u} min(a + v, R): (t + 1) a + t (t + 1) / 2 + (u - t) R with t = min(u, R-a-1)
    t = np.minimum(u, Rg - a - 1)
    below = t >= 0
    total_min = np.where(below, (t + 1) * a + t * (t + 1) // 2 + (u - t) * Rg, (u + 1) * Rg)
    mean_min = total_min / (u + 1)
    term = np.ones(len(ml.start))
    some = Dg > 0
    term[some] = 1.0 - (mean_min[some] / Dg[some].astype(np.float64))
    contrib = np.where(ml.marked == 1, term, ml.marked * term)
    cut, m = cut_levels(jr, ml)
    if len(cut):  # only the first m positions of the level are retrieved
        ac, Rc, Dc = a[cut], Rg[cut], Dg[cut].astype(np.float64)

        def value(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            out = np.ones(len(g))
            some = Dc[g] > 0
            out[some] = 1.0 - np.minimum(ac[g] + v, Rc[g])[some] / Dc[g][some]
            return out

        contrib[cut] = ml.marked[cut] * retrieved_part_mean(ml.size[cut], m, u[cut], value)
    total = segment_total(ml.query, contrib, jr.num_queries)
    return ratio(total, R)


def _tie_bpref(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Bpref] = (1/R) sum_g r_g (1 - E[min(a_g + V, R)] / min(N, R)), V uniform on 0..u_g."""
    return tie_bpref(jr, rel)


def _tie_gm_bpref(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    """Per query E[Bpref]; the aggregate is the geometric mean of these expectations."""
    return tie_bpref(jr, rel)


@measure(
    "Bpref",
    params=(REL,),
    summary="binary preference: how often judged relevant precede judged non-relevant",
    formula="Bpref = (1/R) sum_{d relevant retrieved} (1 - min(|n ranked above d|, R) / "
    "min(N, R)), n = judged non-relevant, N = judged non-relevant in the qrels",
    source="Buckley & Voorhees, 'Retrieval evaluation with incomplete information', SIGIR "
    "2004, as corrected in trec_eval 8.0; trec_eval 10.0 m_bpref.c",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_bpref,
    core_kernel="bpref",
    trec_eval=TrecEval("bpref"),
    checked_by=("tests/measures/test_measures_trec.py::test_bpref_and_infap", ORACLE, TIES, CUT),
    notes="Unjudged documents (not in the qrels, or with a negative grade) are skipped; N "
    "counts the whole qrels of the query, retrieved or not (trec_eval).",
)
def bpref(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _bpref(jr, rel)


@measure(
    "GMBpref",
    params=(
        REL,
        GM_EPS,
    ),
    summary="geometric mean of bpref over queries",
    formula="GMBpref = exp(mean_q ln(max(Bpref_q, eps))), eps = 1e-5",
    source="trec_eval 10.0 m_gm_bpref.c (MIN_GEO_MEAN = 1e-5)",
    better="higher",
    aggregate="gmean",
    undefined=(NO_REL,),
    ties=_tie_gm_bpref,
    core_kernel="bpref",
    trec_eval=TrecEval("gm_bpref", kind="gm", compute="gm"),
    checked_by=(ORACLE, TIES),
    notes="Per query the value shown is Bpref; the aggregate is the geometric mean.",
)
def gm_bpref(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    return _bpref(jr, rel)


@measure(
    "infAP",
    params=(REL,),
    summary="inferred average precision (estimates AP from a judged sample of the pool)",
    formula="infAP = (1/R) sum_{d_i relevant} [1/i + ((i-1)/i) * ((k-1+nr+u)/(i-1)) * "
    "((k-1+eps)/(k-1+nr+2 eps))], over i > 1 (1 at rank 1); k = relevant up to i, nr/u = "
    "judged non-relevant / in-pool unjudged above i, eps = 1e-5",
    source="Yilmaz & Aslam, 'Estimating average precision with incomplete and imperfect "
    "judgments', CIKM 2006; trec_eval 10.0 m_infap.c",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="no closed form: a ratio of counts above each relevant document",
    core_kernel="infap",
    trec_eval=TrecEval("infAP"),
    checked_by=("tests/measures/test_measures_trec.py::test_bpref_and_infap", ORACLE),
    notes="Documents in the qrels with a negative grade are the pooled-but-unjudged sample "
    "complement; documents not in the qrels count as non-relevant through the 1/i term only. "
    "With complete binary judgments infAP equals AP up to the eps terms.",
)
def infap(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rows, _q, rank = relevant_rows(jr, rel)
    _first, pos = rel_position(jr, rel)
    k1 = pos - 1
    nr = count_above(jr, _nonrel_rows(jr, rel), rows)
    unjudged = memo(jr, "unjudged_rows", lambda: np.flatnonzero(jr.grades == UNJUDGED))
    u = count_above(jr, unjudged, rows)
    fj = (rank - 1).astype(np.float64)
    terms = np.ones(len(rows))
    later = fj > 0
    f = fj[later]
    terms[later] = 1.0 / (f + 1.0) + (f / (f + 1.0)) * ((k1 + nr + u)[later] / f) * (
        (k1[later] + INFAP_EPSILON) / ((k1 + nr)[later] + 2 * INFAP_EPSILON)
    )
    total = seqsum(jr, rows, terms)
    R = num_rel(jr, rel)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=R > 0)
    return out
