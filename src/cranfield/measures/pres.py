"""PRES, the Patent Retrieval Evaluation Score, and its estimate PRES_est.

Magdy & Jones, 'PRES: a score metric for evaluating recall-oriented information retrieval
applications', SIGIR 2010: normalized recall (eq. 2) with ``N`` replaced by ``N_max + n``; the
``k`` relevant documents missing from the top ``N_max`` sit at ranks ``N_max+n-k+1..N_max+n``
(eq. 3-4; 7 of 10 found in the top 100 puts the missing 3 at 108, 109, 110).  The tie-aware
form (this project's reference notes, sec. 1.4): eq. 4 is quadratic in the number found in the
top ``N_max``, so ``E[nR^2] = Var[nR] + E[nR]^2`` with the hypergeometric variance of the level
straddling ``N_max``.
"""

from __future__ import annotations

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.rank_sums import cut_rank_parts, relevant_rank_parts
from cranfield.measures.normalized import NO_REL
from cranfield.measures.params import MAX_COUNT
from cranfield.measures.registry import REL, REQUIRED, Param, measure
from cranfield.measures.sources import MAGDY_JONES

PRES_SRC = MAGDY_JONES


def _expected_pres(jr: JudgedRankings, cutoff: int, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """E[PRES@N_max] (this project's reference notes on PRES, sec. 1.4) and n."""
    n, found, rank_sum, var = cut_rank_parts(jr, rel, cutoff)
    nq = jr.num_queries
    k = n - found
    k2 = var + k * k
    num = rank_sum + k * (cutoff + n) - (k2 - k) / 2 - n * (n + 1) // 2
    out = np.zeros(nq)
    np.subtract(1.0, num / np.maximum(n * cutoff, 1), out=out, where=n > 0)
    return out, n


def _tie_pres(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[PRES@N_max]: eq. 4 is quadratic in the number found in the top N_max, so E[nR^2] =
    Var[nR] + E[nR]^2, the hypergeometric variance of the level straddling N_max."""
    return _expected_pres(jr, cutoff, rel)[0]


def _tie_pres_est(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[PRESest@N_max] = E[PRES] / R_max."""
    value, n = _expected_pres(jr, cutoff, rel)
    return value * np.maximum(1.0, n / float(cutoff))


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
    source=PRES_SRC + ", sec. 4, eq. 3-4",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_pres,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_pres_table2",
        "tests/measures/test_measures_literature.py::test_pres_table3",
        "tests/ties/test_ties_enumeration_literature.py::"
        "test_literature_measures_equal_the_average_over_all_tie_breakings",
        "tests/ties/test_ties_enumeration_depth_cut.py::"
        "test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking",
    ),
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
    source=PRES_SRC + ", sec. 6.4, eq. 5-6",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_pres_est,
    checked_by=(
        "tests/measures/test_measures_literature.py::test_pres_est_divides_by_the_highest_reachable_recall",
        "tests/ties/test_ties_enumeration_literature.py::"
        "test_literature_measures_equal_the_average_over_all_tie_breakings",
    ),
)
def pres_est(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    value, n = _pres(jr, cutoff, rel)
    return value * np.maximum(1.0, n / float(cutoff))
