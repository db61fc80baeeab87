"""Small in-memory calls (issue 25): cranfield.evaluate, cranfield.Evaluator (new per call and
reused), cranfield.compat.pytrec_eval (the work-alike, new and reused), pytrec_eval (new per
call and reused), ir_measures and ranx on {qid: {doc: score}}
dicts of Q queries x D documents, timed interleaved in one invocation (round robin, the median
of the rounds), with the load average printed; then 10,000 one-query calls in a loop.

    python bench/small_calls.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import warnings

MEASURES = ["AP", "nDCG@10", "P@10"]
SIZES = [(1, 10), (1, 100), (10, 100), (100, 100), (1000, 1000)]


def make(q: int, d: int, seed: int = 0) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(q):
        qid = f"q{i}"
        docs = [f"d{j}" for j in range(d)]
        qrels[qid] = {doc: rng.choice([0, 0, 1, 2]) for doc in rng.sample(docs, max(1, d // 2))}
        run[qid] = {doc: float(rng.randint(0, d)) for doc in docs}
    return qrels, run


def contenders(qrels: dict, run: dict) -> dict:
    import cranfield

    out = {
        "cranfield.evaluate": lambda: cranfield.evaluate(qrels, run, MEASURES),
        "Evaluator new": lambda: cranfield.Evaluator(qrels, MEASURES).evaluate(run),
    }
    ev = cranfield.Evaluator(qrels, MEASURES)
    out["Evaluator reused"] = lambda: ev.evaluate(run)
    from cranfield.compat import pytrec_eval as workalike

    wm = {"map", "ndcg_cut.10", "P.10"}
    out["work-alike new"] = lambda: workalike.RelevanceEvaluator(qrels, wm).evaluate(run)
    we = workalike.RelevanceEvaluator(qrels, wm)
    out["work-alike reused"] = lambda: we.evaluate(run)
    try:
        import pytrec_eval

        pm = {"map", "ndcg_cut.10", "P.10"}
        out["pytrec_eval new"] = lambda: pytrec_eval.RelevanceEvaluator(qrels, pm).evaluate(run)
        pe = pytrec_eval.RelevanceEvaluator(qrels, pm)
        out["pytrec_eval reused"] = lambda: pe.evaluate(run)
    except ImportError:
        pass
    try:
        import ir_measures

        im = [ir_measures.AP, ir_measures.nDCG @ 10, ir_measures.P @ 10]
        out["ir_measures"] = lambda: ir_measures.calc_aggregate(im, qrels, run)
    except ImportError:
        pass
    try:
        import ranx

        rq, rr = ranx.Qrels(qrels), ranx.Run(run)
        out["ranx"] = lambda: ranx.evaluate(rq, rr, ["map", "ndcg@10", "precision@10"])
    except ImportError:
        pass
    return out


def per_call(fn, budget: float) -> float:
    """Seconds per call of ``fn``, calls repeated for about ``budget`` seconds."""
    fn()
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - t0
        if el >= budget:
            return el / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.05)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"load average: {os.getloadavg()}  cpus: {os.cpu_count()}")
    for q, d in SIZES:
        qrels, run = make(q, d)
        cs = contenders(qrels, run)
        times = {k: [] for k in cs}
        for _ in range(args.rounds if q * d <= 10_000 else 1):
            for k, fn in cs.items():  # round robin: every contender sees the same load
                times[k].append(per_call(fn, args.budget if q * d <= 10_000 else 0.0))
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"\n{q}x{d}  (load {os.getloadavg()[0]:.2f})")
        base = med.get("pytrec_eval new")
        for k, v in med.items():
            ratio = f"  {v / base:6.2f}x pytrec_eval new" if base else ""
            print(f"  {k:20s} {v * 1e6:12.1f} us{ratio}")
        if "pytrec_eval reused" in med:
            r = med["Evaluator reused"] / med["pytrec_eval reused"]
            print(f"  Evaluator reused / pytrec_eval reused: {r:.2f}x")
    import cranfield

    qrels, run = make(1, 10)
    ev = cranfield.Evaluator(qrels, MEASURES)
    ranking = run["q0"]
    t0 = time.perf_counter()
    for _ in range(10_000):
        ev.evaluate_query("q0", ranking)
    print(f"\n10,000 one-query Evaluator.evaluate_query calls: {time.perf_counter() - t0:.2f} s")
    try:
        import pytrec_eval

        pe = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.10"})
        t0 = time.perf_counter()
        for _ in range(10_000):
            pe.evaluate(run)
        print(f"10,000 one-query pytrec_eval reused calls: {time.perf_counter() - t0:.2f} s")
    except ImportError:
        pass
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
