"""NTCIREVAL's graded measures (Sakai): the notation, gains and condensed lists of the family,
and its blended-ratio measures Q-measure, O, P, P+ and NCU (here); nERR, EBR and iRBU in
:mod:`cranfield.measures.ntcir_cascade`, MSnDCG and GAP in :mod:`cranfield.measures.ntcir_ndcg_gap`,
the lists they read in :mod:`cranfield.measures.kernels.ntcir_lists`.

As ``ntcir_eval compute`` (NTCIREVAL, Sakai) computes them from a rel file and a ranked list.
Gains are NTCIREVAL's ``-g 1:2:3`` (the gain of relevance level L1, L2, L3) written as the
``gains`` map ``{1:1,2:2,3:3}``; a grade not in the map gains its grade, grade 0 (judged
non-relevant) gains 0 unless given, unjudged documents 0.  A document is relevant when its gain is
positive (with the default gains: its grade is 1 or more).
``judged_only=true`` is the condensed list of Sakai (SIGIR 2007): the unjudged documents
(not in the qrels, or with a negative grade) are removed from the ranking before anything is
computed (NTCIREVAL's ``label -j``); R, the ideal list and the scale do not change.

Notation, per query: ``R`` judged relevant documents, ``I(r)`` 1 when the document at rank
``r`` is relevant, ``count(r)`` relevant documents in the top ``r``, ``cg(r)`` their
cumulative gain, ``cg*(r)`` the ideal list's (judged relevant documents by gain, descending;
constant after ``R``), ``BR(r) = (count(r) + beta cg(r)) / (r + beta cg*(r))`` Sakai's blended
ratio, ``g_max`` the largest gain of the scale (the gain of the qrels' highest grade, or any
gain given in the map, as NTCIREVAL's gain of its highest declared level).

Sums are added in rank order from 0.0 as ``ntcir_eval.c`` adds them (the four-decimal values
printed by NTCIREVAL are reproduced), logarithms are the C library's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cranfield.base.segments import segment_cumsum, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import ratio
from cranfield.measures.kernels.gains import Gains
from cranfield.measures.kernels.ntcir_lists import (  # Ideal, Ranked, ...: their old path
    Ideal,
    Ranked,
    blended_ratio,
    ideal_list,
    per_query,
    prefix_at,
    q_of,
    ranked,
)
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.registry import CUTOFF_OPTIONAL, Param, Undefined, measure

__all__ = ["Ideal", "Ranked", "blended_ratio", "ideal_list", "ranked"]

NTCIREVAL = "NTCIREVAL 190111 (Sakai), ntcir_eval.c (compute, gcompute, irec)"
SAKAI_SONG = (
    "Sakai & Song, 'Evaluating diversified search results using per-intent graded "
    "relevance', SIGIR 2011"
)
SAKAI_BPREF = "Sakai, 'Alternatives to bpref', SIGIR 2007"
SAKAI_TOD = (
    "Sakai, 'On the properties of evaluation metrics for finding one highly relevant "
    "document', IPSJ TOD 48(SIG9), 2007"
)
SAKAI_ROBERTSON = (
    "Sakai & Robertson, 'Modelling a user population for designing information retrieval "
    "metrics', EVIA 2008"
)
ROBERTSON_GAP = (
    "Robertson, Kanoulas & Yilmaz, 'Extending average precision to graded relevance "
    "judgments', SIGIR 2010"
)
UNVERIFIED = "; section and equation not verified"
"""Said in a source where the paper's section and equation could not be checked here (the
paper is not among the project's seed texts)."""
SAKAI_IPM = (
    "Sakai, 'On the reliability of information retrieval metrics based on graded relevance', "
    "IPM 43(2), 2007"
)
AMIGO = (
    "Amigó, Spina & Carrillo-de-Albornoz, 'An axiomatic analysis of diversity evaluation "
    "metrics: introducing the rank-biased utility metric', SIGIR 2018"
)
BURGES = "Burges et al., 'Learning to rank using gradient descent', ICML 2005"

