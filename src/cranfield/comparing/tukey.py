"""Tukey's honestly significant difference test across many runs.

Runs and queries form a randomized block design (every run answers every query), so the error
term comes from a two-way ANOVA without replication, as in Carterette (TOIS 30(1), 2012) and
Sakai's IR statistics: with ``Y`` the queries x runs table, run means ``r_j``, query means
``q_i`` and grand mean ``m``,

    MSE = sum_ij (Y_ij - r_j - q_i + m)^2 / ((n - 1)(k - 1))
    q_jl = |r_j - r_l| / sqrt(MSE / n),   p_jl = P(Q_{k, (n-1)(k-1)} >= q_jl)

where ``Q`` is the studentized range distribution.  All
``k(k-1)/2`` pairs form one family whose error rate the test controls, so no further
correction applies.  With two runs it is the paired t-test (``q = sqrt(2) |t|``), and the
p-value is computed as such: ``P(Q_{2,df} >= q) = P(|T_df| >= q / sqrt(2))``.

``scipy.stats.studentized_range.sf`` integrates numerically per value (about 20 ms each), far
too slow for the thousand pairs of 48 runs, and from df = 100,000 on it switches to the
infinite-df limit (relative error 1e-3 in the tail at df = 400,000), so for k > 2
:func:`studentized_range_sf` evaluates the double integral itself, vectorised over all pairs
and accurate at any df (the tests check it against scipy where scipy is exact, against
Student's t through k = 2 quadrature, and against a one-dimensional integral at df = inf).

The table is rescaled by a power of two before the sums (exact; ``checks.py``), so values up to
1e308 give the same q and p as moderate ones; NaN and infinity are refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cranfield.comparing.anova_table import two_way_residuals
from cranfield.comparing.checks import finite, floats, unit_exponents
from cranfield.errors import ParameterError

__all__ = ["TukeyResult", "studentized_range_sf", "tukey_hsd"]


def _scale_nodes(df: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights for the distribution of ``s = sqrt(chi2_df / df)``: the trapezoid
    rule in ``x = log s`` (exponentially convergent for this smooth, fast-decaying density),
    over the range where the density exceeds e^-45 of its peak."""
    if math.isinf(df):
        return np.ones(1), np.ones(1)
    from scipy import optimize

    def g(x: float) -> float:  # log density of x = log s, relative to its peak at 0
        return df * (x - math.expm1(2 * x) / 2)

    lo = optimize.brentq(lambda x: g(x) + 45.0, -200.0, 0.0)
    hi = optimize.brentq(lambda x: g(x) + 45.0, 0.0, 50.0)
    h = min(0.04, 0.25 / math.sqrt(df))
    x = np.linspace(lo, hi, math.ceil((hi - lo) / h) + 1)
    w = np.exp(df * (x - np.expm1(2 * x) / 2))
    return np.exp(x), w / w.sum()


def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    """``P(Q_{k,df} >= q)`` for an array of ``q`` (1 for q <= 0).

    ``P(Q >= q) = E_s[1 - F_R(q s)]`` with ``s = sqrt(chi2_df/df)`` and the range of ``k``
    standard normals ``1 - F_R(w) = k int phi(z) ((1-Phi(z))^(k-1) - (Phi(z+w)-Phi(z))^(k-1))
    dz`` (Gauss-Legendre on [-8.5, 8.5]).  For k = 2, ``2 P(T_df >= q / sqrt(2))`` exactly.
    """
    q = np.atleast_1d(floats(q, "studentized range values"))
    if np.isnan(q).any():
        raise ParameterError("studentized range values must not be NaN")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 2:
        raise ParameterError(f"the studentized range needs k >= 2 groups, got {k!r}")
    try:
        df = float(df)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"degrees of freedom must be a number, got {df!r}") from None
    if not df > 0:
        raise ParameterError(f"degrees of freedom must be > 0, got {df!r}")
    q = np.maximum(q, 0.0)
    if k == 2:
        from scipy import stats

        return np.clip(2.0 * stats.t.sf(q / math.sqrt(2.0), df), 0.0, 1.0)
    return _quadrature_sf(q, int(k), df)


def _quadrature_sf(q: np.ndarray, k: int, df: float) -> np.ndarray:
    """The double integral of :func:`studentized_range_sf` for ``q >= 0`` (any k >= 2)."""
    from scipy import special

    s, ws = _scale_nodes(df)
    xz, wz = np.polynomial.legendre.leggauss(120)
    z = 8.5 * xz
    phiw = np.exp(-z * z / 2) / math.sqrt(2 * math.pi) * (8.5 * wz)
    a = special.ndtr(-z)
    ak = a ** (k - 1)
    out = np.empty(len(q))
    step = max(1, 2_000_000 // (len(s) * len(z)))
    for i in range(0, len(q), step):
        w = q[i : i + step, None] * s[None, :]
        b = special.ndtr(-(z[None, None, :] + w[:, :, None]))
        out[i : i + step] = k * (((ak - (a - b) ** (k - 1)) @ phiw) @ ws)
    return np.clip(out, 0.0, 1.0)


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
    Y = floats(Y, "Tukey's HSD table")
    if Y.ndim != 2:
        raise ParameterError("Tukey's HSD needs a queries x runs table")
    n, k = Y.shape
    if k < 2:
        raise ParameterError(f"Tukey's HSD needs at least 2 runs, got {k}")
    if n < 2:
        raise ParameterError(f"Tukey's HSD needs at least 2 queries, got {n}")
    finite(Y, "Tukey's HSD values")
    top = float(np.abs(Y).max())
    e = int(unit_exponents(top))
    S = np.ldexp(Y, -e)  # exact; q and p are invariant under scaling
    run_means = S.mean(axis=0)
    # centred per query first (the ANOVA's residuals): r_j - r_l loses no digits
    effects, resid = two_way_residuals(S)
    df = (n - 1) * (k - 1)
    mse = float((resid * resid).sum()) / df
    diff = np.abs(effects[:, None] - effects[None, :])
    # differences within 1e-12 * max(1, max |Y|) are ties (in the scaled units)
    with np.errstate(over="ignore"):
        scale = max(float(np.ldexp(1.0, -e)), float(np.abs(S).max()))
    diff[diff <= 1e-12 * scale] = 0.0
    q = np.zeros((k, k))
    p = np.ones((k, k))
    if math.sqrt(mse) <= 1e-12 * scale:
        # no residual variation: every difference is exact
        q = np.where(diff > 0, np.inf, 0.0)
        p = np.where(diff > 0, 0.0, 1.0)
    else:
        q = diff / math.sqrt(mse / n)
        upper = np.triu_indices(k, 1)
        p[upper] = studentized_range_sf(q[upper], k, df)
        p[(upper[1], upper[0])] = p[upper]
    with np.errstate(over="ignore"):
        means = np.ldexp(run_means, e)
        mse_raw = float(np.ldexp(mse, 2 * e))  # infinite when beyond the float64 range
    return TukeyResult(means=means, mse=mse_raw, df=df, q=q, p=p)
