"""Measures over the ranks of all relevant documents: normalized recall and precision (Rocchio),
rank recall and log precision (SMART), weighted normalized recall (Keen) and PRES (Magdy & Jones).

Notation: ``n`` relevant documents (grade >= rel in the qrels), ``r_i`` the rank of the i-th,
``N`` the collection size.  Rocchio's measures rank the whole collection: relevant documents
that the run does not retrieve are placed at the bottom of the collection, at ranks
``N-k+1..N`` for ``k`` missing (Magdy & Jones, SIGIR 2010, sec. 4); they need ``N``
(``--collection-size``).  PRES, the same with ``N_max + n`` for ``N``, is in :mod:`.pres`.

Tie-aware forms (this project's derivations, verified by enumeration): a relevant document of
level g sits at ``T_g + (n_g+1)/2`` on average, so Rnorm and WRnorm, linear in the ranks, take
``E[sum r_i] = sum_g r_g (T_g + (n_g+1)/2)``; Pnorm, linear in the log ranks, takes
``E[sum ln r_i] = sum_g (r_g/n_g) sum_{j<=n_g} ln(T_g+j)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.rank_sums import (  # collection_size, ...: their old path
    collection_size,
    cut_rank_parts,
    expected_rank_parts,
    lgamma,
    log_falling,
    relevant_rank_parts,
)
from cranfield.measures.oracles import LIT, NAIVE
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.registry import REL, Param, Undefined, measure
from cranfield.measures.sources import KEEN, MAGDY_JONES
from cranfield.ties.expected import refuse_cut
from cranfield.ties.levels import marked_levels

NO_TIES = "no closed form: a ratio of sums of ranks"

__all__ = ["collection_size", "cut_rank_parts", "relevant_rank_parts"]


def _no_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = jr.num_rel(rel) == 0
    return result


def _all_rel(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    if jr.collection_size is None:
        return np.zeros(jr.num_queries, dtype=bool)
    return jr.num_rel(rel) >= jr.collection_size


NO_REL = Undefined("the query has no relevant document (n = 0)", "0", _no_rel)
ALL_REL = Undefined("every document of the collection is relevant (n = N)", "1", _all_rel)


def _collection_rank_sum(
    jr: JudgedRankings, rel: int, name: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(n, N, k missing, sum of ranks in the collection, sum of log ranks in the collection)."""
    N = collection_size(jr, name)
    n, found, rank_sum, log_sum = relevant_rank_parts(jr, rel)
    k = n - found
    # missing relevant documents at ranks N-k+1..N
    # in doubles: exact below 2**53, finite for any 64-bit N (int64 products could overflow)
    total = rank_sum + k * N.astype(np.float64) - k * (k - 1) // 2
    log_total = log_sum + log_falling(N, k)
    return n, N, k, total, log_total


def _tie_rnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Rnorm]: Rnorm is linear in the sum of the relevant ranks (and, through the relevant
    documents a depth cut leaves out, quadratic in their number: E[k^2] = Var + E[k]^2)."""
    N = collection_size(jr, "Rnorm")
    if jr.cut:
        n, found, rank_sum, var = cut_rank_parts(jr, rel)
        k = n - found
        total = rank_sum + k * N.astype(np.float64) - (var + k * k - k) / 2
    else:
        n, found, rank_sum, _ = expected_rank_parts(jr, rel)
        k = n - found
        total = rank_sum + k * N.astype(np.float64) - k * (k - 1) // 2
    num = total - n * (n + 1) // 2
    den = n * (N.astype(np.float64) - n)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, num / np.maximum(den, 1), out=out, where=den > 0)
    return out


def _pnorm(n: np.ndarray, N: np.ndarray, log_total: np.ndarray) -> np.ndarray:
    """Pnorm from ``log_total = sum ln r_i`` over all n relevant documents: 1 - (log_total -
    ln n!) / ln(N! / ((N - n)! n!)); 1 when n = N, 0 when n = 0."""
    best = lgamma(n + 1)
    worst = log_falling(N, n) - lgamma(n + 1)
    ok = (n > 0) & (n < N)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, (log_total - best) / np.where(ok, worst, 1.0), out=out, where=ok)
    return out


def _tie_pnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Pnorm]: Pnorm is linear in the sum of the logs of the relevant ranks."""
    refuse_cut(
        jr,
        "Pnorm",
        "the logarithm of the ranks it gives the relevant documents the cut "
        "leaves out is not linear in their number",
    )
    N = collection_size(jr, "Pnorm")
    n, found, _, log_sum = expected_rank_parts(jr, rel)
    k = n - found
    log_total = log_sum + log_falling(N, k)
    return _pnorm(n, N, log_total)


