"""NTCIREVAL's diversity measures (Sakai et al., EVIA 2010; Sakai & Song, SIGIR 2011): D-nDCG,
D#-nDCG, D-Q, D#-Q.

They read the subtopic judgments of the diversity family (``subtopics=``, ``--subtopics``;
:mod:`cranfield.io.trec.subtopics`, :mod:`cranfield.measures.kernels.subtopic_view`): the
intents of a query are its subtopics with a relevant document (a judgment ``>= rel``), ``S`` of
them, each with the probability ``P(i|q) = 1/S`` (the subtopic qrels give no intent
probabilities; NTCIREVAL reads them from an Iprob file). The per-intent gain of a document is
the gain of its judgment for the intent (``gains``, NTCIREVAL's L1, L2... gains 1, 2...: by
default the grade), 0 when the judgment is below ``rel``; its global gain is ``GG(d) = sum_i
P(i|q) g_i(d)``.

- ``D-nDCG@k`` is MSnDCG over the global gains: the ranking's and the ideal list's (every
  document of the topic by global gain, descending) cumulated ``GG(r) / log(r + 1)``;
- ``I-rec@k`` is the share of the intents that the top k cover (subtopic recall, the
  family's ``StRecall``);
- ``D#-nDCG@k = gamma I-rec@k + (1 - gamma) D-nDCG@k``, gamma 0.5 as NTCIREVAL's
  ``D-NTCIR-eval`` script (named ``Dsharp-nDCG``: ``#`` is not in the measure grammar);
- ``D-Q@k`` is Q@k over the global gains (a document is relevant when its global gain is
  positive), ``Dsharp-Q@k`` the same mix with I-rec.

``judged_only=true``: the documents the subtopic qrels do not list for the query are removed
first (the family's rule).  NTCIREVAL writes global gains with four decimals between its
programs; these are exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.base.segments import segment_cumprod, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.diversity import DIVERSITY_JUDGED_ONLY, NO_SUBTOPIC
from cranfield.measures.kernels.counting import c_log, memo, ratio
from cranfield.measures.kernels.gains import gain_pairs
from cranfield.measures.kernels.ntcir_lists import Ideal, Ranked, gain_of, q_of
from cranfield.measures.kernels.subtopic_view import View, relevant_counts, require, view
from cranfield.measures.ntcir import AMIGO, BETA, GAINS, NTCIREVAL, SAKAI_SONG, relevant_grades_only

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.io.trec.subtopics import Subtopics
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.registry import CUTOFF, CUTOFF_OPTIONAL, REL, Param, measure
from cranfield.ties.levels import expand

__all__ = ["global_gains"]

SAKAI_EVIA = (
    "Sakai, Craswell, Song, Robertson, Dou & Lin, 'Simple evaluation metrics for diversified "
    "search results', EVIA 2010"
)
"""Where the D- and D#-measures were first defined (Sakai & Song, SIGIR 2011, studies them
with per-intent graded relevance)."""
UNPLACED = "section and equation not verified"

GAMMA = Param(
    "gamma",
    "float",
    0.5,
    "weight of I-rec (intent recall) against D-nDCG (NTCIREVAL's D-NTCIR-eval: 0.5)",
    at_least=0.0,
    at_most=1.0,
)
NO_TIES = "not derived yet (linear in the global gains, as DCG: a closed form exists)"


def global_gains(jr: JudgedRankings, rel: int, gains: dict[Any, Any] | None) -> np.ndarray:
    """``GG`` of every (topic, document) pair of the subtopic qrels: the sum of the gains of its
    judgments ``>= rel`` (in subtopic order), divided by the topic's number of intents."""

    def build() -> np.ndarray:
        sub = require(jr).subtopics
        pairs = sub.pairs
        npairs = len(pairs)
        entry_pair = np.repeat(np.arange(npairs), np.diff(sub.entry_offsets))
        grade = sub.entry_grade
        gain = np.where(grade >= rel, gain_of(grade, gains), 0.0)
        total = segment_total(entry_pair, gain, npairs)
        topic_of_pair = np.empty(npairs, dtype=np.int64)
        topic_of_pair[pairs.grades] = np.repeat(
            np.arange(pairs.num_queries, dtype=np.int64), np.diff(pairs.offsets)
        )
        S = np.diff(relevant_counts(sub, rel)[3])
        return ratio(total, S[topic_of_pair])

    return memo(jr, ("ntcir_global_gains", int(rel), gain_pairs(gains)), build)


