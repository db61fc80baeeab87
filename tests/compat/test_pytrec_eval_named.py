"""The pytrec_eval work-alike's result dict made whole in the compiled core
(``_core.DictPlan.named``, taken when every requested measure is a core kernel): the real
pytrec_eval package's values, the queries in the order of the run and the measures in the
order of the general path; and evaluators that differ only in ``judged_docs_only_flag`` do
not share the core's plan."""

from __future__ import annotations

import numpy as np
import pytest

from cranfield.compat import pytrec_eval as workalike

real = pytest.importorskip("pytrec_eval")

QRELS = {
    "q2": {"d1": 2, "d2": 0, "d3": 1, "d4": -1},
    "q1": {"d1": 1, "d5": 1},
    "q3": {"d9": 1},
}
RUN = {
    "q3": {},  # judged, mapped to no documents: evaluated as an empty ranking
    "q9": {"d1": 1.0},  # no judgments: not evaluated
    "q2": {"d1": 0.5, "x": 3.0, "d2": 0.5, "d3": 0.25, "d4": 2.0, "y": 0.1},
    "q1": {"d5": 1.0, "d1": 1.0 + 1e-12, "z": 1.0},  # tie only in single precision
}
KERNEL_MEASURES = {"map", "ndcg_cut.10", "P.10", "recip_rank", "recall.5", "num_rel_ret"}


def _bits(result: dict) -> dict:
    return {q: {m: float(v).hex() for m, v in row.items()} for q, row in result.items()}


@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("level", [1, 2])
def test_the_core_made_dict_is_pytrec_evals(judged_only: bool, level: int) -> None:
    ev = workalike.RelevanceEvaluator(QRELS, KERNEL_MEASURES, level, judged_only)
    assert ev._fast is not None and ev._fast.named is not None  # the core makes the dict
    got = ev.evaluate(RUN)
    expected = real.RelevanceEvaluator(QRELS, KERNEL_MEASURES, level, judged_only).evaluate(RUN)
    assert _bits(got) == _bits(expected)
    general = workalike.RelevanceEvaluator(QRELS, KERNEL_MEASURES, level, judged_only)
    general._fast = None
    by_python = general.evaluate(RUN)
    assert list(got) == list(by_python) == ["q3", "q2", "q1"]  # the run's order
    assert [list(row) for row in got.values()] == [list(row) for row in by_python.values()]
    assert got == ev.evaluate(RUN)  # reused: the same


NONEMPTY_RUN = {q: docs for q, docs in RUN.items() if docs}  # pytrec_eval 0.5.11 crashes on {}


@pytest.mark.parametrize(
    "measures",
    [
        {"official"},
        {"bpref", "gm_map", "gm_bpref", "iprec_at_recall", "11pt_avg", "runid", "num_q"},
        {"iprec_at_recall.0.25,0.5,0.75", "relstring"},
    ],
    ids=lambda m: ",".join(sorted(m)),
)
@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("level", [1, 2])
def test_bpref_iprec_and_geometric_means_are_made_in_the_core(
    measures: set, judged_only: bool, level: int
) -> None:
    """trec_eval 9.0.8's rounding of recall levels, the logarithm of a geometric mean's value
    and pytrec_eval's 0 for runid and relstring, computed by the core's kernels."""
    ev = workalike.RelevanceEvaluator(QRELS, measures, level, judged_only)
    assert ev._fast is not None and ev._fast.named is not None  # the core makes the dict
    got = ev.evaluate(NONEMPTY_RUN)
    expected = real.RelevanceEvaluator(QRELS, measures, level, judged_only).evaluate(NONEMPTY_RUN)
    assert _bits(got) == _bits(expected)


def test_the_general_path_sees_the_qrels_as_given() -> None:
    """The general path's judgments come from the core's index: a caller's later change to
    its dicts changes nothing (pytrec_eval copies them too)."""
    qrels = {"q1": {"d1": 1, "d2": 0}}
    ev = workalike.RelevanceEvaluator(qrels, {"map", "P.2"})
    qrels["q1"]["d2"] = 1
    qrels["q2"] = {"d1": 1}
    run = {"q1": {"d1": 1.0, "d2": np.float64(0.5)}, "q2": {"d1": 1.0}}  # not plain: general
    assert ev.evaluate(run) == {"q1": {"map": 1.0, "P_2": 0.5}}


def test_evaluators_differing_in_judged_only_do_not_share_a_plan() -> None:
    measures = {"P.2", "map"}
    first = workalike.RelevanceEvaluator(QRELS, measures, 1, False).evaluate(RUN)
    second = workalike.RelevanceEvaluator(QRELS, measures, 1, True).evaluate(RUN)
    assert _bits(first) == _bits(real.RelevanceEvaluator(QRELS, measures, 1, False).evaluate(RUN))
    assert _bits(second) == _bits(real.RelevanceEvaluator(QRELS, measures, 1, True).evaluate(RUN))
    assert first["q2"]["P_2"] != second["q2"]["P_2"]  # x and d4 dropped under -J


def test_a_run_the_core_does_not_take_gives_the_general_paths_dict() -> None:
    ev = workalike.RelevanceEvaluator(QRELS, {"map", "P.5"})
    run = {"q2": {"d1": True, "d2": 0.5}}  # a bool score: not the plain shape
    expected = real.RelevanceEvaluator(QRELS, {"map", "P.5"}).evaluate({"q2": {"d2": 0.5}})
    with pytest.raises(workalike.ParameterError, match="document 'd1'"):
        ev.evaluate(run)
    assert _bits(ev.evaluate({"q2": {"d2": 0.5}})) == _bits(expected)


@pytest.mark.parametrize(
    ("qrels", "message"),
    [
        ({"q1": {"d1": 1}, "q2": {"d1": 1.0}}, "query 'q2', document 'd1': the grade must be"),
        ({"q1": {"d1": 1}, 2: {"d1": 1}}, "query 2 must be a string mapped to a dict"),
        ({"q1": {"d1": 1}, "q2": [("d1", 1)]}, "query 'q2' must be a string mapped"),
    ],
)
def test_qrels_the_core_does_not_index_are_still_checked(qrels: dict, message: str) -> None:
    with pytest.raises(workalike.ParameterError, match=message):
        workalike.RelevanceEvaluator(qrels, {"map"})


def test_numpy_grades_take_the_general_path_with_pytrec_evals_values() -> None:
    np = pytest.importorskip("numpy")
    qrels = {q: {d: np.int64(g) for d, g in docs.items()} for q, docs in QRELS.items()}
    ev = workalike.RelevanceEvaluator(qrels, KERNEL_MEASURES)
    assert ev._fast is None  # not the plain shape: not indexed by the core
    expected = real.RelevanceEvaluator(QRELS, KERNEL_MEASURES).evaluate(RUN)
    assert _bits(ev.evaluate(RUN)) == _bits(expected)
