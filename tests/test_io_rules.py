"""One definition of a number, an id, a blank line and a line end, shared by every reader.

TREC text is the reference (its rules are in docs/input.md): each test here writes the same
data in another format and checks that it gets TREC text's result or TREC text's error.  The
generated, cross-format version of these checks is tests/test_io_differential.py.
"""

from __future__ import annotations

import pytest

import cranfield
from cranfield.errors import InputError
from cranfield.io.judgment_files import read_judgment_groups

DIGITS_5000 = "1" * 5000  # beyond int()'s 4300-digit limit on text


def _error(path) -> str:
    """The problem of the qrels or run at ``path`` (the message without the file name)."""
    read = cranfield.read_run if "run" in path.name else cranfield.read_qrels
    with pytest.raises(InputError) as exc:
        read(str(path))
    message = str(exc.value)
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: ") :]


# ---------------------------------------------------------------------------- numbers


def test_integers_of_thousands_of_digits_are_out_of_range(tmp_path):
    """int() refuses text of more than 4300 digits with a ValueError that escaped every
    integer reader (a traceback instead of the line's error)."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"1 0 d {DIGITS_5000}\n")
    assert _error(qrels).startswith(f"line 1: grade '{'1' * 40}'... (5000 characters) is out")
    run = tmp_path / "run.txt"
    run.write_text(f"1 Q0 d {DIGITS_5000} 1 t\n")
    problem = cranfield.read_run(str(run)).rank_problem  # the rank only matters to 'given'
    assert problem is not None and problem.startswith("line 1: rank '1111") and "range" in problem
    groups = tmp_path / "groups.txt"
    groups.write_text(f"1 g d {DIGITS_5000}\n")
    with pytest.raises(InputError, match="line 1: grade .* is out of range"):
        read_judgment_groups(str(groups))


HOSTILE_GRADES = [
    "0.99999999999999999",  # a double rounds it to 1
    "1.9999999999999999",  # ... to 2
    "9007199254740993.0",  # ... to 9007199254740992
    "2.0",
    "1e0",
    "٣",  # ARABIC-INDIC DIGIT THREE: int() reads 3
    "２",  # FULLWIDTH DIGIT TWO
    "\u00a0+2",  # a non-breaking space: str.strip() drops it
    "2\u2003",  # an em space
    "1_0",
    "0x10",
    "9223372036854775808",
    DIGITS_5000,
]
HOSTILE_SCORES = ["٣", "２.５", "\u00a0+2", "1\u2003", "1_0", "0x1p3", "1,5", "١٢"]


def _trec_qrels(tmp_path, grade: str):
    path = tmp_path / "qrels.txt"
    path.write_text(f"q 0 a 1\nq 0 b {grade}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("grade", HOSTILE_GRADES)
@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_grades_follow_the_trec_rule(tmp_path, fmt, grade):
    """CSV/TSV grades went through Python's int() or float(): 0.99999999999999999 was the
    grade 1, '٣' the grade 3, '\\xa0+2' the grade 2, where TREC text refuses each."""
    sep = "," if fmt == "csv" else "\t"
    path = tmp_path / f"qrels.{fmt}"
    path.write_text(sep.join(["qid", "docno", "label"]) + f"\nq{sep}a{sep}1\nq{sep}b{sep}{grade}\n")
    trec = _error(_trec_qrels(tmp_path, grade))
    assert trec.startswith("line 2: grade ")
    assert _error(path) == trec.replace("line 2", "line 3")


@pytest.mark.parametrize("score", HOSTILE_SCORES)
@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_scores_follow_the_trec_rule(tmp_path, fmt, score):
    sep = "," if fmt == "csv" else "\t"
    quoted = f'"{score}"' if sep in score else score
    path = tmp_path / f"run.{fmt}"
    path.write_text(sep.join(["qid", "docno", "score"]) + f"\nq{sep}a{sep}{quoted}\n")
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 a 1 {score} t\n") if sep not in score else None
    expected = f"line 1: score {score!r} is not a number"
    if trec.exists():
        assert _error(trec) == expected
    assert _error(path) == expected.replace("line 1", "line 2")


def test_ascii_whitespace_around_a_number_cell_is_a_separator(tmp_path):
    """What separates TREC fields may surround a CSV/TSV number: the value is the same."""
    path = tmp_path / "qrels.tsv"
    path.write_text("qid\tdocno\tlabel\tx\nq\ta\t 2 \t\x0b\nq\tb\t\x0c+1\t\r\n")
    assert cranfield.read_qrels(str(path)).to_dict() == {"q": {"a": 2, "b": 1}}


# ------------------------------------------------------------------- lines and blank lines

BARE_CR = "bare CR (carriage return) inside the line"


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("qrels.txt", "q 0 a 1\rq 0 b 1\nq 0 c x\n", 1),
        ("qrels.csv", "qid,docno,label\nq,a,1\rq,b,1\nq,c,x\n", 2),
        ("qrels.tsv", "qid\tdocno\tlabel\nq\ta\t1\rq\tb\t1\nq\tc\tx\n", 2),
        ("qrels.jsonl", '{"qid": "q", "docno": "a", "label": 1}\r{"qid": "q"}\n', 1),
        ("run.txt", "q 1 1\nq 2 2\rq 3 3\nq 4 x\n", 2),  # an MS MARCO run
        ("run.csv", "qid,docno,score\nq,a,1\nq,b,1\rq,c,1\n", 3),
        ("run.tsv", 'qid\tdocno\tscore\r\nq\ta\t1\r\nq\tb\t"x\r"\nq\tc\t1\n', 3),
    ],
)
def test_a_bare_cr_before_data_is_an_error_in_every_text_format(tmp_path, name, text, line):
    """CSV and TSV read a bare CR as a line end (Python's csv module): a file trec_eval
    refuses was accepted, and every later error named a line one too far."""
    path = tmp_path / name
    path.write_bytes(text.encode())
    expected = f"line {line}: {BARE_CR}: two lines joined? convert the line endings"
    assert _error(path).startswith(expected)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_lines_end_as_trec_lines_do(tmp_path, fmt):
    """CRLF, and a CR followed only by whitespace, end a line; errors name the same lines as
    TREC text's."""
    sep = "," if fmt == "csv" else "\t"
    rows = ["q,a,1", "q,b,0", "", "q,c,x"]
    ends = ["\r\n", "\r \t\n", "\r\r\n", "\n"]
    body = "".join(r.replace(",", sep) + e for r, e in zip(rows, ends, strict=True))
    path = tmp_path / f"qrels.{fmt}"
    path.write_text(sep.join(["qid", "docno", "label"]) + "\r\n" + body)
    trec = tmp_path / "qrels.txt"
    trec.write_text("".join(r.replace(",", " 0 ", 1).replace(",", " ") + e for r, e in
                            zip(rows, ends, strict=True)))  # fmt: skip
    assert _error(trec) == "line 4: grade 'x' is not a number"
    assert _error(path) == "line 5: grade 'x' is not a number"


@pytest.mark.parametrize("blank", ["\t", "\t\t", " \t ", "\x0b", "\x0c", "\r"])
def test_a_line_of_ascii_whitespace_is_blank_in_tsv_and_csv(tmp_path, blank):
    """A TSV line of only a tab was a row of 2 empty fields (an error) where a line of spaces
    was blank; TREC text skips both."""
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        path = tmp_path / f"run.{fmt}"
        path.write_text(f"qid{sep}docno{sep}score\nq{sep}a{sep}1\n{blank}\nq{sep}b{sep}2\n")
        assert cranfield.read_run(str(path)).to_dict() == {"q": {"a": 1.0, "b": 2.0}}
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 a 1 1 t\n{blank}\nq Q0 b 2 2 t\n")
    assert cranfield.read_run(str(trec)).to_dict() == {"q": {"a": 1.0, "b": 2.0}}


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2028"])
def test_a_line_of_other_spaces_is_not_blank(tmp_path, space):
    """Only ASCII whitespace makes a blank line (str.strip() also dropped Unicode spaces)."""
    path = tmp_path / "run.tsv"
    path.write_text(f"qid\tdocno\tscore\nq\ta\t1\n{space}\n")
    assert _error(path) == "line 3: expected 3 fields (as the header has), found 1"
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 a 1 1 t\n{space}\n")
    assert _error(trec).startswith("line 2: expected at least 6 columns")


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_long_ids_are_read_as_trec_text_reads_them(tmp_path, fmt):
    """Python's csv module refuses a field over 131,072 characters; TREC text takes any."""
    sep = "," if fmt == "csv" else "\t"
    long_id = "d" * 1_000_000
    for quote in ("", '"') if fmt == "csv" else ("",):
        path = tmp_path / f"run.{fmt}"
        path.write_text(f"qid{sep}docno{sep}score\nq{sep}{quote}{long_id}{quote}{sep}1\n")
        assert cranfield.read_run(str(path)).to_dict() == {"q": {long_id: 1.0}}
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 {long_id} 1 1 t\n")
    assert cranfield.read_run(str(trec)).to_dict() == {"q": {long_id: 1.0}}
    import csv

    assert csv.field_size_limit() == 131072  # the process's setting is left as it was


@pytest.fixture(params=["arrow", "python"])
def jsonl_reader(request, monkeypatch):
    """Run a test through Arrow's JSON reader and through the line-by-line reader."""
    import cranfield.io.tabular as tabular

    if request.param == "python":
        monkeypatch.setattr(tabular, "_jsonl_arrow", lambda *a: None)
    return request.param


JSON_GRADES = ["0.99999999999999999", "1.9999999999999999", "9007199254740993.0", "2.0", "1e0",
               "-0.0", "99999999999999999999", DIGITS_5000]  # fmt: skip


@pytest.mark.parametrize("grade", JSON_GRADES)
def test_json_grades_are_read_from_their_text(tmp_path, jsonl_reader, grade):
    """A JSON number was a double before it was a grade: 0.99999999999999999 was the grade
    1, 9007199254740993.0 the grade 9007199254740992.  Its text now follows TREC's rule."""
    trec = _error(_trec_qrels(tmp_path, grade))
    lines = '{"qid": "q", "docno": "a", "label": 1}\n'
    lines += f'{{"qid": "q", "docno": "b", "label": {grade}}}\n'
    path = tmp_path / "qrels.jsonl"
    path.write_text(lines)
    assert _error(path) == trec
    records = tmp_path / "qrels.json"
    records.write_text("[" + ",".join(lines.splitlines()) + "]")
    assert _error(records) == trec.replace("line 2", "item 1")
    nested = tmp_path / "nested.json"
    nested.write_text(f'{{"q": {{"a": 1, "b": {grade}}}}}')
    assert _error(nested) == trec.replace("line 2", "query 'q', document 'b'")


def test_json_integers_keep_every_digit_and_scores_their_sign(tmp_path, jsonl_reader):
    path = tmp_path / "qrels.jsonl"
    path.write_text('{"qid": "q", "docno": "a", "label": 9007199254740993}\n')
    assert cranfield.read_qrels(str(path)).to_dict() == {"q": {"a": 9007199254740993}}
    for big in ("123456789012345678901234567890", "7"):  # a column of doubles, of integers
        run = tmp_path / "run.jsonl"
        run.write_text(f'{{"qid": "q", "docno": "a", "score": -0}}\n{{"qid": "q", "docno": '
                       f'"b", "score": {big}}}\n')  # fmt: skip
        trec = tmp_path / "run.txt"
        trec.write_text(f"q Q0 a 1 -0 t\nq Q0 b 2 {big} t\n")
        got, want = cranfield.read_run(str(run)).scores, cranfield.read_run(str(trec)).scores
        assert got.tobytes() == want.tobytes()  # bit for bit: -0.0, and the nearest double
        assert str(want[0]) == "-0.0"


@pytest.mark.parametrize(
    ("score", "problem"),
    [("1e999", "score is infinite (scores must be finite)"),
     ("1" + "0" * 400, "score is infinite (scores must be finite)"),
     ("-1e400", "score is infinite (scores must be finite)")],
)  # fmt: skip
def test_json_scores_too_large_for_a_double_are_trec_texts_infinite(
    tmp_path, jsonl_reader, score, problem
):
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 a 1 1 t\nq Q0 b 2 {score} t\n")
    assert _error(trec) == f"line 2: {problem}"
    path = tmp_path / "run.jsonl"
    path.write_text(f'{{"qid": "q", "docno": "a", "score": 1}}\n'
                    f'{{"qid": "q", "docno": "b", "score": {score}}}\n')  # fmt: skip
    assert _error(path) == f"line 2: {problem}"


def test_json_ranks_follow_the_integer_rule(tmp_path, jsonl_reader):
    path = tmp_path / "run.jsonl"
    path.write_text('{"qid": "q", "docno": "a", "score": 1, "rank": 1}\n'
                    '{"qid": "q", "docno": "b", "score": 1, "rank": 2.0}\n')  # fmt: skip
    assert cranfield.read_run(str(path)).rank_problem == "line 2: rank '2.0' is not an integer"
    trec = tmp_path / "run.txt"
    trec.write_text("q Q0 a 1 1 t\nq Q0 b 2.0 1 t\n")
    assert cranfield.read_run(str(trec)).rank_problem == "line 2: rank '2.0' is not an integer"
