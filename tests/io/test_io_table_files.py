"""Tabular input files: JSON lines (through Arrow's reader and line by line), JSON, Parquet,
and every input but a polars frame without polars installed."""

import gzip
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from _tables import QRELS, QRELS_DICT, RUN, RUN_DICT, pyterrier

import cranfield.io.json_tables as json_tables
from cranfield.errors import InputError
from cranfield.io import read_qrels, read_run


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
import cranfield.io.trec.core as trec_core
trec_core.ARROW_IDS_ROWS = 0
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
