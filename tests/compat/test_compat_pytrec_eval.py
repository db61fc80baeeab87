"""cranfield.compat.pytrec_eval: pytrec_eval's API and values.

Expected values come from the real pytrec_eval (pytrec-eval-terrier, trec_eval 9.0.8 inside),
on trec_eval's own test files, on coordination-level runs over classic collections (large tie
groups) and on generated dicts; the peer defects are checked against values worked out by hand.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import CONFORMANCE, need
from cranfield.compat import pytrec_eval as workalike
from cranfield.errors import ParameterError

peer = pytest.importorskip("pytrec_eval")

TREC = CONFORMANCE


def same(a: dict, b: dict) -> None:
    """Equal query for query and measure for measure, bit for bit (NaN equals NaN)."""
    assert list(a) == list(b)
    for qid in a:
        assert list(a[qid]) == list(b[qid]), qid
        for m, x in a[qid].items():
            y = b[qid][m]
            assert x == y or (math.isnan(x) and math.isnan(y)), (qid, m, x, y)


def both(qrels, run, measures, *args) -> tuple[dict, dict]:
    ours = workalike.RelevanceEvaluator(qrels, measures, *args).evaluate(run)
    theirs = peer.RelevanceEvaluator(qrels, measures, *args).evaluate(run)
    # pytrec_eval's per-query dicts follow trec_eval's table, as ours: compare in that order,
    # queries in the run's order
    return ours, {q: theirs[q] for q in ours if q in theirs} | theirs


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("judged_only", [False, True])
def test_equal_to_pytrec_eval_on_trec_evals_test_files(level, judged_only):
    with open(need(TREC / "qrels.test")) as f:
        qrels = workalike.parse_qrel(f)
    with open(need(TREC / "results.test")) as f:
        run = workalike.parse_run(f)
    ours, theirs = both(qrels, run, workalike.supported_measures, level, judged_only)
    assert len(ours) == 3
    same(ours, theirs)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["adi", "med", "cran"])
def test_equal_to_pytrec_eval_on_classic_collections_with_ties(name):
    from test_ties_collections import coordination_run

    qrels_path, run = coordination_run(name)  # thousands of documents share a score
    with open(qrels_path) as f:
        qrels = peer.parse_qrel(f)
    for level in (1, 2):
        ours, theirs = both(qrels, run, workalike.supported_measures, level)
        same(ours, theirs)


def test_the_readers_equal_pytrec_evals():
    with open(need(TREC / "results.test")) as f:
        lines = f.readlines()
    assert workalike.parse_run(lines) == peer.parse_run(lines)
    with open(need(TREC / "qrels.test")) as f:
        lines = f.readlines()
    assert workalike.parse_qrel(lines) == peer.parse_qrel(lines)


def test_a_bad_line_is_one_error_naming_it():
    with pytest.raises(ParameterError, match="run line 2: expected 6 fields"):
        workalike.parse_run(["q 0 d 1 1.0 r\n", "q 0 e 1\n"])
    with pytest.raises(ParameterError, match="qrels line 1: grade 'x' is not an integer"):
        workalike.parse_qrel(["q 0 d x\n"])


MEASURE_SETS = [
    workalike.supported_measures,
    {"P_5", "P.10,2", "ndcg_cut", "iprec_at_recall_0.10", "Rprec_mult_0.5", "set_F.0.25"},
    {"official"},
    {"P", "P_7", "success.2,3", "map_cut_1", "11pt_avg", "utility.1,2,3,4"},
]

docs = st.sampled_from([f"d{i}" for i in range(8)])
grades = st.integers(-2, 3)
scores = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0, 1e-300, 3.25])  # few: many ties


@st.composite
def collections(draw):
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q10"]), unique=True))
    qrels = {q: draw(st.dictionaries(docs, grades, max_size=6)) for q in queries}
    run_queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3", "q4"]), unique=True))
    run = {q: draw(st.dictionaries(docs, scores, max_size=8)) for q in run_queries}
    return qrels, run


@settings(max_examples=300, deadline=None)
@given(
    collections(),
    st.sampled_from(range(len(MEASURE_SETS))),
    st.integers(1, 3),
    st.booleans(),
)
def test_equal_to_pytrec_eval_on_generated_dicts(data, which, level, judged_only):
    """Ties, empty rankings, queries without judgments, negative grades, unjudged documents."""
    qrels, run = data
    # pytrec_eval crashes (segmentation fault) on an empty ranking of a judged query and on a
    # query whose judgments are all negative: test_inputs_that_crash_pytrec_eval
    assume(all(run[q] for q in run if qrels.get(q)))
    assume(all(max(g.values()) >= 0 for g in qrels.values() if g))
    ours, theirs = both(qrels, run, MEASURE_SETS[which], level, judged_only)
    same(ours, theirs)


# ------------------------------------------------------------------------- peer defects
QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d4": 1, "d5": 2}}
RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
# by hand: relevant d1 (rank 1), d3 (rank 3), d4 and d5 (not retrieved); R = 4
P5, P10 = 2 / 5, 2 / 10
AP = (1 / 1 + 2 / 3) / 4


def test_an_evaluator_can_be_reused():
    """pytrec_eval #38: a second evaluate() with parameterised measures gave other values."""
    ev = workalike.RelevanceEvaluator(QRELS, {"P.5,10", "map"})
    first = ev.evaluate(RUN)
    assert first == {"q1": {"map": AP, "P_5": P5, "P_10": P10}}
    for _ in range(3):
        assert ev.evaluate(RUN) == first
    other = {"q1": {"d4": 1.0}}  # d4 relevant, at rank 1
    assert ev.evaluate(other) == {"q1": {"map": 1 / 4, "P_5": 1 / 5, "P_10": 1 / 10}}
    assert ev.evaluate(RUN) == first


