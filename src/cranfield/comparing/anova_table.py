"""One-way and two-way ANOVA of a queries x runs table, with Sakai's margins of error and
standardised effect sizes.

With ``x_ij`` the value of run i on query j (m runs, n queries), run means ``x_i.``, query
means ``x_.j`` and grand mean ``x``, Sakai (*Laboratory Experiments in Information
Retrieval*, Springer 2018, ch. 3; the two-way table is his Table 5.1 example):

- **two-way without replication** (runs x queries, every run answers every query):
  ``S_A = n sum_i (x_i. - x)^2`` (runs, m - 1 df), ``S_B = m sum_j (x_.j - x)^2`` (queries,
  n - 1 df), ``S_E = sum_ij (x_ij - x_i. - x_.j + x)^2`` (residual, ``phi_E = (m-1)(n-1)``
  df); ``V = S / df``, ``F_A = V_A / V_E``, ``F_B = V_B / V_E``, p from the F distribution;
- **one-way** (queries ignored, each run a group of n values): ``S_A`` as above,
  ``S_E = sum_ij (x_ij - x_i.)^2`` with ``phi_E = m (n - 1)`` df;
- **margin of error** of every run's mean (Sakai 2018; the worked example of Sakai's 2015
  book, Table 5.1, has MOE 0.0670): ``MOE = t(alpha/2; phi_E) sqrt(V_E / n)``, the half
  width of the interval ``x_i. +- MOE``, the same for every run;
- **standardised effect size** of a pair: ``ES_E = (x_a. - x_b.) / sqrt(V_E)``.

Values equal statsmodels' ``anova_lm(ols("y ~ C(run) + C(query)"))`` (and ``"y ~ C(run)"``
for one-way) on the long table (tested).  The table is rescaled by a power of two first
(exact), and the residuals are computed from per-query centred values, as in
:mod:`.tukey`, which takes its error term from here.

Degenerate input gives declared values and a :class:`~cranfield.errors.CranfieldWarning`:
no residual degrees of freedom (one query) leaves F, p, V_E, MOE and the effect sizes
undefined (NaN, null in JSON); no residual variation (``sqrt(V_E) <= 1e-12`` of the largest
value) gives F = inf and p = 0 for a factor that varies, F = 0 and p = 1 for one that does
not, MOE = 0 and effect sizes of +-inf (0 for equal means).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.comparing.checks import check_alpha, finite, floats, unit_exponents
from cranfield.errors import CranfieldWarning, ParameterError

__all__ = ["DESIGNS", "Anova", "AnovaRow", "anova", "two_way_residuals"]

DESIGNS = ("two-way", "one-way")
_TINY = 1e-12


@dataclass(frozen=True)
class AnovaRow:
    """One line of the table: source (``runs``, ``queries``, ``residual``, ``total``), sum of
    squares, degrees of freedom, mean square, F and p (NaN where there is none)."""

    source: str
    ss: float
    df: int
    ms: float
    f: float
    p: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ss": _num(self.ss),
            "df": self.df,
            "ms": _num(self.ms),
            "f": _num(self.f),
            "p": _num(self.p),
        }


@dataclass(frozen=True, eq=False)
class Anova:
    """The ANOVA of one measure: the table, the runs' means, V_E with its degrees of freedom,
    the margin of error at ``alpha`` and the effect size of every pair (``effect[a, b] =
    (mean_a - mean_b) / sqrt(V_E)``)."""

    design: str
    runs: tuple[str, ...]
    queries: int
    means: tuple[float, ...]
    rows: tuple[AnovaRow, ...]
    residual_variance: float
    residual_df: int
    alpha: float
    moe: float
    effect: np.ndarray

    def row(self, source: str) -> AnovaRow:
        for r in self.rows:
            if r.source == source:
                return r
        raise ParameterError(f"no {source!r} row in a {self.design} ANOVA")

    def interval(self, run: str) -> tuple[float, float]:
        """``mean +- MOE`` of one run."""
        m = self.means[self.runs.index(run)]
        return (m - self.moe, m + self.moe)

    def effect_size(self, a: str, b: str) -> float:
        return float(self.effect[self.runs.index(a), self.runs.index(b)])

    def to_dict(self) -> dict[str, Any]:
        return {
            "design": self.design,
            "queries": self.queries,
            "alpha": self.alpha,
            "table": [r.to_dict() for r in self.rows],
            "residual_variance": _num(self.residual_variance),
            "residual_df": self.residual_df,
            "moe": _num(self.moe),
            "runs": [
                {
                    "run": r,
                    "mean": _num(m),
                    "ci": [_num(m - self.moe), _num(m + self.moe)],
                }
                for r, m in zip(self.runs, self.means, strict=True)
            ],
            "effect_sizes": [
                {"a": a, "b": b, "effect_size": _num(self.effect_size(a, b))}
                for i, a in enumerate(self.runs)
                for b in self.runs[i + 1 :]
            ],
        }


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def two_way_residuals(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Run effects ``x_i. - x`` and residuals ``x_ij - x_i. - x_.j + x`` of a (scaled)
    queries x runs table, from per-query centred values: the run effects are then means of
    small numbers, and differences of close run means lose no digits."""
    centred = S - S.mean(axis=1)[:, None]
    effects = centred.mean(axis=0)
    return effects, centred - effects[None, :]


