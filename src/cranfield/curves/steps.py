"""Each query's step curve, as the ranks of its relevant documents (CSR over all queries).

A query's precision-recall curve over the ranks ``k = 1..n`` (recall ``rel(k)/R``, precision
``rel(k)/k``) is a staircase (Keen, "Evaluation Parameters", SMART report ISR-13, Fig. 4): the curve
rises at each relevant document and then falls along a *vertical step* of constant recall ``h/R``
through the non-relevant documents that follow.  Step ``h`` is the cut-offs ``a_h .. b_h``, ``a_h``
the rank of the ``h``-th relevant document and ``b_h`` the rank just before the next one (the last
rank of the ranking for the last step).  Everything the curve methods need is in these ranks, held
here for all queries at once: entry ``offsets[q] + h - 1`` is step ``h`` of query ``q``.

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

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings

__all__ = ["STEP_CHOICES", "Steps"]

STEP_CHOICES = ("highest", "lowest", "middle", "mean", "ends")


@dataclass(frozen=True, eq=False)
class Steps:
    """Per query ``R`` (relevant in the qrels), ``n`` (ranked), ``RR`` (relevant ranked);
    ``offsets`` (CSR over queries) and ``first``, the rank ``a_h`` of each step."""

    R: np.ndarray
    n: np.ndarray
    RR: np.ndarray
    offsets: np.ndarray
    first: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, rel: int = 1) -> Steps:
        mask = jr.relevant(rel)
        RR = jr.count(mask)
        return cls(
            R=jr.num_rel(rel),
            n=jr.num_ret.astype(np.int64),
            RR=RR,
            offsets=np.concatenate(([0], np.cumsum(RR))).astype(np.int64),
            first=jr.rank[mask].astype(np.int64),
        )

    @classmethod
    def from_lists(cls, relevant_ranks: list[list[int]], R: list[int], n: list[int]) -> Steps:
        """From plain lists (tests and examples): ranks of the relevant documents per query."""
        RR = np.array([len(r) for r in relevant_ranks], dtype=np.int64)
        first = [k for ranks in relevant_ranks for k in sorted(ranks)]
        return cls(
            R=np.asarray(R, dtype=np.int64),
            n=np.asarray(n, dtype=np.int64),
            RR=RR,
            offsets=np.concatenate(([0], np.cumsum(RR))).astype(np.int64),
            first=np.asarray(first, dtype=np.int64),
        )

    @property
    def num_queries(self) -> int:
        return len(self.R)

    @cached_property
    def query(self) -> np.ndarray:
        """Query index of each step."""
        return np.repeat(np.arange(self.num_queries, dtype=np.int64), self.RR)

    @cached_property
    def h(self) -> np.ndarray:
        """1-based step number of each step."""
        return np.arange(len(self.first), dtype=np.int64) - self.offsets[self.query] + 1

    @cached_property
    def last(self) -> np.ndarray:
        """``b_h``, the last cut-off of each step."""
        T = len(self.first)
        nxt = np.empty(T, dtype=np.int64)
        nxt[:-1] = self.first[1:] - 1
        is_last = self.h == self.RR[self.query]
        return np.where(is_last, self.n[self.query], nxt)

    def precision(self, step: str) -> np.ndarray:
        """The precision chosen on each vertical step."""
        if step not in STEP_CHOICES:
            raise ParameterError(
                f"unknown step choice {step!r}; choose one of {', '.join(STEP_CHOICES)}"
            )
        a = self.first.astype(np.float64)
        b = self.last.astype(np.float64)
        h = self.h.astype(np.float64)
        if step == "highest":
            return h / a
        if step == "lowest":
            return h / b
        if step == "middle":
            return h / np.floor((a + b) / 2)
        if step == "ends":
            return (h / a + h / b) / 2
        # mean over the step's cut-offs: h (H_b - H_{a-1}) / (b - a + 1), H the harmonic sums
        top = int(self.last.max(initial=1))
        harmonic = np.concatenate(([0.0], np.cumsum(1.0 / np.arange(1, top + 1))))
        out = h * (harmonic[self.last] - harmonic[self.first - 1]) / (b - a + 1)
        return np.where(self.last == self.first, h / a, out)

    @cached_property
    def _from_end(self) -> tuple[np.ndarray, np.ndarray]:
        """Steps ordered by their distance from the query's last step, and group bounds."""
        dist = self.RR[self.query] - self.h
        order = np.argsort(dist, kind="stable")
        bounds = np.concatenate(([0], np.cumsum(np.bincount(dist))))
        return order, bounds

    def suffix_max(self, values: np.ndarray) -> np.ndarray:
        """``max_{h' >= h} values[h']`` within each query (the "chain effect" of
        Raghavan, Jung & Bollmann 1989, sec. 2.2)."""
        out = np.asarray(values, dtype=np.float64).copy()
        if not len(out):
            return out
        order, bounds = self._from_end
        for d in range(1, len(bounds) - 1):
            idx = order[bounds[d] : bounds[d + 1]]
            out[idx] = np.maximum(out[idx], out[idx + 1])
        return out

    def at(self, values: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Per query, ``values`` at step ``c`` (clipped into ``1..RR``; 0 where ``RR = 0``)."""
        if not len(values):
            return np.zeros(self.num_queries)
        c = np.clip(c, 1, np.maximum(self.RR, 1))
        idx = np.minimum(self.offsets[:-1] + c - 1, len(values) - 1)
        return np.where(self.RR > 0, values[idx], 0.0)
