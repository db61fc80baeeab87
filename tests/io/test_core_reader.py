"""The compiled core's TREC reader (``cranfield._core``, :mod:`cranfield.io.trec.core`)
against the exact line parser of :mod:`cranfield.io.trec.text` (the oracle): on generated and
mutated files, the same rows, ids, numbers (bit for bit), line numbers and counts, or the
same error, word for word."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import use_text_parser
from cranfield.errors import InputError
from cranfield.io.trec import text, text_oracle
from cranfield.io.trec.core import core_qrels, core_run

SOURCE = "f.txt"

NUMBERS = [
    "1", "0", "-0", "+2", "007", "-1", "1.5", "2.", ".5", "+.5", "-.5", ".", "1e5", "1E-07",
    "1.e5", ".e5", "1e", "1e+", "inf", "-Infinity", "nan", "+NaN", "nan(1)", "infinit",
    "1_0", "0x10", "١", "２", "\u00a01", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "00000000000000000000000000000001",
    "99999999999999999999", "0.1000000000000000055511151231257827", "1e400", "4.9e-324",
    "2.2250738585072011e-308", "123456789012345678901234567890", "--1", "1-", "+",
]  # fmt: skip
IDS = ["q1", "q2", "q10", "Q0", "d1", "d2", "doc-é", "日本", "#x", "#", "t", "run", "0", "a#b"]
SPACES = [" ", "  ", "\t", " \t ", "\x0b", "\x0c", "\r"]


@st.composite
def lines(draw, kind: str) -> str:
    shape = draw(st.sampled_from(["data", "data", "data", "blank", "comment", "random"]))
    if shape == "blank":
        return draw(st.sampled_from(["", " ", "\t", " \r"]))
    if kind == "run":
        f = [
            draw(st.sampled_from(IDS[:3])),
            draw(st.sampled_from(["Q0", "Q0", "q0", "0"])),
            draw(st.sampled_from(IDS)),
            draw(st.sampled_from([*NUMBERS, "1", "2", "3"])),
            draw(st.sampled_from([*NUMBERS, "0.5", "1.25", "-3"])),
            draw(st.sampled_from(["t", "run"])),
        ]
        if draw(st.integers(0, 4)) == 0:  # extra columns, maybe a second result
            f += draw(st.lists(st.sampled_from([*IDS, *NUMBERS[:8]]), max_size=8))
    else:
        f = [
            draw(st.sampled_from(IDS[:3])),
            draw(st.sampled_from(["0", "Q0"])),
            draw(st.sampled_from(IDS)),
            draw(st.sampled_from([*NUMBERS, "0", "1", "2"])),
        ]
    if shape == "comment":
        f[0] = "#" + f[0]
    if shape == "random":
        f = draw(st.lists(st.sampled_from(IDS + NUMBERS), max_size=13))
        if draw(st.booleans()):
            f = f[: draw(st.integers(0, len(f)))]
    seps = [*(draw(st.sampled_from(SPACES)) for _ in f[1:]), ""][: len(f)]
    lead = draw(st.sampled_from(["", "", " ", "\t"]))
    end = draw(st.sampled_from(["", "", " ", "\r", " \r"]))
    return lead + "".join(t + s for t, s in zip(f, seps, strict=True)) + end


@st.composite
def files(draw, kind: str) -> bytes:
    body = draw(st.lists(lines(kind), min_size=1, max_size=12))
    out = "\n".join(body) + draw(st.sampled_from(["", "\n", "\n\n"]))
    return out.encode()


def _outcome(parse, data: bytes):
    try:  # the checks every text gets before a parser sees it (UTF-8, no NUL, line ends)
        text.check_text(data, SOURCE)
        data, _ = text._check_trec(data, SOURCE)
        return "ok", parse(data)
    except InputError as exc:
        return "error", str(exc)


def _same_run(a, b) -> None:
    assert a.query_ids == b.query_ids
    np.testing.assert_array_equal(a.qcodes, b.qcodes)
    assert a.qcodes.dtype == b.qcodes.dtype == np.int32
    assert a.docs.to_list() == b.docs.to_list()
    assert a.scores.dtype == np.float64
    # bit for bit (-0.0, NaN payloads aside: NaN scores are refused after the read)
    assert a.scores.view(np.uint64).tolist() == b.scores.view(np.uint64).tolist() or (
        np.isnan(a.scores).any() and np.array_equal(a.scores, b.scores, equal_nan=True)
    )
    assert (a.ranks is None) == (b.ranks is None)
    if a.ranks is not None:
        assert a.ranks.tolist() == b.ranks.tolist()
    assert a.rank_problem == b.rank_problem
    assert a.tag == b.tag
    assert (a.lines is None) == (b.lines is None)
    if a.lines is not None:
        assert a.lines.tolist() == b.lines.tolist()
    assert a.line_counts == b.line_counts


def _same_qrels(a, b) -> None:
    assert a.query_ids == b.query_ids
    assert a.offsets.tolist() == b.offsets.tolist()
    assert a.doc_ids == b.doc_ids
    assert a.grades.tolist() == b.grades.tolist()
    assert _lines(a) == _lines(b)
    assert a.line_counts == b.line_counts


def _lines(qrels) -> list[int]:
    """Each judgment's line."""
    return [qrels.line_of(i) for i in range(len(qrels.grades))]


