"""User-oriented measures: coverage, novelty, relative recall and recall effort.

They need what the user knows or wants (see :mod:`cranfield.judging.side_inputs`):

- ``U``: the documents known to the user (``--known``, grade > 0 in a qrels-format file) that
  the qrels judge relevant; ``A``: the examined documents (the top k, or the whole ranking);
  ``R``: the relevant documents (grade >= rel);
- ``Rk = U ∩ A ∩ R`` (known and found), ``Ru = (A ∩ R) \\ U`` (relevant found, new to the user);
- ``t``: the number of relevant documents the user wants (``--target``).

Chen's slides 'Retrieval Evaluation - Measures' (user-oriented measures); Baeza-Yates &
Ribeiro-Neto, Modern Information Retrieval, 1999, sec. 3.2.2; Keen, 'Evaluation parameters',
SMART report ISR-13, sec. II.7 (relative recall).  Tie-aware forms: coverage and uncapped
relative recall are linear in a count at k; the capped relative recall sums ``min(S + Y, t)``
over the hypergeometric law of the relevant documents Y that the level straddling k puts in
the top k; recall effort is the expected precision EP(NR=t) of Raghavan, Jung & Bollmann.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import ratio
from cranfield.measures.kernels.final_level import expected_precision_at_nr
from cranfield.measures.oracles import LIT, NAIVE
from cranfield.measures.registry import CUTOFF_OPTIONAL, REL, Param, Undefined, measure
from cranfield.measures.sources import BAEZA_YATES, CHEN, KEEN
from cranfield.measures.weak_order import SPLIT
from cranfield.ties.expected import AtK, expected_count_at, refuse_cut
from cranfield.ties.levels import log_binom

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.judging.side_inputs import KnownDocs

USER = f"{CHEN}, user-oriented measures"
INPUTS = "tests/measures/test_measures_literature_inputs.py::"


def _known(jr: JudgedRankings, name: str) -> KnownDocs:
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


def _coverage_parts(
    jr: JudgedRankings, *, cutoff: int | None, rel: int
) -> tuple[np.ndarray, np.ndarray]:
    known = _known(jr, "Coverage")
    rk = jr.count(known.rows & jr.relevant(rel) & _examined(jr, cutoff))
    return rk, known.num_known_relevant(rel)


def _no_known(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = _known(jr, "Coverage").num_known_relevant(rel) == 0
    return result


def _tie_coverage(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[Coverage@k] = E[known relevant in the top k] / |U|."""
    if cutoff is None and not jr.cut:
        return coverage(jr, cutoff=None, rel=rel)
    # no cutoff: the retrieved set (its part of the split level is random)
    k: int | np.ndarray = jr.num_ret if cutoff is None else cutoff
    known = _known(jr, "Coverage")
    found = expected_count_at(jr, known.rows & jr.relevant(rel), k)
    return ratio(found, known.num_known_relevant(rel))


