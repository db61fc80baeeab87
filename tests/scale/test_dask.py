"""Evaluation on a Dask cluster (``executor=``): a real ``LocalCluster`` of two worker processes.

The seam's claim is "the same bytes": the expected values are those of the same call without
an executor (one process), and one independent check (P@10 counted by hand from the files).
Also: one large run cut into query ranges (joined, or evaluated whole when it is not grouped),
any ``concurrent.futures`` executor, compare's resampling tests with the same p-values, a file
the workers cannot read, a worker killed while the job runs.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
import warnings
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from test_scale_jobs import _evaluate
from test_scale_streaming import qrels_text, run_text

import cranfield.comparing.resampling_tasks as resampling_tasks
import cranfield.io.trec.text as text_io
import cranfield.scale.query_ranges as query_ranges
from cranfield import compare, evaluate
from cranfield.errors import InputError, ParameterError
from cranfield.results.tables import Results

distributed = pytest.importorskip("distributed")

MEASURES = ["AP", "P@10", "nDCG@10", "RR", "Bpref"]
LAYOUTS = ("grouped", "messy", "ties", "gzip", "shuffled", "tabs", "crlf", "late", "gov2")


def _local_cluster(**kw):
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        **kw,
    )


@pytest.fixture(scope="module")
def client():
    with _local_cluster() as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(2, timeout=60)
        yield c


def _files(tmp_path, count=20, queries=9, qrels_layout="grouped"):
    (tmp_path / "qrels.txt").write_bytes(qrels_text(qrels_layout))
    paths = []
    for i in range(count):
        layout = LAYOUTS[i % len(LAYOUTS)]
        p = tmp_path / f"run{i:02d}.{layout}"
        p.write_bytes(run_text(layout, seed=i, queries=queries))
        paths.append(str(p))
    return str(tmp_path / "qrels.txt"), paths


def _same(a, b) -> None:
    (ra, wa), (rb, wb) = a, b
    ra = [ra] if isinstance(ra, Results) else list(ra)
    rb = [rb] if isinstance(rb, Results) else list(rb)
    assert len(ra) == len(rb)
    for x, y in zip(ra, rb, strict=True):
        assert x.run == y.run and x.query_ids == y.query_ids and x.labels == y.labels
        assert x.values.tobytes() == y.values.tobytes()
        assert x.summary == y.summary and x.notes == y.notes
        assert x.aggregate() == y.aggregate()
    assert wa == wb


def _p_at_10_by_hand(qrels_path, run_path) -> dict[str, float]:
    """P@10 counted from the text: trec_eval's order (score descending, then docno
    descending), relevant = grade >= 1, queries with judgments only, a judged query without
    results 0 (every judged query counts)."""
    rel: dict[str, set[str]] = {}
    judged: set[str] = set()
    with open(qrels_path) as fh:
        qrels_lines = fh.read().splitlines()
    with open(run_path) as fh:
        run_lines = fh.read().splitlines()
    for line in qrels_lines:
        q, _, d, g = line.split()
        judged.add(q)
        if int(g) >= 1:
            rel.setdefault(q, set()).add(d)
    rows: dict[str, list[tuple[float, str]]] = {}
    for line in run_lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        rows.setdefault(f[0], []).append((float(f[4]), f[2]))
    out = {}
    for q, docs in rows.items():
        if q in judged:
            top = sorted(docs, reverse=True)[:10]
            out[q] = sum(d in rel.get(q, ()) for _, d in top) / 10
    return {q: out.get(q, 0.0) for q in judged}


# --------------------------------------------------------------------------- many runs
def test_twenty_runs_on_the_cluster_give_the_local_results(client, tmp_path):
    qrels, runs = _files(tmp_path)
    local = _evaluate(qrels, runs, MEASURES, jobs=1, aggregate=["mean", "P@10=micro"])
    cluster = _evaluate(qrels, runs, MEASURES, executor=client, aggregate=["mean", "P@10=micro"])
    _same(local, cluster)
    assert any("more than 6" in m for _, m in local[1])  # the warnings came back, in order
    # independent check: P@10 of a grouped run counted by hand
    res = cluster[0][0]
    by_hand = _p_at_10_by_hand(qrels, runs[0])
    assert res.query_ids == tuple(sorted(by_hand))
    assert res.column("P@10").tolist() == [by_hand[q] for q in res.query_ids]


def test_a_process_pool_executor_gives_the_local_results(tmp_path):
    qrels, runs = _files(tmp_path, count=6)
    local = _evaluate(qrels, runs, MEASURES, jobs=1)
    with ProcessPoolExecutor(2) as pool:
        _same(local, _evaluate(qrels, runs, MEASURES, executor=pool))


def test_executor_is_checked(tmp_path):
    qrels, runs = _files(tmp_path, count=2)
    with pytest.raises(ParameterError, match="executor must be"):
        evaluate(qrels, runs, ["AP"], executor=object())
    with ProcessPoolExecutor(1) as pool, pytest.raises(ParameterError, match="not both"):
        evaluate(qrels, runs, ["AP"], executor=pool, jobs=2)
    with ThreadPoolExecutor(1) as pool, pytest.raises(ParameterError, match="other processes"):
        evaluate(qrels, runs, ["AP"], executor=pool)


@pytest.mark.slow
def test_a_worker_of_two_threads_keeps_each_runs_warnings(tmp_path):
    """Two threads of one worker process share its warnings machinery: each task's warnings
    still come back with it, in run order."""
    qrels, runs = _files(tmp_path, count=12, queries=40)
    local = _evaluate(qrels, runs, MEASURES, jobs=1)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):  # fmt: skip
        _same(local, _evaluate(qrels, runs, MEASURES, executor=c))


# --------------------------------------------------------------------------- query ranges
@pytest.fixture
def cut_small(monkeypatch):
    """Runs of a few kilobytes cut into ranges of about 600 bytes (on the client: the cut is
    made there), and read in pieces; returns the cut points made."""
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(query_ranges, "RANGE_BYTES", 600)
    made: list[list[int]] = []
    real = query_ranges.cut_points
    monkeypatch.setattr(
        query_ranges, "cut_points", lambda p, n: made.append(real(p, n)) or made[-1]
    )
    return made


@pytest.mark.parametrize("layout", ["grouped", "messy", "crlf", "tabs", "ties", "gov2"])
def test_a_run_cut_into_query_ranges_gives_the_whole_file_results(
    client, tmp_path, cut_small, layout
):
    (tmp_path / "q").write_bytes(qrels_text("gov2" if layout == "gov2" else "grouped"))
    run = tmp_path / f"r.{layout}"
    run.write_bytes(run_text(layout, queries=40))
    for kw in ({}, {"complete": True}, {"aggregate": "micro"}):
        local = _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1, **kw)
        _same(local, _evaluate(str(tmp_path / "q"), str(run), MEASURES, executor=client, **kw))
    assert cut_small and len(cut_small[0]) > 10  # it was cut
    with open(run, "rb") as fh:  # every cut starts a query's block
        data = fh.read()
    for c in cut_small[0][1:-1]:
        before = data[:c].splitlines()
        prev = next(
            line.split()[0]
            for line in reversed(before)
            if line.split() and not line.strip().startswith(b"#")
        )
        assert data[c - 1 : c] == b"\n" and data[c:].split()[0] != prev


@pytest.mark.parametrize("layout", ["late", "shuffled"])
def test_a_run_not_grouped_by_query_falls_back_to_the_whole_file(
    client, tmp_path, cut_small, layout
):
    """``late``: the first query comes back in the last range (two ranges hold it);
    ``shuffled``: queries come back inside a range."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / f"r.{layout}"
    run.write_bytes(run_text(layout, queries=40))
    local = _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1)
    _same(local, _evaluate(str(tmp_path / "q"), str(run), MEASURES, executor=client))
    assert cut_small and len(cut_small[0]) > 2


