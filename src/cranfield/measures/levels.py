"""The levels of a weak ordering: tie groups of judged rankings, as flat per-level arrays.

Notation of measures-notes sec. 2 / Raghavan, Jung & Bollmann (1989) sec. 3.1: per query,
levels ``g = 1..m`` in decreasing score order; level ``g`` has ``n_g`` documents, ``r_g`` of them
counted (e.g. relevant), fills positions ``T_g+1 .. T_g+n_g`` and has ``S_g`` counted documents
strictly before it.  Under a linear ordering every document is a level of its own (``n_g = 1``),
and every formula built on levels reduces to its plain (tie-oblivious) counterpart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..judged import JudgedRankings

__all__ = ["Levels", "levels", "log_binom"]


@dataclass(frozen=True)
class Levels:
    """Levels of every query, in rank order (CSR over queries via ``query``)."""

    start: np.ndarray  # row index of the level's first row
    size: np.ndarray  # n_g
    query: np.ndarray  # query index of the level (non-decreasing)
    before: np.ndarray  # T_g: documents of the same query before the level
    first: np.ndarray  # per query: index of its first level (length num_queries + 1)

    @property
    def num_levels(self) -> int:
        return len(self.start)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """r_g: per level, the rows where ``mask`` holds (exact integers)."""
        cs = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        return cs[self.start + self.size] - cs[self.start]

    def count_before(self, per_level: np.ndarray) -> np.ndarray:
        """S_g: per level, the sum of ``per_level`` over the earlier levels of its query."""
        cs = np.concatenate(([0], np.cumsum(per_level)))
        return cs[:-1] - cs[self.first[:-1]][self.query]

    def level_of_row(self) -> np.ndarray:
        """Level index of every row."""
        return np.repeat(np.arange(self.num_levels, dtype=np.int64), self.size)

    def sum_rows(self, values: np.ndarray) -> np.ndarray:
        """Per level, the sum of per-row ``values`` over its rows (pairwise, vectorised)."""
        if self.num_levels == 0:
            return np.zeros(0)
        return np.add.reduceat(np.asarray(values, dtype=np.float64), self.start)


def levels(jr: JudgedRankings, weak: bool) -> Levels:
    """The levels of ``jr``: its tie groups if ``weak``, else one level per row."""
    n = len(jr.grades)
    row_query = jr.row_query
    if weak and n:
        new = np.ones(n, dtype=bool)
        new[1:] = (jr.tie_ids[1:] != jr.tie_ids[:-1]) | (row_query[1:] != row_query[:-1])
        start = np.flatnonzero(new)
    else:
        start = np.arange(n, dtype=np.int64)
    size = np.diff(np.append(start, n))
    query = row_query[start] if n else np.zeros(0, dtype=np.int64)
    before = start - jr.offsets[query]
    first = np.searchsorted(query, np.arange(jr.num_queries + 1), side="left")
    return Levels(start=start, size=size, query=query, before=before, first=first)


def log_binom(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``ln C(n, k)`` for real ``0 <= k <= n`` (Gamma function, as Raghavan et al. Lemma 3.1)."""
    from scipy.special import gammaln

    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)
