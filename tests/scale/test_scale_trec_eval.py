"""``cranfield trec_eval`` on a run read in pieces and evaluated one query block at a time
prints trec_eval 10.0's expected outputs byte for byte (the conformance cases of the qrels
format, with pieces of a few lines), and the same bytes, warnings and errors as on the whole
file for runs in every layout; its output is written in pieces."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from test_scale_streaming import qrels_text, run_text
from test_trec_eval_conformance import CASES

from conftest import CONFORMANCE, need
from cranfield.compat.trec_eval import engine
from cranfield.errors import CranfieldError
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io


def _main(argv):
    out, err = io.BytesIO(), io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status = engine.main(argv, out=out, err=err)
    return status, out.getvalue(), err.getvalue(), [str(w.message) for w in caught]


def _qrels_cases():
    """The conformance cases of the qrels format, with pieces of one line and of a few; the
    large files in pieces of one line are slow (thousands of blocks)."""
    for case in CASES:
        values = case.values if hasattr(case, "values") else case
        if "-R" in values[1]:
            continue
        for size in (1, 700):
            slow = size == 1 and "comment" in values[3]
            yield pytest.param(*values, size, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize(("expected", "flags", "rel_info", "results", "size"), _qrels_cases())
def test_conformance_outputs_from_query_blocks(
    monkeypatch, expected, flags, rel_info, results, size
):
    need(CONFORMANCE)
    monkeypatch.chdir(CONFORMANCE)
    argv = [*flags.split(), rel_info, results]
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
    whole = _main(argv)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", size)
    monkeypatch.setattr(engine, "OUTPUT_BYTES", 100)  # written in many pieces
    streamed = _main(argv)
    assert streamed[1] == (CONFORMANCE / expected).read_bytes()
    assert streamed == whole


FLAGS = [
    "-q -m all_trec",
    "-q -c -M 7 -m all_trec",
    "-J -l 2 -m official",
    "-q -m relstring.5 -m P.5",
]


@pytest.mark.parametrize("layout", ["grouped", "shuffled", "late", "ties", "gov2", "messy", "gzip"])
def test_layouts_give_the_whole_file_output(tmp_path, monkeypatch, layout):
    (tmp_path / "q").write_bytes(qrels_text(layout))
    (tmp_path / "r").write_bytes(run_text(layout))
    monkeypatch.chdir(tmp_path)
    for flags in FLAGS:
        argv = [*flags.split(), "q", "r"]
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
        whole = _main(argv)
        assert whole[0] == 0 and whole[1]
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 300)
        assert _main(argv) == whole, flags


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["ties", "messy", "late", "shuffled"])
def test_large_pieces_judged_on_all_threads_give_the_whole_file_output(
    tmp_path, monkeypatch, layout
):
    """Pieces of 1 MiB or more are cut between query blocks and judged on all threads by the
    core (rust/src/run_judge.rs); comments, blank lines, a query met again at the end and a
    run not grouped by query (collected by rust/src/run_collect.rs) give the whole file's
    bytes, without the whole-file reader."""
    rng = np.random.default_rng(7)
    qrels = "".join(
        f"{q} 0 D{d} {int(rng.integers(-1, 4))}\n"
        for q in range(1, 5001)
        for d in rng.choice(80, size=12, replace=False).tolist()
    )
    (tmp_path / "q").write_text(qrels)
    run = run_text(layout, queries=5000)
    assert len(run) > 3 << 20
    (tmp_path / "r").write_bytes(run)
    monkeypatch.chdir(tmp_path)
    argv = ["-q", "-c", "-m", "all_trec", "q", "r"]
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
    whole = _main(argv)
    assert whole[0] == 0 and whole[1]
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 1 << 20)
    real, whole_reads = text_io.read_run_stream, []

    def read_run_stream(*args, **kwargs):
        whole_reads.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(text_io, "read_run_stream", read_run_stream)
    assert _main(argv) == whole
    assert not whole_reads  # the core settled each run alone


@pytest.mark.parametrize(
    "damage",
    [
        ("r", lambda t: t.replace(b"\n", b"\n5 Q0 D1 1\n", 1)),
        ("r", lambda t: t + t.splitlines(keepends=True)[3]),
        ("z", None),
    ],
)
def test_errors_come_in_trec_eval_order(tmp_path, monkeypatch, damage):
    """A bad run line beats a bad measure parameter and a missing z-score file, as in
    trec_eval; every error is the whole-file one."""
    what, change = damage
    text = run_text("grouped")
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(change(text) if what == "r" else text)
    monkeypatch.chdir(tmp_path)
    cases = [
        ["-m", "P.5", "q", "r"],
        ["-m", "P.x", "q", "r"],
        ["-Z", "missing", "-m", "P.5", "q", "r"],
    ]
    for argv in cases:
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
        try:
            whole = _main(argv)
        except CranfieldError as exc:  # compared below
            whole = repr(exc)
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 300)
        try:
            streamed = _main(argv)
        except CranfieldError as exc:
            streamed = repr(exc)
        assert streamed == whole, argv


def _damage_late(text: bytes, how: str) -> bytes:
    """``text`` with one problem near its end (in the last large piece)."""
    lines = text.splitlines(keepends=True)
    k = len(lines) - 50
    if how == "fields":
        lines[k] = b"4999 Q0 D1 1\n"
    elif how == "score":
        lines[k] = lines[k].replace(b" 0.", b" x.", 1)
    elif how == "duplicate":  # the same document twice in one query block
        lines.insert(k + 1, lines[k])
    elif how == "joined":
        lines[k] = lines[k].rstrip(b"\n") + b" " + lines[k + 1]
    elif how == "control":
        lines[k] = lines[k].replace(b" D", b" D\x7f", 1)
    elif how == "c1_control":
        lines[k] = lines[k].replace(b" D", " D\u0085".encode(), 1)
    elif how == "hidden":
        lines[k] = b"#" + lines[k]
    elif how == "nul":  # in a comment line, which the core's parser skips
        lines.insert(k, b"# a \x00 note\n")
    elif how == "utf8":
        lines[k] = lines[k].replace(b" D", b" D\xff", 1)
    elif how == "bom":
        lines[k] = lines[k].replace(b" D", b" D\xef\xbb\xbf", 1)
    elif how == "cut_char":
        lines.append("# \u00e9".encode()[:-1])
    return b"".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize(
    "how",
    [
        *("fields", "score", "duplicate", "joined", "control", "c1_control", "hidden"),
        *("nul", "utf8", "bom", "cut_char"),
    ],
)
def test_a_problem_in_a_piece_judged_on_all_threads_is_the_whole_file_error(
    tmp_path, monkeypatch, how
):
    """A problem in a piece of 1 MiB or more, which the core reads in parts on several
    threads, stops its pass: the whole-file reader's error (or output) stands."""
    rng = np.random.default_rng(3)
    (tmp_path / "q").write_text(
        "".join(
            f"{q} 0 D{d} {int(rng.integers(0, 3))}\n"
            for q in range(1, 5001)
            for d in rng.choice(80, size=6, replace=False).tolist()
        )
    )
    text = _damage_late(run_text("grouped", queries=5000), how)
    assert len(text) > 3 << 20
    (tmp_path / "r").write_bytes(text)
    monkeypatch.chdir(tmp_path)
    argv = ["-q", "-m", "P.5", "-m", "map", "q", "r"]
    outcomes = []
    for size in (1 << 62, None):
        if size is None:
            monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
            monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 1 << 20)
        else:
            monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", size)
        try:
            outcomes.append(_main(argv))
        except CranfieldError as exc:
            outcomes.append(repr(exc))
    assert outcomes[0] == outcomes[1]
    assert isinstance(outcomes[0], str) and "line" in outcomes[0], outcomes[0]


