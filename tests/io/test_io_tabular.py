"""Tabular inputs in memory: pandas and polars DataFrames (and LazyFrames), pyarrow Tables and
record batches: column naming, ids, grades and scores, duplicates and emptiness, the run tag
and the given order."""

import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from _tables import QRELS, QRELS_DICT, RUN, RUN_DICT, pyterrier

import cranfield
import cranfield.io.from_columns as from_columns
from cranfield.errors import InputError
from cranfield.io import read_qrels, read_run

FRAMES = {
    "pandas": pd.DataFrame,
    "polars": pl.DataFrame,
    "polars-lazy": lambda d: pl.DataFrame(d).lazy(),
    "arrow": pa.table,
    "arrow-batch": pa.RecordBatch.from_pydict,
}


@pytest.mark.parametrize("make", FRAMES.values(), ids=FRAMES.keys())
@pytest.mark.parametrize("style", [dict, pyterrier], ids=["ir_measures", "pyterrier"])
def test_frames_of_every_library_and_naming(make, style):
    q = read_qrels(make(style(QRELS)))
    assert q.to_dict() == QRELS_DICT
    assert q.query_ids == ("007", "1", "10")  # strcmp order
    r = read_run(make(style(RUN)))
    assert r.to_dict() == RUN_DICT
    assert r.query_ids == ("1", "007")  # order of first appearance
    assert r.ranks.tolist() == [1, 2, 1]
    assert r.name == "run" and r.source in ("<DataFrame>", "<Table>")


def test_ranx_query_column_name():
    r = read_run(pd.DataFrame({"q_id": ["1"], "doc_id": ["a"], "score": [1.0]}))
    assert r.to_dict() == {"1": {"a": 1.0}}


def test_other_columns_are_ignored():
    df = pd.DataFrame({**RUN, "iteration": "Q0", "query": "text", "docid": [5, 6, 7]})
    assert read_run(df).to_dict() == RUN_DICT
    df = pd.DataFrame({**QRELS, "iteration": 0})
    assert read_qrels(df).to_dict() == QRELS_DICT


# ------------------------------------------------------------------------------------ ids


def test_integer_ids_become_decimal_text_and_strings_stay():
    df = pd.DataFrame({"qid": [7, 7, 10], "docno": ["007", "7", "x"], "score": [1, 2, 3]})
    r = read_run(df)
    assert r.query_ids == ("7", "10")
    assert r.docs.to_list() == ["007", "7", "x"]
    assert r.scores.dtype == np.float64
    df = pd.DataFrame({"qid": np.array([1, 2], dtype=np.uint8), "docno": [3, 4], "label": 1})
    assert read_qrels(df).to_dict() == {"1": {"3": 1}, "2": {"4": 1}}


def test_mixed_object_column_converts_element_wise():
    df = pd.DataFrame(
        {"qid": pd.Series([1, "007"], dtype=object), "docno": ["a", "b"], "score": 1.0}
    )
    assert read_run(df).query_ids == ("1", "007")


def test_categorical_ids():
    df = pd.DataFrame({"qid": pd.Categorical(["2", "1", "2"]), "docno": list("abc"), "score": 1.0})
    assert read_run(df).to_dict() == {"2": {"a": 1.0, "c": 1.0}, "1": {"b": 1.0}}
    pdf = pl.DataFrame({"qid": ["2", "1"], "docno": ["a", "b"], "label": [1, 2]})
    assert read_qrels(pdf.with_columns(pl.col("qid").cast(pl.Categorical))).to_dict() == {
        "1": {"b": 2},
        "2": {"a": 1},
    }


@pytest.mark.parametrize(
    ("column", "values", "message"),
    [
        (
            "qid",
            [1.0, 2.0, 3.0],
            "column 'qid': query ids must be strings or integers, not floating",
        ),
        ("docno", [True, False, True], "column 'docno': document ids must be .* not booleans"),
        ("qid", ["1", None, "2"], "row 1: missing query id"),
        ("docno", ["a", "", "c"], "row 1: empty document id"),
        ("qid", pd.Series([1, "2", 2.5], dtype=object), "row 2: query id 2.5 is a floating-point"),
    ],
)
def test_bad_ids(column, values, message):
    df = pd.DataFrame({"qid": ["1", "1", "2"], "docno": ["a", "b", "c"], "score": 1.0})
    df[column] = values
    with pytest.raises(InputError, match=message) as exc:
        read_run(df)
    assert str(exc.value).startswith("<DataFrame>: ")


