"""Judging the measures (meta-evaluation): how well a measure tells runs apart, how often two
halves of the queries disagree about a pair of runs, and how stable its ranking of the runs
is when fewer queries are used.  All three work on a measure's queries x runs table (the
per-query values ``compare`` keeps), vectorised over the resamples.

- **Discriminative power** (Sakai, "Evaluating evaluation metrics based on the bootstrap",
  SIGIR 2006): every pair of runs is tested (the paired bootstrap test of Sakai's
  paper, the randomised Tukey HSD test, or the randomization test); the achieved significance
  levels (ASL, the p-values) sorted from the smallest form the ASL curve, and the
  discriminative power is the share of pairs whose ASL is below alpha.
- **Swap rate** (Voorhees & Buckley, "The effect of topic set size on retrieval experiment
  error", SIGIR 2002): the queries are split at random into two disjoint sets of c
  queries; a pair of runs *swaps* when the two sets order it differently (the differences of
  the means have opposite signs; a difference of 0 on either set is no swap).  The pairs of
  all splits are binned by the absolute difference of the means on the first set (bins of
  ``bin_width``), and each bin's swap rate is its swaps over its pairs.
- **Ranking stability** under query subsampling (Buckley & Voorhees, SIGIR 2000; Sakai
  2006): for each subset size, random subsets of the queries (without replacement) rank
  the runs by their means; Kendall's tau_b against the ranking on all queries, its mean and
  minimum over the subsets.

Every random choice comes from ``numpy.random.default_rng(seed)``; the bootstrap p-values are
those of :func:`~cranfield.comparing.resampling.bootstrap_tests` (on an executor through the
same seam as ``compare``, the same bits).  Declared values, with a warning: a tau that is
undefined because every run has the same mean is NaN.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.comparing.checks import check_alpha, check_count, check_seed, finite, floats
from cranfield.errors import CranfieldWarning, ParameterError

__all__ = [
    "META_TESTS",
    "Discrimination",
    "MetaEvaluation",
    "Stability",
    "SwapRates",
    "discriminative_power",
    "meta_evaluation",
    "ranking_stability",
    "swap_rates",
]

META_TESTS = ("bootstrap", "rthsd", "randomization")


def _warn(message: str) -> None:
    from cranfield.comparing.build import _warn as warn_outside

    warn_outside(CranfieldWarning(message))


def _table(Y: Any) -> np.ndarray:
    Y = floats(Y, "the queries x runs table")
    if Y.ndim != 2:
        raise ParameterError("meta-evaluation needs a queries x runs table")
    if Y.shape[1] < 2:
        raise ParameterError(f"meta-evaluation needs at least 2 runs, got {Y.shape[1]}")
    finite(Y, "the per-query values")
    return Y


def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(k, 1)
    return i, j


@dataclass(frozen=True)
class Discrimination:
    """``p[l]`` the ASL of pair ``(a[l], b[l])`` (run indices); ``power`` the share below
    alpha; ``curve`` the ASLs sorted ascending."""

    test: str
    alpha: float
    samples: int
    a: np.ndarray
    b: np.ndarray
    p: np.ndarray

    @property
    def power(self) -> float:
        return float(np.mean(self.p < self.alpha))

    @property
    def significant(self) -> int:
        return int(np.count_nonzero(self.p < self.alpha))

    @property
    def curve(self) -> np.ndarray:
        return np.sort(self.p, kind="stable")


def discriminative_power(
    Y: Any,
    *,
    test: str = "bootstrap",
    alpha: float = 0.05,
    samples: int = 1000,
    seed: int | None = 0,
    executor: Any = None,
) -> Discrimination:
    """Sakai's discriminative power of one measure (see the module docstring)."""
    if test not in META_TESTS:
        raise ParameterError(f"unknown test {test!r}; choose one of {', '.join(META_TESTS)}")
    alpha = check_alpha(alpha)
    samples = check_count(samples, "samples")
    seed = check_seed(seed)
    Y = _table(Y)
    a, b = _pairs(Y.shape[1])
    if test == "rthsd":
        from cranfield.comparing.rthsd import randomised_tukey_hsd

        p = randomised_tukey_hsd(Y, permutations=samples, seed=seed).p[a, b]
    else:
        from cranfield.comparing.differences import differences

        D = np.column_stack([differences(Y[:, i], Y[:, j]) for i, j in zip(a, b, strict=True)])
        if executor is not None:
            from cranfield.comparing.resampling_tasks import Resampling, resampling_on
            from cranfield.scale.dask_executor import as_executor

            results, _ = resampling_on(
                as_executor(executor), D, Resampling(test, "two-sided", samples, seed)
            )
        elif test == "bootstrap":
            from cranfield.comparing.resampling import bootstrap_tests

            results = bootstrap_tests(D, samples=samples, seed=seed)[0]
        else:
            from cranfield.comparing.resampling import randomization_tests

            results = randomization_tests(D, permutations=samples, seed=seed)
        p = np.array([r.p_value for r in results])
    return Discrimination(test, float(alpha), samples, a, b, p)


