"""Leaderboard agreement at the scale of the LLMJudge challenge: 42 judgment sets x 150 runs x
300 queries (issue 28, part 2).  Writes the data to bench/data/leaderboard/ (gitignored, seeded,
made on first use) and times ``cranfield leaderboard`` on it in a fresh process (wall and CPU
seconds, the load average when it started).  Measured, never asserted.

    python bench/leaderboard.py [--sets 42] [--runs 150] [--queries 300] [--depth 100]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "leaderboard"


def _write(path: Path, lines: list[str]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(lines))
    tmp.replace(path)


def make(sets: int, runs: int, queries: int, depth: int, seed: int = 28) -> tuple[list, list]:
    """``sets`` qrels (a 0-3 "human" set and noisy copies: each grade kept with probability
    0.4-0.9, else redrawn, some sets on a 0-1 scale) over a pool of 2 x depth documents per
    query, and ``runs`` runs of ``depth`` documents per query of varying quality."""
    out = DATA / f"{sets}x{runs}x{queries}x{depth}"
    qrels_paths = [out / f"qrels{i:02d}.txt" for i in range(sets)]
    run_paths = [out / f"run{i:03d}.txt" for i in range(runs)]
    if all(p.exists() for p in qrels_paths + run_paths):
        return qrels_paths, run_paths
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    pool = 2 * depth
    truth = rng.choice(4, size=(queries, pool), p=[0.6, 0.2, 0.12, 0.08])
    for s, path in enumerate(qrels_paths):
        keep = rng.random((queries, pool)) < (1.0 if s == 0 else rng.uniform(0.4, 0.9))
        g = np.where(keep, truth, rng.choice(4, size=(queries, pool)))
        if s % 5 == 4:
            g = (g >= 2).astype(int)  # a binary set
        judged = rng.random((queries, pool)) < 0.8
        lines = [
            f"{q + 1} 0 D{q + 1}-{d} {g[q, d]}\n"
            for q in range(queries)
            for d in range(pool)
            if judged[q, d]
        ]
        _write(path, lines)
    for r, path in enumerate(run_paths):
        skill = r / runs
        lines = []
        for q in range(queries):
            noise = rng.normal(size=pool)
            score = skill * truth[q] + noise
            top = np.argsort(-score, kind="stable")[:depth]
            lines += [
                f"{q + 1} Q0 D{q + 1}-{d} {k + 1} {score[d]:.6f} run{r:03d}\n"
                for k, d in enumerate(top)
            ]
        _write(path, lines)
    return qrels_paths, run_paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sets", type=int, default=42)
    ap.add_argument("--runs", type=int, default=150)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("-m", "--measure", action="append", default=None)
    ap.add_argument("--extra", default="", help="more arguments of cranfield leaderboard")
    a = ap.parse_args()
    t = time.perf_counter()
    qrels, runs = make(a.sets, a.runs, a.queries, a.depth)
    print(f"data ready in {time.perf_counter() - t:.1f} s: {len(qrels)} sets, {len(runs)} runs")
    measures = a.measure or ["AP", "nDCG@10"]
    cmd = [sys.executable, "-m", "cranfield", "leaderboard", *map(str, qrels)]
    for r in runs:
        cmd += ["-r", str(r)]
    for m in measures:
        cmd += ["-m", m]
    cmd += ["--pairs", "all", "-o", str(DATA / "out.txt"), *a.extra.split()]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, env=env, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    if done.returncode:
        sys.exit(f"cranfield leaderboard failed ({done.returncode}): {done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(
        f"cranfield leaderboard, {a.sets} sets x {a.runs} runs x {a.queries} queries "
        f"(depth {a.depth}), measures {', '.join(measures)}, every pair of sets: "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU, load {load:.2f} at the start"
    )


if __name__ == "__main__":
    main()
