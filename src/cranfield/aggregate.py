"""Aggregation of per-query values over queries.

Sums are sequential in query order (trec_eval's order), and logarithms come from the C
library, so that means agree with trec_eval's to the last bit.
"""

from __future__ import annotations

import math

import numpy as np

from .errors import ParameterError

__all__ = ["AGGREGATIONS", "aggregate_values"]

AGGREGATIONS = ("mean", "sum", "gmean", "median")


def _seq_sum(values: np.ndarray) -> float:
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def aggregate_values(values: np.ndarray, how: str, *, eps: float = 1e-5) -> float:
    """Aggregate one measure's per-query values.

    - ``mean``: sum in query order divided by the number of queries;
    - ``sum``: the sum (counts);
    - ``gmean``: ``exp(mean(ln(max(x, eps))))``, trec_eval's geometric mean (GMAP), eps = 1e-5;
    - ``median``: the middle value (mean of the two middle values for an even count).
    """
    v = np.asarray(values, dtype=np.float64)
    if how == "sum":
        return _seq_sum(v)
    if len(v) == 0:
        return math.nan
    if how == "mean":
        return _seq_sum(v) / len(v)
    if how == "gmean":
        logs = np.array([math.log(max(x, eps)) for x in v.tolist()])
        return math.exp(_seq_sum(logs) / len(v))
    if how == "median":
        return float(np.median(v))
    raise ParameterError(f"unknown aggregation {how!r}; choose one of {', '.join(AGGREGATIONS)}")
