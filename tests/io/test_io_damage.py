"""The rules that catch damaged text files, through each of the three TREC parsers: lines joined
by a bare CR or by a missing newline, a result hidden behind '#', a byte order mark inside the
file, a JSON key given twice; extra run columns counted and reported; every line accounted
for (``line_counts``)."""

from __future__ import annotations

import gzip
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import use_text_parser
from cranfield.errors import DataWarning, InputError
from cranfield.io import read_qrels, read_run

OK_RUN = b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n"


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def _error(read, path) -> InputError:
    with pytest.raises(InputError) as exc:
        read(path)
    return exc.value


# ---------------------------------------------------------------------------- bare CR


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\r1 Q0 c 3 0 t\n", 2),  # two lines joined by a CR
        (b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 t\r\r1 Q0 c 3 0 t\r\n", 2),
        (b"1 Q0 a 1 2 t\n\r1 Q0 b 2 1 t\n", 2),  # a CR before the data of a line
        (b"1 Q0 a 1 2 t\n# comment\r1 Q0 b 2 1 t\n", 2),  # a result swallowed by a comment
        (b"1 Q0 a 1 2 t\n\n \r x\n", 3),
    ],
)
def test_bare_cr_before_more_data_names_the_line(tmp_path, text_parser, content, line):
    err = _error(read_run, write(tmp_path, "r.txt", content))
    assert "bare CR (carriage return) inside the line" in err.problem and err.line == line


@pytest.mark.parametrize(
    "content",
    [
        b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 t\r\n",  # CRLF
        b"1 Q0 a 1 2 t\r \n1 Q0 b 2 1 t \r\t\r\n",  # CRs followed only by whitespace
        b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 t\r",  # a last CR
        b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\r\r\n\r\n\r",
    ],
)
def test_cr_followed_only_by_whitespace_is_fine(tmp_path, text_parser, content):
    r = read_run(write(tmp_path, "r.txt", content))
    assert r.docs.to_list() == ["a", "b"] and r.tag == "t"


def test_qrels_bare_cr_and_cr_only_files(tmp_path, text_parser):
    err = _error(read_qrels, write(tmp_path, "q.txt", b"1 0 a 1\n1 0 b 1\r1 0 c 0\n"))
    assert "bare CR" in err.problem and err.line == 2
    err = _error(read_qrels, write(tmp_path, "q.txt", b"1 0 a 1\r1 0 b 1\r"))
    assert err.problem.startswith("lines end in a bare CR (classic Mac OS") and err.line is None


def test_a_large_file_with_one_stray_cr_loses_no_line(tmp_path, monkeypatch):
    """The story of the 1,250,000-line run read as 1,249,999: now an error, on every path."""
    lines = [b"q%d Q0 d%d %d %d t\n" % (i // 1000, i, i % 1000 + 1, 5000 - i) for i in range(5000)]
    lines[3120] = lines[3120].rstrip(b"\n") + b"\r"  # its LF became a CR
    data = b"".join(lines)
    messages = set()
    for parser in ("exact", "fields", "arrow"):
        use_text_parser(monkeypatch, parser)
        err = _error(read_run, write(tmp_path, "r.txt", data))
        assert err.line == 3121
        messages.add(str(err))
    assert len(messages) == 1


# ----------------------------------------------------------------------- joined results


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        (b"1 Q0 b 2 1 tag1 Q0 c 3 0 tag2", "6-11"),  # cat a.run b.run, no final newline
        (b"1 Q0 b 2 1 tag 1 Q0 c 3 0 tag2", "7-12"),  # the same after a trailing space
        (b"1 Q0 b 2 1 tag extra1 Q0 c 3 0 tag2", "7-12"),  # a line with an extra column
        (b"1 Q0 b 2 1 tag x y 1 Q0 c 3 0.5e1 tag2 more", "9-14"),
        (b"1\tQ0\tb\t2\t1\ttag1\tQ0\tc\t3\t0\ttag2", "6-11"),
    ],
)
def test_two_results_on_one_line(tmp_path, text_parser, line, fields):
    err = _error(read_run, write(tmp_path, "r.txt", b"1 Q0 a 1 9 t\n" + line + b"\n"))
    assert err.line == 2
    assert err.problem.startswith(f"two results on one line? fields {fields} (")


