"""The levels of a weak ordering: tie groups of judged rankings, as flat per-level arrays.

Notation (close to Raghavan, Jung & Bollmann, ACM TOIS 1989, sec. 3.1): per query,
levels ``g = 1..m`` in decreasing score order; level ``g`` has ``n_g`` documents, ``r_g`` of them
marked (e.g. relevant), fills positions ``T_g+1 .. T_g+n_g`` and has ``S_g`` marked documents
strictly before it.  Under a linear ordering every document is a level of its own (``n_g = 1``),
and every formula built on levels reduces to its plain (tie-oblivious) counterpart.

Tie ids are non-decreasing over the rows (:mod:`cranfield.judging.ordering`), so the level of any
row is
found by binary search: measures that only need the levels holding marked rows (relevant
documents, positive gains) touch those rows only (:func:`marked_levels`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cranfield.judging.rankings import JudgedRankings

__all__ = [
    "Levels",
    "MarkedLevels",
    "level_bounds",
    "levels",
    "log_binom",
    "marked_levels",
]


class Levels(NamedTuple):
    """All levels of every query, in rank order."""

    start: np.ndarray  # row index of the level's first row
    size: np.ndarray  # n_g
    query: np.ndarray  # query index of the level (non-decreasing)
    before: np.ndarray  # T_g: documents of the same query before the level
    first: np.ndarray  # per query: index of its first level (length num_queries + 1)

    @property
    def num_levels(self) -> int:
        return len(self.start)

    def count_where(self, mask: np.ndarray) -> np.ndarray:
        """r_g: per level, the rows where ``mask`` holds (exact integers).  (Not ``count``:
        that is ``tuple.count``.)"""
        cs = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        return cs[self.start + self.size] - cs[self.start]

    def level_of_row(self) -> np.ndarray:
        """Level index of every row."""
        return np.repeat(np.arange(self.num_levels, dtype=np.int64), self.size)


def levels(jr: JudgedRankings, weak: bool) -> Levels:
    """All levels of ``jr``: its tie groups if ``weak``, else one level per row."""
    n = len(jr.grades)
    if weak and n:
        new = np.ones(n, dtype=bool)
        new[1:] = jr.tie_ids[1:] != jr.tie_ids[:-1]
        new[jr.offsets[:-1][jr.num_ret > 0]] = True
        start = np.flatnonzero(new)
    else:
        start = np.arange(n, dtype=np.int64)
    size = np.diff(np.append(start, n))
    query = np.searchsorted(jr.offsets, start, side="right") - 1
    before = start - jr.offsets[query]
    first = np.searchsorted(query, np.arange(jr.num_queries + 1), side="left")
    return Levels(start=start, size=size, query=query, before=before, first=first)


def level_bounds(
    jr: JudgedRankings, rows: np.ndarray, weak: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(query, first row, end row) of the level of each of ``rows`` (binary search)."""
    rows = np.asarray(rows, dtype=np.int64)
    q = np.searchsorted(jr.offsets, rows, side="right") - 1
    if not weak:
        return q, rows, rows + 1
    ids = jr.tie_ids[rows]
    start = np.maximum(np.searchsorted(jr.tie_ids, ids, side="left"), jr.offsets[q])
    end = np.minimum(np.searchsorted(jr.tie_ids, ids, side="right"), jr.offsets[q + 1])
    return q, start, end


class MarkedLevels(NamedTuple):
    """The levels that hold at least one marked row, in rank order, with their counts."""

    start: np.ndarray  # row index of the level's first row
    size: np.ndarray  # n_g
    query: np.ndarray  # query index (non-decreasing)
    before: np.ndarray  # T_g
    marked: np.ndarray  # r_g: marked rows in the level
    marked_before: np.ndarray  # S_g: marked rows of the same query before the level
    first_marked: np.ndarray  # index (into the marked rows) of the level's first marked row


def marked_levels(jr: JudgedRankings, rows: np.ndarray, weak: bool) -> MarkedLevels:
    """The levels holding the marked ``rows`` (ascending row indices)."""
    rows = np.asarray(rows, dtype=np.int64)
    q, start, end = level_bounds(jr, rows, weak)
    new = np.ones(len(rows), dtype=bool)
    if len(rows):
        new[1:] = start[1:] != start[:-1]
    head = np.flatnonzero(new)
    marked = np.diff(np.append(head, len(rows)))
    lq = q[head]
    query_first = np.searchsorted(rows, jr.offsets[lq], side="left")
    return MarkedLevels(
        start=start[head],
        size=end[head] - start[head],
        query=lq,
        before=start[head] - jr.offsets[lq],
        marked=marked,
        marked_before=head - query_first,
        first_marked=head,
    )


def expand(start: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``start[g] .. start[g] + lengths[g] - 1`` of every g, flat, and the segment starts."""
    lengths = np.asarray(lengths, dtype=np.int64)
    seg = np.cumsum(lengths) - lengths
    rows = np.repeat(np.asarray(start, dtype=np.int64) - seg, lengths) + np.arange(lengths.sum())
    return rows, seg


def log_binom(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``ln C(n, k)`` for real ``0 <= k <= n`` (Gamma function, as Raghavan et al. Lemma 3.1)."""
    from scipy.special import gammaln

    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)
