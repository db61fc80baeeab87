"""Averaging at document cut-offs: the Pseudo-Cranfield method and micro-evaluation.

Keen ("Evaluation Parameters", SMART report ISR-13, sec. 4B, Fig. 14): "obtain average curves
from all requests just as drawn in Figure 4, by computing mean precision recall pairs for each
document cut-off level"; Raghavan, Jung & Bollmann ("A Critical Investigation of Recall and
Precision as Measures of Retrieval System Performance", ACM TOIS 7(3), 1989, sec. 3.4) average
over ND.  At cut-off ``k`` a query has recall
``rel(k)/R`` and precision ``rel(k)/k`` (ranks beyond the ranking count as non-relevant, as in
trec_eval's P@k; a query without relevant documents has recall 0).

- macro: the mean (or median) of the queries' recall and of their precision (Fig. 14 a);
- micro (Keen sec. 4A): the counts pooled over queries, ``sum rel(k) / sum R`` and
  ``sum rel(k) / sum k``;
- the theoretical best curve (Fig. 14 a): the same for a perfect ranking, ``rel(k) = min(k,
  R)``;
- an averaged curve can be read at recall levels (Fig. 14 b), joining consecutive cut-offs by
  straight lines; a level is read at the first cut-off whose averaged recall reaches it (so the
  highest point of a vertical run), levels below the first cut-off's recall take its precision,
  levels above the last one 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from cranfield.curves.steps import Steps

__all__ = ["read_at_levels", "relevant_at"]


def relevant_at(steps: Steps, ks: np.ndarray, *, best: bool = False) -> np.ndarray:
    """Queries x cut-offs: relevant documents in the top ``k`` (``min(k, R)`` if ``best``)."""
    ks = np.asarray(ks, dtype=np.int64)
    if best:
        return np.minimum(ks[None, :], steps.R[:, None])
    Q = steps.num_queries
    top = int(max(steps.first.max(initial=0), ks.max(initial=0))) + 1
    keys = steps.query * top + steps.first  # sorted: by query, then rank
    probe = np.arange(Q, dtype=np.int64)[:, None] * top + ks[None, :]
    return np.searchsorted(keys, probe, side="right") - steps.offsets[:-1, None]


LEVEL_TOLERANCE = 1e-12
"""Relative: an averaged abscissa this close to a level reaches it (the mean of 0, 3/5 and 3/5
is 0.39999999999999997 in floating point, and must be read as recall 0.4)."""


def read_at_levels(
    x: np.ndarray, y: np.ndarray, levels: Sequence[Fraction]
) -> tuple[np.ndarray, np.ndarray]:
    """Read the polyline through ``(x[k], y[k])`` (``x`` non-decreasing) at recall levels: at
    the first point reaching each level (up to :data:`LEVEL_TOLERANCE`), linear from the point
    before.

        Returns the values and, per level, whether it lies left of the first point (constant
        extrapolation of the first point's precision)."""
    out = np.zeros(len(levels))
    left = np.zeros(len(levels), dtype=bool)
    for col, lev in enumerate(levels):
        r = float(lev)
        tol = LEVEL_TOLERANCE * max(1.0, abs(r))
        idx = int(np.searchsorted(x, r - tol, side="left"))
        if idx >= len(x):
            out[col] = 0.0
        elif idx == 0:
            out[col] = y[0]
            left[col] = r + tol < x[0]
        else:
            x0, x1, y0, y1 = x[idx - 1], x[idx], y[idx - 1], y[idx]
            out[col] = y0 + min((r - x0) / (x1 - x0), 1.0) * (y1 - y0)
    return out, left


def beyond(levels: np.ndarray, last: float) -> np.ndarray:
    """Which levels lie beyond the last point ``last`` of a curve (by more than rounding)."""
    return levels - LEVEL_TOLERANCE * np.maximum(1.0, np.abs(levels)) > last
