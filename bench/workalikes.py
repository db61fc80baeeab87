"""The work-alikes against the packages they replace (issue 26), on the same dicts:
cranfield.compat.ir_measures against ir_measures, cranfield.compat.ranx against ranx, with
each evaluator made per call ("new") and made once ("reused"), on Q queries x D documents,
timed interleaved (round robin, the median of the rounds), the load average printed.

    python bench/workalikes.py [--rounds 5] [--sizes 1x10,1000x1000]

Measures: AP, nDCG@10, P@10 (ir_measures' names; ranx's map, ndcg@10, precision@10).  ranx
is timed after a warm-up call (numba compiled).  Prints milliseconds per call and the ratio
peer / work-alike (above 1: the work-alike is faster).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import warnings


def make(q: int, d: int, seed: int = 0) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(q):
        qid = f"q{i}"
        docs = [f"d{j}" for j in range(d)]
        qrels[qid] = {doc: rng.choice([0, 0, 1, 2]) for doc in rng.sample(docs, max(1, d // 2))}
        run[qid] = {doc: float(rng.randint(0, d)) for doc in docs}
    return qrels, run


def pairs(qrels: dict, run: dict) -> dict[str, tuple]:
    """``{case: (peer call, work-alike call)}``."""
    import ir_measures as peer_im
    import ranx as peer_rx

    from cranfield.compat import ir_measures as our_im
    from cranfield.compat import ranx as our_rx

    out: dict[str, tuple] = {}
    pm = [peer_im.AP, peer_im.nDCG @ 10, peer_im.P @ 10]
    om = [our_im.AP, our_im.nDCG @ 10, our_im.P @ 10]
    out["ir_measures calc_aggregate (new)"] = (
        lambda: peer_im.calc_aggregate(pm, qrels, run),
        lambda: our_im.calc_aggregate(om, qrels, run),
    )
    pe, oe = peer_im.evaluator(pm, qrels), our_im.evaluator(om, qrels)
    out["ir_measures evaluator reused"] = (
        lambda: pe.calc_aggregate(run),
        lambda: oe.calc_aggregate(run),
    )
    out["ir_measures iter_calc (new)"] = (
        lambda: list(peer_im.iter_calc(pm, qrels, run)),
        lambda: list(our_im.iter_calc(om, qrels, run)),
    )
    rm = ["map", "ndcg@10", "precision@10"]
    out["ranx evaluate dicts"] = (
        lambda: peer_rx.evaluate(qrels, run, rm),
        lambda: our_rx.evaluate(qrels, run, rm),
    )
    out["ranx Qrels+Run made and evaluated"] = (
        lambda: peer_rx.evaluate(peer_rx.Qrels(qrels), peer_rx.Run(run), rm),
        lambda: our_rx.evaluate(our_rx.Qrels(qrels), our_rx.Run(run), rm),
    )
    pq, pr = peer_rx.Qrels(qrels), peer_rx.Run(run)
    oq, orr = our_rx.Qrels(qrels), our_rx.Run(run)
    out["ranx Qrels+Run reused"] = (
        lambda: peer_rx.evaluate(pq, pr, rm),
        lambda: our_rx.evaluate(oq, orr, rm),
    )
    return out


def timed(fn, budget: float) -> float:
    """Seconds per call: as many calls as fit in ``budget`` seconds (at least one)."""
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= budget:
            return elapsed / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", default="1x10,1000x1000")
    ap.add_argument("--budget", type=float, default=0.3, help="seconds per timing")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for size in args.sizes.split(","):
        q, d = (int(x) for x in size.split("x"))
        qrels, run = make(q, d)
        cases = pairs(qrels, run)
        for peer, ours in cases.values():  # warm-up: numba compiled, imports done
            peer(), ours()
        times: dict[str, list[tuple[float, float]]] = {c: [] for c in cases}
        for _ in range(args.rounds):
            for case, (peer, ours) in cases.items():
                times[case].append((timed(peer, args.budget), timed(ours, args.budget)))
        print(f"{q} x {d}:")
        for case, rounds in times.items():
            p = statistics.median(t for t, _ in rounds)
            o = statistics.median(t for _, t in rounds)
            print(
                f"  {case:36s} peer {p * 1e3:9.3f} ms  work-alike {o * 1e3:9.3f} ms  {p / o:5.2f}x"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
