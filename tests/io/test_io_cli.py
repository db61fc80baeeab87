"""Bad input through the real command: exit status 2, one line naming file, line and problem,
no traceback; and every input format gives the same numbers."""

import gzip
import json

import pandas as pd
import pytest

QRELS = b"1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n"
RUN = b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n2 Q0 b 1 5 t\n2 Q0 a 2 4 t\n"


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


BAD_RUNS = {
    "r.txt": (RUN + b"1 Q0 d 4 x t\n", "line 6: score 'x' is not a number"),
    "r2.txt": (RUN + b"1 Q0 a 4 0 t\n", "line 6: document 'a' is listed twice for query '1'"),
    "r3.txt": (RUN + b"1 Q0 d 4 nan t\n", "line 6: score is NaN"),
    "r4.txt": (RUN + b"1 Q0 d 4\n", "line 6: expected at least 6 columns"),
    "r5.txt": (b"", "file is empty"),
    "r6.txt": (RUN + b"1 Q0 \xe9 4 0 t\n", "line 6: undecodable byte 0xe9"),
    "r.jsonl": (
        b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "docno": "a", "score": 2}\n',
        "line 2: document 'a' is listed twice",
    ),
    "r.json": (b'{"1": {"a": "high"}}', "query '1', document 'a': score 'high' is not a number"),
}


@pytest.mark.parametrize("name", BAD_RUNS)
def test_bad_run_exits_2_with_one_line(cli, tmp_path, name):
    content, message = BAD_RUNS[name]
    q = write(tmp_path, "q.txt", QRELS)
    r = write(tmp_path, name, content)
    res = cli("evaluate", str(q), str(r), "-m", "AP")
    err = res.stderr.decode()
    assert res.returncode == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("cranfield: error: ")
    assert f"{r}: " in err and message in err
    assert res.stdout == b""


BAD_QRELS = {
    "q.txt": (
        QRELS + b"1 0 a 2\n",
        "line 5: document 'a' is judged with different grades (1 and 2)",
    ),
    "q2.txt": (QRELS + b"1 0 a 1\n", "line 5: document 'a' is judged twice (grade 1)"),
    "q3.txt": (QRELS + b"1 0 d high\n", "line 5: grade 'high' is not a number"),
    "q4.txt.gz": (gzip.compress(QRELS + b"1 0 e\n"), "line 5: expected 4 columns"),
    "q.jsonl": (
        b'{"qid": "1", "docno": "a", "label": 1.5}\n',
        "line 1: grade '1.5' is a number but not an integer",
    ),
}


@pytest.mark.parametrize("name", BAD_QRELS)
def test_bad_qrels_exit_2_with_one_line(cli, tmp_path, name):
    content, message = BAD_QRELS[name]
    q = write(tmp_path, name, content)
    r = write(tmp_path, "r.txt", RUN)
    res = cli("evaluate", str(q), str(r), "-m", "AP")
    err = res.stderr.decode()
    assert res.returncode == 2, err
    assert "Traceback" not in err and err.count("\n") == 1
    assert f"cranfield: error: {q}: " in err and message in err


def test_parquet_missing_column_exits_2(cli, tmp_path):
    q = write(tmp_path, "q.txt", QRELS)
    pd.DataFrame({"qid": ["1"], "docno": ["a"]}).to_parquet(tmp_path / "r.parquet")
    res = cli("evaluate", str(q), str(tmp_path / "r.parquet"), "-m", "AP")
    assert res.returncode == 2
    assert res.stderr.decode().startswith(
        f"cranfield: error: {tmp_path / 'r.parquet'}: no column with scores"
    )


def _aggregate(cli, qrels, run):
    res = cli("evaluate", str(qrels), str(run), "-m", "AP", "-m", "nDCG@2", "-f", "json")
    assert res.returncode == 0, res.stderr.decode()
    return json.loads(res.stdout)["runs"][0]["aggregate"]


def test_every_format_gives_the_same_numbers(cli, tmp_path):
    q = write(tmp_path, "q.txt", QRELS)
    r = write(tmp_path, "r.txt", RUN)
    expected = _aggregate(cli, q, r)
    rows = [line.split() for line in RUN.decode().splitlines()]
    frame = pd.DataFrame(
        {
            "qid": [f[0] for f in rows],
            "docno": [f[2] for f in rows],
            "score": [float(f[4]) for f in rows],
        }
    )
    qrows = [line.split() for line in QRELS.decode().splitlines()]
    qframe = pd.DataFrame(
        {
            "query_id": [f[0] for f in qrows],
            "doc_id": [f[2] for f in qrows],
            "relevance": [int(f[3]) for f in qrows],
        }
    )
    frame.to_parquet(tmp_path / "r.parquet")
    qframe.to_parquet(tmp_path / "q.parquet")
    frame.to_json(tmp_path / "r.jsonl", orient="records", lines=True)
    qframe.to_json(tmp_path / "q.jsonl", orient="records", lines=True)
    write(
        tmp_path,
        "r.json",
        json.dumps({"1": {"a": 3, "b": 2, "c": 1}, "2": {"b": 5, "a": 4}}).encode(),
    )
    write(tmp_path, "r.txt.gz", gzip.compress(RUN.replace(b" ", b"\t ").replace(b"\n", b"\r\n")))
    for qname, rname in [
        ("q.parquet", "r.parquet"),
        ("q.jsonl", "r.jsonl"),
        ("q.txt", "r.json"),
        ("q.txt", "r.txt.gz"),
    ]:
        assert _aggregate(cli, tmp_path / qname, tmp_path / rname) == expected, rname