def global_lists(
    jr: JudgedRankings, rel: int, gains: dict[Any, Any] | None, judged_only: bool
) -> tuple[Ranked, Ideal]:
    """The rankings with each document's global gain, and each query's ideal list (every
    document of its topic by global gain, descending, those of positive gain)."""

    def build() -> tuple[Ranked, Ideal]:
        rs = require(jr)
        v = view(jr, rel, judged_only)
        gg_pair = global_gains(jr, rel, gains)
        pair = rs.pair_of_row[v.rows]
        gg = np.where(pair >= 0, gg_pair[np.maximum(pair, 0)], 0.0) if len(pair) else pair * 0.0
        length = np.bincount(v.query, minlength=jr.num_queries).astype(np.int64)
        rk = Ranked(v.query, v.rank, np.zeros(len(gg), dtype=np.int64), gg, length)
        sub = rs.subtopics
        topic = rs.topic_of_query
        has = np.flatnonzero(topic >= 0)
        count = np.diff(sub.pairs.offsets)[topic[has]]
        at, _ = expand(sub.pairs.offsets[topic[has]], count)
        ig = gg_pair[sub.pairs.grades[at]]
        q = np.repeat(has, count)
        order = np.lexsort((-ig, q))
        q, ig = q[order], ig[order]
        keep = ig > 0
        q, ig = q[keep], ig[keep]
        offsets = np.zeros(jr.num_queries + 1, dtype=np.int64)
        np.cumsum(np.bincount(q, minlength=jr.num_queries), out=offsets[1:])
        return rk, Ideal(q, ig, np.zeros(len(q), dtype=np.int64), offsets)

    key = ("ntcir_global_lists", int(rel), gain_pairs(gains), bool(judged_only))
    return memo(jr, key, build)


def _d_ndcg(
    jr: JudgedRankings, cutoff: int, rel: int, gains: dict[Any, Any] | None, judged_only: bool
) -> np.ndarray:
    rk, ideal = global_lists(jr, rel, gains, judged_only)
    rows = np.flatnonzero(rk.relevant & (rk.rank <= cutoff))
    dcg = segment_total(rk.query[rows], rk.gain[rows] / c_log(rk.rank[rows] + 1), jr.num_queries)
    pos = ideal.position
    keep = pos <= cutoff
    idcg = segment_total(ideal.query[keep], ideal.gain[keep] / c_log(pos[keep] + 1), jr.num_queries)
    return ratio(dcg, idcg)


def _d_q(
    jr: JudgedRankings,
    cutoff: int,
    rel: int,
    gains: dict[Any, Any] | None,
    beta: float,
    judged_only: bool,
) -> np.ndarray:
    rk, ideal = global_lists(jr, rel, gains, judged_only)
    return q_of(rk, ideal, beta, cutoff)


def _i_rec(jr: JudgedRankings, cutoff: int, rel: int, judged_only: bool) -> np.ndarray:
    """Intent recall at k (the family's StRecall, on the condensed list when judged_only)."""
    v = view(jr, rel, judged_only)
    first = v.pair_row[(v.pair_seen == 0) & (v.rank[v.pair_row] <= cutoff)]
    return ratio(np.bincount(v.query[first], minlength=v.num_queries), v.S)


