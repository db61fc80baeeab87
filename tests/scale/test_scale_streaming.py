"""Reading a run in pieces and evaluating it one query block at a time gives, byte for byte, what
reading and judging the whole file gives: the same Run, the same Results, the same warnings and
the same error, in every layout (grouped, shuffled, ties, GOV2-style ids with x/X, tabs, gzip,
CRLF, comments and blank lines, extra columns), through every text parser, whatever the size
of the pieces (down to a few lines, so that queries straddle pieces)."""

from __future__ import annotations

import gzip
import io
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield import evaluate
from cranfield.errors import InputError
from cranfield.io import read_qrels
from cranfield.io.source import HEAD_BYTES
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io
from cranfield.io.trec.text import parse_trec_run, read_trec_run
from cranfield.judging import streamed_run

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.CranfieldWarning")

MEASURES = ["AP", "P@5", "nDCG@10", "RR", "R@20", "Rprec", "NumRelRet", "Bpref", "P@10"]
LAYOUTS = ("grouped", "shuffled", "late", "ties", "gov2", "tabs", "gzip", "crlf", "messy")


def run_text(layout: str, seed: int = 0, queries: int = 9) -> bytes:
    """A run in ``layout``: 9 queries of 5-40 results, ids in numeric (not strcmp) order."""
    rng = np.random.default_rng(seed)
    lines = []
    for q in range(1, queries + 1):
        n = int(rng.integers(5, 40))
        docs = rng.choice(80, size=n, replace=False)
        scores = np.sort(rng.random(n))[::-1]
        if layout == "ties":
            scores = np.round(scores * 4) / 4
        for r, (d, s) in enumerate(zip(docs.tolist(), scores.tolist(), strict=True), 1):
            doc = f"GX{d % 7:03d}-x{d // 7:02d}-X{d}" if layout == "gov2" else f"D{d}"
            lines.append(f"{q} Q0 {doc} {r} {s:.6f} tag{q}")
    if layout == "shuffled":
        lines = [lines[i] for i in rng.permutation(len(lines))]
    if layout == "late":  # grouped, but the first query comes back at the end
        lines.append(lines[0].replace(" D", " E", 1))
    if layout == "messy":  # comments, blank lines, extra columns, repeated blanks
        out = []
        for i, line in enumerate(lines):
            if i % 7 == 0:
                out.append("# a comment")
            if i % 11 == 0:
                out.append("   ")
            out.append(line + (" extra col" if i % 5 == 0 else "") if i % 3 else "  " + line)
        lines = out
    sep, end = ("\t", "\n") if layout == "tabs" else (" ", "\n")
    if layout == "crlf":
        end = "\r\n"
    text = end.join(line.replace(" ", sep) for line in lines) + end
    data = text.encode()
    return gzip.compress(data) if layout == "gzip" else data


def qrels_text(layout: str, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed + 100)
    rows = []
    for q in range(1, 11):  # query 10 has no results: a missing query
        for d in rng.choice(80, size=12, replace=False).tolist():
            doc = f"GX{d % 7:03d}-x{d // 7:02d}-X{d}" if layout == "gov2" else f"D{d}"
            rows.append(f"{q} 0 {doc} {int(rng.integers(-1, 4))}")
    return ("\n".join(rows) + "\n").encode()


def _runs_equal(a, b) -> None:
    assert a.query_ids == b.query_ids
    assert np.array_equal(a.qcodes, b.qcodes)
    assert a.docs.to_list() == b.docs.to_list()
    assert np.array_equal(a.scores, b.scores) and a.tag == b.tag
    assert (a.ranks is None) == (b.ranks is None)
    if a.ranks is not None:
        assert np.array_equal(a.ranks, b.ranks)
    assert (a.lines is None) == (b.lines is None)
    if a.lines is not None:
        assert np.array_equal(a.lines, b.lines)
    assert a.line_counts == b.line_counts and a.rank_problem == b.rank_problem


def _whole(monkeypatch) -> None:
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)


def _pieces(monkeypatch, size: int) -> None:
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", size)


