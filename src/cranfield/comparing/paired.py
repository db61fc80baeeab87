"""Paired significance tests on per-query differences ``d = b - a``.

Every test compares two runs measured on the same queries, two-sided by default.  Student's t,
Wilcoxon's signed-rank and the sign test are scipy's (here, with the t-interval of the mean and
the effect size); Fisher's randomization test and the paired bootstrap test are in
:mod:`cranfield.comparing.resampling`; the checked differences and the rules shared by all
tests in :mod:`cranfield.comparing.differences`.  :func:`paired_tests` runs any of them on a
queries x pairs table.

Sources: Student (1908); Wilcoxon (1945); Dixon & Mood (1946) for the sign test; Smucker,
Allan & Carterette (CIKM 2007) compare them for IR.
"""

from __future__ import annotations

import math

import numpy as np

from cranfield.comparing.checks import check_confidence
from cranfield.comparing.differences import (
    ALTERNATIVES,
    EQUAL_TOLERANCE,
    TESTS,
    PairedTestResult,
    _check_alternative,
    _matrix,
    _need,
    _scaled,
    _sign,
    _unscale,
    _vector,
    differences,
)
from cranfield.comparing.resampling import (
    MAX_EXACT_QUERIES,
    bootstrap_tests,
    exact_enumeration,
    randomization_tests,
)
from cranfield.errors import ParameterError

__all__ = [
    "ALTERNATIVES",
    "EQUAL_TOLERANCE",
    "MAX_EXACT_QUERIES",
    "TESTS",
    "PairedTestResult",
    "bootstrap_test",
    "bootstrap_tests",
    "differences",
    "effect_size",
    "exact_enumeration",
    "mean_ci",
    "mean_cis",
    "paired_tests",
    "randomization_test",
    "randomization_tests",
    "sign_test",
    "t_test",
    "wilcoxon_test",
]


def t_test_d(d: np.ndarray, alternative: str = "two-sided") -> PairedTestResult:
    """Paired t-test on differences: ``t = mean(d) / (sd(d) / sqrt(n))``, df = n - 1.

    Differences that are all equal (within ``1e-12 * max(1, max |d|)``) have sd 0: then
    ``t = +-inf`` with p = 0 (1 for the opposite one-sided alternative), or t = 0 and p = 1
    when they are all 0."""
    return _t_tests(_vector(d)[:, None], alternative)[0]


def wilcoxon_d(d: np.ndarray, alternative: str = "two-sided") -> PairedTestResult:
    """Wilcoxon signed-rank test on the NON-ZERO differences (zero differences dropped first:
    Wilcoxon's ``zero_method='wilcox'``), p-value of ``scipy.stats.wilcoxon(d[d != 0])``.

    With ``m`` the number of non-zero differences, scipy's ``method='auto'`` takes the exact
    distribution for ``m <= 50`` without tied ``|d|``, all ``2^m`` sign patterns for
    ``m <= 13`` with ties, else the normal approximation with the tie correction of the
    variance and no continuity correction.  ``scipy.stats.wilcoxon(d)`` on all n differences
    makes that choice on n instead (zeros force its normal approximation from n = 14 on), so
    it gives another p whenever some difference is 0.

    The statistic is ``W+ = sum of the ranks of |d| over d > 0``; the direction is the sign of
    ``W+ - W-``.
    """
    _check_alternative(alternative)
    d = _vector(d)
    n = len(d)
    _need(n, 1, "Wilcoxon signed-rank test")
    nz = d[d != 0]
    if len(nz) == 0:
        return PairedTestResult("wilcoxon", 0.0, 1.0, 0, n)
    from scipy import stats

    ranks = stats.rankdata(np.abs(nz))
    w_plus = float(ranks[nz > 0].sum())
    w_minus = float(ranks[nz < 0].sum())
    r = stats.wilcoxon(nz, zero_method="wilcox", alternative=alternative)
    return PairedTestResult("wilcoxon", w_plus, float(r.pvalue), _sign(w_plus - w_minus), n)


def sign_test_d(d: np.ndarray, alternative: str = "two-sided") -> PairedTestResult:
    """Sign test: wins (d > 0) against losses (d < 0) under Binomial(wins + losses, 1/2), exact
    (``scipy.stats.binomtest(wins, wins + losses)``); ties are dropped.  The statistic is the
    number of wins."""
    _check_alternative(alternative)
    d = _vector(d)
    n = len(d)
    _need(n, 1, "sign test")
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    if wins + losses == 0:
        return PairedTestResult("sign", 0.0, 1.0, 0, n)
    from scipy import stats

    r = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    return PairedTestResult("sign", float(wins), float(r.pvalue), _sign(wins - losses), n)


def paired_tests(
    D: np.ndarray,
    test: str,
    *,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
) -> list[PairedTestResult]:
    """Run ``test`` on every column of ``D`` (queries x pairs of differences ``b - a``)."""
    if test == "randomization":
        return randomization_tests(D, permutations=permutations, seed=seed, alternative=alternative)
    if test == "bootstrap":
        return bootstrap_tests(D, samples=permutations, seed=seed, alternative=alternative)[0]
    if test == "t":
        return _t_tests(_matrix(D), alternative)
    funcs = {"wilcoxon": wilcoxon_d, "sign": sign_test_d}
    if test not in funcs:
        raise ParameterError(
            f"unknown test {test!r}; choose one of "
            f"{', '.join(t for t in TESTS if t not in ('tukey', 'rthsd'))}"
        )
    D = _matrix(D)
    return [funcs[test](D[:, j], alternative) for j in range(D.shape[1])]


