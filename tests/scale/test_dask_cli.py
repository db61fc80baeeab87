"""``--dask ADDRESS``: a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(free ports, bounded waits, always stopped), and the output compared byte for byte with the
output of the same command without ``--dask``."""

from __future__ import annotations

import contextlib
import csv
import io
import operator
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
from test_dask import _files, _p_at_10_by_hand
from test_scale_streaming import qrels_text, run_text

import cranfield.io.trec.text as text_io
import cranfield.scale.dask_executor as dask_executor
import cranfield.scale.query_ranges as query_ranges
from conftest import REPO, run_cli
from cranfield.cli import main
from cranfield.cli import run as cli_run
from cranfield.errors import ClusterError

# the generated collections judge a query the runs do not answer (scored as trec_eval -c)
distributed = pytest.importorskip("distributed")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings(
        "ignore:.*judged queries have no results:cranfield.errors.DataWarning"
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(
    *args: str, log: Path, cwd: Path | None = None, env: dict | None = None
) -> subprocess.Popen:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "src"),
        "DASK_DISTRIBUTED__WORKER__DAEMON": "0",
        **(env or {}),
    }
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
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGCONT)  # if it was stopped
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


class Cluster:
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes (each under its nanny)
    on 127.0.0.1, in ``cwd``, logging to ``logs``; ``env``: more of the scheduler's
    environment (Dask settings)."""

    def __init__(self, logs: Path, cwd: Path, workers: int = 2, env: dict | None = None):
        dask = str(Path(sys.executable).with_name("dask"))
        if not os.path.exists(dask):
            dask = "dask"
        for attempt in range(5):
            port = _free_port()
            self.address = f"tcp://127.0.0.1:{port}"
            self.scheduler = _start(
                dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
                log=logs / "scheduler.log", cwd=cwd, env=env,
            )  # fmt: skip
            self.workers: list[subprocess.Popen] = []
            try:
                for i in range(workers):
                    args = ["worker", self.address, "--nthreads", "1", "--nworkers", "1"]
                    args += ["--host", "127.0.0.1", "--no-dashboard", "--name", f"w{i}"]
                    self.workers.append(_start(dask, *args, log=logs / f"worker{i}.log", cwd=cwd))
                with self.client() as client:
                    if workers:
                        client.wait_for_workers(workers, timeout=60)
                return
            except BaseException:
                self.stop()
                log = (logs / "scheduler.log").read_text(errors="replace")
                if attempt < 4 and "Address already in use" in log:
                    continue  # another process took the port between its pick and the bind
                raise

    def client(self):
        deadline = time.monotonic() + 60
        while True:
            try:
                return distributed.Client(self.address, timeout=5, set_as_default=False)
            except OSError:
                if time.monotonic() > deadline or self.scheduler.poll() is not None:
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        for p in [*reversed(self.workers), self.scheduler]:
            _stop(p)


@pytest.fixture(scope="module")
def address(tmp_path_factory, worker_dir):
    cluster = Cluster(tmp_path_factory.mktemp("dask-logs"), worker_dir)
    try:
        yield cluster.address
    finally:
        cluster.stop()


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


# --------------------------------------------------------------------------- a failing cluster
def _command(argv: list[str], patch: dict | None = None) -> subprocess.Popen:
    """``cranfield ARGV`` as a process, with some of ``cranfield.scale.dask_executor``'s bounds set
    first (``patch``: shorter waits)."""
    code = (
        "import cranfield.scale.dask_executor as d\n"
        f"for k, v in {patch or {}!r}.items(): setattr(d, k, v)\n"
        "from cranfield.cli import entry\n"
        "entry()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _in_flight(cluster: Cluster, proc: subprocess.Popen) -> dict | None:
    """Once the command's tasks are running on the cluster: ``{worker address: pid}`` of the
    workers running some (``None``: the command ended first)."""
    with cluster.client() as c:
        deadline = time.monotonic() + 120  # a guard against a hang, not a measure
        while proc.poll() is None and time.monotonic() < deadline:
            busy = [w for w, keys in c.processing().items() if keys]
            if busy:
                pids = c.run(os.getpid)
                return {w: pids[w] for w in busy if w in pids}
            time.sleep(0.01)
    return None


def _one_error(done: subprocess.Popen, out: Path, *said: str) -> str:
    """The command's one error line (after its warnings, if any): exit 2, no traceback, the
    old output file kept; each of ``said`` in the error."""
    _, err_bytes = done.communicate(timeout=120)  # a guard against a hang
    err = err_bytes.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err and "distributed." not in err, err
    lines = err.splitlines()
    errors = [line for line in lines if line.startswith("cranfield: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], err
    assert all(line.startswith("cranfield: warning: ") for line in lines[:-1]), err
    for words in said:
        assert words in errors[0], errors[0]
    assert out.read_bytes() == b"old output\n"
    return errors[0]


def _fault(tmp_path, make, hurt, *said, patch=None, runs=60):
    """The command evaluating ``runs`` runs on the cluster ``make()``, with ``hurt(cluster,
    busy)`` done while its tasks run: one error (:func:`_one_error`).  A command that ended
    before it could be hurt is run again with twice the runs (no timing is assumed)."""
    out = tmp_path / "out.txt"
    out.write_bytes(b"old output\n")
    for attempt in range(4):
        cluster = make()
        try:
            (tmp_path / f"a{attempt}").mkdir()
            qrels, paths = _files(tmp_path / f"a{attempt}", count=runs, queries=300)
            argv = ["evaluate", qrels, *paths, "-m", "AP", "-m", "P@10", "-o", str(out)]
            proc = _command([*argv, "--dask", cluster.address], patch)
            try:
                busy = _in_flight(cluster, proc)
                if busy:
                    hurt(cluster, busy)
                    return cluster, _one_error(proc, out, cluster.address, *said)
                proc.communicate(timeout=300)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        finally:
            cluster.stop()
        runs *= 2
    pytest.fail("the command always ended before the cluster could be hurt")


@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_the_scheduler_killed_mid_job_is_one_error_and_the_old_output_kept(tmp_path, attempt):
    """Issue 23, item 5: a ``dask scheduler`` killed (SIGKILL) while the tasks run gave 1-4
    tracebacks and exit 1, 3 times out of 3; now one error naming the scheduler and what
    happened, exit 2, and the ``-o`` file as it was."""
    (tmp_path / "logs").mkdir()
    _fault(
        tmp_path,
        lambda: Cluster(tmp_path / "logs", tmp_path),
        lambda cluster, busy: os.killpg(cluster.scheduler.pid, signal.SIGKILL),
        "lost the connection to the Dask scheduler at ",
        "while the work ran (the scheduler stopped, or the network failed)",
    )


def test_a_scheduler_that_stops_answering_is_one_error(tmp_path):
    """A scheduler stopped (SIGSTOP: its connections stay open, nothing answers) used to leave
    the command waiting for ever."""
    (tmp_path / "logs").mkdir()
    _fault(
        tmp_path,
        lambda: Cluster(tmp_path / "logs", tmp_path),
        lambda cluster, busy: os.killpg(cluster.scheduler.pid, signal.SIGSTOP),
        "the Dask scheduler at ",
        " has not answered for 2 s",
        patch={"SILENT_SECONDS": 2.0, "CHECK_SECONDS": 0.2},
    )


def test_a_result_fetched_once_the_scheduler_stops_answering_is_one_error(tmp_path, monkeypatch):
    """A task done, then its scheduler stopped (SIGSTOP) before its result is fetched: the
    fetch goes through the scheduler, and waited for ever (about one run in four of the test
    above hung there); watched, it ends in the same one error."""
    (tmp_path / "logs").mkdir()
    monkeypatch.setattr(dask_executor, "SILENT_SECONDS", 2.0)
    cluster = Cluster(tmp_path / "logs", tmp_path, workers=1)
    got: list[BaseException] = []
    try:
        with cluster.client() as client:
            task = dask_executor.DaskExecutor(client, watch=True).submit(operator.add, 1, 2)
            deadline = time.monotonic() + 60  # a guard against a hang, not a measure
            while not task.done() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert task.done()
            os.killpg(cluster.scheduler.pid, signal.SIGSTOP)

            def fetch() -> None:
                try:
                    task.result()
                except BaseException as exc:
                    got.append(exc)

            fetching = threading.Thread(target=fetch, daemon=True)
            fetching.start()
            fetching.join(60)  # a guard against a hang, not a measure
            alive = fetching.is_alive()
            os.killpg(cluster.scheduler.pid, signal.SIGKILL)  # the client closes at once
    finally:
        cluster.stop()
    assert not alive, "the result's fetch still waits for the stopped scheduler"
    assert len(got) == 1 and isinstance(got[0], ClusterError), got
    assert str(got[0]) == (
        f"the Dask scheduler at {cluster.address} has not answered for 2 s (stopped, or the "
        "network is down)"
    )


def _kill_workers(cluster: Cluster, busy: dict) -> None:
    for proc in cluster.workers:
        os.killpg(proc.pid, signal.SIGKILL)  # the nanny too: no worker comes back


def test_every_worker_gone_mid_job_is_one_error(tmp_path):
    """Each worker and its nanny killed while the tasks run: the qrels sent to the workers
    are lost with them, and Dask drops the tasks that needed them."""
    (tmp_path / "logs").mkdir()
    _fault(
        tmp_path,
        lambda: Cluster(tmp_path / "logs", tmp_path),
        _kill_workers,
        "the Dask cluster at ",
        " dropped the work: the workers stopped, and the inputs sent to them were lost",
    )


def test_no_worker_left_for_compares_tests_is_one_error(tmp_path):
    """compare's randomization tests need nothing sent before them: with every worker gone
    while they run, Dask would wait for workers for ever; the command waits a bounded time
    (here 2 s)."""
    (tmp_path / "logs").mkdir()
    qrels, runs = _files(tmp_path, count=12, queries=300)
    out = tmp_path / "out.txt"
    out.write_bytes(b"old output\n")
    cluster = Cluster(tmp_path / "logs", tmp_path)
    argv = ["compare", qrels, *runs, "-m", "AP", "--test", "randomization"]
    argv += ["--permutations", "99999", "-o", str(out), "--dask", cluster.address]
    proc = _command(argv, {"WORKERLESS_SECONDS": 2.0, "CHECK_SECONDS": 0.2})
    try:
        with cluster.client() as c:  # until a test runs (a task that needs no data sent)
            deadline = time.monotonic() + 300  # a guard against a hang, not a measure
            while proc.poll() is None and time.monotonic() < deadline:
                if c.run_on_scheduler(_TESTING):
                    break
                time.sleep(0.01)
        assert proc.poll() is None, "the command ended before its tests ran"
        _kill_workers(cluster, {})
        _one_error(proc, out, cluster.address, " has had no worker for 2 s")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        cluster.stop()


_TESTING = lambda dask_scheduler: any(  # noqa: E731 - a lambda: sent by value to the scheduler
    ts.state == "processing" and not ts.dependencies for ts in dask_scheduler.tasks.values()
)
"""Whether a task that depends on no data sent (one of compare's tests) is running."""


def test_a_worker_that_dies_running_a_task_too_often_is_one_error(tmp_path):
    """A worker process killed while it runs a task, on a scheduler that allows no failure
    (``allowed-failures: 0``): Dask gives up the task with ``KilledWorker``; the command says
    which run's task and why, once."""
    (tmp_path / "logs").mkdir()
    env = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    _fault(
        tmp_path,
        lambda: Cluster(tmp_path / "logs", tmp_path, env=env),
        lambda cluster, busy: os.kill(next(iter(busy.values())), signal.SIGKILL),
        "the task of run 'run",
        "was on a worker of the Dask cluster at ",
        "when it died, once (killed for lack of memory, maybe)",
    )


def test_a_cluster_without_workers_is_one_error(tmp_path):
    """A scheduler with no worker: the qrels cannot be sent (Dask waits as long as the
    connection may take, here 2 s)."""
    qrels, runs = _files(tmp_path, count=2)
    out = tmp_path / "out.txt"
    out.write_bytes(b"old output\n")
    (tmp_path / "logs").mkdir()
    cluster = Cluster(tmp_path / "logs", tmp_path, workers=0)
    try:
        proc = _command(
            ["evaluate", qrels, *runs, "-o", str(out), "--dask", cluster.address],
            {"CONNECT_SECONDS": 2.0},
        )
        _one_error(proc, out, "the Dask cluster at ", " has no worker")
    finally:
        cluster.stop()
