"""Tukey's HSD and the multiple-comparison corrections at scale: two runs equal the paired
t-test, three runs' error term and p-values by an independent computation, the corrections
equal statsmodels.

Rules checked: a p-value is finite and in [0, 1], or the input is refused with one
ParameterError; deterministic methods agree with their peer to 1e-12 relative; sampled methods
are reproducible for a seed and agree with their peer within a Monte Carlo tolerance stated at
each test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _scale_pairs import SIZES, in_unit, pair
from scipy import integrate, special, stats

from cranfield.comparing import (
    adjust,
    tukey_hsd,
)
from cranfield.comparing.tukey import _quadrature_sf


@pytest.mark.parametrize("n", SIZES)
def test_tukey_with_two_runs_equals_the_paired_t_test(n):
    a, b = pair(n)
    hsd = tukey_hsd(np.column_stack([a, b]))
    ref = stats.ttest_rel(b, a)
    assert hsd.q[0, 1] == pytest.approx(math.sqrt(2) * abs(ref.statistic), rel=1e-12)
    assert hsd.p[0, 1] == pytest.approx(ref.pvalue, rel=1e-12)


def _range_sf_infinite_df(q: float, k: int) -> float:
    """P(range of k standard normals >= q), one-dimensional integral (adaptive quadrature)."""

    def f(z):
        return stats.norm.pdf(z) * (
            stats.norm.sf(z) ** (k - 1) - (special.ndtr(z + q) - special.ndtr(z)) ** (k - 1)
        )

    val, _ = integrate.quad(f, -12, 12, epsabs=1e-15, epsrel=1e-13, limit=200)
    return k * val


@pytest.mark.parametrize("n", SIZES)
def test_tukey_three_runs_error_term_and_p_values(n):
    a, b = pair(n)
    c = np.round(np.clip(a + (b - a) * 0.5 + 0.02 * np.sin(np.arange(n)), 0, 1), 4)
    Y = np.column_stack([a, b, c])
    hsd = tukey_hsd(Y)
    k = 3
    df = (n - 1) * (k - 1)
    # independently: the ANOVA decomposition SS_total - SS_runs - SS_queries
    g = Y.mean()
    ss_total = ((Y - g) ** 2).sum()
    ss_runs = n * ((Y.mean(axis=0) - g) ** 2).sum()
    ss_queries = k * ((Y.mean(axis=1) - g) ** 2).sum()
    assert hsd.mse == pytest.approx((ss_total - ss_runs - ss_queries) / df, rel=1e-9)
    if n <= 1000:
        sm = pytest.importorskip("statsmodels.formula.api")
        import pandas as pd
        from statsmodels.stats.anova import anova_lm

        frame = pd.DataFrame(
            {
                "y": Y.ravel(),
                "run": np.tile(["a", "b", "c"], n),
                "query": np.repeat(np.arange(n).astype(str), k),
            }
        )
        table = anova_lm(sm.ols("y ~ C(run) + C(query)", data=frame).fit())
        assert hsd.mse == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-9)
    upper = np.triu_indices(k, 1)
    q, p = hsd.q[upper], hsd.p[upper]
    assert all(in_unit(x) for x in p)
    if df < 100_000:
        # scipy integrates numerically; against the exact k = 2 values its own relative error
        # is below 1e-8 for p >= 1e-3 at these df (test_compare_corrections), hence 1e-7
        ref = np.array([stats.studentized_range.sf(x, k, df) for x in q])
        big = ref >= 1e-3
        np.testing.assert_allclose(p[big], ref[big], rtol=1e-7)
        np.testing.assert_allclose(p[~big], ref[~big], rtol=0, atol=1e-9)
    else:
        # from df = 100,000 on scipy returns the df = inf limit; ours at df = inf equals a
        # one-dimensional integral, and the finite-df value differs from it by O(q^4 / df)
        inf_p = _quadrature_sf(q, k, math.inf)
        for x, pi in zip(q, inf_p, strict=True):
            assert pi == pytest.approx(_range_sf_infinite_df(float(x), k), rel=1e-9, abs=1e-14)
        np.testing.assert_allclose(p, inf_p, rtol=max(1e-9, 10 * float(q.max()) ** 4 / df))


# -- multiple-comparison corrections ---------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_corrections_equal_statsmodels(n):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(n)
    p = rng.random(n) ** 3
    p[: n // 5] = np.round(p[: n // 5], 3)  # ties
    p[:4] = [0.0, 1.0, 5e-324, 1e-300]
    rng.shuffle(p)
    for ours, theirs in (("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")):
        ref = multitest.multipletests(p, method=theirs)[1]
        np.testing.assert_allclose(adjust(p, ours), ref, rtol=1e-12, atol=0)
    assert (adjust(p, "none") == p).all()
