"""Measures over the ranks of all relevant documents: normalized recall and precision (Rocchio),
rank recall and log precision (SMART), weighted normalized recall (Keen) and PRES (Magdy & Jones).

Notation: ``n`` relevant documents (grade >= rel in the qrels), ``r_i`` the rank of the i-th,
``N`` the collection size.  Rocchio's measures rank the whole collection: relevant documents
that the run does not retrieve are placed at the bottom of the collection, at ranks
``N-k+1..N`` for ``k`` missing (Magdy & Jones, seed 000 sec. 4); they need ``N``
(``--collection-size``).  PRES replaces ``N`` by ``N_max + n`` and places the ``k`` relevant
documents missing from the top ``N_max`` at ranks ``N_max+n-k+1..N_max+n`` (seed 000 eq. 4).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ParameterError
from ..judged_rankings import JudgedRankings
from .params import MAX_COUNT, MAX_WEIGHT
from .registry import REL, REQUIRED, Param, Undefined, measure

KEEN = "Keen, 'Evaluation Parameters', ISR-13 (seed 002)"
PRES_SRC = "Magdy & Jones, PRES, SIGIR 2010 (seed 000)"

__all__ = ["collection_size", "relevant_rank_parts"]


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


def _lgamma(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(float(v)) for v in np.asarray(x).tolist()], dtype=np.float64)


EXACT_LGAMMA = 2**31
"""Below this collection size ``ln(N!/(N-k)!)`` is a difference of ``lgamma`` values (their
digits suffice); from it on, ``lgamma(N)`` is so large that the difference would lose most
of its digits, and the sum of ``ln(N - j)`` is used."""


def log_falling(N: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``ln(N! / (N-k)!)`` per query (``0 <= k <= N``, ``N`` up to ``2**63-1``), in doubles."""
    Nf = np.asarray(N, dtype=np.int64).astype(np.float64)
    k = np.asarray(k, dtype=np.int64)
    out = _lgamma(Nf + 1.0) - _lgamma(Nf - k + 1.0)
    big = np.flatnonzero((np.asarray(N) >= EXACT_LGAMMA) & (k > 0))
    if len(big):  # sum_{j<k} ln(N - j): as many terms as relevant documents
        kb = k[big]
        seg = np.cumsum(kb) - kb
        j = np.arange(int(kb.sum())) - np.repeat(seg, kb)
        terms = np.log(np.repeat(Nf[big], kb) - j)
        out[big] = np.add.reduceat(terms, seg)
    return out


def _no_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    return jr.num_rel(rel) == 0


def _all_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    if jr.collection_size is None:
        return np.zeros(jr.num_queries, dtype=bool)
    return jr.num_rel(rel) >= jr.collection_size


NO_REL = Undefined("the query has no relevant document (n = 0)", "0", _no_rel)
ALL_REL = Undefined("every document of the collection is relevant (n = N)", "1", _all_rel)


def _collection_rank_sum(jr: JudgedRankings, rel: int, name: str):
    """(n, N, k missing, sum of ranks in the collection, sum of log ranks in the collection)."""
    N = collection_size(jr, name)
    n, found, rank_sum, log_sum = relevant_rank_parts(jr, rel)
    k = n - found
    # missing relevant documents at ranks N-k+1..N
    # in doubles: exact below 2**53, finite for any 64-bit N (int64 products could overflow)
    total = rank_sum + k * N.astype(np.float64) - k * (k - 1) // 2
    log_total = log_sum + log_falling(N, k)
    return n, N, k, total, log_total


@measure(
    "Rnorm",
    params=(REL,),
    summary="normalized recall: relevant ranks against best and worst (needs collection size)",
    formula="Rnorm = 1 - (sum r_i - sum_{i<=n} i) / (n (N - n)); unretrieved at ranks N-k+1..N",
    source=KEEN + " sec. 3A; Rocchio ISR-10 eq. 5.18-5.20; Magdy & Jones (seed 000) eq. 2",
    family="normalized",
    undefined=(NO_REL, ALL_REL),
    notes="Needs --collection-size. Keen's Q268 (ranks 1,2,4,6,13 of 200) gives 0.9887.",
)
def rnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, N, _k, total, _ = _collection_rank_sum(jr, rel, "Rnorm")
    num = total - n * (n + 1) // 2
    den = n * (N.astype(np.float64) - n)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, num / np.maximum(den, 1), out=out, where=den > 0)
    return out


@measure(
    "Pnorm",
    params=(REL,),
    summary="normalized precision: log ranks against best and worst (needs collection size)",
    formula="Pnorm = 1 - (sum ln r_i - ln n!) / ln(N! / ((N-n)! n!))",
    source=KEEN + " sec. 3A; Rocchio ISR-10 eq. 5.21-5.23",
    family="normalized",
    undefined=(NO_REL, ALL_REL),
    notes="Needs --collection-size. Keen's Q268 gives 0.92386 (printed truncated, 0.9238).",
)
def pnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, N, _k, _total, log_total = _collection_rank_sum(jr, rel, "Pnorm")
    best = _lgamma(n + 1)
    worst = log_falling(N, n) - _lgamma(n + 1)
    ok = (n > 0) & (n < N)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, (log_total - best) / np.where(ok, worst, 1.0), out=out, where=ok)
    return out


