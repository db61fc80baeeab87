"""Tabular inputs: pandas/polars DataFrames, pyarrow Tables, JSON lines, JSON, Parquet."""

import gzip
import json
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cranfield
import cranfield.io.from_columns as from_columns
import cranfield.io.json_tables as json_tables
from cranfield.errors import InputError
from cranfield.io import read_qrels, read_run

QRELS = {
    "query_id": ["1", "1", "007", "10"],
    "doc_id": ["a", "b", "c", "a"],
    "relevance": [1, 0, 2, 1],
}
QRELS_DICT = {"1": {"a": 1, "b": 0}, "007": {"c": 2}, "10": {"a": 1}}
RUN = {"query_id": ["1", "1", "007"], "doc_id": ["a", "b", "c"], "score": [2.0, 1.5, 3.0]}
RUN_DICT = {"1": {"a": 2.0, "b": 1.5}, "007": {"c": 3.0}}


def pyterrier(cols: dict) -> dict:
    names = {"query_id": "qid", "doc_id": "docno", "relevance": "label"}
    return {names.get(k, k): v for k, v in cols.items()}


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


# ------------------------------------------------------------------------------ JSON lines


def jsonl(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


@pytest.fixture(params=["arrow", "python"])
def jsonl_path(request, monkeypatch):
    """Run a test through Arrow's JSON reader and through the line-by-line reader."""
    if request.param == "python":
        monkeypatch.setattr(json_tables, "jsonl_arrow", lambda *a: None)
    return request.param


def test_jsonl_qrels_and_runs(tmp_path, jsonl_path):
    qrows = [
        {"query_id": q, "doc_id": d, "relevance": g, "iteration": "0"}
        for q, d, g in zip(*QRELS.values(), strict=True)
    ]
    assert read_qrels(write(tmp_path, "q.jsonl", jsonl(qrows))).to_dict() == QRELS_DICT
    rrows = [{"qid": q, "docno": d, "score": s} for q, d, s in zip(*RUN.values(), strict=True)]
    r = read_run(write(tmp_path, "r.ndjson", jsonl(rrows)))
    assert r.to_dict() == RUN_DICT and r.name == "r.ndjson"
    r = read_run(write(tmp_path, "r.jsonl.gz", gzip.compress(jsonl(rrows))))
    assert r.to_dict() == RUN_DICT


def test_jsonl_integer_ids_and_blank_lines(tmp_path, jsonl_path):
    data = b'{"qid": 7, "docno": 1, "score": 1}\n\n  \n{"qid": "007", "docno": "1", "score": 2.5}'
    r = read_run(write(tmp_path, "r.jsonl", data))
    assert r.to_dict() == {"7": {"1": 1.0}, "007": {"1": 2.5}}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "docno": "b", "score": "x"}\n',
            "line 2: score 'x' is not a number",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n\n{"qid": 1.5, "docno": "b", "score": 1}\n',
            "line 3: query id 1.5 is a floating-point",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": 1, "docno": "a", "score": 2}\n',
            r"line 2: document 'a' is listed twice for query '1' \(first at line 1\)",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "docno": "b", "score": NaN}\n',
            "line 2: score is NaN",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "docno": "b"}\n',
            "line 2: missing key 'score'",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "docno": "b", "score": 2\n',
            "line 2: invalid JSON at column 38",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}\n[1, 2]\n',
            "line 2: expected a JSON object, got a JSON array",
        ),
        (
            b'{"qid": "1", "docno": "a", "score": 1}{"qid": "1", "docno": "b", "score": 1}\n',
            "line 1: invalid JSON .*Extra data",
        ),
        (b'{"qid": "1", "docno": "a", "score": true}\n', "line 1: score True is not a number"),
        (b'{"q": "1", "docno": "a", "score": 1}\n', "no column with query ids"),
        (b"\n \n", "file is empty"),
        (b'{"qid": "\xff"}\n', r"line 1: undecodable byte 0xff"),
    ],
)
def test_jsonl_errors_name_line_and_problem(tmp_path, jsonl_path, content, message):
    p = write(tmp_path, "r.jsonl", content)
    with pytest.raises(InputError, match=message) as exc:
        read_run(p)
    assert str(exc.value).startswith(f"{p}: ")


def test_jsonl_qrels_duplicates(tmp_path, jsonl_path):
    data = jsonl(
        [
            {"qid": "1", "docno": "a", "label": 1},
            {"qid": "2", "docno": "a", "label": 1},
            {"qid": "1", "docno": "a", "label": 0},
        ]
    )
    with pytest.raises(
        InputError, match=r"line 3: document 'a' is judged with different grades \(1 and 0\)"
    ):
        read_qrels(write(tmp_path, "q.jsonl", data))


def test_jsonl_arrow_and_python_readers_agree(tmp_path, monkeypatch):
    rng = np.random.default_rng(11)
    rows = [
        {"qid": int(q), "docno": f"d{i}", "score": float(s), "rank": i}
        for i, (q, s) in enumerate(zip(rng.integers(0, 9, 300), rng.random(300), strict=True))
    ]
    p = write(tmp_path, "r.jsonl", jsonl(rows))
    fast = read_run(p)
    monkeypatch.setattr(json_tables, "jsonl_arrow", lambda *a: None)
    slow = read_run(p)
    assert fast.to_dict() == slow.to_dict()
    assert fast.query_ids == slow.query_ids and np.array_equal(fast.ranks, slow.ranks)
    assert np.array_equal(fast.scores, slow.scores)


# ------------------------------------------------------------------------------------ JSON


