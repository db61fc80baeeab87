"""The C/W/L framework (Moffat et al.), computed as cwl_eval computes it.

A user reads a ranking top down; after item ``i`` they continue with probability ``C_i``.
From the continuation vector ``C`` (Moffat, Bailey, Scholer & Thomas, 'Incorporating user
expectations and behavior into the measurement of search effectiveness', ACM TOIS 35(3),
2017, sec. 3; Azzopardi, Thomas & Moffat, 'cwl_eval: an evaluation tool for information
retrieval', SIGIR 2019)::

    W_1 = 1 / sum_{i=1..n} prod_{j<i} C_j,   W_i = W_1 prod_{j<i} C_j    (weight of item i)
    L_i = (prod_{j<i} C_j) (1 - C_i)                                       (stopping at i)
    EU  = sum_i W_i g_i       expected utility per item (the measure's value)
    ETU = sum_i L_i sum_{j<=i} g_j          expected total utility
    EC  = sum_i W_i c_i,  ETC = sum_i L_i sum_{j<=i} c_j,  ED = 1 / W_1    (costs, depth)

over the first ``n = 1000`` items (cwl_eval's ``--max_depth`` default, which ir_measures
keeps): a shorter ranking is padded, a longer one cut.  Every item costs 1 (cwl_eval without
a cost file, as ir_measures runs it).  Gains are the grades scaled as ir_measures gives them
to cwl_eval: ``g = (clip(max(grade, 0), min_rel, max_rel) - min_rel) / (max_rel - min_rel)``;
an unjudged item (not in the qrels) and the padding gain 0.  The residuals (``ResEU``...)
are cwl_eval's best case minus that worst case: unjudged items and the padding gain 1.

The family modules :mod:`.cwl_models` and :mod:`.cwl_costs` declare the user models (their
``C`` or ``W``); the names below are what their declarations share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from cranfield.judging.rankings import NOT_IN_QRELS, JudgedRankings
from cranfield.measures.params import INT64_MAX, INT64_MIN, MAX_WEIGHT, REQUIRED, Param
from cranfield.ties.levels import levels

__all__ = [
    "MAX_N",
    "MAX_REL",
    "MIN_REL",
    "OF",
    "QUANTITIES",
    "Model",
    "better_of",
    "check_rels",
    "cwl_measure",
    "cwl_tie_aware",
    "quantities",
]

MAX_N = 1000
"""Items the user model covers (cwl_eval ``--max_depth``; ir_measures' ``max_n``)."""
QUANTITIES = ("EU", "ETU", "EC", "ETC", "ED")
"""cwl_eval's columns: expected utility per item, expected total utility, expected cost per
item, expected total cost, expected depth (items)."""
RESIDUALS = tuple("Res" + q for q in QUANTITIES)

MIN_REL = Param(
    "min_rel", "int", 0, "grade mapped to gain 0 (lower grades too; below max_rel)",
    at_least=INT64_MIN, at_most=INT64_MAX - 1,
)  # fmt: skip
MAX_REL = Param(
    "max_rel", "int", REQUIRED, "grade mapped to gain 1 (higher grades too)",
    at_least=INT64_MIN + 1, at_most=INT64_MAX,
)  # fmt: skip
OF = Param(
    "of",
    "str",
    "EU",
    "what to report: EU (the measure), ETU, EC, ETC, ED, or Res+one of them (the residual)",
    choices=QUANTITIES + RESIDUALS,
)


def check_rels(params: dict[str, Any]) -> str | None:
    """min_rel must be below max_rel (ir_measures asserts it)."""
    lo, hi = params.get("min_rel", 0), params.get("max_rel")
    if hi is not None and not lo < hi:
        return f"min_rel ({lo}) must be below max_rel ({hi})"
    return None


def better_of(params: dict[str, Any]) -> str:
    """EU and ETU are utilities (higher is better); costs, depth and residuals are not ranked."""
    return "higher" if params.get("of", "EU") in ("EU", "ETU") else "none"


class Model(NamedTuple):
    """A user model: its continuation ``c(G, r) -> C`` from the gains ``G`` (queries x n) and
    the ranks ``r`` (1..n as floats), or its fixed weights ``w(n) -> (W, C)`` (TBG, U)."""

    c: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    w: Callable[[int], tuple[np.ndarray, np.ndarray]] | None = None


def row_gains(jr: JudgedRankings, min_rel: int, max_rel: int) -> tuple[np.ndarray, np.ndarray]:
    """(gain per row, unjudged per row): negative grades count as 0 (ir_measures), unjudged =
    not in the qrels.  Each distinct grade is scaled once, with Python's exact integers."""
    grades = jr.grades
    unjudged = grades == NOT_IN_QRELS
    judged = np.where(unjudged | (grades < 0), 0, grades)
    uniq, inverse = np.unique(judged, return_inverse=True)
    span = max_rel - min_rel
    table = np.array(
        [(min(max(int(g), min_rel), max_rel) - min_rel) / span for g in uniq], dtype=np.float64
    )
    gains = table[inverse.reshape(-1)] if len(uniq) else np.zeros(0)
    gains[unjudged] = 0.0
    return gains, unjudged


def _matrix(
    jr: JudgedRankings, values: np.ndarray, pad: float, a: int, b: int, n: int
) -> np.ndarray:
    """Queries ``a..b-1`` as rows of ``n`` items: the first ``min(ranked, n)`` values, then
    ``pad``."""
    out = np.full((b - a, n), pad)
    lo, hi = int(jr.offsets[a]), int(jr.offsets[b])
    q = jr.row_query[lo:hi]
    rank = jr.rank[lo:hi]
    keep = rank <= np.minimum(jr.num_ret[q], n)
    out[q[keep] - a, rank[keep] - 1] = values[lo:hi][keep]
    return out


def quantities(G: np.ndarray, model: Model, r: np.ndarray) -> dict[str, np.ndarray]:
    """EU, ETU, EC, ETC, ED of each row of gains ``G`` (queries x n), as cwl_eval's
    ``CWLMetric._do_score`` computes them (unit costs)."""
    if model.w is not None:
        w, c = model.w(G.shape[1])
        W, C = np.broadcast_to(w, G.shape), np.broadcast_to(c, G.shape)
    else:
        C = np.broadcast_to(model.c(G, r), G.shape)  # type: ignore[misc]  # c is set when w is not
        P = np.ones(G.shape)
        P[:, 1:] = np.cumprod(C[:, :-1], axis=1)
        W = P * (1.0 / P.sum(axis=1))[:, None]
    shifted = np.ones(G.shape)
    shifted[:, 1:] = C[:, :-1]
    L = np.cumprod(shifted, axis=1) * (1.0 - C)
    return {
        "EU": (W * G).sum(axis=1),
        "ETU": (L * np.cumsum(G, axis=1)).sum(axis=1),
        "EC": W.sum(axis=1),
        "ETC": (L * r).sum(axis=1),
        "ED": 1.0 / W[:, 0],
    }


def _evaluate(
    jr: JudgedRankings, worst: np.ndarray, best: np.ndarray, model: Model, of: str
) -> np.ndarray:
    """``of`` per query from the rows' worst-case and best-case gains, in chunks of queries."""
    n, nq = MAX_N, jr.num_queries
    r = np.arange(1, n + 1, dtype=np.float64)
    residual = of.startswith("Res")
    what = of[3:] if residual else of
    out = np.zeros(nq)
    step = max(1, 2**18 // n)
    for a in range(0, nq, step):
        b = min(a + step, nq)
        low = quantities(_matrix(jr, worst, 0.0, a, b, n), model, r)[what]
        if residual:
            out[a:b] = quantities(_matrix(jr, best, 1.0, a, b, n), model, r)[what] - low
        else:
            out[a:b] = low
    return out


def cwl_measure(
    jr: JudgedRankings, model: Model, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    """The C/W/L quantity ``of`` of ``model`` per query (see the module docstring)."""
    gains, unjudged = row_gains(jr, min_rel, max_rel)
    return _evaluate(jr, gains, np.where(unjudged, 1.0, gains), model, of)


def _level_means(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Each row's value replaced by the mean over its tie group (the whole group, also the
    rows beyond a depth cut that splits it: every retrieved position is equally likely to
    hold any of them)."""
    if len(values) == 0:
        return values
    lv = levels(jr, True)
    means = np.add.reduceat(values, lv.start) / lv.size
    return np.repeat(means, lv.size)


def cwl_tie_aware(
    jr: JudgedRankings, model: Model, min_rel: int, max_rel: int, of: str
) -> np.ndarray:
    """E[quantity] over uniformly random tie-breaking, for a model whose ``C`` does not depend
    on the gains: EU, ETU and the residuals are then linear in the gains at each position (and
    EC, ETC, ED do not depend on them), so the expectation is the value at the level-mean
    gains: ``E[g at a position of level l] = (sum of l's gains) / n_l``."""
    gains, unjudged = row_gains(jr, min_rel, max_rel)
    best = np.where(unjudged, 1.0, gains)
    return _evaluate(jr, _level_means(jr, gains), _level_means(jr, best), model, of)


# ------------------------------------------------------------------ shared by the declarations
CWL_EVAL = (
    "Azzopardi, Thomas & Moffat, 'cwl_eval: an evaluation tool for information retrieval', "
    "SIGIR 2019"
)
ADAPTIVE = (
    "the continuation C_i depends on the gains above rank i (an adaptive user), so the value "
    "is not linear in the gains: no closed form for the expectation over tie-breakings"
)
PEER = "tests/measures/test_measures_cwl.py::test_values_equal_ir_measures_cwl_eval_provider"
COLUMNS = "tests/measures/test_measures_cwl.py::test_every_column_and_residual_equals_cwl_eval"
CLI = "tests/measures/test_measures_cwl.py::test_cwl_eval_command_line_prints_our_values"
HAND = "tests/measures/test_measures_cwl_examples.py::"
TIES = HAND + "test_tie_aware_forms_average_cwl_eval_over_orders"
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
