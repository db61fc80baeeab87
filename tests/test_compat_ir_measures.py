"""cranfield.compat.ir_measures: ir_measures' API, values equal to the real package's default
providers (pytrec_eval for these measures) on trec_eval's test files and generated dicts."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import CONFORMANCE, need
from cranfield.compat import ir_measures as workalike
from cranfield.errors import MeasureError

peer = pytest.importorskip("ir_measures")

# the measures whose values equal ir_measures' (see docs/coming-from.md for the others)
EQUAL = [
    "AP",
    "AP@5",
    "nDCG",
    "nDCG@10",
    "P@5",
    "P(rel=2)@5",
    "R@3",
    "RR",
    "MRR(rel=2)",
    "Rprec",
    "Bpref",
    "infAP",
    "IPrec@0.2",
    "Success@2",
    "SetP",
    "SetRelP",
    "SetR",
    "SetAP",
    "NumRet",
    "NumRelRet",
    "AP(judged_only=True)",
    "P(judged_only=True)@3",
    "nDCG(judged_only=True)@5",
]


def same(ours, theirs) -> None:
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a.query_id == b.query_id
        assert a.value == b.value or (math.isnan(a.value) and math.isnan(b.value)), (a, b)


def both(qrels, run):
    mine = [workalike.parse_measure(m) for m in EQUAL]
    peers = [peer.parse_measure(m) for m in EQUAL]
    ours = list(workalike.iter_calc(mine, qrels, run))
    theirs = list(peer.iter_calc(peers, qrels, run))
    # in the order of EQUAL within each query (ir_measures groups by provider)
    ours.sort(key=lambda x: (x.query_id, mine.index(x.measure)))
    theirs.sort(key=lambda x: (x.query_id, peers.index(x.measure)))
    return ours, theirs


def test_equal_to_ir_measures_on_trec_evals_test_files():
    qrels = list(workalike.read_trec_qrels(str(need(CONFORMANCE / "qrels.test"))))
    run = list(workalike.read_trec_run(str(need(CONFORMANCE / "results.test"))))
    assert sorted(qrels) == sorted(peer.read_trec_qrels(str(CONFORMANCE / "qrels.test")))
    ours, theirs = both(qrels, run)
    same(ours, theirs)
    agg = workalike.calc_aggregate([workalike.AP, workalike.nDCG @ 10], qrels, run)
    want = peer.calc_aggregate([peer.AP, peer.nDCG @ 10], qrels, run)
    assert {str(k): v for k, v in agg.items()} == {str(k): v for k, v in want.items()}


docs = st.sampled_from([f"d{i}" for i in range(6)])
scores = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0])


@st.composite
def collections(draw):
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3"]), unique=True, min_size=1))
    # pytrec_eval (ir_measures' provider) crashes on empty rankings and all-negative
    # judgments (tests/test_compat_pytrec_eval.py): every judged query has a grade >= 0
    qrels = {
        q: {**draw(st.dictionaries(docs, st.integers(-1, 3), max_size=4)), "d9": 0} for q in queries
    }
    run_queries = draw(st.lists(st.sampled_from(["q1", "q2", "q4"]), unique=True, min_size=1))
    run = {q: draw(st.dictionaries(docs, scores, min_size=1, max_size=6)) for q in run_queries}
    return qrels, run


@settings(max_examples=60, deadline=None)
@given(collections())
def test_equal_to_ir_measures_on_generated_dicts(data):
    """Ties, judged queries the run lacks, queries without judgments, negative grades."""
    qrels, run = data
    if not set(qrels) & set(run):
        return  # ir_measures' pytrec_eval provider needs one query in common
    ours, theirs = both(qrels, run)
    same(ours, theirs)


def test_the_grammar_prints_as_ir_measures():
    for text in ["AP", "nDCG@10", "P(rel=2)@5", "RBP(p=0.5)", "IPrec@0.2", "SetRelP", "MAP"]:
        assert str(workalike.parse_measure(text)) == str(peer.parse_measure(text))
    assert workalike.nDCG @ 10 == workalike.parse_measure("nDCG@10")
    assert workalike.P(rel=2) @ 5 == workalike.parse_measure("P(rel=2)@5")
    assert {workalike.AP: 1}[workalike.parse_measure("AP")] == 1
    trec = ["P_5", "ndcg_cut.10,20", "map", "iprec_at_recall_0.10", "recall.5", "P", "ndcg"]
    for text in [*trec, "ndcg_cut", "iprec_at_recall", "success", "map_cut"]:
        ours = [str(m) for m in workalike.parse_trec_measure(text)]
        assert ours == [str(m) for m in peer.parse_trec_measure(text)], text


def test_the_declarations_are_ir_measures():
    for name, (at, declared) in workalike._DECLARED.items():
        theirs = peer.measures.registry[name]
        assert name == theirs.NAME and getattr(theirs, "AT_PARAM", "cutoff") == at
        assert set(theirs.SUPPORTED_PARAMS) == set(declared), name
        for key, value in declared.items():
            default = theirs.SUPPORTED_PARAMS[key].default
            if value is workalike.NOT_PROVIDED:
                assert type(default) is object, (name, key)
            else:
                assert default == value, (name, key)


def test_the_readers_take_the_text_itself():
    text = "q1 0 d1 1\nq1 0 d2 0\n"
    assert list(workalike.read_trec_qrels(text)) == list(peer.read_trec_qrels(text))
    text = "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n"
    assert list(workalike.read_trec_run(text)) == list(peer.read_trec_run(text))


def test_an_evaluator_reads_the_qrels_once_and_is_reusable():
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    ev = workalike.evaluator([workalike.P @ 2, workalike.AP], qrels)
    run = {"q1": {"d1": 2.0, "d2": 1.0}}
    first = ev.calc_aggregate(run)
    assert first == {workalike.P @ 2: 0.5, workalike.AP: 0.5}  # by hand: d1 at rank 1, R = 2
    assert ev.calc_aggregate(run) == first
    assert next(iter(ev.iter_calc(run))) == workalike.Metric("q1", workalike.P @ 2, 0.5)


def test_bad_measures_are_one_clear_error():
    with pytest.raises(MeasureError, match="unknown measure 'nDGC'"):
        workalike.parse_measure("nDGC@10")
    with pytest.raises(MeasureError, match="unknown parameter 'k'"):
        workalike.parse_measure("P(k=2)")
    with pytest.raises(MeasureError, match="is not a trec_eval measure"):
        workalike.parse_trec_measure("mapp")