def _evaluate(qp, rp, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = evaluate(qp, rp, MEASURES, **kw)
    return res, [str(w.message) for w in caught]


def _results_equal(a, b) -> None:
    (ra, wa), (rb, wb) = a, b
    assert ra.query_ids == rb.query_ids and ra.labels == rb.labels
    assert ra.values.tobytes() == rb.values.tobytes()
    assert ra.summary == rb.summary and ra.notes == rb.notes
    assert ra.aggregate() == rb.aggregate()
    assert {k: tuple(map(np.ndarray.tobytes, v)) for k, v in ra.parts.items()} == {
        k: tuple(map(np.ndarray.tobytes, v)) for k, v in rb.parts.items()
    }
    assert wa == wb


OPTIONS = [
    {},
    {"ties": "weak"},
    {"ties": "given"},
    {"depth": 9},
    {"ties": "weak", "depth": 9},
    {"judged_only": True, "complete": True},
    {"rel": 2, "aggregate": "micro"},
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", [1, 200, 1500])
def test_pieces_and_blocks_equal_the_whole_file(tmp_path, monkeypatch, text_parser, layout, size):
    rp = tmp_path / "run.txt"
    rp.write_bytes(run_text(layout))
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text(layout))
    _whole(monkeypatch)
    whole_run = read_trec_run(rp, "r")
    whole = [_evaluate(qp, rp, **kw) for kw in OPTIONS]
    _pieces(monkeypatch, size)
    _runs_equal(read_trec_run(rp, "r"), whole_run)
    for kw, expected in zip(OPTIONS, whole, strict=True):
        _results_equal(_evaluate(qp, rp, **kw), expected)


def test_the_data_reaches_every_path(tmp_path, monkeypatch):
    """The generated layouts exercise what they claim: batches judged by the compiled core as
    the run is read (several per run), a shuffled run collected by the core and judged at its
    end, and a run whose first query comes back at the end (read grouped until then, then read
    again and collected); none needs the whole-file reader."""
    seen = []
    real = streamed_run.judged_batches

    def batches(*a, grouped=True, **k):
        for b in real(*a, grouped=grouped, **k):
            seen.append("batch" if grouped else "collected")
            yield b

    whole = []
    real_whole = text_io.read_run_stream

    def read_whole(*a, **k):
        whole.append(a)
        return real_whole(*a, **k)

    monkeypatch.setattr(streamed_run, "judged_batches", batches)
    monkeypatch.setattr(streamed_run, "BATCH_ROWS", 40)
    monkeypatch.setattr(text_io, "read_run_stream", read_whole)
    _pieces(monkeypatch, 2000)
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    counts = {}
    for layout in ("grouped", "shuffled", "late"):
        seen.clear()
        (tmp_path / "r.txt").write_bytes(run_text(layout))
        _evaluate(qp, tmp_path / "r.txt")
        counts[layout] = (seen.count("batch"), seen.count("collected"), seen[-1])
    assert counts["grouped"][:2] == (counts["grouped"][0], 0) and counts["grouped"][0] >= 4
    assert counts["shuffled"][0] == 0 and counts["shuffled"][1] >= 3
    assert counts["late"][0] >= 3 and counts["late"][2] == "collected"
    assert not whole


@pytest.mark.parametrize("size", [1, 300])
def test_standard_input_streams_and_reads_again(tmp_path, monkeypatch, size):
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    for layout in ("grouped", "late", "gzip"):
        data = run_text(layout)
        (tmp_path / "r.txt").write_bytes(data)
        _whole(monkeypatch)
        expected = _evaluate(qp, tmp_path / "r.txt", names=["stdin"])
        _pieces(monkeypatch, size)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        _results_equal(_evaluate(qp, "-"), expected)


# ------------------------------------------------------------------------------- errors
def _damaged(layout: str, how: str) -> bytes:
    lines = run_text(layout).decode().splitlines(keepends=True)
    k = len(lines) - 3  # late in the file: in the last pieces
    if how == "fields":
        lines[k] = "5 Q0 D1 1\n"
    elif how == "score":
        lines[k] = lines[k].replace(" 0.", " nan", 1).replace("\t0.", "\tnan", 1)
    elif how == "duplicate":  # the same document twice for the last query, far apart
        lines.append(lines[k])
    elif how == "joined":
        lines[k] = lines[k].rstrip("\n") + " " + lines[k + 1]
    elif how == "bare_cr":
        lines[k] = lines[k].rstrip("\n") + "\r9 Q0 D1 1 1.0 t\n"
    elif how == "bad_id":
        lines[k] = lines[k].replace("D", "D\x7f", 1)
    elif how == "empty":
        lines = ["\n", "  \n", "# c\n"] * 5
    return "".join(lines).encode()


@pytest.mark.parametrize(
    "how", ["fields", "score", "duplicate", "joined", "bare_cr", "bad_id", "empty"]
)
@pytest.mark.parametrize("layout", ["grouped", "shuffled"])
def test_errors_are_the_whole_file_errors(tmp_path, monkeypatch, text_parser, how, layout):
    rp = tmp_path / "run.txt"
    rp.write_bytes(_damaged(layout, how))
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text(layout))
    _whole(monkeypatch)
    with pytest.raises(InputError) as whole:
        evaluate(qp, rp, MEASURES)
    _pieces(monkeypatch, 300)
    with pytest.raises(InputError) as streamed:
        evaluate(qp, rp, MEASURES)
    assert str(streamed.value) == str(whole.value)
    with pytest.raises(InputError) as joined:
        read_trec_run(rp, "r")
    assert str(joined.value) == str(whole.value)


