"""One definition of a number, an id, a blank line and a line end, shared by every reader.

TREC text is the reference (its rules are in docs/input.md): each test here writes the same
data in another format and checks that it gets TREC text's result or TREC text's error.  The
generated, cross-format version of these checks is tests/io/test_io_differential.py.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
from cranfield.errors import InputError
from cranfield.io.trec.judgment_files import read_judgment_groups

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
    import cranfield.io.json_tables as json_tables

    if request.param == "python":
        monkeypatch.setattr(json_tables, "jsonl_arrow", lambda *a: None)
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


# ------------------------------------------------------------------------ JSON nesting


def _nested(depth: int, open_: str = "[", close: str = "]") -> str:
    return open_ * depth + close * depth


def test_deep_json_nesting_crashed_the_process(tmp_path):
    """Depth 20,000 in an ignored key (a 40 KB file) was a segmentation fault (exit 139) in
    Arrow's JSON reader: now one error, exit 2, before any parser runs."""
    from conftest import run_cli

    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.jsonl"
    qrels.write_text("q 0 a 1\n")
    line = f'{{"qid": "q", "docno": "a", "score": 1, "x": {_nested(20_000)}}}'
    run.write_text(line + "\n")
    out = run_cli("evaluate", str(qrels), str(run), "-m", "AP")
    assert out.returncode == 2, out
    assert out.stderr.decode() == (
        f"cranfield: error: {run}: line 1: JSON nested more than 128 levels deep (at column "
        f"{too_deep_at(line)}); a row of qrels or a run is one object, and deeper nesting is "
        "refused before parsing\n"
    )


def too_deep_at(text: str, limit: int = 128) -> int | None:
    """Brute force: the 1-based column of the first bracket opening level ``limit + 1`` of a
    line of JSON, by a character-by-character scanner of JSON strings and escapes."""
    level, in_string, escaped = 0, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            if level > limit:
                return i + 1
        elif ch in "]}":
            level -= 1
    return None


VALUES = {
    "arrays": lambda d: "[" * d + "]" * d,
    "objects": lambda d: '{"k": ' * d + "1" + "}" * d,
    "mixed": lambda d: '[{"k": ' * (d // 2) + "[]" * (d % 2) + "}]" * (d // 2),
}


@pytest.mark.parametrize("key", ["x", "score"])
@pytest.mark.parametrize("shape", VALUES)
def test_json_nesting_is_bounded_in_every_key(tmp_path, jsonl_reader, key, shape):
    """Depth 1,000 in a key the reader ignores was parsed (Arrow's time grows with the square
    of the depth: 87 s at 7,000); one level past the bound is refused, the bound is not (the
    row's object is level 1)."""
    for depth, fine in ((1000, False), (128, False), (127, True)):
        line = f'{{"qid": "q", "docno": "a", "score": 1, "{key}": {VALUES[shape](depth)}}}'
        if key == "score":
            line = f'{{"qid": "q", "docno": "a", "score": {VALUES[shape](depth)}}}'
        path = tmp_path / "run.jsonl"
        path.write_text('{"qid": "q", "docno": "b", "score": 1, "x": []}\n' + line + "\n")
        column = too_deep_at(line)
        assert (column is None) == fine
        if fine and key == "x":
            assert cranfield.read_run(str(path)).to_dict() == {"q": {"a": 1.0, "b": 1.0}}
        elif fine:  # within the bound: the value rules speak
            assert "nested" not in _error(path)
        else:
            assert _error(path) == (
                f"line 2: JSON nested more than 128 levels deep (at column {column}); a row "
                "of qrels or a run is one object, and deeper nesting is refused before parsing"
            )
    as_json = tmp_path / "run.json"  # one document: the nesting adds up across lines
    as_json.write_text("[\n" + "[\n" * 128 + "]\n" * 128 + "]\n")
    assert _error(as_json).startswith("line 129: JSON nested more than 128 levels deep")


_STRINGS = st.lists(st.sampled_from(["[", "{", "]", "}", "a", "\\\\", '\\"', "\\n", "é"]),
                    max_size=4).map(lambda parts: '"' + "".join(parts) + '"')  # fmt: skip
_TOKENS = st.one_of(st.sampled_from(["[", "]", "{", "}", ",", ":", " ", "1"]), _STRINGS)
_JSONISH = st.lists(st.lists(_TOKENS, max_size=30).map("".join), min_size=1, max_size=6)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=_JSONISH, chunk=st.sampled_from([1, 7, 64, 1 << 20]))
def test_the_vectorised_depth_is_the_scanners(monkeypatch, lines, chunk):
    """check_depth (numpy over the bytes, in chunks of whole lines) against the brute-force
    scanner, on lines of brackets and strings holding brackets, quotes and escapes, with a
    bound of 3: the same first line and column, per line (JSON lines) or across lines."""
    from cranfield.io import json_depth

    monkeypatch.setattr(json_depth, "MAX_DEPTH", 3)
    monkeypatch.setattr(json_depth, "_CHUNK", chunk)
    data = "\n".join(lines).encode()
    expected = next(
        ((i, c) for i, line in enumerate(lines, 1) if (c := too_deep_at(line, 3)) is not None),
        None,
    )
    whole = too_deep_at("\n".join(lines), 3)  # one document: the level goes on
    expected_whole = None
    if whole is not None:
        before = "\n".join(lines)[: whole - 1]
        expected_whole = (before.count("\n") + 1, whole - 1 - (before.rfind("\n") + 1) + 1)
    for per_line, want in ((True, expected), (False, expected_whole)):
        try:
            json_depth.check_depth(data, "f", lines=per_line)
            got = None
        except InputError as exc:
            got = (exc.line, int(re.search(r"column (\d+)", exc.problem).group(1)))
        assert got == want, (per_line, lines)


