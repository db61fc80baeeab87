"""Graded measures: discounted cumulated gain, its normalisations, and trec_eval's G family.

Järvelin & Kekäläinen, ACM TOIS 20(4), 2002, as presented in Chen's slides 'Retrieval
Evaluation - Measures' (CG/DCG/ideal vectors);
trec_eval 10.0 ``m_ndcg.c`` (ndcg, dcg, ideal_dcg), ``m_ndcg_cut.c``, ``m_ndcg_rel.c``,
``m_Rndcg.c``, ``m_G.c``, ``m_binG.c``, ``gain_init.c`` (gains and the ideal list, see
:mod:`cranfield.measures.kernels.gains`).  Discount ``1/log2(i+1)`` at rank ``i`` with the C
library's ``log2``; sums are added in rank order, as trec_eval does.  The tie-aware form:
``E[DCG@k] = sum_g (G_g / n_g) sum_{i in level g, i <= k} 1/log2(i+1)`` (McSherry & Najork,
ECIR 2008, sec. 2.4); IDCG does not depend on ties.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cranfield.base.segments import segment_cumsum
from cranfield.errors import MeasureError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import memo, ratio
from cranfield.measures.kernels.discount import BASE, CONVENTION, discounted
from cranfield.measures.kernels.gains import Gains, GainTable, gain_pairs, gain_table
from cranfield.measures.oracles import CUT, TIES
from cranfield.measures.params import MAX_WEIGHT
from cranfield.measures.precision import DEFAULT_CUTOFFS
from cranfield.measures.registry import CUTOFF_OPTIONAL, SAME, Param, TrecEval, Undefined, measure
from cranfield.measures.sources import CHEN, JARVELIN
from cranfield.ties.expected import positional_sum

JK = JARVELIN


GAINS = Param(
    "gains",
    "gains",
    None,
    "gain of each grade, as {grade:gain}; unlisted grades gain their grade (trec_eval)",
    at_least=-MAX_WEIGHT,
    at_most=MAX_WEIGHT,
)


DCG_FORMS = ("log2", "exp-log2")
FORM = Param(
    "dcg",
    "str",
    "log2",
    "gain form (ir_measures' name): log2 = the grade; exp-log2 = 2^grade - 1 (Burges et al.)",
    choices=DCG_FORMS,
)
MAX_EXP_GRADE = 332
"""The largest grade whose exponential gain ``2^g - 1`` is within the gains' bound (1e100)."""


def effective_gains(jr: JudgedRankings, gains: Gains | None, dcg: str) -> Gains | None:
    """The gains map of the ``dcg`` form: ``gains`` for log2; for exp-log2, ``2^g - 1`` for
    every positive grade of the qrels (grade 0 and negative grades gain 0, as in gdeval)."""
    if dcg == "log2":
        return gains
    grades = np.unique(jr.qrels_grades[jr.qrels_grades > 0]).tolist()
    if grades and grades[-1] > MAX_EXP_GRADE:
        raise MeasureError(
            f"dcg=exp-log2: grade {grades[-1]} would gain 2^{grades[-1]} - 1, more than 1e100 "
            f"(the largest grade it takes is {MAX_EXP_GRADE})"
        )
    return {g: float(2.0**g - 1.0) for g in grades}


def _one_gain_form(params: Mapping[str, Any]) -> str | None:
    """gains= and dcg=exp-log2 both set the gains: one of them."""
    if params.get("gains") and params.get("dcg", "log2") != "log2":
        return "give gains= or dcg=exp-log2, not both (exp-log2 gains 2^grade - 1)"
    return None


def _discount(jr: JudgedRankings, ranks: np.ndarray) -> np.ndarray:
    """``log2(rank + 1)`` from the C library."""
    top = int(ranks.max()) + 1 if len(ranks) else 1
    result: np.ndarray = jr.log2_table(top)[ranks + 1]
    return result


def _discounted(
    jr: JudgedRankings, gains: np.ndarray, ranks: np.ndarray, convention: str, base: float
) -> np.ndarray:
    """``gains / discount(ranks)``: trec_eval's C ``log2(rank + 1)`` for the default
    convention, else :func:`cranfield.measures.kernels.discount.discounted` (trec|jk, any base)."""
    if convention == "trec" and base == 2.0:
        result: np.ndarray = gains / _discount(jr, ranks)
        return result
    return discounted(gains, ranks, convention, base)


def _conv(convention: str, base: float) -> tuple[Any, ...]:
    """Memo-key suffix of a non-default discount convention."""
    return () if (convention, base) == ("trec", 2.0) else (convention, float(base))


def table_of(jr: JudgedRankings, gains: Gains | None, normalise: bool = False) -> GainTable:
    key = ("gain_table", gain_pairs(gains), normalise)
    return memo(jr, key, lambda: gain_table(jr, gains, normalise=normalise))


