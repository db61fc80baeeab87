"""Cost against input size: cranfield (and trec_eval) end to end on grouped runs of 50 to
100,000 queries x 1,000 documents (50k to 100M lines), a table and a plot.

    python bench/scale.py [--trec-eval PATH] [--sizes 50,500,7000,50000,100000] [--repeat 3]
                          [--plot bench/scale.png]

Each run is made by ``bench/gen.py``'s ``make_grouped`` (MS MARCO-like: 1-6 graded judgments
per query) under ``bench/data/scale-<queries>/`` on first use (100,000 queries: 3.8 GB).  The
job is ``bench/run.py``'s (every per-query value of AP, P@10, nDCG@10, R@1000, RR, Rprec,
Bpref and the means), started by its launcher, so that the peak memory is the command's own.
The table gives wall and CPU seconds, microseconds per line (wall) and peak memory; cost is
linear when the microseconds per line stay flat, memory bounded when the peak does.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from launcher import launcher

if __name__ == "__main__":
    launcher()  # first thing, while this process is small

import run as bench
from gen import DATA, make_grouped

MEASURES = bench.DEFAULT_MEASURES.split(",")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="50,500,7000,50000,100000", help="queries, comma list")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trec-eval", default=None, metavar="PATH")
    ap.add_argument("--plot", default=str(Path(__file__).with_name("scale.png")))
    args = ap.parse_args()
    bench.OUT.mkdir(parents=True, exist_ok=True)
    tools = ["cranfield"] + (["trec_eval"] if args.trec_eval else [])
    print(f"# python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.repeat}")
    print(
        f"{'queries':>8s} {'lines':>12s} {'tool':10s} {'seconds':>8s} {'cpu s':>7s} "
        f"{'us/line':>8s} {'peak MB':>8s}  load"
    )
    rows = []
    for q in map(int, args.sizes.split(",")):
        qrels, runs = make_grouped(DATA / f"scale-{q}", q)
        lines = q * 1000
        for tool in tools:
            load = os.getloadavg()[0]
            walls, cpus, mems = [], [], []
            for _ in range(args.repeat):
                w, c, m = bench.time_tool(
                    tool, qrels, runs, MEASURES, args.trec_eval, f"scale-{q}", 1
                )
                walls.append(w)
                cpus.append(c)
                mems.append(m)
            wall, cpu, mem = map(statistics.median, (walls, cpus, mems))
            rows.append((tool, lines, wall, mem))
            print(
                f"{q:8d} {lines:12,d} {tool:10s} {wall:8.2f} {cpu:7.2f} "
                f"{wall / lines * 1e6:8.3f} {mem:8.0f}  {load:.2f}",
                flush=True,
            )
    _plot(rows, args.plot)


def _plot(rows, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    for tool in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == tool]
        x = [r[1] for r in mine]
        left.loglog(x, [r[2] for r in mine], "o-", label=tool)
        right.semilogx(x, [r[3] for r in mine], "o-", label=tool)
    left.set(xlabel="run lines", ylabel="seconds, end to end", title="time")
    right.set(xlabel="run lines", ylabel="peak resident MB", title="memory")
    for ax in (left, right):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.savefig(path, dpi=120, metadata={"Software": None})
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