def test_topics_gathered_batch_by_batch_are_the_joined_parts():
    """The streamed path's per-topic values (``Topics``: one array per value, grown past
    the room it expected, a value that turns from integer to float) equal the parts joined
    and put in topic order by ``merge_topics``."""
    from cranfield.compat.trec_eval.measuring import merge_topics
    from cranfield.compat.trec_eval.streamed import Topics

    rng = np.random.default_rng(5)
    ids = [f"q{i}" for i in rng.permutation(40)]
    parts = []
    at = 0
    for size in (3, 1, 9, 12, 15):
        topics = ids[at : at + size]
        at += size
        ints = rng.integers(0, 9, size)
        second = ints if len(parts) < 2 else ints + 0.5  # int64, then float64
        values = {"num_ret": [ints], "P": [rng.random(size), second]}
        parts.append((topics, values, [f"r{t}" for t in topics]))
    gathered = Topics(4)  # room for 4: grown three times
    for p in parts:
        gathered.add((p[0], {k: list(v) for k, v in p[1].items()}, list(p[2])))
    got = gathered.part()
    want = merge_topics([(p[0], {k: list(v) for k, v in p[1].items()}, p[2]) for p in parts])
    assert got[0] == want[0] == sorted(ids)
    assert got[2] == want[2]
    assert got[1].keys() == want[1].keys()
    for k in want[1]:
        for a, b in zip(got[1][k], want[1][k], strict=True):
            assert a.dtype == b.dtype
            assert np.array_equal(a, b)