@measure(
    "Coverage",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    summary="share of the relevant documents known to the user that the run found",
    formula="Coverage@k = |Rk| / |U|",
    source=f"{USER}, coverage ratio",
    better="higher",
    needs=("known",),
    micro=_coverage_parts,
    ties=_tie_coverage,
    checked_by=(INPUTS + "test_coverage_and_novelty_with_known_documents", NAIVE, LIT),
    undefined=(Undefined("the user knows no relevant document (|U| = 0)", "0", _no_known),),
    notes="Needs --known.",
)
def coverage(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    return ratio(*_coverage_parts(jr, cutoff=cutoff, rel=rel))


def _novelty_parts(
    jr: JudgedRankings, *, cutoff: int | None, rel: int
) -> tuple[np.ndarray, np.ndarray]:
    known = _known(jr, "Novelty")
    found = jr.relevant(rel) & _examined(jr, cutoff)
    return jr.count(found & ~known.rows), jr.count(found)


def _none_found(
    jr: JudgedRankings, cutoff: int | None = None, rel: int = 1, **_: object
) -> np.ndarray:
    result: np.ndarray = jr.count(jr.relevant(rel) & _examined(jr, cutoff)) == 0
    return result


@measure(
    "Novelty",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL,),
    summary="share of the relevant documents found that were unknown to the user",
    formula="Novelty@k = |Ru| / (|Ru| + |Rk|)",
    source=f"{USER}, novelty ratio",
    better="higher",
    needs=("known",),
    micro=_novelty_parts,
    ties=None,
    no_ties="no closed form: a ratio of two counts at k",
    checked_by=(INPUTS + "test_coverage_and_novelty_with_known_documents", NAIVE),
    undefined=(Undefined("no relevant document found", "0", _none_found),),
    notes="Needs --known.",
)
def novelty(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    return ratio(*_novelty_parts(jr, cutoff=cutoff, rel=rel))


CAP = Param("cap", "bool", True, "count at most the target (so the ratio is at most 1)")


def _relative_recall_parts(
    jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool
) -> tuple[np.ndarray, np.ndarray]:
    t = _target(jr, "RelativeRecall")
    found = jr.count(jr.relevant(rel) & _examined(jr, cutoff))
    return (np.minimum(found, t) if cap else found), t


def _tie_relative_recall(
    jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool
) -> np.ndarray:
    """E[min(rel@k, t)] / t (or E[rel@k] / t): a sum over the hypergeometric law of the
    relevant documents that the level straddling k puts in the top k."""
    if cutoff is None and not jr.cut:
        return relative_recall(jr, cutoff=None, rel=rel, cap=cap)
    # no cutoff: the retrieved set (its part of the split level is random)
    k: int | np.ndarray = jr.num_ret if cutoff is None else cutoff
    t = _target(jr, "RelativeRecall")
    if not cap:
        return ratio(expected_count_at(jr, jr.relevant(rel), k), t)
    at = AtK(jr, jr.relevant(rel), k)
    out = np.zeros(jr.num_queries)
    if len(at.q):
        n, r, m, S = at.n, at.r, at.m, at.S
        cnt = np.minimum(m, r) + 1
        seg = np.cumsum(cnt) - cnt
        y = np.arange(int(cnt.sum())) - np.repeat(seg, cnt)
        nn, rr, mm, SS, tt = (np.repeat(a, cnt) for a in (n, r, m, S, t[at.q]))
        ok = mm - y <= nn - rr  # P(Y = y) = C(r, y) C(n-r, m-y) / C(n, m)
        yy = np.where(ok, y, 0)
        logp = log_binom(rr, yy) + log_binom(nn - rr, mm - yy) - log_binom(nn, mm)
        terms = np.where(ok, np.exp(logp), 0.0) * np.minimum(SS + y, tt)
        out[at.q] = np.add.reduceat(terms, seg)
    return ratio(out, t)


@measure(
    "RelativeRecall",
    cutoff=CUTOFF_OPTIONAL,
    params=(REL, CAP),
    summary="relevant documents found relative to the number the user wants",
    formula="RelativeRecall@k = min(rel(k), t) / t   (cap=false: rel(k) / t)",
    source=f"{KEEN}, sec. 7; {USER}, relative recall",
    better="higher",
    needs=("target",),
    undefined=(),
    micro=_relative_recall_parts,
    ties=_tie_relative_recall,
    checked_by=(INPUTS + "test_targets_and_their_validation", NAIVE, LIT),
    notes="Needs --target. Keen: a user may find more than wanted ('1.5 recall would not be "
    "very useful'), hence the cap by default.",
)
def relative_recall(jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool) -> np.ndarray:
    return ratio(*_relative_recall_parts(jr, cutoff=cutoff, rel=rel, cap=cap))


def _effort_rank(jr: JudgedRankings, rel: int) -> tuple[np.ndarray, np.ndarray]:
    t = _target(jr, "RecallEffort")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    hit = jr.cumcount(relv)[rows] == t[jr.row_query[rows]]
    rank = np.zeros(jr.num_queries, dtype=np.int64)
    rank[jr.row_query[rows[hit]]] = jr.rank[rows[hit]]
    return rank, t


def _not_reached(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = _effort_rank(jr, rel)[0] == 0
    return result


def _tie_recall_effort(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[t / r_t] = EP(NR=t) (Raghavan, Jung & Bollmann 1989)."""
    refuse_cut(jr, "RecallEffort", SPLIT)
    t = _target(jr, "RecallEffort")
    return expected_precision_at_nr(jr, True, t, rel)


@measure(
    "RecallEffort",
    params=(REL,),
    summary="target over the documents examined to find that many relevant documents",
    formula="RecallEffort = t / r_t (r_t = rank of the t-th relevant document)",
    source=f"{USER}, recall effort; {BAEZA_YATES}, sec. 3.2.2",
    better="higher",
    needs=("target",),
    ties=_tie_recall_effort,
    checked_by=(INPUTS + "test_targets_and_their_validation", NAIVE, LIT),
    undefined=(Undefined("the ranking holds fewer than t relevant documents", "0", _not_reached),),
    notes="Needs --target. 1 when the first t documents are all relevant.",
)
def recall_effort(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rank, t = _effort_rank(jr, rel)
    return ratio(np.where(rank > 0, t, 0), rank)
