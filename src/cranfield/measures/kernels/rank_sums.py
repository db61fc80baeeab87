"""Sums over the ranks of a query's relevant documents, as Rocchio's normalized measures
(:mod:`cranfield.measures.normalized`), PRES (:mod:`cranfield.measures.pres`) and the
contingency measures that need the collection size (:mod:`cranfield.measures.contingency`) read
them: the collection size, the rank and log-rank sums, their expectations over tie-breaking
(the derivations are in :mod:`cranfield.measures.normalized`'s docstring), and ``ln(N!/(N-k)!)``.
No declarations.
"""

from __future__ import annotations

import math

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.ties.levels import expand, marked_levels

__all__ = [
    "EXACT_LGAMMA",
    "collection_size",
    "cut_rank_parts",
    "expected_rank_parts",
    "lgamma",
    "log_falling",
    "relevant_rank_parts",
]


def collection_size(jr: JudgedRankings, name: str) -> np.ndarray:
    """The per-query collection size, or a clear error naming the measure that needs it."""
    if jr.collection_size is None:
        raise ParameterError(
            f"{name} needs the collection size N: give --collection-size N (or a file of "
            "'qid N' lines) on the command line, or collection_size= in Python"
        )
    return np.asarray(jr.collection_size, dtype=np.int64)


def relevant_rank_parts(
    jr: JudgedRankings, rel: int, cutoff: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per query: ``n`` (relevant in the qrels), found (relevant ranked within ``cutoff``),
    sum of their ranks (exact integers) and sum of their natural logs (in rank order)."""
    relv = jr.relevant(rel)
    if cutoff is not None:
        relv = relv & (jr.rank <= cutoff)
    rows = np.flatnonzero(relv)
    n = jr.num_rel(rel).astype(np.int64)
    found = jr.count(relv)
    ranks = jr.rank[rows]
    rank_sum = np.zeros(jr.num_queries, dtype=np.int64)
    np.add.at(rank_sum, jr.row_query[rows], ranks)
    log_sum = jr.seqsum(rows, np.log(ranks.astype(np.float64)))
    return n, found, rank_sum, log_sum


def lgamma(x: np.ndarray) -> np.ndarray:
    """``ln Gamma(x)`` of each value (:func:`math.lgamma`, in doubles)."""
    return np.array([math.lgamma(float(v)) for v in np.asarray(x).tolist()], dtype=np.float64)


EXACT_LGAMMA = 2**31
"""Below this collection size ``ln(N!/(N-k)!)`` is a difference of ``lgamma`` values (their
digits suffice); from it on, ``lgamma(N)`` is so large that the difference would lose most
of its digits, and the sum of ``ln(N - j)`` is used."""


def log_falling(N: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``ln(N! / (N-k)!)`` per query (``0 <= k <= N``, ``N`` up to ``2**63-1``), in doubles."""
    Nf = np.asarray(N, dtype=np.int64).astype(np.float64)
    k = np.asarray(k, dtype=np.int64)
    out: np.ndarray = lgamma(Nf + 1.0) - lgamma(Nf - k + 1.0)
    big = np.flatnonzero((np.asarray(N) >= EXACT_LGAMMA) & (k > 0))
    if len(big):  # sum_{j<k} ln(N - j): as many terms as relevant documents
        kb = k[big]
        seg = np.cumsum(kb) - kb
        j = np.arange(int(kb.sum())) - np.repeat(seg, kb)
        terms = np.log(np.repeat(Nf[big], kb) - j)
        out[big] = np.add.reduceat(terms, seg)
    return out


def expected_rank_parts(
    jr: JudgedRankings, rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per query: n (relevant in the qrels), found (relevant retrieved), E[sum of their ranks],
    E[sum of their natural logs] (tie-aware :func:`relevant_rank_parts`).

    Without a depth cut inside a tie group (``jr.cut``); see :func:`cut_rank_parts`."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n, T, r = ml.size, ml.before, ml.marked
    single = n == 1
    rank_sum = np.where(single, (T + 1).astype(np.float64), r * (T + (n + 1) / 2.0))
    logs = np.zeros(len(ml.start))
    logs[single] = np.log((T[single] + 1).astype(np.float64))
    multi = np.flatnonzero(~single)
    if len(multi):
        rows, seg = expand(ml.start[multi], n[multi])
        rank = rows + np.repeat(T[multi] + 1 - ml.start[multi], n[multi])
        logs[multi] = r[multi] / n[multi] * np.add.reduceat(np.log(rank.astype(np.float64)), seg)
    nq = jr.num_queries
    return (
        jr.num_rel(rel).astype(np.int64),
        np.bincount(ml.query, weights=r, minlength=nq).astype(np.int64),
        np.bincount(ml.query, weights=rank_sum, minlength=nq),
        segment_total(ml.query, logs, nq),
    )


def cut_rank_parts(
    jr: JudgedRankings, rel: int, cutoff: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per query: n, E[found], E[sum of the found ranks] and Var[found], when a depth cut keeps
    only the first m positions of a level: its retrieved part is a uniformly random m-subset,
    so its relevant documents are hypergeometric (mean m p, variance
    m p (1-p) (n_g-m)/(n_g-1), p = r_g/n_g) at ranks T_g+1..T_g+m (mean sum p (m T_g +
    m (m+1)/2)), as in PRES (this project's reference notes on PRES, sec. 1.4)."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n_g, T, r = ml.size, ml.before, ml.marked
    limit = jr.limit(cutoff)
    m = n_g if limit is None else np.minimum(n_g, limit - T)
    keep = m > 0
    q, n_g, T, r, m = ml.query[keep], n_g[keep], T[keep], r[keep], m[keep]
    p = r / n_g
    found_g = np.where(m == n_g, r.astype(np.float64), m * p)
    rank_g = np.where(m == n_g, r * (T + (n_g + 1) / 2.0), p * (m * T + m * (m + 1) / 2.0))
    var_g = np.zeros(len(q))
    part = m < n_g
    var_g[part] = (m * p * (1 - p) * (n_g - m) / (n_g - 1))[part]
    nq = jr.num_queries
    return (
        jr.num_rel(rel).astype(np.int64),
        np.bincount(q, weights=found_g, minlength=nq),
        np.bincount(q, weights=rank_g, minlength=nq),
        np.bincount(q, weights=var_g, minlength=nq),
    )
