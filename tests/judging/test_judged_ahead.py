"""``cranfield trec_eval`` judges the first pieces of its run while it imports the engine
(``core_ahead.judge_run``); the judging pass takes that pass and what it gave
(``core_ahead.judged_run``): the same batches, output and errors as a pass made afresh, and
nothing taken for other qrels, options or another file."""

from __future__ import annotations

import errno
import io
import os
import threading
import time
import warnings

import pytest
from test_core_ahead import _command
from test_measured_while_judged import _value
from test_scale_streaming import qrels_text, run_text

from cranfield.base import core_ahead
from cranfield.cli import trec_eval as trec_eval_cli
from cranfield.compat.trec_eval import engine
from cranfield.errors import InputError
from cranfield.io.source import Stream
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io
from cranfield.io.trec.text import read_trec_qrels
from cranfield.judging import streamed_run

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the core reads files on POSIX only")


def _ahead(tmp_path, monkeypatch, layout="grouped", **options):
    """The qrels read and the run judged ahead in pieces of 300 bytes, batches of 50 rows,
    until the pass has judged its pieces; the qrels read (taking the read made ahead)."""
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 300)
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(run_text(layout, queries=40))
    options = {"depth": None, "judged_only": False, "rows": 50, "piece_bytes": 300, **options}
    then = core_ahead.judge_run(str(tmp_path / "r"), **options)
    core_ahead.start(str(tmp_path / "q"), "ReadQrels", then=then)
    qrels = read_trec_qrels(tmp_path / "q")
    for _ in range(1000):  # the pass judges its pieces (the test waits for them)
        if core_ahead._runs and core_ahead._runs[0]._ended:
            break
        time.sleep(0.01)
    return qrels


def _batches(tmp_path, qrels, **keywords):
    return [
        (b.run_ids, b.tag, b.counts, None if b.rankings is None else _value(b.rankings))
        for b in streamed_run.judged_batches(Stream(tmp_path / "r"), qrels, "r", **keywords)
    ]


@pytest.fixture
def claims(monkeypatch):
    """What each claim of a pass judged ahead got: its steps made so far, or ``None``."""
    got = []
    real = core_ahead.judged_run

    def recorded(*args, **options):
        run = real(*args, **options)
        got.append(None if run is None else len(run._steps))
        return run

    monkeypatch.setattr(core_ahead, "judged_run", recorded)
    return got


def test_the_pass_judged_ahead_gives_the_batches_of_a_pass_made_afresh(
    tmp_path, monkeypatch, claims
):
    qrels = _ahead(tmp_path, monkeypatch)
    ahead = _batches(tmp_path, qrels, rows=50)
    assert claims == [core_ahead.AHEAD_PIECES]  # every step made ahead, replayed
    fresh = _batches(tmp_path, read_trec_qrels(tmp_path / "q"), rows=50)
    assert claims[1:] == [None]
    assert ahead == fresh and len(ahead) >= 4


@pytest.mark.parametrize(
    ("layout", "raised"),
    [("shuffled", streamed_run.NotGrouped), ("late", streamed_run.NotGrouped)],
)
def test_a_pass_stopped_ahead_stops_where_a_fresh_one_does(
    tmp_path, monkeypatch, claims, layout, raised
):
    qrels = _ahead(tmp_path, monkeypatch, layout)
    got = []
    with pytest.raises(raised):
        for b in streamed_run.judged_batches(Stream(tmp_path / "r"), qrels, "r", rows=50):
            got.append(b.run_ids)
    assert claims[0] is not None
    fresh = []
    with pytest.raises(raised):
        for b in streamed_run.judged_batches(
            Stream(tmp_path / "r"), read_trec_qrels(tmp_path / "q"), "r", rows=50
        ):
            fresh.append(b.run_ids)
    assert got == fresh


@pytest.mark.parametrize(
    "other",
    [
        {"depth": 5},
        {"judged_only": True},
        {"rows": 40},
        {"piece_bytes": 200},
        {"another file": True},
        {"other qrels": True},
    ],
    ids=lambda o: next(iter(o)),
)
def test_nothing_is_taken_for_other_options_qrels_or_file(tmp_path, monkeypatch, claims, other):
    key = next(iter(other))
    options = {} if key in ("another file", "other qrels") else other
    qrels = _ahead(tmp_path, monkeypatch, **options)
    if key == "another file":  # a new file at the run's path: another inode
        data = (tmp_path / "r").read_bytes()
        (tmp_path / "r").unlink()
        (tmp_path / "r").write_bytes(data)
    if key == "other qrels":  # the same judgments read again: another index
        qrels = read_trec_qrels(tmp_path / "q")
    got = _batches(tmp_path, qrels, rows=50)
    assert claims == [None]
    assert got == _batches(tmp_path, read_trec_qrels(tmp_path / "q"), rows=50)


