"""Keen's views of one request: the rank of the first, second, n-th or last relevant document,
and the search length behind it (non-relevant documents examined before it).

Keen, 'Evaluation parameters', SMART report ISR-13, sec. II.8, Figs. 31-33: the mean rank
of the first and second relevant documents serves the high-precision user, the rank of the
last relevant document the high-recall user.
Search length: Cooper, American Documentation 19(1), 1968, for a linear ordering (for weak
orderings see ESL).  The tie-aware form (this project's derivation, verified by enumeration):
the relevant documents of a level occupy a uniformly random ``r_g``-subset of its ``n_g``
positions, whose s-th smallest has mean ``s (n_g+1)/(r_g+1)``; the search length is then
Cooper's ``j + i s/(r+1)``.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.final_level import FinalLevel
from cranfield.measures.oracles import LIT
from cranfield.measures.params import MAX_COUNT
from cranfield.measures.registry import REL, Param, Undefined, measure
from cranfield.measures.sources import COOPER, KEEN
from cranfield.ties.expected import refuse_cut

SOURCE = f"{KEEN}, sec. 8, Figs. 31-33"
FIG31 = (
    "tests/measures/test_measures_literature.py::test_fig31_high_precision_and_high_recall_views"
)


NTH = Param(
    "n",
    "int",
    1,
    "which relevant document: 1, 2, ... or last",
    at_least=1,
    at_most=MAX_COUNT,
    words=("last",),
)


def _wanted(jr: JudgedRankings, n: object, rel: int) -> np.ndarray:
    """Per query: the ordinal of the wanted relevant document (n, or R for 'last')."""
    if n == "last":
        return jr.num_rel(rel).astype(np.int64)
    n = NTH.convert(n, "RelRank")
    return np.full(jr.num_queries, n, dtype=np.int64)


def _nth_rank(jr: JudgedRankings, n: object, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """(rank of the wanted relevant document, or NaN where undefined; the wanted ordinal)."""
    want = _wanted(jr, n, rel)
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    ordinal = jr.cumcount(relv)[rows]
    hit = ordinal == want[jr.row_query[rows]]
    out = np.full(jr.num_queries, np.nan)
    out[jr.row_query[rows[hit]]] = jr.rank[rows[hit]]
    R = jr.num_rel(rel)
    found = jr.count(relv)
    if jr.collection_size is not None:
        # relevant documents not retrieved sit at the bottom of the collection, N-k+1..N
        N = np.asarray(jr.collection_size, dtype=np.int64)
        below = (want > found) & (want <= R) & (want >= 1)
        out[below] = (N - (R - found) + (want - found))[below]
    out[want < 1] = np.nan
    return out, want


def _undefined(jr: JudgedRankings, n: object = "1", rel: int = 1, **_: object) -> np.ndarray:
    result: np.ndarray = np.isnan(_nth_rank(jr, n, rel)[0])
    return result


UNDEF = Undefined(
    "fewer than n relevant documents are ranked (and no --collection-size places the rest), "
    "or the query has fewer than n relevant documents",
    "NaN (the mean is then NaN too)",
    _undefined,
)


def _tie_nth_rank(jr: JudgedRankings, n: object, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """E[rank of the wanted relevant document] where it is retrieved; elsewhere as RelRank."""
    refuse_cut(
        jr,
        "RelRank and SearchLength",
        "whether the wanted relevant document is "
        "retrieved, or placed after the ranking, depends on which documents the cut keeps",
    )
    out, want = _nth_rank(jr, n, rel)  # declared values and collection-size placements
    fin = FinalLevel(jr, True, want.astype(np.float64), rel)
    ok = fin.ok & (want >= 1)
    T = fin.tr + fin.j
    size = fin.r + fin.i
    out[ok] = (T + fin.s * (size + 1) / (fin.r + 1))[ok]
    return out, want


def _tie_rel_rank(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    """E[rank of the n-th relevant document] = T + s (n_g + 1) / (r_g + 1)."""
    return _tie_nth_rank(jr, n, rel)[0]


def _tie_search_length(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    """E[search length] = E[rank] - n (Cooper's j + i s / (r + 1))."""
    rank, want = _tie_nth_rank(jr, n, rel)
    result: np.ndarray = rank - want
    return result


@measure(
    "RelRank",
    params=(REL, NTH),
    summary="rank of the n-th (or last) relevant document",
    formula="RelRank(n) = r_n; with --collection-size, unretrieved relevant at N-k+1..N",
    source=SOURCE,
    better="lower",
    undefined=(UNDEF,),
    ties=_tie_rel_rank,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_fig31_high_precision_and_high_recall_views",
        LIT,
    ),
    notes="RelRank(n=1) is 1/RR when the first relevant document is ranked.",
)
def rel_rank(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    return _nth_rank(jr, n, rel)[0]


@measure(
    "SearchLength",
    params=(REL, NTH),
    summary="non-relevant documents examined before the n-th (or last) relevant document",
    formula="SearchLength(n) = r_n - n",
    source=f"{SOURCE}; {COOPER} (search length of a linear ordering)",
    better="lower",
    undefined=(UNDEF,),
    ties=_tie_search_length,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_fig31_high_precision_and_high_recall_views",
        LIT,
    ),
)
def search_length(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    rank, want = _nth_rank(jr, n, rel)
    result: np.ndarray = rank - want
    return result
