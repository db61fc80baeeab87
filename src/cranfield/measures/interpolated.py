"""Interpolated precision at recall levels and its 11-point average.

Salton & McGill, 1983, and Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999,
sec. 3.2.1: interpolated
precision ``IP(r) = max_{r' >= r} P(r')``, the 11 standard recall levels 0.0, 0.1, ..., 1.0;
trec_eval 10.0 ``m_iprec_at_recall.c`` and ``m_11pt_avg.c``, whose exact rule is:

- the recall level ``p`` becomes a number of relevant documents ``c = lround(p * R)``
  (trec_eval 10.0; 9.x, and so pytrec_eval, used ``(long)(p * R + 0.9)``: the parameter
  ``rounding=trec9``);
- ``c > RR`` (not reached by the ranking): 0; ``c >= 1``: the interpolated precision
  ``max_{j >= i} P@j`` at the rank ``i`` of the c-th relevant retrieved document;
  ``c <= 0``: the same at the first relevant retrieved document, or ``RR/n`` when nothing
  relevant was retrieved (0, or NaN for an empty ranking);
- no extrapolation beyond the last retrieved document.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cranfield.base.segments import segment_cummax_reverse
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import (
    lround,
    memo,
    num_rel,
    rel_position,
    rel_ret,
    relevant_rows,
)
from cranfield.measures.precision import NO_REL
from cranfield.measures.registry import REL, REQUIRED, Param, TrecEval, Undefined, measure
from cranfield.measures.sources import BAEZA_YATES

ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
SOURCE = f"{BAEZA_YATES}, sec. 3.2.1, eq. 3.4 (interpolated precision at 11 recall levels)"
NO_TIES = "no closed form: a maximum of precision over the later recall points"
ROUNDINGS = ("trec10", "trec9")
ROUNDING = Param(
    "rounding",
    "str",
    "trec10",
    "recall level r as a number of relevant documents c: trec10 = lround(r R) (trec_eval "
    "10.0), trec9 = (long)(r R + 0.9) (trec_eval 9.x, pytrec_eval)",
    choices=ROUNDINGS,
)


def _effective_num_ret(jr: JudgedRankings) -> np.ndarray:
    """n, where a query missing from the run counts as trec_eval's one-document dummy ranking
    (-c), unless depth 0 or judged_only would have removed that document too."""
    dummy = 0 if jr.judged_only or jr.depth == 0 else 1
    return np.where(jr.in_run, jr.num_ret, dummy)


class _Interp:
    """Interpolated precision at each relevant retrieved document, per query."""

    def __init__(self, jr: JudgedRankings, rel: int, rounding: str = "trec10") -> None:
        self.rounding = rounding
        rows, q, rank = relevant_rows(jr, rel)
        self.first, pos = rel_position(jr, rel)
        self.ip = memo(
            jr,
            ("interpolated", max(rel, 0)),
            lambda: segment_cummax_reverse(q, pos / rank.astype(np.float64)),
        )
        self.R = num_rel(jr, rel)
        self.RR = rel_ret(jr, rel)
        n = _effective_num_ret(jr)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.final = np.where(
                self.RR > 0,
                self.ip[np.minimum(self.first, max(len(rows) - 1, 0))] if len(rows) else 0.0,
                self.RR / n.astype(np.float64),
            )

    def cutoffs(self, p: float) -> np.ndarray:
        x = p * self.R.astype(np.float64)
        if self.rounding == "trec9":
            return np.trunc(x + 0.9).astype(np.int64)
        return lround(x)

    def at(self, c: np.ndarray) -> np.ndarray:
        """IP at the c-th relevant retrieved document (1 <= c <= RR), else garbage (masked)."""
        ok = (c >= 1) & (c <= self.RR)
        out = np.zeros(len(c))
        out[ok] = self.ip[self.first[ok] + c[ok] - 1]
        return out

    def value(self, c: np.ndarray) -> np.ndarray:
        return np.where(c > self.RR, 0.0, np.where(c >= 1, self.at(c), self.final))


def iprec_at_recall(
    jr: JudgedRankings, points: Sequence[float], rel: int, rounding: str = "trec10"
) -> np.ndarray:
    """trec_eval's ``iprec_at_recall_p`` for each point: (queries x points)."""
    it = _Interp(jr, rel, rounding)
    cols = [it.value(it.cutoffs(p)) for p in points]
    return np.column_stack(cols) if cols else np.zeros((jr.num_queries, 0))