def _t_tests(D: np.ndarray, alternative: str) -> list[PairedTestResult]:
    """:func:`t_test_d` for every column of the checked table ``D``, with one vectorised scipy
    call for the columns whose differences vary."""
    _check_alternative(alternative)
    n, npairs = D.shape
    _need(n, 2, "t-test")
    raw = np.ascontiguousarray(D.T)
    tol = EQUAL_TOLERANCE * np.maximum(1.0, np.abs(raw).max(axis=1, initial=0.0))
    constant = np.all(np.abs(raw - raw[:, :1]) <= tol[:, None], axis=1)
    S, _ = _scaled(D)
    rows = np.ascontiguousarray(S.T)
    means = rows.mean(axis=1)
    out: list[PairedTestResult | None] = [None] * npairs
    for j in np.flatnonzero(constant):
        if np.all(np.abs(raw[j]) <= tol[j]):
            out[j] = PairedTestResult("t", 0.0, 1.0, 0, n)
            continue
        # every query moved by the same amount (up to float noise): sd = 0, |t| infinite
        t = math.copysign(math.inf, means[j])
        p = {"two-sided": 0.0, "greater": 0.0 if t > 0 else 1.0, "less": 0.0 if t < 0 else 1.0}
        out[j] = PairedTestResult("t", t, p[alternative], _sign(t), n)
    varying = np.flatnonzero(~constant)
    if len(varying):
        from scipy import stats

        r = stats.ttest_1samp(rows[varying], 0.0, axis=1, alternative=alternative)
        for j, t, p in zip(
            varying, np.atleast_1d(r.statistic), np.atleast_1d(r.pvalue), strict=True
        ):
            out[j] = PairedTestResult("t", float(t), float(p), _sign(float(means[j])), n)
    return [o for o in out if o is not None]


def mean_ci(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """Student-t interval of the mean difference: ``mean(d) +- t_{(1+c)/2, n-1} sd(d)/sqrt(n)``
    (the interval of ``scipy.stats.ttest_rel(...).confidence_interval``)."""
    return mean_cis(_vector(d)[:, None], confidence)[0]


def mean_cis(D: np.ndarray, confidence: float = 0.95) -> list[tuple[float, float]]:
    """:func:`mean_ci` for every column of ``D`` (one quantile for all)."""
    confidence = check_confidence(confidence)
    D = _matrix(D)
    n = D.shape[0]
    _need(n, 2, "confidence interval")
    from scipy import stats

    crit = float(stats.t.ppf((1.0 + confidence) / 2.0, n - 1))
    S, e = _scaled(D)
    rows = np.ascontiguousarray(S.T)
    means = rows.mean(axis=1)
    sds = rows.std(axis=1, ddof=1)
    half = crit * sds / math.sqrt(n)
    lo = _unscale(np.where(sds == 0.0, means, means - half), e)
    hi = _unscale(np.where(sds == 0.0, means, means + half), e)
    return [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]


def effect_size(d: np.ndarray) -> float:
    """``mean(d) / sd(d)`` (Cohen's d for paired data, d_z).  When the differences are all
    equal (the t-test's rule: within ``1e-12 * max(1, max |d|)``), sd(d) counts as 0: the
    effect is +-inf, or 0 when they are all 0."""
    d = _vector(d)
    _need(len(d), 2, "effect size")
    tol = EQUAL_TOLERANCE * max(1.0, float(np.abs(d).max()))
    S, _ = _scaled(d[:, None])
    mean = float(S[:, 0].mean())
    if np.all(np.abs(d - d[0]) <= tol):
        return 0.0 if np.all(np.abs(d) <= tol) else math.copysign(math.inf, mean)
    return mean / float(S[:, 0].std(ddof=1))


# One-pair conveniences: a and b are per-query values of the two runs, in the same order.


def t_test(a, b, *, alternative: str = "two-sided") -> PairedTestResult:
    """Paired Student's t-test of b against a."""
    return t_test_d(differences(a, b), alternative)


def wilcoxon_test(a, b, *, alternative: str = "two-sided") -> PairedTestResult:
    """Wilcoxon signed-rank test of b against a (on the non-zero differences; see
    :func:`wilcoxon_d`)."""
    return wilcoxon_d(differences(a, b), alternative)


def sign_test(a, b, *, alternative: str = "two-sided") -> PairedTestResult:
    """Sign test of b against a."""
    return sign_test_d(differences(a, b), alternative)


def randomization_test(
    a,
    b,
    *,
    permutations: int = 10_000,
    seed: int | None = 0,
    alternative: str = "two-sided",
    exact: bool | None = None,
) -> PairedTestResult:
    """Fisher's randomization test of b against a (see :func:`randomization_tests`)."""
    d = differences(a, b)[:, None]
    return randomization_tests(
        d, permutations=permutations, seed=seed, alternative=alternative, exact=exact
    )[0]


def bootstrap_test(
    a, b, *, samples: int = 10_000, seed: int | None = 0, alternative: str = "two-sided"
) -> PairedTestResult:
    """Paired bootstrap test of b against a (see :func:`bootstrap_tests`)."""
    d = differences(a, b)[:, None]
    return bootstrap_tests(d, samples=samples, seed=seed, alternative=alternative)[0][0]
