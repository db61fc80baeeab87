"""MTEB's retrieval measures beyond trec_eval's (``mteb/_evaluators/retrieval_metrics.py``,
mteb 2.26.24): capped recall ``R_cap@k`` and top-k accuracy ``Accuracy@k``.

and the share of holes ``Hole@k``.

All read the ranking in trec_eval's order, as MTEB does since mteb#5092 (PRs #5136, #5241:
``sorted(..., key=(score, doc_id), reverse=True)``, score then document id descending;
before, a score-only stable sort left tied documents in the dict's order).  Relevant is
``grade > 0`` in MTEB: ``rel=1``.  ``Hole@k`` reads which documents the whole qrels judge, for
any query, from the join (:attr:`~cranfield.judging.rankings.JudgedRankings.annotated`).
"""

from __future__ import annotations

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.oracles import CUT, TIES
from cranfield.measures.precision import (
    NO_REL,
    _tie_relative_precision,
    _tie_success,
    relative_precision,
)
from cranfield.measures.precision import success as _success
from cranfield.measures.registry import CUTOFF, REL, Undefined, measure
from cranfield.ties.expected import expected_count_at

MTEB = "mteb 2.26.24, mteb/_evaluators/retrieval_metrics.py"
CHECKED = "tests/compat/test_compat_mteb.py::test_measures_equal_mtebs_computation"
HOLE = "tests/compat/test_mteb_hole.py::"

R_IS_0 = Undefined(
    "the query has no relevant document (R = 0)",
    "0; MTEB's recall_cap gives None and leaves the query out of the mean "
    "(cranfield.compat.mteb does too)",
    NO_REL.mask,
)


@measure(
    "R_cap",
    cutoff=CUTOFF,
    params=(REL,),
    summary="capped recall: relevant in the top k over min(R, k)",
    formula="R_cap@k = rel(k) / min(R, k)",
    source=f"{MTEB}, recall_cap (as trec_eval's relative_P)",
    better="higher",
    undefined=(R_IS_0,),
    ties=_tie_relative_precision,
    checked_by=(CHECKED, TIES, CUT),
)
def recall_cap(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return relative_precision(jr, cutoff=cutoff, rel=rel)


@measure(
    "Accuracy",
    cutoff=CUTOFF,
    params=(REL,),
    summary="top-k accuracy: 1 if a relevant document is in the top k, else 0",
    formula="Accuracy@k = [rel(k) > 0]",
    source=f"{MTEB}, top_k_accuracy (as trec_eval's success)",
    better="higher",
    undefined=(),
    ties=_tie_success,
    checked_by=(CHECKED, TIES, CUT),
)
def accuracy(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _success(jr, cutoff=cutoff, rel=rel)


READS_ANNOTATION = frozenset({"Hole"})
"""The measures that read :attr:`~cranfield.judging.rankings.JudgedRankings.annotated` (which
only the join's rankings carry: the compiled core's dict path leaves them to the join)."""


def _holes(jr: JudgedRankings) -> np.ndarray:
    """Per row: the document is judged for no query of the qrels (a hole)."""
    annotated = jr.annotated
    if annotated is None:
        raise ParameterError(
            "Hole@k needs the whole qrels' judged documents, which these rankings do not carry "
            "(they were not made by cranfield's join); evaluate with cranfield.evaluate"
        )
    return ~annotated


def _tie_hole(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Hole@k] = E[holes in the top k] / k."""
    limit = jr.limit(cutoff)
    return expected_count_at(jr, _holes(jr), cutoff if limit is None else limit) / float(cutoff)


@measure(
    "Hole",
    cutoff=CUTOFF,
    summary="share of the top k that no query's qrels judge (unannotated documents)",
    formula="Hole@k = |{d in top k : d judged for no query of the qrels}| / k",
    source=f"{MTEB}, hole (Thakur et al., BEIR, NeurIPS 2021 Datasets and Benchmarks, sec. 5)",
    better="none",
    undefined=(),
    ties=_tie_hole,
    checked_by=(
        HOLE + "test_hole_equals_mtebs_formula_per_query",
        HOLE + "test_weak_hole_is_the_average_over_all_tie_breakings",
    ),
    notes="Divides by k even when fewer than k documents are ranked, as MTEB.  A document "
    "judged with any grade (0 and negative included) for any query is not a hole.",
)
def hole(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    return jr.count_at(_holes(jr), cutoff) / float(cutoff)
