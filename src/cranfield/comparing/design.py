"""Topic-set-size design and power (Sakai, "Topic set size design", Information Retrieval
Journal 19(3), 2016; Sakai, *Laboratory Experiments in Information Retrieval*, 2018).

From a variance ``sigma^2`` of a measure's per-query values (estimated from a past queries x
runs table, or given), a significance level ``alpha``, a wanted power ``1 - beta`` and a
minimum detectable difference ``minD``, the number of topics (queries) n that a new test
collection needs:

- **paired t-test** (two runs): the differences have variance ``sigma_d^2 = 2 sigma^2``
  (exact under the runs x queries model, whose residual variance is ``sigma^2``); power
  ``P(|T'| >= t_{alpha/2, n-1})`` with ``T'`` noncentral t (n - 1 df, noncentrality
  ``sqrt(n) minD / sigma_d``); statsmodels' ``TTestPower`` with effect size
  ``minD / sigma_d`` gives the same power;
- **one-way ANOVA over m runs**: the worst case where two runs differ by ``minD`` and the
  others lie midway, noncentrality ``lambda = n minD^2 / (2 sigma^2)``; power
  ``P(F' >= F_alpha(m - 1, m(n - 1)))`` with ``F'`` noncentral F; statsmodels'
  ``FTestAnovaPower`` with Cohen's ``f = minD / sqrt(2 m sigma^2)`` and ``nobs = m n`` gives
  the same power;
- **interval width**: the expected width of the t interval of a mean difference,
  ``2 t_{alpha/2, n-1} c(n) sigma_d / sqrt(n)``, at most ``delta``, with
  ``c(n) = sqrt(2/(n-1)) Gamma(n/2) / Gamma((n-1)/2)`` (``E[s] = c(n) sigma`` for normal
  data).

Each n is the smallest whole number (at least 2) that meets the requirement, found by
doubling and bisection, so it is the ceiling of statsmodels' ``solve_power`` where the two
coincide; beyond :data:`MAX_TOPICS` the requirement is declared unmet (n = None, with a
warning).  The variance of a past table is its ANOVA's residual variance ``V_E``:
``one-way`` (the pooled variance within each run, queries not blocked) or ``two-way`` (the
residual of the runs x queries model, smaller when queries differ in difficulty).  A variance
of 0 needs n = 2 for every requirement (declared, with a warning).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cranfield.errors import CranfieldWarning, ParameterError

__all__ = [
    "MAX_TOPICS",
    "Design",
    "anova_power",
    "expected_ci_width",
    "t_test_power",
    "topic_set_size",
]

MAX_TOPICS = 10_000_000
"""The most topics searched; a requirement unmet there is declared unmet."""
ESTIMATES = ("one-way", "two-way")


def _warn(message: str) -> None:
    from cranfield.comparing.build import _warn as warn_outside

    warn_outside(CranfieldWarning(message))


def t_test_power(n: float, effect: float, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test on n topics for the standardised effect
    ``minD / sigma_d`` (statsmodels' ``ttest_power``)."""
    from scipy import special, stats

    df = n - 1
    nc = effect * math.sqrt(n)
    upper = stats.t.isf(alpha / 2.0, df)
    lower = stats.t.ppf(alpha / 2.0, df)
    return float((1 - special.nctdtr(df, nc, upper)) + special.nctdtr(df, nc, lower))


def anova_power(
    n: float, runs: int, min_diff: float, variance: float, alpha: float = 0.05
) -> float:
    """Power of one-way ANOVA over ``runs`` groups of n topics when two runs differ by
    ``min_diff`` and the others lie midway (noncentrality ``n minD^2 / (2 sigma^2)``)."""
    from scipy import special, stats

    dfn, dfd = runs - 1, runs * (n - 1)
    f2 = min_diff**2 / (2.0 * runs * variance)
    crit = stats.f.isf(alpha, dfn, dfd)
    return float(1 - special.ncfdtr(dfn, dfd, f2 * runs * n, crit))


def expected_ci_width(n: float, sd: float, alpha: float = 0.05) -> float:
    """Expected width ``2 t_{alpha/2, n-1} c(n) sd / sqrt(n)`` of the t interval of a mean of
    n values with standard deviation ``sd``."""
    from scipy import special, stats

    c = math.sqrt(2.0 / (n - 1)) * math.exp(
        special.gammaln(n / 2.0) - special.gammaln((n - 1) / 2.0)
    )
    return float(2.0 * stats.t.isf(alpha / 2.0, n - 1) * c * sd / math.sqrt(n))


def _smallest(ok: Callable[[int], bool]) -> int | None:
    """The smallest n >= 2 with ``ok(n)`` (``ok`` monotone), or None beyond MAX_TOPICS."""
    if ok(2):
        return 2
    lo, hi = 2, 4
    while not ok(hi):
        lo, hi = hi, hi * 2
        if lo >= MAX_TOPICS:
            return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi if hi <= MAX_TOPICS else None


