"""The TREC text readers: accepted variations and one clear error per problem."""

import gzip

import numpy as np
import pytest

import cranfield.io.text as text_io
from cranfield.errors import InputError
from cranfield.io import read_qrels, read_run


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def test_qrels_any_whitespace_crlf_comments_and_string_ids(tmp_path):
    p = write(
        tmp_path, "q.txt", b"# judged by NIST\r\n007 0 d1 1\r\n007\t0\t  d2  0\r\n\n10 0 d3 2"
    )
    q = read_qrels(p)
    assert q.query_ids == ("007", "10")
    assert q.to_dict() == {"007": {"d1": 1, "d2": 0}, "10": {"d3": 2}}


def test_gzip_is_read_transparently(tmp_path):
    p = write(tmp_path, "q.txt.gz", gzip.compress(b"1 0 a 1\n"))
    assert read_qrels(p).to_dict() == {"1": {"a": 1}}


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"1 0 a 1\n1 0 b\n", 2, "expected 4 columns"),
        (b"1 0 a 1\n1 0 b x\n", 2, "grade 'x' is not a number"),
        (b"1 0 a 1\n1 0 b 1.5\n", 2, "not an integer"),
        (b"1 0 a 1\n1 0 a 2\n", 2, "different grades"),
        (b"1 0 a 1\n\n1 0 a 1\n", 3, "judged twice"),
        (b"1 0 a 1\n1 0 \xff 1\n", 2, "undecodable byte 0xff"),
    ],
)
def test_bad_qrels_name_file_line_and_problem(tmp_path, content, line, problem):
    p = write(tmp_path, "q.txt", content)
    with pytest.raises(InputError, match=problem) as exc:
        read_qrels(p)
    assert exc.value.line == line
    assert str(exc.value).startswith(f"{p}: line {line}: ")


def test_empty_files_are_errors(tmp_path):
    for content in (b"", b"  \n\n", b"# only a comment\n"):
        p = write(tmp_path, "q.txt", content)
        with pytest.raises(InputError, match="empty|no judgments"):
            read_qrels(p)


def test_run_extra_columns_ignored_and_tag_is_last_line(tmp_path):
    p = write(tmp_path, "r.txt", b"1 Q0 a 1 2.5 tagA extra\n1 Q0 b 2 1e0 tagB\n")
    r = read_run(p)
    assert r.name == "r.txt" and r.tag == "tagB"
    assert r.scores.tolist() == [2.5, 1.0]


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 t\n", 2, "expected at least 6 columns"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 high t\n", 2, "score 'high' is not a number"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 nan t\n", 2, "score is NaN"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 -inf t\n", 2, "score is infinite"),
        (b"1 Q0 a 1 2.5 t\n2 Q0 a 1 2 t\n1 Q0 a 2 2.0 t\n", 3, "'a' is listed twice for query '1'"),
    ],
)
@pytest.mark.parametrize("fast", [False, True])
def test_bad_runs_name_file_line_and_problem(tmp_path, monkeypatch, content, line, problem, fast):
    if fast:
        monkeypatch.setattr(text_io, "FAST_PATH_BYTES", 0)
    p = write(tmp_path, "r.txt", content)
    with pytest.raises(InputError, match=problem) as exc:
        read_run(p)
    assert exc.value.line == line


def test_fast_and_exact_run_parsers_agree(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    lines = []
    for q in ["3", "1", "20"]:
        for i, d in enumerate(rng.choice(500, 50, replace=False)):
            lines.append(f"{q}\tQ0\tD{d}\t{i + 1}\t{rng.integers(0, 5) / 4}\tsys")
    p = write(tmp_path, "r.txt", ("\n".join(lines) + "\n").encode())
    exact = read_run(p)
    monkeypatch.setattr(text_io, "FAST_PATH_BYTES", 0)
    fast = read_run(p)
    assert fast.docs.is_arrow and not exact.docs.is_arrow
    assert fast.query_ids == exact.query_ids
    assert np.array_equal(fast.qcodes, exact.qcodes)
    assert fast.docs.to_list() == exact.docs.to_list()
    assert np.array_equal(fast.scores, exact.scores)
    assert np.array_equal(fast.ranks, exact.ranks)
    assert fast.tag == exact.tag == "sys"
