"""Every statistical routine of ``comparing`` at 10, 1,000, 10,000 and 200,000 queries, against
its peer (scipy, statsmodels) or an independent computation, and on degenerate data.

Rules checked: a p-value is finite and in [0, 1], or the input is refused with one
ParameterError; deterministic methods agree with their peer to 1e-12 relative; sampled methods
are reproducible for a seed and agree with their peer within a Monte Carlo tolerance stated at
each test; resampling memory does not grow with the number of resamples.
"""

from __future__ import annotations

import math
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats

import cranfield
from cranfield.comparing import (
    adjust,
    bootstrap_test,
    differences,
    keen_table,
    kendall_tau,
    magnitude_difference,
    mean_ci,
    pairwise_agreement,
    randomization_test,
    request_counts,
    sign_test,
    split_by_relevant,
    superiority,
    t_test,
    tau_ap,
    tau_ap_b,
    tukey_hsd,
    wilcoxon_test,
)
from cranfield.comparing import resampling as resampling_mod
from cranfield.comparing.paired import (
    bootstrap_tests,
    effect_size,
    exact_enumeration,
    mean_cis,
    paired_tests,
    randomization_tests,
)
from cranfield.comparing.requests import natural_key
from cranfield.comparing.tukey import _quadrature_sf
from cranfield.errors import DataWarning, ParameterError
from cranfield.measures.parse import parse
from cranfield.results.tables import Results

SIZES = [10, 1000, 10_000, pytest.param(200_000, marks=pytest.mark.slow)]
ALTERNATIVES = ("two-sided", "greater", "less")


def pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two runs' per-query values in [0, 1] with 4 decimals (ties of |d|), a tenth of the
    queries equal (zero differences), and a shift making |t| about 1.5 at every n."""
    rng = np.random.default_rng(seed + n)
    a = np.round(rng.random(n), 4)
    shift = 1.5 * 0.15 / math.sqrt(n)
    b = np.round(np.clip(a + rng.normal(shift, 0.15, n), 0, 1), 4)
    b[: n // 10] = a[: n // 10]
    return a, b


def in_unit(p: float) -> bool:
    return math.isfinite(p) and 0.0 <= p <= 1.0


# -- t-test and its interval -------------------------------------------------------------------


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


# -- randomization ---------------------------------------------------------------------------


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


# -- Tukey's HSD -----------------------------------------------------------------------------


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


# -- agreement between measures --------------------------------------------------------------


def _brute_counts(x: np.ndarray, y: np.ndarray, block: int = 1000):
    """Per item: items strictly above in y (A), above in both (C); and sum sign*sign (S)."""
    A = np.zeros(len(x), dtype=np.int64)
    C = np.zeros(len(x), dtype=np.int64)
    S = 0
    for lo in range(0, len(x), block):
        xi, yi = x[lo : lo + block, None], y[lo : lo + block, None]
        above_y = y[None, :] > yi
        A[lo : lo + block] = above_y.sum(axis=1)
        C[lo : lo + block] = (above_y & (x[None, :] > xi)).sum(axis=1)
        S += int((np.sign(x[None, :] - xi) * np.sign(y[None, :] - yi)).sum())
    return A, C, S // 2


def _ap(a: np.ndarray, c: np.ndarray) -> float:
    t = a > 0
    return 2 * float((c[t] / a[t]).sum()) / int(t.sum()) - 1


@pytest.mark.parametrize("n", SIZES)
def test_rank_correlations_at_scale(n):
    rng = np.random.default_rng(n + 1)
    x = np.round(rng.random(n), 3)  # ties
    y = np.round(x + rng.normal(0, 0.2, n), 3)
    pairs = n * (n - 1) // 2
    assert kendall_tau(x, y, "b") == pytest.approx(stats.kendalltau(x, y).statistic, rel=1e-12)
    if n <= 10_000:
        A, C, S = _brute_counts(x, y)
        Ax, _, _ = _brute_counts(y, x)
        assert kendall_tau(x, y, "a") == pytest.approx(S / pairs, rel=1e-12)
        assert tau_ap_b(x, y) == pytest.approx((_ap(A, C) + _ap(Ax, C)) / 2, rel=1e-12)
        xs, ys = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
        A, C, _ = _brute_counts(xs, ys)
        assert tau_ap(xs, ys) == pytest.approx(_ap(A, C), rel=1e-12)
    else:
        # tau_a from scipy's tau_b and the tie counts: tau_a = tau_b sqrt((P-Tx)(P-Ty)) / P
        tx = sum(t * (t - 1) // 2 for t in np.unique(x, return_counts=True)[1].tolist())
        ty = sum(t * (t - 1) // 2 for t in np.unique(y, return_counts=True)[1].tolist())
        tau_b = stats.kendalltau(x, y).statistic
        expected = tau_b * math.sqrt((pairs - tx) * (pairs - ty)) / pairs
        assert kendall_tau(x, y, "a") == pytest.approx(expected, rel=1e-10)
    perm = rng.permutation(n).astype(float)
    assert tau_ap(perm, perm) == 1.0 and tau_ap(perm, -perm) == -1.0
    assert tau_ap_b(x, x) == 1.0 and tau_ap_b(x, -x) == -1.0


def test_pairwise_agreement_at_200000_pairs():
    rng = np.random.default_rng(0)
    o = {m: rng.choice(["a", "b", "="], 200_000).tolist() for m in ("AP", "P@10")}
    share = float(np.mean(np.array(o["AP"]) == np.array(o["P@10"])))
    assert pairwise_agreement(o)[("AP", "P@10")] == pytest.approx(share, rel=1e-12)


# -- per-request analysis --------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_per_request_tables_at_scale(n):
    a, b = pair(n)
    d = b - a
    counts = request_counts(b, a)  # option I = b
    assert (counts.first, counts.second, counts.equal) == (
        int((d > 0).sum()),
        int((d < 0).sum()),
        int((d == 0).sum()),
    )
    f, s, e = counts.first, counts.second, counts.equal
    rows = keen_table(counts)
    assert rows[1].first == pytest.approx(100 * f / (f + s), rel=1e-15)
    assert rows[2].equal == pytest.approx(100 * e / n, rel=1e-15)
    assert superiority(f, s) == pytest.approx(100 * (f - s) / (f + s), rel=1e-15)
    qids = [f"q{i}" for i in range(n)]
    md = magnitude_difference(qids, b, a)
    assert (len(md.first), len(md.second), len(md.equal)) == (f, s, e)
    assert all(x >= y for (_, x), (_, y) in zip(md.first, md.first[1:], strict=False))
    # split: brute force over every candidate threshold
    rng = np.random.default_rng(n)
    rel = rng.integers(1, 60, n)
    split = split_by_relevant(dict(zip(qids, rel.tolist(), strict=True)))
    gaps = {t: abs(n - 2 * int((rel <= t).sum())) for t in sorted(set(rel.tolist()))[:-1]}
    best = min(gaps.values())
    assert split.threshold == min(t for t, g in gaps.items() if g == best)
    assert len(split.specific) == int((rel <= split.threshold).sum())


def test_request_counts_refuse_huge_and_fractional_numbers():
    for bad in [(10**400, 1, 1), (2**53 + 1, 0, 0), (1.5, 1, 1), (True, 1, 1), (-1, 2, 3)]:
        with pytest.raises(ParameterError, match="request counts"):
            keen_table(bad)
    with pytest.raises(ParameterError, match="request counts"):
        superiority(10**400, 1)
    with pytest.raises(ParameterError, match="three request counts"):
        keen_table((1, 2))
    assert superiority(2**53, 0) == 100.0 and keen_table((6.0, 4, 2))[1].superiority == 20.0
    with pytest.raises(ParameterError, match="finite"):
        split_by_relevant({"q1": 1, "q2": float("nan")})
    with pytest.raises(ParameterError, match="numbers of relevant"):
        split_by_relevant({"q1": 1, "q2": 10**400})
    with pytest.raises(ParameterError, match="strings"):
        magnitude_difference([1, 2], [0.1, 0.2], [0.2, 0.1])


# -- degenerate data -------------------------------------------------------------------------


def _all_p(a, b, B: int = 1024) -> dict[str, float]:
    """Every test's p-value on one pair of runs (and Tukey's for the two columns)."""
    return {
        "t": t_test(a, b).p_value,
        "wilcoxon": wilcoxon_test(a, b).p_value,
        "sign": sign_test(a, b).p_value,
        "randomization": randomization_test(a, b, permutations=B).p_value,
        "bootstrap": bootstrap_test(a, b, samples=B).p_value,
        "tukey": float(tukey_hsd(np.column_stack([a, b])).p[0, 1]),
    }


@pytest.mark.parametrize("n", [10, 10_000])
def test_degenerate_all_equal_and_all_zero(n):
    for a in (np.zeros(n), np.full(n, 0.3), np.full(n, 1e308), np.full(n, 5e-324)):
        assert set(_all_p(a, a.copy()).values()) == {1.0}
        assert effect_size(differences(a, a)) == 0.0


@pytest.mark.parametrize("n", [10, 10_000])
def test_degenerate_one_non_zero_difference(n):
    a = np.zeros(n)
    b = a.copy()
    b[3] = 0.5
    p = _all_p(a, b)
    assert p["sign"] == 1.0 and p["wilcoxon"] == 1.0  # one win out of one
    assert p["randomization"] == 1.0  # |T*| = 0.5 = |T| under every sign vector
    assert p["t"] == pytest.approx(stats.ttest_1samp(b - a, 0).pvalue, rel=1e-12)
    assert p["tukey"] == pytest.approx(p["t"], rel=1e-12)
    assert in_unit(p["bootstrap"])


@pytest.mark.parametrize("n", [10, 10_000])
def test_degenerate_constant_runs(n):
    a, b = np.full(n, 0.2), np.full(n, 0.7)
    p = _all_p(a, b)
    assert p["t"] == 0.0 and p["tukey"] == 0.0  # sd = 0 and a non-zero shift
    exact = math.ldexp(2.0, -n)  # every query won: sign, signed-rank and randomization tails
    assert p["sign"] == pytest.approx(exact, rel=1e-12)
    if n == 10:
        assert p["wilcoxon"] == pytest.approx(exact, rel=1e-12)
        assert p["randomization"] == pytest.approx(exact, rel=1e-12)
    else:
        assert p["randomization"] == 1 / 1025
        assert p["wilcoxon"] < 1e-300 or p["wilcoxon"] == 0.0
    assert p["bootstrap"] == 1 / 1025  # t = inf, never reached by a resample
    assert effect_size(differences(b, a)) == -math.inf


@pytest.mark.parametrize("n", [10, 10_000])
def test_huge_and_tiny_magnitudes_give_the_p_values_of_moderate_ones(n):
    a, b = pair(n)
    base = _all_p(a, b)
    for e in (1000, 1023, -1000, -1070):
        sa, sb = np.ldexp(a, e), np.ldexp(b, e)
        if e < -1022:  # deep subnormals lose digits: only check the range of p
            assert all(in_unit(p) for p in _all_p(sa + 0.5, sb + 0.5).values())
            continue
        got = _all_p(sa, sb)
        if e > 0:
            assert got == base  # scaling by a power of two changes nothing
        else:
            # below 1, |b - a| <= 1e-12 counts as a tie: everything here is a tie
            assert set(got.values()) == {1.0}
    # raw differences that are subnormal or span 1e308 .. 5e-324
    d = np.arange(n) * 5e-324
    assert all(in_unit(r.p_value) for r in randomization_tests(d[:, None], permutations=99))
    d2 = np.where(np.arange(n) % 2 == 0, 1e308, 5e-324)
    for test in ("t", "wilcoxon", "sign", "randomization", "bootstrap"):
        (r,) = paired_tests(d2[:, None], test, permutations=99)
        assert in_unit(r.p_value)
    ((lo, hi),) = mean_cis(d2[:, None])
    assert lo <= 5e307 <= hi


def test_values_whose_difference_overflows_are_one_clear_error():
    with pytest.raises(ParameterError, match="exceeds the float64 range"):
        t_test([-1.7e308, 0.0], [1.7e308, 0.0])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_refused_by_every_routine(bad):
    a = np.linspace(0, 1, 12)
    b = a[::-1].copy()
    b[5] = bad
    for f in (t_test, wilcoxon_test, sign_test, randomization_test, bootstrap_test, request_counts):
        with pytest.raises(ParameterError, match="finite"):
            f(a, b)
    D = (b - a)[:, None]
    for test in ("t", "wilcoxon", "sign", "randomization", "bootstrap"):
        with pytest.raises(ParameterError, match="finite"):
            paired_tests(D, test)
    with pytest.raises(ParameterError, match="finite"):
        mean_cis(D)
    with pytest.raises(ParameterError, match="finite"):
        tukey_hsd(np.column_stack([a, b]))
    with pytest.raises(ParameterError, match=r"\[0, 1\]"):
        adjust([0.1, bad])
    if math.isnan(bad):
        with pytest.raises(ParameterError, match="NaN"):
            kendall_tau(a, b)
    else:  # an infinite score still ranks
        assert -1 <= kendall_tau(a, b) <= 1


@pytest.mark.parametrize("n", [0, 1, 2])
def test_zero_one_and_two_queries(n):
    a, b = np.linspace(0.1, 0.5, n), np.linspace(0.4, 0.2, n)
    for f, need in (
        (t_test, 2),
        (wilcoxon_test, 1),
        (sign_test, 1),
        (randomization_test, 1),
        (bootstrap_test, 2),
    ):
        if n < need:
            with pytest.raises(ParameterError, match=f"at least {need} queries"):
                f(a, b)
        else:
            assert in_unit(f(a, b).p_value)
    if n < 2:
        with pytest.raises(ParameterError, match="at least 2 queries"):
            tukey_hsd(np.column_stack([a, b]))
        with pytest.raises(ParameterError, match="at least 2 queries"):
            mean_ci(differences(a, b))
    else:
        assert in_unit(float(tukey_hsd(np.column_stack([a, b])).p[0, 1]))


def test_bad_counts_seeds_and_levels_are_parameter_errors():
    a, b = [0.1, 0.2, 0.3], [0.3, 0.1, 0.5]
    for perms in (0, -1, 10**400, 2**63, 1.5, True, "10", 10**9 + 1):
        with pytest.raises(ParameterError, match="permutations"):
            randomization_test(a, b, permutations=perms)
        with pytest.raises(ParameterError, match="samples"):
            bootstrap_test(a, b, samples=perms)
    for seed in (-1, 1.5, "x", True):
        with pytest.raises(ParameterError, match="seed"):
            randomization_test(a, b, seed=seed)
    assert in_unit(randomization_test(a, b, seed=10**400).p_value)
    for c in (0, -0.5, 1.5, math.nan, "x"):
        with pytest.raises(ParameterError, match="confidence"):
            mean_ci(differences(a, b), c)
    # 1 - alpha rounds to 1 for alpha = 1e-20: the 100% interval
    assert mean_ci(differences(a, b), 1.0) == (-math.inf, math.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        rs = _results(30)
    for ci in ("t", "bootstrap"):
        p = cranfield.compare(rs, "AP", alpha=1e-20, ci=ci, permutations=99).pair("AP", "A", "B")
        assert in_unit(p.p_value) and p.ci_low <= p.mean_diff <= p.ci_high
    for bad in (["x", "y"], [10**400, 1], [[0.1], [0.2, 0.3]]):
        with pytest.raises(ParameterError):
            t_test(bad, [0.1, 0.2])
        with pytest.raises(ParameterError):
            adjust(bad)
        with pytest.raises(ParameterError):
            kendall_tau(bad, [0.1, 0.2])


SPECIAL = [0.0, -0.0, 0.5, 1.0, 1e308, -1e308, 1.7976931348623157e308, 5e-324, -5e-324, 1e-300]
values = st.one_of(
    st.sampled_from([*SPECIAL, math.nan, math.inf, -math.inf]),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
)


@settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.integers(0, 7).flatmap(
        lambda n: st.tuples(
            st.lists(values, min_size=n, max_size=n), st.lists(values, min_size=n, max_size=n)
        )
    )
)
def test_property_every_routine_gives_a_p_in_unit_interval_or_a_parameter_error(ab):
    a, b = ab
    calls = [
        lambda: t_test(a, b).p_value,
        lambda: wilcoxon_test(a, b).p_value,
        lambda: sign_test(a, b).p_value,
        lambda: randomization_test(a, b, permutations=64).p_value,
        lambda: randomization_test(a, b, permutations=40, exact=False).p_value,
        lambda: bootstrap_test(a, b, samples=40).p_value,
        lambda: float(tukey_hsd(np.column_stack([a, b]) if a else np.zeros((0, 2))).p[0, 1]),
        lambda: float(adjust(np.abs(np.asarray(a, dtype=float)) % 1.0, "holm").max(initial=0)),
        lambda: float((kendall_tau(a, b, "a") + 1) / 2),
        lambda: float((tau_ap_b(a, b) + 1) / 2) if len(set(a)) > 1 < len(set(b)) else 0.5,
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for call in calls:
            try:
                p = call()
            except ParameterError:
                continue
            assert in_unit(p), p


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


# -- compare() and the command line at scale -----------------------------------------------


def _results(n: int, nan_every: int = 0) -> list[Results]:
    a, b = pair(n)
    c = np.round(np.clip((a + b) / 2 + 0.01, 0, 1), 4)
    qids = tuple(f"q{i:06d}" for i in range(n))
    out = []
    for name, v in (("A", a), ("B", b), ("C", c)):
        v = v.copy()
        if nan_every and name == "B":
            v[::nan_every] = np.nan  # undefined queries (ESL declares NaN)
        out.append(Results(name, qids, ("AP",), (parse("AP"),), v[:, None]))
    return out


@pytest.mark.parametrize("n", [10, 1000, 10_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_compare_runs_every_test_at_scale(n):
    rs = _results(n, nan_every=20)
    kept = n - len(range(0, n, 20))
    B = 200 if n < 200_000 else 40
    tests = ("t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey")
    if n == 200_000:  # the routines themselves are tested at this size above
        tests = ("t", "randomization", "bootstrap", "tukey")
    for test in tests:
        with pytest.warns(DataWarning, match="undefined"):
            cmp = cranfield.compare(rs, "AP", test=test, permutations=B, seed=1)
        for p in cmp.pairs["AP"]:
            assert p.queries == kept and in_unit(p.p_value) and in_unit(p.p_adjusted)
            assert math.isfinite(p.ci_low) and math.isfinite(p.ci_high)
        if test == "randomization":
            assert cmp.notes["exact"] == (["AP"] if kept <= 24 and 2**kept <= B else [])
        if test == "t":
            a, b = rs[0].values[:, 0], rs[1].values[:, 0]
            ok = np.isfinite(b)
            ref = stats.ttest_rel(b[ok], a[ok]).pvalue
            assert cmp.pair("AP", "A", "B").p_value == pytest.approx(ref, rel=1e-12)


def test_cli_randomization_with_1100_queries(cli, tmp_path):
    qrels, run_a, run_b = tmp_path / "qrels", tmp_path / "a.run", tmp_path / "b.run"
    rng = np.random.default_rng(0)
    with open(qrels, "w") as fq, open(run_a, "w") as fa, open(run_b, "w") as fb:
        for q in range(1100):
            fq.write(f"q{q} 0 d1 1\nq{q} 0 d2 0\n")
            for f, name in ((fa, "a"), (fb, "b")):
                order = ["d1", "d2"] if rng.random() < 0.5 else ["d2", "d1"]
                for r, d in enumerate(order, 1):
                    f.write(f"q{q} Q0 {d} {r} {3 - r} {name}\n")
    out = cli(
        "compare", str(qrels), str(run_a), str(run_b), "-m", "AP",
        "--test", "randomization", "--permutations", "500", "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    import json

    pair_ = json.loads(out.stdout)["measures"]["AP"]["pairs"][0]
    assert pair_["queries"] == 1100 and 0 < pair_["p_value"] <= 1
    big = cli(
        "compare", str(qrels), str(run_a), str(run_b), "--test", "randomization",
        "--permutations", str(10**30),
    )  # fmt: skip
    assert big.returncode == 2 and b"Traceback" not in big.stderr


def test_natural_order_of_hostile_query_ids():
    # superscript digits are not decimal digits (int('²') fails); 5,000 digits exceed int()'s
    # limit of 4,300; Arabic-Indic digits are decimal digits with their value
    ids = ["q10", "²", "q٣", "q4", "1" * 5000, "9", "q2", "q", "0" * 4999 + "8"]
    expected = ["0" * 4999 + "8", "9", "1" * 5000, "q", "q2", "q٣", "q4", "q10", "²"]
    assert sorted(ids, key=natural_key) == expected
    rs = [
        Results(name, tuple(ids), ("AP",), (parse("AP"),), np.linspace(0, 1, 9)[::s, None])
        for name, s in (("A", 1), ("B", -1))
    ]
    cmp = cranfield.compare(rs, "AP")
    assert [q for q, _ in cmp.differences("AP", "A", "B")] == expected
