"""Multiple-comparison corrections: adjusted p-values for a family of tests.

A hypothesis is rejected at level alpha when its *adjusted* p-value is below alpha.

- ``bonferroni``: ``p~_i = min(1, m p_i)``; controls the family-wise error rate (FWER)
  under any dependence (Dunn 1961).
- ``holm``: step-down Bonferroni; with ``p_(1) <= ... <= p_(m)``,
  ``p~_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))``; controls the FWER under any dependence
  and is uniformly more powerful than Bonferroni (Holm 1979).
- ``bh``: Benjamini & Hochberg (1995) step-up, ``p~_(i) = min_{j >= i} min(1, m p_(j) / j)``;
  controls the false discovery rate (FDR) for independent or positively dependent tests
  (``scipy.stats.false_discovery_control``).
- ``none``: ``p~ = p``.
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from .checks import floats

__all__ = ["CORRECTIONS", "adjust"]

CORRECTIONS: dict[str, tuple[str, str]] = {
    "none": ("no correction", ""),
    "bonferroni": ("Bonferroni", "Dunn (1961)"),
    "holm": ("Holm step-down", "Holm (1979), Scand. J. Statistics 6:65-70"),
    "bh": ("Benjamini-Hochberg FDR", "Benjamini & Hochberg (1995), JRSS B 57:289-300"),
}
_ALIASES = {
    "fdr_bh": "bh",
    "benjamini-hochberg": "bh",
    "fdr": "bh",
    "holm-bonferroni": "holm",
}


def canonical(method: str | None) -> str:
    """The canonical name of a correction (``None`` means ``none``)."""
    if method is None:
        return "none"
    m = _ALIASES.get(method.lower(), method.lower())
    if m not in CORRECTIONS:
        raise ParameterError(
            f"unknown correction {method!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    return m


def adjust(p_values, method: str | None = "holm") -> np.ndarray:
    """Adjusted p-values, in the input order."""
    method = canonical(method)
    p = floats(p_values, "p-values")
    if p.ndim != 1:
        raise ParameterError("p-values must be a flat list")
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ParameterError("p-values must lie in [0, 1]")
    m = len(p)
    if m == 0 or method == "none":
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, p * m)
    if method == "holm":
        order = np.argsort(p, kind="stable")
        stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
        out = np.empty(m)
        out[order] = np.maximum.accumulate(stepped)
        return out
    from scipy import stats

    return np.asarray(stats.false_discovery_control(p, method="bh"), dtype=np.float64)
