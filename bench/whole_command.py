"""The whole ``cranfield trec_eval`` command against trec_eval -O2, per run layout (issue 25).

The run and dense qrels of ``bench/core_reader.py`` (7,000 x 1,000 lines, 55 judgments per
query) and the layouts ``bench/layouts.py`` derives from them (GOV2-style ids, integer scores,
not grouped by query) are evaluated with trec_eval's default measures by both tools, in one
invocation, interleaved, median of ``--repeat``: wall and CPU seconds of the child and its peak
resident memory (``/usr/bin/time``), output bytes compared.  With ``--large 50000``, 50M lines
once.  ``--judged 4,300,1500`` adds the grouped layout with that many judgments per query
(sparse as MS MARCO, a TREC pool, Robust04-like; each density has its own generated run and
qrels under ``bench/data/core-reader/judged-N``).  Then ``cranfield evaluate`` on the grouped
run with ``-j 1`` and ``-j 2`` (and, with ``--large``, on the large run: issue 25's "one large
run on 2 cores"), each repetition.

Run: ``python bench/whole_command.py --trec-eval /tmp/trec_eval_src/trec_eval`` (trec_eval
built with -O2 from github:usnistgov/trec_eval, never committed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


def measured(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int, bytes]:
    """(wall s, CPU s, peak RSS MB, stdout) of ``cmd`` under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as t:
        fmt = "%e %U %S %M"
        p = subprocess.run(
            ["/usr/bin/time", "-o", t.name, "-f", fmt, *cmd],
            capture_output=True,
            env=env,
            check=True,
        )
        wall, user, system, rss = t.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) // 1000, p.stdout


def main() -> None:
    from core_reader import make
    from layouts import derive

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trec-eval", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--layouts", default="grouped,gov2,ties,shuffled")
    ap.add_argument("--large", type=int, default=0, help="also N x 1,000 lines, once (50000)")
    ap.add_argument(
        "--pin",
        action="store_true",
        help="run both tools pinned to one core (taskset -c 0), as issue 25's table was measured",
    )
    ap.add_argument(
        "--judged", default="", help="also the grouped run with N judgments per query (4,300,1500)"
    )
    args = ap.parse_args()
    data = ROOT / "bench/data/core-reader"
    qrels, run = make(data, 7000, 1000, 55)
    paths = derive(qrels, run, data / "layouts")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # compiled modules cached as users have them (a PYTHONDONTWRITEBYTECODE=1 environment made
    # every cranfield run compile its modules again: about 0.07 s each)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pin = ["taskset", "-c", "0"] if args.pin else []
    te = [*pin, args.trec_eval]
    cf = [*pin, sys.executable, "-m", "cranfield", "trec_eval"]
    cases: dict[str, list[str]] = {}
    for layout in args.layouts.split(","):
        q, r = paths[layout]
        cases[f"{layout}: trec_eval -O2"] = [*te, str(q), str(r)]
        cases[f"{layout}: cranfield"] = [*cf, str(q), str(r)]
    densities = [int(n) for n in args.judged.split(",") if n]
    for n in densities:
        qd, rd = make(data / f"judged-{n}", 7000, 1000, n)
        cases[f"judged {n}: trec_eval -O2"] = [*te, str(qd), str(rd)]
        cases[f"judged {n}: cranfield"] = [*cf, str(qd), str(rd)]
    if args.large:
        ql, rl = make(data, args.large, 1000, 55)
        cases["large: trec_eval -O2"] = [*te, str(ql), str(rl)]
        cases["large: cranfield"] = [*cf, str(ql), str(rl)]
    ev = [sys.executable, "-m", "cranfield", "evaluate"]
    for j in (1, 2):
        cases[f"evaluate -j {j}"] = [*ev, str(qrels), str(run), "-j", str(j)]
    if args.large:  # one large run on one core and on two, each repetition
        for j in (1, 2):
            cases[f"large evaluate -j {j}"] = [*ev, str(ql), str(rl), "-j", str(j)]
    got: dict[str, list[tuple[float, float, int, bytes]]] = {k: [] for k in cases}
    for _ in range(args.repeat):  # interleaved
        for k, cmd in cases.items():
            if k.startswith("large:") and got[k]:
                continue  # once
            got[k].append(measured(cmd, env))
    print(f"load {os.getloadavg()}; median of {args.repeat}: wall s, CPU s, peak MB")
    med = {}
    for k, v in got.items():
        med[k] = tuple(statistics.median(x[i] for x in v) for i in range(3))
        print(f"  {k:32s} {med[k][0]:7.2f} {med[k][1]:7.2f} {max(x[2] for x in v):6d}")
    extra = [f"judged {n}" for n in densities] + (["large"] if args.large else [])
    for layout in args.layouts.split(",") + extra:
        te, c = got[f"{layout}: trec_eval -O2"], got[f"{layout}: cranfield"]
        same = all(x[3] == te[0][3] for x in c)
        a, b = med[f"{layout}: trec_eval -O2"], med[f"{layout}: cranfield"]
        print(
            f"  {layout}: trec_eval / cranfield {a[0] / b[0]:.2f}x wall, {a[1] / b[1]:.2f}x CPU; "
            f"same output bytes: {same}"
        )
    for size in ("", "large ") if args.large else ("",):
        j1, j2 = med[f"{size}evaluate -j 1"], med[f"{size}evaluate -j 2"]
        same = all(x[3] == got[f"{size}evaluate -j 1"][0][3] for x in got[f"{size}evaluate -j 2"])
        print(
            f"  {size}evaluate -j 1 / -j 2: {j1[0] / j2[0]:.2f}x wall, CPU {j1[1]:.2f} vs "
            f"{j2[1]:.2f}; same output bytes: {same}"
        )


if __name__ == "__main__":
    main()