def test_json_records_and_nested_forms(tmp_path):
    records = [{"qid": q, "docno": d, "score": s} for q, d, s in zip(*RUN.values(), strict=True)]
    assert read_run(write(tmp_path, "r.json", json.dumps(records).encode())).to_dict() == RUN_DICT
    assert read_run(write(tmp_path, "n.json", json.dumps(RUN_DICT).encode())).to_dict() == RUN_DICT
    assert (
        read_qrels(write(tmp_path, "q.json", json.dumps(QRELS_DICT).encode())).to_dict()
        == QRELS_DICT
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'[{"qid": "1", "docno": "a", "score": 1}, {"qid": "1", "docno": "b", "score": null}]',
            "item 1: missing score",
        ),
        (b'{"1": {"a": "0.5"}}', "query '1', document 'a': score '0.5' is not a number"),
        (b'{"1": [1, 2]}', "query '1': expected a mapping of document ids to scores, got list"),
        (b'"hello"', "expected a JSON object .* or a list of objects, got a JSON string"),
        (b"[]", "the JSON list is empty"),
        (b"{}", "the mapping is empty"),
        (b'{"1": {"a": 1,\n "b": }}', "line 2: invalid JSON at column 7"),
        (pd.DataFrame(RUN).to_json().encode(), "written column by column .* orient='records'"),
    ],
)
def test_json_errors(tmp_path, content, message):
    with pytest.raises(InputError, match=message):
        read_run(write(tmp_path, "r.json", content))


# --------------------------------------------------------------------------------- Parquet


def test_parquet(tmp_path):
    pq.write_table(pa.table(QRELS), tmp_path / "q.parquet")
    assert read_qrels(tmp_path / "q.parquet").to_dict() == QRELS_DICT
    pd.DataFrame(pyterrier(RUN)).to_parquet(tmp_path / "r.pq")
    r = read_run(tmp_path / "r.pq")
    assert r.to_dict() == RUN_DICT and r.name == "r.pq"
    (tmp_path / "r.parquet.gz").write_bytes(gzip.compress((tmp_path / "r.pq").read_bytes()))
    assert read_run(tmp_path / "r.parquet.gz").to_dict() == RUN_DICT


def test_parquet_errors(tmp_path):
    pq.write_table(
        pa.table({"qid": ["1", "1"], "docno": ["a", "a"], "score": [1.0, 2.0]}),
        tmp_path / "d.parquet",
    )
    with pytest.raises(InputError, match=r"d.parquet: row 1: document 'a' is listed twice"):
        read_run(tmp_path / "d.parquet")
    with pytest.raises(InputError, match=r"d.parquet: no column with relevance grades"):
        read_qrels(tmp_path / "d.parquet")
    pq.write_table(pa.table(RUN).slice(0, 0), tmp_path / "e.parquet")
    with pytest.raises(InputError, match=r"e.parquet: no results \(the file has no rows\)"):
        read_run(tmp_path / "e.parquet")
    (tmp_path / "bad.parquet").write_bytes(b"this is not parquet")
    with pytest.raises(InputError, match=r"bad.parquet: not a readable Parquet file"):
        read_run(tmp_path / "bad.parquet")
    (tmp_path / "zero.parquet").write_bytes(b"")
    with pytest.raises(InputError, match=r"zero.parquet: file is empty"):
        read_run(tmp_path / "zero.parquet")


def test_jsonl_ranks_and_large_integer_scores(tmp_path, jsonl_path):
    data = b'{"qid": "1", "docno": "a", "score": 12345678901234567891, "rank": 1}\n'
    data += b'{"qid": "1", "docno": "b", "score": 2, "rank": "2"}\n'
    r = read_run(write(tmp_path, "r.jsonl", data))
    assert r.scores.tolist() == [float(12345678901234567891), 2.0]  # rounded as float() does
    assert r.ranks is None and r.rank_problem == "line 2: rank '2' is not an integer"


def test_every_input_but_a_polars_frame_works_without_polars(tmp_path):
    """polars is not a dependency: with it missing (an import of it fails), tables, Parquet,
    JSON lines and TREC text on the Arrow path all read and evaluate."""
    import subprocess
    import sys

    pq.write_table(pa.table(RUN), tmp_path / "run.parquet")
    rows = zip(*QRELS.values(), strict=True)
    (tmp_path / "qrels.jsonl").write_text(
        "".join(json.dumps(dict(zip(QRELS, row, strict=True))) + "\n" for row in rows)
    )
    (tmp_path / "run.txt").write_text("1 Q0 a 1 2.0 t\n1 Q0 b 2 1.5 t\n007 Q0 c 1 3.0 t\n")
    code = f"""
import sys
sys.modules["polars"] = None  # as if not installed: importing it raises ImportError
import pandas as pd
import cranfield.io.trec.text as text_io, cranfield.io.trec.arrow_parse as trec_arrow
text_io.FAST_PATH_BYTES = 0
trec_arrow.ARROW_IDS_ROWS = 0
from cranfield import evaluate, read_qrels, read_run
qrels = read_qrels({str(tmp_path / "qrels.jsonl")!r})
runs = [read_run({str(tmp_path / "run.parquet")!r}), read_run({str(tmp_path / "run.txt")!r}),
        read_run(pd.DataFrame({RUN!r}))]
assert runs[1].docs.is_arrow
for run in runs:
    print(evaluate(qrels, run, ["P@1", "AP"]).values.tolist())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # 007: c (grade 2) at rank 1; 1: a (1) at rank 1, b (0) at 2; 10 has no results and is
    # judged: an empty ranking scores 0 (complete, the default mean over the judged queries)
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and len(set(lines)) == 1
    assert json.loads(lines[0]) == [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]