def test_a_bad_line_in_one_range_gives_the_whole_file_error(client, tmp_path, cut_small):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "r"
    lines = run_text("grouped", queries=40).splitlines(keepends=True)
    lines[len(lines) // 2] = b"20 Q0 D1 1 not-a-score t\n"
    run.write_bytes(b"".join(lines))
    with pytest.raises(InputError) as local:
        evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1)
    with pytest.raises(InputError) as there:
        evaluate(str(tmp_path / "q"), str(run), MEASURES, executor=client)
    assert str(there.value) == str(local.value) and "line" in str(local.value)


def test_a_gzip_run_is_one_task(tmp_path, cut_small):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "r.gz"
    run.write_bytes(run_text("gzip", queries=40))
    with ProcessPoolExecutor(1) as pool:
        _same(
            _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1),
            _evaluate(str(tmp_path / "q"), str(run), MEASURES, executor=pool),
        )
    assert cut_small == []


def test_query_ranges_on_a_process_pool(tmp_path, cut_small):
    qrels, runs = _files(tmp_path, count=4, queries=40)
    local = _evaluate(qrels, runs, MEASURES, jobs=1)
    with ProcessPoolExecutor(2) as pool:
        _same(local, _evaluate(qrels, runs, MEASURES, executor=pool))
    assert len(cut_small) == 3  # the gzip run is not cut