@pytest.mark.parametrize("how", ["nul", "utf8", "bom", "cut_char"])
@pytest.mark.parametrize("layout", ["grouped", "shuffled"])
def test_text_the_core_rejects_is_the_whole_file_error(tmp_path, monkeypatch, how, layout):
    """The core's pass is fed the text unchecked and checks it as the stream's check would
    (no NUL byte, valid UTF-8, no inner byte order mark): text it rejects, beyond the head the
    format detection reads, gives the whole-file reader's error."""
    data = run_text(layout, queries=600)
    k = data.rfind(b"\n", 0, len(data) - 200) + 1  # a line's start near the end
    assert k > 4 * HEAD_BYTES
    if how == "nul":  # in a comment line, which the core's parser skips
        data = data[:k] + b"# a \x00 note\n" + data[k:]
    elif how == "utf8":
        data = data[:k] + data[k:].replace(b"D", b"D\xff", 1)
    elif how == "bom":
        data = data[:k] + data[k:].replace(b"D", b"D\xef\xbb\xbf", 1)
    else:  # a character cut short at the text's end
        data += "# \u00e9".encode()[:-1]
    rp = tmp_path / "run.txt"
    rp.write_bytes(data)
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text(layout))
    _whole(monkeypatch)
    with pytest.raises(InputError) as whole:
        evaluate(qp, rp, MEASURES)
    _pieces(monkeypatch, 1 << 14)
    passes = []
    real = streamed_run.judged_batches

    def judged_batches(*args, **kwargs):
        passes.append(kwargs.get("grouped"))
        return real(*args, **kwargs)

    monkeypatch.setattr(streamed_run, "judged_batches", judged_batches)
    with pytest.raises(InputError) as streamed:
        evaluate(qp, rp, MEASURES)
    assert passes  # the core's pass read the text
    assert str(streamed.value) == str(whole.value)
    assert "line" in str(whole.value)


def test_a_given_tie_policy_on_bad_ranks_fails_as_on_the_whole_file(tmp_path, monkeypatch):
    lines = run_text("grouped").decode().splitlines(keepends=True)
    lines[-4] = lines[-4].replace(" 2 ", " x2 ", 1) if " 2 " in lines[-4] else "9 Q0 D99 x 1 t\n"
    rp = tmp_path / "run.txt"
    rp.write_bytes("".join(lines).encode())
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    _whole(monkeypatch)
    with pytest.raises(InputError) as whole:
        evaluate(qp, rp, MEASURES, ties="given")
    expected = _evaluate(qp, rp)
    _pieces(monkeypatch, 200)
    with pytest.raises(InputError) as streamed:
        evaluate(qp, rp, MEASURES, ties="given")
    assert str(streamed.value) == str(whole.value)
    _results_equal(_evaluate(qp, rp), expected)  # trec order does not need the ranks


# ------------------------------------------------------------------- generated by Hypothesis
_ROW = st.tuples(
    st.sampled_from(["1", "2", "10", "x", "X9"]),
    st.sampled_from(["D1", "D2", "dx", "DX", "D10", "d"]),
    st.sampled_from(["1", "0.5", "0.50", "2", "-1", "1e1"]),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    rows=st.lists(_ROW, min_size=1, max_size=40, unique_by=lambda r: (r[0], r[1])),
    grouped=st.booleans(),
    size=st.integers(1, 120),
    sep=st.sampled_from([" ", "\t", "  ", " \t"]),
)
def test_any_small_run_in_any_pieces(rows, grouped, size, sep, tmp_path_factory):
    if grouped:
        rows = sorted(rows, key=lambda r: r[0])
    text = "".join(
        sep.join((q, "Q0", d, str(i), s, "t")) + "\n" for i, (q, d, s) in enumerate(rows)
    ).encode()
    tmp = tmp_path_factory.mktemp("h")
    rp, qp = tmp / "r.txt", tmp / "q.txt"
    rp.write_bytes(text)
    qp.write_bytes(b"1 0 D1 1\n2 0 D2 2\n10 0 dx 1\nx 0 DX 3\nX9 0 d 0\n")
    with pytest.MonkeyPatch.context() as mp:
        _whole(mp)
        expected_run = parse_trec_run(text, str(rp), "r")
        expected = _evaluate(qp, rp)
        _pieces(mp, size)
        _runs_equal(read_trec_run(rp, "r"), expected_run)
        _results_equal(_evaluate(qp, rp), expected)
    assert read_qrels(qp).num_queries == 5