def test_empty_judgments_do_not_crash():
    """pytrec_eval #49 and #57: empty qrels, or a query without judgments, crashed."""
    assert workalike.RelevanceEvaluator({}, {"map"}).evaluate(RUN) == {}
    ev = workalike.RelevanceEvaluator({"q1": {}, "q2": {"d1": 1}}, {"map"})
    assert ev.evaluate({"q1": {"d1": 1.0}, "q2": {"d1": 1.0}}) == {"q2": {"map": 1.0}}
    assert ev.evaluate({}) == {}
    assert ev.evaluate({"q2": {}}) == {"q2": {"map": 0.0}}


def test_inputs_that_crash_pytrec_eval():
    """pytrec_eval 0.5.11 with {'official'} dies of a segmentation fault on an empty ranking
    of a judged query and on a query whose only judgment is negative (found by the generated
    test above).  By hand: nothing retrieved, or nothing relevant, gives 0 everywhere."""
    official = workalike.RelevanceEvaluator({"q1": {"d1": 1}}, {"official"})
    got = official.evaluate({"q1": {}})["q1"]
    assert got["num_ret"] == 0 and got["num_rel"] == 1 and got["num_rel_ret"] == 0
    assert got["map"] == got["P_5"] == got["recip_rank"] == got["Rprec"] == 0.0
    assert got["gm_map"] == math.log(1e-5)  # trec_eval's floor for the logarithm
    negative = workalike.RelevanceEvaluator({"q1": {"d1": -1}}, {"official"})
    got = negative.evaluate({"q1": {"d1": 1.0}})["q1"]
    assert got["num_ret"] == 1 and got["num_rel"] == 0 and got["num_rel_ret"] == 0
    assert got["map"] == got["P_5"] == got["bpref"] == 0.0


def test_iprec_measures_work_under_every_spelling():
    """pytrec_eval #41: iprec_at_recall with parameters gave no values.  By hand: R = 4,
    trec_eval 9.0.8 needs (long) (p * 4 + 0.9) relevant documents for recall p: 1 for 0.10
    (interpolated precision 1 at d1), 2 for 0.30 (the best precision from d3 on: 2/3), 3 for
    0.70 (never reached: 0)."""
    want = {"iprec_at_recall_0.10": 1.0, "iprec_at_recall_0.30": 2 / 3}
    for spelling in (
        {"iprec_at_recall_0.10", "iprec_at_recall_0.30"},
        {"iprec_at_recall.0.10,0.30"},
        {"iprec_at_recall.0.3", "iprec_at_recall_0.1"},
    ):
        got = workalike.RelevanceEvaluator(QRELS, spelling).evaluate(RUN)
        assert got == {"q1": want}, spelling
    got = workalike.RelevanceEvaluator(QRELS, {"iprec_at_recall.0.7"}).evaluate(RUN)
    assert got == {"q1": {"iprec_at_recall_0.70": 0.0}}


