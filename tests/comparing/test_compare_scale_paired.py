"""The paired tests at 10, 1,000, 10,000 and 200,000 queries: the t-test and its interval,
Wilcoxon's signed-rank test and the sign test against scipy.

Rules checked: a p-value is finite and in [0, 1], or the input is refused with one
ParameterError; deterministic methods agree with their peer to 1e-12 relative; sampled methods
are reproducible for a seed and agree with their peer within a Monte Carlo tolerance stated at
each test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _scale_pairs import ALTERNATIVES, SIZES, pair
from scipy import stats

from cranfield.comparing import (
    differences,
    mean_ci,
    sign_test,
    t_test,
    wilcoxon_test,
)
from cranfield.comparing.paired import (
    mean_cis,
    paired_tests,
)


@pytest.mark.parametrize("n", SIZES)
def test_t_test_and_interval_equal_scipy(n):
    a, b = pair(n)
    d = differences(a, b)
    for alt in ALTERNATIVES:
        ours = t_test(a, b, alternative=alt)
        ref = stats.ttest_rel(b, a, alternative=alt)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    ci = stats.ttest_rel(b, a).confidence_interval(0.9)
    assert mean_ci(d, 0.9) == pytest.approx((ci.low, ci.high), rel=1e-12)
    # several pairs at once: each column as if alone
    D = np.column_stack([d, -d, 2 * d])
    res = paired_tests(D, "t")
    assert [r.p_value for r in res] == pytest.approx([stats.ttest_1samp(d, 0).pvalue] * 3, 1e-12)
    assert mean_cis(D, 0.9)[1] == pytest.approx((-ci.high, -ci.low), rel=1e-12)


# -- Wilcoxon --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_wilcoxon_is_scipy_on_the_non_zero_differences(n):
    a, b = pair(n)
    d = b - a
    nz = d[d != 0]
    for alt in ALTERNATIVES:
        ours = wilcoxon_test(a, b, alternative=alt)
        assert ours.p_value == pytest.approx(stats.wilcoxon(nz, alternative=alt).pvalue, 1e-12)
    if len(nz) > 50:
        # independently: the normal approximation with the tie-corrected variance
        m = len(nz)
        ranks = stats.rankdata(np.abs(nz))
        w_plus = ranks[nz > 0].sum()
        ties = np.unique(np.abs(nz), return_counts=True)[1].astype(float)
        var = m * (m + 1) * (2 * m + 1) / 24 - (ties**3 - ties).sum() / 48
        z = (w_plus - m * (m + 1) / 4) / math.sqrt(var)
        ours = wilcoxon_test(a, b)
        assert ours.statistic == w_plus
        assert ours.p_value == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)


def test_wilcoxon_differs_from_scipy_on_all_differences_when_some_are_zero():
    # docs/compare.md: scipy.stats.wilcoxon(b - a) chooses exact/normal on all n, we on the
    # non-zero ones: 20 queries, 4 ties -> we: exact (16 distinct |d|), scipy(d): normal
    rng = np.random.default_rng(8)
    a = np.round(rng.random(20), 3)
    b = a + np.r_[np.zeros(4), np.arange(1, 17) * 0.01 * rng.choice([-1, 1], 16, p=[0.2, 0.8])]
    d = differences(a, b)
    ours = wilcoxon_test(a, b).p_value
    assert ours == pytest.approx(stats.wilcoxon(d[d != 0]).pvalue, rel=1e-12)
    assert ours == pytest.approx(stats.wilcoxon(d[d != 0], method="exact").pvalue, rel=1e-12)
    assert abs(stats.wilcoxon(d).pvalue - ours) > 1e-4


# -- sign test -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_sign_test_is_the_exact_binomial(n):
    a, b = pair(n)
    d = b - a
    w, ls = int((d > 0).sum()), int((d < 0).sum())
    for alt in ALTERNATIVES:
        ref = stats.binomtest(w, w + ls, 0.5, alternative=alt).pvalue
        assert sign_test(a, b, alternative=alt).p_value == pytest.approx(ref, rel=1e-12)
    # independently: twice the smaller binomial tail (the distribution is symmetric)
    tail = min(1.0, 2 * stats.binom.cdf(min(w, ls), w + ls, 0.5))
    assert sign_test(a, b).p_value == pytest.approx(tail, rel=1e-10)