# ------------------------------------------- other formats and inputs read only once


def _msmarco(text: bytes) -> bytes:
    """The same run as MS MARCO's ``qid docid rank`` (ranks 1, 2, 3... in file order)."""
    out = []
    for line in text.decode().splitlines():
        q, _, d, r, _s, _t = line.split()
        out.append(f"{q}\t{d}\t{r}")
    return ("\n".join(out) + "\n").encode()


def _csv(text: bytes) -> bytes:
    out = ["qid,docno,rank,score"]
    for line in text.decode().splitlines():
        q, _, d, r, s, _t = line.split()
        out.append(f"{q},{d},{r},{s}")
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize("kind", ["msmarco", "csv"])
@pytest.mark.parametrize("pieces", [False, True])
def test_a_large_file_in_another_format_is_read_by_its_reader(tmp_path, monkeypatch, kind, pieces):
    """The first data line decides the format whether or not the file would be read in
    pieces: an MS MARCO run or a CSV with a header gives the same Results either way, and the
    same as the equivalent TREC run (MS MARCO: scores from the ranks, same order)."""
    text = run_text("grouped")
    rp = tmp_path / f"run.{kind}"
    rp.write_bytes(_msmarco(text) if kind == "msmarco" else _csv(text))
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    tp = tmp_path / "run.txt"
    tp.write_bytes(text)
    _whole(monkeypatch)
    expected = _evaluate(qp, tp)
    if pieces:
        _pieces(monkeypatch, 200)
    got = _evaluate(qp, rp)
    assert got[0].values.tobytes() == expected[0].values.tobytes()
    assert got[0].query_ids == expected[0].query_ids


def test_a_first_data_line_beyond_the_first_read_is_found(tmp_path, monkeypatch):
    """Comment lines longer than the first read: the format is settled from the whole file."""
    from cranfield.io import source as source_mod

    monkeypatch.setattr(source_mod, "HEAD_BYTES", 64)
    text = run_text("grouped")
    rp = tmp_path / "run.tsv"
    rp.write_bytes(b"# " + b"c" * 300 + b"\n" + _msmarco(text))
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    tp = tmp_path / "run.txt"
    tp.write_bytes(text)
    _whole(monkeypatch)
    expected = _evaluate(qp, tp)[0]
    _pieces(monkeypatch, 200)
    assert _evaluate(qp, rp)[0].values.tobytes() == expected.values.tobytes()


def test_a_given_trec_format_is_not_detected(tmp_path, monkeypatch):
    """``format="trec"``: a 3-column file read in pieces is TREC text, and wrong as such."""
    from cranfield import read_run

    rp = tmp_path / "run.txt"
    rp.write_bytes(_msmarco(run_text("grouped")))
    _pieces(monkeypatch, 200)
    with pytest.raises(InputError, match="line 1"):
        read_run(rp, format="trec")
    assert len(read_run(rp)) == len(run_text("grouped").splitlines())


def _fifo(tmp_path, data: bytes):
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as fh:
            fh.write(data)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    return fifo, t


@pytest.mark.parametrize(
    "what", ["grouped", "shuffled", "late", "msmarco", "error"], ids=lambda w: w
)
def test_a_named_pipe_is_read_once_even_when_read_again(tmp_path, monkeypatch, what):
    """A named pipe cannot be opened twice: the format check, a run found not to be grouped
    after the first piece, and an error that sends the reading back to the whole-file reader
    all read it again from its copy, with the results of the same bytes in a file (a hang
    here was the bug)."""
    text = run_text("grouped" if what in ("msmarco", "error") else what)
    if what == "msmarco":
        text = _msmarco(text)
    if what == "error":
        text = text + b"1 Q0 D999 1 high t\n"
    qp = tmp_path / "qrels.txt"
    qp.write_bytes(qrels_text("grouped"))
    fp = tmp_path / "run.txt"
    fp.write_bytes(text)
    _pieces(monkeypatch, 200)
    if what == "error":
        with pytest.raises(InputError) as in_file:
            evaluate(qp, fp, MEASURES)
    else:
        expected = _evaluate(qp, fp)
    fifo, t = _fifo(tmp_path, text)
    try:
        if what == "error":
            with pytest.raises(InputError) as in_pipe:
                evaluate(qp, fifo, MEASURES)
            assert (in_pipe.value.problem, in_pipe.value.line) == (
                in_file.value.problem,
                in_file.value.line,
            )
        else:
            got = _evaluate(qp, fifo)
            assert got[0].values.tobytes() == expected[0].values.tobytes()
            assert got[0].query_ids == expected[0].query_ids
    finally:
        t.join(timeout=10)
    assert not t.is_alive()
