"""The resampling paired tests: Fisher's randomization test and the paired bootstrap test,
vectorised over many pairs with one shared, seeded set of resamples (so a pair's p-value does
not depend on which other pairs are compared).

The cost is permutations x queries, the memory a fixed budget (blocks of ``_BLOCK_ELEMENTS``
numbers, whatever the numbers of queries, pairs and resamples; the bootstrap interval also keeps
one mean per resample and pair).  The rules on differences are those of
:mod:`cranfield.comparing.differences`.

Sources: Fisher (1935) sec. 21 for randomization; Efron & Tibshirani (1993) ch. 16 and Sakai
(SIGIR 2006) for the studentized paired bootstrap; Davison & Hinkley (1997) eq. 4.11 for the
Monte Carlo p-value ``(1 + #{T* >= T}) / (B + 1)``; Smucker, Allan & Carterette (CIKM 2007).
"""

from __future__ import annotations

import numpy as np

from cranfield.base import progress
from cranfield.comparing.checks import check_confidence, check_count, check_seed
from cranfield.comparing.differences import (
    EQUAL_TOLERANCE,
    PairedTestResult,
    _check_alternative,
    _matrix,
    _need,
    _scaled,
    _sign,
    _unscale,
)
from cranfield.errors import ParameterError

__all__ = ["MAX_EXACT_QUERIES", "bootstrap_tests", "exact_enumeration", "randomization_tests"]

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


def exact_enumeration(n: int, permutations: int) -> bool:
    """Whether the randomization test enumerates all ``2^n`` sign vectors by default: when
    ``n <= MAX_EXACT_QUERIES`` and ``2^n <= permutations`` (compared as integers: ``2.0**n``
    overflows from n = 1024 on)."""
    return 0 <= n <= MAX_EXACT_QUERIES and (1 << n) <= permutations


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


def pair_step(n: int) -> int:
    """Pairs whose resampled statistics are computed in one matrix product, for ``n``
    queries: the columns that fit :data:`_STAT_ELEMENTS` beside a full block of resamples
    (the same for every block, the last one too).  A product's bits depend on how many columns
    it has (BLAS kernels), so the pairs are cut at multiples of this number wherever they are
    tested (:mod:`cranfield.comparing.resampling_tasks`): a pair's p-value and interval are
    then the same bits whichever pairs are tested with it, in one process or in groups."""
    return max(1, _STAT_ELEMENTS // max(1, _BLOCK_ELEMENTS // max(n, 1)))


def _pair_chunks(n: int, npairs: int) -> list[slice]:
    """Column ranges of :func:`pair_step` columns (the last may be shorter)."""
    step = pair_step(n)
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
    for sl in _pair_chunks(S.shape[0], S.shape[1]):
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
    ``T* >= T``, less ``T* <= T``; a ``T*`` within ``1e-10 sum|d|`` of the observed value
    counts.
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
        for sl in _pair_chunks(n, npairs):
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
