"""cranfield.compat.ranx against ranx on ranx's own ground: small dicts.

    python bench/ranx_workalike.py [--calls 300]

1. **First call**: a fresh interpreter imports the library and evaluates ndcg@10, map and mrr
   on one query of 10 documents, timed from before the import to after the call.  ranx twice:
   with numba's on-disk cache cold (a new NUMBA_CACHE_DIR: every function compiled, ranx#74)
   and warm (the same directory again: the compiled code loaded).
2. **Each later call** on the same 1x10 dicts (a plain dict and a Run), after one warm-up call:
   mean time of ``--calls`` calls.

Prints seconds and the ratio ranx / cranfield (above 1: cranfield faster).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

JOB = r"""
import sys, time, warnings
t0 = time.perf_counter()
warnings.simplefilter("ignore")
if sys.argv[1] == "ranx":
    import ranx as R
else:
    from cranfield.compat import ranx as R
qrels = {"q1": {f"d{i}": i % 3 for i in range(10)}}
run = {"q1": {f"d{i}": float(10 - i) for i in range(10)}}
M = ["ndcg@10", "map", "mrr"]
R.evaluate(qrels, run, M)
first = time.perf_counter() - t0
n = int(sys.argv[2])
out = [first]
for form in ("dict", "Run"):
    def call():
        if form == "dict":
            return R.evaluate(qrels, run, M)
        return R.evaluate(R.Qrels(qrels), R.Run(run), M)
    call()
    t = time.perf_counter()
    for _ in range(n):
        call()
    out.append((time.perf_counter() - t) / n)
print(*out)
"""


def job(tool: str, calls: int, env: dict[str, str]) -> list[float]:
    out = subprocess.run(
        [sys.executable, "-c", JOB, tool, str(calls)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [float(x) for x in out.split()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=300)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(SRC))
    with tempfile.TemporaryDirectory() as cache:
        nenv = dict(env, NUMBA_CACHE_DIR=cache)
        cold = job("ranx", args.calls, nenv)
        warm = job("ranx", args.calls, nenv)
    ours = job("cranfield", args.calls, env)
    print(
        f"first call, import included: ranx cold cache {cold[0]:.2f} s, warm cache "
        f"{warm[0]:.2f} s; cranfield {ours[0]:.2f} s "
        f"(ratios {cold[0] / ours[0]:.1f}x, {warm[0] / ours[0]:.1f}x)"
    )
    for i, form in ((1, "dict"), (2, "Run")):
        print(
            f"each later call, 1x10 {form}: ranx {warm[i] * 1e3:.2f} ms, cranfield "
            f"{ours[i] * 1e3:.2f} ms (ratio {warm[i] / ours[i]:.2f}x)"
        )


if __name__ == "__main__":
    main()
