"""cranfield.Evaluator: the same values as cranfield.evaluate, bit for bit, and no state kept
between calls (pytrec_eval #38 is the counter-example)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield

MEASURES = ["AP", "nDCG@10", "P@10", "RR", "R@5"]
DOCS = [f"d{i}" for i in range(8)]
QIDS = ["1", "2", "3"]

qrels_st = st.dictionaries(
    st.sampled_from(QIDS),
    st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), min_size=1),
    min_size=1,
)
run_st = st.dictionaries(
    st.sampled_from([*QIDS, "9"]),
    st.dictionaries(st.sampled_from(DOCS), st.sampled_from([0.0, 0.5, 1.0, 2.0])),  # ties
)


def evaluate_quiet(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(*args, **kw)


def outcome(fn, *args, **kw):
    """The per-query table of ``fn(...)``, or the message of the InputError it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kw).per_query()
        except cranfield.InputError as e:
            return str(e)


def same(a, b):
    return a == b if isinstance(a, str) or isinstance(b, str) else a.equals(b)


@settings(max_examples=80, deadline=None)
@given(qrels_st, run_st, run_st)
def test_same_values_as_evaluate_and_no_state_kept(qrels, run, other):
    ev = cranfield.Evaluator(qrels, MEASURES)
    first = outcome(ev.evaluate, run)
    outcome(ev.evaluate, other)  # a call in between must not change the next
    again = outcome(ev.evaluate, run)
    expected = outcome(cranfield.evaluate, qrels, run, MEASURES)
    assert same(first, expected)
    assert same(again, expected)


# random qrels may hold a query without relevant documents (AP undefined: declared, warned);
# evaluate_query also warns that the qrels' other queries "were skipped" (left to evaluation.py)
@pytest.mark.filterwarnings("ignore::cranfield.errors.UndefinedMeasureWarning")
@pytest.mark.filterwarnings("ignore:run. .* judged quer.* no results and were skipped:UserWarning")
@settings(max_examples=60, deadline=None)
@given(qrels_st, st.sampled_from(QIDS), st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2)))
def test_evaluate_query_matches_evaluate(qrels, qid, ranking):
    if qid not in qrels:
        return
    ranking = {d: float(s) for d, s in ranking.items()}
    ev = cranfield.Evaluator(qrels, MEASURES)
    if not ranking:  # an empty ranking is refused, as evaluate refuses a run of none
        with pytest.raises(cranfield.InputError, match="no scores"):
            ev.evaluate_query(qid, ranking)
        return
    got = ev.evaluate_query(qid, ranking)
    ev.evaluate_query(qid, {"zz": 1.0})  # a call in between must not change the next
    assert ev.evaluate_query(qid, ranking) == got
    expected = outcome(cranfield.evaluate, qrels, {qid: ranking}, MEASURES, complete=False)
    assert got == {m: float(expected.loc[qid, m]) for m in MEASURES}


def test_options_are_keyword_only_and_checked():
    with pytest.raises(cranfield.ParameterError, match="unknown option"):
        cranfield.Evaluator({"1": {"a": 1}}, ["AP"], nonsense=1)
