"""Tukey's honestly significant difference test across many runs.

Runs and queries form a randomized block design (every run answers every query), so the error
term comes from a two-way ANOVA without replication, as in Carterette (TOIS 30(1), 2012) and
Sakai's IR statistics: with ``Y`` the queries x runs table, run means ``r_j``, query means
``q_i`` and grand mean ``m``,

    MSE = sum_ij (Y_ij - r_j - q_i + m)^2 / ((n - 1)(k - 1))
    q_jl = |r_j - r_l| / sqrt(MSE / n),   p_jl = P(Q_{k, (n-1)(k-1)} >= q_jl)

where ``Q`` is the studentized range distribution (``scipy.stats.studentized_range``).  All
``k(k-1)/2`` pairs form one family whose error rate the test controls, so no further
correction applies.  With two runs it is the paired t-test (``q = sqrt(2) |t|``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ParameterError

__all__ = ["TukeyResult", "tukey_hsd"]


@dataclass(frozen=True)
class TukeyResult:
    """``q[j, l]`` and ``p[j, l]`` for runs j, l (symmetric, diagonal q = 0, p = 1)."""

    means: np.ndarray
    mse: float
    df: int
    q: np.ndarray
    p: np.ndarray


def tukey_hsd(Y: np.ndarray) -> TukeyResult:
    """Tukey's HSD for the runs (columns) of ``Y`` (queries x runs)."""
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim != 2:
        raise ParameterError("Tukey's HSD needs a queries x runs table")
    n, k = Y.shape
    if k < 2:
        raise ParameterError(f"Tukey's HSD needs at least 2 runs, got {k}")
    if n < 2:
        raise ParameterError(f"Tukey's HSD needs at least 2 queries, got {n}")
    run_means = Y.mean(axis=0)
    query_means = Y.mean(axis=1)
    grand = Y.mean()
    resid = Y - run_means[None, :] - query_means[:, None] + grand
    df = (n - 1) * (k - 1)
    mse = float((resid * resid).sum()) / df
    diff = np.abs(run_means[:, None] - run_means[None, :])
    scale = np.maximum(1.0, np.abs(Y).max())
    diff[diff <= 1e-12 * scale] = 0.0
    q = np.zeros((k, k))
    p = np.ones((k, k))
    if mse <= (1e-12 * scale) ** 2:
        # no residual variation: every difference is exact
        q = np.where(diff > 0, np.inf, 0.0)
        p = np.where(diff > 0, 0.0, 1.0)
    else:
        from scipy import stats

        q = diff / math.sqrt(mse / n)
        upper = np.triu_indices(k, 1)
        pu = stats.studentized_range.sf(q[upper], k, df)
        p[upper] = np.clip(pu, 0.0, 1.0)
        p[(upper[1], upper[0])] = p[upper]
    return TukeyResult(means=run_means, mse=mse, df=df, q=q, p=p)