def test_brackets_in_strings_and_escapes_do_not_nest(tmp_path, jsonl_reader):
    deep_text = "[" * 500 + '\\"{' * 300 + "\\\\"
    path = tmp_path / "qrels.jsonl"
    path.write_text(f'{{"qid": "q", "docno": "a", "label": 1, "note": "{deep_text}"}}\n')
    assert cranfield.read_qrels(str(path)).to_dict() == {"q": {"a": 1}}


def test_json_lines_with_keys_of_their_own_cost_no_more_than_their_rows(tmp_path, monkeypatch):
    """Arrow made a column of every key of any line: 8,000 lines of one key each (400 KB)
    became a table of 8,000 x 8,000 values (1 GB).  Arrow now reads the first line's keys
    only (any other hands the file to the exact reader, which keeps the roles' keys)."""
    import pyarrow.json as pj

    import cranfield.io.json_tables as json_tables
    from cranfield.io.columns import RUN_ROLES

    widths = []
    real = pj.read_json

    def spy(*args, **kwargs):
        table = real(*args, **kwargs)
        widths.append(table.num_columns)
        return table

    monkeypatch.setattr(pj, "read_json", spy)
    lines = [f'{{"qid": "q", "docno": "d{i}", "score": {i}, "k{i}": 1}}' for i in range(2000)]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = cranfield.read_run(str(path))
    assert len(run) == 2000 and run.to_dict()["q"]["d1999"] == 1999.0
    assert max(widths, default=0) <= 4
    regular = tmp_path / "regular.jsonl"  # the usual file, ignored keys and all: still Arrow's
    regular.write_text(
        "".join(
            f'{{"qid": "{i % 7}", "docno": "d{i}", "score": {i / 3!r}, "query": "a b", '
            f'"meta": {{"x": [{i}, 2]}}}}\n'
            for i in range(50)
        )
    )
    cols = json_tables.jsonl_arrow(regular.read_bytes(), RUN_ROLES, "r")
    assert cols is not None and cols["score"][1].to_pylist() == [i / 3 for i in range(50)]


_CELL = st.one_of(
    st.lists(
        st.sampled_from([*"0123456789+-.eE_ x", "\t", "\x0b", "\x1c", "\xa0", "٣", "inf"]),
        max_size=6,
    ).map("".join),
    st.sampled_from(["1_0", "\x852", "2\x85", " 2 ", "\xa0+2", "２", "2.0", "-0", "1e999", "+1"]),
    st.integers(-(2**64), 2**64).map(str),
)


@settings(max_examples=400, deadline=None)
@given(column=st.lists(_CELL, min_size=1, max_size=5), kind=st.sampled_from(["grade", "score"]))
def test_a_column_of_cells_is_read_as_each_cell_is(column, kind):
    """number_text.cells reads a plain ASCII column with int()/float() at once: the values
    and the first refused cell are those of the rule applied to each cell's token."""
    from cranfield.io import number_text as nt

    expected, bad = [], None
    for i, cell in enumerate(column):
        tok = cell.strip(" \t\n\r\x0b\x0c").encode()
        try:
            expected.append(nt.grade(tok) if kind == "grade" else nt.score(tok))
        except nt.NumberError as exc:
            bad = (i, str(exc))
            break
    values, row, problem = nt.cells(column, kind)
    assert (row, problem) == (bad or (None, None))
    if bad is None:
        assert [repr(v) for v in values] == [repr(v) for v in expected]  # -0.0, nan: bits


# ------------------------------------------------------------------------- lone surrogates

SURROGATE = "the lone surrogate U+D800 (not a character: no UTF-8 text holds it) at position 1"