def _check_run(data: bytes, list_rows: int = 1 << 62) -> None:
    want = _outcome(lambda d: text_oracle.parse_run_python(d, SOURCE, "r"), data)
    got = _outcome(lambda d: core_run(d, SOURCE, "r", list_rows), data)
    assert got[0] == want[0], (got, want)
    if want[0] == "error":
        assert got[1] == want[1]
    else:
        _same_run(got[1], want[1])


def _check_qrels(data: bytes) -> None:
    want = _outcome(lambda d: text_oracle.parse_qrels_python(d, SOURCE), data)
    got = _outcome(lambda d: core_qrels(d, SOURCE), data)
    assert got[0] == want[0], (got, want)
    if want[0] == "error":
        assert got[1] == want[1]
    else:
        _same_qrels(got[1], want[1])


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(files("run"))
@example(b"q Q0 d 1 1 t q Q0 e 2 0 t\n")
@example(b"#q Q0 d 1 1 t\n")
@example(b"q Q0 d x 1 t\nq Q0 e y 2 t\n")
def test_runs_read_as_the_line_parser_reads_them(data):
    _check_run(data)


@SETTINGS
@given(files("run"))
def test_runs_with_arrow_ids_read_the_same(data):
    _check_run(data, list_rows=0)


@SETTINGS
@given(files("qrels"))
@example(b"q 0 d 1\nq 0 d 1.5\n")
@example(b"q2 0 b 1\nq10 0 z 0\nq10 0 a 2\nq2 0 a -1\nq2 0 b 3\n")
def test_qrels_read_as_the_line_parser_reads_them(data):
    _check_qrels(data)


@SETTINGS
@given(files("run"), st.data())
def test_mutated_runs_read_the_same(data, draw):
    """Bytes deleted, duplicated or replaced (by whitespace, a digit, '#', '.', a letter)."""
    b = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 4))):
        if not b:
            break
        i = draw.draw(st.integers(0, len(b) - 1))
        op = draw.draw(st.sampled_from(["del", "dup", "set"]))
        if op == "del":
            del b[i]
        elif op == "dup":
            b.insert(i, b[i])
        else:
            b[i] = draw.draw(st.sampled_from(b" \t\n\r#.5eQx-+_\x0b"))
    _check_run(bytes(b))
    _check_qrels(bytes(b))


@pytest.mark.parametrize("oracle", ["fields", "arrow"])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(run=files("run"), qrels=files("qrels"))
def test_the_core_reads_as_the_replaced_fast_readers_did(oracle, run, qrels):
    """The numpy field splitter and the Arrow parser (with its normaliser), as they were
    chosen by size, give what the core gives."""
    with pytest.MonkeyPatch.context() as mp:
        use_text_parser(mp, oracle)
        want_run = _outcome(lambda d: text_oracle.parse_run_oracle(d, SOURCE, "r"), run)
        want_qrels = _outcome(lambda d: text_oracle.parse_qrels_oracle(d, SOURCE), qrels)
    got_run = _outcome(lambda d: text._parse_run(d, SOURCE, "r"), run)
    got_qrels = _outcome(lambda d: text._parse_qrels(d, SOURCE), qrels)
    assert (got_run[0], got_qrels[0]) == (want_run[0], want_qrels[0])
    if got_run[0] == "error":
        assert got_run[1] == want_run[1]
    else:
        _same_run(got_run[1], want_run[1])
    if got_qrels[0] == "error":
        assert got_qrels[1] == want_qrels[1]
    else:
        _same_qrels(got_qrels[1], want_qrels[1])


