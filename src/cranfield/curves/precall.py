"""Precision and fallout at a recall point of a weak ordering (Raghavan, Jung & Bollmann, "A
Critical Investigation of Recall and Precision as Measures of Retrieval System Performance",
ACM TOIS 7(3), 1989).

A weak ordering splits a ranking into levels of tied documents.  To retrieve ``NR`` relevant
documents a user takes whole levels until the final level ``l_f`` where the need is met; with
``j`` non-relevant and ``t_r`` relevant documents in the levels before ``l_f``, ``r`` relevant
and ``i`` non-relevant in ``l_f``, and ``s = NR - t_r``:

- PRECALL (eq. 2.2): ``P = NR / (NR + j + s i / r)``, also for fractional ``NR`` (the
  "intuitive" interpolation, sec. 3.4);
- fallout on the recall-fallout graph, linear between the points of full levels (eq. 3.6):
  ``F = j / (N - n) + s i / ((N - n) r)`` (``n`` relevant, ``N`` documents in the collection);
- and the two are tied by ``P = G R / (G R + (1 - G) F)``, ``G = n / N`` (eq. 3.5).

With a linear ordering (``weak=False``: every document its own level) ``i = 0`` and PRECALL at
the ``h``-th relevant document is ``h / rank``.  Relevant documents a run does not retrieve are
taken to form one last level with the rest of the collection (``N`` needed), the same view of
unranked documents as the paper's weak orderings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cranfield.curves.steps import Steps
from cranfield.judging.rankings import JudgedRankings

__all__ = ["WeakLevels"]


@dataclass(frozen=True, eq=False)
class WeakLevels:
    """For the level holding each step's relevant document (aligned with :class:`Steps`):
    ``j`` (non-relevant before it), ``t`` (relevant before it), ``r`` and ``i`` (relevant and
    non-relevant in it)."""

    j: np.ndarray
    t: np.ndarray
    r: np.ndarray
    i: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, *, rel: int = 1, weak: bool = True) -> WeakLevels:
        mask = jr.relevant(rel)
        rows = np.flatnonzero(mask)
        start = jr.offsets[:-1][jr.row_query[rows]]
        if weak and len(rows):
            gs = jr.tie_start[rows]
            ge = gs + jr.tie_size[rows]
        else:
            gs, ge = rows, rows + 1
        cs = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        t = cs[gs] - cs[start]
        r = cs[ge] - cs[gs]
        return cls(j=(gs - start) - t, t=t, r=r, i=(ge - gs) - r)

    @classmethod
    def linear(cls, steps: Steps) -> WeakLevels:
        """The levels of a linear ordering (every document alone)."""
        t = steps.h - 1
        ones = np.ones_like(steps.first)
        return cls(j=steps.first - 1 - t, t=t, r=ones, i=np.zeros_like(steps.first))

    def precall(self, steps: Steps) -> np.ndarray:
        """PRECALL at each simple recall point ``h / R`` (eq. 2.2)."""
        h = steps.h.astype(np.float64)
        return h / (h + self.j + (h - self.t) * self.i / self.r)