@pytest.mark.parametrize(
    "line",
    [
        b"1 Q0 b 2 1 t extra",
        b"1 Q0 b 2 1 t 1 2 3 4",  # 10 fields: at most 11 can hold two results
        b"1 Q0 b 2 1 t 3 1 4 1 5 9",  # numbers, but no second 'Q0'
        b"1 Q0 b 2 1 t x Q0 y z 1 t",  # 'Q0' again, but no integer rank after it
        b"1 Q0 b 2 1 t x Q0 y 1 z t",  # ... or no score
    ],
)
def test_other_extra_columns_are_counted_and_reported_once(tmp_path, text_parser, line):
    content = b"1 Q0 a 1 9 t\n# x\n" + line + b"\n" + line.replace(b" b ", b" c ") + b"\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = read_run(write(tmp_path, "r.txt", content))
    assert r.docs.to_list() == ["a", "b", "c"]
    assert r.line_counts.extra_columns == 2 and r.line_counts.first_extra_line == 3
    data_warnings = [w for w in caught if issubclass(w.category, DataWarning)]
    assert len(data_warnings) == 1
    assert "2 lines have more than 6 columns (first: line 3)" in str(data_warnings[0].message)


def test_no_warning_without_extra_columns(tmp_path, text_parser):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = read_run(write(tmp_path, "r.txt", b"1 Q0 a 1 9 t \n1 Q0 b 2 1 t\t\n"))
    assert r.line_counts.extra_columns == 0 and r.line_counts.first_extra_line is None


def test_qrels_still_need_exactly_four_fields(tmp_path, text_parser):
    err = _error(read_qrels, write(tmp_path, "q.txt", b"1 0 a 1\n1 0 b 11 0 c 0\n"))
    assert err.line == 2 and "expected 4 columns" in err.problem


# --------------------------------------------------------------------------- '#' lines


@pytest.mark.parametrize(
    "line",
    [b"#q1 Q0 d1 1 1.0 x", b"  #1 Q0 d 1 -2e3 t extra", b"#\tQ0\td\t1\t1\tt"],
)
def test_a_result_behind_a_hash_is_ambiguous(tmp_path, text_parser, line):
    err = _error(read_run, write(tmp_path, "r.txt", OK_RUN + line + b"\n"))
    assert err.line == 3
    assert "has the shape of a result" in err.problem
    assert "a query id cannot start with '#'" in err.problem


@pytest.mark.parametrize(
    "line",
    [
        b"# produced by bm25 with k1 0.9 b 0.4",
        b"# q1 Q0 d1 1 1.0 x",  # a commented-out result: the shape is shifted by '#'
        b"#q1 Q0 d1 first 1.0 x",  # no integer rank
        b"#q1 Q0 d1 1 high x",  # no score
        b"#q1 Q0 d1 1 1.0",  # 5 fields
        b"#",
    ],
)
def test_real_comments_stay_comments(tmp_path, text_parser, line):
    r = read_run(write(tmp_path, "r.txt", line + b"\n" + OK_RUN))
    assert len(r) == 2 and r.line_counts.comments == 1 and r.line_of(0) == 2


def test_qrels_hash_lines(tmp_path, text_parser):
    err = _error(read_qrels, write(tmp_path, "q.txt", b"1 0 a 1\n#q2 0 b 2\n"))
    assert err.line == 2 and "has the shape of a judgment" in err.problem
    for comment in (b"# qid iter docno rel", b"# q2 0 b 2", b"#q2 0 b x", b"#q2 0 b 2 x"):
        q = read_qrels(write(tmp_path, "q.txt", b"1 0 a 1\n" + comment + b"\n"))
        assert q.to_dict() == {"1": {"a": 1}} and q.line_counts.comments == 1


# ----------------------------------------------------------------- BOM in JSON lines


def test_jsonl_bom_only_at_the_start(tmp_path):
    row = b'{"qid": "1", "docno": "%s", "score": 1}\n'
    bom = b"\xef\xbb\xbf"
    r = read_run(write(tmp_path, "r.jsonl", bom + row % b"a" + row % b"b"))
    assert r.docs.to_list() == ["a", "b"]
    err = _error(read_run, write(tmp_path, "r.jsonl", row % b"a" + bom + row % b"b"))
    assert err.line == 2 and "byte order mark inside the file" in err.problem


# ------------------------------------------------------------------ duplicate JSON keys


@pytest.mark.parametrize(
    ("content", "line", "key", "col"),
    [
        (b'{"qid": "1", "docno": "a", "score": 1}\n{"qid": "1", "qid": "2", "docno": "b", '
         b'"score": 1}\n', 2, "qid", 14),
        (b'\n{"qid": "1", "docno": "a", "score": 1, "x": {"k": 1, "k": 2}}\n', 2, "k", 54),
    ],
)  # fmt: skip
def test_jsonl_duplicate_keys(tmp_path, content, line, key, col):
    err = _error(read_run, write(tmp_path, "r.jsonl", content))
    assert err.line == line
    assert f"key {key!r} appears twice in one JSON object (the second at column {col})" in str(err)