def test_cut_points_hostile_layouts(tmp_path):
    """One query only (no cut), a last line without a line end, cuts never inside a line."""
    one = tmp_path / "one"
    one.write_bytes(b"".join(b"1 Q0 D%d %d 1.0 t\n" % (i, i) for i in range(1000)))
    assert query_ranges.cut_points(one, 8) == [0, one.stat().st_size]
    two = tmp_path / "two"
    two.write_bytes(b"1 Q0 D1 1 1 t\n" * 50 + b"2 Q0 D1 1 1 t\n" * 50 + b"3 Q0 D1 1 1 t")
    cuts = query_ranges.cut_points(two, 5)
    assert cuts[0] == 0 and cuts[-1] == two.stat().st_size and cuts == sorted(set(cuts))
    assert set(cuts[1:-1]) <= {50 * 14, 100 * 14}


# --------------------------------------------------------------------------- compare
@pytest.mark.parametrize(("test", "ci"), [("randomization", None), ("bootstrap", "bootstrap")])
def test_compare_resampling_on_the_cluster_gives_the_same_p_values(
    client, tmp_path, monkeypatch, test, ci
):
    qrels, runs = _files(tmp_path, count=7, queries=30)  # 21 pairs, Monte Carlo (2^30 > B)
    kw = {"test": test, "ci": ci, "permutations": 999, "seed": 7, "correction": "holm"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = compare(qrels, runs, ["AP", "P@10"], **kw)
        monkeypatch.setattr(resampling_tasks, "PAIRS_PER_TASK", 4)
        there = compare(qrels, runs, ["AP", "P@10"], executor=client, **kw)
    assert local.pairs == there.pairs
    assert local.table("csv") == there.table("csv")


# --------------------------------------------------------------------------- faults
@pytest.mark.filterwarnings("ignore::cranfield.errors.DataWarning")
def test_a_run_the_workers_cannot_read_is_one_input_error(client, tmp_path):
    qrels, runs = _files(tmp_path, count=3)
    missing = str(tmp_path / "gone.txt")
    with pytest.raises(InputError) as local:
        evaluate(qrels, [*runs, missing], MEASURES, jobs=1)
    with pytest.raises(InputError) as there:
        evaluate(qrels, [*runs, missing], MEASURES, executor=client)
    assert str(there.value) == str(local.value) and "gone.txt" in str(there.value)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
def test_a_worker_killed_mid_job_changes_nothing(tmp_path):
    qrels, runs = _files(tmp_path, count=24, queries=300)
    local = evaluate(qrels, runs, MEASURES, jobs=1)
    with _local_cluster() as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(2, timeout=60)
        pids = c.run(os.getpid)
        out: dict = {}

        def work():
            try:
                out["res"] = evaluate(qrels, runs, MEASURES, executor=c)
            except BaseException as exc:  # raised in the test below
                out["err"] = exc

        thread = threading.Thread(target=work)
        thread.start()
        victim = None
        deadline = time.monotonic() + 30
        while victim is None and time.monotonic() < deadline and thread.is_alive():
            busy = [w for w, keys in c.processing().items() if keys]
            if len(busy) == 2:
                victim = busy[0]
            else:
                time.sleep(0.005)
        assert victim is not None, "the job ended before a worker could be killed"
        os.kill(pids[victim], signal.SIGKILL)
        thread.join(120)
        assert not thread.is_alive()
        assert "err" not in out, out.get("err")
    for a, b in zip(local, out["res"], strict=True):
        assert a.query_ids == b.query_ids and a.values.tobytes() == b.values.tobytes()
        assert a.summary == b.summary


# --------------------------------------------------------------------------- the file meant
@pytest.fixture(scope="module")
def one_worker():
    """A cluster of one worker process of one thread (which a test can hold)."""
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):  # fmt: skip
        c.wait_for_workers(1, timeout=60)
        yield c


