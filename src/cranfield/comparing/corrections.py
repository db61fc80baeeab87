"""Multiple-comparison corrections: adjusted p-values for a family of tests.

A hypothesis is rejected at level alpha when its *adjusted* p-value is below alpha.  Every
correction of ``statsmodels.stats.multitest.multipletests`` that adjusts p-values is here, with
its arithmetic (the same operations in the same order, so the same bits), declared in
:mod:`cranfield.comparing.registry` (formula, source, what it controls):

- family-wise error (FWER): ``bonferroni``, ``holm``, ``sidak``, ``holm-sidak``,
  ``hochberg`` (Simes-Hochberg), ``hommel``; and, from the per-query values rather than the
  p-values, Westfall & Young's permutation ``maxt`` and ``minp``
  (:mod:`cranfield.comparing.westfall_young`);
- false discovery rate (FDR): ``bh``, ``by`` (Benjamini-Yekutieli), ``tsbh`` and ``tsbky``
  (two-stage, adaptive: their adjusted p-values hold at the given alpha only), ``gbs``.

Ties get equal adjusted p-values whatever their order; p = 0 and p = 1 are valid inputs.  NaN
p-values are refused (``nan_policy="raise"``), or left out of the family with
``nan_policy="omit"``: the others are adjusted as a family of their number and the NaN stay
NaN (R's ``p.adjust`` rule).  statsmodels' ``lfdr`` is a local FDR estimate from a fitted
density, not an adjusted p-value, and is not offered.
"""

from __future__ import annotations

import numpy as np

from cranfield.comparing.checks import check_alpha, floats
from cranfield.comparing.registry import aliases, choices
from cranfield.errors import ParameterError

__all__ = ["CORRECTIONS", "PERMUTATION_CORRECTIONS", "adjust", "canonical"]

CORRECTIONS: dict[str, tuple[str, str]] = choices("correction")
"""Correction name -> (title, source), from the declarations."""
PERMUTATION_CORRECTIONS = ("maxt", "minp")
"""Corrections computed from the per-query values (Westfall & Young), not from p-values."""
_ALIASES = aliases("correction")
NAN_POLICIES = ("raise", "omit")


