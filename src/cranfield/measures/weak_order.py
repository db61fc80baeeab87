"""Precision and search length for weak orderings: ESL, PRR, PRECALL, EP, ER.

Raghavan, Jung & Bollmann, "A critical investigation of recall and precision as measures of
retrieval system performance", ACM TOIS 7(3), 1989; Cooper, "Expected search length",
American Documentation 19(1), 1968 (as Raghavan et al. present it, sec. 3.2.1).

A user wants ``NR`` relevant documents (or ``recall = x``, ``NR = x R``), or stops after ``ND``
documents, and reads the levels of the weak ordering top down.  The final level ``l_f`` is the
first at which the need is met; ``j`` and ``t_r`` count the non-relevant and relevant documents
before it, ``r`` and ``i`` the relevant and non-relevant documents in it, ``s = NR - t_r``
(Raghavan et al. sec. 3.1), ``t`` the documents before it and ``k = ND - t``.

- ESL (Cooper; Raghavan et al. eq. 3.3, Lemma 3.1): ``esl = j + i s / (r + 1)``;
- PRR = P(rel | retr) (Theorem 3.1, eq. 3.3, 3.4): ``NR / (NR + esl)``;
- PRECALL (eq. 2.2): ``NR / (NR + j + s i / r)``;
- EP(NR=k): the expected precision ``E[k / (k + j + V)]``, ``V`` the non-relevant documents of
  ``l_f`` read before its ``s``-th relevant one (negative hypergeometric,
  ``P_v = C(s-1+v, v) C(r-s+i-v, i-v) / C(r+i, i)``, Raghavan et al. sec. 3.2.2): an exact sum over
  ``v = 0..i``, linear in the size of the final level;
- EP(ND=k) = PRR(ND=k) = ``(t_r + k r / (r + i)) / ND`` (Theorems 3.3, 3.4);
  ER(ND=k) = ``(t_r + k r / (r + i)) / R`` (sec. 3.4).

Interpolation at a recall level ``x`` (``NR = x R`` need not be an integer):

- ``intuitive`` (sec. 3.2.2, eq. 3.4): the formula at the fractional ``NR`` (``s`` real,
  Lemma 3.1); at ``x = 0`` the limit ``s -> 0``: ``(r+1)/(r+i+1)`` for PRR and ``r/(r+i)`` for
  PRECALL if the first level holds a relevant document, else 0 (sec. 3.2.2);
- ``ceiling`` (sec. 2.2, eq. 2.3; for PRR sec. 3.2.2): the value at ``NR = ceil(x R)`` (at least
  1), after the interpolation of sec. 2.2 that raises the precision at each simple recall point
  to the largest precision at any later point ("chain effect"), i.e.
  ``max_{h >= ceil(x R)} value(NR = h)``.

With the ``weak`` tie policy the levels are the tie groups; under any other policy the ordering
is linear (every document its own level: PRR = PRECALL = EP = precision at the NR-th relevant
document, ESL = the non-relevant documents above it).  Only retrieved documents are read: a
need the ranking cannot meet (fewer than NR relevant documents retrieved) is undefined
(declared value and a warning); include every document of the collection in the run (a last
level of zero scores) to evaluate a complete weak ordering as the paper does.  ``x R`` is
snapped to the nearest integer when within 1e-9 of it (so that ``0.3 * 10`` is 3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.final_level import (  # FinalLevel, ...: their old path
    FinalLevel,
    ceiling,
    esl,
    expected_precision_at_nr,
    expected_relevant_at,
    precall,
    prr,
    wanted_nr,
)
from cranfield.measures.params import MAX_COUNT
from cranfield.measures.registry import REL, Param, Undefined, measure
from cranfield.measures.sources import COOPER, RAGHAVAN
from cranfield.ties.expected import refuse_cut

TIES = (
    "tests/ties/test_ties_enumeration_weak_order.py::"
    "test_weak_order_measures_equal_their_definitions_by_enumeration"
)
R89 = "tests/ties/test_ties_raghavan.py::"
INTERPOLATIONS = ("ceiling", "intuitive")


NR = Param(
    "NR",
    "int",
    None,
    "relevant documents wanted (stopping criterion)",
    at_least=1,
    at_most=MAX_COUNT,
)
RECALL = Param(
    "recall", "float", None, "recall level x wanted: NR = x R", at_least=0.0, at_most=1.0
)
ND = Param(
    "ND", "int", None, "documents retrieved (stopping criterion)", at_least=1, at_most=MAX_COUNT
)


def _interpolation(default: str) -> Param:
    return Param(
        "interpolation",
        "str",
        default,
        "for recall=x: ceiling (NR = ceil(xR), sec. 2.2) or intuitive (fractional NR, eq. 3.4)",
        choices=INTERPOLATIONS,
    )


def _one_of(*names: str, interpolation: bool = False) -> Callable[[dict[str, Any]], str | None]:
    """A parameter check: exactly one stopping criterion; interpolation only with recall."""

    def check(given: dict[str, Any]) -> str | None:
        present = [n for n in names if given.get(n) is not None]
        if len(present) != 1:
            return "give exactly one of " + ", ".join(f"{n}=" for n in names)
        if interpolation and "interpolation" in given and present[0] != "recall":
            return "interpolation= applies to recall= only"
        return None

    return check


# ---------------------------------------------------------------------------- NR criterion


def _unreachable(jr: JudgedRankings, nr: np.ndarray, rel: int) -> np.ndarray:
    """The ranking holds fewer than max(1, ceil(NR)) relevant documents (and R > 0); the same
    for both interpolations: the ceiling's max over h >= ceil(xR) is then empty."""
    target = np.maximum(np.ceil(nr), 1.0)
    result: np.ndarray = (jr.num_rel(rel) > 0) & (target > jr.count(jr.relevant(rel)))
    return result


