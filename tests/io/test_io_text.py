"""The TREC text readers: accepted variations, one clear error per problem, and the rule that
the fast paths (the vectorised field splitter, and Arrow with its whitespace normaliser) never
change a result or a message."""

import gzip
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield.io.trec.core as trec_core
import cranfield.io.trec.normalize as normalize_mod
from conftest import use_text_parser
from cranfield.errors import DataWarning, InputError
from cranfield.io import read_qrels, read_run
from cranfield.io.trec.normalize import normalize_fields

EXTRA_COLUMNS = "columns after the 6th (the run tag) are ignored, as trec_eval does"


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


# ------------------------------------------------------------------------- accepted forms


def test_qrels_any_whitespace_crlf_comments_and_string_ids(tmp_path, text_parser):
    p = write(
        tmp_path, "q.txt", b"# judged by NIST\r\n007 0 d1 1\r\n007\t0\t  d2  0\r\n\n10 0 d3 2"
    )
    q = read_qrels(p)
    assert q.query_ids == ("007", "10")
    assert q.to_dict() == {"007": {"d1": 1, "d2": 0}, "10": {"d3": 2}}


def test_gzip_is_read_transparently(tmp_path):
    p = write(tmp_path, "q.txt.gz", gzip.compress(b"1 0 a 1\n"))
    assert read_qrels(p).to_dict() == {"1": {"a": 1}}
    # the magic number decides, not the name
    p = write(tmp_path, "r.txt", gzip.compress(b"1 Q0 a 1 0.5 t\n"))
    assert read_run(p).to_dict() == {"1": {"a": 0.5}}


def test_corrupt_gzip_is_an_error(tmp_path):
    p = write(tmp_path, "q.txt.gz", gzip.compress(b"1 0 a 1\n" * 100)[:30])
    with pytest.raises(InputError, match="corrupt gzip data"):
        read_qrels(p)


@pytest.mark.parametrize(
    "content",
    [
        b"1 Q0 a 1 2.5 t\n1 Q0 b 2 1 t\n",  # plain
        b"1\tQ0\ta\t1\t2.5\tt\n1\tQ0\tb\t2\t1\tt\n",  # tabs
        b"1 Q0 a 1 2.5 t\r\n1 Q0 b 2 1 t\r\n",  # CRLF
        b"1   Q0  a     1  2.5   t\n1   Q0  b     2  1     t\n",  # space-aligned columns
        b"  1 Q0 a 1 2.5 t  \n\t1 Q0\tb 2 1 t\t\n",  # leading and trailing whitespace
        b"1 Q0 a 1 2.5 t\n1 Q0 b 2 1 t",  # no final newline
        b"# header\n1 Q0 a 1 2.5 t\n\n   \n  # indented comment\n1 Q0 b 2 1 t\n# end\n",
        b"1 Q0 a 1 2.5 t extra\n1 Q0 b 2 1 t more # than one\n",  # extra columns ignored
        b"1\x0bQ0\x0ca 1 2.5 t\n1 Q0 b 2 1 t\n",  # VT and FF are whitespace (C isspace)
        b"\xef\xbb\xbf1 Q0 a 1 2.5 t\n1 Q0 b 2 1 t\n",  # a UTF-8 byte order mark
    ],
)
def test_run_layouts_all_read_the_same(tmp_path, text_parser, content):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        r = read_run(write(tmp_path, "r.txt", content))
    told = [str(w.message).split(": ", 1)[1] for w in seen if w.category is DataWarning]
    if b" extra" in content:  # the one layout with extra columns says so, once
        assert told == [f"2 lines have more than 6 columns (first: line 1); the {EXTRA_COLUMNS}"]
    else:
        assert told == []
    assert r.query_ids == ("1",)
    assert r.docs.to_list() == ["a", "b"]
    assert r.scores.tolist() == [2.5, 1.0]
    assert r.ranks.tolist() == [1, 2]
    assert r.tag == "t"


def test_line_numbers_count_comments_and_blank_lines(tmp_path, text_parser):
    p = write(tmp_path, "r.txt", b"# c\n1 Q0 a 1 2 t\n\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n")
    with pytest.raises(InputError) as exc:
        read_run(p)
    assert exc.value.line == 5
    assert "(first at line 2)" in str(exc.value)


def test_very_long_lines(tmp_path, text_parser):
    doc = "d" * 200_000
    p = write(tmp_path, "r.txt", f"1 Q0 {doc} 1 2 t {'x ' * 50_000}\n1 Q0 b 2 1 t\n".encode())
    with pytest.warns(DataWarning, match="1 line has more than 6 columns .first: line 1.; the"):
        assert read_run(p).docs.to_list() == [doc, "b"]