@measure(
    "RankRecall",
    params=(REL,),
    summary="rank recall: ideal over actual sum of relevant ranks (needs collection size)",
    formula="RankRecall = sum_{i<=n} i / sum r_i",
    source=KEEN + " sec. 3A (RNK REC, Fig. 5); Rocchio ISR-10 pp. 5-30",
    family="normalized",
    undefined=(NO_REL,),
    notes="Needs --collection-size only to place unretrieved relevant documents (at the bottom).",
)
def rank_recall(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, _N, _k, total, _ = _collection_rank_sum(jr, rel, "RankRecall")
    out = np.zeros(jr.num_queries)
    np.divide((n * (n + 1) // 2).astype(np.float64), total, out=out, where=n > 0)
    return out


@measure(
    "LogPrecision",
    params=(REL,),
    summary="log precision: ideal over actual sum of log relevant ranks (needs collection size)",
    formula="LogPrecision = ln(n!) / sum ln r_i  (1 when n = 1 and r_1 = 1)",
    source=KEEN + " sec. 3A (LOG PRE, Fig. 5); Rocchio ISR-10 pp. 5-31",
    family="normalized",
    undefined=(NO_REL,),
    notes="0/0 for a single relevant document at rank 1 is the perfect case and scores 1.",
)
def log_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, _N, _k, _total, log_total = _collection_rank_sum(jr, rel, "LogPrecision")
    out = np.where(n > 0, 1.0, 0.0)  # log_total == 0 only when n == 1 at rank 1: perfect
    np.divide(_lgamma(n + 1), log_total, out=out, where=(n > 0) & (log_total > 0))
    return out


def _weights(grades: np.ndarray, gains: dict | None) -> np.ndarray:
    base = np.where(grades >= 0, grades, 0).astype(np.float64)
    if gains:
        for g, v in gains.items():
            base[grades == g] = float(v)
    return base


WEIGHTS = Param(
    "gains",
    "gains",
    None,
    "weight of each relevant grade, as {grade:weight}; unlisted grades weigh their grade",
    at_least=-MAX_WEIGHT,
    at_most=MAX_WEIGHT,
)


@measure(
    "WRnorm",
    params=(REL, WEIGHTS),
    summary="weighted normalized recall for graded judgments (needs collection size)",
    formula="WRnorm = 1 - (sum r_i w_i - sum i w*_i) / (n (N - n)), w* = weights descending",
    source=KEEN + " sec. 5, Fig. 27",
    family="normalized",
    undefined=(NO_REL, ALL_REL),
    notes="Unretrieved relevant documents sit at the mean of the bottom ranks N-k+1..N "
    "(their expected rank in random order). The denominator is Keen's unweighted one, so "
    "values can fall below 0 when weights exceed 1.",
)
def wrnorm(jr: JudgedRankings, *, rel: int, gains: dict | None) -> np.ndarray:
    N = collection_size(jr, "WRnorm")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    w_rows = _weights(jr.grades[rows], gains)
    found_w = jr.seqsum(rows, w_rows * jr.rank[rows])
    found_wsum = jr.seqsum(rows, w_rows)
    found = jr.count(relv)
    # every relevant document in the qrels, weights descending, at ideal ranks 1..n
    qrel = jr.qrels_grades >= max(rel, 0)
    q = jr.qrels_query[qrel]
    w = _weights(jr.qrels_grades[qrel], gains)
    o = np.lexsort((-w, q))
    q, w = q[o], w[o]
    n = jr.num_rel(rel).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(n)))[:-1]
    pos = np.arange(len(q)) - starts[q] + 1
    ideal = np.zeros(jr.num_queries)
    np.add.at(ideal, q, w * pos)
    total_w = np.zeros(jr.num_queries)
    np.add.at(total_w, q, w)
    k = n - found
    missing = (total_w - found_wsum) * (N - (k - 1) / 2.0)
    den = n * (N.astype(np.float64) - n)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, (found_w + missing - ideal) / np.maximum(den, 1), out=out, where=den > 0)
    return out


# ----------------------------------------------------------------------------- PRES


NMAX = Param(
    "cutoff",
    "int",
    REQUIRED,
    "N_max: documents the user examines (the @ part)",
    at_least=1,
    at_most=MAX_COUNT,
)


def _pres(jr: JudgedRankings, cutoff: int, rel: int) -> tuple[np.ndarray, np.ndarray]:
    if cutoff is None or cutoff <= 0:
        raise ParameterError(f"PRES needs N_max > 0 (as in PRES@1000), got {cutoff!r}")
    n, found, rank_sum, _ = relevant_rank_parts(jr, rel, cutoff)
    k = n - found
    # eq. 4 with k = n - nR missing at ranks N_max+nR+1..N_max+n; eq. 3 over n * N_max
    num = rank_sum + k * (cutoff + n) - k * (k - 1) // 2 - n * (n + 1) // 2
    out = np.zeros(jr.num_queries)
    np.subtract(1.0, num / np.maximum(n * cutoff, 1), out=out, where=n > 0)
    return out, n


@measure(
    "PRES",
    cutoff=NMAX,
    params=(REL,),
    summary="patent retrieval evaluation score: normalized recall with worst case at N_max",
    formula="PRES@N_max = 1 - (sum r_i / n - (n+1)/2) / N_max; missing at N_max+nR+1..N_max+n",
    source=PRES_SRC + " eq. 3-4",
    family="normalized",
    undefined=(NO_REL,),
    notes="Only the top N_max documents count (the @ part is N_max). Reading of the OCR: "
    "sum r_i is divided by n in eq. 3, and eq. 4 adds k = n - nR missing documents.",
)
def pres(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _pres(jr, cutoff, rel)[0]


@measure(
    "PRESest",
    cutoff=NMAX,
    params=(REL,),
    summary="estimated PRES for n > N_max: PRES divided by the highest reachable recall",
    formula="PRESest@N_max = PRES / R_max, R_max = min(1, N_max / n)",
    source=PRES_SRC + " sec. 6.4, eq. 5-6",
    family="normalized",
    undefined=(NO_REL,),
)
def pres_est(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    value, n = _pres(jr, cutoff, rel)
    return value * np.maximum(1.0, n / float(cutoff))