@pytest.mark.parametrize(
    ("content", "line", "key", "col"),
    [
        (b'{"q1": {"d1": 1, "d2": 0},\n "q2": {"d1": 1},\n "q1": {"d3": 1}}', 3, "q1", 2),
        (b'{"q1": {"d1": 1,\n        "d1": 0}}', 2, "d1", 9),
        (b'[{"qid": "1", "docno": "a", "relevance": 1, "relevance": 0}]', 1, "relevance", 45),
    ],
)
def test_json_duplicate_keys(tmp_path, content, line, key, col):
    err = _error(read_qrels, write(tmp_path, "q.json.gz", gzip.compress(content)))
    assert err.line == line
    assert f"key {key!r} appears twice in one JSON object (the second at column {col})" in str(err)


def test_json_hostile_numbers_and_nesting(tmp_path):
    err = _error(read_qrels, write(tmp_path, "q.json", b'{"q1": {"d1": ' + b"1" * 5000 + b"}}"))
    assert "is out of range" in err.problem  # read from its text, as in TREC text
    err = _error(read_qrels, write(tmp_path, "q.json", b"[" * 100_000 + b"]" * 100_000))
    assert err.problem.startswith("JSON nested more than 128 levels deep")
    line = b'{"qid": "1", "docno": "a", "relevance": ' + b"1" * 5000 + b"}\n"
    err = _error(read_qrels, write(tmp_path, "q.jsonl", line))
    assert err.line == 1


# ------------------------------------------------------------------ every line counted


def _classify(data: bytes) -> tuple[int, int, int, int]:
    """Brute force: (lines, data, comments, blank) of a text."""
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    kinds = [
        "blank" if not f else "comment" if f[0].startswith(b"#") else "data"
        for f in (line.split() for line in lines)
    ]
    return len(lines), kinds.count("data"), kinds.count("comment"), kinds.count("blank")


_SEP = st.sampled_from([" ", "\t", "  ", " \t", "\x0b", "\x0c"])


@st.composite
def valid_text(draw, kind: str) -> bytes:
    lines = []
    for i in range(draw(st.integers(1, 30))):
        shape = draw(st.sampled_from(["data"] * 6 + ["blank", "comment", "extra"]))
        if shape == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t", " \r"])))
            continue
        if shape == "comment":
            lines.append(draw(st.sampled_from(["#", "# a b", " # q Q0 d 1 1 t", "#x y"])))
            continue
        q = draw(st.sampled_from(["1", "2", "q#3", "é"]))
        fields = [q, "Q0", f"d{i}", str(i + 1), "0.5"] if kind == "run" else [q, "0", f"d{i}"]
        fields.append("t" if kind == "run" else draw(st.sampled_from(["0", "1", "-1"])))
        if shape == "extra" and kind == "run":
            fields += draw(st.sampled_from([["x"], ["1", "2"], ["a", "Q1", "b", "3", "4", "c"]]))
        sep = draw(_SEP)
        lines.append(
            draw(st.sampled_from(["", " "]))
            + sep.join(fields)
            + draw(st.sampled_from(["", " ", "\r"]))
        )
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = eol.join(lines) + draw(st.sampled_from(["", eol, eol + eol]))
    return text.encode()


def _read_counts(data: bytes, kind: str, parser: str, monkeypatch, tmp_path):
    use_text_parser(monkeypatch, parser)
    p = write(tmp_path, "f.txt", data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)
            obj = read_run(p) if kind == "run" else read_qrels(p)
    except InputError as exc:
        assert "no results" in exc.problem or "no judgments" in exc.problem or "empty" in str(exc)
        return None
    c = obj.line_counts
    assert c.data == len(obj)
    assert c.data + c.comments + c.blank == c.lines
    return c


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    data=st.one_of(
        valid_text("run").map(lambda d: ("run", d)), valid_text("qrels").map(lambda d: ("qrels", d))
    )
)
def test_every_line_is_data_comment_or_blank(data, monkeypatch, tmp_path):
    kind, text = data
    lines, ndata, comments, blank = _classify(text)
    for parser in ("exact", "fields", "arrow"):
        c = _read_counts(text, kind, parser, monkeypatch, tmp_path)
        if c is None:
            assert ndata == 0
            continue
        assert (c.lines, c.data, c.comments, c.blank) == (lines, ndata, comments, blank), parser
        if kind == "run":
            extra = [
                i + 1
                for i, line in enumerate(text.split(b"\n"))
                if len(line.split()) > 6 and not line.split()[0].startswith(b"#")
            ]
            assert c.extra_columns == len(extra)
            assert c.first_extra_line == (extra[0] if extra else None)


