"""The resampling tests at scale: randomization (exact enumeration and sampled) and the
bootstrap against scipy, the exact-enumeration rule, and a memory budget that does not grow
with the number of resamples.

Rules checked: a p-value is finite and in [0, 1], or the input is refused with one
ParameterError; deterministic methods agree with their peer to 1e-12 relative; sampled methods
are reproducible for a seed and agree with their peer within a Monte Carlo tolerance stated at
each test."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from _scale_pairs import ALTERNATIVES, SIZES, in_unit, pair
from scipy import stats

from cranfield.comparing import (
    differences,
    randomization_test,
)
from cranfield.comparing import resampling as resampling_mod
from cranfield.comparing.paired import (
    bootstrap_tests,
    exact_enumeration,
    randomization_tests,
)
from cranfield.errors import ParameterError


@pytest.mark.parametrize("alt", ALTERNATIVES)
def test_randomization_exact_equals_scipy_exhaustive_permutations(alt):
    a, b = pair(10)
    d = differences(a, b)
    r = randomization_test(a, b, alternative=alt)  # 2^10 <= 10,000: enumerated
    assert r.exact and r.resamples == 1024
    ref = stats.permutation_test(
        (d,), np.mean, permutation_type="samples", n_resamples=np.inf, alternative=alt
    )
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-12)


def _clt_p(d: np.ndarray) -> tuple[float, float]:
    """Normal approximation of the sign-flip distribution of T = sum(d) (variance sum d^2),
    and its Berry-Esseen error bound for the CDF, C sum|d|^3 / (sum d^2)^(3/2) with
    C = 0.56 (Shevtsova 2010, independent non-identical summands)."""
    s2 = float((d * d).sum())
    p = 2 * stats.norm.sf(abs(d.sum()) / math.sqrt(s2))
    return p, 0.56 * float((np.abs(d) ** 3).sum()) / s2**1.5


@pytest.mark.parametrize(("n", "B"), [(1000, 4000), (10_000, 2000)])
def test_randomization_sampled_agrees_with_scipy_permutation_test(n, B):
    a, b = pair(n)
    d = differences(a, b)
    ours = randomization_test(a, b, permutations=B, seed=1)
    assert not ours.exact and ours.resamples == B
    assert ours == randomization_test(a, b, permutations=B, seed=1)  # reproducible
    ref = stats.permutation_test(
        (d,), np.mean, permutation_type="samples", n_resamples=B, batch=200, rng=2
    ).pvalue
    # two independent Monte Carlo estimates of the same p: ours has variance p(1-p)/B,
    # scipy's 2 min(p_less, p_greater) at most 2p/B; 5 standard deviations, + 2/B for the +1s
    p = max(ours.p_value, ref)
    assert abs(ours.p_value - ref) <= 5 * math.sqrt(p * (1 / B + 2 / B)) + 2 / B
    # and both near the normal approximation (Berry-Esseen bound on both tails)
    clt, be = _clt_p(d)
    assert abs(ours.p_value - clt) <= 2 * be + 5 * math.sqrt(min(1, clt + 2 * be) / B) + 1 / B


@pytest.mark.slow
def test_randomization_at_200000_queries_agrees_with_the_normal_limit():
    a, b = pair(200_000)
    d = differences(a, b)
    B = 500
    r1 = randomization_test(a, b, permutations=B, seed=3)
    assert r1 == randomization_test(a, b, permutations=B, seed=3)
    clt, be = _clt_p(d)  # be = 0.004 here
    assert abs(r1.p_value - clt) <= 2 * be + 5 * math.sqrt(min(1, clt + 2 * be) / B) + 1 / B
    # a pair's p-value does not depend on the other pairs compared with it
    D = np.column_stack([d, np.roll(d, 7)])
    assert randomization_tests(D, permutations=B, seed=3)[0] == r1


@pytest.mark.parametrize("n", [1023, 1024, 1025, 6980])
def test_randomization_default_works_beyond_1024_queries(n):
    a, b = pair(n)
    r = randomization_test(a, b, permutations=200)
    assert not r.exact and r.resamples == 200 and in_unit(r.p_value) and r.p_value > 0


def test_exact_enumeration_rule_is_integer_arithmetic():
    for n in (0, 1, 10, 13, 14, 24, 25, 1023, 1024, 6980, 10**6):
        for perms in (1, 1000, 8192, 10_000, 2**24, 10**9):
            assert exact_enumeration(n, perms) == (n <= 24 and 2**n <= perms)


def test_randomization_exact_size_limit_is_a_parameter_error():
    d = np.linspace(0.1, 1, 30)[:, None]
    with pytest.raises(ParameterError, match="exact=False"):
        randomization_tests(d, exact=True)
    # auto mode never tries it: 2^25 <= 10^8 permutations, but n > 24 is sampled
    assert not exact_enumeration(25, 10**8)


# -- bootstrap -------------------------------------------------------------------------------


BOOT = {10: 2000, 1000: 1000, 10_000: 300, 200_000: 60}


@pytest.mark.parametrize("n", SIZES)
def test_bootstrap_uses_scipy_resamples_and_matches_its_interval_and_counts(n):
    a, b = pair(n)
    d = differences(a, b)
    B = BOOT[n]
    batch = max(1, resampling_mod._BLOCK_ELEMENTS // n)  # our rows per block of resamples
    (ours,), ci = bootstrap_tests(d[:, None], samples=B, seed=5, confidence=0.9)
    assert (ours,) == tuple(bootstrap_tests(d[:, None], samples=B, seed=5)[0])
    ref = stats.bootstrap(
        (d,),
        np.mean,
        n_resamples=B,
        batch=batch,
        method="percentile",
        confidence_level=0.9,
        rng=np.random.default_rng(5),
    )
    # same resamples (scipy draws rng.integers(0, n, (batch, n)) like us): the same
    # percentile interval up to the rounding of the resampled means
    tol = 1e-12 * np.abs(d).max()
    assert abs(ci[0, 0] - ref.confidence_interval.low) <= tol
    assert abs(ci[1, 0] - ref.confidence_interval.high) <= tol
    # the studentized statistics of the same resamples, shifted to the null
    m, sd = d.mean(), d.std(ddof=1)
    t_obs = m / (sd / math.sqrt(n))
    assert ours.statistic == pytest.approx(stats.ttest_1samp(d, 0).statistic, rel=1e-12)

    def shifted_t(x, axis=-1):
        return (x.mean(axis=axis) - m) / (x.std(axis=axis, ddof=1) / math.sqrt(n))

    t_star = stats.bootstrap(
        (d,),
        shifted_t,
        n_resamples=B,
        batch=batch,
        method="percentile",
        rng=np.random.default_rng(5),
    ).bootstrap_distribution
    assert np.min(np.abs(np.abs(t_star) - abs(t_obs))) > 1e-9 * abs(t_obs)  # no near-ties
    assert ours.p_value == (1 + int((np.abs(t_star) >= abs(t_obs)).sum())) / (B + 1)


# -- memory ----------------------------------------------------------------------------------


def _peak_mb(f) -> float:
    tracemalloc.start()
    try:
        f()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("func", [randomization_tests, bootstrap_tests])
def test_resampling_memory_is_a_fixed_budget(func):
    kw = "permutations" if func is randomization_tests else "samples"
    rng = np.random.default_rng(0)
    # 200,000 queries: blocks of 10 resamples; 100 or 400 resamples peak the same
    D = rng.normal(0.01, 0.2, (200_000, 1))
    small = _peak_mb(lambda: func(D, **{kw: 100}))
    large = _peak_mb(lambda: func(D, **{kw: 400}))
    assert large - small < 2 and large < 80 + 4 * D.nbytes / 2**20
    # 1,128 pairs of 50 queries and 12,000 resamples: 108 MB of statistics if held at once
    D = rng.normal(0.01, 0.2, (50, 1128))
    assert _peak_mb(lambda: func(D, **{kw: 12_000})) < 80