CHECKED = (
    "tests/measures/test_measures_ntcir_diversity.py::test_agrees_with_ntcireval",
    "tests/measures/test_measures_ntcir_diversity.py::test_agrees_with_brute_force",
    "tests/measures/test_measures_ntcir_diversity.py::test_worked_example",
)
NOTES = (
    "Intent probabilities are uniform (1/S: the subtopic qrels carry none). Gains: the grade of "
    "each judgment >= rel unless gains= says otherwise (NTCIREVAL's DIN-splitqrels gains L1..L9 "
    "1..9). judged_only=true: the documents absent from the subtopic qrels are removed first."
)


@measure(
    "D-nDCG",
    cutoff=CUTOFF,
    params=(REL, GAINS, DIVERSITY_JUDGED_ONLY),
    check=relevant_grades_only,
    summary="nDCG over global gains (the intents' gains weighted by their probabilities)",
    formula="D-nDCG@k = sum_{r<=k} GG(r) / log(r+1) / sum_{r<=k} GG*(r) / log(r+1), GG(d) = "
    "sum_i P(i|q) g_i(d), P(i|q) = 1/S",
    source=f"{SAKAI_EVIA} (D-nDCG; {UNPLACED}); {SAKAI_SONG} (D-measures, per-intent graded "
    f"relevance; {UNPLACED}); {NTCIREVAL} gcompute (MSnDCG of the global gains, D-NTCIR-eval)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def d_ndcg(
    jr: JudgedRankings, *, cutoff: int, rel: int, gains: dict[Any, Any] | None, judged_only: bool
) -> np.ndarray:
    return _d_ndcg(jr, cutoff, rel, gains, judged_only)


@measure(
    "Dsharp-nDCG",
    cutoff=CUTOFF,
    params=(GAMMA, REL, GAINS, DIVERSITY_JUDGED_ONLY),
    check=relevant_grades_only,
    summary="D#-nDCG (NTCIREVAL's name): intent recall and D-nDCG, averaged with weight gamma",
    formula="D#-nDCG@k = gamma I-rec@k + (1 - gamma) D-nDCG@k, I-rec@k = the share of the S "
    "intents with a relevant document in the top k",
    source=f"{SAKAI_EVIA} (D#-nDCG; {UNPLACED}); {SAKAI_SONG} (D#-measures; {UNPLACED}); "
    f"{NTCIREVAL} D-NTCIR-eval (D#-nDCG, gamma 0.5)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=CHECKED,
    notes=NOTES,
)
def d_sharp_ndcg(
    jr: JudgedRankings,
    *,
    cutoff: int,
    gamma: float,
    rel: int,
    gains: dict[Any, Any] | None,
    judged_only: bool,
) -> np.ndarray:
    irec = _i_rec(jr, cutoff, rel, judged_only)
    return gamma * irec + (1.0 - gamma) * _d_ndcg(jr, cutoff, rel, gains, judged_only)


@measure(
    "D-Q",
    cutoff=CUTOFF,
    params=(REL, GAINS, BETA, DIVERSITY_JUDGED_ONLY),
    check=relevant_grades_only,
    summary="Q-measure over global gains (the intents' gains weighted by their probabilities)",
    formula="D-Q@k = sum_{r<=k} I(r) BR(r) / min(k, R), BR over global gains GG; I(r) = 1 and R "
    "counts documents with GG > 0",
    source=f"{SAKAI_EVIA} (D-measures, global gains; {UNPLACED}); {SAKAI_SONG} (D-measures; "
    f"{UNPLACED}); {NTCIREVAL} gcompute (Q@k of the global gains, D-NTCIR-eval)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties="not derived: the blended ratio at a rank depends on the whole ranking above it",
    checked_by=CHECKED,
    notes=NOTES,
)
def d_q(
    jr: JudgedRankings,
    *,
    cutoff: int,
    rel: int,
    gains: dict[Any, Any] | None,
    beta: float,
    judged_only: bool,
) -> np.ndarray:
    return _d_q(jr, cutoff, rel, gains, beta, judged_only)


