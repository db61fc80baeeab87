"""C/W/L user models: INST, INSQ, BPM, SDCG, NERR8-11, TBG, U and IFT, as cwl_eval has them.

Each measure is its continuation vector ``C_i`` (or its weights ``W_i``) for the framework of
:mod:`.cwl`, which computes the value (the expected utility per item ``EU``, ir_measures'
value) or, with ``of=``, cwl_eval's other columns and residuals.  Names and parameters are
ir_measures' (``INST(T=1,max_rel=3)``, ``BPM(T=1,max_rel=3)@10``, ``NERR10(p=0.9,max_rel=3)``);
TBG, U and IFT (IFT_Goal, IFT_Rate), which ir_measures lacks, take cwl_eval's parameter
names.  ``i`` is the rank, ``g_i`` the gain at rank i, ``G_i = g_1 + ... + g_i``; every item
costs 1.

Tie-aware forms exist where ``C`` does not depend on the gains (INSQ, SDCG, TBG, U): the value
is then linear in the gains at each rank (:func:`.cwl.cwl_tie_aware`).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from ..judged_rankings import JudgedRankings
from .cwl import MAX_REL, MIN_REL, OF, Model, better_of, check_rels, cwl_measure, cwl_tie_aware
from .params import MAX_WEIGHT, REQUIRED
from .registry import CUTOFF, Param, measure

CWL_EVAL = (
    "Azzopardi, Thomas & Moffat, 'cwl_eval: an evaluation tool for information retrieval', "
    "SIGIR 2019"
)
ADAPTIVE = (
    "the continuation C_i depends on the gains above rank i (an adaptive user), so the value "
    "is not linear in the gains: no closed form for the expectation over tie-breakings"
)
PEER = "tests/test_measures_cwl.py::test_values_equal_ir_measures_cwl_eval_provider"
COLUMNS = "tests/test_measures_cwl.py::test_every_column_and_residual_equals_cwl_eval"
CLI = "tests/test_measures_cwl.py::test_cwl_eval_command_line_prints_our_values"
HAND = "tests/test_measures_cwl_examples.py::"
TIES = "tests/test_measures_cwl_examples.py::test_tie_aware_forms_average_cwl_eval_over_orders"
NOTES = (
    "ir_measures' value is EU; of= gives cwl_eval's other columns (ETU, EC, ETC, ED) and the "
    "residuals (ResEU...: unjudged items and the padding counted at gain 1 instead of 0). "
    "Gains: the grade clipped to [min_rel, max_rel] and scaled to [0, 1] (negative grades "
    "count as 0); unjudged = not in the qrels. The user model covers the first 1000 items "
    "(cwl_eval's default depth) and each item costs 1."
)

T = Param("T", "float", 1.0, "total gain the user wants (T in INST, INSQ, BPM)", above=0.0,
          at_most=MAX_WEIGHT)  # fmt: skip
COMMON = (MIN_REL, MAX_REL, OF)


# ------------------------------------------------------------------ INST, INSQ
@cache
def _insq_c(t: float, n: int) -> np.ndarray:
    r = np.arange(1, n + 1, dtype=np.float64)
    return ((r + (2.0 * t) - 1.0) / (r + (2.0 * t))) ** 2.0


def _inst(t: float) -> Model:
    def c(G: np.ndarray, r: np.ndarray) -> np.ndarray:
        Ti = t - np.cumsum(G, axis=1)
        return ((r + t + Ti - 1.0) / (r + t + Ti)) ** 2.0

    return Model(c=c)


@measure(
    "INST",
    params=(T, *COMMON),
    summary="INST: a C/W/L user who wants T gain and reads on while it is missing",
    formula="C_i = ((i + T + T_i - 1) / (i + T + T_i))^2, T_i = T - G_i; EU = sum W_i g_i",
    source="Moffat, Bailey, Scholer & Thomas, 'INST: an adaptive metric for information "
    f"retrieval evaluation', ADCS 2015, eq. 3; {CWL_EVAL} (INSTCWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, CLI, HAND + "test_inst_by_hand"),
    notes=NOTES,
)
def inst(jr: JudgedRankings, *, T: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, _inst(T), min_rel, max_rel, of)


def _insq(t: float) -> Model:
    return Model(c=lambda G, r: _insq_c(t, G.shape[1]))


@measure(
    "INSQ",
    params=(T, *COMMON),
    summary="INSQ: C/W/L user expecting T gain, continuation independent of the gains seen",
    formula="C_i = ((i + 2T - 1) / (i + 2T))^2; EU = sum W_i g_i",
    source="Moffat, Scholer & Thomas, 'Models and metrics: IR evaluation as a user process', "
    f"ADCS 2012, sec. 4; {CWL_EVAL} (INSQCWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=lambda jr, *, T, min_rel, max_rel, of: cwl_tie_aware(jr, _insq(T), min_rel, max_rel, of),
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_insq_by_hand", TIES),
    notes=NOTES,
)
def insq(jr: JudgedRankings, *, T: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, _insq(T), min_rel, max_rel, of)


# ------------------------------------------------------------------ BPM, SDCG
def _bpm(t: float, k: int) -> Model:
    return Model(c=lambda G, r: ((np.cumsum(G, axis=1) < t) & (r < k)).astype(np.float64))


@measure(
    "BPM",
    cutoff=CUTOFF,
    params=(T, *COMMON),
    summary="Bejeweled player model (static): reads until T gain or k items",
    formula="C_i = 1 if G_i < T and i < k, else 0; EU = sum W_i g_i",
    source="Zhang, Liu, Li, Zhang, Xu & Ma, 'Evaluating web search with a bejeweled player "
    f"model', SIGIR 2017, sec. 4 (static BPM); {CWL_EVAL} (BPMCWLMetric, K = k)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_bpm_and_nerr8_by_hand"),
    notes=NOTES,
)
def bpm(
    jr: JudgedRankings, *, cutoff: int, T: float, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    return cwl_measure(jr, _bpm(T, cutoff), min_rel, max_rel, of)


@cache
def _sdcg_c(k: int, n: int) -> np.ndarray:
    """cwl_eval's NDCGCWLMetric: ``log(i+1, 2) / log(i+2, 2)`` for i < k (Python's logs)."""
    return np.array(
        [math.log(i + 1, 2.0) / math.log(i + 2, 2.0) if i < k else 0.0 for i in range(1, n + 1)]
    )


def _sdcg(k: int) -> Model:
    return Model(c=lambda G, r: _sdcg_c(k, G.shape[1]))


DCG = Param("dcg", "str", "log2", "DCG formulation (ir_measures'; only log2)", choices=("log2",))


@measure(
    "SDCG",
    cutoff=CUTOFF,
    params=(DCG, *COMMON),
    summary="scaled DCG: DCG@k over the DCG of k fully relevant items",
    formula="W_i = (1/log2(i+1)) / sum_{j<=k} 1/log2(j+1) for i <= k; EU = sum W_i g_i",
    source="Järvelin & Kekäläinen, 'Cumulated gain-based evaluation of IR techniques', ACM "
    f"TOIS 20(4), 2002; as a C/W/L model in {CWL_EVAL} (NDCGCWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=lambda jr, *, cutoff, dcg, min_rel, max_rel, of: cwl_tie_aware(
        jr, _sdcg(cutoff), min_rel, max_rel, of
    ),
    check=check_rels,
    checked_by=(PEER, COLUMNS, CLI, HAND + "test_sdcg_by_hand", TIES),
    notes=NOTES,
)
def sdcg(
    jr: JudgedRankings, *, cutoff: int, dcg: str, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    return cwl_measure(jr, _sdcg(cutoff), min_rel, max_rel, of)


# ------------------------------------------------------------------ NERR
NERR = (
    "Azzopardi, Mackenzie & Moffat, 'ERR is not C/W/L: exploring the relationship between "
    "expected reciprocal rank and other metrics', ICTIR 2021"
)


def _nerr8(k: int) -> Model:
    return Model(c=lambda G, r: np.where(r < k, 1 - G, 0.0))


def _nerr9(k: int) -> Model:
    return Model(c=lambda G, r: np.where(r < k, (1.0 * r / (r + 1.0)) * (1.0 - G), 0.0))


@measure(
    "NERR8",
    cutoff=CUTOFF,
    params=COMMON,
    summary="not (but nearly) ERR, eq. 8: stops at a relevant item, truncated at k",
    formula="C_i = 1 - g_i for i < k, 0 from k; EU = sum W_i g_i",
    source=f"{NERR}, eq. 8; {CWL_EVAL} (NERReq8CWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_bpm_and_nerr8_by_hand"),
    notes=NOTES,
)
def nerr8(jr: JudgedRankings, *, cutoff: int, min_rel: int, max_rel: int, of: str):
    return cwl_measure(jr, _nerr8(cutoff), min_rel, max_rel, of)


@measure(
    "NERR9",
    cutoff=CUTOFF,
    params=COMMON,
    summary="not (but nearly) ERR, eq. 9: ERR's stopping with a reciprocal-rank discount",
    formula="C_i = i/(i+1) (1 - g_i) for i < k, 0 from k; EU = sum W_i g_i",
    source=f"{NERR}, eq. 9; {CWL_EVAL} (NERReq9CWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr9(jr: JudgedRankings, *, cutoff: int, min_rel: int, max_rel: int, of: str):
    return cwl_measure(jr, _nerr9(cutoff), min_rel, max_rel, of)


P = Param("p", "float", 0.9, "persistence (phi in the paper)", above=0.0, below=1.0)


def _nerr10(p: float) -> Model:
    return Model(c=lambda G, r: p * (1 - G))


@measure(
    "NERR10",
    params=(P, *COMMON),
    summary="not (but nearly) ERR, eq. 10: ERR's stopping with RBP's persistence p",
    formula="C_i = p (1 - g_i); EU = sum W_i g_i",
    source=f"{NERR}, eq. 10; {CWL_EVAL} (NERReq10CWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr10(jr: JudgedRankings, *, p: float, min_rel: int, max_rel: int, of: str):
    return cwl_measure(jr, _nerr10(p), min_rel, max_rel, of)


def _nerr11(t: float) -> Model:
    return Model(c=lambda G, r: _insq_c(t, G.shape[1]) * (1.0 - G))


@measure(
    "NERR11",
    params=(T, *COMMON),
    summary="not (but nearly) ERR, eq. 11: ERR's stopping with INSQ's patience T",
    formula="C_i = ((i + 2T - 1) / (i + 2T))^2 (1 - g_i); EU = sum W_i g_i",
    source=f"{NERR}, eq. 11; {CWL_EVAL} (NERReq11CWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr11(jr: JudgedRankings, *, T: float, min_rel: int, max_rel: int, of: str):
    return cwl_measure(jr, _nerr11(T), min_rel, max_rel, of)


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
    family="cwl",
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
    family="cwl",
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
def u_measure(jr: JudgedRankings, *, L: float, min_rel: int, max_rel: int, of: str):
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
        return 1.0 / (1.0 + b * np.exp(x))


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
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES,
)
def ift_goal(jr: JudgedRankings, *, T, b1, R1, min_rel: int, max_rel: int, of: str):
    model = Model(c=lambda G, r: _goal(G, T, b1, R1))
    return cwl_measure(jr, model, min_rel, max_rel, of)


@measure(
    "IFT_Rate",
    params=(*RATE, *COMMON),
    summary="information foraging, rate only: reads on while the gain per item beats A",
    formula=RATE_F + "; EU = sum W_i g_i",
    source=IFT_SOURCE + "(IFTRateCWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES,
)
def ift_rate(jr: JudgedRankings, *, A, b2, R2, min_rel: int, max_rel: int, of: str):
    model = Model(c=lambda G, r: _rate(G, r, A, b2, R2))
    return cwl_measure(jr, model, min_rel, max_rel, of)


@measure(
    "IFT",
    params=(*GOAL, *RATE, *COMMON),
    summary="information foraging (goal and rate): reads on while short of T and beating A",
    formula=f"C_i = goal_i rate_i: ({GOAL_F}) ({RATE_F})",
    source=IFT_SOURCE + "(IFTGoalRateCWLMetric)",
    family="cwl",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(COLUMNS, HAND + "test_ift_by_hand"),
    notes=IFT_NOTES + " IFT_Goal and IFT_Rate are its two factors alone.",
)
def ift(jr: JudgedRankings, *, T, b1, R1, A, b2, R2, min_rel: int, max_rel: int, of: str):
    model = Model(c=lambda G, r: _goal(G, T, b1, R1) * _rate(G, r, A, b2, R2))
    return cwl_measure(jr, model, min_rel, max_rel, of)
