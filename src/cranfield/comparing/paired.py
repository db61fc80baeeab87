"""Paired significance tests on per-query differences ``d = b - a``.

Every test compares two runs measured on the same queries, two-sided by default.  Student's t,
Wilcoxon's signed-rank and the sign test are scipy's; Fisher's randomization test and the
paired bootstrap test are computed here, vectorised over many pairs with one shared, seeded set
of resamples (so a pair's p-value does not depend on which other pairs are compared).

Rules shared by all tests (see ``docs/compare.md``):

- a difference with ``|b - a| <= 1e-12 * max(1, |a|, |b|)`` is an exact tie (``0``), so float
  noise never counts as a win;
- if every difference is 0 the runs are identical on the measure: statistic 0, p = 1;
- ``alternative="greater"`` means mean(b) > mean(a), ``"less"`` mean(b) < mean(a).

Sources: Student (1908); Wilcoxon (1945); Dixon & Mood (1946) for the sign test; Fisher (1935)
sec. 21 for randomization; Efron & Tibshirani (1993) ch. 16 and Sakai (SIGIR 2006) for the
studentized paired bootstrap; Davison & Hinkley (1997) eq. 4.11 for the Monte Carlo p-value
``(1 + #{T* >= T}) / (B + 1)``; Smucker, Allan & Carterette (CIKM 2007) compare them for IR.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError

__all__ = [
    "ALTERNATIVES",
    "EQUAL_TOLERANCE",
    "TESTS",
    "PairedTestResult",
    "bootstrap_test",
    "differences",
    "mean_ci",
    "mean_cis",
    "paired_tests",
    "randomization_test",
    "sign_test",
    "t_test",
    "wilcoxon_test",
]

ALTERNATIVES = ("two-sided", "greater", "less")
EQUAL_TOLERANCE = 1e-12

# name -> (long name, source)
TESTS: dict[str, tuple[str, str]] = {
    "t": ("paired Student's t-test", "Student (1908); scipy.stats.ttest_rel"),
    "wilcoxon": (
        "Wilcoxon signed-rank test",
        "Wilcoxon (1945); seed 000 sec. 6.2; scipy.stats.wilcoxon (zero_method='wilcox', "
        "method='auto')",
    ),
    "sign": ("sign test", "Dixon & Mood (1946); scipy.stats.binomtest on wins vs losses"),
    "randomization": (
        "Fisher's randomization (permutation) test",
        "Fisher (1935) sec. 21; Smucker, Allan & Carterette (CIKM 2007)",
    ),
    "bootstrap": (
        "paired bootstrap test (studentized, shifted to the null)",
        "Efron & Tibshirani (1993) sec. 16.4; Sakai (SIGIR 2006)",
    ),
    "tukey": (
        "Tukey's HSD (two-way ANOVA: runs x queries)",
        "Tukey (1949); Carterette (TOIS 2012); scipy.stats.studentized_range",
    ),
}

# Monte Carlo tests: comparisons of resampled statistics with the observed one allow this
# relative slack, so that exact ties of the permutation distribution are not lost to rounding.
_MC_TOLERANCE = 1e-10
# Elements per resampling block (memory bound for the sign / count matrices).
_BLOCK_ELEMENTS = 2_000_000


@dataclass(frozen=True)
class PairedTestResult:
    """Outcome of one paired test of run b against run a.

    ``direction`` is +1 when the test statistic says b > a, -1 when a > b and 0 when neither;
    ``resamples`` is the number of permutations or bootstrap samples (0 for closed-form tests),
    ``exact`` tells whether the p-value was enumerated exactly.
    """

    test: str
    statistic: float
    p_value: float
    direction: int
    n: int
    resamples: int = 0
    exact: bool = False


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ParameterError(
            f"unknown alternative {alternative!r}; choose one of {', '.join(ALTERNATIVES)}"
        )


def differences(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> np.ndarray:
    """``b - a`` per query, with float-noise differences set to exactly 0 (see module doc)."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim not in (1, 2):
        raise ParameterError(f"paired values must have the same shape, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError("paired values must be finite (no NaN or infinity)")
    d = y - x
    scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    d[np.abs(d) <= EQUAL_TOLERANCE * scale] = 0.0
    return d


def _need(n: int, minimum: int, test: str) -> None:
    if n < minimum:
        raise ParameterError(f"the {test} needs at least {minimum} queries, got {n}")


def _sign(x: float) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


def t_test_d(d: np.ndarray, alternative: str = "two-sided") -> PairedTestResult:
    """Paired t-test on differences: ``t = mean(d) / (sd(d) / sqrt(n))``, df = n - 1."""
    _check_alternative(alternative)
    n = len(d)
    _need(n, 2, "t-test")
    if not d.any():
        return PairedTestResult("t", 0.0, 1.0, 0, n)
    scale = max(1.0, float(np.abs(d).max()))
    if np.all(np.abs(d - d[0]) <= EQUAL_TOLERANCE * scale):
        # every query moved by the same amount (up to float noise): sd = 0, |t| infinite
        t = math.copysign(math.inf, d[0])
        p = {"two-sided": 0.0, "greater": 0.0 if t > 0 else 1.0, "less": 0.0 if t < 0 else 1.0}
        return PairedTestResult("t", t, p[alternative], _sign(t), n)
    from scipy import stats

    r = stats.ttest_1samp(d, 0.0, alternative=alternative)
    return PairedTestResult("t", float(r.statistic), float(r.pvalue), _sign(float(d.mean())), n)


def wilcoxon_d(d: np.ndarray, alternative: str = "two-sided") -> PairedTestResult:
    """Wilcoxon signed-rank test: zero differences dropped (``zero_method='wilcox'``), scipy's
    ``method='auto'`` (exact for up to 50 non-zero differences without ties, else normal).

    The statistic is ``W+ = sum of the ranks of |d| over d > 0``; the direction is the sign of
    ``W+ - W-``.
    """
    _check_alternative(alternative)
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
    """Sign test: wins (d > 0) against losses (d < 0) under Binomial(wins + losses, 1/2);
    ties are dropped.  The statistic is the number of wins."""
    _check_alternative(alternative)
    n = len(d)
    _need(n, 1, "sign test")
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    if wins + losses == 0:
        return PairedTestResult("sign", 0.0, 1.0, 0, n)
    from scipy import stats

    r = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    return PairedTestResult("sign", float(wins), float(r.pvalue), _sign(wins - losses), n)


def _column_sums(D: np.ndarray) -> np.ndarray:
    """Per-column sums computed on contiguous rows, so that a column's sum does not depend on
    the other columns next to it (pairwise summation order)."""
    return np.ascontiguousarray(D.T).sum(axis=1)


def _blocks(total: int, n: int) -> list[int]:
    size = max(1, _BLOCK_ELEMENTS // max(n, 1))
    out = []
    while total > 0:
        out.append(min(size, total))
        total -= out[-1]
    return out


def _exceed(null: np.ndarray, observed: np.ndarray, alternative: str, tol: np.ndarray):
    """Count, per column, resampled statistics at least as extreme as the observed one."""
    if alternative == "two-sided":
        hit = np.abs(null) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = null >= observed - tol
    else:
        hit = null <= observed + tol
    return hit.sum(axis=0)


def randomization_tests(
    D: np.ndarray,
    *,
    permutations: int = 10_000,
    seed: int | None = 0,
    alternative: str = "two-sided",
    exact: bool | None = None,
) -> list[PairedTestResult]:
    """Fisher's randomization test for every column of ``D`` (queries x pairs).

    Under the null hypothesis the labels a/b of each query are exchangeable, so each
    difference keeps or flips its sign with probability 1/2.  Statistic: ``T = sum(d)`` (the
    same test as the mean difference).  ``exact=None`` enumerates all ``2^n`` sign vectors
    when ``2^n <= permutations`` (p = count / 2^n), otherwise draws ``permutations`` random
    sign vectors from ``numpy.random.default_rng(seed)``, shared by all columns, and reports
    ``p = (1 + count) / (permutations + 1)``.
    """
    _check_alternative(alternative)
    if permutations < 1:
        raise ParameterError(f"permutations must be >= 1, got {permutations}")
    n, npairs = D.shape
    _need(n, 1, "randomization test")
    use_exact = (2.0**n <= permutations) if exact is None else exact
    if use_exact and n > 24:
        raise ParameterError(
            f"exact enumeration of 2^{n} sign vectors is too large; use exact=False"
        )
    observed = _column_sums(D)
    tol = _MC_TOLERANCE * np.maximum(_column_sums(np.abs(D)), 1e-300)
    count = np.zeros(npairs, dtype=np.int64)
    if use_exact:
        total = 1 << n
        done = 0
        for size in _blocks(total, n):
            codes = np.arange(done, done + size, dtype=np.int64)[:, None]
            bits = (codes >> np.arange(n, dtype=np.int64)[None, :]) & 1
            signs = 1.0 - 2.0 * bits
            count += _exceed(signs @ D, observed, alternative, tol)
            done += size
        p = count / total
        resamples = total
    else:
        rng = np.random.default_rng(seed)
        for size in _blocks(permutations, n):
            signs = 1.0 - 2.0 * rng.integers(0, 2, size=(size, n), dtype=np.int8)
            count += _exceed(signs @ D, observed, alternative, tol)
        p = (1.0 + count) / (permutations + 1.0)
        resamples = permutations
    out = []
    for j in range(npairs):
        if not D[:, j].any():
            out.append(PairedTestResult("randomization", 0.0, 1.0, 0, n, resamples, use_exact))
            continue
        mean = float(observed[j]) / n
        out.append(
            PairedTestResult(
                "randomization", mean, float(p[j]), _sign(mean), n, resamples, use_exact
            )
        )
    return out


def _student(sums: np.ndarray, sumsq: np.ndarray, n: int, center: np.ndarray) -> np.ndarray:
    """Studentized statistic ``(mean - center) / (sd / sqrt(n))`` from sums and sums of
    squares; a zero standard deviation gives 0 (mean == center) or +-infinity."""
    mean = sums / n
    var = np.maximum(sumsq - n * mean * mean, 0.0) / (n - 1)
    se = np.sqrt(var / n)
    num = mean - center
    scale = np.maximum(np.abs(mean), 1.0)
    zero_se = se <= 1e-12 * scale
    num = np.where(np.abs(num) <= 1e-12 * scale, 0.0, num)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(zero_se, np.where(num == 0, 0.0, np.sign(num) * np.inf), num / se)
    return t


def bootstrap_tests(
    D: np.ndarray,
    *,
    samples: int = 10_000,
    seed: int | None = 0,
    alternative: str = "two-sided",
    confidence: float | None = None,
) -> tuple[list[PairedTestResult], np.ndarray | None]:
    """Paired bootstrap test for every column of ``D`` (queries x pairs).

    Resample the queries with replacement ``samples`` times (indices from
    ``numpy.random.default_rng(seed)``, shared by all columns); for each resample compute the
    studentized statistic of the differences shifted to mean 0,
    ``t* = (mean(d*) - mean(d)) / (sd(d*) / sqrt(n))``, and compare it with the observed
    ``t = mean(d) / (sd(d) / sqrt(n))``: ``p = (1 + #{|t*| >= |t|}) / (samples + 1)``.

    With ``confidence`` also returns the percentile interval of ``mean(d*)`` per column
    (shape 2 x pairs).
    """
    _check_alternative(alternative)
    if samples < 1:
        raise ParameterError(f"samples must be >= 1, got {samples}")
    n, npairs = D.shape
    _need(n, 2, "bootstrap test")
    D2 = D * D
    obs_mean = _column_sums(D) / n
    t_obs = _student(_column_sums(D), _column_sums(D2), n, np.zeros(npairs))
    rng = np.random.default_rng(seed)
    count = np.zeros(npairs, dtype=np.int64)
    means = np.empty((samples, npairs)) if confidence is not None else None
    done = 0
    for size in _blocks(samples, n):
        idx = rng.integers(0, n, size=(size, n))
        flat = (np.arange(size)[:, None] * n + idx).ravel()
        counts = np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)
        sums = counts @ D
        t_star = _student(sums, counts @ D2, n, obs_mean)
        tol = _MC_TOLERANCE * np.maximum(np.abs(t_obs), 1.0)
        tol = np.where(np.isinf(t_obs), 0.0, tol)
        count += _exceed(t_star, t_obs, alternative, tol)
        if means is not None:
            means[done : done + size] = sums / n
        done += size
    p = (1.0 + count) / (samples + 1.0)
    out = []
    for j in range(npairs):
        if not D[:, j].any():
            out.append(PairedTestResult("bootstrap", 0.0, 1.0, 0, n, samples))
            continue
        out.append(
            PairedTestResult(
                "bootstrap", float(t_obs[j]), float(p[j]), _sign(float(obs_mean[j])), n, samples
            )
        )
    ci = None
    if means is not None and confidence is not None:
        lo = (1.0 - confidence) / 2.0
        ci = np.quantile(means, [lo, 1.0 - lo], axis=0)
    return out, ci


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
        return _t_tests(D, alternative)
    funcs = {"wilcoxon": wilcoxon_d, "sign": sign_test_d}
    if test not in funcs:
        raise ParameterError(
            f"unknown test {test!r}; choose one of {', '.join(t for t in TESTS if t != 'tukey')}"
        )
    return [funcs[test](D[:, j], alternative) for j in range(D.shape[1])]


def _t_tests(D: np.ndarray, alternative: str) -> list[PairedTestResult]:
    """:func:`t_test_d` for every column, with one vectorised scipy call for the columns
    whose differences vary."""
    _check_alternative(alternative)
    n, npairs = D.shape
    _need(n, 2, "t-test")
    rows = np.ascontiguousarray(D.T)
    scale = np.maximum(1.0, np.abs(rows).max(axis=1, initial=0.0))
    constant = np.all(np.abs(rows - rows[:, :1]) <= EQUAL_TOLERANCE * scale[:, None], axis=1)
    out: list[PairedTestResult | None] = [None] * npairs
    for j in np.flatnonzero(constant):
        out[j] = t_test_d(rows[j], alternative)
    varying = np.flatnonzero(~constant)
    if len(varying):
        from scipy import stats

        r = stats.ttest_1samp(rows[varying], 0.0, axis=1, alternative=alternative)
        means = rows[varying].mean(axis=1)
        for j, t, p, m in zip(varying, r.statistic, r.pvalue, means, strict=True):
            out[j] = PairedTestResult("t", float(t), float(p), _sign(float(m)), n)
    return [o for o in out if o is not None]


def mean_ci(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """Student-t interval of the mean difference: ``mean(d) +- t_{(1+c)/2, n-1} sd(d)/sqrt(n)``
    (the interval of ``scipy.stats.ttest_rel(...).confidence_interval``)."""
    n = len(d)
    _need(n, 2, "confidence interval")
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return mean, mean
    from scipy import stats

    half = float(stats.t.ppf((1.0 + confidence) / 2.0, n - 1)) * sd / math.sqrt(n)
    return mean - half, mean + half


def mean_cis(D: np.ndarray, confidence: float = 0.95) -> list[tuple[float, float]]:
    """:func:`mean_ci` for every column of ``D`` (one quantile for all)."""
    n = D.shape[0]
    _need(n, 2, "confidence interval")
    from scipy import stats

    crit = float(stats.t.ppf((1.0 + confidence) / 2.0, n - 1))
    rows = np.ascontiguousarray(D.T)
    means = rows.mean(axis=1)
    sds = rows.std(axis=1, ddof=1)
    half = crit * sds / math.sqrt(n)
    return [
        (float(m), float(m)) if sd == 0.0 else (float(m - h), float(m + h))
        for m, sd, h in zip(means, sds, half, strict=True)
    ]


# One-pair conveniences: a and b are per-query values of the two runs, in the same order.


def t_test(a, b, *, alternative: str = "two-sided") -> PairedTestResult:
    """Paired Student's t-test of b against a."""
    return t_test_d(differences(a, b), alternative)


def wilcoxon_test(a, b, *, alternative: str = "two-sided") -> PairedTestResult:
    """Wilcoxon signed-rank test of b against a."""
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
