"""Subtopic qrels as inputs: hostile files give one clean InputError naming the file and the
line, the Python forms are checked alike, and the command line exits 2 with the message."""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pytest

import cranfield
from conftest import run_cli
from cranfield.errors import InputError, ParameterError, UndefinedMeasureWarning
from cranfield.io.trec.subtopics import Subtopics, read_subtopics

GOOD = "q1 s1 d1 1\nq1 s1 d2 0\nq1 s2 d2 1\nq2 s1 e1 1\n"
RUN = "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq2 Q0 e1 1 1 r\n"


def _read(tmp_path, text: str | bytes, name: str = "sub.txt"):
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return read_subtopics(path)


def test_reads_the_four_columns(tmp_path):
    sub = _read(tmp_path, "# comment\n" + GOOD + "\n")
    assert sub.query_ids == ("q1", "q2")
    assert sub.subtopic_ids == ("s1", "s2")
    assert len(sub) == 4
    assert sub.as_qrels().to_dict() == {"q1": {"d1": 1, "d2": 1}, "q2": {"e1": 1}}


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("q1 s1 d1\n", 1, "expected 4 columns"),
        ("q1 s1 d1 1\nq1 s1 d2 1 x\n", 2, "expected 4 columns"),
        ("q1 s1 d1 1.0\n", 1, "not an integer"),
        ("q1 s1 d1 1e3\n", 1, "not an integer"),
        ("q1 s1 d1 x\n", 1, "not an integer"),
        ("q1 s1 d1 nan\n", 1, "not an integer"),
        ("q1 s1 d1 9223372036854775808\n", 1, "out of range"),
        ("q1 s1 d1 -9223372036854775809\n", 1, "out of range"),
        ("q1 s1 d1 " + "9" * 5000 + "\n", 1, "out of range"),
        ("q1 s1 d1 1\nq1 s1 d1 1\n", 2, "judged twice for subtopic 's1'"),
        ("q1 s1 d1 1\nq2 s1 d1 1\nq1 s1 d1 0\n", 3, "first at line 1"),
        ("q1 s\x01 d1 1\n", 1, "control character"),
        ("q1 s1 d\x7f 1\n", 1, "control character"),
        ("q1 s1 d1 1\n#q2 s1 d1 1\n", 2, "ambiguous"),
    ],
)
def test_hostile_lines_name_the_line(tmp_path, text, line, words):
    with pytest.raises(InputError, match=words) as e:
        _read(tmp_path, text)
    assert e.value.line == line
    assert "sub.txt" in str(e.value)


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "empty"),
        (b"# only a comment\n\n", "no judgments"),
        (b"q1 s1 d1 1\nq1 s1 \x00 1\n", "NUL"),
        (b"q1 s1 d\xff 1\n", "UTF-8"),
    ],
)
def test_hostile_files(tmp_path, data, words):
    with pytest.raises(InputError, match=words):
        _read(tmp_path, data)


def test_corrupt_gzip_is_one_input_error(tmp_path):
    good = gzip.compress(GOOD.encode())
    with pytest.raises(InputError, match="sub.txt.gz"):
        _read(tmp_path, good[:-12] + b"garbage!", "sub.txt.gz")
    assert _read(tmp_path, good, "ok.txt.gz").query_ids == ("q1", "q2")


def test_from_rows_checks_like_the_file():
    assert Subtopics.from_rows([("q", "s", "d", np.int64(2))]).entry_grade.tolist() == [2]
    for rows, words in [
        ([("q", "s", "d")], "expected"),
        (["q s d 1"], "expected"),
        ([("q", "s", "d", True)], "integer"),
        ([("q", "s", "d", 1.0)], "integer"),
        ([("q", 1, "d", 1)], "string"),
        ([("q", "s", "d d", 1)], "space"),
        ([("q", "s", "d", 2**63)], "out of range"),
        ([("q", "s", "d", 1), ("q", "s", "d", 0)], "row 1: .*twice"),
        ([], "no judgments"),
    ]:
        with pytest.raises(InputError, match=words):
            Subtopics.from_rows(rows)


def test_subtopics_argument_must_be_a_path_or_subtopics():
    with pytest.raises(ParameterError, match="subtopics must be"):
        cranfield.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["P@1"], subtopics=[("q", "s")])


