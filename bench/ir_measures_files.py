"""cranfield.compat.ir_measures against ir_measures on TREC files (issue 26): the large case
bench/workalikes.py (dicts) leaves out.

    python bench/ir_measures_files.py [--collection msmarco] [--rounds 1]

On bench/gen.py's collection (``msmarco``: 7,000 queries x 1,000 documents, 7M run lines;
made if missing), each package in its own process (peer, then work-alike, per round), seconds:

- ``iterate read_trec_run``: every record of the run file;
- ``calc_aggregate(read_trec_qrels, read_trec_run)``: the readers' generators handed over;
- ``calc_aggregate(records)``: the run's records as a list (made before the clock starts).

Measures: AP, nDCG@10, P@10.  The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(which: str, qrels: str, run: str) -> dict[str, float]:
    """Seconds per case for ``which`` (``peer`` or ``work-alike``), in this process."""
    warnings.simplefilter("ignore")
    if which == "peer":
        import ir_measures as im
    else:
        from cranfield.compat import ir_measures as im
    measures = [im.AP, im.nDCG @ 10, im.P @ 10]
    out: dict[str, float] = {}
    t = time.perf_counter()
    n = sum(1 for _ in im.read_trec_run(run))
    out["iterate read_trec_run"] = time.perf_counter() - t
    t = time.perf_counter()
    agg = im.calc_aggregate(measures, im.read_trec_qrels(qrels), im.read_trec_run(run))
    out["calc_aggregate(read_trec_qrels, read_trec_run)"] = time.perf_counter() - t
    records = list(im.read_trec_run(run))
    t = time.perf_counter()
    agg2 = im.calc_aggregate(measures, im.read_trec_qrels(qrels), records)
    out["calc_aggregate(records)"] = time.perf_counter() - t
    out["_rows"] = n
    out["_values"] = [agg[m] for m in measures] + [agg2[m] for m in measures]  # type: ignore[assignment]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", default="msmarco")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(*args.child)))
        return
    sys.path.insert(0, str(HERE))
    from gen import generate

    qrels, runs = generate([args.collection])[args.collection]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    got: dict[str, list[dict]] = {"peer": [], "work-alike": []}
    for _ in range(args.rounds):
        for which in got:
            cmd = [sys.executable, __file__, "--child", which, str(qrels), str(runs[0])]
            done = subprocess.run(cmd, check=True, capture_output=True, text=True)
            got[which].append(json.loads(done.stdout))
    peer, ours = got["peer"], got["work-alike"]
    if peer[0]["_values"] != ours[0]["_values"]:
        sys.exit(f"values differ: ir_measures {peer[0]['_values']}, ours {ours[0]['_values']}")
    print(f"{args.collection}: {peer[0]['_rows']:,} run lines, values equal")
    for case in (c for c in peer[0] if not c.startswith("_")):
        p = sorted(r[case] for r in peer)[len(peer) // 2]
        o = sorted(r[case] for r in ours)[len(ours) // 2]
        print(f"  {case:48s} peer {p:7.2f} s  work-alike {o:7.2f} s  {p / o:5.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