def canonical(method: str | None) -> str:
    """The canonical name of a correction (``None`` means ``none``)."""
    if method is None:
        return "none"
    if not isinstance(method, str):
        raise ParameterError(
            f"unknown correction {method!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    m = _ALIASES.get(method.lower(), method.lower())
    if m not in CORRECTIONS:
        raise ParameterError(
            f"unknown correction {method!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    return m


def adjust(
    p_values, method: str | None = "holm", *, alpha: float = 0.05, nan_policy: str = "raise"
) -> np.ndarray:
    """Adjusted p-values, in the input order.

    ``alpha`` matters for the two-stage corrections (``tsbh``, ``tsbky``) only, whose first
    stage rejects at alpha.  ``nan_policy``: ``raise`` (a NaN p-value is an error) or
    ``omit`` (NaN left out of the family and returned as NaN)."""
    method = canonical(method)
    if method in PERMUTATION_CORRECTIONS:
        raise ParameterError(
            f"the {method} correction permutes the per-query values, not the p-values: use "
            f"compare(..., correction={method!r}) or cranfield.comparing.westfall_young"
        )
    if nan_policy not in NAN_POLICIES:
        raise ParameterError(
            f"unknown nan_policy {nan_policy!r}; choose one of {', '.join(NAN_POLICIES)}"
        )
    alpha = check_alpha(alpha)
    p = floats(p_values, "p-values")
    if p.ndim != 1:
        raise ParameterError("p-values must be a flat list")
    nan = np.isnan(p)
    if nan.any():
        if nan_policy == "raise":
            raise ParameterError(
                f"p-values must lie in [0, 1]; position {int(np.argmax(nan))} is NaN "
                "(nan_policy='omit' leaves NaN out of the family)"
            )
        out = np.full(len(p), np.nan)
        out[~nan] = adjust(p[~nan], method, alpha=alpha)
        return out
    if (p < 0).any() or (p > 1).any():
        raise ParameterError("p-values must lie in [0, 1]")
    m = len(p)
    if m == 0 or method == "none":
        return p.copy()
    order = np.argsort(p, kind="stable")
    s = p[order]
    with np.errstate(divide="ignore", invalid="ignore"):
        adj = _SORTED[method](s, alpha)
    adj[adj > 1] = 1.0
    out = np.empty(m)
    out[order] = adj
    return out


# Each takes the sorted p-values (ascending) and returns their adjusted values, by the
# operations of statsmodels.stats.multitest (0.14/0.15), capped at 1 by the caller.


def _bonferroni(s: np.ndarray, alpha: float) -> np.ndarray:
    return s * float(len(s))


def _sidak(s: np.ndarray, alpha: float) -> np.ndarray:
    return -np.expm1(len(s) * np.log1p(-s))


def _holm(s: np.ndarray, alpha: float) -> np.ndarray:
    return np.maximum.accumulate(s * np.arange(len(s), 0, -1))


def _holm_sidak(s: np.ndarray, alpha: float) -> np.ndarray:
    return np.maximum.accumulate(-np.expm1(np.arange(len(s), 0, -1) * np.log1p(-s)))


def _hochberg(s: np.ndarray, alpha: float) -> np.ndarray:
    raw = np.arange(len(s), 0, -1) * s
    return np.minimum.accumulate(raw[::-1])[::-1]


def _hommel(s: np.ndarray, alpha: float) -> np.ndarray:
    a = s.copy()
    n = len(s)
    for m in range(n, 1, -1):
        cim = np.min(m * s[-m:] / np.arange(1, m + 1.0))
        a[-m:] = np.maximum(a[-m:], cim)
        a[:-m] = np.maximum(a[:-m], np.minimum(m * s[:-m], cim))
    return a


def _step_up(s: np.ndarray, factor: np.ndarray) -> np.ndarray:
    raw = s / factor
    return np.minimum.accumulate(raw[::-1])[::-1]


def _ecdf(n: int) -> np.ndarray:
    return np.arange(1, n + 1) / float(n)


def _bh(s: np.ndarray, alpha: float) -> np.ndarray:
    return _step_up(s, _ecdf(len(s)))


def _by(s: np.ndarray, alpha: float) -> np.ndarray:
    cm = np.sum(1.0 / np.arange(1, len(s) + 1))
    return _step_up(s, _ecdf(len(s)) / cm)


def _two_stage(s: np.ndarray, alpha: float, bky: bool) -> np.ndarray:
    """statsmodels' ``fdrcorrection_twostage(maxiter=1)``: the first stage's BH rejections r
    at alpha' estimate the true nulls m0 = m - r; the adjusted values are BH's times m0/m
    (and 1 + alpha for BKY), or BH's (times 1 + alpha) when r is 0 or m."""
    m = len(s)
    fact = 1.0 + alpha if bky else 1.0
    alpha_prime = alpha / fact
    factor = _ecdf(m)
    bh = _step_up(s, factor)
    reject = s <= factor * alpha_prime
    r1 = int(np.nonzero(reject)[0].max()) + 1 if reject.any() else 0
    if r1 in (0, m):
        return bh * fact
    corr = bh * ((1.0 * m - r1) * 1.0 / m)
    return corr * (1.0 + alpha) if bky else corr


def _gbs(s: np.ndarray, alpha: float) -> np.ndarray:
    ii = np.arange(1, len(s) + 1)
    q = (len(s) + 1.0 - ii) / ii * s / (1.0 - s)
    up = np.maximum.accumulate(q)
    return np.minimum.accumulate(up[::-1])[::-1]


_SORTED = {
    "none": lambda s, alpha: s.copy(),
    "bonferroni": _bonferroni,
    "holm": _holm,
    "sidak": _sidak,
    "holm-sidak": _holm_sidak,
    "hochberg": _hochberg,
    "hommel": _hommel,
    "bh": _bh,
    "by": _by,
    "tsbh": lambda s, alpha: _two_stage(s, alpha, False),
    "tsbky": lambda s, alpha: _two_stage(s, alpha, True),
    "gbs": _gbs,
}