@measure(
    "Dsharp-Q",
    cutoff=CUTOFF,
    params=(GAMMA, REL, GAINS, BETA, DIVERSITY_JUDGED_ONLY),
    check=relevant_grades_only,
    summary="D#-Q (NTCIREVAL's name): intent recall and D-Q, averaged with weight gamma",
    formula="D#-Q@k = gamma I-rec@k + (1 - gamma) D-Q@k",
    source=f"{SAKAI_EVIA} (D#-measures; {UNPLACED}); {SAKAI_SONG} (D#-measures; {UNPLACED}); "
    f"{NTCIREVAL} D-NTCIR-eval (D#-Q, gamma 0.5)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties="not derived: the blended ratio at a rank depends on the whole ranking above it",
    checked_by=CHECKED,
    notes=NOTES,
)
def d_sharp_q(
    jr: JudgedRankings,
    *,
    cutoff: int,
    gamma: float,
    rel: int,
    gains: dict[Any, Any] | None,
    beta: float,
    judged_only: bool,
) -> np.ndarray:
    irec = _i_rec(jr, cutoff, rel, judged_only)
    return gamma * irec + (1.0 - gamma) * _d_q(jr, cutoff, rel, gains, beta, judged_only)


# ------------------------------------------------------------------ RBU
RBU_P = Param(
    "p",
    "float",
    0.8,
    "persistence: the user reads rank r with probability p^(r-1) (the authors' default 0.8)",
    above=0.0,
    below=1.0,
)
RBU_E = Param(
    "e",
    "float",
    0.03,
    "the cost of reading a document, in utility (the authors' default 0.03)",
    at_least=0.0,
    at_most=MAX_WEIGHT,
)


def _rbu_sums(
    jr: JudgedRankings, rel: int, judged_only: bool, p: float, cutoff: int | None
) -> tuple[np.ndarray, View]:
    """Per query ``sum_i (1/S) sum_{r} p^(r-1) R_i(r) prod_{j<r} (1 - R_i(j))`` (before the
    factor 1 - p), ``R_i(d) = (2^g - 1) / 2^{g_i}``, ``g_i`` the intent's highest grade."""
    rs = require(jr)
    sub = rs.subtopics
    v = view(jr, rel, judged_only)
    nq = jr.num_queries
    pair = rs.pair_of_row[v.rows]
    known = np.flatnonzero(pair >= 0)
    count = np.diff(sub.entry_offsets)[pair[known]]
    entries, _ = expand(sub.entry_offsets[pair[known]], count)
    row = np.repeat(known, count)
    grade = sub.entry_grade[entries]
    ok = grade >= rel
    row, grade, subtopic = row[ok], grade[ok], sub.entry_subtopic[entries][ok]
    if cutoff is not None:
        inside = v.rank[row] <= cutoff
        row, grade, subtopic = row[inside], grade[inside], subtopic[inside]
    top = _intent_tops(sub, rel)
    nsub = max(len(sub.subtopic_ids), 1)
    query = v.query[row]
    g_top = top[rs.topic_of_query[query] * nsub + subtopic]
    # (2^g - 1) / 2^top without forming 2^g (any grade), exact wherever the quotient is
    r = np.ldexp(1.0 - np.exp2(-grade.astype(np.float64)), np.maximum(grade - g_top, -2000))
    order = np.lexsort((v.rank[row], subtopic, query))
    query, subtopic, rank, r = query[order], subtopic[order], v.rank[row][order], r[order]
    group = np.zeros(len(query), dtype=np.int64)
    if len(query):
        group[1:] = np.cumsum((query[1:] != query[:-1]) | (subtopic[1:] != subtopic[:-1]))
    after = segment_cumprod(group, 1.0 - r)
    before = np.ones(len(query))
    same = np.zeros(len(query), dtype=bool)
    same[1:] = group[1:] == group[:-1]
    before[same] = after[np.flatnonzero(same) - 1]
    powers = np.array([p ** (k - 1) for k in rank.tolist()])
    per_intent = segment_total(group, powers * r * before, int(group[-1]) + 1 if len(group) else 0)
    first = np.flatnonzero(np.concatenate(([True], ~same[1:]))) if len(group) else group
    S = v.S.astype(np.float64)
    weight = ratio(np.ones(nq), S)[query[first]]
    return segment_total(query[first], weight * per_intent * (1.0 - p), nq), v


