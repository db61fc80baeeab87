"""``--dask ADDRESS``: a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(free ports, bounded waits, always stopped), and the output compared byte for byte with the
output of the same command without ``--dask``."""

from __future__ import annotations

import csv
import io
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
from test_dask import _files, _p_at_10_by_hand
from test_scale_streaming import qrels_text, run_text

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(*args: str, log: Path, cwd: Path | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "DASK_DISTRIBUTED__WORKER__DAEMON": "0"}
    return subprocess.Popen(
        list(args),
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        env=env,
        cwd=cwd,
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
def worker_dir(tmp_path_factory) -> Path:
    """The working directory of the cluster's processes: not the client's (nor the tests')."""
    return tmp_path_factory.mktemp("worker-cwd")


@pytest.fixture(scope="module")
def address(tmp_path_factory, worker_dir):
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
            cwd=worker_dir,
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
                    cwd=worker_dir,
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


def _p_at_10_rows(csv_text: str, run: str) -> dict[str, float]:
    rows = csv.DictReader(io.StringIO(csv_text))
    return {
        r["query_id"]: float(r["P@10"])
        for r in rows
        if r["run"] == run and r["query_id"] not in ("", "all")
    }


def test_relative_paths_name_the_clients_files_not_the_workers(address, worker_dir, tmp_path):
    """Issue 23, item 2: the workers run in another directory, which holds files of the same
    names with other contents; relative paths used to be opened there (AP 0.1576 on Dask
    against 0.1396 here, exit 0).  The client now names each file by its absolute path: the
    output is that of the command without ``--dask``, byte for byte, for a TREC run, a gzip
    run and a collection-size file."""
    here = tmp_path / "client"
    (here / "sub").mkdir(parents=True)
    (worker_dir / "sub").mkdir(exist_ok=True)
    (here / "qrels.txt").write_bytes(qrels_text("grouped"))
    for where, seed, size in ((here, 1, 1000), (worker_dir, 2, 90)):
        (where / "run.txt").write_bytes(run_text("grouped", seed=seed, queries=9))
        (where / "sub" / "run.gz").write_bytes(run_text("gzip", seed=seed + 10, queries=9))
        (where / "sizes.txt").write_text("".join(f"{q} {size}\n" for q in range(1, 11)))
    argv = ["evaluate", "qrels.txt", "run.txt", "sub/run.gz", "-q", "-f", "csv"]
    argv += ["-m", "AP", "-m", "P@10", "-m", "Fallout@20", "--collection-size", "sizes.txt"]
    local = run_cli(*argv, "-o", "local.csv", cwd=here)
    there = run_cli(*argv, "--dask", address, "-o", "there.csv", cwd=here)
    assert local.returncode == there.returncode == 0, there.stderr
    assert local.stderr == there.stderr
    assert (here / "local.csv").read_bytes() == (here / "there.csv").read_bytes()
    # independent: P@10 counted by hand from the client's file, not from the worker's
    out = (here / "there.csv").read_text()
    mine = _p_at_10_by_hand(here / "qrels.txt", here / "run.txt")
    theirs = _p_at_10_by_hand(here / "qrels.txt", worker_dir / "run.txt")
    assert mine != theirs  # the test can tell the two files apart
    assert _p_at_10_rows(out, "run.txt") == mine


def test_a_pipe_only_the_client_can_read_is_read_there(address, tmp_path):
    """A path that names a pipe of the client's (bash's ``<(...)``, ``/dev/fd/63``) means
    nothing to a worker (it was "no such file", exit 2): such an input is read by the client,
    as ``-`` is, and the output is the command's without ``--dask``."""
    qrels, runs = _files(tmp_path, count=2)
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    command = f"{sys.executable} -m cranfield evaluate {qrels} {runs[0]} <(cat {runs[1]}) -f csv"
    done = [
        subprocess.run(["bash", "-c", command + extra], capture_output=True, env=env, timeout=300)
        for extra in ("", f" --dask {address}")
    ]
    assert done[0].returncode == done[1].returncode == 0, done[1].stderr
    assert done[0].stdout == done[1].stdout and done[0].stderr == done[1].stderr
    assert done[0].stdout.count(b"\n") == 3  # a header and two runs


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
    started = time.monotonic()
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
    assert exc.value.code == 2 and time.monotonic() - started < 30
    assert err.startswith("cranfield: error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:")
    assert "Traceback" not in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_dask_and_jobs_are_a_usage_error(tmp_path, capsys):
    qrels, runs = _files(tmp_path, count=2)
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", qrels, *runs, "-j", "2", "--dask", "tcp://127.0.0.1:1"])
    assert exc.value.code == 2 and "not allowed with -j" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("inproc://x", "inside one Python process"),
        ("ucx://127.0.0.1:8786", "removed its ucx:// transport"),
        ("nosuch://127.0.0.1:8786", "no Dask transport here knows the scheme 'nosuch'"),
    ],
)
def test_an_address_no_command_can_reach_is_one_error_naming_the_schemes(tmp_path, address, why):
    """``inproc://`` (a scheduler inside another process) and ``ucx://`` (a transport Dask
    removed) used to end in Python's internals ("not enough values to unpack", "Can't
    instantiate abstract class UCXConnector")."""
    qrels, runs = _files(tmp_path, count=1)
    out = tmp_path / "o.txt"
    out.write_bytes(b"old\n")
    done = run_cli("evaluate", qrels, *runs, "-o", str(out), "--dask", address)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.startswith(f"cranfield: error: cannot use the Dask scheduler address {address!r}: ")
    assert err.count("\n") == 1 and why in err
    assert "the schemes supported are tcp:// (the default), tls://" in err
    assert out.read_bytes() == b"old\n"
