"""Cost of tie-aware AP (``--ties weak``) against plain AP on an MS MARCO-sized run.

A synthetic run of 7,000 queries x 1,000 documents whose scores are quantized (so that tie
groups of a few to a few dozen documents are common), and qrels with 1-3 relevant documents
per query, most of them retrieved.  Times (best of ``--repeat`` / ``--repeat-e2e``):

- the measure alone on judged rankings (a fresh copy each time, so nothing memoised is
  reused): plain AP (trec_eval order) vs tie-aware AP (weak);
- end to end, ``evaluate(qrels, run, "AP", ties=...)`` from TREC text files (``trec`` sorts the
  ties by document id; ``weak`` skips that sort, since no order within a level changes an
  expectation).

Run: ``PYTHONPATH=src python bench/ties.py`` (``--queries``/``--docs`` to scale).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from cranfield import evaluate, judge, read_qrels, read_run
from cranfield.measures import parse


def write_inputs(
    folder: Path, queries: int, docs: int, levels: int, seed: int
) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    run_lines, qrels_lines = [], []
    for q in range(queries):
        qid = str(1000 + q)
        # scores quantized to `levels` values: ties everywhere
        scores = np.sort(rng.integers(0, levels, size=docs))[::-1] / levels
        ids = rng.choice(8_000_000, size=docs, replace=False)
        run_lines.extend(
            f"{qid} Q0 D{d} {r} {s:.4f} bench\n"
            for r, (d, s) in enumerate(zip(ids.tolist(), scores.tolist(), strict=True), 1)
        )
        nrel = int(rng.integers(1, 4))
        for k in range(nrel):
            if rng.random() < 0.8:  # retrieved, biased towards the top
                pos = min(int(rng.exponential(60)), docs - 1)
                doc = f"D{ids[pos]}"
            else:
                doc = f"U{q}_{k}"
            qrels_lines.append(f"{qid} 0 {doc} 1\n")
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    run_path.write_text("".join(run_lines))
    qrels_path.write_text("".join(sorted(set(qrels_lines))))
    return qrels_path, run_path


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--levels", type=int, default=400, help="distinct score values per query")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of the measure timing")
    ap.add_argument("--repeat-e2e", type=int, default=1, help="repeats of the end-to-end timing")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        qrels_path, run_path = write_inputs(
            Path(tmp), args.queries, args.docs, args.levels, args.seed
        )
        qrels, run = read_qrels(str(qrels_path)), read_run(str(run_path))
        jr_trec = judge(qrels, run, ties="trec")
        jr_weak = judge(qrels, run, ties="weak")
        sizes = np.bincount(jr_weak.tie_ids)
        print(
            f"run: {args.queries} queries x {args.docs} documents = {len(jr_trec.grades):,} rows; "
            f"tie groups: {len(sizes):,}, mean size {sizes.mean():.2f}, max {sizes.max()}, "
            f"rows in groups of >1: {(sizes[sizes > 1]).sum() / len(jr_trec.grades):.0%}"
        )
        m = parse("AP")
        plain = m.compute(jr_trec)
        tie = m.compute(jr_weak)
        print(
            f"mean AP: trec order {plain.mean():.6f}, expected over tie-breakings {tie.mean():.6f}"
        )

        # a fresh copy each time: measures memoise shared arrays on the judged rankings
        t_plain = best_of(args.repeat, lambda: m.compute(replace(jr_trec)))
        t_tie = best_of(args.repeat, lambda: m.compute(replace(jr_weak)))
        print(
            f"measure only:  plain AP {t_plain * 1e3:8.1f} ms   tie-aware AP {t_tie * 1e3:8.1f} ms"
            f"   ratio {t_tie / t_plain:.2f}"
        )
        e_plain = best_of(args.repeat_e2e, lambda: evaluate(str(qrels_path), str(run_path), "AP"))
        e_tie = best_of(
            args.repeat_e2e, lambda: evaluate(str(qrels_path), str(run_path), "AP", ties="weak")
        )
        print(
            f"end to end:    plain AP {e_plain:8.2f} s    tie-aware AP {e_tie:8.2f} s"
            f"    ratio {e_tie / e_plain:.2f}"
        )


if __name__ == "__main__":
    main()
