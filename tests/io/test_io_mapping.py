"""Nested dicts ``{qid: {docno: value}}`` (pytrec_eval / ranx form) and the Qrels builders."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield.data.tables as data_mod
from cranfield.data.tables import Qrels
from cranfield.errors import InputError
from cranfield.io import read_qrels, read_run


def test_dicts_with_string_and_integer_keys():
    q = read_qrels({"007": {"a": 1, 5: 2}, 7: {"a": 0}})
    assert q.to_dict() == {"007": {"5": 2, "a": 1}, "7": {"a": 0}}
    r = read_run({"1": {"b": 2, "a": 1.5}, "0": {"c": np.float32(0.5)}})
    assert r.query_ids == ("1", "0")
    assert r.ranks.tolist() == [1, 2, 1]  # the given order is the order of the dict
    assert r.to_dict() == {"1": {"b": 2.0, "a": 1.5}, "0": {"c": 0.5}}


def test_grades_accept_booleans_and_integral_floats():
    assert read_qrels({"1": {"a": True, "b": 2.0, "c": np.int8(-1)}}).to_dict() == {
        "1": {"a": 1, "b": 2, "c": -1}
    }


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({}, "no grades .the mapping is empty"),
        ({"1": {}}, "every query maps to an empty mapping"),
        ({"1": [("a", 1)]}, "query '1': expected a mapping of document ids to grades, got list"),
        ({"1": {"a": 1.5}}, "query '1', document 'a': grade 1.5 is not an integer"),
        ({"1": {"a": "1"}}, "query '1', document 'a': grade '1' is not an integer"),
        ({"1": {"a": None}}, "query '1', document 'a': missing relevance grade"),
        ({1.0: {"a": 1}}, "query 1.0, document 'a': query id 1.0 is a floating-point number"),
        ({"1": {True: 1}}, "document id True is a boolean"),
        ({1: {"a": 1}, "1": {"b": 1}}, "keys 1 and '1' both name query '1'"),
        ({"1": {7: 1, "7": 0}}, "query '1': keys 7 and '7' both name document '7'"),
    ],
)
def test_bad_qrels_dicts(obj, message):
    with pytest.raises(InputError, match=message) as exc:
        read_qrels(obj)
    assert str(exc.value).startswith("<qrels dict>: ")


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"1": {"a": "0.5"}}, "score '0.5' is not a number"),
        ({"1": {"a": True}}, "score True is not a number"),
        ({"1": {"a": float("nan")}}, "score is NaN"),
        ({"1": {"a": float("-inf")}}, "score is infinite"),
    ],
)
def test_bad_run_dicts(obj, message):
    with pytest.raises(InputError, match=message):
        read_run(obj)


# ----------------------------------------------- Qrels.from_rows: Python sort == Arrow sort

_IDS = st.text(
    alphabet=st.sampled_from([*"aAbZz019_#-", "é", "ß", "€", "𝄞", "\u00a0", "Ω"]),
    min_size=1,
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(_IDS, _IDS, st.integers(-2, 4)), max_size=40))
def test_python_and_arrow_qrels_builders_agree(rows):
    qids = [r[0] for r in rows]
    docs = [r[1] for r in rows]
    grades = [r[2] for r in rows]
    lines = np.arange(1, len(rows) + 1)
    a = Qrels.from_rows(qids, docs, grades, source="s", lines=lines)
    b = Qrels.from_columns(qids, docs, grades, source="s", lines=lines)
    # strcmp order of UTF-8 bytes, the order trec_eval sorts in
    expected = sorted(
        zip(qids, docs, grades, lines.tolist(), strict=True),
        key=lambda t: (t[0].encode(), t[1].encode()),
    )
    for q in (a, b):
        got = [
            (q.query_ids[i], q.doc_ids[r], int(q.grades[r]))
            for i in range(q.num_queries)
            for r in range(int(q.offsets[i]), int(q.offsets[i + 1]))
        ]
        assert [(t[0], t[1]) for t in got] == [(t[0], t[1]) for t in expected]
        assert len(set(q.query_ids)) == q.num_queries
    assert a.query_ids == b.query_ids
    assert a.doc_ids == b.doc_ids
    assert a.offsets.tolist() == b.offsets.tolist()
    # equal (query, doc) pairs keep input order in both (stable sorts)
    assert a.grades.tolist() == b.grades.tolist()
    assert a.lines.tolist() == b.lines.tolist()


def test_from_rows_switches_to_arrow_for_large_inputs(monkeypatch):
    monkeypatch.setattr(data_mod, "ARROW_SORT_ROWS", 2)
    q = Qrels.from_rows(["b", "a", "b"], ["x", "y", "a"], [1, 2, 3])
    assert q.query_ids == ("a", "b") and q.doc_ids == ["y", "a", "x"]
    assert q.grades.tolist() == [2, 3, 1]
