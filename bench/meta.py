"""Time ``cranfield meta``'s computations on 100 runs x 50 topics (the issue's target: under
a minute with 1,000 bootstrap samples), and the randomised Tukey HSD and MaxT on the same
table.  Prints seconds; nothing here is a unit test.

    python bench/meta.py [--runs 100] [--topics 50] [--samples 1000] [--trials 100]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=100)
    a = ap.parse_args()
    from cranfield.comparing.meta import discriminative_power, ranking_stability, swap_rates
    from cranfield.comparing.rthsd import randomised_tukey_hsd
    from cranfield.comparing.westfall_young import westfall_young

    rng = np.random.default_rng(0)
    Y = np.clip(
        rng.random((a.topics, a.runs)) * 0.5
        + np.linspace(0, 0.3, a.runs)
        + rng.random((a.topics, 1)) * 0.3,
        0,
        1,
    )
    pairs = [(i, j) for i in range(a.runs) for j in range(i + 1, a.runs)]
    jobs = [
        ("discriminative power, bootstrap", lambda: discriminative_power(Y, samples=a.samples)),
        ("discriminative power, rthsd", lambda: discriminative_power(Y, test="rthsd",
                                                                     samples=a.samples)),
        ("swap rate", lambda: swap_rates(Y, trials=a.trials)),
        ("ranking stability", lambda: ranking_stability(Y, trials=a.trials)),
        ("randomised Tukey HSD", lambda: randomised_tukey_hsd(Y, permutations=a.samples)),
        ("MaxT over every pair", lambda: westfall_young(Y, pairs, permutations=a.samples)),
    ]  # fmt: skip
    print(f"{a.runs} runs x {a.topics} topics, {a.samples} resamples, {a.trials} trials")
    total = 0.0
    for name, job in jobs:
        t = time.perf_counter()
        job()
        dt = time.perf_counter() - t
        total += dt
        print(f"{name:34s} {dt:7.2f} s")
    print(f"{'total':34s} {total:7.2f} s")


if __name__ == "__main__":
    main()
