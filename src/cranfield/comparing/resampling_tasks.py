"""The randomization and bootstrap tests of many pairs as tasks on an executor (a Dask
cluster), with the p-values and intervals of one process, bit for bit.

Each test draws its resamples from ``numpy.random.default_rng(seed)`` in blocks whose size
depends on the number of queries only, and treats each pair (a column of differences) on its
own (:mod:`cranfield.comparing.resampling`): a pair's p-value does not depend on which other
pairs are tested with it.  So the pairs are cut into groups of about :data:`PAIRS_PER_TASK`,
each group is tested by one task with the same seed (every task draws the same resamples), and
the results are put back in the order of the pairs.  The groups are cut at multiples of
:func:`~cranfield.comparing.resampling.pair_step`, where one process cuts its matrix
products too: every product then has the same columns as in one process, so the p-values and
intervals are the same bits (a product's bits depend on its number of columns).  Warnings
raised by a task are raised here, in the order of the groups.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from cranfield.comparing.differences import PairedTestResult

__all__ = ["PAIRS_PER_TASK", "Resampling", "resampling_on"]

PAIRS_PER_TASK = 64
"""Pairs tested by one task (tests lower it)."""


class Resampling(NamedTuple):
    """The settings of one resampling test (what every task of it shares)."""

    test: str  # "randomization" or "bootstrap"
    alternative: str
    permutations: int
    seed: int | None
    confidence: float | None = None  # bootstrap: also the percentile interval


def _test(settings: Resampling, D: np.ndarray) -> tuple[list[PairedTestResult], Any]:
    """One task: the test of the columns of ``D`` (and the bootstrap interval)."""
    from cranfield.comparing.resampling import bootstrap_tests, randomization_tests

    s = settings
    if s.test == "randomization":
        return randomization_tests(
            D, permutations=s.permutations, seed=s.seed, alternative=s.alternative
        ), None
    return bootstrap_tests(
        D, samples=s.permutations, seed=s.seed, alternative=s.alternative, confidence=s.confidence
    )


def resampling_on(
    executor: Any, D: np.ndarray, settings: Resampling
) -> tuple[list[PairedTestResult], np.ndarray | None]:
    """The test of every column of ``D`` (queries x pairs) on ``executor``: what
    :func:`~cranfield.comparing.resampling.randomization_tests` (interval ``None``) or
    :func:`~cranfield.comparing.resampling.bootstrap_tests` return for the whole ``D``."""
    from cranfield.scale.processes import recorded, replay

    D = np.asarray(D, dtype=np.float64)
    if D.ndim != 2 or D.shape[1] <= 1:
        return _test(settings, D)
    npairs = D.shape[1]
    from cranfield.comparing.resampling import pair_step

    unit = pair_step(D.shape[0])  # groups cut where one process cuts its products
    step = unit * max(1, -(-PAIRS_PER_TASK // unit))
    groups = [slice(lo, min(lo + step, npairs)) for lo in range(0, npairs, step)]
    futures = [
        executor.submit(recorded, _test, settings, np.ascontiguousarray(D[:, g])) for g in groups
    ]
    try:
        done = [replay(f.result()) for f in futures]
    finally:
        for f in futures:
            f.cancel()
    results = [r for rs, _ in done for r in rs]
    intervals = [ci for _, ci in done]
    ci = None if intervals[0] is None else np.concatenate(intervals, axis=1)
    return results, ci