def test_run_extra_columns_ignored_and_tag_is_last_line(tmp_path, text_parser):
    p = write(tmp_path, "r.txt", b"1 Q0 a 1 2.5 tagA extra\n1 Q0 b 2 1e0 tagB\n")
    with pytest.warns(DataWarning, match="1 line has more than 6 columns .first: line 1.") as w:
        r = read_run(p)
    assert str(w[0].message).endswith(EXTRA_COLUMNS)
    assert r.name == "r.txt" and r.tag == "tagB"
    assert r.scores.tolist() == [2.5, 1.0]


def test_numbers_as_python_reads_them(tmp_path, text_parser):
    p = write(
        tmp_path,
        "r.txt",
        b"1 Q0 a +3 +1.5 t\n1 Q0 b -2 -2E+01 t\n1 Q0 c 007 .5 t\n1 Q0 d 4 5. t\n",
    )
    r = read_run(p)
    assert r.scores.tolist() == [1.5, -20.0, 0.5, 5.0]
    assert r.ranks.tolist() == [3, -2, 7, 4]


@pytest.mark.parametrize(
    ("rank", "why"),
    [
        (b"0x10", "not an integer"),  # Arrow's integer cast alone would accept hexadecimal
        (b"1.0", "not an integer"),
        (b"99999999999999999999", "out of range"),
    ],
)
def test_unusable_rank_is_reported_only_when_given_order_needs_it(tmp_path, text_parser, rank, why):
    p = write(tmp_path, "r.txt", b"1 Q0 a 1 2 t\n1 Q0 b " + rank + b" 1 t\n")
    r = read_run(p)
    assert r.ranks is None
    assert r.rank_problem == f"line 2: rank {rank.decode()!r} is {why}"
    assert r.scores.tolist() == [2.0, 1.0]


def test_qrels_grades(tmp_path, text_parser):
    p = write(tmp_path, "q.txt", b"1 0 a +2\n1 0 b -1\n1 0 c 0\n1 0 d 007\n")
    assert read_qrels(p).to_dict() == {"1": {"a": 2, "b": -1, "c": 0, "d": 7}}


def test_ids_are_bytes_exact_strings(tmp_path, text_parser):
    p = write(tmp_path, "q.txt", "007 0 Straße 1\n7 0 straße 2\n#x 0 d\n q#1 0 é#1 3\n".encode())
    q = read_qrels(p)
    assert q.to_dict() == {"007": {"Straße": 1}, "7": {"straße": 2}, "q#1": {"é#1": 3}}


# --------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"1 0 a 1\n1 0 b\n", 2, "expected 4 columns"),
        (b"1 0 a 1\n1 0 b 1 extra\n", 2, "expected 4 columns .*, found 5"),
        (b"1 0 a 1\n1 0 b x\n", 2, "grade 'x' is not a number"),
        (b"1 0 a 1\n1 0 b 1.5\n", 2, "not an integer"),
        (b"1 0 a 1\n1 0 b 0x1\n", 2, "grade '0x1' is not a number"),
        (b"1 0 a 1\n1 0 b 99999999999999999999\n", 2, "out of range"),
        (b"1 0 a 1\n1 0 a 2\n", 2, "different grades"),
        (b"1 0 a 1\n\n1 0 a 1\n", 3, "judged twice"),
        (b"1 0 a 1\n1 0 \xff 1\n", 2, "undecodable byte 0xff"),
        (b"1 0 a 1\n1 0 b\x00 1\n", 2, "NUL byte"),
    ],
)
def test_bad_qrels_name_file_line_and_problem(tmp_path, text_parser, content, line, problem):
    p = write(tmp_path, "q.txt", content)
    with pytest.raises(InputError, match=problem) as exc:
        read_qrels(p)
    assert exc.value.line == line
    assert str(exc.value).startswith(f"{p}: line {line}: ")


def test_qrels_duplicate_reported_at_its_second_occurrence(tmp_path, text_parser):
    # in (query, doc) order the pair ('1', 'z') comes first, but ('2', 'a') repeats earlier
    p = write(tmp_path, "q.txt", b"1 0 z 1\n2 0 a 1\n2 0 a 1\n1 0 z 0\n")
    with pytest.raises(InputError, match="'a' is judged twice .* query '2' .first at line 2") as e:
        read_qrels(p)
    assert e.value.line == 3


