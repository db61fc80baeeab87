"""Tie policies, against a plain sort written for the test."""

import pytest

from cranfield import evaluate, judge, read_qrels, read_run

QRELS = {"q": {"a": 1, "b": 0, "c": 1, "d10": 1, "d9": 0}}
RUN = {"q": {"a": 1.0, "d10": 2.0, "b": 2.0, "c": 2.0, "d9": 2.0}}


def test_trec_policy_breaks_ties_by_docno_descending():
    jr = judge(read_qrels(QRELS), read_run(RUN), ties="trec")
    # expected: scores 2.0 first: d9 > d10 > c > b (byte order descending), then a
    grades = [QRELS["q"][d] for d in ["d9", "d10", "c", "b", "a"]]
    assert jr.grades.tolist() == grades
    assert jr.tie_ids.tolist() == [0, 0, 0, 0, 1]


def test_given_policy_keeps_the_given_order():
    jr = judge(read_qrels(QRELS), read_run(RUN), ties="given")
    assert jr.grades.tolist() == [QRELS["q"][d] for d in ["a", "d10", "b", "c", "d9"]]


def test_random_policy_is_reproducible_and_only_permutes_ties():
    orders = set()
    for seed in range(20):
        jr = judge(read_qrels(QRELS), read_run(RUN), ties="random", seed=seed)
        assert jr.grades.tolist()[-1] == 1  # 'a' (score 1.0) stays last
        orders.add(tuple(jr.grades.tolist()))
        again = judge(read_qrels(QRELS), read_run(RUN), ties="random", seed=seed)
        assert again.grades.tolist() == jr.grades.tolist()
    assert len(orders) > 1


def test_unknown_policy_is_a_parameter_error():
    from cranfield.errors import ParameterError

    with pytest.raises(ParameterError, match="tie policy"):
        evaluate(QRELS, RUN, "AP", ties="best")