@measure(
    "Rnorm",
    params=(REL,),
    summary="normalized recall: relevant ranks against best and worst (needs collection size)",
    formula="Rnorm = 1 - (sum r_i - sum_{i<=n} i) / (n (N - n)); unretrieved at ranks N-k+1..N",
    source=f"{KEEN}, sec. 3A; Rocchio, SMART report ISR-10, eq. 5.18-5.20; {MAGDY_JONES}, eq. 2",
    better="higher",
    needs=("collection_size",),
    undefined=(NO_REL, ALL_REL),
    ties=_tie_rnorm,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_q268_normalized_recall_and_precision",
        "tests/measures/test_measures_literature.py::test_fig9_qa12_qa4",
        LIT,
    ),
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
    source=f"{KEEN}, sec. 3A; Rocchio, SMART report ISR-10, eq. 5.21-5.23",
    better="higher",
    needs=("collection_size",),
    undefined=(NO_REL, ALL_REL),
    ties=_tie_pnorm,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_q268_normalized_recall_and_precision",
        "tests/measures/test_measures_literature.py::test_fig9_qa12_qa4",
        LIT,
    ),
    notes="Needs --collection-size. Keen's Q268 gives 0.92386 (printed truncated, 0.9238).",
)
def pnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, N, _k, _total, log_total = _collection_rank_sum(jr, rel, "Pnorm")
    return _pnorm(n, N, log_total)


@measure(
    "RankRecall",
    params=(REL,),
    summary="rank recall: ideal over actual sum of relevant ranks (needs collection size)",
    formula="RankRecall = sum_{i<=n} i / sum r_i",
    source=f"{KEEN}, sec. 3A (RNK REC, Fig. 5); Rocchio, SMART report ISR-10, pp. 5-30",
    better="higher",
    needs=("collection_size",),
    undefined=(NO_REL,),
    ties=None,
    no_ties=NO_TIES,
    checked_by=(NAIVE,),
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
    source=f"{KEEN}, sec. 3A (LOG PRE, Fig. 5); Rocchio, SMART report ISR-10, pp. 5-31",
    better="higher",
    needs=("collection_size",),
    undefined=(NO_REL,),
    ties=None,
    no_ties="no closed form: a ratio of sums of log ranks",
    checked_by=(NAIVE,),
    notes="0/0 for a single relevant document at rank 1 is the perfect case and scores 1.",
)
def log_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    n, _N, _k, _total, log_total = _collection_rank_sum(jr, rel, "LogPrecision")
    out = np.where(n > 0, 1.0, 0.0)  # log_total == 0 only when n == 1 at rank 1: perfect
    np.divide(lgamma(n + 1), log_total, out=out, where=(n > 0) & (log_total > 0))
    return out


def _weights(grades: np.ndarray, gains: dict[Any, Any] | None) -> np.ndarray:
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


def _tie_wrnorm(jr: JudgedRankings, *, rel: int, gains: dict[Any, Any] | None) -> np.ndarray:
    """E[WRnorm]: linear in the weighted sum of the relevant ranks."""
    refuse_cut(
        jr,
        "WRnorm",
        "the ranks it gives the relevant documents the cut leaves out "
        "depend on which of them it leaves out (their weights differ)",
    )
    N = collection_size(jr, "WRnorm")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    ml = marked_levels(jr, rows, True)
    w_rows = _weights(jr.grades[rows], gains)
    W = np.add.reduceat(w_rows, ml.first_marked) if len(rows) else np.zeros(0)
    n_g, T = ml.size, ml.before
    single = n_g == 1
    terms = np.where(single, W * (T + 1), W * (T + (n_g + 1) / 2.0))
    found_w = segment_total(ml.query, terms, jr.num_queries)
    found_wsum = jr.seqsum(rows, w_rows)
    found = jr.count(relv)
    return _wrnorm(jr, N, rel, gains, found_w, found_wsum, found)


def _wrnorm(
    jr: JudgedRankings,
    N: np.ndarray,
    rel: int,
    gains: dict[Any, Any] | None,
    found_w: np.ndarray,
    found_wsum: np.ndarray,
    found: np.ndarray,
) -> np.ndarray:
    """WRnorm from the retrieved part (``found_w = sum r_i w_i`` over the retrieved relevant
    documents, ``found_wsum`` their weights, ``found`` their count): the unretrieved relevant
    documents sit at the mean of the bottom ranks, the ideal puts every relevant document of
    the qrels, weights descending, at ranks 1..n."""
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


@measure(
    "WRnorm",
    params=(REL, WEIGHTS),
    summary="weighted normalized recall for graded judgments (needs collection size)",
    formula="WRnorm = 1 - (sum r_i w_i - sum i w*_i) / (n (N - n)), w* = weights descending",
    source=f"{KEEN}, sec. 5, Fig. 27",
    better="higher",
    needs=("collection_size",),
    undefined=(NO_REL, ALL_REL),
    ties=_tie_wrnorm,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_fig27_weighted_normalized_recall",
        LIT,
    ),
    notes="Unretrieved relevant documents sit at the mean of the bottom ranks N-k+1..N "
    "(their expected rank in random order). The denominator is Keen's unweighted one, so "
    "values can fall below 0 when weights exceed 1.",
)
def wrnorm(jr: JudgedRankings, *, rel: int, gains: dict[Any, Any] | None) -> np.ndarray:
    N = collection_size(jr, "WRnorm")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    w_rows = _weights(jr.grades[rows], gains)
    found_w = jr.seqsum(rows, w_rows * jr.rank[rows])
    found_wsum = jr.seqsum(rows, w_rows)
    found = jr.count(relv)
    return _wrnorm(jr, N, rel, gains, found_w, found_wsum, found)