GAINS = Param(
    "gains",
    "gains",
    None,
    "gain of each grade (NTCIREVAL -g 1:2:3 is {1:1,2:2,3:3}); unlisted grades gain their "
    "grade (0 below 1); a document is relevant when its gain is positive",
    at_least=0.0,
    at_most=MAX_WEIGHT,
)
BETA = Param(
    "beta",
    "float",
    1.0,
    "weight of the cumulative gain in the blended ratio (NTCIREVAL -beta); 0: precision",
    at_least=0.0,
    at_most=MAX_WEIGHT,
)
CONDENSED = Param(
    "judged_only",
    "bool",
    False,
    "condensed list: unjudged documents removed first (NTCIREVAL label -j; Sakai, SIGIR 2007)",
)
GAMMA = Param(
    "gamma",
    "float",
    0.95,
    "rank-biased stopping: each relevant document stops gamma times as many users as the last",
    at_least=0.0,
    at_most=1.0,
)
STOP = Param(
    "stop",
    "str",
    "gu",
    "stopping distribution: gu = graded-uniform (in proportion to the gain), rb = rank-biased",
    choices=("gu", "rb"),
)


def relevant_grades_only(params: dict[str, Any]) -> str | None:
    bad = [g for g, v in (params.get("gains") or {}).items() if g < 0 and v != 0]
    if bad:
        return (
            f"gains= gives grade {bad[0]} a positive gain: negative grades are unjudged "
            "documents, which gain 0"
        )
    return None


def _no_relevant(jr: JudgedRankings, gains: Gains | None = None, **_: object) -> np.ndarray:
    none: np.ndarray = ideal_list(jr, gains).size == 0
    return none


NO_REL = Undefined(
    "the qrels have no relevant document (positive gain) for the query",
    "0 (NTCIREVAL refuses such a topic)",
    _no_relevant,
)
NOTES = (
    "Gains: NTCIREVAL's -g 1:2:3 is gains={1:1,2:2,3:3} (the default: each grade gains "
    "itself); judged_only=true computes the condensed-list variant (unjudged documents "
    "removed first, as NTCIREVAL's label -j)."
)
NO_TIES = "not derived: the blended ratio at a rank depends on the whole ranking above it"


# ------------------------------------------------------------------ Q-measure
TESTS = "tests/measures/test_measures_ntcir.py::"
CHECKED = tuple(
    TESTS + name
    for name in (
        "test_ntcireval_readme_sample",
        "test_agrees_with_ntcireval",
        "test_agrees_with_pyntcireval",
        "test_agrees_with_brute_force",
    )
)
"""The tests most of the family's declarations name: NTCIREVAL's README sample, its own
output, pyNTCIREVAL and the brute force written from the papers."""


@measure(
    "Q",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, BETA, CONDENSED),
    check=relevant_grades_only,
    aliases=("Q-measure",),
    summary="Q-measure: the mean blended ratio over the relevant documents (graded AP)",
    formula="Q@k = sum_{r<=k} I(r) BR(r) / min(k, R), BR(r) = (count(r) + beta cg(r)) / "
    "(r + beta cg*(r)); Q (no k) divides by R",
    source=f"{SAKAI_IPM} (Q-measure{UNVERIFIED}); {SAKAI_BPREF} (condensed lists); "
    f"{NTCIREVAL} (Q-measure, Q@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES + " beta=0 gives AP (NTCIREVAL's AP@k divides by min(k, R) too).",
)
def q_measure(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None, beta: float, judged_only: bool
) -> np.ndarray:
    return q_of(ranked(jr, gains, judged_only), ideal_list(jr, gains), beta, cutoff)


# ------------------------------------------------------------------ O, P, P+
def _first_rows(rk: Ranked, rows: np.ndarray, nq: int) -> tuple[np.ndarray, np.ndarray]:
    """(queries with a row, index into ``rows`` of their first row)."""
    q = rk.query[rows]
    first = np.searchsorted(q, np.arange(nq))
    has = first < len(q)
    has[has] = q[first[has]] == np.arange(nq)[has]
    return np.flatnonzero(has), first[has]