def _no_rel(jr: JudgedRankings, rel: int = 1, ND: int | None = None, **_: object) -> np.ndarray:
    result: np.ndarray = jr.num_rel(rel) == 0
    return result


def _unmet(
    jr: JudgedRankings,
    NR: int | None = None,
    recall: float | None = None,
    ND: int | None = None,
    interpolation: str = "intuitive",
    rel: int = 1,
    **_: object,
) -> np.ndarray:
    if ND is not None:
        return np.zeros(jr.num_queries, dtype=bool)
    nr = wanted_nr(jr, NR, recall, rel)
    return _unreachable(jr, nr, rel)


UNMET = "the ranking holds fewer relevant documents than wanted (NR > relevant retrieved)"
SPLIT = (
    "whether the ranking meets the need becomes a matter of which documents the cut keeps, "
    "and the measure is undefined where it does not (the model reads whole levels)"
)
NO_REL0 = Undefined("the query has no relevant document (R = 0)", "0", _no_rel)
UNMET0 = Undefined(UNMET, "0", _unmet)


# ---------------------------------------------------------------------------- measures
def _esl_measure(weak: bool) -> Callable[..., np.ndarray]:
    def f(jr: JudgedRankings, *, NR: int | None, recall: float | None, rel: int) -> np.ndarray:
        refuse_cut(jr, "ESL", SPLIT)
        nr = wanted_nr(jr, NR, recall, rel)
        fin = FinalLevel(jr, weak, nr, rel)
        return np.where(fin.ok, esl(fin), np.nan)

    f.__doc__ = (
        "Cooper's expected search length over the levels of the weak ordering: j + i s / (r + 1)."
    )
    return f


measure(
    "ESL",
    params=(NR, RECALL, REL),
    summary="expected search length: non-relevant documents read before the NR-th relevant",
    formula="ESL = j + i s / (r + 1)  (recall=x: NR = x R, s real, Lemma 3.1)",
    source=f"{RAGHAVAN}, sec. 3.2.1, eq. 3.3, Lemma 3.1; {COOPER}",
    better="lower",
    checked_by=(R89 + "test_expected_search_length_examples", TIES),
    check=_one_of("NR", "recall"),
    undefined=(
        Undefined("the query has no relevant document (R = 0)", "nan", _no_rel),
        Undefined(UNMET, "nan (the mean is then nan)", _unmet),
    ),
    notes="Lower is better.  Levels = tie groups under --ties weak, else single documents.",
    ties=_esl_measure(True),
)(_esl_measure(False))


def _prr_measure(weak: bool) -> Callable[..., np.ndarray]:
    def f(
        jr: JudgedRankings,
        *,
        NR: int | None,
        recall: float | None,
        ND: int | None,
        interpolation: str,
        rel: int,
    ) -> np.ndarray:
        if ND is not None:
            return expected_relevant_at(jr, weak, ND, rel) / float(ND)
        refuse_cut(jr, "PRR with NR= or recall=", SPLIT)
        nr = wanted_nr(jr, NR, recall, rel)
        if recall is not None and interpolation == "ceiling":
            return ceiling(jr, weak, nr, rel, "PRR")
        return prr(FinalLevel(jr, weak, nr, rel))

    f.__doc__ = (
        "PRR = NR / (NR + j + i s / (r + 1)) over the levels; PRR(ND=k) = (t_r + k r/(r+i)) / ND."
    )
    return f


measure(
    "PRR",
    params=(NR, RECALL, ND, _interpolation("intuitive"), REL),
    summary="probability of relevance P(rel | retr) when NR relevant (or ND) are wanted",
    formula="PRR = NR / (NR + j + i s / (r + 1));  PRR(ND=k) = (t_r + k r/(r+i)) / ND",
    source=f"{RAGHAVAN}, sec. 2.3, Theorem 3.1, eq. 3.3, 3.4, Theorems 3.3-3.4",
    better="higher",
    checked_by=(R89 + "test_examples_2_1_to_2_4", TIES),
    check=_one_of("NR", "recall", "ND", interpolation=True),
    undefined=(NO_REL0, UNMET0),
    notes="recall=x with interpolation=intuitive (default; eq. 3.4) or ceiling (sec. 3.2.2).",
    ties=_prr_measure(True),
    tie_form="definition",  # Raghavan et al.: defined on weak orderings
)(_prr_measure(False))


