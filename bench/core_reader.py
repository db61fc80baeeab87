"""The compiled core's TREC reader against the readers it replaced and trec_eval -O2.

A run of ``--queries`` x ``--depth`` lines (7,000 x 1,000: 7M lines) grouped by query with
scores descending, and dense qrels (``--judged`` judgments per query, a TREC-style pool), are
written once under ``bench/data/core-reader/``.  In one invocation, interleaved, median of
``--repeat``:

- reading the run and the qrels in-process (``read_run``/``read_qrels``: decompression and
  text checks included) with the core, and with the replaced readers
  (``text_oracle.parse_run_oracle``/``parse_qrels_oracle``: Arrow for large files) on the same
  checked bytes;
- the whole evaluation on the command line (``cranfield trec_eval`` with trec_eval's default
  measures) against ``trec_eval`` (``--trec-eval PATH``, built with -O2 from
  github:usnistgov/trec_eval; never committed), output bytes compared.

Run: ``python bench/core_reader.py --trec-eval /tmp/trec_eval_src/trec_eval``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def make(out: Path, queries: int, depth: int, judged: int, seed: int = 7) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    run, qrels = out / f"run-{queries}x{depth}.txt", out / f"qrels-{queries}x{judged}.txt"
    if run.exists() and qrels.exists():
        return qrels, run
    rng = np.random.default_rng(seed)
    collection = 5_000_000
    with open(run, "w") as fr, open(qrels, "w") as fq:
        for q in range(1, queries + 1):
            docs = rng.choice(collection, size=depth, replace=False)
            scores = np.sort(rng.random(depth))[::-1] * 30
            fr.write(
                "".join(
                    f"{q} Q0 {d} {r} {s:.6f} bench\n"
                    for r, (d, s) in enumerate(zip(docs.tolist(), scores.tolist(), strict=True), 1)
                )
            )
            # half of the judged documents retrieved, half not
            pool = np.concatenate(
                (docs[: judged // 2], rng.choice(collection, size=judged - judged // 2))
            )
            pool = np.unique(pool)
            grades = rng.integers(0, 3, size=len(pool))
            fq.write(
                "".join(
                    f"{q} 0 {d} {g}\n" for d, g in zip(pool.tolist(), grades.tolist(), strict=True)
                )
            )
    return qrels, run


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the machine is shared: wall
    times move with the load, CPU times much less)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of ``fn()``."""
    c, t = _cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - t, _cpu() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--judged", type=int, default=55)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trec-eval", default=None)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    import cranfield.io.trec.text as text
    import cranfield.io.trec.text_oracle as text_oracle
    from cranfield.io import read_qrels, read_run

    qrels, run = make(ROOT / "bench/data/core-reader", args.queries, args.depth, args.judged)
    print(f"run {run.name}: {run.stat().st_size / 1e6:.0f} MB; qrels {qrels.name}", flush=True)
    data_run, data_qrels = text.read_text(run), text.read_text(qrels)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cases = {
        "run parse, core": lambda: text._parse_run(data_run, str(run), "r"),
        "run parse, old (Arrow)": lambda: text_oracle.parse_run_oracle(data_run, str(run), "r"),
        "qrels parse, core": lambda: text._parse_qrels(data_qrels, str(qrels)),
        "qrels parse, old": lambda: text_oracle.parse_qrels_oracle(data_qrels, str(qrels)),
        "read_run (file, checks, pieces)": lambda: read_run(run),
        "read_qrels (file, checks)": lambda: read_qrels(qrels),
    }
    outputs = {}

    def cli(cmd, key):
        def go():
            p = subprocess.run(cmd, capture_output=True, env=env, check=True)
            outputs[key] = p.stdout

        return go

    cases["cranfield trec_eval (CLI, whole evaluation)"] = cli(
        [sys.executable, "-m", "cranfield", "trec_eval", str(qrels), str(run)], "cranfield"
    )
    if args.trec_eval:
        cases["trec_eval -O2 (whole evaluation)"] = cli(
            [args.trec_eval, str(qrels), str(run)], "trec_eval"
        )
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(args.repeat):  # interleaved
        for k, fn in cases.items():
            times[k].append(timed(fn))
    wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
    cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
    print(f"load {os.getloadavg()[0]:.1f}; median of {args.repeat}; seconds: wall, CPU")
    for k in cases:
        print(f"  {k:40s} {wall[k]:7.3f} {cpu[k]:7.3f}")

    def ratio(slow: str, fast: str) -> str:
        return f"{wall[slow] / wall[fast]:.2f}x wall, {cpu[slow] / cpu[fast]:.2f}x CPU"

    print(f"  run parse, old / core:    {ratio('run parse, old (Arrow)', 'run parse, core')}")
    print(f"  qrels parse, old / core:  {ratio('qrels parse, old', 'qrels parse, core')}")
    if args.trec_eval:
        te, cf = "trec_eval -O2 (whole evaluation)", "cranfield trec_eval (CLI, whole evaluation)"
        print(f"  trec_eval / cranfield:    {ratio(te, cf)}")
        print(f"  same output bytes: {outputs['cranfield'] == outputs['trec_eval']}")


if __name__ == "__main__":
    main()