def test_empty_files_are_errors(tmp_path, text_parser):
    for content in (b"", b"  \n\n", b"\xef\xbb\xbf"):
        p = write(tmp_path, "q.txt", content)
        with pytest.raises(InputError, match="file is empty"):
            read_qrels(p)
        with pytest.raises(InputError, match="file is empty"):
            read_run(p)
    p = write(tmp_path, "q.txt", b"# only a comment\n\n")
    with pytest.raises(InputError, match="no judgments"):
        read_qrels(p)
    with pytest.raises(InputError, match="no results"):
        read_run(p)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_qrels(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_run(tmp_path)


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 t\n", 2, "expected at least 6 columns"),
        (b"1 Q0 a 1 2.5 \n1 Q0 b 2 1 \n", 1, "expected at least 6 columns .*, found 5"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 high t\n", 2, "score 'high' is not a number"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 0x1p3 t\n", 2, "score '0x1p3' is not a number"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 1_000 t\n", 2, "score '1_000' is not a number"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 nan(1) t\n", 2, r"score 'nan\(1\)' is not a number"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 nan t\n", 2, "score is NaN"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 -inf t\n", 2, "score is infinite"),
        (b"1 Q0 a 1 2.5 t\n1 Q0 b 2 1e999 t\n", 2, "score is infinite"),
        (b"1 Q0 a 1 2.5 t\n2 Q0 a 1 2 t\n1 Q0 a 2 2.0 t\n", 3, "'a' is listed twice for query '1'"),
    ],
)
def test_bad_runs_name_file_line_and_problem(tmp_path, text_parser, content, line, problem):
    p = write(tmp_path, "r.txt", content)
    with pytest.raises(InputError, match=problem) as exc:
        read_run(p)
    assert exc.value.line == line


@pytest.mark.parametrize("content", [b"1 Q0 a 1 2 t\r1 Q0 b 2 1 t\r", b"1 0 a 1\r1 0 b 1"])
def test_cr_only_line_endings_are_refused(tmp_path, content):
    # trec_eval would read one long line (and, for a run, silently only its first result)
    with pytest.raises(InputError, match="bare CR"):
        read_run(write(tmp_path, "r.txt", content))


