"""Random-effects meta-analysis of one system's effect over a baseline across collections.

Each collection i gives an effect ``y_i`` and its variance ``v_i`` from the per-query paired
differences ``d = system - baseline`` (:func:`paired_effect`):

- ``difference``: the mean difference, ``y = mean(d)``, ``v = s_d^2 / n`` (``s_d`` the sample
  standard deviation of the ``n`` differences);
- ``standardized``: Hedges' g of the paired differences, ``y = J * mean(d) / s_d`` with
  ``J = 1 - 3 / (4 (n - 1) - 1)`` (Hedges' small-sample correction, as in Borenstein, Hedges,
  Higgins and Rothstein, *Introduction to Meta-Analysis*, 2009, ch. 4) and
  ``v = J^2 (1/n + (mean(d)/s_d)^2 / (2 n))``: the large-sample variance of a standardized
  mean of ``n`` values (``mean/s`` is a noncentral t over ``sqrt(n)``; the one-sample form of
  Hedges and Olkin's two-sample ``1/n1 + 1/n2 + d^2 / (2 (n1 + n2))``).

The collections are pooled as DerSimonian and Laird, "Meta-analysis in clinical trials"
(Controlled Clinical Trials 7, 1986), section 3, as Soboroff, "Meta-Analysis for Retrieval
Experiments Involving Multiple Test Collections" (CIKM 2018) applies it to retrieval::

    w_i = 1 / v_i                        fixed-effect weights
    Q   = sum w_i (y_i - sum w y / sum w)^2            Cochran's Q, k - 1 degrees of freedom
    tau^2 = max(0, (Q - (k - 1)) / (sum w - sum w^2 / sum w))
    w*_i = 1 / (v_i + tau^2)
    pooled = sum w* y / sum w*,   se = sqrt(1 / sum w*)
    CI = pooled -/+ z_{1 - alpha/2} se,  z = pooled / se, two-sided p from the normal
    I^2 = max(0, (Q - (k - 1)) / Q)      (Higgins and Thompson 2002; 0 when Q = 0)

The tests check every figure against statsmodels' ``combine_effects(method_re="dl")``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.errors import ParameterError

__all__ = ["EFFECTS", "MetaAnalysis", "paired_effect", "random_effects"]

EFFECTS = ("difference", "standardized")


@dataclass(frozen=True)
class MetaAnalysis:
    """The DerSimonian-Laird random-effects pooling of ``k`` effects (see the module doc)."""

    effects: tuple[float, ...]
    variances: tuple[float, ...]
    weights: tuple[float, ...]
    """The random-effects weights ``w*_i``, as shares of their sum."""
    pooled: float
    se: float
    ci_low: float
    ci_high: float
    z: float
    p_value: float
    tau2: float
    q: float
    q_df: int
    q_p_value: float
    i2: float
    fixed: float
    """The fixed-effect (inverse-variance) pooled effect."""
    alpha: float

    def to_dict(self) -> dict[str, float | int | list[float] | None]:
        """The figures by name; an undefined one (``q_p_value`` of one collection) is
        ``None``, so that the JSON is valid."""

        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "pooled": num(self.pooled),
            "se": num(self.se),
            "ci_low": num(self.ci_low),
            "ci_high": num(self.ci_high),
            "z": num(self.z),
            "p_value": num(self.p_value),
            "tau2": num(self.tau2),
            "q": num(self.q),
            "q_df": self.q_df,
            "q_p_value": num(self.q_p_value),
            "i2": num(self.i2),
            "fixed": num(self.fixed),
            "weights": list(self.weights),
        }


def paired_effect(
    baseline: Sequence[float] | np.ndarray,
    system: Sequence[float] | np.ndarray,
    effect: str = "difference",
) -> tuple[float, float]:
    """``(y, v)``: the effect of ``system`` over ``baseline`` on one collection and its
    variance, from the per-query values (paired by position).  Raises ParameterError when the
    variance is undefined or zero: fewer than two queries, or every difference equal (the
    weight ``1/v`` would be infinite)."""
    from cranfield.comparing.differences import differences

    if effect not in EFFECTS:
        raise ParameterError(f"unknown effect {effect!r}; choose one of {', '.join(EFFECTS)}")
    d = differences(baseline, system)
    n = d.size
    if d.ndim != 1 or n < 2:
        raise ParameterError(f"an effect's variance needs at least 2 queries, got {n}")
    mean = math.fsum(d) / n
    s2 = math.fsum((d - mean) ** 2) / (n - 1)
    if not s2 > 0:
        raise ParameterError(
            "every per-query difference is the same, so the effect's variance is 0"
        )
    if effect == "difference":
        return mean, s2 / n
    if n < 3:
        raise ParameterError(f"a standardized effect needs at least 3 queries, got {n}")
    dz = mean / math.sqrt(s2)
    j = 1.0 - 3.0 / (4.0 * (n - 1) - 1.0)
    return j * dz, j * j * (1.0 / n + dz * dz / (2.0 * n))


def random_effects(
    effects: Sequence[float] | np.ndarray,
    variances: Sequence[float] | np.ndarray,
    *,
    alpha: float = 0.05,
) -> MetaAnalysis:
    """DerSimonian-Laird random-effects pooling of ``effects`` with ``variances`` (one per
    collection, each finite and positive) at confidence ``1 - alpha``."""
    from scipy import stats

    y = np.asarray(effects, dtype=float)
    v = np.asarray(variances, dtype=float)
    if y.ndim != 1 or y.shape != v.shape or y.size == 0:
        raise ParameterError("give one effect and one variance per collection, at least one")
    if not (np.isfinite(y).all() and np.isfinite(v).all() and (v > 0).all()):
        raise ParameterError("effects must be finite and variances finite and positive")
    if not 0 < alpha < 1:
        raise ParameterError(f"alpha must lie between 0 and 1, got {alpha!r}")
    k = y.size
    w = 1.0 / v
    sw = math.fsum(w)
    fixed = math.fsum(w * y) / sw
    q = math.fsum(w * (y - fixed) ** 2)
    df = k - 1
    c = sw - math.fsum(w * w) / sw
    tau2 = max(0.0, (q - df) / c) if c > 0 else 0.0
    ws = 1.0 / (v + tau2)
    sws = math.fsum(ws)
    pooled = math.fsum(ws * y) / sws
    se = math.sqrt(1.0 / sws)
    zcrit = float(stats.norm.ppf(1.0 - alpha / 2.0))
    z = pooled / se
    p = float(2.0 * stats.norm.sf(abs(z)))
    q_p = float(stats.chi2.sf(q, df)) if df > 0 else math.nan
    i2 = max(0.0, (q - df) / q) if q > 0 else 0.0
    return MetaAnalysis(
        effects=tuple(float(x) for x in y),
        variances=tuple(float(x) for x in v),
        weights=tuple(float(x) for x in ws / sws),
        pooled=pooled,
        se=se,
        ci_low=pooled - zcrit * se,
        ci_high=pooled + zcrit * se,
        z=z,
        p_value=p,
        tau2=tau2,
        q=q,
        q_df=df,
        q_p_value=q_p,
        i2=i2,
        fixed=fixed,
        alpha=alpha,
    )