def test_a_lone_surrogate_id_is_refused_where_it_comes_in(tmp_path, jsonl_reader):
    """JSON's "q\\ud800" and a dict key 'q\\ud800' were accepted; to_frame() and per_query()
    then raised UnicodeEncodeError.  Every source refuses it, naming the place."""
    import pandas as pd

    path = tmp_path / "qrels.jsonl"
    path.write_text('{"qid": "q1", "docno": "a", "label": 1}\n'
                    '{"qid": "q\\ud800", "docno": "a", "label": 1}\n')  # fmt: skip
    assert _error(path).startswith(f"line 2: query id 'q\\ud800' contains {SURROGATE}")
    nested = tmp_path / "run.json"
    nested.write_text('{"q1": {"d\\ud800": 1.5}}')
    assert _error(nested).startswith("query 'q1', document 'd\\ud800': document id 'd\\ud800' "
                                     "contains the lone surrogate U+D800")  # fmt: skip
    with pytest.raises(
        InputError, match=r"^<qrels dict>: query 'q\\ud800', document 'a': query id .*U\+D800"
    ):
        cranfield.read_qrels({"q\ud800": {"a": 1}})
    with pytest.raises(InputError, match=r"^<run dict>: query 'q1', document 'a\\udcff'"):
        cranfield.read_run({"q1": {"a\udcff": 1.0}})
    frame = pd.DataFrame({"qid": pd.Series(["q1", "q\ud800"], dtype=object),
                          "docno": ["a", "b"], "score": [1.0, 2.0]})  # fmt: skip
    with pytest.raises(InputError, match=r"^<DataFrame>: row 1: query id 'q\\ud800' contains"):
        cranfield.read_run(frame)


def test_a_lone_surrogate_run_name_is_refused():
    qrels, run = {"q1": {"d1": 1}}, {"q1": {"d1": 1.0}}
    with pytest.raises(cranfield.ParameterError, match=r"run name 'a\\ud800' contains the lone"):
        cranfield.evaluate(qrels, run, "P@1", names=["a\ud800"])
    with pytest.raises(cranfield.ParameterError, match=r"run name 'a\\udcff' contains the lone"):
        cranfield.evaluate(qrels, {"a\udcff": run, "b": run}, "P@1")
    ok = cranfield.evaluate(qrels, run, "P@1", names=["a\u00e9"])  # any character is fine
    assert ok.to_frame()[["run", "value"]].to_dict("records") == [{"run": "a\u00e9", "value": 1.0}]


# ------------------------------------------------------------------ ids and lines: one text


def test_an_invalid_id_has_one_message_in_every_format(tmp_path):
    """TREC text wrote 'contains ...: ids cannot' and the whole id, the tables '; ids cannot'
    and the id shortened: one message now (found by tests/io/test_io_differential.py)."""
    long_id = "x\x01" + "y" * 100
    trec = tmp_path / "qrels.txt"
    trec.write_text(f"q 0 {long_id} 1\n")
    csv_path = tmp_path / "qrels.csv"
    csv_path.write_text(f"qid,docno,label\nq,{long_id},1\n")
    shown = "'x\\x01" + "y" * 31 + "..."  # the id's repr, cut at 37 characters
    expected = (
        f"line {{}}: document id {shown} contains the control character U+0001 at position 1; "
        "ids cannot hold whitespace, control characters or lone surrogates, which would break "
        "TREC files and output"
    )
    assert _error(trec) == expected.format(1)
    assert _error(csv_path) == expected.format(2)


def test_ascii_whitespace_around_a_json_line_is_whitespace(tmp_path, jsonl_reader):
    """A CR, VT or FF after a JSON lines object (a CR then a form feed, as a TREC line may end)
    was invalid JSON: JSON's own whitespace is only space, tab, CR and LF."""
    path = tmp_path / "qrels.jsonl"
    path.write_bytes(b'\x0b {"qid": "q", "docno": "a", "label": 1}\r\x0b\n'
                     b'{"qid": "q", "docno": "b", "label": 0} \x0c\r\n')  # fmt: skip
    assert cranfield.read_qrels(str(path)).to_dict() == {"q": {"a": 1, "b": 0}}
    trec = tmp_path / "qrels.txt"
    trec.write_bytes(b"\x0b q 0 a 1\r\x0b\nq 0 b 0 \x0c\r\n")
    assert cranfield.read_qrels(str(trec)).to_dict() == {"q": {"a": 1, "b": 0}}
    bad = tmp_path / "bad.jsonl"  # columns still count from the line's first byte
    line = b'\x0b {"qid": "q", "docno": "a", "label": 1, }'
    bad.write_bytes(line + b"\n")
    assert _error(bad) == (
        f"line 1: invalid JSON at column {line.index(b'}') + 1}: Expecting property name "
        "enclosed in double quotes"
    )


@pytest.mark.parametrize("level", ["1_0", "٣", "0x1p3"])
def test_preference_levels_follow_the_score_rule(tmp_path, level):
    """trec_eval's preference files read their relevance level with float(): '1_0' was 10."""
    from cranfield.io.trec.judgment_files import read_prefs

    path = tmp_path / "prefs.txt"
    path.write_text(f"q g s d1 1\nq g s d2 {level}\n")
    with pytest.raises(InputError, match=rf"line 2: relevance {level!r} is not a number"):
        read_prefs(str(path))
    trec = tmp_path / "run.txt"
    trec.write_text(f"q Q0 d 1 {level} t\n")
    assert _error(trec) == f"line 1: score {level!r} is not a number"
