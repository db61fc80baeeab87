"""Paired significance tests on per-query differences ``d = b - a``.

Every test compares two runs measured on the same queries, two-sided by default.  Student's t,
Wilcoxon's signed-rank and the sign test are scipy's; Fisher's randomization test and the
paired bootstrap test are computed here, vectorised over many pairs with one shared, seeded set
of resamples (so a pair's p-value does not depend on which other pairs are compared).

Rules shared by all tests (see ``docs/compare.md``):

- a difference with ``|b - a| <= 1e-12 * max(1, |a|, |b|)`` is an exact tie (``0``), so float
  noise never counts as a win;
- if every difference is 0 the runs are identical on the measure: statistic 0, p = 1;
- ``alternative="greater"`` means mean(b) > mean(a), ``"less"`` mean(b) < mean(a);
- NaN or infinite differences are refused (ParameterError); the tests compute on the
  differences rescaled by a power of two (exact, see ``checks.py``), so values up to 1e308 and
  down to 5e-324 give the same p-values as moderate ones;
- the cost of the resampling tests is permutations x queries, their memory a fixed budget
  (blocks of ``_BLOCK_ELEMENTS`` numbers, whatever the numbers of queries, pairs and
  resamples; the bootstrap interval also keeps one mean per resample and pair).

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

from .. import progress
from ..errors import ParameterError
from .checks import check_confidence, check_count, check_seed, finite, floats, unit_exponents

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

ALTERNATIVES = ("two-sided", "greater", "less")
EQUAL_TOLERANCE = 1e-12

# name -> (long name, source)
TESTS: dict[str, tuple[str, str]] = {
    "t": ("paired Student's t-test", "Student (1908); scipy.stats.ttest_rel"),
    "wilcoxon": (
        "Wilcoxon signed-rank test",
        "Wilcoxon (1945); Magdy & Jones (SIGIR 2010) sec. 6.2; scipy.stats.wilcoxon on the "
        "non-zero differences (zero_method='wilcox', method='auto')",
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
# Elements per resampling block (memory bound for the sign / count matrices and for the
# resampled statistics).  The rows of a block depend on the number of queries only, never on
# the number of pairs, so that the random stream, and a pair's p-value, do not depend on
# which other pairs are compared.
_BLOCK_ELEMENTS = 2_000_000
# Elements per block of resampled statistics (rows x pairs); several temporaries of this size
# live at once while a block is compared with the observed statistics.
_STAT_ELEMENTS = 500_000
# Exact enumeration of the randomization test: at most 2^24 sign vectors.
MAX_EXACT_QUERIES = 24


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
    x = floats(a, "paired values")
    y = floats(b, "paired values")
    if x.shape != y.shape or x.ndim not in (1, 2):
        raise ParameterError(f"paired values must have the same shape, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ParameterError("paired values must be finite (no NaN or infinity)")
    with np.errstate(over="ignore"):
        d = y - x
    if not np.isfinite(d).all():
        pos = np.unravel_index(int(np.argmin(np.isfinite(d))), d.shape)
        raise ParameterError(
            f"the difference b - a at position {', '.join(str(int(i)) for i in pos)} "
            f"({float(y[pos])!r} - {float(x[pos])!r}) exceeds the float64 range"
        )
    scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
    d[np.abs(d) <= EQUAL_TOLERANCE * scale] = 0.0
    return d


def _matrix(D: object) -> np.ndarray:
    """A finite queries x pairs float64 table of differences."""
    M = floats(D, "differences")
    if M.ndim != 2:
        raise ParameterError(f"differences must be a queries x pairs table, got shape {M.shape}")
    finite(M, "differences")
    return M


def _vector(d: object) -> np.ndarray:
    v = floats(d, "differences")
    if v.ndim != 1:
        raise ParameterError(f"differences must be a flat list, got shape {v.shape}")
    finite(v, "differences")
    return v


def _scaled(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column of ``D`` times ``2**-e``, with ``e`` per column putting its largest ``|d|``
    in [0.5, 1) (exact; see ``checks.py``), and ``e``."""
    e = unit_exponents(np.abs(D).max(axis=0, initial=0.0))
    return np.ldexp(D, -e), e


def _unscale(x: np.ndarray | float, e: np.ndarray | int) -> np.ndarray:
    """``x * 2**e``, infinite where that exceeds the float64 range."""
    with np.errstate(over="ignore"):
        return np.ldexp(x, e)