@pytest.mark.parametrize(
    "tok",
    [b"0.1", b"1e-320", b"2.2250738585072014e-308", b"179769313486231570000000000000e279",
     b"0.30000000000000004", b"123456789.123456789", b"9007199254740993", b"1e23", b"-0.0"],
)  # fmt: skip
def test_scores_are_pythons_floats_bit_for_bit(tok):
    run = core_run(b"q Q0 d 1 " + tok + b" t\n", SOURCE, "r", 1 << 62)
    assert run.scores[0].tobytes() == np.float64(float(tok)).tobytes()


def test_a_panic_in_the_core_is_one_clear_error():
    from cranfield import _core

    with pytest.raises(_core.InternalError, match="internal error in cranfield's compiled core"):
        _core._panic()


def test_import_cranfield_does_not_load_the_core_reading_does(tmp_path):
    """``import cranfield`` and ``--help`` stay light: the core is loaded by the first read."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    run = tmp_path / "r.txt"
    run.write_text("q Q0 d 1 1 t\n")
    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, PYTHONPATH=str(src))
    code = (
        "import sys, cranfield, cranfield.cli\n"
        "print('cranfield._core' in sys.modules)\n"
        f"cranfield.read_run({str(run)!r})\n"
        "print('cranfield._core' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]


# ------------------------------------------------------------------ the join (judge.rs)

_DOCS = st.sampled_from(["a", "b", "c", "d", "é", "日", "a1", "b2"])
_QUERIES = st.sampled_from(["1", "2", "10", "x"])


@settings(max_examples=200, deadline=None)
@given(
    judged=st.dictionaries(
        st.tuples(_QUERIES, _DOCS),
        st.sampled_from([2, 1, 0, -1, -(2**63), 2**63 - 1]),
        max_size=20,
    ),
    rows=st.lists(st.tuples(_QUERIES, _DOCS), max_size=30),
)
def test_the_cores_join_gives_the_grades_the_numpy_lookup_gives(judged, rows):
    """The core's join (``_core.QrelsIndex`` + ``_core.judge_grades``, judge.rs) against
    ``IdColumn.lookup`` + ``Qrels.grades_of`` (the oracle), the rows in file order."""
    from cranfield import _core
    from cranfield.data.id_column import IdColumn
    from cranfield.data.tables import MISSING, Qrels, Run

    keys = list(judged)
    qrels = Qrels.from_rows(
        [q for q, _ in keys], [d for _, d in keys], np.array(list(judged.values()), np.int64)
    )
    qids = list(dict.fromkeys(q for q, _ in rows))
    run = Run(
        name="r",
        query_ids=tuple(qids),
        qcodes=np.array([qids.index(q) for q, _ in rows], dtype=np.int32),
        docs=IdColumn([d for _, d in rows]),
        scores=np.zeros(len(rows)),
    )
    query_of = np.array([qrels.query_index.get(q, -1) for q in qids], dtype=np.int64)
    grades = qrels.grades_of(query_of[run.qcodes], run.docs.lookup(qrels.doc_index))
    # the judged arrays' codes: -1 not in the qrels, -2 listed with a negative grade
    want = [-1 if g == MISSING else -2 if g < 0 else g for g in grades.tolist()]
    index = _core.QrelsIndex(
        qrels.offsets, list(qrels.doc_ids), qrels.grades, list(qrels.query_ids)
    )
    n = len(rows)  # a segment per row, each row its own query's
    one_each = np.arange(n + 1, dtype=np.int64)
    got = _core.judge_grades(
        index, query_of[run.qcodes], one_each, one_each[:n], run.docs.to_list(), n
    )
    assert got.tolist() == want
