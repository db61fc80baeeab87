"""Dask workers against local cores: cranfield evaluate on 1 and 2 Dask workers (``--dask``)
next to ``-j 1`` and ``-j 2``, on the 100-run collection and on one large grouped run (cut into
query ranges of 64 MiB).

    python bench/dask_bench.py [--quick] [--large 50000] [--workers 1,2] [--jobs 1,2]
                               [--repeat 3]

For each worker count a ``dask scheduler`` and that many ``dask worker --nthreads 1``
processes are started on 127.0.0.1 (free port) and stopped at the end; every timed command is
``python -m cranfield evaluate QRELS RUN... -m <bench/run.py's measures> --per-query -f trec
-o FILE``, in a fresh process, and every output is checked to be the bytes of ``-j 1``.
Wall seconds, median of the repetitions; the cluster's start is not timed, the client's
connection is.  ``--large 50000`` is the 50M-line run of ``bench/scale.py`` (1.9 GB, made on
first use); ``--quick`` uses the small collection and a 500-query run (a check that the script
works, not a measurement: runs under 128 MiB are not cut).  Needs ``pip install -e '.[dask]'``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench  # noqa: E402
from gen import DATA, generate, make_grouped  # noqa: E402

SRC = HERE.parent / "src"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), "CRANFIELD_PROGRESS": "0"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and ``workers`` single-threaded workers, as processes (stopped on exit)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.procs: list[subprocess.Popen] = []

    def _start(self, *args: str) -> None:
        self.procs.append(
            subprocess.Popen(
                [str(Path(sys.executable).with_name("dask")), *args],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=_env(),
                start_new_session=True,
            )
        )

    def __enter__(self) -> Cluster:
        from distributed import Client

        port = self.address.rsplit(":", 1)[1]
        self._start("scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard")
        for _ in range(self.workers):
            self._start("worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                        "--no-dashboard")  # fmt: skip
        deadline = time.monotonic() + 120
        while True:
            try:
                with Client(self.address, timeout=5, set_as_default=False) as c:
                    c.wait_for_workers(self.workers, timeout=120)
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def __exit__(self, *exc: object) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)


def _time(argv: list[str], out: Path, repeat: int) -> tuple[float, bytes]:
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "cranfield", *argv, "-o", str(out)],
            env=_env(),
            capture_output=True,
        )
        walls.append(time.perf_counter() - start)
        if done.returncode:
            raise SystemExit(f"{' '.join(argv)}: {done.stderr.decode()}")
    return statistics.median(walls), out.read_bytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small inputs, one repetition")
    ap.add_argument("--large", type=int, default=50_000, help="queries of the large run")
    ap.add_argument("--workers", default="1,2", help="Dask worker counts, comma list")
    ap.add_argument("--jobs", default="1,2", help="local -j values, comma list")
    ap.add_argument("--repeat", type=int, default=None, help="repetitions (median); default 3")
    args = ap.parse_args()
    repeat = args.repeat or (1 if args.quick else 3)
    bench.OUT.mkdir(parents=True, exist_ok=True)
    inputs = {}
    name = "small" if args.quick else "many"
    qrels, runs = generate([name])[name]
    inputs[f"{name} ({len(runs)} runs)"] = (qrels, runs)
    q = 500 if args.quick else args.large
    qrels, runs = make_grouped(DATA / f"scale-{q}", q)
    inputs[f"one run of {q * 1000:,} lines"] = (qrels, runs)
    measures = [a for m in bench.DEFAULT_MEASURES.split(",") for a in ("-m", m)]
    jobs = [int(j) for j in args.jobs.split(",") if j]
    workers = [int(w) for w in args.workers.split(",") if w]
    print(f"# python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {repeat}")
    print(f"{'input':30s} {'how':14s} {'seconds':>8s} {'speed-up':>8s}  load")
    for label, (qrels, runs) in inputs.items():
        base = [str(qrels), *map(str, runs), *measures, "--per-query", "-f", "trec"]
        out = bench.OUT / "dask_bench.txt"
        reference, first = None, None
        rows = [(f"-j {j}", ["evaluate", *base, "-j", str(j)], None) for j in jobs]
        rows += [(f"dask {w} worker" + "s" * (w > 1), ["evaluate", *base], w) for w in workers]
        for how, argv, count in rows:
            load = os.getloadavg()[0]
            if count is None:
                wall, data = _time(argv, out, repeat)
            else:
                with Cluster(count) as cluster:
                    wall, data = _time([*argv, "--dask", cluster.address], out, repeat)
            if reference is None:
                reference, first = data, wall
            elif data != reference:
                raise SystemExit(f"{label}, {how}: the output differs from {rows[0][0]}'s")
            print(f"{label:30s} {how:14s} {wall:8.2f} {first / wall:7.2f}x  {load:.2f}")


if __name__ == "__main__":
    main()