# ---------------------------------------------------------------------- grades and scores


def test_grades_accept_integers_booleans_and_integral_floats():
    for values in (
        [1, 0, -1],
        [1.0, 0.0, -1.0],
        pd.array([1, 0, -1], "Int8"),
    ):
        df = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "label": values})
        assert read_qrels(df).to_dict() == {"1": {"a": 1, "b": 0, "c": -1}}
    df = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "label": [True, False]})
    assert read_qrels(df).to_dict() == {"1": {"a": 1, "b": 0}}


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1, 1.5, 0], r"row 1: grade 1.5 is not an integer"),
        ([1, np.nan, 0], r"row 1: grade nan is not an integer"),
        (["1", "2", "0"], "column 'label': relevance grades must be integers, not strings"),
        (pd.array([1, None, 0], "Int64"), "row 1: missing relevance grade"),
        (np.array([1, 2**64 - 1, 0], dtype=np.uint64), "row 1: grade 18446744073709551615 is out"),
    ],
)
def test_bad_grades(values, message):
    df = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c"], "label": values})
    with pytest.raises(InputError, match=message):
        read_qrels(df)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.0, np.nan], "row 1: score is NaN"),
        ([np.inf, 1.0], "row 0: score is infinite"),
        (["1", "2"], "column 'score': scores must be numbers, not strings"),
        ([True, False], "column 'score': scores must be numbers, not booleans"),
        (pd.array([1.0, None], "Float64"), "row 1: missing score"),
    ],
)
def test_bad_scores(values, message):
    df = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "score": values})
    with pytest.raises(InputError, match=message):
        read_run(df)


def test_scores_keep_full_precision():
    df = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "score": [0.1, 1 / 3]})
    assert read_run(df).scores.tolist() == [0.1, 1 / 3]
    df = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "score": np.array([0.1, 2], "float32")})
    assert read_run(df).scores.tolist() == [float(np.float32(0.1)), 2.0]


# ------------------------------------------------------------------ duplicates, emptiness


def test_duplicate_run_document_names_both_rows():
    df = pd.DataFrame({"qid": ["1", "2", "1"], "docno": ["a", "a", "a"], "score": [1, 2, 3]})
    with pytest.raises(
        InputError, match=r"row 2: document 'a' is listed twice for query '1' \(first at row 0\)"
    ):
        read_run(df)


@pytest.mark.parametrize(
    ("grades", "what"), [([1, 1], "twice .grade 1."), ([1, 2], "with different grades .1 and 2.")]
)
def test_duplicate_qrels_pair_is_an_error_same_grade_or_not(grades, what):
    df = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "a"], "label": grades})
    with pytest.raises(InputError, match=f"row 1: document 'a' is judged {what} .*first at row 0"):
        read_qrels(df)


def test_empty_frames():
    with pytest.raises(InputError, match="no judgments"):
        read_qrels(pd.DataFrame(QRELS).iloc[:0])
    with pytest.raises(InputError, match="no results"):
        read_run(pl.DataFrame(RUN).head(0))


@pytest.mark.parametrize(
    ("df", "message"),
    [
        (
            pd.DataFrame({"qid": ["1"], "docno": ["a"]}),
            r"no column with scores: expected 'score'; columns: 'qid', 'docno'",
        ),
        (
            pd.DataFrame({"qid": ["1"], "docid": [3], "score": [1.0]}),
            "docid' is PyTerrier's internal",
        ),
        (
            pd.DataFrame({"qid": ["1"], "query_id": ["1"], "docno": ["a"], "score": [1.0]}),
            "both 'query_id' and 'qid'",
        ),
        (pd.DataFrame(RUN).set_index("query_id"), "'query_id' is the index: call reset_index"),
    ],
)
def test_missing_or_ambiguous_columns(df, message):
    with pytest.raises(InputError, match=message):
        read_run(df)