def dcg_running(
    jr: JudgedRankings, gains: Gains | None, convention: str = "trec", base: float = 2.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, DCG terms, running DCG) over the ranked rows with non-zero gain, rank order."""

    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gt = table_of(jr, gains)
        rows = np.flatnonzero(gt.row_gain != 0)
        terms = _discounted(jr, gt.row_gain[rows], jr.rank[rows], convention, base)
        return rows, terms, segment_cumsum(jr.row_query[rows], terms)

    return memo(jr, ("dcg_running", gain_pairs(gains), *_conv(convention, base)), build)


def ideal_prefix(
    jr: JudgedRankings, gains: Gains | None, convention: str = "trec", base: float = 2.0
) -> np.ndarray:
    """Running ideal DCG at every ideal position (sequential, as trec_eval)."""

    def build() -> np.ndarray:
        gt = table_of(jr, gains)
        terms = _discounted(jr, gt.ideal_gain, gt.ideal_position, convention, base)
        return segment_cumsum(gt.ideal_query, terms)

    return memo(jr, ("ideal_prefix", gain_pairs(gains), *_conv(convention, base)), build)


def ideal_at(gt: GainTable, prefix: np.ndarray, k: np.ndarray) -> np.ndarray:
    """IDCG over the first ``k`` ideal positions of each query (``k`` per query, >= 0)."""
    m = gt.ideal_size
    kk = np.minimum(k, m)
    out = np.zeros(len(m))
    ok = kk > 0
    out[ok] = prefix[gt.ideal_offsets[:-1][ok] + kk[ok] - 1]
    return out


def dcg_parts(
    jr: JudgedRankings,
    cutoff: int | None,
    gains: Gains | None,
    convention: str = "trec",
    base: float = 2.0,
) -> tuple[np.ndarray, np.ndarray]:
    """(DCG@k, IDCG@k) per query (k = None: whole ranking and whole ideal list), in the given
    discount convention (:mod:`cranfield.measures.kernels.discount`)."""
    gt = table_of(jr, gains)
    nq = jr.num_queries
    r = jr.num_ret if cutoff is None else np.minimum(jr.num_ret, cutoff)
    dcg = dcg_at(jr, gains, np.arange(nq), r, convention, base)
    k = gt.ideal_size if cutoff is None else np.full(nq, cutoff)
    return dcg, ideal_at(gt, ideal_prefix(jr, gains, convention, base), k)


def _no_ideal(
    jr: JudgedRankings,
    gains: Gains | None = None,
    cutoff: int | None = None,
    convention: str = "trec",
    base: float = 2.0,
    dcg: str = "log2",
    **_: object,
) -> np.ndarray:
    return dcg_parts(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)[1] <= 0


NO_IDEAL = Undefined(
    "no judged document has a positive gain (ideal DCG = 0)", "0 (as trec_eval)", _no_ideal
)
GAIN_NOTES = (
    "Gains follow trec_eval's gain table: gains={g:v} overrides grade g, other judged grades "
    "gain their grade, unjudged documents gain 0; -l is ignored. "
)
FORM_NOTES = (
    " dcg=exp-log2 (ir_measures' name; Burges et al., 'Learning to rank using gradient "
    "descent', ICML 2005) gains 2^grade - 1 for the positive grades, 0 otherwise, as gdeval and "
    "ranx's ndcg_burges; it excludes gains=."
)
CONVENTION_NOTES = (
    " convention=jk is Järvelin & Kekäläinen's discount as in Chen's slides: g_i for ranks "
    "i < base, g_i / log_base(i) from rank base on; convention=trec (default) divides by "
    "log_base(i+1); base defaults to 2 (trec_eval's numbers)."
)


def tie_dcg(
    jr: JudgedRankings,
    cutoff: int | None,
    gains: Gains | None,
    convention: str = "trec",
    base: float = 2.0,
) -> np.ndarray:
    """E[DCG@k] = sum_g (G_g / n_g) * (sum of the discounts of level g's positions <= k)."""

    def term(w: np.ndarray, rank: np.ndarray) -> np.ndarray:
        return discounted(w, rank, convention, base)

    return positional_sum(jr, gain_table(jr, gains).row_gain, term, cutoff)


def _tie_ndcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str,
    base: float,
    dcg: str = "log2",
) -> np.ndarray:
    """E[nDCG@k] = E[DCG@k] / IDCG@k, E[DCG@k] = sum_g (G_g/n_g) sum_{i in g, i<=k} 1/log2(i+1)."""
    gains = effective_gains(jr, gains, dcg)
    idcg = dcg_parts(jr, cutoff, gains, convention, base)[1]
    return ratio(tie_dcg(jr, cutoff, gains, convention, base), idcg)


def _tie_dcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str,
    base: float,
    dcg: str = "log2",
) -> np.ndarray:
    """E[DCG@k] = sum_g (G_g / n_g) sum_{i in level g, i <= k} 1/log2(i+1)."""
    return tie_dcg(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)


def _micro_ndcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str = "trec",
    base: float = 2.0,
    dcg: str = "log2",
    **_: object,
) -> tuple[np.ndarray, np.ndarray]:
    return dcg_parts(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)


