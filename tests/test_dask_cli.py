"""``--dask ADDRESS``: a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(free ports, bounded waits, always stopped), and the output compared byte for byte with the
output of the same command without ``--dask``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

import cranfield.dask_executor as dask_executor
import cranfield.io.text as text_io
import cranfield.query_ranges as query_ranges
from conftest import REPO, run_cli
from cranfield.cli import main
from cranfield.cli import run as cli_run
from test_dask import _files
from test_scale_streaming import qrels_text, run_text

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(*args: str, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "DASK_DISTRIBUTED__WORKER__DAEMON": "0"}
    return subprocess.Popen(
        list(args),
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        env=env,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


@pytest.fixture(scope="module")
def address(tmp_path_factory):
    logs = tmp_path_factory.mktemp("dask-logs")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).with_name("dask"))
    if not os.path.exists(dask):
        dask = "dask"
    procs = [
        _start(
            dask,
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
            log=logs / "scheduler.log",
        )
    ]
    try:
        for i in range(2):
            procs.append(
                _start(
                    dask,
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--name",
                    f"w{i}",
                    log=logs / f"worker{i}.log",
                )
            )
        deadline = time.monotonic() + 60
        client = None
        while client is None:
            try:
                client = distributed.Client(address, timeout=5, set_as_default=False)
            except OSError:
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    raise
                time.sleep(0.2)
        with client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            _stop(p)


def _out(argv: list[str], capsys) -> tuple[str, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cli_run(argv)
    return capsys.readouterr().out, [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "fmt", [["-f", "trec", "-q"], ["-f", "csv", "-q"], ["-f", "json"], ["-f", "table"]]
)
def test_twenty_runs_print_the_same_bytes(address, tmp_path, capsys, fmt):
    qrels, runs = _files(tmp_path)
    argv = ["evaluate", qrels, *runs, "-m", "AP", "-m", "nDCG@10", "-m", "P@10", *fmt]
    local = _out(argv, capsys)
    assert local[0] and local == _out([*argv, "--dask", address], capsys)


def test_the_command_as_a_process_writes_the_same_file(address, tmp_path):
    qrels, runs = _files(tmp_path)
    argv = ["evaluate", qrels, *runs, "-m", "AP", "-q", "-f", "trec"]
    local = run_cli(*argv, "-o", str(tmp_path / "local.txt"))
    there = run_cli(*argv, "--dask", address, "-o", str(tmp_path / "there.txt"))
    assert local.returncode == there.returncode == 0, there.stderr
    assert local.stderr == there.stderr  # the warnings, in order
    assert (tmp_path / "local.txt").read_bytes() == (tmp_path / "there.txt").read_bytes()


def test_one_run_in_query_ranges_prints_the_same_bytes(address, tmp_path, capsys, monkeypatch):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "big.run"
    run.write_bytes(run_text("messy", queries=60))
    argv = ["evaluate", str(tmp_path / "q"), str(run), "-m", "AP", "-m", "Bpref", "-q"]
    local = _out([*argv, "-f", "trec"], capsys)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(query_ranges, "RANGE_BYTES", 500)
    cuts = []
    real = query_ranges.cut_points
    monkeypatch.setattr(
        query_ranges, "cut_points", lambda p, n: cuts.append(real(p, n)) or cuts[-1]
    )
    assert local == _out([*argv, "-f", "trec", "--dask", address], capsys)
    assert len(cuts) == 1 and len(cuts[0]) > 10


def test_compare_randomization_prints_the_same_bytes(address, tmp_path, capsys):
    qrels, runs = _files(tmp_path, count=5, queries=30)
    argv = ["compare", qrels, *runs, "-m", "AP", "--test", "randomization", "--permutations", "999"]
    local = _out([*argv, "-f", "csv"], capsys)
    assert local == _out([*argv, "-f", "csv", "--dask", address], capsys)


def test_a_bad_run_on_the_cluster_exits_2_and_writes_no_output(address, tmp_path, capsys):
    qrels, runs = _files(tmp_path, count=3)
    with open(runs[1], "ab") as f:
        f.write(b"1 Q0 Dz 1\n")  # too few fields
    out = tmp_path / "out.txt"
    with pytest.raises(SystemExit) as local:
        main(["evaluate", qrels, *runs, "-o", str(out)])
    local_err = capsys.readouterr().err
    with pytest.raises(SystemExit) as there:
        main(["evaluate", qrels, *runs, "-o", str(out), "--dask", address])
    err = capsys.readouterr().err
    assert local.value.code == there.value.code == 2
    assert err == local_err and "Traceback" not in err and runs[1] in err
    assert not out.exists()


def test_an_unreachable_scheduler_exits_2_without_a_traceback(tmp_path, capsys, monkeypatch):
    qrels, runs = _files(tmp_path, count=2)
    monkeypatch.setattr(dask_executor, "CONNECT_SECONDS", 1.0)
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "evaluate",
                qrels,
                *runs,
                "-o",
                str(tmp_path / "o"),
                "--dask",
                f"tcp://127.0.0.1:{_free_port()}",
            ]
        )
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.startswith("cranfield: error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:")
    assert " within 1 s: " in err  # waited CONNECT_SECONDS (patched), not Dask's default
    assert "Traceback" not in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_dask_and_jobs_are_a_usage_error(tmp_path, capsys):
    qrels, runs = _files(tmp_path, count=2)
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", qrels, *runs, "-j", "2", "--dask", "tcp://127.0.0.1:1"])
    assert exc.value.code == 2 and "not allowed with -j" in capsys.readouterr().err