def _until(condition, what: str) -> None:
    for _ in range(6000):  # a guard of about 60 s against a hang, not a measure of time
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _tasks(c) -> set[str]:
    """The keys of cranfield's tasks on the scheduler."""
    keys = c.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks])
    return {k for k in keys if k.startswith("recorded-")}


def _changed_meanwhile(c, call, change):
    """What ``call()`` returns or raises when ``change()`` is made after the client has sent
    its tasks and before the worker starts them: the worker's one thread is held meanwhile by
    a task waiting for a Dask ``Event``."""
    go = distributed.Event(f"go-{uuid.uuid4()}", client=c)
    hold = c.submit(go.wait, pure=False)
    _until(lambda: hold.key in {k for ks in c.processing().values() for k in ks}, "held")
    out: dict = {}

    def work():
        try:
            out["value"] = call()
        except BaseException as exc:  # looked at below
            out["value"] = exc

    before = _tasks(c)  # (those of earlier calls may be there still)
    thread = threading.Thread(target=work)
    thread.start()
    try:
        _until(lambda: _tasks(c) - before or not thread.is_alive(), "the tasks sent")
        change()
    finally:
        go.set()
        thread.join(120)
    assert not thread.is_alive()
    hold.result(timeout=60)
    return out["value"]


def _jsonl(trec: bytes) -> bytes:
    rows = [line.split() for line in trec.decode().splitlines()]
    return "".join(
        json.dumps({"query_id": q, "doc_id": d, "score": float(s)}) + "\n"
        for q, _, d, _, s, _ in rows
    ).encode()


def _csv(trec: bytes) -> bytes:
    rows = [line.split() for line in trec.decode().splitlines()]
    return (
        "query_id,doc_id,score\n" + "".join(f"{q},{d},{s}\n" for q, _, d, _, s, _ in rows)
    ).encode()


def _grow(path) -> str:
    with open(path, "ab") as fh:
        fh.write(b"\n")
    return "bytes on the worker, "


def _touch(path) -> str:
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    return "modified "


