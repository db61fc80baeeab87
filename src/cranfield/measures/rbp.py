"""Rank-biased precision and its residual.

Moffat & Zobel, 'Rank-biased precision for measurement of retrieval effectiveness', ACM
TOIS 27(1), 2008, article 2: ``RBP = (1 - p) sum_i g_i p^(i-1)`` for a user who goes on to the
next document with probability ``p``; the residual is the largest amount unjudged documents
and the unseen tail could add.  trec_eval 10.0 ``m_rbp.c``, ``m_rbp_resid.c`` (Soboroff).
Powers ``p^i`` are formed by repeated multiplication, as trec_eval does.  Tie-aware forms:
``E[RBP] = (1-p) sum_g (G_g / n_g) sum_{i in g} p^(i-1)`` (linear in the gains, as DCG).
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.dcg import GAINS
from cranfield.measures.kernels.counting import memo, row_seqsum, seqsum
from cranfield.measures.kernels.gains import Gains, gain_pairs, gain_table
from cranfield.measures.oracles import TIES
from cranfield.measures.registry import Param, TrecEval, measure
from cranfield.ties.expected import positional_sum

MZ = (
    "Moffat & Zobel, 'Rank-biased precision for measurement of retrieval effectiveness', ACM "
    "TOIS 27(1), 2008"
)


P = Param("p", "float", 0.9, "persistence: probability of reading on", above=0.0, below=1.0)


def powers(p: float, n: int) -> np.ndarray:
    """``p^0 .. p^n`` by repeated multiplication (``cur_p = cur_p * p``)."""
    seq = np.full(n + 1, p)
    seq[0] = 1.0
    return np.multiply.accumulate(seq)


def _tie_rbp(jr: JudgedRankings, *, p: float, gains: Gains | None) -> np.ndarray:
    """E[RBP] = (1 - p) sum_g (G_g / n_g) sum_{i in g} p^(i-1) (gains as RBP's)."""
    gt = gain_table(jr, gains, normalise=True)
    pw = powers(p, jr.max_rank)
    return (1.0 - p) * positional_sum(jr, gt.row_gain, lambda w, i: w * pw[i - 1], None)


@measure(
    "RBP",
    params=(P, GAINS),
    summary="rank-biased precision: expected gain per document read by a persistent user",
    formula="RBP = (1 - p) sum_i g(d_i) p^(i-1), gains rescaled to [0, 1] per query",
    source=MZ + ", eq. 5; trec_eval 10.0 m_rbp.c",
    better="higher",
    undefined=(),
    ties=_tie_rbp,
    trec_eval=TrecEval("rbp", params="pairs", compute="rbp"),
    checked_by=("tests/measures/test_measures_trec.py::test_rbp_and_residual", TIES),
    notes="Gains follow trec_eval's gain table (default: the grade). trec_eval 10.0 rescales "
    "them per query when any is outside [0, 1]: g -> (g - lo) / (hi - lo), lo = min(0, gains), "
    "hi = max(0, gains) over the query's grades 0..max and the given ones (its lo/hi are "
    "uninitialised; these are the reference build's values). With binary qrels this is "
    "Moffat & Zobel's RBP; in a query graded 0..3 a grade-1 document is worth 1/3.",
)
def rbp(jr: JudgedRankings, *, p: float, gains: Gains | None) -> np.ndarray:
    gt = memo(
        jr,
        ("gain_table", gain_pairs(gains), True),
        lambda: gain_table(jr, gains, normalise=True),
    )
    rows = np.flatnonzero(gt.row_gain != 0)
    pw = powers(p, jr.max_rank)
    total = seqsum(jr, rows, gt.row_gain[rows] * pw[jr.rank[rows] - 1])
    return (1.0 - p) * total


def rbp_residual(jr: JudgedRankings, p: float) -> tuple[np.ndarray, np.ndarray]:
    """(residual, number of unjudged retrieved) per query."""
    pw = powers(p, jr.max_rank)
    unjudged = jr.grades < 0
    # p^(i-1) at unjudged ranks, 0.0 elsewhere: adding 0.0 leaves a sum unchanged
    total = row_seqsum(jr, np.where(unjudged, pw[jr.rank - 1], 0.0))
    return pw[jr.num_ret] + (1 - p) * total, jr.count(unjudged)


def _tie_rbp_resid(jr: JudgedRankings, *, p: float) -> np.ndarray:
    """E[RBPResid] = p^n + (1 - p) sum_g (U_g / n_g) sum_{i in g} p^(i-1), U_g unjudged."""
    pw = powers(p, jr.max_rank)
    unjudged = (jr.grades < 0).astype(np.float64)
    result: np.ndarray = pw[jr.num_ret] + (1 - p) * positional_sum(
        jr, unjudged, lambda w, i: w * pw[i - 1], None
    )
    return result


@measure(
    "RBPResid",
    params=(P,),
    summary="RBP residual: what unjudged documents and the unseen tail could add to RBP",
    formula="RBPResid = p^n + (1 - p) sum_{i <= n, d_i unjudged} p^(i-1)",
    source=MZ + ", sec. 4 (residuals); trec_eval 10.0 m_rbp_resid.c",
    better="none",
    undefined=(),
    ties=_tie_rbp_resid,
    trec_eval=TrecEval("rbp_resid", params="pairs", compute="rbp_resid"),
    checked_by=("tests/measures/test_measures_trec.py::test_rbp_and_residual", TIES),
    notes="Unjudged = not in the qrels or with a negative grade. trec_eval prints 0 instead "
    "of p^n when no retrieved document is unjudged (and 0 for queries missing from the run "
    "under -c); 'cranfield trec_eval' reproduces that, RBPResid does not.",
)
def rbp_resid(jr: JudgedRankings, *, p: float) -> np.ndarray:
    return rbp_residual(jr, p)[0]
