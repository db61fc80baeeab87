"""Every statistical routine of ``comparing`` on degenerate data: all differences equal or
zero, one non-zero difference, constant runs, huge and tiny magnitudes, overflowing
differences, NaN and infinity, zero to two queries, bad counts, seeds and levels, and a
property test over special values.

Rules checked: a p-value is finite and in [0, 1], or the input is refused with one
ParameterError; deterministic methods agree with their peer to 1e-12 relative; sampled methods
are reproducible for a seed and agree with their peer within a Monte Carlo tolerance stated at
each test."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from _scale_pairs import _results, in_unit, pair
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import cranfield
from cranfield.comparing import (
    adjust,
    bootstrap_test,
    differences,
    kendall_tau,
    mean_ci,
    randomization_test,
    request_counts,
    sign_test,
    t_test,
    tau_ap_b,
    tukey_hsd,
    wilcoxon_test,
)
from cranfield.comparing.paired import (
    effect_size,
    mean_cis,
    paired_tests,
    randomization_tests,
)
from cranfield.errors import DataWarning, ParameterError


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
