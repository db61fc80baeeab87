"""Paired significance tests: textbook examples, scipy, and exact enumeration."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing import (
    bootstrap_test,
    differences,
    mean_ci,
    randomization_test,
    sign_test,
    t_test,
    wilcoxon_test,
)
from cranfield.comparing.paired import bootstrap_tests, mean_cis, randomization_tests
from cranfield.errors import ParameterError

# Student (1908) / Cushny & Peebles: extra hours of sleep with two drugs, 10 patients
# (R's datasets::sleep).  R: t.test(extra ~ group, paired = TRUE) gives t = -4.0621, df = 9,
# p-value = 0.002833, 95% CI -2.4598858 -0.7001142.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

# Hollander & Wolfe (1973), p. 29: Hamilton depression scale at the first (x) and second (y)
# visit, 9 patients.  R: wilcox.test(x, y, paired = TRUE, alternative = "greater") gives
# V = 40, p-value = 0.01953.
DEPR_X = ["1.83", "0.50", "1.62", "2.48", "1.68", "1.88", "1.55", "3.06", "1.30"]
DEPR_Y = ["0.878", "0.647", "0.598", "2.05", "1.06", "1.29", "1.06", "3.14", "1.29"]
X = [float(v) for v in DEPR_X]
Y = [float(v) for v in DEPR_Y]


def test_t_test_reproduces_student_sleep_example():
    r = t_test(SLEEP_2, SLEEP_1)  # d = group 1 - group 2
    assert round(r.statistic, 4) == -4.0621
    assert round(r.p_value, 6) == 0.002833
    lo, hi = mean_ci(differences(SLEEP_2, SLEEP_1), 0.95)
    assert (round(lo, 7), round(hi, 7)) == (-2.4598858, -0.7001142)
    assert r.direction == -1


def test_t_test_agrees_with_scipy_on_random_data():
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = rng.random(25)
        b = np.clip(a + rng.normal(0.02, 0.1, 25), 0, 1)
        ref = stats.ttest_rel(b, a)
        ours = t_test(a, b)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)
        for alt in ("greater", "less"):
            assert t_test(a, b, alternative=alt).p_value == pytest.approx(
                stats.ttest_rel(b, a, alternative=alt).pvalue, rel=1e-12
            )
        lo, hi = mean_ci(differences(a, b), 0.9)
        ci = ref.confidence_interval(0.9)
        assert (lo, hi) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert mean_cis(differences(a, b)[:, None], 0.9)[0] == pytest.approx((lo, hi), rel=1e-12)


def _signed_rank_exact(d: list[Fraction]) -> tuple[int, Fraction]:
    """W+ and the one-sided exact P(W+ >= observed) by enumerating all 2^n sign patterns."""
    ranks = {v: i + 1 for i, v in enumerate(sorted(abs(x) for x in d))}
    w = sum(ranks[abs(x)] for x in d if x > 0)
    n = len(d)
    hits = 0
    for signs in itertools.product((0, 1), repeat=n):
        if sum(r for r, s in zip(sorted(ranks.values()), signs, strict=True) if s) >= w:
            hits += 1
    return w, Fraction(hits, 2**n)


def test_wilcoxon_reproduces_hollander_wolfe_example():
    r = wilcoxon_test(Y, X, alternative="greater")  # d = x - y
    assert r.statistic == 40.0
    assert round(r.p_value, 5) == 0.01953
    d = [Fraction(a) - Fraction(b) for a, b in zip(DEPR_X, DEPR_Y, strict=True)]
    w, p = _signed_rank_exact(d)
    assert w == 40 and r.p_value == pytest.approx(float(p), rel=1e-12)
    assert wilcoxon_test(Y, X).p_value == pytest.approx(2 * float(p), rel=1e-12)


def test_wilcoxon_agrees_with_scipy_and_drops_zero_differences():
    rng = np.random.default_rng(3)
    a = np.round(rng.random(80), 2)
    b = np.round(np.clip(a + rng.normal(0.03, 0.1, 80), 0, 1), 2)
    b[:7] = a[:7]  # ties: zero differences are dropped (zero_method="wilcox")
    d = b - a
    ref = stats.wilcoxon(d[d != 0], zero_method="wilcox")
    assert wilcoxon_test(a, b).p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_sign_test_is_the_exact_binomial():
    d = [Fraction(a) - Fraction(b) for a, b in zip(DEPR_X, DEPR_Y, strict=True)]
    wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
    assert (wins, losses) == (7, 2)
    n = wins + losses
    tail = sum(Fraction(math.comb(n, k), 2**n) for k in range(0, min(wins, losses) + 1))
    r = sign_test(Y, X)
    assert r.statistic == 7
    assert r.p_value == pytest.approx(float(2 * tail), rel=1e-12)  # 92/512 = 0.1797
    assert round(r.p_value, 4) == 0.1797


def _randomization_exact(d: list[Fraction], alternative: str = "two-sided") -> Fraction:
    obs = sum(d)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        t = sum(s * x for s, x in zip(signs, d, strict=True))
        if alternative == "two-sided":
            hits += abs(t) >= abs(obs)
        elif alternative == "greater":
            hits += t >= obs
        else:
            hits += t <= obs
    return Fraction(hits, 2 ** len(d))


def test_randomization_exact_enumeration_matches_brute_force():
    dfrac = [Fraction(a) - Fraction(b) for a, b in zip(DEPR_X, DEPR_Y, strict=True)]
    for alt in ("two-sided", "greater", "less"):
        r = randomization_test(Y, X, alternative=alt)  # 2^9 = 512 <= 10000: exact
        assert r.exact and r.resamples == 512
        assert r.p_value == float(_randomization_exact(dfrac, alt))
    # scipy's permutation test over all sign patterns gives the same two-sided p-value
    ref = stats.permutation_test(
        (np.array(X) - np.array(Y),),
        np.mean,
        permutation_type="samples",
        n_resamples=np.inf,
    )
    assert randomization_test(Y, X).p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_randomization_exact_is_exact_where_scipy_meets_float_noise():
    """docs/compare.md: d = b - a = [0.2, -0.19999999999999998], whose mean is 1.4e-17, noise
    around 0.  The four sign flips of the exact differences [1/5, -1/5] sum to 0, 2/5, -2/5, 0:
    three are >= 0, p = 3/4.  cranfield counts a flip within 1e-10 sum|d| of the observed sum
    (0.75); scipy's slack is 100 machine epsilons of the observed mean, so it misses the flip
    -1.4e-17 (0.5)."""
    a, b = [0.2, 0.3], [0.4, 0.1]
    d = [Fraction(str(y)) - Fraction(str(x)) for x, y in zip(a, b, strict=True)]
    assert _randomization_exact(d, "greater") == Fraction(3, 4)
    r = randomization_test(a, b, alternative="greater")
    assert r.exact and r.p_value == 0.75
    ref = stats.permutation_test(
        (np.array(b) - np.array(a),),
        np.mean,
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="greater",
    )
    assert ref.pvalue == 0.5


def test_randomization_exact_counts_ties_of_the_permutation_distribution():
    # P@10-like differences: many permuted sums equal the observed one exactly
    a = [0.1, 0.2, 0.3, 0.0, 0.5, 0.2, 0.1, 0.4]
    b = [0.2, 0.3, 0.3, 0.1, 0.4, 0.3, 0.2, 0.4]
    d = [Fraction(str(y)) - Fraction(str(x)) for x, y in zip(a, b, strict=True)]
    assert randomization_test(a, b).p_value == float(_randomization_exact(d))


def test_randomization_monte_carlo_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(11)
    a = np.round(rng.random(12), 3)
    b = np.round(np.clip(a + rng.normal(0.05, 0.15, 12), 0, 1), 3)
    exact = randomization_test(a, b, exact=True).p_value
    B = 20_000
    r1 = randomization_test(a, b, permutations=B, seed=1, exact=False)
    r2 = randomization_test(a, b, permutations=B, seed=1, exact=False)
    r3 = randomization_test(a, b, permutations=B, seed=2, exact=False)
    assert r1 == r2  # same seed, same p-value
    assert not r1.exact and r1.resamples == B
    se = math.sqrt(exact * (1 - exact) / B)
    for r in (r1, r3):
        assert abs(r.p_value - exact) <= 4 * se + 1 / B
    # (1 + count) / (B + 1): never 0
    big = randomization_test(np.zeros(30), np.ones(30) * 0.5, permutations=999, seed=0)
    assert big.p_value == pytest.approx(1 / 1000)


def test_randomization_of_a_pair_does_not_depend_on_other_pairs():
    rng = np.random.default_rng(5)
    V = rng.random((40, 3))
    D = np.column_stack([V[:, 1] - V[:, 0], V[:, 2] - V[:, 0], V[:, 2] - V[:, 1]])
    together = randomization_tests(D, permutations=3000, seed=9)
    alone = randomization_tests(D[:, 1:2], permutations=3000, seed=9)
    assert together[1] == alone[0]


def _bootstrap_exact(d: list[Fraction]) -> Fraction:
    """Exact studentized paired-bootstrap p-value over all n^n equally likely resamples,
    comparing squared t statistics as fractions (no rounding)."""
    n = len(d)
    m = sum(d) / n

    def t2(xs: list[Fraction], center: Fraction) -> Fraction | None:
        mean = sum(xs) / n
        ss = sum((x - mean) ** 2 for x in xs) / (n - 1)
        num = (mean - center) ** 2
        if ss == 0:
            return Fraction(0) if num == 0 else None  # None = infinite
        return n * num / ss

    obs = t2(d, Fraction(0))
    hits = 0
    for idx in itertools.product(range(n), repeat=n):
        t = t2([d[i] for i in idx], m)
        if obs is None:
            hits += t is None
        else:
            hits += t is None or t >= obs
    return Fraction(hits, n**n)


def test_bootstrap_is_seeded_and_close_to_exact_enumeration():
    a = ["0.20", "0.35", "0.10", "0.50", "0.40"]
    b = ["0.30", "0.30", "0.25", "0.65", "0.45"]
    d = [Fraction(y) - Fraction(x) for x, y in zip(a, b, strict=True)]
    exact = float(_bootstrap_exact(d))
    af, bf = [float(x) for x in a], [float(x) for x in b]
    B = 20_000
    r1 = bootstrap_test(af, bf, samples=B, seed=3)
    assert r1 == bootstrap_test(af, bf, samples=B, seed=3)
    se = math.sqrt(exact * (1 - exact) / B)
    assert abs(r1.p_value - exact) <= 4 * se + 1 / B
    assert r1.statistic == pytest.approx(stats.ttest_rel(bf, af).statistic, rel=1e-12)


def test_bootstrap_interval_agrees_with_scipy_percentile_bootstrap():
    rng = np.random.default_rng(21)
    a = rng.random(40)
    b = np.clip(a + rng.normal(0.05, 0.2, 40), 0, 1)
    d = b - a
    _, ci = bootstrap_tests(d[:, None], samples=40_000, seed=1, confidence=0.95)
    ref = stats.bootstrap(
        (d,), np.mean, method="percentile", n_resamples=40_000, rng=np.random.default_rng(2)
    ).confidence_interval
    se = d.std(ddof=1) / math.sqrt(len(d))
    # two Monte Carlo estimates of the same quantiles: within a small fraction of the SE
    assert abs(ci[0, 0] - ref.low) < 0.05 * se
    assert abs(ci[1, 0] - ref.high) < 0.05 * se


def test_bootstrap_interval_equals_scipy_with_the_queries_in_compare_order():
    """docs/compare.md: scipy.stats.bootstrap with compare's seed and batch draws the same
    query indices, so it gives compare's interval when d lists the queries in compare's order
    (the natural order of their ids: 1, 2, ..., 10, 11, 12); in another order (strcmp: 1, 10,
    11, 12, 2, ...) the same indices pick other queries and the interval differs."""
    import cranfield

    rng = np.random.default_rng(3)
    qrels, run_a, run_b = {}, {}, {}
    for q in map(str, range(1, 13)):
        qrels[q] = {"d0": 1, **{f"d{i}": int(rng.integers(0, 2)) for i in range(1, 8)}}
        run_a[q] = {f"d{i}": float(rng.random()) for i in range(8)}
        run_b[q] = {f"d{i}": float(rng.random()) for i in range(8)}
    B, seed = 2000, 5
    c = cranfield.compare(
        qrels, {"a": run_a, "b": run_b}, ["AP"], test="bootstrap", permutations=B, seed=seed
    )
    pair = c.pairs["AP"][0]
    qids = list(c.query_ids["AP"])
    assert qids == [str(q) for q in range(1, 13)]
    V = c.values["AP"]
    d = V[:, c.runs.index(pair.b)] - V[:, c.runs.index(pair.a)]

    def scipy_ci(x):
        return stats.bootstrap(
            (x,),
            np.mean,
            n_resamples=B,
            batch=max(1, 2_000_000 // len(x)),
            method="percentile",
            confidence_level=0.95,
            rng=np.random.default_rng(seed),
        ).confidence_interval

    tol = 1e-12 * np.abs(d).max()
    ref = scipy_ci(d)
    assert abs(pair.ci_low - ref.low) <= tol and abs(pair.ci_high - ref.high) <= tol
    other = scipy_ci(d[sorted(range(len(qids)), key=qids.__getitem__)])
    assert abs(pair.ci_low - other.low) > 1e-6 or abs(pair.ci_high - other.high) > 1e-6


@pytest.mark.parametrize(
    "func",
    [
        t_test,
        wilcoxon_test,
        sign_test,
        randomization_test,
        bootstrap_test,
    ],
)
def test_identical_runs_have_p_value_one(func):
    a = [0.1, 0.5, 0.3, 0.9]
    r = func(a, list(a))
    assert r.p_value == 1.0 and r.direction == 0


def test_float_noise_is_a_tie_not_a_win():
    a = np.array([0.1, 0.2, 0.7])
    b = (a * 3) / 3 + np.array([1e-17, -5e-17, 0.0])  # equal up to rounding
    assert not differences(a, b).any()
    assert sign_test(a, b).p_value == 1.0


def test_constant_shift_has_infinite_t():
    r = t_test([0.1, 0.2, 0.3], [0.35, 0.45, 0.55])
    assert r.statistic == math.inf and r.p_value == 0.0


def test_bad_inputs_are_parameter_errors():
    with pytest.raises(ParameterError, match="same shape"):
        t_test([0.1, 0.2], [0.1])
    with pytest.raises(ParameterError, match="finite"):
        t_test([0.1, float("nan")], [0.1, 0.2])
    with pytest.raises(ParameterError, match="at least 2"):
        t_test([0.1], [0.2])
    with pytest.raises(ParameterError, match="alternative"):
        t_test([0.1, 0.2], [0.2, 0.3], alternative="bigger")
    with pytest.raises(ParameterError, match="permutations"):
        randomization_test([0.1, 0.2], [0.2, 0.3], permutations=0)
