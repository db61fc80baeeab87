"""Compatibility with an ideal ranking (Compat), as ir_measures computes it.

Clarke, Vtyurina & Smucker, 'Assessing top-k preferences', ACM TOIS 39(3), 2021, sec. 3:
the rank-biased overlap (Webber, Moffat & Zobel, ACM TOIS 28(4), 2010, eq. 7 with the sum
stopped at depth ``d``) of the run's ranking ``S`` with an ideal ranking ``I``::

    RBO(S, I) = sum_{i=1..d} p^(i-1) |S[:i] ∩ I[:i]| / i  /  sum_{i=1..d} p^(i-1)
    Compat    = RBO(S, I) / RBO(I, I)      (normalize=false: RBO(S, I))

with ``d = max(|S|, |I|)``.  ``I`` holds the documents graded above 0, by grade descending;
documents of one grade are ordered as the run ranks them (retrieved ones first), which favours
the run, as the paper prescribes.  The sums run in rank order and ``p^i`` is formed by repeated
multiplication, as ir_measures' ``compat`` provider does.
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_cumsum
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.rbp import powers
from cranfield.measures.registry import Param, Undefined, measure

CVS = "Clarke, Vtyurina & Smucker, 'Assessing top-k preferences', ACM TOIS 39(3), 2021, sec. 3"
P = Param("p", "float", 0.95, "persistence of the rank-biased overlap", above=0.0, at_most=1.0)
NORMALIZE = Param("normalize", "bool", True, "divide by the ideal ranking's own overlap")


def ideal_positions(jr: JudgedRankings, rows: np.ndarray) -> np.ndarray:
    """The 1-based position in the ideal ranking of each retrieved row of ``rows`` (grade > 0,
    ascending): the documents of higher grade in the qrels, then those of its grade that the
    run ranks above it."""
    q, g = jr.row_query[rows], jr.grades[rows]
    positive = jr.qrels_grades > 0
    qq = np.repeat(np.arange(jr.num_queries), np.diff(jr.qrels_offsets))[positive]
    qg = jr.qrels_grades[positive]
    levels, dense = np.unique(np.concatenate((qg, g)), return_inverse=True)
    dense = dense.reshape(-1)
    top = len(levels)
    keys = qq * (top + 1) + (top - dense[: len(qg)])  # ascending: query, then grade descending
    higher = np.searchsorted(keys, q * (top + 1) + (top - dense[len(qg) :]), side="left")
    higher -= np.searchsorted(keys, q * (top + 1), side="left")
    same = np.zeros(len(rows), dtype=np.int64)  # same grade, ranked above (rows are rank order)
    if len(rows):
        order = np.lexsort((jr.rank[rows], dense[len(qg) :], q))
        group = q[order] * (top + 1) + dense[len(qg) :][order]
        new = np.ones(len(rows), dtype=bool)
        new[1:] = group[1:] != group[:-1]
        start = np.maximum.accumulate(np.where(new, np.arange(len(rows)), 0))
        same[order] = np.arange(len(rows)) - start
    result: np.ndarray = higher + same + 1
    return result


def _parts(jr: JudgedRankings, p: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per query: sum_i p^(i-1) |S[:i] ∩ I[:i]| / i, the same for I with itself, and the sum of
    the weights, over i = 1..max(|S|, |I|)."""
    nq = jr.num_queries
    ideal_size = jr.num_rel(1)
    depth = np.maximum(jr.num_ret, ideal_size)
    offsets = np.zeros(nq + 1, dtype=np.int64)
    np.cumsum(depth, out=offsets[1:])
    total = int(offsets[-1])
    seg = np.repeat(np.arange(nq), depth)
    i = np.arange(total) - offsets[seg] + 1  # 1-based depth within the query
    rows = np.flatnonzero((jr.grades > 0) & (jr.rank <= jr.num_ret[jr.row_query]))
    joined = np.maximum(jr.rank[rows], ideal_positions(jr, rows))  # in both prefixes from here
    hits = np.zeros(total)
    np.add.at(hits, offsets[jr.row_query[rows]] + joined - 1, 1.0)
    overlap = segment_cumsum(seg, hits)
    w = powers(p, int(depth.max()) if nq else 0)[i - 1]
    score = segment_cumsum(seg, (w * overlap) / i)
    best = segment_cumsum(seg, (w * np.minimum(i, ideal_size[seg])) / i)
    norm = segment_cumsum(seg, w)
    last = offsets[1:] - 1
    has = depth > 0
    out = [np.zeros(nq) for _ in range(3)]
    for o, running in zip(out, (score, best, norm), strict=True):
        o[has] = running[last[has]]
    return out[0], out[1], out[2]


def _no_relevant(jr: JudgedRankings, **_: object) -> np.ndarray:
    result: np.ndarray = jr.num_rel(1) == 0
    return result


@measure(
    "Compat",
    params=(P, NORMALIZE),
    summary="compatibility: rank-biased overlap of the ranking with an ideal ranking",
    formula="Compat = RBO(S, I) / RBO(I, I), RBO = sum_i p^(i-1) |S[:i] ∩ I[:i]| / i / "
    "sum_i p^(i-1), i <= max(|S|, |I|)",
    source=f"{CVS}; ir_measures' compat provider",
    better="higher",
    undefined=(
        Undefined("no document graded above 0 (an empty ideal ranking)", "0", _no_relevant),
    ),
    ties=None,
    no_ties="the ideal ranking takes its ties from the run's order and the overlap counts "
    "documents in both prefixes: no closed form for the expectation over tie-breakings",
    checked_by=(
        "tests/measures/test_measures_compat.py::test_values_equal_ir_measures_compat_provider",
        "tests/measures/test_measures_compat.py::test_worked_example",
    ),
    notes="Relevant = grade above 0. Documents of one grade are ordered in the ideal ranking as "
    "the run ranks them, retrieved ones first. ir_measures orders them by run score, giving "
    "unretrieved documents the score 0 (which differs for runs with negative scores), and "
    "documents of equal score in qrels file order (which differs when the run ties two of "
    "them: the value then depends on the order of the qrels lines; cranfield's does not). The "
    "run's ties follow the tie policy (trec: document id descending; ir_measures: ascending).",
)
def compat(jr: JudgedRankings, *, p: float, normalize: bool) -> np.ndarray:
    score, best, norm = _parts(jr, p)
    out = np.zeros(jr.num_queries)
    ok = norm > 0
    out[ok] = score[ok] / norm[ok]
    if normalize:
        b = np.zeros(jr.num_queries)
        b[ok] = best[ok] / norm[ok]
        pos = b > 0
        out[pos] = out[pos] / b[pos]
    return out
