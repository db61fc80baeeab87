"""Topic-set-size design: the t-test and ANOVA sizes against statsmodels' TTestPower and
FTestAnovaPower, the interval width against a loop over n, the variance of a past table, the
declared degenerate cases, and ``cranfield design``."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing import anova
from cranfield.comparing.design import (
    MAX_TOPICS,
    anova_power,
    expected_ci_width,
    t_test_power,
    topic_set_size,
)
from cranfield.errors import CranfieldWarning, ParameterError

power_mod = pytest.importorskip("statsmodels.stats.power")

GRID = [
    (0.04, 0.05, 0.8, 0.05, 5),
    (0.01, 0.02, 0.9, 0.01, 10),
    (0.09, 0.1, 0.5, 0.1, 2),
    (0.002, 0.01, 0.8, 0.05, 48),
    (0.05, 0.3, 0.8, 0.05, 3),  # a large effect: few topics
]


def _ceil(x: float) -> int:
    return max(2, math.ceil(x - 1e-9))


@pytest.mark.parametrize(("variance", "min_diff", "power", "alpha", "runs"), GRID)
def test_t_test_and_anova_sizes_equal_statsmodels(variance, min_diff, power, alpha, runs):
    d = topic_set_size(variance=variance, min_diff=min_diff, power=power, alpha=alpha, runs=runs)
    effect = min_diff / math.sqrt(2 * variance)
    tt = power_mod.TTestPower()
    assert d.t_topics == _ceil(tt.solve_power(effect_size=effect, alpha=alpha, power=power))
    f = min_diff / math.sqrt(2 * runs * variance)
    fa = power_mod.FTestAnovaPower()
    nobs = fa.solve_power(effect_size=f, alpha=alpha, power=power, k_groups=runs)
    assert d.anova_topics == _ceil(nobs / runs)
    for n in (2, 7, 50, d.t_topics, d.anova_topics):
        assert t_test_power(n, effect, alpha) == pytest.approx(
            tt.power(effect, n, alpha), rel=1e-12
        )
        assert anova_power(n, runs, min_diff, variance, alpha) == pytest.approx(
            fa.power(f, runs * n, alpha, k_groups=runs), rel=1e-12
        )
    # the size is the smallest that meets the power
    assert t_test_power(d.t_topics, effect, alpha) >= power
    if d.t_topics > 2:
        assert t_test_power(d.t_topics - 1, effect, alpha) < power


def test_interval_width_size_by_a_loop_over_n():
    for variance, width, alpha in ((0.04, 0.1, 0.05), (0.01, 0.02, 0.01), (0.2, 0.5, 0.1)):
        sd = math.sqrt(2 * variance)
        n = 2
        while True:  # E[s] = sigma * chi_{n-1} mean / sqrt(n - 1)
            e_s = sd * stats.chi.mean(n - 1) / math.sqrt(n - 1)
            if 2 * stats.t.ppf(1 - alpha / 2, n - 1) * e_s / math.sqrt(n) <= width:
                break
            n += 1
        d = topic_set_size(variance=variance, min_diff=0.05, alpha=alpha, ci_width=width)
        assert d.ci_topics == n
        assert expected_ci_width(n, sd, alpha) == pytest.approx(
            2 * stats.t.ppf(1 - alpha / 2, n - 1) * sd * stats.chi.mean(n - 1)
            / math.sqrt(n - 1) / math.sqrt(n),
            rel=1e-12,
        )  # fmt: skip


def test_variance_of_a_past_table_and_the_power_it_has_now():
    Y = np.random.default_rng(3).random((40, 4)) * 0.5 + np.linspace(0, 0.1, 4)
    for estimate in ("one-way", "two-way"):
        d = topic_set_size(Y, min_diff=0.05, estimate=estimate, ci_width=0.1)
        assert d.variance == anova(Y, design=estimate).residual_variance
        assert (d.queries, d.runs, d.estimate) == (40, 4, estimate)
        effect = 0.05 / math.sqrt(2 * d.variance)
        assert d.t_power_now == t_test_power(40, effect, 0.05)
        assert d.anova_power_now == anova_power(40, 4, 0.05, d.variance, 0.05)
        assert d.ci_width_now == expected_ci_width(40, math.sqrt(2 * d.variance), 0.05)
    # blocking the queries removes their variance: two-way never needs more topics
    one = topic_set_size(Y + np.random.default_rng(4).random((40, 1)), min_diff=0.05)
    two = topic_set_size(
        Y + np.random.default_rng(4).random((40, 1)), min_diff=0.05, estimate="two-way"
    )
    assert two.t_topics <= one.t_topics


def test_degenerate_designs_are_declared():
    with pytest.warns(CranfieldWarning, match="variance is 0"):
        d = topic_set_size(variance=0.0, min_diff=0.05, ci_width=0.1)
    assert (d.t_topics, d.anova_topics, d.ci_topics) == (2, 2, 2)
    with pytest.warns(CranfieldWarning, match="reported as unmet"):
        d = topic_set_size(variance=1.0, min_diff=1e-6)
    assert d.t_topics is None and d.to_dict()["topics"]["t"] is None
    assert MAX_TOPICS == 10_000_000
    for kw, match in (
        ({"variance": 0.1, "min_diff": 0}, "min_diff"),
        ({"variance": 0.1, "min_diff": 0.1, "power": 1.0}, "power"),
        ({"variance": 0.1, "min_diff": 0.1, "power": 0.01}, "exceed alpha"),
        ({"variance": -1, "min_diff": 0.1}, "variance"),
        ({"min_diff": 0.1}, "past queries x runs table or a variance"),
    ):
        with pytest.raises(ParameterError, match=match):
            topic_set_size(**kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ParameterError, match="no variance estimate"):
            topic_set_size([[0.1, 0.2, 0.3]], min_diff=0.1)


@pytest.mark.slow
def test_cli_design(cli, tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    import cranfield

    qrels, runs = make_collection(20, seed=4)
    q, paths = write_trec(tmp_path, qrels, runs, ["a.run", "b.run", "c.run"])
    args = ("design", q, *paths, "-m", "AP", "--min-diff", "0.05", "--power", "0.8")
    out = cli(*args, "--format", "json", "--ci-width", "0.1")
    assert out.returncode == 0, out.stderr.decode()
    d = json.loads(out.stdout)["measures"]["AP"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = cranfield.compare(q, paths, ["AP"])
    ref = topic_set_size(cmp.values["AP"], min_diff=0.05, ci_width=0.1)
    assert d == json.loads(json.dumps(ref.to_dict()))
    text = cli(*args, "--variance", "0.04")
    assert text.returncode == 0 and "variance 0.04 (given)" in text.stdout.decode()
    missing = cli("design", q, *paths, "-m", "AP")
    assert missing.returncode == 2 and b"--min-diff" in missing.stderr
