"""Aggregation of per-query values over queries.

Sums are sequential in query order (trec_eval's order), and logarithms come from the C
library, so that means agree with trec_eval's to the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cranfield.errors import DataWarning, ParameterError
from cranfield.errors import warn as _warn  # (warn= is a parameter below)

__all__ = [
    "AGGREGATIONS",
    "USER_AGGREGATIONS",
    "aggregate_values",
    "aggregation_items",
    "micro_average",
    "resolve_aggregation",
]

AGGREGATIONS = ("mean", "sum", "gmean", "median")
USER_AGGREGATIONS = ("mean", "gmean", "median", "micro")
"""What a user can ask for (``--aggregate``); ``micro`` needs per-query parts (see below)."""


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


def micro_average(num: np.ndarray, den: np.ndarray) -> float:
    """Keen's micro average ("Evaluation Parameters", SMART report ISR-13, sec. 4A): ``sum num /
    sum den`` over queries, each sum sequential in query order; 0 when the denominators sum to 0.
    """
    total = _seq_sum(np.asarray(den, dtype=np.float64))
    return _seq_sum(np.asarray(num, dtype=np.float64)) / total if total != 0 else 0.0


def aggregation_items(items: Sequence[str], labels: Sequence[str]) -> str | dict[str, str]:
    """``how`` (every measure) and ``label=how`` items (``--aggregate``) as ``how`` or
    ``{label: how}``.  The last ``=`` splits, since measure strings may hold ``=`` themselves
    (``F(beta=2)@10=micro``); a later item wins over an earlier one."""
    default, per = None, {}
    for item in items:
        if not isinstance(item, str):
            raise ParameterError(f"aggregate items must be strings such as 'mean', got {item!r}")
        label, sep, how = item.rpartition("=")
        if sep and label:
            per[label] = how
        else:
            default = item
    if not per:
        if default is None:
            raise ParameterError("aggregate: the list of items is empty")
        return default
    if default is None:
        return per
    return {**dict.fromkeys(labels, default), **per}


def resolve_aggregation(
    measures: Sequence[tuple[str, Any]],
    aggregate: str | Sequence[str] | Mapping[str, str] | None,
    *,
    warn: bool,
) -> dict[str, str]:
    """Per label, the statistic to report (validated): ``how`` for every measure,
    ``{label: how}``, or a list of ``how`` and ``label=how`` items; micro falls back to mean
    with a warning for measures that have no micro form."""
    if aggregate is None:
        return {}
    labels = [label for label, _ in measures]
    if isinstance(aggregate, str) and "=" in aggregate:
        aggregate = [aggregate]
    if isinstance(aggregate, list | tuple):
        aggregate = aggregation_items(aggregate, labels)
    if isinstance(aggregate, str):
        wanted = dict.fromkeys(labels, aggregate)
    elif isinstance(aggregate, Mapping):
        unknown = [k for k in aggregate if k not in labels]
        if unknown:
            raise ParameterError(
                f"aggregate names {unknown[0]!r}, which is not one of the measures "
                f"({', '.join(labels)})"
            )
        wanted = dict(aggregate)
    else:
        raise ParameterError(
            f"aggregate must be one of {', '.join(USER_AGGREGATIONS)}, a {{measure: how}} "
            f"mapping or a list of 'how' and 'measure=how' items, got {aggregate!r}"
        )
    out: dict[str, str] = {}
    fallback = []
    for label, m in measures:
        how = wanted.get(label)
        if how is None:
            continue
        if how not in USER_AGGREGATIONS:
            raise ParameterError(
                f"unknown aggregation {how!r} for {label}; choose one of "
                f"{', '.join(USER_AGGREGATIONS)}"
            )
        d = m.definition
        if how == "micro" and d.micro is None and d.aggregate not in ("sum", "gmean"):
            fallback.append(label)
            how = "mean"
        out[label] = how
    if fallback and warn:
        _warn(
            DataWarning(
                f"micro averaging is not defined for {', '.join(fallback)} (not a ratio of "
                "per-query counts); the mean over queries is reported"
            )
        )
    return out
