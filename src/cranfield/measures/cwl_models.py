"""C/W/L user models of ir_measures: INST, INSQ, BPM, SDCG and NERR8-11, as cwl_eval has them.

Each measure is its continuation vector ``C_i`` for the framework of :mod:`.cwl`, which
computes the value (the expected utility per item ``EU``, ir_measures' value) or, with
``of=``, cwl_eval's other columns and residuals.  Names and parameters are ir_measures'
(``INST(T=1,max_rel=3)``, ``BPM(T=1,max_rel=3)@10``, ``NERR10(p=0.9,max_rel=3)``).  ``i`` is
the rank, ``g_i`` the gain at rank i, ``G_i = g_1 + ... + g_i``.

Tie-aware forms exist where ``C`` does not depend on the gains (INSQ, SDCG): the value is then
linear in the gains at each rank (:func:`.cwl.cwl_tie_aware`).
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
    PEER,
    TIES,
    Model,
    T,
    better_of,
    check_rels,
    cwl_measure,
    cwl_tie_aware,
)
from cranfield.measures.registry import CUTOFF, Param, measure


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
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_bpm_and_nerr8_by_hand"),
    notes=NOTES,
)
def nerr8(jr: JudgedRankings, *, cutoff: int, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, _nerr8(cutoff), min_rel, max_rel, of)


@measure(
    "NERR9",
    cutoff=CUTOFF,
    params=COMMON,
    summary="not (but nearly) ERR, eq. 9: ERR's stopping with a reciprocal-rank discount",
    formula="C_i = i/(i+1) (1 - g_i) for i < k, 0 from k; EU = sum W_i g_i",
    source=f"{NERR}, eq. 9; {CWL_EVAL} (NERReq9CWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr9(jr: JudgedRankings, *, cutoff: int, min_rel: int, max_rel: int, of: str) -> np.ndarray:
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
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr10(jr: JudgedRankings, *, p: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, _nerr10(p), min_rel, max_rel, of)


def _nerr11(t: float) -> Model:
    return Model(c=lambda G, r: _insq_c(t, G.shape[1]) * (1.0 - G))


@measure(
    "NERR11",
    params=(T, *COMMON),
    summary="not (but nearly) ERR, eq. 11: ERR's stopping with INSQ's patience T",
    formula="C_i = ((i + 2T - 1) / (i + 2T))^2 (1 - g_i); EU = sum W_i g_i",
    source=f"{NERR}, eq. 11; {CWL_EVAL} (NERReq11CWLMetric)",
    better="higher",
    better_by=better_of,
    undefined=(),
    ties=None,
    no_ties=ADAPTIVE,
    check=check_rels,
    checked_by=(PEER, COLUMNS, HAND + "test_nerr_by_hand"),
    notes=NOTES,
)
def nerr11(jr: JudgedRankings, *, T: float, min_rel: int, max_rel: int, of: str) -> np.ndarray:
    return cwl_measure(jr, _nerr11(T), min_rel, max_rel, of)
