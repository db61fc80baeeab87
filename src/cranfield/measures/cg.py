"""Cumulated gain without discount (CG, nCG), the two DCG conventions, and ERR.

Two discount conventions for DCG (``convention=`` of DCG and nDCG):

- ``trec``: ``DCG@k = sum_{i<=k} g_i / log_b(i+1)`` (trec_eval ``m_ndcg.c``, Burges et al.
  2005; ``b = 2``);
- ``jk``: Järvelin & Kekäläinen, ACM TOIS 20(4), 2002, as in Chen's slides: no discount
  before rank ``b``,
  ``DCG[i] = CG[i]`` for ``i < b`` and ``DCG[i] = DCG[i-1] + g_i / log_b(i)`` for ``i >= b``.

For ``b = 2`` the two differ only in the argument of the log (``i+1`` against ``i``, with rank
1 undiscounted in both).  The ideal vector sorts the gains of all judged documents of the query
in decreasing order.  Tie-aware CG: ``E[CG@k] = sum_g (G_g/n_g) m_g``, ``m_g`` the level's
positions ``<= k`` (linear in the gains, as DCG).
"""

from __future__ import annotations

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings, segment_seqsum
from cranfield.measures.dcg import GAINS, dcg_parts
from cranfield.measures.kernels.counting import ratio
from cranfield.measures.kernels.gains import Gains, gain_table
from cranfield.measures.oracles import LIT
from cranfield.measures.params import INT64_MAX
from cranfield.measures.registry import CUTOFF_OPTIONAL, Param, Undefined, measure
from cranfield.measures.sources import CHEN, JARVELIN, KEEN
from cranfield.ties.expected import positional_sum


def gain_parts(
    jr: JudgedRankings,
    cutoff: int | None,
    gains: Gains | None,
    *,
    discount: bool = True,
    convention: str = "trec",
    base: float = 2.0,
) -> tuple[np.ndarray, np.ndarray]:
    """(DCG@k, IDCG@k) per query in the given convention, or (CG@k, ICG@k) with
    ``discount=False``; trec_eval's gain table, sums in rank order."""
    if discount:
        return dcg_parts(jr, cutoff, gains, convention, base)
    gt = gain_table(jr, gains)
    take = gt.row_gain != 0
    if cutoff is not None:
        take &= jr.rank <= cutoff
    rows = np.flatnonzero(take)
    actual = jr.seqsum(rows, gt.row_gain[rows])
    pos = gt.ideal_position
    keep = np.ones(len(pos), dtype=bool) if cutoff is None else pos <= cutoff
    ideal = segment_seqsum(gt.ideal_query[keep], gt.ideal_gain[keep], jr.num_queries)
    return actual, ideal


def _tie_cg(jr: JudgedRankings, cutoff: int | None, gains: Gains | None) -> np.ndarray:
    return positional_sum(jr, gain_table(jr, gains).row_gain, lambda w, i: w * 1.0, cutoff)


def _tie_cg_measure(jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None) -> np.ndarray:
    """E[CG@k] = sum_g (G_g / n_g) m_g, m_g the level's positions <= k."""
    return _tie_cg(jr, cutoff, gains)


def _tie_ncg(jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None) -> np.ndarray:
    """E[nCG@k] = E[CG@k] / ICG@k."""
    ideal = gain_parts(jr, cutoff, gains, discount=False)[1]
    out = np.zeros(jr.num_queries)
    np.divide(_tie_cg(jr, cutoff, gains), ideal, out=out, where=ideal > 0)
    return out


@measure(
    "CG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS,),
    summary="cumulated gain: sum of the gains of the top k",
    formula="CG@k = sum_{i<=k} g(d_i)",
    source=f"{CHEN} (CG vectors); {JARVELIN}",
    better="higher",
    undefined=(),
    ties=_tie_cg_measure,
    checked_by=("tests/measures/test_measures_literature.py::test_slides_cg_vector_q1", LIT),
)
def cg(jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None) -> np.ndarray:
    return gain_parts(jr, cutoff, gains, discount=False)[0]


def _ncg_parts(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None
) -> tuple[np.ndarray, np.ndarray]:
    return gain_parts(jr, cutoff, gains, discount=False)


