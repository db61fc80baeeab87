"""The randomised Tukey HSD test (Carterette, TOIS 30(1), 2012; Sakai, *Laboratory
Experiments in Information Retrieval*, 2018).

Under the complete null hypothesis every run is as good as every other on every query, so
each query's values may be permuted across the runs (:mod:`.arrangements`).  For every
arrangement the statistic is the range of the run means, ``max_j mean*_j - min_j mean*_j``;
the p-value of a pair ``(j, l)`` is the share of arrangements whose range reaches the
observed ``|mean_j - mean_l|``.  As Tukey's HSD it controls the family-wise error over all
k(k-1)/2 pairs at once (so no further correction applies), without assuming normality.

Every arrangement is enumerated when ``(k!)^n <= min(permutations, 2^24)`` (p = count / N,
the observed table among them); otherwise ``permutations`` arrangements are drawn from
``numpy.random.default_rng(seed)`` and ``p = (1 + count) / (B + 1)`` (Davison & Hinkley 1997,
eq. 4.11: the observed table counts as one), so p is never 0.  elinor (the Rust tool) reports
``count / B`` instead.  Two runs: the randomization test of ``|mean(b) - mean(a)|``.  A range
within 1e-10 of the mean magnitude below a difference counts as reaching it, so exact ties
of the permutation distribution (frequent with P@10-like values) are kept; differences of
means within 1e-12 of the largest value are ties (p = 1), the rule of every test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cranfield.comparing.arrangements import (
    MAX_EXACT_ARRANGEMENTS,
    arrangement_blocks,
    arrangement_count,
    exact_arrangements,
    rearranged,
)
from cranfield.comparing.checks import check_count, check_seed, runs_table, unit_exponents
from cranfield.errors import ParameterError

__all__ = ["RandomisedTukey", "randomised_tukey_hsd"]

_TOLERANCE = 1e-10
_TIE = 1e-12


@dataclass(frozen=True)
class RandomisedTukey:
    """``means``: the runs' means; ``diff[j, l] = |mean_j - mean_l|``; ``p[j, l]`` (symmetric,
    diagonal 1); ``resamples``: N, the arrangements counted; ``exact``: enumerated."""

    means: np.ndarray
    diff: np.ndarray
    p: np.ndarray
    resamples: int
    exact: bool


def randomised_tukey_hsd(
    Y, *, permutations: int = 10_000, seed: int | None = 0, exact: bool | None = None
) -> RandomisedTukey:
    """The randomised Tukey HSD test of the runs (columns) of ``Y`` (queries x runs)."""
    permutations = check_count(permutations, "permutations")
    seed = check_seed(seed)
    Y = runs_table(Y, "the randomised Tukey HSD test needs", queries=1)
    n, k = Y.shape
    if exact is None:
        use_exact = exact_arrangements(n, k, permutations)
    else:
        use_exact = bool(exact)
        if use_exact and arrangement_count(n, k) > MAX_EXACT_ARRANGEMENTS:
            raise ParameterError(
                f"exact enumeration of ({k}!)^{n} arrangements is too large (at most "
                f"{MAX_EXACT_ARRANGEMENTS:,}); use exact=False"
            )
    e = int(unit_exponents(float(np.abs(Y).max())))
    S = np.ldexp(Y, -e)  # exact; the p-values are scale-free
    means = S.sum(axis=0) / n
    upper = np.triu_indices(k, 1)
    d = np.abs(means[:, None] - means[None, :])[upper]
    with np.errstate(over="ignore"):
        scale = max(float(np.ldexp(1.0, -e)), float(np.abs(S).max()))
    d[d <= _TIE * scale] = 0.0
    target = d - _TOLERANCE * max(float(np.abs(S).mean()), 1e-300)
    count = np.zeros(len(d), dtype=np.int64)
    blocks = arrangement_blocks(
        n, k, exact=use_exact, permutations=permutations, seed=seed, what="randomised Tukey HSD"
    )
    for arr in blocks:
        m = rearranged(S, arr).sum(axis=1) / n
        ranges = np.sort(m.max(axis=1) - m.min(axis=1))
        count += len(ranges) - np.searchsorted(ranges, target, side="left")
    if use_exact:
        total = arrangement_count(n, k)
        pv = count / total
    else:
        total = permutations + 1
        pv = (1.0 + count) / total
    pv[d == 0] = 1.0
    p = np.ones((k, k))
    p[upper] = np.minimum(pv, 1.0)
    p[(upper[1], upper[0])] = p[upper]
    diff = np.zeros((k, k))
    with np.errstate(over="ignore"):
        diff[upper] = np.ldexp(d, e)
    diff[(upper[1], upper[0])] = diff[upper]
    with np.errstate(over="ignore"):
        raw_means = np.ldexp(means, e)
    return RandomisedTukey(raw_means, diff, p, int(total), use_exact)
