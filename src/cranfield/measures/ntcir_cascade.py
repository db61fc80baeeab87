"""NTCIREVAL's cascade measures (Sakai): nERR, EBR and iRBU, ERR's stopping model (a user
stops at a relevant document with probability ``x(r) = g(r) / (g_max + 1)``) with three
utilities: the reciprocal rank, the blended ratio, RBP's patience.

The family ``ntcir`` (:mod:`cranfield.measures.ntcir` has the notation, the gains and the
condensed lists); sums are added in rank order as ``ntcir_eval.c`` adds them.
"""

from __future__ import annotations

import math

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import ratio
from cranfield.measures.kernels.gains import Gains
from cranfield.measures.kernels.ntcir_lists import (
    blended_ratio,
    cut,
    err_terms,
    g_max,
    ideal_list,
    per_query,
    ranked,
)
from cranfield.measures.ntcir import (
    AMIGO,
    BETA,
    CHECKED,
    CONDENSED,
    GAINS,
    NO_REL,
    NO_TIES,
    NOTES,
    NTCIREVAL,
    SAKAI_ROBERTSON,
    SAKAI_SONG,
    UNVERIFIED,
    relevant_grades_only,
)
from cranfield.measures.registry import CUTOFF_OPTIONAL, REQUIRED, Param, measure
from cranfield.measures.sources import CHAPELLE

__all__ = ["RBU_P", "ebr", "irbu", "nerr"]


def _ideal_err(jr: JudgedRankings, gains: Gains | None, cutoff: int | None) -> np.ndarray:
    ideal = ideal_list(jr, gains)
    pos = ideal.position
    _x, _b, term = err_terms(ideal.query, pos, ideal.gain, g_max(jr, gains))
    keep = np.ones(len(pos), dtype=bool) if cutoff is None else pos <= cutoff
    return segment_total(ideal.query[keep], term[keep], jr.num_queries)


@measure(
    "nERR",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONDENSED),
    check=relevant_grades_only,
    summary="normalised expected reciprocal rank (ERR of the ranking over ERR of the ideal)",
    formula="nERR@k = ERR@k / ERR*@k, ERR@k = sum_{r<=k} (1/r) x(r) prod_{j<r} (1 - x(j)), "
    "x(r) = g(r) / (g_max + 1)",
    source=f"{CHAPELLE} (ERR{UNVERIFIED}); {SAKAI_SONG} (nERR{UNVERIFIED}); {NTCIREVAL} (nERR@k)",
    better="higher",
    undefined=(NO_REL,),
    ties=None,
    no_ties="not derived: the reach of a rank is a product over the documents above it",
    checked_by=CHECKED,
    notes=NOTES + " The gain is divided by g_max + 1, not 2^g_max as in Chapelle et al. "
    "(NTCIREVAL's choice: a document of the highest grade does not stop every user). "
    "No k: the whole ranking and the whole ideal list.",
)
def nerr(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = cut(rk, np.flatnonzero(rk.relevant), cutoff)
    _x, _b, term = err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], g_max(jr, gains))
    return ratio(per_query(jr, rk, rows, term), _ideal_err(jr, gains, cutoff))


@measure(
    "EBR",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, BETA, CONDENSED),
    check=relevant_grades_only,
    summary="expected blended ratio: ERR's stopping model with the blended ratio as the "
    "utility at the stopping rank",
    formula="EBR@k = sum_{r<=k} BR(r) x(r) prod_{j<r} (1 - x(j)), x(r) = g(r) / (g_max + 1)",
    source=f"{NTCIREVAL} (EBR, added in 2018); "
    f"{SAKAI_ROBERTSON} (the blended ratio as a utility{UNVERIFIED})",
    better="higher",
    undefined=(),
    ties=None,
    no_ties=NO_TIES,
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes=NOTES + " Not normalised (0 for a query without relevant documents).",
)
def ebr(
    jr: JudgedRankings, *, cutoff: int | None, gains: Gains | None, beta: float, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows, br = blended_ratio(jr, gains, judged_only, beta)
    top = g_max(jr, gains)
    _x, before, _t = err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], top)
    values = br * before * rk.gain[rows] / (top + 1.0)
    keep = np.ones(len(rows), dtype=bool) if cutoff is None else rk.rank[rows] <= cutoff
    return per_query(jr, rk, rows[keep], values[keep])


# ------------------------------------------------------------------ iRBU
RBU_P = Param(
    "p",
    "float",
    REQUIRED,
    "persistence: the user reads rank r with probability p^r (NTCIREVAL -rbup)",
    above=0.0,
    at_most=1.0,
)


@measure(
    "iRBU",
    cutoff=CUTOFF_OPTIONAL,
    params=(RBU_P, GAINS, CONDENSED),
    check=relevant_grades_only,
    summary="intentwise rank-biased utility: ERR's stopping model with RBP's patience, the "
    "per-intent part of RBU",
    formula="iRBU@k = sum_{r<=k} p^r x(r) prod_{j<r} (1 - x(j)), x(r) = g(r) / (g_max + 1)",
    source=f"{AMIGO} (RBU, one intent, no effort term{UNVERIFIED}); {NTCIREVAL} -rbup (iRBU@k)",
    better="higher",
    undefined=(),
    ties=None,
    no_ties="not derived: the reach of a rank is a product over the documents above it",
    checked_by=(
        "tests/measures/test_measures_ntcir.py::test_ntcireval_sample_gap_ebr_irbu",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_ntcireval",
        "tests/measures/test_measures_ntcir.py::test_agrees_with_brute_force",
    ),
    notes=NOTES + " Without the effort term of RBU (a constant for a given k). Powers p^r by "
    "the C library's pow, as NTCIREVAL.",
)
def irbu(
    jr: JudgedRankings, *, cutoff: int | None, p: float, gains: Gains | None, judged_only: bool
) -> np.ndarray:
    rk = ranked(jr, gains, judged_only)
    rows = cut(rk, np.flatnonzero(rk.relevant), cutoff)
    top = g_max(jr, gains)
    _x, before, _t = err_terms(rk.query[rows], rk.rank[rows], rk.gain[rows], top)
    powers = np.array([math.pow(p, r) for r in rk.rank[rows].tolist()])
    return per_query(jr, rk, rows, powers * before * rk.gain[rows] / (top + 1.0))
