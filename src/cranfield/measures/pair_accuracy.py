"""Pairwise accuracy of a ranking: the share of (relevant, non-relevant) pairs of retrieved
documents that the ranking orders right.

ir_measures 0.4 ``Accuracy`` (``ir_measures/providers/accuracy_provider.py``, after Bradley,
'The use of the area under the ROC curve in the evaluation of machine learning algorithms',
Pattern Recognition 30(7), 1997: the AUC restricted to the retrieved documents).  It is a
diagnostic (do training, validation and test rankings separate relevant from non-relevant
documents equally well?), not an effectiveness measure: it ignores what was not retrieved.
cranfield names it ``PairAccuracy``: ``Accuracy@k`` is MTEB's top-k accuracy
(:mod:`cranfield.measures.mteb`).
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.registry import CUTOFF_OPTIONAL, REL, Undefined, measure

IR_MEASURES = "ir_measures 0.4.3, providers/accuracy_provider.py (Accuracy)"
CHECKED = "tests/measures/test_pair_accuracy.py::"


def _counts(
    jr: JudgedRankings, cutoff: int | None, rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query, among the first ``cutoff`` rows: the pairs ordered wrong (a non-relevant
    row above a relevant one), the relevant rows and the non-relevant rows (unjudged
    documents and negative grades are non-relevant, as in ir_measures)."""
    limit = jr.limit(cutoff)
    inside = np.ones(len(jr.grades), dtype=bool) if limit is None else jr.rank <= limit
    relevant = jr.relevant(rel) & inside
    nonrel = ~jr.relevant(rel) & inside
    nq = jr.num_queries
    # the non-relevant rows above each row (exact integers): the running count before it,
    # less the count before its query's first row
    running = np.concatenate(([0], np.cumsum(nonrel, dtype=np.int64)))
    above = running[:-1] - running[jr.offsets[:-1]][jr.row_query]
    q = jr.row_query[relevant]
    wrong = np.bincount(q, weights=above[relevant].astype(np.float64), minlength=nq)
    found = np.bincount(q, minlength=nq)
    missed = np.bincount(jr.row_query[nonrel], minlength=nq)
    return wrong, found, missed


def _no_relevant_retrieved(
    jr: JudgedRankings, *, cutoff: int | None = None, rel: int = 1, **_: object
) -> np.ndarray:
    result: np.ndarray = _counts(jr, cutoff, rel)[1] == 0
    return result


def _only_relevant_retrieved(
    jr: JudgedRankings, *, cutoff: int | None = None, rel: int = 1, **_: object
) -> np.ndarray:
    found, missed = _counts(jr, cutoff, rel)[1:]
    result: np.ndarray = (found > 0) & (missed == 0)
    return result


NO_RELEVANT_RETRIEVED = Undefined(
    "no relevant document retrieved (in the top k): no pair",
    "0; ir_measures leaves the query out (cranfield.compat.ir_measures does too)",
    _no_relevant_retrieved,
)
ONLY_RELEVANT_RETRIEVED = Undefined(
    "every retrieved document (in the top k) relevant: no pair",
    "1 (no pair ordered wrong); ir_measures 0.4.3 fails with ZeroDivisionError",
    _only_relevant_retrieved,
)


@measure(
    "PairAccuracy",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    summary="share of (relevant, non-relevant) retrieved pairs ranked in the right order",
    formula="PairAccuracy@k = 1 - sum_{d relevant in top k} |{n non-relevant above d}| / "
    "(N_k RR_k), RR_k = relevant and N_k = non-relevant documents in the top k",
    source=f"{IR_MEASURES}; Bradley, Pattern Recognition 30(7), 1997 (AUC)",
    better="higher",
    undefined=(NO_RELEVANT_RETRIEVED, ONLY_RELEVANT_RETRIEVED),
    ties=None,
    no_ties="not implemented: a cut-off inside a tie group changes both counts of the ratio",
    checked_by=(
        CHECKED + "test_ir_measures_worked_example",
        CHECKED + "test_equal_to_a_count_of_pairs",
        CHECKED + "test_equal_to_ir_measures",
    ),
    notes="ir_measures' Accuracy.  Non-relevant includes unjudged documents and negative "
    "grades.  A diagnostic of how well a ranking separates relevant from non-relevant "
    "documents among those it retrieved, not an effectiveness measure.",
)
def pair_accuracy(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    wrong, found, missed = _counts(jr, cutoff, rel)
    out = np.zeros(jr.num_queries)
    pairs = missed.astype(np.float64) * found  # as ir_measures: float(N) * RR
    some = pairs > 0
    out[some] = 1.0 - wrong[some] / pairs[some]
    out[(found > 0) & (missed == 0)] = 1.0
    return out
