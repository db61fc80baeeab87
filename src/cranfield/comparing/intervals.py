"""Intervals of each run's mean over the queries (``evaluate --ci``): Student's t, the
bootstrap percentile interval and the bias-corrected and accelerated (BCa) bootstrap.

For one run's per-query values ``x`` (n queries) at confidence ``c``:

- ``t``: ``mean(x) +- t_{(1+c)/2, n-1} sd(x) / sqrt(n)`` (``scipy.stats.t.interval``; Student
  1908);
- ``bootstrap``: the ``(1-c)/2`` and ``(1+c)/2`` quantiles of the means of B resamples of the
  queries (Efron & Tibshirani 1993, sec. 13.3);
- ``bca``: the quantiles at ``Phi(z0 + (z0 + z_a) / (1 - a (z0 + z_a)))`` with the bias
  correction ``z0 = Phi^-1(share of resampled means below the mean, ties counting half)`` and
  the acceleration ``a`` from the jackknife (Efron & Tibshirani 1993, sec. 14.3; Efron
  1987).

The resamples are those of ``scipy.stats.bootstrap((x,), np.mean, batch=...,
rng=numpy.random.default_rng(seed))``: the indices ``rng.integers(0, n, (batch, n))`` batch
after batch, the means ``x[indices].mean(axis=-1)``, the jackknife means over the values
without each query, the linear quantiles of ``scipy.stats.quantile``, scipy's arithmetic step by
step, so that scipy called with the same seed and batch gives the same interval, bit for bit
(tested; beyond :data:`EXACT_JACKKNIFE_QUERIES` queries the BCa's jackknife takes O(n) work
instead of scipy's O(n^2), and its interval agrees with scipy's to a relative 1e-12).  Every
run's interval draws its resamples from the same seed, so a run's interval
does not depend on the other runs.

Intervals are given for measures averaged by the arithmetic mean; a sum, geometric mean,
median or micro average has none (``None``).  Declared values, each with a warning: fewer
than 2 queries, or a NaN per-query value (an undefined measure whose mean is then NaN), give
an undefined interval (NaN, null in JSON); values that are all equal give ``[mean, mean]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.comparing.checks import check_confidence, check_count, check_seed, floats
from cranfield.comparing.registry import choices
from cranfield.errors import CranfieldWarning, ParameterError, warn

__all__ = ["INTERVALS", "RunIntervals", "joined", "mean_interval", "run_intervals"]

INTERVALS: dict[str, tuple[str, str]] = choices("interval")
"""Interval name -> (title, source), from the declarations."""
SHORT = {"t": "Student-t", "bootstrap": "bootstrap percentile", "bca": "BCa"}
"""The interval's name in a label (``95% BCa CI``)."""
_BATCH_ELEMENTS = 2_000_000


