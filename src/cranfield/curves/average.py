"""Averaging per-query curve values over queries: mean or median (Keen, "Evaluation
Parameters", SMART report ISR-13, sec. 4A, Fig. 13), over the queries that enter at each point."""

from __future__ import annotations

import math

import numpy as np

from cranfield.errors import ParameterError
from cranfield.results.aggregate import aggregate_values

__all__ = ["AVERAGES", "STATISTICS", "check_average", "column_statistic"]

AVERAGES = ("macro", "micro")
STATISTICS = ("mean", "median")


def check_average(average: str, statistic: str) -> None:
    if average not in AVERAGES:
        raise ParameterError(f"unknown average {average!r}; choose macro or micro")
    if statistic not in STATISTICS:
        raise ParameterError(f"unknown statistic {statistic!r}; choose mean or median")
    if average == "micro" and statistic == "median":
        raise ParameterError(
            "micro-averaging pools counts over queries (one ratio, Keen sec. 4A): it has no "
            "median; use --average macro --statistic median"
        )


def column_statistic(values: np.ndarray, entered: np.ndarray, statistic: str):
    """Per column: the statistic over entered rows, and how many entered (NaN if none).

    The mean adds the values in query order (as trec_eval does), so that ``trec``
    interpolation reproduces ``iprec_at_recall`` to the last bit."""
    L = values.shape[1]
    out = np.full(L, math.nan)
    count = entered.sum(axis=0).astype(np.int64)
    for col in range(L):
        if count[col]:
            out[col] = aggregate_values(values[entered[:, col], col], statistic)
    return out, count
