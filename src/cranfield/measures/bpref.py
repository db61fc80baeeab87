"""Measures for incomplete judgments: bpref, its geometric mean, and inferred AP.

Buckley & Voorhees (2004) 'Retrieval evaluation with incomplete information', SIGIR (bpref,
in the corrected form of trec_eval 8.0); Yilmaz & Aslam (2006) 'Estimating average precision
with incomplete and imperfect judgments', CIKM (infAP); trec_eval 10.0 ``m_bpref.c``,
``m_gm_bpref.c``, ``m_infap.c``.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import UNJUDGED, JudgedRankings
from .counting import count_above, memo, num_rel, rel_position, relevant_rows, seqsum
from .precision import NO_REL
from .registry import GM_EPS, REL, measure

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


@measure(
    "Bpref",
    params=(REL,),
    summary="binary preference: how often judged relevant precede judged non-relevant",
    formula="Bpref = (1/R) sum_{d relevant retrieved} (1 - min(|n ranked above d|, R) / "
    "min(N, R)), n = judged non-relevant, N = judged non-relevant in the qrels",
    source="Buckley & Voorhees (2004) SIGIR, as corrected in trec_eval 8.0; trec_eval m_bpref.c",
    family="incomplete",
    undefined=(NO_REL,),
    trec="bpref",
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
    family="incomplete",
    aggregate="gmean",
    undefined=(NO_REL,),
    trec="gm_bpref",
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
    source="Yilmaz & Aslam (2006) CIKM; trec_eval 10.0 m_infap.c",
    family="incomplete",
    undefined=(NO_REL,),
    trec="infAP",
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
