"""Results: a queries x measures table per run, with aggregation and conversions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.errors import ParameterError
from cranfield.measures.measure_object import Measure
from cranfield.results.aggregate import aggregate_values, micro_average

if TYPE_CHECKING:
    import pandas as pd

    from cranfield.comparing.intervals import RunIntervals

__all__ = ["Results", "ResultsSet"]


def _whole(values: np.ndarray) -> bool:
    """Every value is a whole number (a count, not an expectation's fraction)."""
    return bool(np.all(np.isfinite(values) & (values == np.trunc(values))))


@dataclass(frozen=True, eq=False, repr=False)  # __repr__ below
class Results:
    """Per-query values of one run.

    ``values[i, j]`` is measure ``labels[j]`` on query ``query_ids[i]``; queries are in
    ``strcmp`` order of their ids.  ``labels`` are the measure strings as the user wrote them.
    """

    run: str
    query_ids: tuple[str, ...]
    labels: tuple[str, ...]
    measures: tuple[Measure, ...]
    values: np.ndarray
    summary: dict[str, float] = field(default_factory=dict)
    """Counts of the run (ints), but ``relevant_retrieved`` is an expectation under weak ties
    with a depth: a fraction unless whole."""
    notes: dict[str, Any] = field(default_factory=dict)
    aggregation: dict[str, str] = field(default_factory=dict)
    """Per label, the statistic asked for at evaluation (``aggregate=``); else the measure's."""
    parts: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    """Per label, per-query (numerator, denominator) for micro averaging, in query order."""
    intervals: RunIntervals | None = None
    """The interval of this run's mean of each measure over the queries, when evaluated with
    ``ci=`` (:func:`cranfield.evaluate`): ``intervals.get(run, label)`` is ``(low, high)``, or
    ``None`` for a measure not averaged by the arithmetic mean."""
    metadata: dict[str, Any] | None = None
    """The run's ir_metadata (:attr:`cranfield.data.tables.Run.metadata`): the YAML block at the top
    of its TREC run file, or ``None``."""

    def __post_init__(self) -> None:
        if self.values.shape != (len(self.query_ids), len(self.labels)):
            raise ValueError("values must be queries x measures")

    def column(self, label: str) -> np.ndarray:
        return self.values[:, self.labels.index(label)]

    def aggregation_of(self, label: str, how: str | None = None) -> str:
        """The statistic used for ``label``: ``how``, else the one chosen at evaluation, else
        the measure's own; counts stay summed and GMAP geometric whatever is asked."""
        d = self.measures[self.labels.index(label)].definition
        how = how if how is not None else self.aggregation.get(label)
        return d.aggregate if how is None or d.aggregate in ("sum", "gmean") else how

    def aggregate_of(self, label: str, how: str | None = None) -> float:
        j = self.labels.index(label)
        m = self.measures[j]
        kind = self.aggregation_of(label, how)
        if kind == "micro":
            if label in self.parts:
                return micro_average(*self.parts[label])
            if m.definition.micro is None:
                raise ParameterError(
                    f"{label} has no micro average (it is not a ratio of per-query counts)"
                )
            raise ParameterError(
                f"the micro average of {label} needs per-query parts: evaluate with "
                "aggregate='micro' (--aggregate micro)"
            )
        eps = dict(m.params).get("eps", 1e-5)
        return aggregate_values(self.values[:, j], kind, eps=eps)

    def aggregate(self, how: str | None = None) -> dict[str, float]:
        """``{measure: value}`` over queries: each measure's own aggregation by default (mean;
        sum for counts; geometric mean for GMAP), or ``how`` (``mean``, ``median``, ...)."""
        return {label: self.aggregate_of(label, how) for label in self.labels}

    def per_query(self) -> pd.DataFrame:
        """A pandas DataFrame: one row per query (index ``query_id``), one column per measure
        (integers for a count, unless one of its values is an expectation's fraction)."""
        import pandas as pd

        data: dict[str, Any] = {}
        for j, (label, m) in enumerate(zip(self.labels, self.measures, strict=True)):
            col = self.values[:, j]
            data[label] = col.astype(np.int64) if m.definition.integer and _whole(col) else col
        return pd.DataFrame(data, index=pd.Index(list(self.query_ids), name="query_id"))

    def to_frame(self) -> pd.DataFrame:
        """A tidy pandas DataFrame of the aggregates: ``run, measure, aggregation, value,
        queries``, one row per measure; with intervals (``evaluate(..., ci=...)``) also
        ``ci_low, ci_high`` (NaN for a measure that has none)."""
        from cranfield.render.notebook import results_frame

        return results_frame([self])

    def to_html(self, *, digits: int = 4) -> str:
        """An HTML fragment: the run's aggregate of each measure (and its interval, when
        evaluated with ``ci=``)."""
        from cranfield.render.html import results_html

        return results_html([self], digits=digits)

    def _repr_html_(self) -> str:  # notebooks
        return self.to_html()

    def __repr__(self) -> str:
        from cranfield.render.notebook import results_repr

        return results_repr([self], single=True)

    def to_dict(self, *, per_query: bool = False) -> dict[str, Any]:
        """The JSON shape: ``{"name", "aggregate", ["per_query"], "summary", ["intervals"],
        ["metadata"]}`` (``intervals``: ``{label: [low, high] or None}``, when evaluated with
        ``ci=``; ``metadata``: the run file's ir_metadata, when it has a block)."""

        def num(x: float, integer: bool) -> Any:
            if integer and float(x).is_integer():  # a count; an expectation stays a fraction
                return int(x)
            return None if not np.isfinite(x) else float(x)

        ints = [m.definition.integer for m in self.measures]
        out: dict[str, Any] = {
            "name": self.run,
            "aggregate": {
                label: num(v, i)
                for (label, v), i in zip(self.aggregate().items(), ints, strict=True)
            },
            "aggregation": {label: self.aggregation_of(label) for label in self.labels},
        }
        if per_query:
            out["per_query"] = {
                q: {
                    label: num(float(v), i)
                    for label, v, i in zip(self.labels, row.tolist(), ints, strict=True)
                }
                for q, row in zip(self.query_ids, self.values, strict=True)
            }
        out["summary"] = dict(self.summary)
        if self.intervals is not None:
            out["intervals"] = {
                label: None if ci is None else [num(ci[0], False), num(ci[1], False)]
                for label in self.labels
                for ci in [self.intervals.get(self.run, label)]
            }
        if self.metadata is not None:
            from cranfield.io.ir_metadata import json_value

            out["metadata"] = json_value(self.metadata)
        return out


@dataclass(frozen=True, eq=False, repr=False)  # __repr__ below
class ResultsSet:
    """Results of several runs on the same qrels and measures."""

    runs: tuple[Results, ...]

    def __iter__(self) -> Iterator[Results]:
        return iter(self.runs)

    def __len__(self) -> int:
        return len(self.runs)

    def __getitem__(self, key: int | str) -> Results:
        if isinstance(key, int):
            return self.runs[key]
        for r in self.runs:
            if r.run == key:
                return r
        raise KeyError(key)

    @property
    def names(self) -> list[str]:
        return [r.run for r in self.runs]

    @property
    def intervals(self) -> RunIntervals | None:
        """The intervals of every run's means, when evaluated with ``ci=``
        (``intervals.get(run, label)``), else ``None``."""
        from cranfield.comparing.intervals import joined

        return joined(self.runs)

    def aggregate(self, how: str | None = None) -> dict[str, dict[str, float]]:
        """``{run: {measure: value}}``."""
        return {r.run: r.aggregate(how) for r in self.runs}

    def per_query(self) -> pd.DataFrame:
        """A long pandas DataFrame: columns ``run``, ``query_id`` and one per measure."""
        import pandas as pd

        frames = []
        for r in self.runs:
            df = r.per_query().reset_index()
            df.insert(0, "run", r.run)
            frames.append(df)
        return pd.concat(frames, ignore_index=True)

    def to_dict(self, *, per_query: bool = False) -> dict[str, Any]:
        return {"runs": [r.to_dict(per_query=per_query) for r in self.runs]}

    def to_frame(self) -> pd.DataFrame:
        """A tidy pandas DataFrame of the aggregates: ``run, measure, aggregation, value,
        queries``, one row per run and measure; with intervals (``evaluate(..., ci=...)``)
        also ``ci_low, ci_high`` (NaN for a measure that has none)."""
        from cranfield.render.notebook import results_frame

        return results_frame(self.runs)

    def to_html(self, *, digits: int = 4) -> str:
        """An HTML fragment: runs x measures, each run's aggregate of each measure (and its
        interval, when evaluated with ``ci=``)."""
        from cranfield.render.html import results_html

        return results_html(self.runs, digits=digits)

    def _repr_html_(self) -> str:  # notebooks
        return self.to_html()

    def __repr__(self) -> str:
        from cranfield.render.notebook import results_repr

        return results_repr(self.runs, single=False)