def _warn(message: str) -> None:
    from cranfield.comparing.build import _warn as warn_outside

    warn_outside(CranfieldWarning(message))


def anova(Y: Any, *, runs: Any = None, design: str = "two-way", alpha: float = 0.05) -> Anova:
    """The ANOVA of the queries x runs table ``Y`` (see the module docstring); ``runs``
    names the columns (default ``run1``, ``run2``, ...); ``alpha`` sets the margin of error's
    confidence, 1 - alpha."""
    if design not in DESIGNS:
        raise ParameterError(f"unknown design {design!r}; choose one of {', '.join(DESIGNS)}")
    alpha = check_alpha(alpha)
    Y = floats(Y, "the queries x runs table")
    if Y.ndim != 2:
        raise ParameterError("ANOVA needs a queries x runs table")
    n, m = Y.shape
    if m < 2:
        raise ParameterError(f"ANOVA needs at least 2 runs, got {m}")
    if n < 1:
        raise ParameterError("ANOVA needs at least 1 query")
    finite(Y, "the per-query values")
    names = tuple(f"run{j + 1}" for j in range(m)) if runs is None else tuple(map(str, runs))
    if len(names) != m:
        raise ParameterError(f"{len(names)} run names for {m} runs")
    top = float(np.abs(Y).max())
    e = int(unit_exponents(top))
    S = np.ldexp(Y, -e)
    with np.errstate(over="ignore"):
        scale = max(float(np.ldexp(1.0, -e)), float(np.abs(S).max()))
    means = S.mean(axis=0)
    grand = S.mean()
    effects, resid = two_way_residuals(S)
    ss_runs = n * float((effects * effects).sum())
    ss_total = float(((S - grand) ** 2).sum())
    rows: list[tuple[str, float, int]] = [("runs", ss_runs, m - 1)]
    if design == "two-way":
        q = S.mean(axis=1) - grand
        rows.append(("queries", m * float((q * q).sum()), n - 1))
        ss_e, df_e = float((resid * resid).sum()), (m - 1) * (n - 1)
    else:
        w = S - means[None, :]
        ss_e, df_e = float((w * w).sum()), m * (n - 1)
    from scipy import stats

    out: list[AnovaRow] = []
    if df_e == 0:
        _warn(
            "ANOVA: one query leaves no residual degrees of freedom; F, p, V_E, the margin "
            "of error and the effect sizes are undefined (NaN)"
        )
        v_e = math.nan
    else:
        v_e = ss_e / df_e
    flat = df_e > 0 and math.sqrt(v_e) <= _TINY * scale
    if flat:
        _warn(
            "ANOVA: no residual variation (V_E = 0): a factor that varies has F = inf and "
            "p = 0, one that does not F = 0 and p = 1; the margin of error is 0"
        )
    for source, ss, df in rows:
        ms = ss / df if df else math.nan
        if df_e == 0 or df == 0:
            f = p = math.nan
        elif flat:
            varies = math.sqrt(max(ms, 0.0)) > _TINY * scale
            f, p = (math.inf, 0.0) if varies else (0.0, 1.0)
        else:
            f = ms / v_e
            p = float(min(1.0, max(0.0, stats.f.sf(f, df, df_e))))
        out.append(AnovaRow(source, ss, df, ms, f, p))
    out.append(AnovaRow("residual", ss_e, df_e, v_e, math.nan, math.nan))
    out.append(AnovaRow("total", ss_total, n * m - 1, math.nan, math.nan, math.nan))
    diff = effects[:, None] - effects[None, :]
    diff[np.abs(diff) <= _TINY * scale] = 0.0
    if df_e == 0:
        effect = np.full((m, m), math.nan)
        moe = math.nan
    elif flat:
        effect = np.where(diff == 0, 0.0, np.copysign(math.inf, diff))
        moe = 0.0
        v_e = 0.0
    else:
        effect = diff / math.sqrt(v_e)
        moe = float(stats.t.ppf(1.0 - alpha / 2.0, df_e)) * math.sqrt(v_e / n)
    with np.errstate(over="ignore"):
        table = tuple(
            AnovaRow(
                r.source,
                float(np.ldexp(r.ss, 2 * e)),
                r.df,
                float(np.ldexp(r.ms, 2 * e)),
                r.f,
                r.p,
            )
            for r in out
        )
        return Anova(
            design=design,
            runs=names,
            queries=n,
            means=tuple(float(x) for x in np.ldexp(means, e)),
            rows=table,
            residual_variance=float(np.ldexp(v_e, 2 * e)),
            residual_df=df_e,
            alpha=alpha,
            moe=float(np.ldexp(moe, e)),
            effect=effect,
        )