# ------------------------------------------------------------------ '-': standard input

RUN2 = b"1 Q0 c 1 3 u\n1 Q0 a 2 2 u\n1 Q0 b 3 1 u\n2 Q0 a 1 5 u\n2 Q0 b 2 4 u\n"

STDIN_COMMANDS = {
    "evaluate": ["evaluate", "q.txt", "{run}", "-m", "AP", "-m", "P@2", "-q", "-f", "json"],
    "compare": ["compare", "q.txt", "{run}", "r2.txt", "-m", "AP", "-f", "json"],
    "curve pr": ["curve", "pr", "q.txt", "{run}", "-f", "csv"],
    "curve gain": ["curve", "gain", "q.txt", "{run}", "--cutoffs", "1,2", "-f", "csv"],
    "curve fallout": ["curve", "fallout", "q.txt", "{run}", "--collection-size", "9", "-f", "csv"],
    "ties": ["ties", "q.txt", "{run}", "-f", "json"],
    "trec_eval": ["trec_eval", "-q", "-m", "all_trec", "q.txt", "{run}"],
}


@pytest.mark.slow
@pytest.mark.parametrize("command", STDIN_COMMANDS)
def test_every_command_reads_a_run_from_standard_input(cli, tmp_path, command):
    """``-`` gives what the same run read from a file called 'stdin' gives (the run's name)."""
    write(tmp_path, "q.txt", QRELS)
    write(tmp_path, "r2.txt", RUN2)
    write(tmp_path, "stdin", RUN)
    args = STDIN_COMMANDS[command]
    from_file = cli(*(a.format(run="stdin") for a in args), cwd=tmp_path)
    assert from_file.returncode == 0, from_file.stderr.decode()
    from_stdin = cli(*(a.format(run="-") for a in args), cwd=tmp_path, input=gzip.compress(RUN))
    assert from_stdin.returncode == 0, from_stdin.stderr.decode()
    assert from_stdin.stdout == from_file.stdout and from_file.stdout


def test_qrels_from_standard_input(cli, tmp_path):
    r = write(tmp_path, "r.txt", RUN)
    expected = _aggregate(cli, write(tmp_path, "q.txt", QRELS), r)
    res = cli("evaluate", "-", str(r), "-m", "AP", "-m", "nDCG@2", "-f", "json", input=QRELS)
    assert res.returncode == 0 and json.loads(res.stdout)["runs"][0]["aggregate"] == expected


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "q.txt", "-", "r.txt", "-", "-m", "AP"],
        ["trec_eval", "-", "-"],
    ],
)
def test_only_one_input_can_be_standard_input(cli, tmp_path, args):
    write(tmp_path, "q.txt", QRELS)
    write(tmp_path, "r.txt", RUN)
    res = cli(*args, cwd=tmp_path, input=RUN)
    err = res.stderr.decode()
    assert res.returncode == 2 and "only one input can be '-' (standard input)" in err
    assert "Traceback" not in err and res.stdout == b""


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (RUN + b"1 Q0 d 4 x t\n", "<stdin>: line 6: score 'x' is not a number"),
        (gzip.compress(RUN)[:-6], "<stdin>: corrupt gzip data: the compressed data ends early"),
    ],
    ids=["bad score", "truncated gzip"],
)
def test_standard_input_errors_name_it(cli, tmp_path, data, message):
    q = write(tmp_path, "q.txt", QRELS)
    res = cli("evaluate", str(q), "-", "-m", "AP", input=data)
    err = res.stderr.decode()
    assert res.returncode == 2 and "Traceback" not in err
    assert err.startswith(f"cranfield: error: {message}") and err.count("\n") == 1


def test_damaged_run_through_the_command(cli, tmp_path):
    q = write(tmp_path, "q.txt", QRELS)
    joined = write(tmp_path, "j.txt", RUN.rstrip(b"\n") + RUN2)  # cat without a final newline
    res = cli("evaluate", str(q), str(joined), "-m", "AP")
    assert res.returncode == 2
    assert f"{joined}: line 5: two results on one line?" in res.stderr.decode()
    extra = write(tmp_path, "x.txt", RUN.replace(b" t\n", b" t extra\n"))
    res = cli("evaluate", str(q), str(extra), "-m", "AP")
    assert res.returncode == 0
    assert res.stderr.decode() == (
        f"cranfield: warning: {extra}: 5 lines have more than 6 columns (first: line 1); "
        "the columns after the 6th (the run tag) are ignored, as trec_eval does\n"
    )