@dataclass(frozen=True)
class Design:
    """The topics needed (``None``: more than :data:`MAX_TOPICS`) and the power or width with
    the current number of topics (``queries``; ``None`` for a given variance)."""

    variance: float
    estimate: str
    alpha: float
    power: float
    min_diff: float
    ci_width: float | None
    runs: int
    queries: int | None
    t_topics: int | None
    anova_topics: int | None
    ci_topics: int | None
    t_power_now: float | None
    anova_power_now: float | None
    ci_width_now: float | None

    def to_dict(self) -> dict[str, Any]:
        def num(x: float | None) -> float | None:
            return None if x is None or not math.isfinite(x) else float(x)

        return {
            "variance": num(self.variance),
            "estimate": self.estimate,
            "alpha": self.alpha,
            "power": self.power,
            "min_diff": self.min_diff,
            "ci_width": self.ci_width,
            "runs": self.runs,
            "queries": self.queries,
            "topics": {"t": self.t_topics, "anova": self.anova_topics, "ci": self.ci_topics},
            "now": {
                "t_power": num(self.t_power_now),
                "anova_power": num(self.anova_power_now),
                "ci_width": num(self.ci_width_now),
            },
        }


def _unit(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"{name} must be a number, got {value!r}") from None
    if not 0.0 < v < 1.0:
        raise ParameterError(f"{name} must be between 0 and 1, got {value!r}")
    return v


def _positive(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"{name} must be a number, got {value!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise ParameterError(f"{name} must be a positive number, got {value!r}")
    return v


def topic_set_size(
    Y: Any = None,
    *,
    min_diff: float,
    power: float = 0.8,
    alpha: float = 0.05,
    ci_width: float | None = None,
    variance: float | None = None,
    estimate: str = "one-way",
    runs: int | None = None,
) -> Design:
    """The topics needed for a paired t-test, a one-way ANOVA over the runs and (with
    ``ci_width``) an interval of that width, from the queries x runs table ``Y`` (its ANOVA's
    ``V_E`` by ``estimate``) or a given ``variance`` (then ``runs`` says how many runs the
    ANOVA compares, default 2)."""
    min_diff = _positive(min_diff, "min_diff")
    power = _unit(power, "power")
    alpha = _unit(alpha, "alpha")
    if power <= alpha:
        raise ParameterError(f"power must exceed alpha ({alpha:g}), got {power:g}")
    width = None if ci_width is None else _positive(ci_width, "ci_width")
    if estimate not in ESTIMATES:
        raise ParameterError(f"unknown estimate {estimate!r}; choose one of {', '.join(ESTIMATES)}")
    queries: int | None = None
    if variance is not None:
        if Y is not None:
            raise ParameterError("give a past table or a variance, not both")
        try:
            sigma2 = float(variance)
        except (TypeError, ValueError, OverflowError):
            raise ParameterError(f"variance must be a number, got {variance!r}") from None
        if not (sigma2 >= 0 and math.isfinite(sigma2)):
            raise ParameterError(f"variance must be a number >= 0, got {variance!r}")
        m = 2 if runs is None else int(runs)
        if m < 2:
            raise ParameterError(f"the ANOVA needs at least 2 runs, got {m}")
        estimate = "given"
    else:
        if Y is None:
            raise ParameterError("give a past queries x runs table or a variance")
        from cranfield.comparing.anova_table import anova

        table = anova(Y, design=estimate)
        sigma2 = table.residual_variance
        if not math.isfinite(sigma2):
            raise ParameterError(
                "the past table gives no variance estimate (one query leaves no residual "
                "degrees of freedom)"
            )
        queries = table.queries
        m = len(table.runs)
    sd_d = math.sqrt(2.0 * sigma2)
    t_n: int | None
    a_n: int | None
    t_now: float | None = None
    a_now: float | None = None
    w_now: float | None = None
    if sigma2 == 0:
        _warn(
            "design: the variance is 0, so any difference is detected with certainty: 2 topics "
            "meet every requirement"
        )
        t_n = a_n = 2
        c_n = 2 if width is not None else None
        t_now = a_now = 1.0 if queries else None
        w_now = 0.0 if queries and width is not None else None
    else:
        effect = min_diff / sd_d
        t_n = _smallest(lambda n: t_test_power(n, effect, alpha) >= power)
        a_n = _smallest(lambda n: anova_power(n, m, min_diff, sigma2, alpha) >= power)
        c_n = (
            None
            if width is None
            else _smallest(lambda n: expected_ci_width(n, sd_d, alpha) <= width)
        )
        if queries is not None and queries >= 2:
            t_now = t_test_power(queries, effect, alpha)
            a_now = anova_power(queries, m, min_diff, sigma2, alpha)
            if width is not None:
                w_now = expected_ci_width(queries, sd_d, alpha)
        unmet = [
            name
            for name, n in (("t-test", t_n), ("ANOVA", a_n), ("interval", c_n))
            if n is None and (name != "interval" or width is not None)
        ]
        if unmet:
            _warn(
                f"design: more than {MAX_TOPICS:,} topics would be needed for the "
                f"{', '.join(unmet)}; reported as unmet"
            )
    return Design(
        variance=sigma2,
        estimate=estimate,
        alpha=alpha,
        power=power,
        min_diff=min_diff,
        ci_width=width,
        runs=m,
        queries=queries,
        t_topics=t_n,
        anova_topics=a_n,
        ci_topics=c_n,
        t_power_now=t_now,
        anova_power_now=a_now,
        ci_width_now=w_now,
    )
