"""NTCIREVAL's graded measures (Sakai): Q-measure, nERR, MSnDCG, GAP, O, P, P+, NCU, EBR, iRBU.

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
from typing import NamedTuple

import numpy as np

from cranfield.base.segments import segment_cumprod, segment_cumsum, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import c_log, memo, ratio
from cranfield.measures.kernels.gains import gain_pairs
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.registry import CUTOFF_OPTIONAL, REQUIRED, Param, Undefined, measure

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
CHAPELLE = (
    "Chapelle, Metzler, Zhang & Grinspan, 'Expected reciprocal rank for graded relevance', "
    "CIKM 2009"
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


def _relevant_grades_only(params: dict) -> str | None:
    bad = [g for g, v in (params.get("gains") or {}).items() if g < 0 and v != 0]
    if bad:
        return (
            f"gains= gives grade {bad[0]} a positive gain: negative grades are unjudged "
            "documents, which gain 0"
        )
    return None


# ------------------------------------------------------------------ the ranked and ideal lists
class Ranked(NamedTuple):
    """The (condensed) rankings: per kept row its query, rank, grade and gain."""

    query: np.ndarray
    rank: np.ndarray
    level: np.ndarray
    """The row's grade (negative: unjudged)."""
    gain: np.ndarray
    length: np.ndarray
    """Per query: ranked documents kept."""

    @property
    def relevant(self) -> np.ndarray:
        return self.gain > 0


