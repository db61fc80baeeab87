"""cranfield.compat.pytrec_eval and cranfield.compat.ranx against the packages they replace
on large TREC files (issue 26: 7M lines), the size bench/workalikes.py (dicts) leaves out.

    python bench/workalike_files.py [--collection msmarco] [--rounds 1]

On bench/gen.py's collection (``msmarco``: 7,000 queries x 1,000 documents, 7M run lines;
made if missing), each package in its own process (peer, then work-alike, per round), seconds:

- pytrec_eval: ``parse_qrel`` + ``parse_run`` of the files (as its users read them), then
  ``RelevanceEvaluator(qrels, {map, ndcg_cut.10, P.10}).evaluate(run)`` on those dicts;
- ranx: ``Qrels.from_file`` + ``Run.from_file``, then ``evaluate(qrels, run, [map, ndcg@10,
  precision@10])``.

The means of the measures are compared (the work-alike's must equal the package's to 1e-12).
The load average is printed before and after.
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
PYTREC = ("map", "ndcg_cut_10", "P_10")
RANX = ["map", "ndcg@10", "precision@10"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: compiled modules cached, as users have them."""


def pytrec(which: str, qrels_path: str, run_path: str) -> dict:
    if which == "peer":
        import pytrec_eval as pe
    else:
        from cranfield.compat import pytrec_eval as pe
    out: dict = {}
    t = time.perf_counter()
    with open(qrels_path) as fq, open(run_path) as fr:
        qrels, run = pe.parse_qrel(fq), pe.parse_run(fr)
    out["pytrec_eval parse_qrel + parse_run"] = time.perf_counter() - t
    t = time.perf_counter()
    got = pe.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"}).evaluate(run)
    out["pytrec_eval RelevanceEvaluator + evaluate"] = time.perf_counter() - t
    out["_values"] = [sum(v[m] for v in got.values()) / len(got) for m in PYTREC]
    out["_rows"] = sum(len(d) for d in run.values())
    return out


def ranx(which: str, qrels_path: str, run_path: str) -> dict:
    if which == "peer":
        import ranx as rx
    else:
        from cranfield.compat import ranx as rx
    out: dict = {}
    t = time.perf_counter()
    qrels = rx.Qrels.from_file(qrels_path, kind="trec")
    run = rx.Run.from_file(run_path, kind="trec")
    out["ranx Qrels.from_file + Run.from_file"] = time.perf_counter() - t
    t = time.perf_counter()
    got = rx.evaluate(qrels, run, RANX)
    out["ranx evaluate"] = time.perf_counter() - t
    out["_values"] = [float(got[m]) for m in RANX]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", default="msmarco")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        warnings.simplefilter("ignore")
        package, which, qrels, run = args.child
        print(json.dumps((pytrec if package == "pytrec" else ranx)(which, qrels, run)))
        return
    sys.path.insert(0, str(HERE))
    from gen import generate

    qrels, runs = generate([args.collection])[args.collection]
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for package in ("pytrec", "ranx"):
        got: dict[str, list[dict]] = {"peer": [], "work-alike": []}
        for _ in range(args.rounds):
            for which in got:
                cmd = [
                    sys.executable,
                    __file__,
                    "--child",
                    package,
                    which,
                    str(qrels),
                    str(runs[0]),
                ]
                done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=ENV)
                got[which].append(json.loads(done.stdout))
        peer, ours = got["peer"], got["work-alike"]
        diff = max(abs(a - b) for a, b in zip(peer[0]["_values"], ours[0]["_values"], strict=True))
        if diff > 1e-12:
            sys.exit(
                f"{package}: values differ: peer {peer[0]['_values']}, ours {ours[0]['_values']}"
            )
        rows = f"{peer[0]['_rows']:,} run lines, " if "_rows" in peer[0] else ""
        print(f"{args.collection}, {package}: {rows}means equal (largest difference {diff:.1e})")
        for case in (c for c in peer[0] if not c.startswith("_")):
            p = sorted(r[case] for r in peer)[len(peer) // 2]
            o = sorted(r[case] for r in ours)[len(ours) // 2]
            print(f"  {case:44s} peer {p:7.2f} s  work-alike {o:7.2f} s  {p / o:5.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
