"""Linear set utility over the contingency table.

Lewis (1995) 'The TREC-4 filtering track' (linear utility); Keen (seed 002) Fig. 1 (the
contingency table a, b, c, d); trec_eval 10.0 ``m_utility.c``.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .counting import num_rel, rel_ret
from .params import MAX_EXACT, MAX_WEIGHT
from .registry import REL, Param, measure


def _float(name: str, default: float, doc: str) -> Param:
    return Param(name, "float", default, doc, at_least=-MAX_WEIGHT, at_most=MAX_WEIGHT)


@measure(
    "Utility",
    params=(
        _float("a", 1.0, "worth of a relevant retrieved document"),
        _float("b", -1.0, "worth of a non-relevant retrieved document"),
        _float("c", 0.0, "worth of a relevant document not retrieved"),
        _float("d", 0.0, "worth of a non-relevant document not retrieved"),
        Param(
            "N",
            "int",
            0,
            "collection size (only used by d; trec_eval -N)",
            at_least=0,
            at_most=MAX_EXACT,
        ),
        REL,
    ),
    summary="linear utility a*RR + b*(n-RR) + c*(R-RR) + d*(N-n-R+RR)",
    formula="Utility = a RR + b (n - RR) + c (R - RR) + d (N + RR - n - R)",
    source="Lewis (1995) TREC-4 filtering track; Keen (seed 002) Fig. 1; trec_eval m_utility.c",
    family="set",
    trec="utility",
    notes="Unjudged retrieved documents count as non-relevant (b). N defaults to 0 as in "
    "trec_eval, so d != 0 needs N. Aggregated by the mean, as trec_eval. A judged query "
    "absent from the run (complete=True, trec_eval -c) scores 0, as in trec_eval.",
)
def utility(
    jr: JudgedRankings, *, a: float, b: float, c: float, d: float, N: int, rel: int
) -> np.ndarray:
    rr = rel_ret(jr, rel)
    n = jr.num_ret
    R = num_rel(jr, rel)
    value = a * rr + b * (n - rr) + c * (R - rr) + d * (N + rr - n - R)
    # trec_eval -c scores a judged query absent from the run 0 (trec_eval.c overwrites it)
    return np.where(jr.in_run, value, 0.0)