def eleven_point_average(
    jr: JudgedRankings, points: Sequence[float], rel: int, rounding: str = "trec10"
) -> np.ndarray:
    """trec_eval's ``11pt_avg`` over recall ``points`` as given (not sorted).

    trec_eval walks the points from the last to the first, matching each to the relevant
    document it needs while the ranking is read bottom-up.  Points above the number of
    relevant retrieved at the end of the list count 0; once a point cannot be matched (it
    needs more relevant documents than the point after it, or none), it and every earlier
    point get the final interpolated precision.  With ascending points this is the mean of
    :func:`iprec_at_recall`.
    """
    it = _Interp(jr, rel, rounding)
    m = len(points)
    nq = jr.num_queries
    total = np.zeros(nq)
    skipping = np.ones(nq, dtype=bool)
    chained = np.zeros(nq, dtype=bool)
    prev_c = np.zeros(nq, dtype=np.int64)
    for i in range(m - 1, -1, -1):
        c = it.cutoffs(points[i])
        skip = skipping & (c > it.RR)
        start = skipping & ~skip
        skipping = skip
        # a chain starts at the first non-skipped point and continues while c is
        # non-increasing and positive
        chained = np.where(start, c >= 1, chained & (c >= 1) & (c <= prev_c))
        value = np.where(skip, 0.0, np.where(chained, it.at(c), it.final))
        total = total + value
        prev_c = c
    return total / float(m)


def _empty_ranking(jr: JudgedRankings, rel: int = 1, **_: object) -> np.ndarray:
    n = _effective_num_ret(jr)
    result: np.ndarray = (n == 0) & (rel_ret(jr, rel) == 0)
    return result


EMPTY = Undefined(
    "nothing retrieved (n = 0, after depth/judged-only filtering)",
    "NaN at recall 0 (as trec_eval's -nan)",
    _empty_ranking,
)


@measure(
    "IPrec",
    cutoff=Param(
        "cutoff", "float", REQUIRED, "recall level r (the @r part)", at_least=0.0, at_most=1.0
    ),
    params=(REL, ROUNDING),
    summary="interpolated precision at recall level r (trec_eval rounding)",
    formula="IPrec@r = max_{j >= i_c} P@j, i_c = rank of the c-th relevant retrieved, "
    "c = lround(r R); 0 if c > RR",
    source=SOURCE + "; trec_eval 10.0 m_iprec_at_recall.c (iprec_at_recall_r)",
    better="higher",
    undefined=(NO_REL, EMPTY),
    ties=None,
    no_ties=NO_TIES,
    core_kernel="iprec",
    trec_eval=TrecEval(
        "iprec_at_recall",
        params="double_cutoffs",
        default=ELEVEN_POINTS,
        compute="iprec",
        printed="iprec_at_recall_r",
    ),
    checked_by=(
        "tests/measures/test_measures_trec.py::test_byr_interpolated_precision_figure_3_2",
        "tests/measures/test_property_measures.py::test_measures_equal_oracle",
    ),
    notes="Recall level r needs c = lround(r*R) relevant documents (trec_eval 10.0; 9.x and "
    "pytrec_eval: (long)(r*R + 0.9), rounding=trec9). IPrec@0 is the interpolated precision at "
    "the first relevant document.",
)
def iprec(jr: JudgedRankings, *, cutoff: float, rel: int, rounding: str = "trec10") -> np.ndarray:
    return iprec_at_recall(jr, [cutoff], rel, rounding)[:, 0]


@measure(
    "IPrecAvg",
    params=(REL, ROUNDING),
    summary="11-point average interpolated precision (recall 0.0, 0.1, ..., 1.0)",
    formula="IPrecAvg = (1/11) sum_{r in 0,0.1,...,1} IPrec@r",
    source=SOURCE + "; trec_eval 10.0 m_11pt_avg.c (11pt_avg)",
    better="higher",
    undefined=(NO_REL, EMPTY),
    ties=None,
    no_ties=NO_TIES,
    core_kernel="iprec_avg",
    trec_eval=TrecEval("11pt_avg", params="doubles", default=ELEVEN_POINTS, compute="eleven"),
    checked_by=("tests/measures/test_property_measures.py::test_measures_equal_oracle",),
    notes="Other point sets are available through 'cranfield trec_eval -m 11pt_avg.p1,p2,...'.",
)
def iprec_avg(jr: JudgedRankings, *, rel: int, rounding: str = "trec10") -> np.ndarray:
    return eleven_point_average(jr, ELEVEN_POINTS, rel, rounding)