def _preferred(rk: Ranked, rows: np.ndarray, nq: int) -> tuple[np.ndarray, np.ndarray]:
    """(queries with a relevant row, index into ``rows`` of the first row of the highest grade
    retrieved: NTCIREVAL's preferred rank rp)."""
    q = rk.query[rows]
    level = rk.level[rows]
    top = np.full(nq, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(top, q, level)
    hit = np.flatnonzero(level == top[q])
    queries, first = _first_rows(rk, rows[hit], nq)
    return queries, hit[first]


@measure(
    "O-measure",
    params=(GAINS, BETA, CONDENSED),
    check=relevant_grades_only,
    summary="O-measure: the blended ratio at the first relevant document",
    formula="O = BR(r1), r1 the rank of the first relevant document (0 if none)",
    source=f"{SAKAI_TOD} (O-measure{UNVERIFIED}); {NTCIREVAL} (O-measure)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def o_measure(
    jr: JudgedRankings, *, gains: Gains | None, beta: float, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    out = np.zeros(jr.num_queries)
    queries, first = _first_rows(rk, rows, jr.num_queries)
    out[queries] = br[first]
    return out


@measure(
    "P-measure",
    params=(GAINS, BETA, CONDENSED),
    check=relevant_grades_only,
    summary="P-measure: the blended ratio at the first document of the highest grade retrieved",
    formula="P-measure = BR(rp), rp the rank of the first retrieved document of the highest "
    "grade among those retrieved (0 if none relevant)",
    source=f"{SAKAI_TOD} (P-measure{UNVERIFIED}); {NTCIREVAL} (P-measure, rp)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def p_measure(
    jr: JudgedRankings, *, gains: Gains | None, beta: float, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    out = np.zeros(jr.num_queries)
    queries, at = _preferred(rk, rows, jr.num_queries)
    out[queries] = br[at]
    return out


@measure(
    "P-plus",
    params=(GAINS, BETA, CONDENSED),
    check=relevant_grades_only,
    summary="P+: the mean blended ratio over the relevant documents down to rp",
    formula="P+ = sum_{r<=rp} I(r) BR(r) / count(rp), rp as in P-measure (0 if none relevant)",
    source=f"{SAKAI_TOD} (P+-measure{UNVERIFIED}); {NTCIREVAL} (P-plus)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def p_plus(
    jr: JudgedRankings, *, gains: Gains | None, beta: float, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    nq = jr.num_queries
    queries, at = _preferred(rk, rows, nq)
    rp = np.zeros(nq, dtype=np.int64)
    rp[queries] = rk.rank[rows[at]]
    keep = rk.rank[rows] <= rp[rk.query[rows]]
    total = per_query(jr, rk, rows[keep], br[keep])
    return ratio(total, np.bincount(rk.query[rows[keep]], minlength=nq))


# ------------------------------------------------------------------ NCU
@measure(
    "NCU",
    params=(STOP, GAINS, BETA, GAMMA, CONDENSED),
    check=relevant_grades_only,
    summary="normalised cumulative utility: the blended ratio averaged over a stopping "
    "distribution on the relevant documents",
    formula="NCU = sum_r I(r) Ps(r) BR(r); gu: Ps(r) = g(r) / sum_j g(j) over the judged "
    "relevant j; rb: Ps(r) = gamma^(count(r)-1) / sum_{i<R} gamma^i",
    source=f"{SAKAI_ROBERTSON} (NCU, graded-uniform and rank-biased stopping{UNVERIFIED}); "
    f"{NTCIREVAL} (NCUgu, NCUrb)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES + " NTCIREVAL's NCUgu,BR is NCU, NCUgu,P NCU(beta=0) (precision as the "
    "utility), NCUrb,BR NCU(stop=rb), NCUrb,P NCU(stop=rb,beta=0); graded-uniform stop values "
    "are the gains (NTCIREVAL's default without -s).",
)
def ncu(
    jr: JudgedRankings,
    *,
    stop: str,
    gains: Gains | None,
    beta: float,
    gamma: float,
    judged_only: bool,
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    ideal = ideal_list(jr, gains)
    nq = jr.num_queries
    if stop == "gu":
        values = br * rk.gain[rows]
        denom = _gu_denominator(jr, ideal)
    else:
        count = segment_cumsum(rk.query[rows], np.ones(len(rows))).astype(np.int64)
        size = ideal.size
        top = int(max(size.max(initial=0), count.max(initial=0)))
        powers = np.array([math.pow(gamma, e) for e in range(top)])
        values = br * powers[count - 1]
        denom = prefix_at(np.cumsum(powers), np.zeros(nq, dtype=np.int64), size)
    return ratio(segment_total(rk.query[rows], values, nq), denom)


def _gu_denominator(jr: JudgedRankings, ideal: Ideal) -> np.ndarray:
    """Per query ``sum_l X_l s_l`` (judged documents of grade l times its stop value, the
    gain), added by ascending grade as ntcir_eval.c adds it."""
    q, level, gain = ideal.query, ideal.level, ideal.gain
    order = np.lexsort((level, q))
    q, level, gain = q[order], level[order], gain[order]
    new = np.ones(len(q), dtype=bool)
    new[1:] = (q[1:] != q[:-1]) | (level[1:] != level[:-1])
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, len(q)))
    return segment_total(q[starts], counts * gain[starts], jr.num_queries)