def _intent_tops(sub: Subtopics, rel: int) -> np.ndarray:
    """The highest grade (>= rel) of each (topic, subtopic), indexed topic * nsub + subtopic
    (-1 where none)."""
    key = ("rbu_tops", int(rel))
    if key not in sub.cache:
        pairs = sub.pairs
        nsub = max(len(sub.subtopic_ids), 1)
        topic_of_pair = np.empty(len(pairs), dtype=np.int64)
        topic_of_pair[pairs.grades] = np.repeat(
            np.arange(pairs.num_queries, dtype=np.int64), np.diff(pairs.offsets)
        )
        entry_pair = np.repeat(np.arange(len(pairs)), np.diff(sub.entry_offsets))
        ok = sub.entry_grade >= rel
        tops = np.full(pairs.num_queries * nsub, -1, dtype=np.int64)
        keys = topic_of_pair[entry_pair[ok]] * nsub + sub.entry_subtopic[ok]
        np.maximum.at(tops, keys, sub.entry_grade[ok])
        sub.cache[key] = tops
    # (the cache holds what the lines above stored under key)
    found: np.ndarray = sub.cache[key]
    return found


@measure(
    "RBU",
    cutoff=CUTOFF_OPTIONAL,
    params=(RBU_P, RBU_E, REL, DIVERSITY_JUDGED_ONLY),
    summary="rank-biased utility: ERR's per-intent cascade with RBP's patience, averaged over "
    "the intents, less the cost of the documents read",
    formula="RBU@k = (1-p) sum_i P(i|q) sum_{r<=k} p^(r-1) R_i(r) prod_{j<r} (1 - R_i(j)) - "
    "e (1-p) sum_{r<=min(k,n)} p^(r-1), R_i(d) = (2^g - 1) / 2^{g_i}, P(i|q) = 1/S",
    source=f"{AMIGO} (RBU; {UNPLACED}); the authors' implementation (rmit-ir/RBU, RBU.java)",
    better="higher",
    needs=("subtopics",),
    undefined=(NO_SUBTOPIC,),
    ties=None,
    no_ties="not derived: the reach of a rank is a product over the documents above it",
    checked_by=(
        "tests/measures/test_measures_ntcir_diversity.py::test_rbu_agrees_with_the_authors_implementation",
        "tests/measures/test_measures_ntcir_diversity.py::test_rbu_worked_example",
    ),
    notes="g_i is the highest grade of intent i's judgments (the authors' per-aspect maximum); "
    "judgments below rel count 0. n is the ranking's length (k: its top k); a query with S = 0 "
    "scores 0. Intent probabilities are uniform (the authors' file gives each aspect a weight).",
)
def rbu(
    jr: JudgedRankings, *, cutoff: int | None, p: float, e: float, rel: int, judged_only: bool
) -> np.ndarray:
    gain, v = _rbu_sums(jr, rel, judged_only, p, cutoff)
    length = np.bincount(v.query, minlength=jr.num_queries)
    n = length if cutoff is None else np.minimum(length, cutoff)
    read = np.zeros(jr.num_queries)
    if len(n) and n.max() > 0:  # sum_{r<=n} p^(r-1), added in rank order
        cum = np.cumsum([p**k for k in range(int(n.max()))])
        read[n > 0] = cum[n[n > 0] - 1]
    return np.where(v.S > 0, gain - e * read * (1.0 - p), 0.0)