class Ideal(NamedTuple):
    """Per query the judged relevant documents' gains, descending (CSR), and their grades."""

    query: np.ndarray
    gain: np.ndarray
    level: np.ndarray
    offsets: np.ndarray

    @property
    def size(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def position(self) -> np.ndarray:
        return np.arange(len(self.gain)) - self.offsets[self.query] + 1


def _gain_of(level: np.ndarray, gains: dict | None) -> np.ndarray:
    """The gain of each grade: as given (grades >= 0), else the grade, 0 below 1."""
    out = np.where(level >= 1, level, 0).astype(np.float64)
    for g, v in gain_pairs(gains):
        if g >= 0:
            out[level == g] = v
    return out


def ranked(jr: JudgedRankings, gains: dict | None, judged_only: bool) -> Ranked:
    """The rankings as NTCIREVAL reads them (condensed when ``judged_only``)."""

    def build() -> Ranked:
        grades = jr.grades
        query = jr.row_query
        length = jr.num_rows
        if judged_only:
            keep = grades >= 0
            grades, query = grades[keep], query[keep]
            length = np.bincount(query, minlength=jr.num_queries).astype(np.int64)
        start = np.zeros(jr.num_queries, dtype=np.int64)
        np.cumsum(length[:-1], out=start[1:])
        rank = np.arange(1, len(grades) + 1, dtype=np.int64) - start[query]
        return Ranked(query, rank, grades, _gain_of(grades, gains), length)

    return memo(jr, ("ntcir_ranked", gain_pairs(gains), bool(judged_only)), build)


def ideal_list(jr: JudgedRankings, gains: dict | None) -> Ideal:
    """Each query's judged relevant documents by gain, descending (ties: higher grade first)."""

    def build() -> Ideal:
        gain = _gain_of(jr.qrels_grades, gains)
        rel = np.flatnonzero(gain > 0)
        q, level, gain = jr.qrels_query[rel], jr.qrels_grades[rel], gain[rel]
        order = np.lexsort((-level, -gain, q))
        q, gain, level = q[order], gain[order], level[order]
        offsets = np.zeros(jr.num_queries + 1, dtype=np.int64)
        np.cumsum(np.bincount(q, minlength=jr.num_queries), out=offsets[1:])
        return Ideal(q, gain, level, offsets)

    return memo(jr, ("ntcir_ideal", gain_pairs(gains)), build)


def g_max(jr: JudgedRankings, gains: dict | None) -> float:
    """The top of the gain scale: the gain of the qrels' highest grade, or a larger given
    gain (NTCIREVAL: the gain of the highest level of ``-g``)."""
    top = jr.qrels_max_grade
    if top is None:
        top = int(jr.qrels_grades.max()) if len(jr.qrels_grades) else 0
    given = [v for g, v in gain_pairs(gains) if g >= 0]
    scale = float(_gain_of(np.array([top], dtype=np.int64), gains)[0]) if top >= 1 else 0.0
    return max([scale, *given])


def _prefix_at(prefix: np.ndarray, start: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``prefix[start + at - 1]`` where ``at > 0``, else 0 (a running sum read at ``at``)."""
    out = np.zeros(len(at))
    ok = at > 0
    out[ok] = prefix[start[ok] + at[ok] - 1]
    return out


def _cut(rk: Ranked, rows: np.ndarray, cutoff: int | None) -> np.ndarray:
    return rows if cutoff is None else rows[rk.rank[rows] <= cutoff]


def blended_ratios(rk: Ranked, ideal: Ideal, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """(relevant rows of ``rk``, BR at each of them) for any gains (graded, global)."""
    rows = np.flatnonzero(rk.relevant)
    q = rk.query[rows]
    cg = segment_cumsum(q, rk.gain[rows])
    count = segment_cumsum(q, np.ones(len(rows)))
    icg = segment_cumsum(ideal.query, ideal.gain)
    cgi = _prefix_at(icg, ideal.offsets[q], np.minimum(rk.rank[rows], ideal.size[q]))
    return rows, (beta * cg + count) / (beta * cgi + rk.rank[rows])


def q_of(rk: Ranked, ideal: Ideal, beta: float, cutoff: int | None) -> np.ndarray:
    """Q@k of rankings and ideal lists: sum_{r<=k} I(r) BR(r) / min(k, R)."""
    rows, br = blended_ratios(rk, ideal, beta)
    keep = np.ones(len(rows), dtype=bool) if cutoff is None else rk.rank[rows] <= cutoff
    total = segment_total(rk.query[rows[keep]], br[keep], len(rk.length))
    r = ideal.size
    return ratio(total, r if cutoff is None else np.minimum(r, cutoff))


def blended_ratio(jr: JudgedRankings, gains: dict | None, judged_only: bool, beta: float):
    """(relevant rows of :func:`ranked`, BR at each of them)."""

    def build():
        return blended_ratios(ranked(jr, gains, judged_only), ideal_list(jr, gains), beta)

    return memo(jr, ("ntcir_br", gain_pairs(gains), bool(judged_only), float(beta)), build)


def _no_relevant(jr, gains=None, **_):
    return ideal_list(jr, gains).size == 0


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


def _per_query(jr: JudgedRankings, rk: Ranked, rows: np.ndarray, values: np.ndarray):
    return segment_total(rk.query[rows], values, jr.num_queries)


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
    check=_relevant_grades_only,
    aliases=("Q-measure",),
    summary="Q-measure: the mean blended ratio over the relevant documents (graded AP)",
    formula="Q@k = sum_{r<=k} I(r) BR(r) / min(k, R), BR(r) = (count(r) + beta cg(r)) / "
    "(r + beta cg*(r)); Q (no k) divides by R",
    source=f"{SAKAI_SONG} (Q-measure); {SAKAI_BPREF}; {NTCIREVAL} (Q-measure, Q@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES + " beta=0 gives AP (NTCIREVAL's AP@k divides by min(k, R) too).",
)
def q_measure(jr, *, cutoff, gains, beta, judged_only) -> np.ndarray:
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
    check=_relevant_grades_only,
    summary="O-measure: the blended ratio at the first relevant document",
    formula="O = BR(r1), r1 the rank of the first relevant document (0 if none)",
    source=f"{SAKAI_TOD} (O-measure); {NTCIREVAL} (O-measure)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def o_measure(jr, *, gains, beta, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    out = np.zeros(jr.num_queries)
    queries, first = _first_rows(rk, rows, jr.num_queries)
    out[queries] = br[first]
    return out


@measure(
    "P-measure",
    params=(GAINS, BETA, CONDENSED),
    check=_relevant_grades_only,
    summary="P-measure: the blended ratio at the first document of the highest grade retrieved",
    formula="P-measure = BR(rp), rp the rank of the first retrieved document of the highest "
    "grade among those retrieved (0 if none relevant)",
    source=f"{SAKAI_TOD} (P-measure); {NTCIREVAL} (P-measure, rp)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def p_measure(jr, *, gains, beta, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    out = np.zeros(jr.num_queries)
    queries, at = _preferred(rk, rows, jr.num_queries)
    out[queries] = br[at]
    return out


@measure(
    "P-plus",
    params=(GAINS, BETA, CONDENSED),
    check=_relevant_grades_only,
    summary="P+: the mean blended ratio over the relevant documents down to rp",
    formula="P+ = sum_{r<=rp} I(r) BR(r) / count(rp), rp as in P-measure (0 if none relevant)",
    source=f"{SAKAI_TOD} (P+-measure); {NTCIREVAL} (P-plus)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def p_plus(jr, *, gains, beta, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    nq = jr.num_queries
    queries, at = _preferred(rk, rows, nq)
    rp = np.zeros(nq, dtype=np.int64)
    rp[queries] = rk.rank[rows[at]]
    keep = rk.rank[rows] <= rp[rk.query[rows]]
    total = _per_query(jr, rk, rows[keep], br[keep])
    return ratio(total, np.bincount(rk.query[rows[keep]], minlength=nq))


# ------------------------------------------------------------------ NCU
@measure(
    "NCU",
    params=(STOP, GAINS, BETA, GAMMA, CONDENSED),
    check=_relevant_grades_only,
    summary="normalised cumulative utility: the blended ratio averaged over a stopping "
    "distribution on the relevant documents",
    formula="NCU = sum_r I(r) Ps(r) BR(r); gu: Ps(r) = g(r) / sum_j g(j) over the judged "
    "relevant j; rb: Ps(r) = gamma^(count(r)-1) / sum_{i<R} gamma^i",
    source=f"{SAKAI_ROBERTSON} (NCU, graded-uniform and rank-biased stopping); "
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
def ncu(jr, *, stop, gains, beta, gamma, judged_only) -> np.ndarray:
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
        denom = _prefix_at(np.cumsum(powers), np.zeros(nq, dtype=np.int64), size)
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


# ------------------------------------------------------------------ ERR family
def _err_terms(q: np.ndarray, rank: np.ndarray, gain: np.ndarray, top: float):
    """(satisfaction probability x, reach before, ERR term) of each relevant row."""
    x = gain / (top + 1.0)
    after = segment_cumprod(q, 1.0 - x)
    before = np.ones(len(q))
    if len(q):
        same = np.zeros(len(q), dtype=bool)
        same[1:] = q[1:] == q[:-1]
        before[same] = after[np.flatnonzero(same) - 1]
    return x, before, (before / rank) * x


def _ideal_err(jr: JudgedRankings, gains: dict | None, cutoff: int | None) -> np.ndarray:
    ideal = ideal_list(jr, gains)
    pos = ideal.position
    _x, _b, term = _err_terms(ideal.query, pos, ideal.gain, g_max(jr, gains))
    keep = np.ones(len(pos), dtype=bool) if cutoff is None else pos <= cutoff
    return segment_total(ideal.query[keep], term[keep], jr.num_queries)


@measure(
    "nERR",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONDENSED),
    check=_relevant_grades_only,
    summary="normalised expected reciprocal rank (ERR of the ranking over ERR of the ideal)",
    formula="nERR@k = ERR@k / ERR*@k, ERR@k = sum_{r<=k} (1/r) x(r) prod_{j<r} (1 - x(j)), "
    "x(r) = g(r) / (g_max + 1)",
    source=f"{CHAPELLE}, eq. 4 (ERR); {SAKAI_SONG} (nERR); {NTCIREVAL} (nERR@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="not derived: the reach of a rank is a product over the documents above it",
    checked_by=CHECKED,
    notes=NOTES + " The gain is divided by g_max + 1, not 2^g_max as in Chapelle et al. "
    "(NTCIREVAL's choice: a document of the highest grade does not stop every user). "
    "No k: the whole ranking and the whole ideal list.",
)
def nerr(jr, *, cutoff, gains, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = _cut(rk, np.flatnonzero(rk.relevant), cutoff)
    _x, _b, term = _err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], g_max(jr, gains))
    return ratio(_per_query(jr, rk, rows, term), _ideal_err(jr, gains, cutoff))


@measure(
    "EBR",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, BETA, CONDENSED),
    check=_relevant_grades_only,
    summary="expected blended ratio: ERR's stopping model with the blended ratio as the "
    "utility at the stopping rank",
    formula="EBR@k = sum_{r<=k} BR(r) x(r) prod_{j<r} (1 - x(j)), x(r) = g(r) / (g_max + 1)",
    source=f"{NTCIREVAL} (EBR, added in 2018); {SAKAI_ROBERTSON} (the blended ratio as a utility)",
    better="higher",
    undefined=(),
    ties=None,
    no_ties=NO_TIES,
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes=NOTES + " Not normalised (0 for a query without relevant documents).",
)
def ebr(jr, *, cutoff, gains, beta, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    top = g_max(jr, gains)
    _x, before, _t = _err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], top)
    values = br * before * rk.gain[rows] / (top + 1.0)
    keep = np.ones(len(rows), dtype=bool) if cutoff is None else rk.rank[rows] <= cutoff
    return _per_query(jr, rk, rows[keep], values[keep])


# ------------------------------------------------------------------ MSnDCG
def condensed_rankings(jr: JudgedRankings) -> JudgedRankings:
    """``jr`` without its unjudged rows (the condensed list), tie groups kept: under the weak
    policy a tie group loses its unjudged documents, and a uniformly random order of the group
    leaves the others in a uniformly random order."""
    from dataclasses import replace

    from cranfield.errors import MeasureError

    def build() -> JudgedRankings:
        keep = jr.grades >= 0
        if keep.all():
            return jr
        if jr.cut:
            raise MeasureError(
                "judged_only=true with ties='weak' and a depth cut inside a tie group: which "
                "documents of the group survive the cut decides how many judged ones remain "
                "(no closed form); drop one of the three"
            )
        lengths = np.bincount(jr.row_query[keep], minlength=jr.num_queries)
        offsets = np.zeros(jr.num_queries + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return replace(
            jr,
            offsets=offsets,
            grades=jr.grades[keep],
            scores=jr.scores[keep],
            tie_ids=jr.tie_ids[keep],
            annotated=None if jr.annotated is None else jr.annotated[keep],
            known=None,
            prefs=None,
            judgment_groups=None,
            subtopics=None,
        )

    return memo(jr, ("ntcir_condensed",), build)


def _ideal_msdcg(jr: JudgedRankings, gains: dict | None, cutoff: int | None) -> np.ndarray:
    ideal = ideal_list(jr, gains)
    pos = ideal.position
    keep = np.ones(len(pos), dtype=bool) if cutoff is None else pos <= cutoff
    return segment_total(ideal.query[keep], ideal.gain[keep] / c_log(pos[keep] + 1), jr.num_queries)


def _tie_msndcg(jr, *, cutoff, gains, judged_only) -> np.ndarray:
    """E[MSnDCG@k] = sum_g (G_g / n_g) sum_{i in level g, i <= k} 1/log(i+1) / IDCG@k (the
    levels of the condensed list when judged_only)."""
    from cranfield.ties.expected import positional_sum

    cj = condensed_rankings(jr) if judged_only else jr
    gain = _gain_of(cj.grades, gains)
    dcg = positional_sum(cj, gain, lambda w, i: w / c_log(i + 1), cutoff)
    return ratio(dcg, _ideal_msdcg(jr, gains, cutoff))


@measure(
    "MSnDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONDENSED),
    check=_relevant_grades_only,
    summary="Microsoft-style nDCG: every rank discounted by log(r + 1)",
    formula="MSnDCG@k = sum_{r<=k} g(r) / log(r + 1) / sum_{r<=min(k,R)} g*(r) / log(r + 1)",
    source=f"{BURGES} (NDCG); {SAKAI_SONG} (MSnDCG); {NTCIREVAL} (MSnDCG@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_msndcg,
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_readme_sample",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_pyntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
        "tests/measures/test_measures_ntcir.py::test_msndcg_under_weak_ties_is_the_mean_over_orders",
    ),
    notes=NOTES + " The gains are NTCIREVAL's (linear by default), not Burges' 2^g - 1: use "
    "gains= for those, or nDCG(dcg=exp-log2). No k: the whole ranking and ideal list.",
)
def msndcg(jr, *, cutoff, gains, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = _cut(rk, np.flatnonzero(rk.relevant), cutoff)
    dcg = _per_query(jr, rk, rows, rk.gain[rows] / c_log(rk.rank[rows] + 1))
    return ratio(dcg, _ideal_msdcg(jr, gains, cutoff))


# ------------------------------------------------------------------ GAP
def _h(level: np.ndarray) -> np.ndarray:
    """``l (l + 1)``: twice the sum of the thresholds 1..l (NTCIREVAL's weights)."""
    f = level.astype(np.float64)
    return f * (f + 1.0)


def _gap_sums(rk: Ranked, rows: np.ndarray) -> np.ndarray:
    """Per relevant row r: ``sum_{j<=r} h(min(l(r), l(j)))`` over every row j above it."""
    out = np.zeros(len(rows))
    level = np.maximum(rk.level, 0)
    for v in np.unique(level[rows]).tolist():
        at = rows[level[rows] == v]
        ge = segment_cumsum(rk.query, (level >= v).astype(np.float64))
        below = segment_cumsum(rk.query, np.where(level < v, _h(level), 0.0))
        out[np.searchsorted(rows, at)] = _h(np.array([v]))[0] * ge[at] + below[at]
    return out


@measure(
    "GAP",
    cutoff=CUTOFF_OPTIONAL,
    params=(CONDENSED,),
    summary="graded average precision: AP over users who each set their own relevance threshold",
    formula="GAP@k = sum_{r<=k} I(r) (1/r) sum_{j<=r} h(min(l(r), l(j))) / sum_{i<=min(k,R)} "
    "h(l*(i)), h(l) = l (l + 1), l the grade",
    source=f"{ROBERTSON_GAP} (GAP); {NTCIREVAL} -gap (GAP, GAP@k: thresholds "
    "weighted in proportion to the grade)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="not derived: a document's term depends on the grades of the documents above it",
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_gap_worked_example",
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes="GAP reads the grades, not gains (as NTCIREVAL): the probability that a user's "
    "threshold is grade j is taken in proportion to j, so the weight of a pair of documents of "
    "grades a and b is min(a,b)(min(a,b)+1). judged_only=true: the condensed list. "
    "No k: the whole ranking, divided by the whole ideal list.",
)
def gap(jr, *, cutoff, judged_only) -> np.ndarray:
    rk = ranked(jr, None, judged_only)
    rows = _cut(rk, np.flatnonzero(rk.relevant), cutoff)
    num = _per_query(jr, rk, rows, _gap_sums(rk, rows) / rk.rank[rows])
    ideal = ideal_list(jr, None)
    ih = segment_cumsum(ideal.query, _h(ideal.level))
    size = ideal.size
    at = size if cutoff is None else np.minimum(size, cutoff)
    return ratio(num, _prefix_at(ih, ideal.offsets[:-1], at))


# ------------------------------------------------------------------ iRBU
RBU_P = Param(
    "p",
    "float",
    REQUIRED,
    "persistence: the user reads rank r with probability p^r (NTCIREVAL -rbup)",
    above=0.0,
    at_most=1.0,
)


@measure(
    "iRBU",
    cutoff=CUTOFF_OPTIONAL,
    params=(RBU_P, GAINS, CONDENSED),
    check=_relevant_grades_only,
    summary="intentwise rank-biased utility: ERR's stopping model with RBP's patience, the "
    "per-intent part of RBU",
    formula="iRBU@k = sum_{r<=k} p^r x(r) prod_{j<r} (1 - x(j)), x(r) = g(r) / (g_max + 1)",
    source=f"{AMIGO} (RBU, one intent, no effort term); {NTCIREVAL} -rbup (iRBU@k)",
    better="higher",
    undefined=(),
    ties=None,
    no_ties="not derived: the reach of a rank is a product over the documents above it",
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes=NOTES + " Without the effort term of RBU (a constant for a given k). Powers p^r by "
    "the C library's pow, as NTCIREVAL.",
)
def irbu(jr, *, cutoff, p, gains, judged_only) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = _cut(rk, np.flatnonzero(rk.relevant), cutoff)
    top = g_max(jr, gains)
    _x, before, _t = _err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], top)
    powers = np.array([math.pow(p, r) for r in rk.rank[rows].tolist()])
    return _per_query(jr, rk, rows, powers * before * rk.gain[rows] / (top + 1.0))