def batch_size(n: int) -> int:
    """Resamples per batch for n queries (a function of n only)."""
    return max(1, _BATCH_ELEMENTS // max(1, n))


def _warn(message: str) -> None:
    warn(CranfieldWarning(message))  # at the user's line, as compare's own warnings


def _bootstrap_means(x: np.ndarray, samples: int, seed: int | None) -> np.ndarray:
    n = len(x)
    rng = np.random.default_rng(seed)
    batch = batch_size(n)
    out = []
    for k in range(0, samples, batch):
        idx = rng.integers(0, n, (min(batch, samples - k), n))
        out.append(np.mean(x[idx], axis=-1))
    return np.concatenate(out)


EXACT_JACKKNIFE_QUERIES = 10_000
"""Up to this many queries the jackknife means are scipy's (each the mean of the n - 1 other
values, O(n^2) work); beyond it ``(sum - x_i) / (n - 1)`` (O(n)), which differs from scipy's in
the last bits only."""


def _jackknife_means(x: np.ndarray) -> np.ndarray:
    """The mean without each value, each over the n - 1 others in their order (beyond
    :data:`EXACT_JACKKNIFE_QUERIES` values, from the total)."""
    n = len(x)
    if n > EXACT_JACKKNIFE_QUERIES:
        return (np.cumsum(x)[-1] - x) / (n - 1)
    batch = batch_size(n)
    out = []
    for k in range(0, n, batch):
        rows = min(batch, n - k)
        keep = np.ones((rows, n), dtype=bool)
        keep[np.arange(rows), np.arange(k, k + rows)] = False
        idx = np.broadcast_to(np.arange(n), (rows, n))[keep].reshape(rows, n - 1)
        out.append(np.mean(x[idx], axis=-1))
    return np.concatenate(out)


def _bca_levels(x: np.ndarray, means: np.ndarray, alpha: float) -> tuple[float, float]:
    """scipy's ``_bca_interval`` for one sample and the mean, operation by operation."""
    from scipy.special import ndtr, ndtri

    theta_hat = np.mean(x)
    share = (np.count_nonzero(means < theta_hat) + np.count_nonzero(means <= theta_hat)) / (
        2 * len(means)
    )
    z0 = ndtri(share)
    jack = _jackknife_means(x)
    n = float(len(jack))
    u = (n - 1) * (np.mean(jack) - jack)
    num = np.sum(u**3) / n**3
    den = np.sum(u**2) / n**2
    a_hat = 1 / 6 * num / den ** (3 / 2)
    z_alpha = float(ndtri(alpha))
    num1 = z0 + z_alpha
    num2 = z0 - z_alpha
    return float(ndtr(z0 + num1 / (1 - a_hat * num1))), float(ndtr(z0 + num2 / (1 - a_hat * num2)))


def mean_interval(
    values: Any,
    method: str = "t",
    *,
    confidence: float = 0.95,
    samples: int = 10_000,
    seed: int | None = 0,
    what: str = "the values",
) -> tuple[float, float]:
    """The interval of the mean of ``values`` by ``method`` (``t``, ``bootstrap``, ``bca``);
    the degenerate cases of the module docstring give their declared values with a warning
    naming ``what``."""
    if method not in INTERVALS:
        raise ParameterError(f"unknown interval {method!r}; choose one of {', '.join(INTERVALS)}")
    confidence = check_confidence(confidence)
    samples = check_count(samples, "samples")
    seed = check_seed(seed)
    x = floats(values, "per-query values")
    if x.ndim != 1:
        raise ParameterError("per-query values must be a flat list")
    n = len(x)
    if np.isnan(x).any():
        _warn(
            f"{what}: {int(np.isnan(x).sum())} queries are undefined (NaN), so the mean and "
            "its interval are undefined (NaN)"
        )
        return (math.nan, math.nan)
    if n < 2:
        _warn(f"{what}: an interval needs at least 2 queries, got {n}; it is undefined (NaN)")
        return (math.nan, math.nan)
    if not np.isfinite(x).all():
        raise ParameterError(f"{what}: per-query values must be finite")
    lo_all, hi_all = float(x.min()), float(x.max())
    if lo_all == hi_all:
        _warn(f"{what}: every query has the same value, so the interval is [mean, mean]")
        return (lo_all, lo_all)
    if method == "t":
        from cranfield.comparing.paired import mean_cis

        return mean_cis(x[:, None], confidence)[0]
    means = _bootstrap_means(x, samples, seed)
    alpha = (1.0 - confidence) / 2.0
    if method == "bootstrap":
        levels = np.asarray([alpha, 1 - alpha])
    else:
        levels = np.asarray(_bca_levels(x, means, alpha))
        if np.isnan(levels).any():  # the jackknife means are all equal (a = 0/0)
            _warn(f"{what}: the BCa levels are undefined; the percentile interval is given")
            levels = np.asarray([alpha, 1 - alpha])
    lo, hi = _quantiles(np.sort(means), levels)
    return (float(lo), float(hi))


def _quantiles(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The linear (Hyndman & Fan type 7) quantiles of the sorted ``y``, by the arithmetic of
    ``scipy.stats.quantile``: ``j + g = p n + 1 - p``, ``(1 - g) y_j + g y_(j+1)``."""
    n = len(y)
    jg = p * n + (1 - p)
    j = jg // 1 - 1
    g = jg % 1
    g[j < 0] = 0
    lo = np.clip(j, 0.0, n - 1).astype(np.int64)
    hi = np.clip(j + 1, 0.0, n - 1).astype(np.int64)
    return (1 - g) * y[lo] + g * y[hi]


@dataclass(frozen=True)
class RunIntervals:
    """The interval of every run's mean of every measure: ``values[run][label]`` is
    ``(low, high)``, or ``None`` for a measure not averaged by the arithmetic mean."""

    method: str
    confidence: float
    samples: int
    seed: int | None
    values: dict[str, dict[str, tuple[float, float] | None]]

    def get(self, run: str, label: str) -> tuple[float, float] | None:
        return self.values.get(run, {}).get(label)

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, "confidence": self.confidence}
        if self.method != "t":
            out.update(samples=self.samples, seed=self.seed)
        return out

    def tag(self) -> str:
        """The short label of the intervals: ``95% BCa CI``."""
        return f"{100 * self.confidence:g}% {SHORT[self.method]} CI"

    def describe(self) -> str:
        """A sentence naming the method, the confidence and, for the bootstrap, the resamples
        and the seed: ``the 95% BCa interval (bias-corrected ...; 10,000 resamples, seed 0)``."""
        text = f"the {100 * self.confidence:g}% {INTERVALS[self.method][0]}"
        if self.method != "t":
            text += f" ({self.samples:,} resamples, seed {self.seed})"
        return text

    def of_run(self, run: str) -> RunIntervals:
        """These intervals restricted to ``run``."""
        from dataclasses import replace

        return replace(self, values={run: dict(self.values.get(run, {}))})


def joined(runs: Iterable[Any]) -> RunIntervals | None:
    """The intervals the evaluated ``runs`` carry (``evaluate(..., ci=...)``) as one
    :class:`RunIntervals`, or ``None`` when none carries any."""
    parts = [r.intervals for r in runs if r.intervals is not None]
    if not parts:
        return None
    values = {run: row for p in parts for run, row in p.values.items()}
    first = parts[0]
    return RunIntervals(first.method, first.confidence, first.samples, first.seed, values)


def run_intervals(
    results: Iterable[Any],
    method: str = "t",
    *,
    confidence: float = 0.95,
    samples: int = 10_000,
    seed: int | None = 0,
) -> RunIntervals:
    """The interval of every run's mean of every measure averaged by the arithmetic mean
    (``evaluate --ci``); the others get ``None``."""
    if method not in INTERVALS:
        raise ParameterError(f"unknown interval {method!r}; choose one of {', '.join(INTERVALS)}")
    confidence = check_confidence(confidence)
    samples = check_count(samples, "samples")
    seed = check_seed(seed)
    out: dict[str, dict[str, tuple[float, float] | None]] = {}
    for r in results:
        row: dict[str, tuple[float, float] | None] = {}
        for j, label in enumerate(r.labels):
            if r.aggregation_of(label) != "mean":
                row[label] = None
                continue
            row[label] = mean_interval(
                r.values[:, j],
                method,
                confidence=confidence,
                samples=samples,
                seed=seed,
                what=f"{r.run}, {label}",
            )
        out[r.run] = row
    return RunIntervals(method, confidence, samples, seed, out)