@measure(
    "nCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS,),
    summary="normalized cumulated gain: CG@k over the ideal CG@k (graded sliding ratio)",
    formula="nCG@k = CG@k / ICG@k",
    source=f"{CHEN} (NCG); {JARVELIN}; {KEEN}, Fig. 6 (sliding ratio, binary case)",
    better="higher",
    micro=_ncg_parts,
    ties=_tie_ncg,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_slides_ncg_curve_is_the_micro_average_of_ncg",
        LIT,
    ),
    undefined=(
        Undefined(
            "no judged document has a positive gain (ICG = 0)",
            "0",
            lambda jr, cutoff=None, gains=None, **_: (
                _ncg_parts(jr, cutoff=cutoff, gains=gains)[1] == 0
            ),
        ),
    ),
    notes="With binary gains nCG@k is the sliding ratio. The micro average (sum CG / sum ICG) "
    "is the slides' NCG curve point.",
)
def ncg(jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None) -> np.ndarray:
    return ratio(*_ncg_parts(jr, cutoff=cutoff, gains=gains))


# ----------------------------------------------------------------------------- ERR


MAX_GRADE = Param(
    "max_grade",
    "int",
    None,
    "highest grade g_max of the scale; none: the highest grade of the whole qrels (at least 1)"
    " (of every query's judgments, so a query's ERR does not depend on the queries beside it)",
    at_least=1,
    at_most=INT64_MAX,
)


def stop_probability(grades: np.ndarray, max_grade: int) -> np.ndarray:
    """ERR's ``R = (2^g - 1) / 2^g_max`` for integer grades ``0 <= g <= g_max`` (any size).

    Computed as ``ldexp(1 - 2^-g, g - g_max)``: ``1 - 2^-g`` is exact up to ``g = 53`` (then
    rounds to 1) and ``ldexp`` rounds once, so every value is the correctly rounded quotient,
    equal to ``(2^g - 1) / 2^g_max`` evaluated in doubles wherever that does not overflow
    (``g_max <= 1023``); no power of two is ever formed whole.
    """
    g = np.asarray(grades, dtype=np.int64)
    head = 1.0 - np.ldexp(1.0, -np.minimum(g, 60).astype(np.int32))  # 2^-g rounds away at 55
    # below 2^-1075 every value is 0: clip the exponent (g - g_max may be about -2^63)
    shift = np.maximum(g - max_grade, -2000).astype(np.int32)
    return np.ldexp(head, shift)


def _err(jr: JudgedRankings, cutoff: int | None, max_grade: int | None) -> np.ndarray:
    if max_grade is None:  # the qrels' highest grade, whichever queries jr holds
        top = jr.qrels_max_grade
        if top is None and len(jr.qrels_grades):
            top = int(jr.qrels_grades.max())
        max_grade = max(1, 1 if top is None else top)
    elif max_grade < 1:
        raise ParameterError(f"ERR needs max_grade >= 1, got {max_grade!r}")
    g = np.maximum(jr.grades, 0)
    top = int(g.max()) if len(g) else 0
    if top > max_grade:
        raise ParameterError(f"ERR(max_grade={max_grade}): the run has a document of grade {top}")
    stop = stop_probability(g, max_grade)
    take = stop > 0
    if cutoff is not None:
        take &= jr.rank <= cutoff
    rows = np.flatnonzero(take)
    err = np.zeros(jr.num_queries)
    reach = np.ones(jr.num_queries)
    if not len(rows):
        return err
    # position by position (vectorised over queries), in rank order, as the cascade model reads
    rank = jr.rank[rows]
    order = np.argsort(rank, kind="stable")
    rows, rank = rows[order], rank[order]
    bounds = np.flatnonzero(np.diff(rank)) + 1
    for chunk in np.split(np.arange(len(rows)), bounds):
        r = rows[chunk]
        q = jr.row_query[r]
        s = stop[r]
        err[q] += reach[q] * s / jr.rank[r]
        reach[q] *= 1.0 - s
    return err


@measure(
    "ERR",
    cutoff=CUTOFF_OPTIONAL,
    params=(MAX_GRADE,),
    summary="expected reciprocal rank of the cascade model (graded)",
    formula="ERR@k = sum_{i<=k} (1/i) R_i prod_{j<i} (1 - R_j), R = (2^g - 1) / 2^g_max",
    source="Chapelle, Metzler, Zhang & Grinspan, 'Expected reciprocal rank for graded "
    "relevance', CIKM 2009, eq. 4 and sec. 4",
    better="higher",
    undefined=(),
    ties=None,
    no_ties="no closed form: the cascade's products over the ranks above",
    checked_by=("tests/measures/test_measures_literature.py::test_err_cascade_by_hand",),
    notes="Grades below 0 (unjudged) count as 0. gdeval.pl fixes g_max = 4: ERR(max_grade=4).",
)
def err(jr: JudgedRankings, *, cutoff: int | None, max_grade: int | None) -> np.ndarray:
    return _err(jr, cutoff, max_grade)
