"""NTCIREVAL's reading of a ranking (Sakai), shared by the NTCIREVAL families: the ranked list
(condensed when ``judged_only``: unjudged documents removed first), the ideal list (judged
relevant documents by gain, descending), the top of the gain scale, Sakai's blended ratio and
the cascade (ERR) terms.  No declarations: :mod:`cranfield.measures.ntcir` and its sibling
modules declare the measures.

Sums are added in rank order from 0.0 as ``ntcir_eval.c`` adds them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cranfield.base.segments import segment_cumprod, segment_cumsum, segment_total
from cranfield.judging.rankings import JudgedRankings, subset_annotation
from cranfield.measures.kernels.counting import memo, ratio
from cranfield.measures.kernels.gains import Gains, gain_pairs

__all__ = [
    "Ideal",
    "Ranked",
    "blended_ratio",
    "blended_ratios",
    "condensed_rankings",
    "cut",
    "err_terms",
    "g_max",
    "gain_of",
    "ideal_list",
    "per_query",
    "prefix_at",
    "q_of",
    "ranked",
]


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
        result: np.ndarray = np.arange(len(self.gain)) - self.offsets[self.query] + 1
        return result


def gain_of(level: np.ndarray, gains: Gains | None) -> np.ndarray:
    """The gain of each grade: as given (grades >= 0), else the grade, 0 below 1."""
    out = np.where(level >= 1, level, 0).astype(np.float64)
    for g, v in gain_pairs(gains):
        if g >= 0:
            out[level == g] = v
    return out


def ranked(jr: JudgedRankings, gains: Gains | None, judged_only: bool) -> Ranked:
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
        return Ranked(query, rank, grades, gain_of(grades, gains), length)

    return memo(jr, ("ntcir_ranked", gain_pairs(gains), bool(judged_only)), build)


def ideal_list(jr: JudgedRankings, gains: Gains | None) -> Ideal:
    """Each query's judged relevant documents by gain, descending (ties: higher grade first)."""

    def build() -> Ideal:
        gain = gain_of(jr.qrels_grades, gains)
        rel = np.flatnonzero(gain > 0)
        q, level, gain = jr.qrels_query[rel], jr.qrels_grades[rel], gain[rel]
        order = np.lexsort((-level, -gain, q))
        q, gain, level = q[order], gain[order], level[order]
        offsets = np.zeros(jr.num_queries + 1, dtype=np.int64)
        np.cumsum(np.bincount(q, minlength=jr.num_queries), out=offsets[1:])
        return Ideal(q, gain, level, offsets)

    return memo(jr, ("ntcir_ideal", gain_pairs(gains)), build)


def g_max(jr: JudgedRankings, gains: Gains | None) -> float:
    """The top of the gain scale: the gain of the qrels' highest grade, or a larger given
    gain (NTCIREVAL: the gain of the highest level of ``-g``)."""
    top = jr.qrels_max_grade
    if top is None:
        top = int(jr.qrels_grades.max()) if len(jr.qrels_grades) else 0
    given = [v for g, v in gain_pairs(gains) if g >= 0]
    scale = float(gain_of(np.array([top], dtype=np.int64), gains)[0]) if top >= 1 else 0.0
    return max([scale, *given])


def prefix_at(prefix: np.ndarray, start: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``prefix[start + at - 1]`` where ``at > 0``, else 0 (a running sum read at ``at``)."""
    out = np.zeros(len(at))
    ok = at > 0
    out[ok] = prefix[start[ok] + at[ok] - 1]
    return out


def cut(rk: Ranked, rows: np.ndarray, cutoff: int | None) -> np.ndarray:
    return rows if cutoff is None else rows[rk.rank[rows] <= cutoff]


def blended_ratios(rk: Ranked, ideal: Ideal, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """(relevant rows of ``rk``, BR at each of them) for any gains (graded, global)."""
    rows = np.flatnonzero(rk.relevant)
    q = rk.query[rows]
    cg = segment_cumsum(q, rk.gain[rows])
    count = segment_cumsum(q, np.ones(len(rows)))
    icg = segment_cumsum(ideal.query, ideal.gain)
    cgi = prefix_at(icg, ideal.offsets[q], np.minimum(rk.rank[rows], ideal.size[q]))
    return rows, (beta * cg + count) / (beta * cgi + rk.rank[rows])


def q_of(rk: Ranked, ideal: Ideal, beta: float, cutoff: int | None) -> np.ndarray:
    """Q@k of rankings and ideal lists: sum_{r<=k} I(r) BR(r) / min(k, R)."""
    rows, br = blended_ratios(rk, ideal, beta)
    keep = np.ones(len(rows), dtype=bool) if cutoff is None else rk.rank[rows] <= cutoff
    total = segment_total(rk.query[rows[keep]], br[keep], len(rk.length))
    r = ideal.size
    return ratio(total, r if cutoff is None else np.minimum(r, cutoff))


def blended_ratio(
    jr: JudgedRankings, gains: Gains | None, judged_only: bool, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    """(relevant rows of :func:`ranked`, BR at each of them)."""

    def build() -> tuple[np.ndarray, np.ndarray]:
        return blended_ratios(ranked(jr, gains, judged_only), ideal_list(jr, gains), beta)

    return memo(jr, ("ntcir_br", gain_pairs(gains), bool(judged_only), float(beta)), build)


def per_query(jr: JudgedRankings, rk: Ranked, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    return segment_total(rk.query[rows], values, jr.num_queries)


# ------------------------------------------------------------------ the cascade (ERR) terms
def err_terms(
    q: np.ndarray, rank: np.ndarray, gain: np.ndarray, top: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(satisfaction probability x, reach before, ERR term) of each relevant row."""
    x = gain / (top + 1.0)
    after = segment_cumprod(q, 1.0 - x)
    before = np.ones(len(q))
    if len(q):
        same = np.zeros(len(q), dtype=bool)
        same[1:] = q[1:] == q[:-1]
        before[same] = after[np.flatnonzero(same) - 1]
    return x, before, (before / rank) * x


# ------------------------------------------------------------------ the condensed rankings
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
            annotation=subset_annotation(jr.annotation, keep),
            known=None,
            prefs=None,
            judgment_groups=None,
            subtopics=None,
        )

    return memo(jr, ("ntcir_condensed",), build)
