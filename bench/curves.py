"""Time the curve methods on a synthetic run (and trec_eval-style iprec_at_recall against
pytrec_eval when installed).  Prints seconds; asserts nothing.

    python bench/curves.py [queries] [docs_per_query]
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np

from cranfield import judge, read_qrels, read_run
from cranfield.curves import fallout, gain, precision_recall


def synthetic(Q: int, n: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(Q):
        qid = f"q{q}"
        R = int(rng.integers(1, 200))
        rel = {f"d{k}": int(rng.integers(1, 4)) for k in rng.choice(5 * n, R, replace=False)}
        qrels[qid] = rel
        docs = rng.choice(5 * n, n, replace=False)
        scores = np.sort(rng.random(n))[::-1]
        run[qid] = {f"d{d}": float(s) for d, s in zip(docs, scores, strict=True)}
    return qrels, run


def timed(label, fn):
    t = time.perf_counter()
    fn()
    print(f"{label:<40} {time.perf_counter() - t:8.3f} s")


def main() -> None:
    Q = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    qrels, run = synthetic(Q, n)
    jr = judge(read_qrels(qrels), read_run(run, name="bench"))
    print(f"{Q} queries x {n} documents")
    warnings.simplefilter("ignore")
    timed("first call (imports pandas)", lambda: precision_recall(jr, levels=[0.5]))
    for interp in ("trec", "max", "ceiling", "quasi-cranfield", "semi-cranfield"):
        timed(
            f"pr {interp} (21 levels)",
            lambda i=interp: precision_recall(jr, levels=21, interpolation=i),
        )
    timed(
        "pr quasi-cranfield step mean",
        lambda: precision_recall(jr, interpolation="quasi-cranfield", step="mean"),
    )
    timed("pr none (every cut-off)", lambda: precision_recall(jr, interpolation="none"))
    timed("pr micro (pooled, read at 11 levels)", lambda: precision_recall(jr, average="micro"))
    timed("gain (every rank)", lambda: gain(jr))
    timed("fallout (11 levels)", lambda: fallout(jr, collection_size=5 * n))
    try:
        import pytrec_eval
    except ImportError:
        return
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"})
    timed("pytrec_eval iprec_at_recall (11 levels)", lambda: ev.evaluate(run))
    timed(
        "cranfield trec9 incl. judging (11 levels)",
        lambda: precision_recall(read_qrels(qrels), read_run(run), interpolation="trec9"),
    )


if __name__ == "__main__":
    main()
