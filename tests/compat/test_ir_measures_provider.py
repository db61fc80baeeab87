"""cranfield.compat.ir_measures computes the measures ir_measures gives to pytrec_eval as that
provider does: IPrec's recall levels (trec_eval 9.0.8's ``(long) (r R + 0.9)``, the level
printed with two decimals), SetF's beta (trec_eval's ``set_F`` parameter, beta squared, not
a square root and back) and the run's scores in single precision.  Every expected value is the
real ir_measures package's (0.4.3, its default pipeline), computed here on the same input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.compat import ir_measures as workalike

peer = pytest.importorskip("ir_measures")


def per_query(module, measures: list[str], qrels, run) -> dict:
    objs = [module.parse_measure(m) for m in measures]
    return {(x.query_id, str(x.measure)): x.value for x in module.iter_calc(objs, qrels, run)}


def assert_same(measures: list[str], qrels, run) -> None:
    ours = per_query(workalike, measures, qrels, run)
    theirs = per_query(peer, measures, qrels, run)
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        assert ours[key] == value or (math.isnan(value) and math.isnan(ours[key])), key
    mine = [workalike.parse_measure(m) for m in measures]
    agg = workalike.calc_aggregate(mine, qrels, run)
    want = peer.calc_aggregate([peer.parse_measure(m) for m in measures], qrels, run)
    assert {str(k): v for k, v in agg.items()} == {str(k): v for k, v in want.items()}


def test_iprec_uses_trec_eval_9s_recall_levels():
    """R = 4, recall 0.3: trec_eval 9.0.8 (pytrec_eval) needs (long) (1.2 + 0.9) = 2 relevant
    documents, precision 2/3 at d3; 10.0's lround(1.2) = 1 would give 1.0 at d1."""
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d4": 1, "d5": 1}}
    run = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    got = workalike.calc_aggregate([workalike.IPrec @ 0.3], qrels, run)
    assert got == {workalike.IPrec @ 0.3: 2 / 3}
    assert_same(["IPrec@0.3"], qrels, run)


def test_iprec_levels_are_those_ir_measures_prints():
    """ir_measures asks pytrec_eval for iprec_at_recall_{r:.2f}: 0.334 is level 0.33."""
    qrels = {"q1": {f"d{i}": 1 for i in range(9)}}
    run = {"q1": {f"d{i}": float(i % 3) for i in range(0, 18, 2)}}
    assert_same([f"IPrec@{r}" for r in (0.0, 0.1, 0.334, 0.5, 0.556, 0.7, 1.0)], qrels, run)
    assert_same(["IPrec(rel=2)@0.3", "IPrec(judged_only=True)@0.5"], qrels, run)


def test_setf_takes_trec_evals_beta_as_is():
    """ir_measures' SetF(beta=b) is trec_eval's set_F.b: (b + 1) P R / (b P + R); going
    through cranfield's SetF(beta=sqrt(b)) gave 0.39999999999999997 for 0.4 at b = 2."""
    qrels = {"q1": {f"d{i}": 1 for i in range(1, 8)} | {"d2": 0}}
    run = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    got = workalike.calc_aggregate([workalike.SetF(beta=2.0)], qrels, run)
    p, r = 2 / 3, 2 / 6  # d1 and d3 relevant of 3 retrieved; of 6 relevant
    assert (
        got
        == {workalike.SetF(beta=2.0): (2 + 1) * p * r / (2 * p + r)}
        == {workalike.SetF(beta=2.0): 0.4}
    )
    assert_same([f"SetF(beta={b})" for b in (2.0, 0.5, 3.0, 0.3, 1.5, 5.0, 0.1)], qrels, run)


def test_scores_are_compared_in_single_precision_as_pytrec_eval():
    """0.1 and 0.1 + 1e-12 are one float (single precision): tied, so ordered by document id
    descending, d1 above d0; in double precision d0 would come first."""
    qrels = {"q1": {"d0": 0, "d1": 1, "d2": 1, "d3": 0}}
    run = {"q1": {"d0": 0.1 + 1e-12, "d1": 0.1, "d2": 1e-300, "d3": 0.0}}
    got = workalike.calc_aggregate([workalike.RR], qrels, run)
    assert got == {workalike.RR: 1.0}
    assert_same(["AP", "RR", "P@1", "nDCG@2", "Success@1", "R@1", "IPrec@0.5"], qrels, run)


docs = st.sampled_from([f"d{i}" for i in range(7)])
scores = st.sampled_from([0.0, 1e-300, 0.5, 0.5 + 1e-9, 1.0, 2.0, -1.0])


@st.composite
def collections(draw):
    queries = draw(st.lists(st.sampled_from(["q1", "q2", "q3"]), unique=True, min_size=1))
    # a grade >= 0 in every judged query: pytrec_eval 0.5.11 (the peer's provider) dies of a
    # segmentation fault on a query whose only judgments are negative
    qrels = {
        q: {**draw(st.dictionaries(docs, st.integers(-1, 3), max_size=5)), "d9": 0} for q in queries
    }
    run_queries = draw(st.lists(st.sampled_from(["q1", "q2", "q4"]), unique=True, min_size=1))
    run = {q: draw(st.dictionaries(docs, scores, min_size=1, max_size=7)) for q in run_queries}
    return qrels, run


MEASURES = [
    "IPrec@0.2",
    "IPrec@0.33",
    "IPrec(rel=2)@0.6",
    "SetF",
    "SetF(beta=2.0)",
    "SetF(beta=0.25)",
    "SetF(rel=2,beta=3.0)",
    "SetF(judged_only=True,beta=0.5)",
    "AP",
    "nDCG@3",
    "P(rel=2)@2",
]


@settings(max_examples=60, deadline=None)
@given(collections())
def test_equal_to_ir_measures_on_generated_dicts(data):
    """Ties, scores equal in single precision only, judged queries the run lacks, queries
    without judgments, negative grades."""
    qrels, run = data
    if not set(qrels) & set(run):
        return  # ir_measures' pytrec_eval provider needs one query in common
    assert_same(MEASURES, qrels, run)
