"""What a second busy core gives on this machine: the same work alone, then with a twin.

    python bench/twin.py [--runs 30] [--repeat 3]

Evaluates the first ``--runs`` runs of the ``many`` collection (``bench/gen.py``) one after the
other in one Python process (``cranfield.evaluate``, ``jobs=1``), timing each run after the
first (imports excluded), once alone and once while a twin process does the same at the same
time.  Two independent processes share nothing but the machine, so the ratio of the two
medians is the most any parallel scheme can gain per core here; ``bench/run.py --ceiling``
measures the same ceiling end to end.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

WORK = """
import sys, time, glob
import cranfield
from cranfield.io import read_qrels
qrels_path, n = sys.argv[1], int(sys.argv[2])
runs = sorted(glob.glob(sys.argv[3] + "/run*.txt"))[:n]
q = read_qrels(qrels_path)
ms = ["AP", "P@10", "nDCG@10", "R@1000", "RR", "Rprec", "Bpref"]
ts = []
for p in runs:
    t = time.perf_counter()
    cranfield.evaluate(q, p, measures=ms, jobs=1)
    ts.append(time.perf_counter() - t)
print(sorted(ts[1:])[len(ts[1:]) // 2])
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from gen import generate

    qrels, runs = generate(["many"])["many"]
    cmd = [sys.executable, "-c", WORK, str(qrels), str(args.runs), str(runs[0].parent)]
    alone, twin = [], []
    for _ in range(args.repeat):
        alone.append(float(subprocess.run(cmd, capture_output=True, text=True).stdout))
        a = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        b = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        twin += [float(a.communicate()[0]), float(b.communicate()[0])]
    one, two = statistics.median(alone), statistics.median(twin)
    print(f"median seconds a run: alone {one:.4f}, with a twin {two:.4f} ({two / one:.2f}x)")
    print(f"most a second core can give here: {2 * one / two:.2f}x")


if __name__ == "__main__":
    main()