def _edit_head(path) -> str:
    """The first byte replaced, the size and the modification time kept."""
    st = os.stat(path)
    with open(path, "rb") as fh:
        data = bytearray(fh.read())
    data[0] = ord("9") if data[0] != ord("9") else ord("8")
    with open(path, "wb") as fh:
        fh.write(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return "bytes differ from the client's"


@pytest.mark.filterwarnings("ignore::cranfield.errors.DataWarning")
@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("trec", _grow),
        ("trec", _touch),
        ("trec", _edit_head),
        ("gzip", _grow),
        ("jsonl", _grow),
        ("csv", _grow),
        ("trec-ties-random", _grow),
        ("ranges", _edit_head),
        ("sizes", _edit_head),
    ],
)
def test_a_file_changed_before_the_worker_reads_it_is_one_input_error(
    one_worker, tmp_path, request, kind, change
):
    """Issue 23, item 2: the worker checks that it reads the file the client meant (size,
    modification time, a hash of the first 64 KiB), in every reader: a file changed between
    the client's look and the worker's reading is an InputError naming it, never results of
    another file."""
    from cranfield.io.formats import FormattedPath

    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(qrels_text("grouped"))
    trec = run_text("grouped", queries=9)
    run = tmp_path / "run.txt"
    kw: dict = {}
    measures = ["AP", "P@10"]
    source: object = str(run)
    if kind == "gzip":
        run = tmp_path / "run.gz"
        run.write_bytes(run_text("gzip", queries=9))
        source = str(run)
    elif kind == "jsonl":
        run = tmp_path / "run.jsonl"
        run.write_bytes(_jsonl(trec))
        source = str(run)
    elif kind == "csv":
        run.write_bytes(_csv(trec))
        source = FormattedPath(run, "csv")
    else:
        run.write_bytes(trec)
    if kind == "trec-ties-random":
        kw = {"ties": "random", "seed": 1}
    if kind == "ranges":  # one task per query range, then the run whole (the reference)
        cuts = request.getfixturevalue("cut_small")
        run.write_bytes(run_text("grouped", queries=40))
    changed = run
    if kind == "sizes":
        changed = tmp_path / "sizes.txt"
        changed.write_text("".join(f"{q} {900 + q}\n" for q in range(1, 11)))
        kw = {"collection_size": str(changed)}
        measures = ["Fallout@20"]
    local = evaluate(str(qrels), source, measures, **kw)  # the file is good as it is
    assert local.query_ids
    why: list[str] = []
    got = _changed_meanwhile(
        one_worker,
        lambda: evaluate(str(qrels), source, measures, executor=one_worker, **kw),
        lambda: why.append(change(changed)),
    )
    assert isinstance(got, InputError), got
    if kind == "ranges":
        assert cuts and len(cuts[0]) > 10
    message = str(got)
    assert message.startswith(
        f"{changed}: on the worker (host {socket.gethostname()}), {changed} is not the file "
        "the client read: "
    )
    assert why[0] in message


@pytest.mark.filterwarnings("ignore::cranfield.errors.DataWarning")
@pytest.mark.parametrize("bad", ["gone.txt", "nul\0in-the-name", "."])
def test_a_path_the_client_cannot_read_gives_the_local_error_on_an_executor(tmp_path, bad):
    """What the client cannot open (no such file, a NUL in the name, a directory) is not
    checked there: the error is the reader's, as without an executor (a NUL used to escape
    as Python's ValueError)."""
    qrels, runs = _files(tmp_path, count=2)
    with pytest.raises(InputError) as local:
        evaluate(qrels, [*runs, bad], MEASURES)
    with ProcessPoolExecutor(1) as pool, pytest.raises(InputError) as there:
        evaluate(qrels, [*runs, bad], MEASURES, executor=pool)
    assert str(there.value) == str(local.value) and str(local.value).startswith(f"{bad}: ")


# --------------------------------------------------------------------------- imports
def test_nothing_of_dask_is_imported_without_it():
    code = (
        "import sys, contextlib, io\n"
        "import cranfield\n"
        "from cranfield.cli import main\n"
        "for argv in (['--help'], ['evaluate', '--help'], ['compare', '--help']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        main(argv)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_connection_closed_under_a_call_is_the_lost_scheduler():
    """Killed mid-job, the scheduler is seen either as cancelled futures
    (scheduler-connection-lost) or as a connection closed under a gather: one message for
    both (it was two, chosen by timing)."""
    import asyncio

    from distributed.comm.core import CommClosedError

    from cranfield.scale.dask_executor import _failure

    closed = _failure(CommClosedError("in <TCP (closed) ...>: Stream is closed"), "", "tcp://a:1")
    cancelled = asyncio.CancelledError()
    cancelled.reason = "scheduler-connection-lost"  # type: ignore[attr-defined]
    assert closed == _failure(cancelled, "", "tcp://a:1")
    assert closed is not None and closed.startswith("lost the connection to the Dask scheduler")
    refused = _failure(ConnectionRefusedError("refused"), "", "tcp://a:1")
    assert refused == "the connection to the Dask scheduler at tcp://a:1 failed (refused)"
