"""A compiled-core call on a file's bytes made ahead (``cranfield trec_eval`` reads its qrels
while it imports the engine): its result is taken only for the same call on the same bytes,
once, and whatever fails ahead is left to the caller."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from test_scale_streaming import qrels_text, run_text

from cranfield import _core
from cranfield.base import core_ahead
from cranfield.cli import trec_eval as trec_eval_cli
from cranfield.errors import InputError


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], np.ndarray):
            assert np.array_equal(a[k], b[k]), k
        elif k != "index":
            assert a[k] == b[k], k
    assert a["index"].id_strings() == b["index"].id_strings()


def test_the_same_call_on_the_same_bytes_takes_the_result_once(tmp_path):
    path = tmp_path / "q"
    data = qrels_text("grouped")
    path.write_bytes(data)
    core_ahead.start(str(path), "ReadQrels")
    got = core_ahead.take("ReadQrels", data)
    assert got is not None
    _same(got.result(), _core.ReadQrels(data).result())
    assert core_ahead.take("ReadQrels", data) is None  # once


def test_no_result_for_other_bytes_another_call_or_other_arguments(tmp_path):
    path = tmp_path / "q"
    data = qrels_text("grouped")
    path.write_bytes(data)
    core_ahead.start(str(path), "ReadQrels")
    assert core_ahead.take("ReadQrels", data[:-2] + b"7\n") is None
    core_ahead.start(str(path), "ReadQrels")
    assert core_ahead.take("ReadQrels", data, True) is None
    core_ahead.start(str(path), "ReadQrels")
    assert core_ahead.take("read_run", data) is None
    assert core_ahead.take("ReadQrels", data) is not None  # still there for its call


def test_qrels_are_read_without_numpy_and_handed_over_once(tmp_path):
    """``ReadQrels`` does its work without numpy (the thread reading ahead must not wait for
    the numpy import the command's main thread is making): only ``result()`` imports it."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    code = (
        "import sys\n"
        "from cranfield import _core\n"
        "read = _core.ReadQrels(open(sys.argv[1], 'rb').read())\n"
        "print(read.index is not None, 'numpy' in sys.modules)\n"
        "got = read.result()\n"
        "print(got['index'] is read.index, 'numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "q")], capture_output=True, text=True
    )
    assert (done.stdout, done.stderr) == ("True False\nTrue True\n", "")
    read = _core.ReadQrels(qrels_text("grouped"))
    read.result()
    with pytest.raises(ValueError, match="already taken"):
        read.result()
    bad = _core.ReadQrels(b"q 0 d 1\nq 0 e x\n")
    assert bad.index is None
    assert bad.result() == {"error": "grade", "line": 2, "start": 8, "end": 15, "field": 3}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are made on POSIX only")
def test_what_is_not_read_ahead(tmp_path, monkeypatch):
    data = qrels_text("grouped")
    (tmp_path / "q").write_bytes(data)
    os.mkfifo(tmp_path / "fifo")  # never opened: the thread would wait for a writer
    for path in [tmp_path / "missing", tmp_path, tmp_path / "fifo"]:
        core_ahead.start(str(path), "ReadQrels")
        assert core_ahead.take("ReadQrels", data) is None, path
    monkeypatch.setattr(core_ahead, "AHEAD_BYTES", len(data) - 1)
    core_ahead.start(str(tmp_path / "q"), "ReadQrels")
    assert core_ahead.take("ReadQrels", data) is None  # too large
    core_ahead.start(str(tmp_path / "q"), "no_such_call", False)  # fails ahead: left alone
    assert core_ahead.take("no_such_call", data, False) is None


def _command(argv, capsys):
    try:
        trec_eval_cli.run(argv)
        status = 0
    except SystemExit as stop:
        status = stop.code
    except InputError as exc:
        return "error", str(exc)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("qrels", ["good", "bad line", "bom"])
def test_the_command_reads_its_qrels_ahead_and_prints_the_same(
    tmp_path, monkeypatch, capsys, qrels
):
    data = qrels_text("grouped")
    if qrels == "bad line":
        data += b"3 0 D1\n"
    if qrels == "bom":  # the reader drops it: other bytes than those read ahead
        data = b"\xef\xbb\xbf" + data
    (tmp_path / "q").write_bytes(data)
    (tmp_path / "r").write_bytes(run_text("grouped"))
    taken = []
    real = core_ahead.take

    def take(*args):
        got = real(*args)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(core_ahead, "take", take)
    argv = ["-q", str(tmp_path / "q"), str(tmp_path / "r")]
    with_ahead = _command(argv, capsys)
    assert taken == [qrels != "bom"]
    monkeypatch.setattr(trec_eval_cli, "_qrels_ahead", lambda argv: None)
    without = _command(argv, capsys)
    assert taken[1:] == [False]
    assert with_ahead == without
    assert (with_ahead[0] == "error") == (qrels == "bad line")


def test_what_the_command_reads_and_judges_ahead(monkeypatch, tmp_path):
    """A qrels file named, in the qrels format; its run judged ahead too when it is a file
    and judged against every query (not ``-D``)."""
    started = []
    monkeypatch.setattr(core_ahead, "start", lambda *a, then: started.append((a, then)))
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    q = str(tmp_path / "q")
    for argv in [["-h"], [q], ["-R", "prefs", q, q], ["-", q], ["-x", q, q], ["-v", q, q]]:
        trec_eval_cli._qrels_ahead(argv)
    assert started == []
    for argv in [["-m", "map", q, "run"], [q, "-"], ["-D", "1.q1", q, "run"]]:
        trec_eval_cli._qrels_ahead(argv)
    assert [a for a, _ in started] == [(q, "ReadQrels")] * 3
    assert [then is not None for _, then in started] == [True, False, False]
