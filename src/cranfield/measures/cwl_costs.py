"""C/W/L user models over the cost of reading, which cwl_eval has and ir_measures lacks:
time-biased gain (TBG), the U-measure (U) and information foraging (IFT, IFT_Goal, IFT_Rate).

Parameters take cwl_eval's names.  cwl_eval reads costs (seconds, characters) from a cost
file; without one, as here, every item costs 1, so H and L count items.  TBG and U weight
the items directly (``W_i``, not through the gains): their tie-aware forms are linear in the
gains (:func:`.cwl.cwl_tie_aware`); IFT's continuation depends on the gain so far.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.cwl import (
    ADAPTIVE,
    CLI,
    COLUMNS,
    COMMON,
    CWL_EVAL,
    HAND,
    NOTES,
    TIES,
    Model,
    better_of,
    check_rels,
    cwl_measure,
    cwl_tie_aware,
)
from cranfield.measures.params import MAX_WEIGHT, REQUIRED
from cranfield.measures.registry import Param, measure


# ------------------------------------------------------------------ TBG, U (fixed weights)
def _from_weights(w: list[float], norm: float) -> tuple[np.ndarray, np.ndarray]:
    """(W, C) as cwl_eval derives them: W = w / norm, C_i = W_{i+1} / W_i (0 after a zero
    weight and at the last item)."""
    W = np.divide(np.array(w), norm)
    C = [W[i + 1] / W[i] if W[i] > 0.0 else 0.0 for i in range(len(W) - 1)]
    return W, np.array([*C, 0.0])


@cache
def _tbg_w(h: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """TBGCWLMetric.w_vector: decay ``h 2^(-t/h) / ln 2`` at the time t each item starts."""
    ln2 = math.log(2.0, math.e)
    w = [(h * (2.0 ** (-0.0 / h))) / ln2]
    norm = w[0]
    for t in range(1, n):
        w.append((h * (2.0 ** (-float(t) / h))) / ln2)
        norm = norm + w[-1]
    return _from_weights(w, norm)


H = Param("H", "float", 224.0, "half-life, in items (cwl_eval: in cost units)", above=0.0,
          at_most=MAX_WEIGHT)  # fmt: skip


@measure(
    "TBG",
    params=(H, *COMMON),
    summary="time-biased gain: the chance of still reading halves every H items",
    formula="W_i ∝ 2^(-(i-1)/H) (i <= n); EU = sum W_i g_i",
    source="Smucker & Clarke, 'Time-based calibration of effectiveness measures', SIGIR 2012, "
    f"eq. 4 (decay); {CWL_EVAL} (TBGCWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=lambda jr, *, H, min_rel, max_rel, of: cwl_tie_aware(
        jr, Model(w=lambda n: _tbg_w(H, n)), min_rel, max_rel, of
    ),
    check=check_rels,
    checked_by=(COLUMNS, CLI, HAND + "test_tbg_and_u_by_hand", TIES),
    notes=NOTES + " Every item takes one unit of time: TBG is then RBP with p = 2^(-1/H), "
    "normalised over the 1000 items.",
)
def tbg(jr: JudgedRankings, *, H: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, Model(w=lambda n: _tbg_w(H, n)), min_rel, max_rel, of)


@cache
def _u_w(length: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """UMeasureCWLMetric.w_vector: ``max(0, 1 - start / L)``, the last item weighted 0."""
    w, norm = [], 0.0
    for start in range(n - 1):
        w.append(max(0.0, (1.0 - (float(start) / length))))
        norm = norm + w[-1]
    return _from_weights([*w, 0.0], norm)


UL = Param("L", "float", 1000.0, "reading budget: weight falls linearly to 0 at L items",
           above=0.0, at_most=MAX_WEIGHT)  # fmt: skip


@measure(
    "U",
    params=(UL, *COMMON),
    summary="U-measure: the weight of an item falls linearly with the text read before it",
    formula="W_i ∝ max(0, 1 - (i-1)/L) for i < n, W_n = 0; EU = sum W_i g_i",
    source="Sakai & Dou, 'Summaries, ranked retrieval and sessions: a unified framework for "
    f"information access evaluation', SIGIR 2013, eq. 5; {CWL_EVAL} (UMeasureCWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=lambda jr, *, L, min_rel, max_rel, of: cwl_tie_aware(
        jr, Model(w=lambda n: _u_w(L, n)), min_rel, max_rel, of
    ),
    check=check_rels,
    checked_by=(COLUMNS, CLI, HAND + "test_tbg_and_u_by_hand", TIES),
    notes=NOTES + " Every item is one unit of text long (L counts items).",
)
def u_measure(jr: JudgedRankings, *, L: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, Model(w=lambda n: _u_w(L, n)), min_rel, max_rel, of)


# ------------------------------------------------------------------ IFT
IFT_SOURCE = (
    "Azzopardi, Thomas & Craswell, 'Measuring the utility of search engine result pages: an "
    f"information foraging based measure', SIGIR 2018, sec. 3; {CWL_EVAL} "
)
IFT_NOTES = (
    NOTES + " Where e^x overflows cwl_eval stops with an error; here the factor takes its "
    "limit (each parameter is at most 1e6)."
)


def _ift_param(name: str, doc: str) -> Param:
    return Param(name, "float", REQUIRED, doc, at_least=0.0, at_most=1e6)


GOAL = (
    _ift_param("T", "goal: the gain the user wants"),
    _ift_param("b1", "goal intercept"),
    _ift_param("R1", "goal rationality (0: the goal does not matter)"),
)
RATE = (
    _ift_param("A", "rate: the gain per item the user expects"),
    _ift_param("b2", "rate intercept"),
    _ift_param("R2", "rate rationality (0: the rate does not matter)"),
)


def _logistic(b: float, x: np.ndarray) -> np.ndarray:
    """``1 / (1 + b e^x)``: 0 where ``e^x`` overflows (its limit), 1 when b = 0."""
    if b == 0:
        return np.ones(x.shape)
    with np.errstate(over="ignore"):
        result: np.ndarray = 1.0 / (1.0 + b * np.exp(x))
        return result


def _goal(G: np.ndarray, T: float, b1: float, R1: float) -> np.ndarray:
    return 1.0 - _logistic(b1, (T - np.cumsum(G, axis=1)) * R1)


def _rate(G: np.ndarray, r: np.ndarray, A: float, b2: float, R2: float) -> np.ndarray:
    return _logistic(b2, (A - (np.cumsum(G, axis=1) / r)) * R2)


GOAL_F = "C_i = 1 - 1/(1 + b1 e^{R1 (T - G_i)})"
RATE_F = "C_i = 1/(1 + b2 e^{R2 (A - G_i / i)})"


@measure(
    "IFT_Goal",
    params=(*GOAL, *COMMON),
    summary="information foraging, goal only: reads on while short of the gain T",
    formula=GOAL_F + "; EU = sum W_i g_i",
    source=IFT_SOURCE + "(IFTGoalCWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES,
)
def ift_goal(
    jr: JudgedRankings, *, T: float, b1: float, R1: float, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    model = Model(c=lambda G, r: _goal(G, T, b1, R1))
    return cwl_measure(jr, model, min_rel, max_rel, of)


@measure(
    "IFT_Rate",
    params=(*RATE, *COMMON),
    summary="information foraging, rate only: reads on while the gain per item beats A",
    formula=RATE_F + "; EU = sum W_i g_i",
    source=IFT_SOURCE + "(IFTRateCWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES,
)
def ift_rate(
    jr: JudgedRankings, *, A: float, b2: float, R2: float, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    model = Model(c=lambda G, r: _rate(G, r, A, b2, R2))
    return cwl_measure(jr, model, min_rel, max_rel, of)


@measure(
    "IFT",
    params=(*GOAL, *RATE, *COMMON),
    summary="information foraging (goal and rate): reads on while short of T and beating A",
    formula=f"C_i = goal_i rate_i: ({GOAL_F}) ({RATE_F})",
    source=IFT_SOURCE + "(IFTGoalRateCWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES + " IFT_Goal and IFT_Rate are its two factors alone.",
)
def ift(
    jr: JudgedRankings,
    *,
    T: float,
    b1: float,
    R1: float,
    A: float,
    b2: float,
    R2: float,
    min_rel: int,
    max_rel: int,
    of: str,
) -> np.ndarray:
    model = Model(c=lambda G, r: _goal(G, T, b1, R1) * _rate(G, r, A, b2, R2))
    return cwl_measure(jr, model, min_rel, max_rel, of)