def test_not_a_frame():
    with pytest.raises(InputError, match="expected a DataFrame, got a pandas Series"):
        read_run(pd.Series([1, 2]))
    with pytest.raises(InputError, match="cannot read a run from a int"):
        read_run(3)


# ------------------------------------------------------------------- run tag, given order


def test_run_column_names_the_run():
    df = pd.DataFrame({**RUN, "run": "bm25"})
    r = read_run(df)
    assert r.name == r.tag == "bm25"
    assert read_run(df, name="mine").name == "mine"
    with pytest.raises(InputError, match="column 'name': the table holds 2 runs .'x', 'y'."):
        read_run(pd.DataFrame({**RUN, "name": ["x", "y", "x"]}))


def _ap_given(run_df) -> float:
    qrels = {"1": {"a": 1, "b": 0}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(qrels, run_df, ["AP"], ties="given").aggregate()["AP"]


def test_given_order_is_the_rank_column_else_row_order():
    # a and b tie on score; the only relevant document is a
    rows = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, 1.0]})
    assert _ap_given(rows) == 1.0  # row order: a first
    assert _ap_given(rows.iloc[::-1]) == 0.5  # row order: b first
    assert _ap_given(rows.assign(rank=[2, 1])) == 0.5  # rank column: b first
    assert _ap_given(rows.assign(rank=[0, 1])) == 1.0  # 0-based ranks (PyTerrier) work too
    # trec order ignores both: score ties go by docno descending (b first)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert cranfield.evaluate({"1": {"a": 1}}, rows, ["AP"]).aggregate()["AP"] == 0.5


def test_bad_rank_column_only_matters_for_given_order():
    rows = pd.DataFrame(
        {"qid": ["1", "1"], "docno": ["a", "b"], "score": [2.0, 1.0], "rank": [1, 1.5]}
    )
    r = read_run(rows)
    assert r.ranks is None and r.rank_problem == "row 1: rank 1.5 is not an integer"
    with pytest.raises(InputError, match="'given' tie policy .* row 1: rank 1.5 is not an integer"):
        _ap_given(rows)


def test_row_order_ranks_with_interleaved_queries():
    codes = np.array([0, 1, 0, 2, 1, 0], dtype=np.int32)
    seen: dict[int, int] = {}
    expected = []
    for c in codes.tolist():
        seen[c] = seen.get(c, 0) + 1
        expected.append(seen[c])
    assert from_columns.row_order_ranks(codes).tolist() == expected


def test_large_frames_keep_ids_in_arrow(monkeypatch):
    rng = np.random.default_rng(3)
    n = 2000
    df = pd.DataFrame(
        {
            "qid": rng.integers(0, 30, n),
            "docno": [f"d{i}" for i in rng.permutation(n)],
            "score": rng.random(n),
        }
    )
    small = read_run(df)
    monkeypatch.setattr(from_columns, "LIST_IDS_ROWS", 0)
    large = read_run(df)
    assert large.docs.is_arrow and not small.docs.is_arrow
    assert large.docs.to_list() == small.docs.to_list()
    assert large.query_ids == small.query_ids and np.array_equal(large.qcodes, small.qcodes)
    dup = df.copy()
    dup.loc[1500, ["qid", "docno"]] = dup.loc[20, ["qid", "docno"]].to_numpy()
    with pytest.raises(InputError, match=r"row 1500: document .* listed twice .*first at row 20"):
        read_run(dup)


def test_to_frame_round_trip():
    q = read_qrels(QRELS_DICT)
    assert read_qrels(q.to_frame()).to_dict() == QRELS_DICT
    assert list(q.to_frame(style="pyterrier").columns) == ["qid", "docno", "label"]
    r = read_run(pd.DataFrame(RUN).assign(rank=[5, 6, 1]))
    f = r.to_frame()
    assert list(f.columns) == ["query_id", "doc_id", "score", "rank"]
    back = read_run(f)
    assert back.to_dict() == RUN_DICT and back.ranks.tolist() == [5, 6, 1]
    with pytest.raises(cranfield.ParameterError, match="unknown frame style"):
        q.to_frame(style="ranx")