@dataclass(frozen=True)
class SwapRates:
    """Per bin of ``|difference|`` on the first set (``edges[i]`` to ``edges[i+1]``, the last
    bin open above): ``pairs`` and ``swaps`` over all splits, and the swap ``rate``."""

    subset: int
    trials: int
    edges: np.ndarray
    pairs: np.ndarray
    swaps: np.ndarray

    @property
    def rate(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.pairs > 0, self.swaps / np.maximum(self.pairs, 1), np.nan)

    @property
    def overall(self) -> float:
        total = int(self.pairs.sum())
        return float(self.swaps.sum() / total) if total else math.nan


_ROW_ELEMENTS = 2_000_000


def _subset_means(Y: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The run means over each row of query indices (rows, size) -> (rows, k)."""
    return Y[idx].sum(axis=1) / idx.shape[1]


def swap_rates(
    Y: Any,
    *,
    subset: int | None = None,
    trials: int = 100,
    seed: int | None = 0,
    bin_width: float = 0.01,
    bins: int = 20,
) -> SwapRates:
    """Voorhees & Buckley's swap rates of one measure (see the module docstring); ``subset``
    queries in each of the two sets (default half the queries)."""
    Y = _table(Y)
    n, k = Y.shape
    c = n // 2 if subset is None else int(subset)
    if not 1 <= c <= n // 2:
        raise ParameterError(
            f"two disjoint sets of {c} queries need at least {2 * max(c, 1)} queries; there "
            f"are {n} (the set size must be between 1 and {n // 2})"
        )
    trials = check_count(trials, "trials")
    seed = check_seed(seed)
    if not (bin_width > 0 and math.isfinite(bin_width)):
        raise ParameterError(f"bin_width must be positive, got {bin_width!r}")
    bins = check_count(bins, "bins", maximum=100_000)
    rng = np.random.default_rng(seed)
    a, b = _pairs(k)
    edges = np.arange(bins + 1) * float(bin_width)
    pairs = np.zeros(bins, dtype=np.int64)
    swaps = np.zeros(bins, dtype=np.int64)
    step = max(1, _ROW_ELEMENTS // max(1, n + len(a)))
    for lo in range(0, trials, step):
        rows = min(step, trials - lo)
        order = np.argsort(rng.random((rows, n)), axis=1)
        m1 = _subset_means(Y, order[:, :c])
        m2 = _subset_means(Y, order[:, c : 2 * c])
        d1 = m1[:, b] - m1[:, a]
        d2 = m2[:, b] - m2[:, a]
        which = np.minimum((np.abs(d1) / bin_width).astype(np.int64), bins - 1).ravel()
        pairs += np.bincount(which, minlength=bins)
        swaps += np.bincount(which, weights=(d1 * d2 < 0).ravel(), minlength=bins).astype(np.int64)
    return SwapRates(c, trials, edges, pairs, swaps)


@dataclass(frozen=True)
class Stability:
    """For each subset ``sizes[i]``: the mean and minimum of Kendall's tau_b over the
    subsets."""

    trials: int
    sizes: np.ndarray
    mean_tau: np.ndarray
    min_tau: np.ndarray


def ranking_stability(
    Y: Any, *, sizes: Any = None, trials: int = 100, seed: int | None = 0
) -> Stability:
    """The stability of the ranking of the runs under query subsampling (see the module
    docstring); ``sizes`` default to 10%, 20%, ..., 100% of the queries (at least 2)."""
    from scipy import stats

    Y = _table(Y)
    n, _ = Y.shape
    if sizes is None:
        sizes = sorted({max(2, min(n, round(n * f / 10))) for f in range(1, 11)})
    try:
        size_list = sorted({int(s) for s in sizes})
    except (TypeError, ValueError):
        raise ParameterError(f"sizes must be whole numbers, got {sizes!r}") from None
    if not size_list or size_list[0] < 1 or size_list[-1] > n:
        raise ParameterError(f"subset sizes must be between 1 and {n}, got {sizes!r}")
    trials = check_count(trials, "trials")
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    full = Y.sum(axis=0) / n
    means, mins = [], []
    undefined = 0
    for s in size_list:
        taus = np.empty(trials)
        step = max(1, _ROW_ELEMENTS // max(1, n))
        for lo in range(0, trials, step):
            rows = min(step, trials - lo)
            order = np.argsort(rng.random((rows, n)), axis=1)[:, :s]
            sub = _subset_means(Y, order)
            for r in range(rows):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    taus[lo + r] = stats.kendalltau(full, sub[r]).statistic
        valid = taus[~np.isnan(taus)]
        undefined += trials - len(valid)
        means.append(float(valid.mean()) if len(valid) else math.nan)
        mins.append(float(valid.min()) if len(valid) else math.nan)
    if undefined:
        _warn(
            f"ranking stability: in {undefined} subsets every run has the same mean (or on "
            "all queries), so tau is undefined there (left out; NaN where every subset is)"
        )
    return Stability(trials, np.array(size_list), np.array(means), np.array(mins))


@dataclass(eq=False)
class MetaEvaluation:
    """The meta-evaluation of each measure of a comparison (``cranfield meta``)."""

    runs: tuple[str, ...]
    labels: tuple[str, ...]
    queries: dict[str, int]
    discrimination: dict[str, Discrimination]
    swaps: dict[str, SwapRates]
    stability: dict[str, Stability]
    settings: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        out: dict[str, Any] = {"runs": list(self.runs), "settings": dict(self.settings)}
        measures = {}
        for label in self.labels:
            d, s, st = self.discrimination[label], self.swaps[label], self.stability[label]
            measures[label] = {
                "queries": self.queries[label],
                "discriminative_power": {
                    "test": d.test,
                    "alpha": d.alpha,
                    "samples": d.samples,
                    "significant": d.significant,
                    "pairs": len(d.p),
                    "power": d.power,
                    "asl": [
                        {"a": self.runs[i], "b": self.runs[j], "p": float(p)}
                        for i, j, p in zip(d.a, d.b, d.p, strict=True)
                    ],
                },
                "swap_rate": {
                    "subset": s.subset,
                    "trials": s.trials,
                    "overall": num(s.overall),
                    "bins": [
                        {
                            "low": float(s.edges[i]),
                            "high": float(s.edges[i + 1]) if i + 1 < len(s.pairs) else None,
                            "pairs": int(s.pairs[i]),
                            "swaps": int(s.swaps[i]),
                            "rate": num(float(s.rate[i])),
                        }
                        for i in range(len(s.pairs))
                    ],
                },
                "stability": {
                    "trials": st.trials,
                    "sizes": [
                        {"queries": int(z), "mean_tau": num(m), "min_tau": num(lo)}
                        for z, m, lo in zip(st.sizes, st.mean_tau, st.min_tau, strict=True)
                    ],
                },
            }
        out["measures"] = measures
        return out

    def plot(self, directory: Any, *, formats: Any = ("png",)) -> list[Any]:
        """The ASL curves, swap rates and ranking stability, one chart each (every measure a
        line); needs matplotlib."""
        from cranfield.render.meta_charts import plot_meta

        return plot_meta(self, directory, formats=formats)


def meta_evaluation(
    cmp: Any,
    *,
    test: str = "bootstrap",
    alpha: float | None = None,
    samples: int = 1000,
    seed: int | None = 0,
    subset: int | None = None,
    trials: int = 100,
    bin_width: float = 0.01,
    sizes: Any = None,
    executor: Any = None,
) -> MetaEvaluation:
    """Discriminative power, swap rates and ranking stability of every measure of the
    :class:`~cranfield.comparing.result.Comparison` ``cmp`` (its compared queries)."""
    alpha = cmp.alpha if alpha is None else alpha
    disc, swaps, stab, queries = {}, {}, {}, {}
    for label in cmp.labels:
        Y = cmp.values[label]
        queries[label] = len(Y)
        disc[label] = discriminative_power(
            Y, test=test, alpha=alpha, samples=samples, seed=seed, executor=executor
        )
        swaps[label] = swap_rates(Y, subset=subset, trials=trials, seed=seed, bin_width=bin_width)
        stab[label] = ranking_stability(Y, sizes=sizes, trials=trials, seed=seed)
    settings = {
        "test": test,
        "alpha": alpha,
        "samples": samples,
        "seed": seed,
        "trials": trials,
        "bin_width": bin_width,
    }
    return MetaEvaluation(tuple(cmp.runs), tuple(cmp.labels), queries, disc, swaps, stab, settings)
