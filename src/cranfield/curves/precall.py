"""Precision and fallout at a recall point of a weak ordering (Raghavan, Jung & Bollmann,
seed 003).

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
unranked documents as seed 003's weak orderings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..judged import JudgedRankings
from .steps import Steps

__all__ = ["WeakLevels"]


@dataclass(frozen=True, eq=False)
class WeakLevels:
    """Queries x steps matrices, for the level holding the ``h``-th relevant ranked document:
    ``j`` (non-relevant before it), ``t`` (relevant before it), ``r`` and ``i`` (relevant and
    non-relevant in it)."""

    j: np.ndarray
    t: np.ndarray
    r: np.ndarray
    i: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, steps: Steps, *, rel: int = 1, weak: bool = True) -> WeakLevels:
        mask = jr.relevant(rel)
        rows = np.flatnonzero(mask)
        q = jr.row_query[rows]
        h = jr.cumcount(mask)[rows] - 1
        start = jr.offsets[:-1][q]
        if weak and len(rows):
            gs = jr.tie_start[rows]
            ge = gs + jr.tie_size[rows]
        else:
            gs, ge = rows, rows + 1
        cs = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        t = cs[gs] - cs[start]
        r = cs[ge] - cs[gs]
        j = (gs - start) - t
        i = (ge - gs) - r
        shape = steps.first.shape
        out = {k: np.zeros(shape, dtype=np.int64) for k in "jtri"}
        for name, v in (("j", j), ("t", t), ("r", r), ("i", i)):
            out[name][q, h] = v
        out["r"][~steps.valid] = 1
        return cls(**out)

    @classmethod
    def linear(cls, steps: Steps) -> WeakLevels:
        """The levels of a linear ordering (every document alone)."""
        h = np.arange(steps.first.shape[1], dtype=np.int64)[None, :]
        j = np.where(steps.valid, steps.first - 1 - h, 0)
        t = np.where(steps.valid, h, 0) + np.zeros_like(steps.first)
        return cls(j=j, t=t, r=np.ones_like(steps.first), i=np.zeros_like(steps.first))

    def precall(self, steps: Steps) -> np.ndarray:
        """Queries x steps: PRECALL at each simple recall point ``h / R`` (eq. 2.2)."""
        h = steps.h
        s = h - self.t
        out = h / (h + self.j + s * self.i / self.r)
        return np.where(steps.valid, out, np.nan)