def test_bare_cr_inside_a_line_is_an_error(tmp_path, text_parser):
    # trec_eval reads a lone CR as a field separator: this would be one line with 12 fields,
    # the second result silently lost
    p = write(tmp_path, "r.txt", b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\r1 Q0 c 3 0 t\n")
    with pytest.raises(InputError, match="bare CR") as exc:
        read_run(p)
    assert exc.value.line == 2


# ----------------------------------------------------- the fast path never changes results


def _outcome(data: bytes, kind: str, parser: str, monkeypatch, tmp_path):
    use_text_parser(monkeypatch, parser)
    p = tmp_path / "f.txt"
    p.write_bytes(data)
    try:
        if kind == "run":
            r = read_run(p)
            return (
                r.query_ids,
                r.qcodes.tolist(),
                r.docs.to_list(),
                r.scores.tolist(),
                None if r.ranks is None else r.ranks.tolist(),
                r.tag,
                [r.line_of(i) for i in range(len(r))],
                r.rank_problem,
            )
        q = read_qrels(p)
        lines = [q.line_of(i) for i in range(len(q.grades))]
        return (q.query_ids, q.offsets.tolist(), q.doc_ids, q.grades.tolist(), lines)
    except InputError as exc:
        return ("error", str(exc))


_SEPS = st.sampled_from([" ", " ", " ", "\t", "  ", " \t ", "\x0b", "\x0c", "\r"])
_QIDS = st.sampled_from(["1", "2", "007", "10", "q#1", "é"])
_DOCS = st.sampled_from([f"d{i}" for i in range(40)] + ["#x", "D1", "x0x1"])
_RANKS = st.sampled_from(["1", "2", "17", "+3", "-1", "007", "0x1", "a", "1.0", "9" * 20])
_SCORES = st.sampled_from(
    ["1", "0.5", "-2e3", "+.5", "5.", "1E+01", "nan", "inf", "x", "1_0", "0x1", "nan(1)", "-0"]
)


@st.composite
def trec_text(draw, kind: str):
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        shape = draw(st.sampled_from(["data"] * 8 + ["blank", "comment", "short", "long"]))
        if shape == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t", "\r"])))
            continue
        if shape == "comment":
            lines.append(draw(st.sampled_from(["#", "# a b c", "  #x", "#1 Q0 d 1 1 t"])))
            continue
        if kind == "run":
            fields = [
                draw(_QIDS),
                "Q0",
                draw(_DOCS),
                draw(_RANKS),
                draw(_SCORES) if draw(st.integers(0, 5)) == 0 else "0.25",
                draw(st.sampled_from(["t", "run#1"])),
            ]
        else:
            grade = draw(st.sampled_from(["0", "1", "2", "-1", "+3", "1.5", "x", "0x1"]))
            fields = [draw(_QIDS), "0", draw(_DOCS), grade if draw(st.booleans()) else "1"]
        if shape == "short":
            fields = fields[:-1]
        if shape == "long":
            fields += ["extra", "# more"]
        line = "".join(f + draw(_SEPS) for f in fields[:-1]) + fields[-1]
        line = draw(st.sampled_from(["", " ", "\t"])) + line + draw(st.sampled_from(["", " "]))
        lines.append(line)
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = eol.join(lines) + draw(st.sampled_from(["", eol]))
    return text.encode()


_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.slow
@_SETTINGS
@given(data=trec_text("run"))
def test_fast_run_parsers_equal_exact_parser(data, monkeypatch, tmp_path):
    exact = _outcome(data, "run", "exact", monkeypatch, tmp_path)
    assert _outcome(data, "run", "fields", monkeypatch, tmp_path) == exact
    assert _outcome(data, "run", "arrow", monkeypatch, tmp_path) == exact


@pytest.mark.slow
@_SETTINGS
@given(data=trec_text("qrels"))
def test_fast_qrels_parsers_equal_exact_parser(data, monkeypatch, tmp_path):
    exact = _outcome(data, "qrels", "exact", monkeypatch, tmp_path)
    assert _outcome(data, "qrels", "fields", monkeypatch, tmp_path) == exact
    assert _outcome(data, "qrels", "arrow", monkeypatch, tmp_path) == exact


def test_fast_and_exact_run_parsers_agree_on_a_regular_file(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    lines = []
    for q in ["3", "1", "20"]:
        for i, d in enumerate(rng.choice(500, 50, replace=False)):
            lines.append(f"{q}\tQ0\tD{d}\t{i + 1}\t{rng.integers(0, 5) / 4}\tsys")
    p = write(tmp_path, "r.txt", ("\n".join(lines) + "\n").encode())
    use_text_parser(monkeypatch, "exact")
    exact = read_run(p)
    for parser in ("fields", "arrow"):
        use_text_parser(monkeypatch, parser)
        fast = read_run(p)
        assert fast.docs.is_arrow == (parser == "arrow") and not exact.docs.is_arrow
        assert fast.query_ids == exact.query_ids
        assert np.array_equal(fast.qcodes, exact.qcodes)
        assert fast.docs.to_list() == exact.docs.to_list()
        assert np.array_equal(fast.scores, exact.scores)
        assert np.array_equal(fast.ranks, exact.ranks)
        assert fast.tag == exact.tag == "sys"


def test_irregular_files_keep_their_lines_with_arrow_ids(tmp_path, monkeypatch):
    """Space-aligned CRLF columns with comments and blank lines: the core's reader with its
    ids as an Arrow column gives every row its line."""
    monkeypatch.setattr(trec_core, "ARROW_IDS_ROWS", 0)
    rows = [
        f"{q:<4} Q0  doc{d:<5} {d + 1:>4}  {1 / (d + 1):.6f}  sys\r\n"
        for q in (1, 2)
        for d in range(30)
    ]
    rows.insert(7, "# a comment\r\n")
    rows.insert(20, "\r\n")
    r = read_run(write(tmp_path, "r.txt", "".join(rows).encode()))
    assert len(r) == 60 and r.query_ids == ("1", "2")
    assert r.line_of(0) == 1 and r.line_of(7) == 9 and r.line_of(59) == 62
    q = read_qrels(write(tmp_path, "q.txt", b"  1 0 a 1 \r\n\r\n# x\r\n 2\t0\tb\t2"))
    assert q.to_dict() == {"1": {"a": 1}, "2": {"b": 2}}
    assert q.lines.tolist() == [1, 4]


# --------------------------------------------------------------------------- normaliser


def _reference_normalise(data: bytes, max_fields):
    out, lines = [], []
    for i, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if not f or f[0][:1] == b"#":
            continue
        out.append(b" ".join(f[:max_fields] if max_fields else f) + b"\n")
        lines.append(i)
    return b"".join(out), lines


@settings(max_examples=500, deadline=None)
@given(
    data=st.lists(
        st.sampled_from(
            [b" ", b"\t", b"\r", b"\n", b"\x0b", b"\x0c", b"a", b"bc", b"#", "é".encode(), b"\r\n"]
        ),
        max_size=60,
    ).map(b"".join),
    max_fields=st.sampled_from([None, 1, 2, 6]),
    chunk=st.sampled_from([1, 3, 16, 1 << 20]),
)
def test_normaliser_equals_split_per_line(data, max_fields, chunk):
    old = normalize_mod.CHUNK_BYTES
    normalize_mod.CHUNK_BYTES = chunk
    try:
        norm = normalize_fields(data, max_fields)
        got, lines = norm.data, norm.lines
    finally:
        normalize_mod.CHUNK_BYTES = old
    expected, expected_lines = _reference_normalise(data, max_fields)
    assert got == expected
    got_lines = list(range(1, len(expected_lines) + 1)) if lines is None else lines.tolist()
    assert got_lines == expected_lines
