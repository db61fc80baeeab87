"""Pools: which documents of several runs to judge for each query, by a pooling strategy.

Every strategy reads each run's ranking as cranfield orders it (the tie policy ``ties``:
trec_eval's order by default, score descending then document id descending), so rank 1 is
the first document of the ordered ranking whatever the file's rank column says.

``depth``
    the union of every run's first ``depth`` documents (Spärck Jones & van Rijsbergen 1975;
    TREC's pools; trectools' ``topX``), of all they retrieved without a depth.  The pool's
    size varies by query.
``take``
    Take@N (Lipani, Palotti, Lupu, Piroi, Zuccon & Hanbury, "Fixed-cost pooling strategies",
    TKDE 2019): depth pooling one rank at a time, the runs in the order given, until ``size``
    distinct documents are taken.
``rrf``
    the ``size`` documents of highest reciprocal-rank-fusion score ``sum_runs 1 / (k +
    rank)`` (Cormack, Clarke & Büttcher 2009; trectools' ``rrf``, ``k`` = 60).
``rbp``
    the ``size`` documents of highest rank-biased-precision weight ``(1 - p) p^(rank - 1)``,
    summed over the runs (``merge="sum"``) or their largest (``"max"``) (Moffat, Webber &
    Zobel 2007; trectools' ``rbp``, p = 0.8).

Ties of score among documents (rrf, rbp) are broken by document id, ascending (trectools
leaves them to pandas' unstable sort); with ``depth`` given to ``rrf``, ``rbp`` or
``take`` only each run's first ``depth`` documents are candidates.  A pool's documents are
listed in priority order: by score (rrf, rbp), by the rank and run at which they were taken
(depth, take).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.errors import ParameterError

__all__ = ["STRATEGIES", "PoolSpec", "pool_query"]

STRATEGIES = ("depth", "take", "rrf", "rbp")
RBP_MERGES = ("sum", "max")


@dataclass(frozen=True)
class PoolSpec:
    """A pooling strategy with its parameters, checked when made."""

    strategy: str = "depth"
    depth: int | None = None
    size: int | None = None
    p: float = 0.8
    rrf_k: float = 60.0
    merge: str = "sum"

    def __post_init__(self) -> None:
        from cranfield.base import arguments as A

        A.choice(self.strategy, "pooling strategy", STRATEGIES)
        A.choice(self.merge, "rbp merge", RBP_MERGES)
        for name in ("depth", "size"):
            v = getattr(self, name)
            if v is not None and (A.integer(v, name) < 1):
                raise ParameterError(f"{name} must be at least 1, got {v!r}")
        if self.strategy != "depth" and self.size is None:
            raise ParameterError(f"{self.strategy} pooling needs a pool size (--size N)")
        p = A.number(self.p, "p")
        if not 0.0 < p < 1.0:
            raise ParameterError(f"rbp: p must be in (0, 1), got {self.p!r}")
        k = A.number(self.rrf_k, "rrf k")
        if k < 0:
            raise ParameterError(f"rrf: k must be at least 0, got {self.rrf_k!r}")


def pool_query(rankings: Sequence[np.ndarray], spec: PoolSpec, names: Sequence[str]) -> list[int]:
    """The pool of one query: document codes in priority order, from ``rankings`` (one
    array of document codes per run, in rank order); ``names[c]`` is the id of code ``c``
    (for ties broken by document id)."""
    cut = [r[: spec.depth] if spec.depth is not None else r for r in rankings]
    if spec.strategy in ("depth", "take"):
        budget = None if spec.strategy == "depth" else spec.size
        taken: dict[int, None] = {}
        longest = max((len(r) for r in cut), default=0)
        for rank in range(longest):
            for r in cut:
                if rank < len(r):
                    taken.setdefault(int(r[rank]), None)
                    if budget is not None and len(taken) >= budget:
                        return list(taken)
        return list(taken)
    score: dict[int, float] = {}
    for r in cut:
        r = _first_occurrences(r)
        ranks = np.arange(1, len(r) + 1, dtype=np.float64)
        if spec.strategy == "rrf":
            w = 1.0 / (spec.rrf_k + ranks)
        else:
            w = (1.0 - spec.p) * spec.p ** (ranks - 1.0)
        for c, x in zip(r.tolist(), w.tolist(), strict=True):
            if spec.strategy == "rbp" and spec.merge == "max":
                score[c] = max(score.get(c, 0.0), x)
            else:
                score[c] = score.get(c, 0.0) + x
    ordered = sorted(score, key=lambda c: (-score[c], names[c]))
    return ordered[: spec.size]


def _first_occurrences(r: np.ndarray) -> np.ndarray:
    """``r`` without a document's repeats (a run that lists one twice keeps the first)."""
    _, first = np.unique(r, return_index=True)
    return r if len(first) == len(r) else r[np.sort(first)]
