"""Linear set utility over the contingency table.

Lewis, 'The TREC-4 filtering track', TREC-4, 1995 (linear utility); Keen, 'Evaluation
parameters', SMART report ISR-13, sec. II, Fig. 1 (the contingency table a, b, c, d);
trec_eval 10.0 ``m_utility.c``.  The tie-aware form: the utility itself (no order changes
the set), or its expectation where a depth cut splits a tie group (linear in RR).
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import num_rel, rel_ret
from cranfield.measures.params import MAX_EXACT, MAX_WEIGHT
from cranfield.measures.registry import REL, Param, TrecEval, measure
from cranfield.measures.sources import KEEN
from cranfield.ties.expected import expected_retrieved


def _float(name: str, default: float, doc: str) -> Param:
    return Param(name, "float", default, doc, at_least=-MAX_WEIGHT, at_most=MAX_WEIGHT)


def _value(
    jr: JudgedRankings,
    rr: np.ndarray,
    a: float,
    b: float,
    c: float,
    d: float,
    N: int,
    rel: int,
) -> np.ndarray:
    n = jr.num_ret
    R = num_rel(jr, rel)
    value = a * rr + b * (n - rr) + c * (R - rr) + d * (N + rr - n - R)
    # trec_eval -c prints 0 for a judged query absent from the run (trec_eval.c blanks the
    # value named 'utility'; a parameterised name keeps the dummy ranking's value)
    return np.where(jr.in_run, value, 0.0)


def _tie_utility(
    jr: JudgedRankings, *, a: float, b: float, c: float, d: float, N: int, rel: int
) -> np.ndarray:
    """E[Utility]: the utility at E[RR] (linear in RR when n is fixed)."""
    if not jr.cut:
        return utility(jr, a=a, b=b, c=c, d=d, N=N, rel=rel)
    return _value(jr, expected_retrieved(jr, jr.relevant(rel)), a, b, c, d, N, rel)


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
    source=f"Lewis, 'The TREC-4 filtering track', TREC-4, 1995; {KEEN}, Fig. 1; "
    "trec_eval 10.0 m_utility.c",
    better="higher",
    undefined=(),
    ties=_tie_utility,
    core_kernel="utility",
    trec_eval=TrecEval(
        "utility", params="doubles", default=(1.0, -1.0, 0.0, 0.0), compute="utility"
    ),
    checked_by=(
        "tests/measures/test_property_measures.py::test_utility_of_a_missing_topic_is_0_as_in_trec_eval",
        "tests/measures/test_property_measures.py::test_measures_equal_oracle",
    ),
    notes="Unjudged retrieved documents count as non-relevant (b). N defaults to 0 as in "
    "trec_eval, so d != 0 needs N. Aggregated by the mean, as trec_eval. A judged query "
    "absent from the run (complete=True, trec_eval -c) scores 0, as trec_eval prints for its "
    "default utility (with parameters it keeps its dummy ranking's b + c R + d (N - 1 - R)).",
)
def utility(
    jr: JudgedRankings, *, a: float, b: float, c: float, d: float, N: int, rel: int
) -> np.ndarray:
    return _value(jr, rel_ret(jr, rel), a, b, c, d, N, rel)
