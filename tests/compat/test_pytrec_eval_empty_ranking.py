"""A judged query with nothing relevant and an empty ranking: every value as pytrec_eval's.

pytrec_eval (trec_eval 9.0.8) gives ``iprec_at_recall_*`` NaN there (0 relevant documents
found out of 0: the interpolated precision has no point to take), ``map`` 0 and ``P_*`` 0; the
work-alike reproduces each value, NaN included, rather than a 0 of its own.  Measure by
measure: pytrec_eval 0.5.11 given every measure at once on the empty ranking ends the
interpreter (a crash no single measure shows), which the work-alike does not.
"""

from __future__ import annotations

import math

import pytest

from cranfield.compat import pytrec_eval as work_alike

pytrec_eval = pytest.importorskip("pytrec_eval")

QRELS = {"q1": {"d1": 0, "d3": -1}, "q2": {"d2": 1}}
RUNS = [
    {"q1": {}, "q2": {"d2": 1.0}},
    {"q1": {"x": 1.0}, "q2": {"d2": 1.0, "d9": 2.0}},
    {"q1": {"d1": 3.0, "d3": 3.0}, "q2": {}},
]


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


#: where pytrec_eval's value is not a value: its ``runid`` reads memory never written
#: (4.65e-310 seen), and its ``11pt_avg`` on the empty ranking is 0 in one call and NaN in
#: another (trec_eval 9.0.8's code sums a 0/0 there: NaN, the work-alike's value, checked
#: below); both differ between runs of this test, so they are not compared
UNSTABLE = {"runid"}
CASES = [
    pytest.param(m, i, id=f"{m}-run{i}")
    for m in sorted(pytrec_eval.supported_measures)
    for i in range(len(RUNS))
    if m not in UNSTABLE and (m, i) != ("11pt_avg", 0)
]


@pytest.mark.parametrize(("measure", "i"), CASES)
def test_every_value_is_pytrec_evals(measure, i):
    run = RUNS[i]
    want = pytrec_eval.RelevanceEvaluator(QRELS, {measure}).evaluate(run)
    got = work_alike.RelevanceEvaluator(QRELS, {measure}).evaluate(run)
    assert sorted(got) == sorted(want)
    for q in want:
        assert sorted(got[q]) == sorted(want[q])
        wrong = {m: (got[q][m], v) for m, v in want[q].items() if not same(got[q][m], v)}
        assert wrong == {}, q


def test_the_empty_ranking_gives_nan_interpolated_precision_and_every_measure_at_once():
    got = work_alike.RelevanceEvaluator(QRELS, set(work_alike.supported_measures)).evaluate(RUNS[0])
    assert math.isnan(got["q1"]["iprec_at_recall_0.00"]) and got["q1"]["map"] == 0.0
    assert got["q2"]["iprec_at_recall_0.00"] == 1.0
    assert math.isnan(got["q1"]["11pt_avg"]) and got["q2"]["11pt_avg"] == 1.0
