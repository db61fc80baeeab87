"""Rank-biased overlap between the rankings of two runs, per query.

Webber, Moffat & Zobel, 'A similarity measure for indefinite rankings', ACM TOIS 28(4), 2010:
for rankings ``S`` and ``L`` (``s = |S| <= l = |L|``), ``X_d = |S[:d] ∩ L[:d]|`` (for
``d > s``, ``S`` is all of S) and persistence ``p``::

    RBO     = (1 - p) sum_{d>=1} p^(d-1) X_d / d                     (eq. 7, infinite lists)
    RBO_min = (1-p)/p (sum_{d<=l} (X_d - X_l) p^d / d - X_l ln(1 - p))   (eq. 11; the
              rankings continue with documents the other never holds)
    RBO_max = (1-p)/p sum_{d<=f} X*_d p^d / d + p^f,  f = l + s - X_l   (they continue with
              each other's documents: X*_d = X_d + (d - s) for s < d <= l, X_l + 2d - s - l
              for l < d <= f)
    residual = RBO_max - RBO_min       (sec. 4.2: RBO lies in [RBO_min, RBO_min + residual])
    RBO_ext = (1-p)/p (sum_{d<=l} X_d p^d / d + sum_{s<d<=l} X_s (d - s) p^d / (s d))
              + ((X_l - X_s) / l + X_s / s) p^l                          (eq. 32)

A query where a ranking is empty: RBO_min = RBO_ext = 0, residual 1.  Everything is vectorised
over the queries (one intersection of the two runs' (query, document) keys).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.base.segments import segment_cumsum, segment_total
from cranfield.errors import ParameterError

__all__ = [
    "Overlap",
    "Rankings",
    "RankingsKept",
    "overlap_of",
    "persistence",
    "rank_biased_overlap",
    "ranked_documents",
]


@dataclass(frozen=True)
class Rankings:
    """One run's rankings over a list of queries: ``codes[offsets[i]:offsets[i+1]]`` are the
    documents of query i in rank order, as integer codes shared with the other runs."""

    offsets: np.ndarray
    codes: np.ndarray


@dataclass(frozen=True)
class Overlap:
    """RBO of run ``b`` with run ``a`` per query (``query_ids``), and their means."""

    a: str
    b: str
    p: float
    query_ids: tuple[str, ...]
    min: np.ndarray
    residual: np.ndarray
    ext: np.ndarray

    @property
    def means(self) -> dict[str, float]:
        def mean(x: np.ndarray) -> float:
            return float(math.fsum(x.tolist()) / len(x)) if len(x) else math.nan

        return {"min": mean(self.min), "residual": mean(self.residual), "ext": mean(self.ext)}

    def to_dict(self) -> dict[str, Any]:
        m = self.means
        return {
            "a": self.a,
            "b": self.b,
            "p": self.p,
            "queries": len(self.query_ids),
            "rbo_min": m["min"],
            "residual": m["residual"],
            "rbo_ext": m["ext"],
        }


def ranked_documents(run: Any, query_ids: list[str], vocabulary: dict[str, int], *,
                     ties: str = "trec", seed: int | None = None) -> Rankings:  # fmt: skip
    """The documents of ``run`` (a :class:`~cranfield.data.tables.Run`) for ``query_ids`` in rank
    order
    under the tie policy ``ties`` (``weak`` orders as ``trec``), coded by ``vocabulary``
    (extended with new documents)."""
    from cranfield.judging.ordering import order_run

    where = {q: i for i, q in enumerate(query_ids)}
    seg = np.array([where.get(q, -1) for q in run.query_ids], dtype=np.int64)
    policy = "trec" if ties == "weak" else ties
    o = order_run(run, seg, len(query_ids), ties=policy, seed=seed)
    offsets = np.zeros(len(query_ids) + 1, dtype=np.int64)
    np.cumsum(o.lengths, out=offsets[1:])
    docs = run.docs.take(o.rows)
    codes = np.fromiter(
        (vocabulary.setdefault(d, len(vocabulary)) for d in docs), dtype=np.int64, count=len(docs)
    )
    return Rankings(offsets=offsets, codes=codes)


def _restricted(r: Rankings, rows: np.ndarray, depth: int | None) -> Rankings:
    """The rankings of the queries ``rows`` (indices), each cut at ``depth``."""
    n = np.diff(r.offsets)[rows]
    if depth is not None:
        n = np.minimum(n, depth)
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(n, out=offsets[1:])
    take = np.repeat(r.offsets[rows], n) + (
        np.arange(int(offsets[-1])) - np.repeat(offsets[:-1], n)
    )
    return Rankings(offsets=offsets, codes=r.codes[take])


class RankingsKept:
    """The rankings of runs as :func:`cranfield.judging.runs.judge_many` reads them (its
    ``on_run`` hook), for the overlaps of a comparison: integer codes only, not the runs."""

    def __init__(self, *, ties: str, seed: int | None, depth: int | None) -> None:
        self.ties, self.seed, self.depth = ties, seed, depth
        self.queries: list[str] = []
        self.vocabulary: dict[str, int] = {}
        self.rankings: dict[str, Rankings] = {}

    def add(self, name: str, run: Any) -> None:
        self.rankings[name] = ranked_documents(
            run, self.queries, self.vocabulary, ties=self.ties, seed=self.seed
        )

    def overlaps(self, cmp: Any, p: float) -> tuple[Overlap, ...]:
        """RBO for every pair of runs ``cmp`` compares, over its compared queries."""
        label = cmp.labels[0]
        compared = cmp.query_ids[label]
        where = {q: i for i, q in enumerate(self.queries)}
        rows = np.array([where[q] for q in compared], dtype=np.int64)
        out = []
        for pair in cmp.pairs[label]:
            a = _restricted(self.rankings[pair.a], rows, self.depth)
            b = _restricted(self.rankings[pair.b], rows, self.depth)
            lo, res, ext = overlap_of(a, b, p)
            out.append(Overlap(pair.a, pair.b, p, tuple(compared), lo, res, ext))
        return tuple(out)


def persistence(p: Any) -> float:
    """``p`` checked: a number in (0, 1)."""
    from cranfield.base import arguments as A

    value = A.number(p, "p (rank-biased overlap)")
    if not 0.0 < value < 1.0:
        raise ParameterError(f"rank-biased overlap: p must be in (0, 1), got {p!r}")
    return value


def overlap_of(a: Rankings, b: Rankings, p: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(RBO_min, residual, RBO_ext) per query of rankings ``a`` and ``b`` (same queries)."""
    p = persistence(p)
    nq = len(a.offsets) - 1
    na, nb = np.diff(a.offsets), np.diff(b.offsets)
    s, l = np.minimum(na, nb), np.maximum(na, nb)
    width = int(max(a.codes.max(initial=-1), b.codes.max(initial=-1))) + 1
    qa = np.repeat(np.arange(nq, dtype=np.int64), na)
    qb = np.repeat(np.arange(nq, dtype=np.int64), nb)
    _, ia, ib = np.intersect1d(
        qa * width + a.codes, qb * width + b.codes, assume_unique=True, return_indices=True
    )
    q = qa[ia]
    joined = np.maximum(ia - a.offsets[q], ib - b.offsets[q]) + 1  # in both prefixes from here
    x_l = np.bincount(q, minlength=nq).astype(np.float64)
    f = l + s - x_l.astype(np.int64)
    offsets = np.zeros(nq + 1, dtype=np.int64)
    np.cumsum(f, out=offsets[1:])
    seg = np.repeat(np.arange(nq, dtype=np.int64), f)
    d = (np.arange(int(offsets[-1])) - offsets[seg] + 1).astype(np.float64)
    hits = np.zeros(int(offsets[-1]))
    np.add.at(hits, offsets[q] + joined - 1, 1.0)
    x = segment_cumsum(seg, hits)  # X_d for d = 1..f (X_l from l on)
    w = np.power(p, d)
    ss, ll, xl = s[seg].astype(np.float64), l[seg].astype(np.float64), x_l[seg]
    x_s = np.zeros(nq)
    has = s > 0
    x_s[has] = x[offsets[:-1][has] + s[has] - 1]
    xs = x_s[seg]
    upto_l = d <= ll
    k = (1.0 - p) / p
    rbo_min = k * (segment_total(seg, np.where(upto_l, (x - xl) * w / d, 0.0), nq)
                   - x_l * math.log1p(-p))  # fmt: skip
    star = np.where(d <= ss, x, np.where(upto_l, x + d - ss, xl + 2.0 * d - ss - ll))
    rbo_max = k * segment_total(seg, star * w / d, nq) + np.power(p, f.astype(np.float64))
    tail = np.where(upto_l & (d > ss), xs * (d - ss) * w / (np.maximum(ss, 1.0) * d), 0.0)
    ext_sum = segment_total(seg, np.where(upto_l, x * w / d, 0.0) + tail, nq)
    sf, lf = np.maximum(s, 1).astype(np.float64), np.maximum(l, 1).astype(np.float64)
    ext = np.where(has, k * ext_sum + ((x_l - x_s) / lf + x_s / sf) * np.power(p, lf), 0.0)
    return rbo_min, rbo_max - rbo_min, ext