def _need(n: int, minimum: int, test: str) -> None:
    if n < minimum:
        raise ParameterError(f"the {test} needs at least {minimum} queries, got {n}")


def _sign(x: float) -> int:
    return 1 if x > 0 else -1 if x < 0 else 0


def exact_enumeration(n: int, permutations: int) -> bool:
    """Whether the randomization test enumerates all ``2^n`` sign vectors by default: when
    ``n <= MAX_EXACT_QUERIES`` and ``2^n <= permutations`` (compared as integers: ``2.0**n``
    overflows from n = 1024 on)."""
    return 0 <= n <= MAX_EXACT_QUERIES and (1 << n) <= permutations


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


def _column_sums(D: np.ndarray) -> np.ndarray:
    """Per-column sums computed on contiguous rows, so that a column's sum does not depend on
    the other columns next to it (pairwise summation order)."""
    return np.ascontiguousarray(D.T).sum(axis=1)


def _blocks(total: int, n: int) -> list[int]:
    """Rows per resampling block: ``_BLOCK_ELEMENTS // n`` (a function of the number of
    queries only, so the random stream does not depend on the number of pairs)."""
    size = max(1, _BLOCK_ELEMENTS // max(n, 1))
    full, rest = divmod(total, size)
    return [size] * full + ([rest] if rest else [])


def _pair_chunks(rows: int, npairs: int) -> list[slice]:
    """Column ranges whose resampled statistics (rows x columns) fit one block."""
    step = max(1, _STAT_ELEMENTS // max(rows, 1))
    return [slice(lo, min(lo + step, npairs)) for lo in range(0, npairs, step)]


def _exceed(null: np.ndarray, observed: np.ndarray, alternative: str, tol: np.ndarray):
    """Count, per column, resampled statistics at least as extreme as the observed one."""
    if alternative == "two-sided":
        hit = np.abs(null) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = null >= observed - tol
    else:
        hit = null <= observed + tol
    return hit.sum(axis=0)


def _count_signs(
    signs: np.ndarray, S: np.ndarray, observed: np.ndarray, alternative: str, tol: np.ndarray
) -> np.ndarray:
    """:func:`_exceed` of ``signs @ S``, computed a block of pairs at a time."""
    out = np.zeros(S.shape[1], dtype=np.int64)
    for sl in _pair_chunks(len(signs), S.shape[1]):
        out[sl] = _exceed(signs @ S[:, sl], observed[sl], alternative, tol[sl])
    return out


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
    when :func:`exact_enumeration` (``n <= 24`` and ``2^n <= permutations``; p = count / 2^n),
    otherwise draws ``permutations`` random sign vectors from
    ``numpy.random.default_rng(seed)``, shared by all columns, and reports
    ``p = (1 + count) / (permutations + 1)``.  Two-sided counts ``|T*| >= |T|``, greater
    ``T* >= T``, less ``T* <= T``; a ``T*`` within a relative 1e-10 of the observed value counts.
    """
    _check_alternative(alternative)
    permutations = check_count(permutations, "permutations")
    seed = check_seed(seed)
    D = _matrix(D)
    n, npairs = D.shape
    _need(n, 1, "randomization test")
    if exact is None:
        use_exact = exact_enumeration(n, permutations)
    else:
        use_exact = bool(exact)
        if use_exact and n > MAX_EXACT_QUERIES:
            raise ParameterError(
                f"exact enumeration of 2^{n} sign vectors is too large (at most "
                f"2^{MAX_EXACT_QUERIES}); use exact=False"
            )
    S, e = _scaled(D)
    S = np.asfortranarray(S)  # each block of pairs is contiguous for the products
    observed = _column_sums(S)
    tol = _MC_TOLERANCE * np.maximum(_column_sums(np.abs(S)), 1e-300)
    count = np.zeros(npairs, dtype=np.int64)
    if use_exact:
        total = 1 << n
        done = 0
        shifts = np.arange(n, dtype=np.int64)
        for size in progress.track(_blocks(total, n), "randomization test", size=int):
            codes = np.arange(done, done + size, dtype=np.int64)[:, None]
            signs = 1.0 - 2.0 * ((codes >> shifts) & 1)
            count += _count_signs(signs, S, observed, alternative, tol)
            done += size
        p = count / total
        resamples = total
    else:
        rng = np.random.default_rng(seed)
        for size in progress.track(_blocks(permutations, n), "randomization test", size=int):
            signs = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
            signs *= -2.0
            signs += 1.0
            count += _count_signs(signs, S, observed, alternative, tol)
        p = (1.0 + count) / (permutations + 1.0)
        resamples = permutations
    means = _unscale(observed / n, e)
    out = []
    for j in range(npairs):
        if not D[:, j].any():
            out.append(PairedTestResult("randomization", 0.0, 1.0, 0, n, resamples, use_exact))
            continue
        mean = float(means[j])
        out.append(
            PairedTestResult(
                "randomization", mean, float(p[j]), _sign(mean), n, resamples, use_exact
            )
        )
    return out


def _studentized(num: np.ndarray, sq: np.ndarray, n: int) -> np.ndarray:
    """``num / (sd / sqrt(n))`` with ``sd^2 = sq / (n - 1)``, for data scaled to magnitudes
    below 1: a ``num`` or a standard error below 1e-12 is 0, and a zero standard error gives
    t = 0 (num 0) or +-infinity."""
    se = np.sqrt(np.maximum(sq, 0.0) / (n - 1) / n)
    num = np.where(np.abs(num) <= EQUAL_TOLERANCE, 0.0, num)
    zero_se = se <= EQUAL_TOLERANCE
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(zero_se, np.where(num == 0, 0.0, np.sign(num) * np.inf), num / se)


def _resample_counts(rng: np.random.Generator, size: int, n: int) -> np.ndarray:
    """``size`` bootstrap resamples of ``n`` queries as a size x n matrix of how often each
    query was drawn (indices from ``rng.integers(0, n, (size, n))``, the draws of
    ``scipy.stats.bootstrap`` with ``batch=size``)."""
    idx = rng.integers(0, n, size=(size, n))
    idx += np.arange(0, size * n, n, dtype=idx.dtype)[:, None]
    counts = np.bincount(idx.ravel(), minlength=size * n)
    del idx
    return counts.reshape(size, n).astype(np.float64)


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
    ``t = mean(d) / (sd(d) / sqrt(n))``: ``p = (1 + #{|t*| >= |t|}) / (samples + 1)``
    (one-sided: ``t* >= t`` or ``t* <= t``).

    With ``confidence`` also returns the percentile interval of ``mean(d*)`` per column
    (shape 2 x pairs), the interval of ``scipy.stats.bootstrap(method="percentile")``.
    """
    _check_alternative(alternative)
    samples = check_count(samples, "samples")
    seed = check_seed(seed)
    if confidence is not None:
        confidence = check_confidence(confidence)
    D = _matrix(D)
    n, npairs = D.shape
    _need(n, 2, "bootstrap test")
    S, e = _scaled(D)
    obs_mean = _column_sums(S) / n
    # centred on the observed mean: the resampled variance is then free of cancellation
    C = np.asfortranarray(S - obs_mean)
    C2 = np.asfortranarray(C * C)
    t_obs = _studentized(obs_mean, _column_sums(C2), n)
    tol = np.where(np.isinf(t_obs), 0.0, _MC_TOLERANCE * np.maximum(np.abs(t_obs), 1.0))
    rng = np.random.default_rng(seed)
    count = np.zeros(npairs, dtype=np.int64)
    means = np.empty((samples, npairs)) if confidence is not None else None
    done = 0
    for size in progress.track(_blocks(samples, n), "bootstrap", size=int):
        W = _resample_counts(rng, size, n)
        for sl in _pair_chunks(size, npairs):
            sums = W @ C[:, sl]  # n (mean(d*) - mean(d))
            num = sums / n
            t_star = _studentized(num, W @ C2[:, sl] - sums * num, n)
            count[sl] += _exceed(t_star, t_obs[sl], alternative, tol[sl])
            if means is not None:
                means[done : done + size, sl] = obs_mean[sl] + num
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
        ci = _unscale(np.quantile(means, [lo, 1.0 - lo], axis=0), e)
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
        return _t_tests(_matrix(D), alternative)
    funcs = {"wilcoxon": wilcoxon_d, "sign": sign_test_d}
    if test not in funcs:
        raise ParameterError(
            f"unknown test {test!r}; choose one of {', '.join(t for t in TESTS if t != 'tukey')}"
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
