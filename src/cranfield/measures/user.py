"""User-oriented measures: coverage, novelty, relative recall and recall effort.

They need what the user knows or wants (see :mod:`cranfield.measure_inputs`):

- ``U``: the documents known to the user (``--known``, grade > 0 in a qrels-format file) that
  the qrels judge relevant; ``A``: the examined documents (the top k, or the whole ranking);
  ``R``: the relevant documents (grade >= rel);
- ``Rk = U ∩ A ∩ R`` (known and found), ``Ru = (A ∩ R) \\ U`` (relevant found, new to the user);
- ``t``: the number of relevant documents the user wants (``--target``).

Chen (seed 004) "User-Oriented Measures"; Baeza-Yates & Ribeiro-Neto (1999) sec. 3.2.2; Keen
(seed 002) sec. 7 (relative recall).
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from ..judged_rankings import JudgedRankings
from .registry import CUTOFF_OPTIONAL, REL, Param, Undefined, measure

CHEN = "Chen, 'Retrieval Evaluation - Measures' (seed 004), user-oriented measures"


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _known(jr: JudgedRankings, name: str):
    if jr.known is None:
        raise ParameterError(
            f"{name} needs the documents known to the user: give --known FILE (qrels format; "
            "grade > 0 = known) on the command line, or known= in Python"
        )
    return jr.known


def _target(jr: JudgedRankings, name: str) -> np.ndarray:
    if jr.target is None:
        raise ParameterError(
            f"{name} needs the number of relevant documents the user wants: give --target N "
            "(or a file of 'qid N' lines) on the command line, or target= in Python"
        )
    return np.asarray(jr.target, dtype=np.int64)


def _examined(jr: JudgedRankings, cutoff: int | None) -> np.ndarray:
    return np.ones(len(jr.grades), dtype=bool) if cutoff is None else jr.rank <= cutoff


def _coverage_parts(jr: JudgedRankings, *, cutoff: int | None, rel: int):
    known = _known(jr, "Coverage")
    rk = jr.count(known.rows & jr.relevant(rel) & _examined(jr, cutoff))
    return rk, known.num_known_relevant(rel)


def _no_known(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return _known(jr, "Coverage").num_known_relevant(rel) == 0


@measure(
    "Coverage",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    summary="share of the relevant documents known to the user that the run found",
    formula="Coverage@k = |Rk| / |U|",
    source=CHEN + ", coverage ratio",
    family="user",
    micro=_coverage_parts,
    undefined=(Undefined("the user knows no relevant document (|U| = 0)", "0", _no_known),),
    notes="Needs --known.",
)
def coverage(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    return _ratio(*_coverage_parts(jr, cutoff=cutoff, rel=rel))


def _novelty_parts(jr: JudgedRankings, *, cutoff: int | None, rel: int):
    known = _known(jr, "Novelty")
    found = jr.relevant(rel) & _examined(jr, cutoff)
    return jr.count(found & ~known.rows), jr.count(found)


def _none_found(jr: JudgedRankings, cutoff: int | None = None, rel: int = 1, **_: object):
    return jr.count(jr.relevant(rel) & _examined(jr, cutoff)) == 0


@measure(
    "Novelty",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    summary="share of the relevant documents found that were unknown to the user",
    formula="Novelty@k = |Ru| / (|Ru| + |Rk|)",
    source=CHEN + ", novelty ratio",
    family="user",
    micro=_novelty_parts,
    undefined=(Undefined("no relevant document found", "0", _none_found),),
    notes="Needs --known.",
)
def novelty(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    return _ratio(*_novelty_parts(jr, cutoff=cutoff, rel=rel))


CAP = Param("cap", "bool", True, "count at most the target (so the ratio is at most 1)")


def _relative_recall_parts(jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool):
    t = _target(jr, "RelativeRecall")
    found = jr.count(jr.relevant(rel) & _examined(jr, cutoff))
    return (np.minimum(found, t) if cap else found), t


@measure(
    "RelativeRecall",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL, CAP),
    summary="relevant documents found relative to the number the user wants",
    formula="RelativeRecall@k = min(rel(k), t) / t   (cap=false: rel(k) / t)",
    source="Keen (seed 002) sec. 7; " + CHEN + ", relative recall",
    family="user",
    micro=_relative_recall_parts,
    notes="Needs --target. Keen: a user may find more than wanted ('1.5 recall would not be "
    "very useful'), hence the cap by default.",
)
def relative_recall(jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool) -> np.ndarray:
    return _ratio(*_relative_recall_parts(jr, cutoff=cutoff, rel=rel, cap=cap))


def _effort_rank(jr: JudgedRankings, rel: int) -> tuple[np.ndarray, np.ndarray]:
    t = _target(jr, "RecallEffort")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    hit = jr.cumcount(relv)[rows] == t[jr.row_query[rows]]
    rank = np.zeros(jr.num_queries, dtype=np.int64)
    rank[jr.row_query[rows[hit]]] = jr.rank[rows[hit]]
    return rank, t


def _not_reached(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return _effort_rank(jr, rel)[0] == 0


@measure(
    "RecallEffort",
    params=(REL,),
    summary="target over the documents examined to find that many relevant documents",
    formula="RecallEffort = t / r_t (r_t = rank of the t-th relevant document)",
    source=CHEN + ", recall effort; Baeza-Yates & Ribeiro-Neto (1999) sec. 3.2.2",
    family="user",
    undefined=(Undefined("the ranking holds fewer than t relevant documents", "0", _not_reached),),
    notes="Needs --target. 1 when the first t documents are all relevant.",
)
def recall_effort(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rank, t = _effort_rank(jr, rel)
    return _ratio(np.where(rank > 0, t, 0), rank)