def rank_biased_overlap(
    run_a: Any,
    run_b: Any,
    *,
    p: float = 0.9,
    queries: list[str] | None = None,
    ties: str = "trec",
    seed: int | None = 0,
) -> Overlap:
    """Rank-biased overlap of two runs (paths, tables, dicts or Runs), per query: RBO_min, its
    residual and RBO_ext (Webber, Moffat & Zobel 2010; see the module docstring).

    ``queries``: the queries compared (default: those of either run; a query missing from a
    run is an empty ranking there); ``ties``: the order of equal scores (``trec``: document id
    descending, ``given``, ``random`` with ``seed``)."""
    from cranfield.base import arguments as A
    from cranfield.io import read_run

    p = persistence(p)
    A.choice(ties, "tie policy", ("trec", "given", "random", "weak"))
    a, b = read_run(run_a), read_run(run_b)
    if queries is None:
        queries = list(dict.fromkeys([*a.query_ids, *b.query_ids]))
    vocabulary: dict[str, int] = {}
    ra = ranked_documents(a, queries, vocabulary, ties=ties, seed=seed)
    rb = ranked_documents(b, queries, vocabulary, ties=ties, seed=seed)
    lo, res, ext = overlap_of(ra, rb, p)
    return Overlap(a.name, b.name, p, tuple(queries), lo, res, ext)
