"""Each query's step curve, as the ranks of its relevant documents (padded matrices).

A query's precision-recall curve over the ranks ``k = 1..n`` (recall ``rel(k)/R``, precision
``rel(k)/k``) is a staircase (Keen, seed 002 Fig. 4): the curve rises at each relevant document
and then falls along a *vertical step* of constant recall ``h/R`` through the non-relevant
documents that follow.  Step ``h`` is the cut-offs ``a_h .. b_h``, ``a_h`` the rank of the
``h``-th relevant document and ``b_h`` the rank just before the next one (the last rank of the
ranking for the last step).  Everything the curve methods need is in these ranks, held here as
queries x steps matrices so that all queries are processed at once.

The five choices of the precision used for a step (Keen sec. 4B, Fig. 15):

- ``highest``: the first cut-off of the step, ``h / a_h``;
- ``lowest``: the last cut-off, ``h / b_h``;
- ``middle``: the document in the middle position, rank ``floor((a_h + b_h) / 2)`` (Fig. 15:
  ranks 6..12 give rank 9; for an even number of cut-offs the upper of the two middle ones);
- ``mean``: the mean precision over all the step's cut-offs, ``(1/(b-a+1)) sum_k h/k``;
- ``ends``: the mean of the top and bottom cut-offs, ``(h/a_h + h/b_h) / 2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import ParameterError
from ..judged import JudgedRankings

__all__ = ["STEP_CHOICES", "Steps"]

STEP_CHOICES = ("highest", "lowest", "middle", "mean", "ends")


@dataclass(frozen=True, eq=False)
class Steps:
    """Per query ``R`` (relevant in the qrels), ``n`` (ranked), ``RR`` (relevant ranked) and the
    queries x steps matrix ``first`` of the ranks ``a_h`` (0 where ``h > RR``)."""

    R: np.ndarray
    n: np.ndarray
    RR: np.ndarray
    first: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, rel: int = 1) -> Steps:
        mask = jr.relevant(rel)
        rows = np.flatnonzero(mask)
        q = jr.row_query[rows]
        h = jr.cumcount(mask)[rows] - 1
        RR = jr.count(mask)
        width = max(int(RR.max()) if len(RR) else 0, 1)
        first = np.zeros((jr.num_queries, width), dtype=np.int64)
        first[q, h] = jr.rank[rows]
        return cls(R=jr.num_rel(rel), n=jr.num_ret.astype(np.int64), RR=RR, first=first)

    @classmethod
    def from_lists(cls, relevant_ranks: list[list[int]], R: list[int], n: list[int]) -> Steps:
        """From plain lists (tests and examples): ranks of the relevant documents per query."""
        Q = len(relevant_ranks)
        width = max([len(r) for r in relevant_ranks] + [1])
        first = np.zeros((Q, width), dtype=np.int64)
        for i, ranks in enumerate(relevant_ranks):
            first[i, : len(ranks)] = sorted(ranks)
        return cls(
            R=np.asarray(R, dtype=np.int64),
            n=np.asarray(n, dtype=np.int64),
            RR=np.array([len(r) for r in relevant_ranks], dtype=np.int64),
            first=first,
        )

    @property
    def num_queries(self) -> int:
        return len(self.R)

    @cached_property
    def valid(self) -> np.ndarray:
        """Queries x steps: whether step ``h`` exists (``h <= RR``)."""
        return np.arange(self.first.shape[1])[None, :] < self.RR[:, None]

    @cached_property
    def h(self) -> np.ndarray:
        """1-based step numbers, broadcastable against ``first``."""
        return np.arange(1, self.first.shape[1] + 1, dtype=np.float64)[None, :]

    @cached_property
    def last(self) -> np.ndarray:
        """Queries x steps: ``b_h``, the last cut-off of step ``h``."""
        nxt = np.concatenate([self.first[:, 1:], np.zeros((self.num_queries, 1), np.int64)], 1)
        is_last = np.arange(self.first.shape[1])[None, :] == (self.RR - 1)[:, None]
        return np.where(is_last, self.n[:, None], nxt - 1)

    def precision(self, step: str) -> np.ndarray:
        """Queries x steps: the precision chosen on each vertical step (NaN where no step)."""
        if step not in STEP_CHOICES:
            raise ParameterError(
                f"unknown step choice {step!r}; choose one of {', '.join(STEP_CHOICES)}"
            )
        a = np.where(self.valid, self.first, 1).astype(np.float64)
        b = np.where(self.valid, self.last, 1).astype(np.float64)
        h = self.h
        if step == "highest":
            out = h / a
        elif step == "lowest":
            out = h / b
        elif step == "middle":
            out = h / np.floor((a + b) / 2)
        elif step == "ends":
            out = (h / a + h / b) / 2
        else:  # mean over the step's cut-offs: h (H_b - H_{a-1}) / (b - a + 1)
            top = int(b.max()) if b.size else 1
            harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, top + 1))))
            ai = a.astype(np.int64)
            bi = b.astype(np.int64)
            out = h * (harmonic[bi] - harmonic[ai - 1]) / (b - a + 1)
            # sum 1/k from a..b directly where the step is short (no cancellation)
            out = np.where(bi == ai, h / a, out)
        return np.where(self.valid, out, np.nan)

    def suffix_max(self, values: np.ndarray) -> np.ndarray:
        """Queries x steps: ``max_{h' >= h} values[h']`` over each query's valid steps."""
        v = np.where(self.valid, values, -np.inf)
        return np.where(self.valid, np.maximum.accumulate(v[:, ::-1], axis=1)[:, ::-1], np.nan)

    def take(self, values: np.ndarray, h: np.ndarray) -> np.ndarray:
        """``values[q, h[q, j] - 1]`` per query ``q`` and column ``j`` (``h`` clipped to steps)."""
        idx = np.clip(h - 1, 0, self.first.shape[1] - 1)
        return np.take_along_axis(values, idx, axis=1)
