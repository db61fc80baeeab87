"""MTEB's retrieval measures beyond trec_eval's (``mteb/_evaluators/retrieval_metrics.py``,
mteb 2.26.24): capped recall ``R_cap@k`` and top-k accuracy ``Accuracy@k``.

Both read the ranking in trec_eval's order, as MTEB does since mteb#5092 (PRs #5136, #5241:
``sorted(..., key=(score, doc_id), reverse=True)``, score then document id descending;
before, a score-only stable sort left tied documents in the dict's order).  Relevant is
``grade > 0`` in MTEB: ``rel=1``.  MTEB's ``Hole@k`` needs every document judged for any query
of the collection, which the judged rankings do not carry: :mod:`cranfield.compat.mteb`
computes it from the qrels and the run.
"""

from __future__ import annotations

import numpy as np

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

MTEB = "mteb 2.26.24, mteb/_evaluators/retrieval_metrics.py"
CHECKED = "tests/compat/test_compat_mteb.py::test_measures_equal_mtebs_computation"

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
