"""Judged@k against ir_measures' own implementation: equal where the definitions agree, and
different exactly as docs/measures.md says where they do not."""

from __future__ import annotations

import pytest

import cranfield

ir_measures = pytest.importorskip("ir_measures")


def _theirs(qrels, run, k):
    values = ir_measures.iter_calc([ir_measures.Judged @ k], qrels, run)
    return {m.query_id: m.value for m in values}


def _ours(qrels, run, k):
    qrels = {q: qrels[q] for q in run}  # the run's queries: no others scored as empty rankings
    res = cranfield.evaluate(qrels, run, [f"Judged@{k}"])
    return dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))


QRELS = {
    "q1": {"a": 1, "b": 0, "c": 2, "x": 0},
    "q2": {"d": 1, "e": 0},
    "q3": {"f": 0, "g": -1},
}


def test_equal_with_at_least_k_documents_distinct_scores_and_no_negative_grades():
    run = {
        "q1": {"a": 5.0, "z": 4.0, "b": 3.0, "y": 2.0, "c": 1.0, "w": 0.5},
        "q2": {"v": 3.0, "d": 2.5, "u": 2.0, "e": 1.0},
    }
    qrels = {q: QRELS[q] for q in run}
    for k in (1, 2, 3, 4):
        ours, theirs = _ours(qrels, run, k), _theirs(qrels, run, k)
        assert ours == theirs, k


def test_fewer_than_k_documents_divide_by_k_here_by_n_in_ir_measures():
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}  # 3 judged of 3 retrieved
    assert _ours(QRELS, run, 10)["q1"] == pytest.approx(0.3)
    assert _theirs(QRELS, run, 10)["q1"] == pytest.approx(1.0)


def test_a_negative_grade_is_in_the_pool_but_not_judged_here_judged_in_ir_measures():
    run = {"q3": {"f": 2.0, "g": 1.0}}
    assert _ours(QRELS, run, 2)["q3"] == pytest.approx(0.5)
    assert _theirs(QRELS, run, 2)["q3"] == pytest.approx(1.0)