def _precall_measure(weak: bool) -> Callable[..., np.ndarray]:
    def f(
        jr: JudgedRankings,
        *,
        NR: int | None,
        recall: float | None,
        interpolation: str,
        rel: int,
    ) -> np.ndarray:
        refuse_cut(jr, "PRECALL", SPLIT)
        nr = wanted_nr(jr, NR, recall, rel)
        if recall is not None and interpolation == "ceiling":
            return ceiling(jr, weak, nr, rel, "PRECALL")
        return precall(FinalLevel(jr, weak, nr, rel))

    f.__doc__ = "PRECALL = NR / (NR + j + s i / r) over the levels (eq. 2.2; ceiling: eq. 2.3)."
    return f


measure(
    "PRECALL",
    params=(NR, RECALL, _interpolation("ceiling"), REL),
    summary="precision assuming the level's non-relevant are spread over r intervals (SMART)",
    formula="PRECALL = NR / (NR + j + s i / r)  (recall=x: NR = ceil(xR), eq. 2.3, or x R)",
    source=f"{RAGHAVAN}, sec. 2.1-2.2, eq. 2.2, 2.3; intuitive-PRECALL sec. 3.4",
    better="higher",
    checked_by=(
        R89 + "test_examples_2_1_to_2_4",
        "tests/ties/test_ties_enumeration_weak_order.py::"
        "test_ceiling_interpolation_is_the_max_over_later_recall_points",
    ),
    check=_one_of("NR", "recall", interpolation=True),
    undefined=(NO_REL0, UNMET0),
    notes="Kept for comparison with older work; the paper finds it has no clear meaning. "
    "recall=x: ceiling (default, the historical 'ceiling-PRECALL') or intuitive.",
    ties=_precall_measure(True),
    tie_form="definition",  # Raghavan et al.: defined on weak orderings
)(_precall_measure(False))


def _ep_measure(weak: bool) -> Callable[..., np.ndarray]:
    def f(jr: JudgedRankings, *, NR: int | None, ND: int | None, rel: int) -> np.ndarray:
        if ND is not None:
            return expected_relevant_at(jr, weak, ND, rel) / float(ND)
        refuse_cut(jr, "EP(NR=...)", SPLIT)
        assert NR is not None  # one of NR and ND, checked by the declaration
        return expected_precision_at_nr(jr, weak, int(NR), rel)

    f.__doc__ = (
        "EP(NR=k) = sum_v P_v k / (k + j + v), V negative hypergeometric; EP(ND=k) = PRR(ND=k)."
    )
    return f


measure(
    "EP",
    params=(NR, ND, REL),
    summary="expected precision when the user stops at the NR-th relevant (or ND-th) document",
    formula="EP(NR=k) = sum_v P_v k / (k + j + v);  EP(ND=k) = (t_r + k r/(r+i)) / ND",
    source=f"{RAGHAVAN}, sec. 2.3 (Example 2.3), sec. 3.2.2 (P_v), Theorems 3.3-3.4",
    better="higher",
    checked_by=(R89 + "test_example_2_3_expected_precision_is_eleven_eighteenths", TIES),
    check=_one_of("NR", "ND"),
    undefined=(NO_REL0, UNMET0),
    notes="EP(NR=k) is exact (a sum over the final level, no sampling); EP(ND=k) = PRR(ND=k).",
    ties=_ep_measure(True),
)(_ep_measure(False))


def _er_measure(weak: bool) -> Callable[..., np.ndarray]:
    def f(jr: JudgedRankings, *, ND: int, rel: int) -> np.ndarray:
        R = jr.num_rel(rel).astype(np.float64)
        out = np.zeros(jr.num_queries)
        num = expected_relevant_at(jr, weak, ND, rel)
        np.divide(num, R, out=out, where=R > 0)
        return out

    f.__doc__ = "ER(ND=k) = (t_r + k r / (r + i)) / R over the levels."
    return f


measure(
    "ER",
    params=(ND, REL),
    summary="expected recall P(retr | rel) when the user stops after ND documents",
    formula="ER(ND=k) = (t_r + k r / (r + i)) / R",
    source=f"{RAGHAVAN}, sec. 3.4 (ER, Theorem 3.5)",
    better="higher",
    checked_by=(R89 + "test_theorem_3_5_er_ep_lie_on_the_intuitive_precall_graph", TIES),
    check=_one_of("ND"),
    undefined=(NO_REL0,),
    ties=_er_measure(True),
)(_er_measure(False))