def test_a_read_that_failed_ahead_is_the_error_a_fresh_read_gives(tmp_path, monkeypatch):
    qrels = _ahead(tmp_path, monkeypatch)
    batches = streamed_run._Batches(qrels, "r", None, False, None)
    failed = OSError(errno.EIO, os.strerror(errno.EIO))
    fed = streamed_run._fed_by_core(
        None,
        None,
        Stream(tmp_path / "r"),
        batches,
        50,
        iter(
            [
                (True, None),
                (failed, None),
            ]
        ),
    )
    assert next(fed) is None
    with pytest.raises(InputError) as caught:
        next(fed)
    assert str(caught.value) == f"{tmp_path / 'r'}: cannot read: {os.strerror(errno.EIO)}"


@pytest.mark.parametrize("layout", ["grouped", "ties", "shuffled", "late", "damaged"])
def test_the_command_prints_the_same_with_its_run_judged_ahead(
    tmp_path, monkeypatch, capsys, claims, layout
):
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)  # every run read in pieces
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    data = run_text("grouped" if layout == "damaged" else layout, queries=40)
    if layout == "damaged":
        data = data.replace(b" Q0 D", b" Q0 D\x00", 1)
    (tmp_path / "r").write_bytes(data)
    argv = ["-q", "-c", str(tmp_path / "q"), str(tmp_path / "r")]
    ahead = _command(argv, capsys)
    assert len(claims) >= 1 and claims[0] is not None  # the pass made ahead was taken
    monkeypatch.setattr(trec_eval_cli, "_qrels_ahead", lambda argv: None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _command(argv, capsys) == ahead
    assert (ahead[0] == "error") == (layout == "damaged")


def test_a_run_that_is_no_regular_file_is_not_opened_ahead(tmp_path, monkeypatch):
    """A named pipe (which a reader ahead would wait on, and which can be read once), a
    directory and a missing file: nothing judged ahead, and the thread ends."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    os.mkfifo(tmp_path / "fifo")
    os.mkdir(tmp_path / "dir")
    for run in ["fifo", "dir", "missing"]:
        then = core_ahead.judge_run(
            str(tmp_path / run), depth=None, judged_only=False, rows=50, piece_bytes=300
        )
        core_ahead.start(str(tmp_path / "q"), "ReadQrels", then=then)
        assert core_ahead.take("ReadQrels", qrels_text("grouped")) is not None
        for thread in threading.enumerate():
            if thread.name.startswith("cranfield: ReadQrels ahead"):
                thread.join(timeout=60)
                assert not thread.is_alive(), run
        assert core_ahead._runs == [], run


@pytest.mark.parametrize("option", [["-M", "-5"], ["-M", "99999999999999999999999"], ["-J"]])
def test_the_command_with_options_the_pass_ahead_may_refuse(tmp_path, cli, option):
    """In a process of its own (its threads' errors would show on its standard error): a
    depth the core's pass refuses fails ahead without a word, and the command's output is the
    engine's (which judges nothing ahead)."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(run_text("grouped", queries=40))
    argv = [*option, "-q", str(tmp_path / "q"), str(tmp_path / "r")]
    got = cli("trec_eval", *argv)
    if option == ["-M", "-5"]:
        assert got.returncode == 2 and got.stdout == b""
        assert got.stderr.decode().splitlines() == [
            "cranfield: error: -M -5: the number of documents must be >= 0"
        ]
        return
    out, err = io.BytesIO(), io.StringIO()
    assert engine.main(argv, out=out, err=err) == 0
    assert (got.returncode, got.stdout) == (0, out.getvalue())
    assert got.stderr.decode() == err.getvalue()  # its note on the queries not judged


def test_a_run_judged_ahead_for_an_earlier_command_is_not_left_for_a_later_one(tmp_path):
    """Two commands in one process: the first's pass, made after the second started, is
    not the one the second may take."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(run_text("grouped", queries=40))
    gate = threading.Event()
    judge = core_ahead.judge_run(
        str(tmp_path / "r"), depth=None, judged_only=False, rows=50, piece_bytes=300
    )

    def late(read):
        gate.wait()
        judge(read)

    core_ahead.start(str(tmp_path / "q"), "ReadQrels", then=late)
    first = core_ahead._thread[0]
    core_ahead.start(str(tmp_path / "q"), "ReadQrels")  # the second command
    gate.set()
    first.join(timeout=60)
    assert not first.is_alive()
    assert core_ahead._runs == []