@measure(
    "nDCG",
    core_kernel="ndcg",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE, FORM),
    check=_one_gain_form,
    aliases=("NDCG",),
    summary="normalised discounted cumulated gain (gain = grade unless gains= given)",
    formula="nDCG@k = DCG@k / IDCG@k, DCG@k = sum_{i<=k} g(d_i) / log_b(i+1) (trec; see DCG)",
    source=f"{JK}; {CHEN} (NDCG); trec_eval 10.0 m_ndcg.c (ndcg), m_ndcg_cut.c (ndcg_cut_k)",
    better="higher",
    undefined=(NO_IDEAL,),
    micro=_micro_ndcg,
    ties=_tie_ndcg,
    trec_eval=(
        TrecEval("ndcg", params="pairs", compute="gained"),
        TrecEval(
            "ndcg_cut",
            params="long_cutoffs",
            default=DEFAULT_CUTOFFS,
            compute="per_cutoff_norel",
            printed="ndcg_cut_k",
        ),
    ),
    checked_by=(
        "tests/measures/test_measures_trec.py::test_ndcg_family_with_trec_gains",
        "tests/measures/test_property_measures.py::test_measures_equal_oracle",
        TIES,
        CUT,
    ),
    notes=GAIN_NOTES + "Without @k the ideal list is all judged documents (not cut at the "
    "ranking's length). trec_eval's ndcg_cut takes no custom gains; nDCG(gains=...)@k uses the "
    "same gain table cut at k. Fractional gains less than 1 apart may be ordered as in "
    "trec_eval's table (its comparator truncates the difference), so nDCG can exceed 1."
    + CONVENTION_NOTES
    + FORM_NOTES,
)
def ndcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str,
    base: float,
    dcg: str = "log2",
) -> np.ndarray:
    value, ideal = dcg_parts(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)
    return ratio(value, ideal)


@measure(
    "DCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE, FORM),
    check=_one_gain_form,
    summary="discounted cumulated gain (trec_eval's discount; convention=jk: Järvelin & "
    "Kekäläinen's)",
    formula="DCG@k = sum_{i<=k} g(d_i) / log_b(i+1); jk: g(d_i) for i < b, / log_b(i) from b",
    source=f"{JK}; {CHEN} (DCG); trec_eval 10.0 m_ndcg.c (dcg)",
    better="higher",
    undefined=(),
    ties=_tie_dcg,
    trec_eval=TrecEval("dcg", params="pairs", compute="gained"),
    checked_by=(
        "tests/measures/test_measures_literature.py::test_slides_dcg_and_ideal_vectors_q1_jk_convention",
        "tests/measures/test_measures_trec.py::test_ndcg_family_with_trec_gains",
        TIES,
    ),
    notes=GAIN_NOTES + CONVENTION_NOTES + FORM_NOTES,
)
def dcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str,
    base: float,
    dcg: str = "log2",
) -> np.ndarray:
    return dcg_parts(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)[0]


@measure(
    "IDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE, FORM),
    check=_one_gain_form,
    summary="ideal DCG: DCG of the judged documents sorted by decreasing gain",
    formula="IDCG@k = sum_{j<=min(k,m)} I_j / log2(j+1), I = positive gains, descending",
    source=f"{JK}; trec_eval 10.0 m_ndcg.c (ideal_dcg)",
    better="none",
    undefined=(),
    ties=SAME,
    trec_eval=TrecEval("ideal_dcg", params="pairs", compute="gained"),
    checked_by=(
        "tests/measures/test_measures_literature.py::test_slides_dcg_and_ideal_vectors_q1_jk_convention",
        "tests/measures/test_measures_trec.py::test_ndcg_family_with_trec_gains",
    ),
    notes=GAIN_NOTES
    + "Independent of the run (except for which queries are evaluated)."
    + CONVENTION_NOTES
    + FORM_NOTES,
)
def idcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: Gains | None,
    convention: str,
    base: float,
    dcg: str = "log2",
) -> np.ndarray:
    return dcg_parts(jr, cutoff, effective_gains(jr, gains, dcg), convention, base)[1]


def dcg_at(
    jr: JudgedRankings,
    gains: Gains | None,
    q: np.ndarray,
    r: np.ndarray,
    convention: str = "trec",
    base: float = 2.0,
) -> np.ndarray:
    """DCG over ranks ``1..r[i]`` of query ``q[i]`` (a prefix of the running sums)."""
    rows, _terms, running = dcg_running(jr, gains, convention, base)
    out = np.zeros(len(q))
    if len(rows) == 0 or len(q) == 0:
        return out
    big = int(jr.max_rank) + 2
    keys = memo(
        jr, ("dcg_keys", gain_pairs(gains)), lambda: jr.row_query[rows] * big + jr.rank[rows]
    )
    idx = np.searchsorted(keys, q * big + r, side="right") - 1
    ok = idx >= 0
    ok[ok] = jr.row_query[rows[idx[ok]]] == q[ok]
    out[ok] = running[idx[ok]]
    return out