def test_jsonl_lines_are_counted(tmp_path):
    row = b'{"qid": "1", "docno": "%s", "score": 1}\n'
    r = read_run(write(tmp_path, "r.jsonl", row % b"a" + b"\n  \n" + row % b"b"))
    c = r.line_counts
    assert (c.lines, c.data, c.comments, c.blank) == (4, 2, 0, 2)
    r = read_run(write(tmp_path, "r.jsonl", row % b"a" + row % b"b"))
    assert (r.line_counts.lines, r.line_counts.data) == (2, 2)


@pytest.mark.parametrize(
    ("tail", "extra"),
    [(b"", 0), (b" ", 0), (b"\t\t", 0), (b" f1 f2", 3), (b" 1 2 3 Q1 5 6", 3)],
)
def test_regular_files_with_extra_columns_on_every_parser(tmp_path, text_parser, tail, extra):
    """Arrow reads a regular layout's extra columns: all present (counted), all empty
    (trailing delimiters) or mixed (left to the normaliser)."""
    sep = b"\t" if tail.startswith(b"\t") else b" "
    lines = [sep.join([b"q1", b"Q0", b"d%d" % i, b"%d" % i, b"1.5", b"t"]) + tail for i in range(3)]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = read_run(write(tmp_path, "r.txt", b"\n".join(lines) + b"\n"))
    told = [str(w.message).split(": ", 1)[1] for w in seen if w.category is DataWarning]
    columns = "columns after the 6th (the run tag) are ignored, as trec_eval does"
    if extra:
        assert told == [f"3 lines have more than 6 columns (first: line 1); the {columns}"]
    else:  # empty trailing cells are not columns
        assert told == []
    assert len(r) == 3 and r.line_counts.extra_columns == extra
    assert r.line_counts.first_extra_line == (1 if extra else None)
    joined = [*lines[:2], lines[2] + b" x Q0 d9 9 0.5 u"]
    err = _error(read_run, write(tmp_path, "r.txt", b"\n".join(joined) + b"\n"))
    assert err.line == 3 and "two results on one line?" in err.problem


# ---------------------------------------------------------------------------- control characters


@pytest.mark.parametrize(
    ("content", "line", "what"),
    [
        (b"1 Q0 a 1 2 t\n1 Q0 b\x01c 2 1 t\n", 2, "document id 'b\\\\x01c'"),
        (b"1\x7f Q0 a 1 2 t\n", 1, "query id '1\\\\x7f'"),
        (b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 \xc2\x85x 3 0 t\n", 3, "U\\+0085"),
        (b"# note\n\n1 Q0 a 1 2 t\n1 Q0 \x1bz 2 1 t\n", 4, "U\\+001B"),
    ],
)
def test_control_characters_in_run_ids_are_refused_by_every_parser(
    tmp_path, text_parser, content, line, what
):
    """Ids from a TREC text follow the rule of ids from dicts and tables (io/ids.py): C0 and
    C1 controls and DEL would corrupt ``--format trec`` output and terminals."""
    err = _error(lambda p: read_run(p, name="r"), write(tmp_path, "r.txt", content))
    assert err.line == line
    assert __import__("re").search(what, str(err)), str(err)


def test_control_characters_in_qrels_ids_name_the_earliest_line(tmp_path, text_parser):
    # rows are sorted by (query, document): the offending line 3 sorts before line 2
    content = b"2 0 b 1\n2 0 c\x02 1\n1 0 a\x03 0\n"
    err = _error(read_qrels, write(tmp_path, "q.txt", content))
    assert (err.line, "U+0002" in str(err)) == (2, True)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(
                min_codepoint=1, max_codepoint=0x200, exclude_characters="\t\n\x0b\x0c\r "
            ),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=6,
        unique=True,
    )
)
def test_text_files_and_dicts_accept_and_refuse_the_same_ids(tmp_path, docs):
    """Differential: the same ids through a TREC file (each parser) and a dict."""
    from cranfield.io import read_run as read

    mapping = {"q": {d: float(len(docs) - i) for i, d in enumerate(docs)}}
    try:
        expect = read(mapping).docs.to_list()
    except InputError:
        expect = None
    lines = "".join(f"q Q0 {d} {i + 1} {len(docs) - i} t\n" for i, d in enumerate(docs))
    path = write(tmp_path, "r.txt", lines.encode())
    mp = pytest.MonkeyPatch()
    try:
        for which in ("exact", "fields", "arrow"):
            use_text_parser(mp, which)
            try:
                got = read(path, name="r").docs.to_list()
            except InputError:
                got = None
            assert got == expect, (which, docs)
    finally:
        mp.undo()