def test_missing_subtopics_is_a_parameter_error_naming_the_option():
    with pytest.raises(ParameterError, match="--subtopics FILE"):
        cranfield.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["alpha_nDCG@10"])


def test_a_query_absent_from_the_subtopics_scores_zero_with_a_warning(tmp_path):
    sub = _read(tmp_path, "q1 s1 d1 1\n")
    with pytest.warns(UndefinedMeasureWarning, match="1 of 2 queries"):
        res = cranfield.evaluate(
            {"q1": {"d1": 1}, "q2": {"e": 1}},
            {"q1": {"d1": 1.0}, "q2": {"e": 1.0}},
            ["alpha_nDCG@5"],
            subtopics=sub,
        )
    assert res.values[:, 0].tolist() == [1.0, 0.0]


def test_paths_and_objects_give_the_same_values(tmp_path):
    path = tmp_path / "sub.txt"
    path.write_text(GOOD)
    run = tmp_path / "run"
    run.write_text(RUN)
    measures = ["alpha_nDCG@2", "NRBP", "AP_IA", "StRecall@1"]
    a = cranfield.evaluate(str(path), str(run), measures, subtopics=str(path))
    sub = read_subtopics(path)
    b = cranfield.evaluate(sub, str(run), measures, subtopics=sub)
    np.testing.assert_array_equal(a.values, b.values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two equal runs: the superiority is undefined
        c = cranfield.compare(sub, [str(run), str(run)], measures, subtopics=sub, names=["a", "b"])
    assert c is not None


# ------------------------------------------------------------------------------ command line
def test_cli_evaluates_with_subtopics(tmp_path):
    (tmp_path / "sub.txt").write_text(GOOD)
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 1\nq2 0 e1 1\n")
    for qrels in ("sub.txt", "qrels"):  # QRELS may be the subtopic file itself
        r = run_cli(
            "evaluate", qrels, "run", "-m", "alpha_nDCG@2", "-m", "P_IA@2", "--subtopics",
            "sub.txt", "--format", "trec", cwd=tmp_path,
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
        lines = r.stdout.decode().split("\n")
        assert "alpha_nDCG@2\tall\t1.0000" in lines
        assert "P_IA@2\tall\t0.5000" in lines  # q1: 2 pairs / (2*2); q2: 1 / (2*1)
    r = run_cli("compare", "qrels", "run", "run", "-m", "StRecall@1", "--subtopics", "sub.txt",
                "--names", "a,b", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_cli_bad_subtopics_exit_2_with_file_and_line(tmp_path):
    (tmp_path / "sub.txt").write_text("q1 s1 d1 1\nq1 s1 d2 one\n")
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    r = run_cli("evaluate", "qrels", "run", "-m", "NRBP", "--subtopics", "sub.txt", cwd=tmp_path)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "sub.txt: line 2: judgment 'one' is not an integer" in err
    assert "Traceback" not in err


def test_cli_missing_subtopics_names_the_option(tmp_path):
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    r = run_cli("evaluate", "qrels", "run", "-m", "ERR_IA@20", cwd=tmp_path)
    assert r.returncode == 2
    assert "--subtopics FILE" in r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()


def test_a_subtopic_file_given_only_as_qrels_gets_a_hint(tmp_path):
    """ndeval's qrels judge a document once per subtopic: read as TREC qrels, the document is
    judged twice; the error says what the file likely is and which option reads it, and only
    when the two lines' second columns differ (a true duplicate gets no hint)."""
    (tmp_path / "sub.txt").write_text(GOOD)
    (tmp_path / "dup.txt").write_text("q1 0 d1 1\nq1 0 d1 1\n")
    (tmp_path / "run").write_text(RUN)
    r = run_cli("evaluate", "sub.txt", "run", "-m", "alpha_nDCG@2", cwd=tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err
    assert "sub.txt: line 3: document 'd2' is judged" in err
    assert "second columns differ (s1 and s2)" in err and "--subtopics FILE" in err
    with pytest.raises(InputError, match="subtopics= in Python") as exc:
        cranfield.read_qrels(tmp_path / "sub.txt")
    assert exc.value.line == 3
    r = run_cli("evaluate", "dup.txt", "run", "-m", "P@1", cwd=tmp_path)
    assert r.returncode == 2 and "--subtopics" not in r.stderr.decode()
    assert "dup.txt: line 2: document 'd1' is judged twice" in r.stderr.decode()