def test_trec_eval_10_cut_offs_on_request():
    """lround(0.1 * 4) = 0 relevant documents for recall 0.1 in 10.0: the interpolated
    precision at the first relevant document (1.0); lround(0.3 * 4) = 1: also 1.0, where
    9.0.8 needs 2 (2/3, above)."""
    ev = workalike.RelevanceEvaluator(QRELS, {"iprec_at_recall.0.1,0.3"}, trec_eval="10.0")
    assert ev.evaluate(RUN) == {"q1": {"iprec_at_recall_0.10": 1.0, "iprec_at_recall_0.30": 1.0}}


def test_measures_only_trec_eval_10_has_are_refused_by_default():
    with pytest.raises(ParameterError, match="unsupported measure 'rbp'"):
        workalike.RelevanceEvaluator(QRELS, {"rbp"})
    with pytest.raises(ValueError):  # as pytrec_eval
        peer.RelevanceEvaluator(QRELS, {"rbp"})
    ev = workalike.RelevanceEvaluator(QRELS, {"rbp"}, trec_eval="10.0")
    # trec_eval 10.0's rbp: p = 0.9, gain grade / top grade (1/2) for d1 and d3, at ranks 1, 3
    want = (1 - 0.9) * (0.5 + 0.5 * 0.9**2)
    assert ev.evaluate(RUN)["q1"]["rbp"] == pytest.approx(want, abs=1e-15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((QRELS, "map"), "a set of names"),
        ((QRELS, {"map"}, 0), "relevance_level must be an integer >= 1"),
        ((QRELS, {"mapp"}), "unsupported measure 'mapp'"),
        (({"q1": {"d1": "1"}}, {"map"}), "query 'q1', document 'd1': the grade must be"),
        ((["q1"], {"map"}), "query_relevance must be a dict"),
    ],
)
def test_bad_arguments_are_one_clear_error(args, message):
    with pytest.raises(ParameterError, match=message):
        workalike.RelevanceEvaluator(*args)


def test_a_bad_score_is_one_clear_error():
    ev = workalike.RelevanceEvaluator(QRELS, {"map"})
    with pytest.raises(ParameterError, match="query 'q1', document 'd1': the score must be"):
        ev.evaluate({"q1": {"d1": "high"}})


def test_aggregation_equals_pytrec_evals():
    values = [0.1, 0.25, 0.7]
    for m in ("map", "num_rel", "gm_map"):
        ours = workalike.compute_aggregated_measure(m, values)
        assert ours == pytest.approx(peer.compute_aggregated_measure(m, values), rel=1e-15)
    assert workalike.compute_aggregated_measure("map", [1 / 3, 2 / 3]) == 0.5


def test_tables_equal_pytrec_evals():
    assert workalike.supported_measures == set(peer.supported_measures)
    assert workalike.supported_nicknames == {k: set(v) for k, v in peer.supported_nicknames.items()}


def test_the_catalogues_measures_are_made_once_per_exact_spelling():
    """The cache of trec_eval's measure objects (the speed of an evaluator) never hands out a
    measure whose parameters only compare equal: -0.0 is not 0.0, 1 is not 1.0."""
    from cranfield.compat.trec_eval.adapters import _m

    assert _m("P", 5, rel=1) is _m("P", 5, rel=1)
    kw = {"b": 0.0, "c": 0.0, "d": 0.0, "N": 0, "rel": 1}
    negative, positive = _m("Utility", a=-0.0, **kw), _m("Utility", a=0.0, **kw)
    assert negative is not positive
    assert math.copysign(1.0, dict(negative.params)["a"]) == -1.0
    assert type(dict(_m("Rprec", rel=1, mult=1).params)["mult"]) is int
    assert type(dict(_m("Rprec", rel=1, mult=1.0).params)["mult"]) is float
