"""What results look like in Python: short ``repr`` texts (the runs, queries, measures and
means, at most :data:`MOST_RUNS` runs and :data:`MOST_MEASURES` measures, never a query id),
and tidy DataFrames (``to_frame``).  The HTML fragments of ``_repr_html_`` are
:mod:`cranfield.render.html`'s."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cranfield.render.table import counted, escape_controls, table_lines

if TYPE_CHECKING:
    import pandas as pd

    from cranfield.comparing.result import Comparison
    from cranfield.results.tables import Results

__all__ = ["comparison_frame", "comparison_repr", "results_frame", "results_repr"]

MOST_RUNS = 10
MOST_MEASURES = 8
NAME_CHARS = 32


def _name(text: str) -> str:
    text = escape_controls(text)
    return text if len(text) <= NAME_CHARS else text[: NAME_CHARS - 1] + "…"


def _value(x: float, integer: bool, digits: int = 4) -> str:
    from cranfield.render.results_text import _fmt

    return _fmt(x, integer, digits)


def _means(r: Results, labels: Sequence[str]) -> list[str]:
    """The run's aggregate of each label, as ``evaluate`` prints it (``?`` if it cannot be
    computed, say a micro average without its parts)."""
    from cranfield.errors import CranfieldError

    out = []
    for label in labels:
        integer = r.measures[r.labels.index(label)].definition.integer
        try:
            out.append(_value(r.aggregate_of(label), integer))
        except CranfieldError:
            out.append("?")
    return out


def _more(n: int, shown: int, what: str) -> str:
    return f" (+{n - shown} more {what})" if n > shown else ""


def results_repr(runs: Sequence[Results], *, single: bool) -> str:
    """``<Results ...>`` of one run, or ``<ResultsSet ...>`` of several: a table of means."""
    if not runs:
        return "<ResultsSet: no runs>"
    labels = list(runs[0].labels[:MOST_MEASURES])
    nq = sorted({len(r.query_ids) for r in runs})
    queries = counted(nq[0], "query") if len(nq) == 1 else f"{nq[0]}-{nq[-1]} queries"
    measures = counted(len(runs[0].labels), "measure")
    if single:
        r = runs[0]
        pairs = ", ".join(
            f"{escape_controls(label)} {v}"
            for label, v in zip(labels, _means(r, labels), strict=True)
        )
        more = _more(len(r.labels), len(labels), "measures")
        return f"<Results {_name(r.run)!r}: {queries} x {measures}; {pairs}{more}>"
    shown = runs[:MOST_RUNS]
    rows = [[_name(r.run), *_means(r, labels)] for r in shown]
    lines = table_lines(["run", *labels], rows, left=1, rule=False)
    head = f"<ResultsSet: {len(runs)} runs x {measures}, {queries}"
    head += _more(len(runs[0].labels), len(labels), "measures")
    tail = f"  ... {len(runs) - len(shown)} more runs" if len(runs) > len(shown) else ""
    body = [head, *("  " + x for x in lines), *([tail] if tail else []), *_noted(runs)]
    return "\n".join(body) + ">"


def _noted(runs: Sequence[Results], common: Sequence[str] | None = None) -> list[str]:
    """The note on the query sets (:mod:`cranfield.results.query_sets`) when it says more than
    "every
    judged query": some run has no results for judged queries, or the query sets differ."""
    from cranfield.results.query_sets import note, worth_noting

    if not worth_noting(runs):
        return []
    return ["  " + line for line in note(runs, common, width=88).splitlines()]


def comparison_repr(c: Comparison) -> str:
    """``<Comparison ...>``: the settings line and the means with significance letters."""
    from cranfield.comparing.paired import TESTS
    from cranfield.render.comparison_rows import means_rows

    labels = list(c.labels[:MOST_MEASURES])
    rows = means_rows(c, 4)[: MOST_RUNS + 1]  # the header, then a row per run
    table = [[r[0], _name(r[1]), *r[2 : 2 + len(labels)]] for r in rows]
    lines = table_lines(table[0], table[1:], left=2, rule=False)
    head = (
        f"<Comparison: {len(c.runs)} runs x {counted(len(c.labels), 'measure')}, "
        f"{c.notes.get('queries')} queries; {TESTS[c.test][0]}, correction {c.correction}"
        + (f", baseline {_name(c.baseline)}" if c.baseline else "")
        + _more(len(c.labels), len(labels), "measures")
    )
    tail = f"  ... {len(c.runs) - MOST_RUNS} more runs" if len(c.runs) > MOST_RUNS else ""
    common = sorted(set.intersection(*(set(r.query_ids) for r in c.results))) if c.results else []
    noted = _noted(c.results, common) if c.results else []
    return "\n".join([head, *("  " + x for x in lines), *([tail] if tail else []), *noted]) + ">"


def results_frame(runs: Sequence[Results]) -> pd.DataFrame:
    """A tidy DataFrame of aggregates: ``run, measure, aggregation, value, queries``, one
    row per run and measure (NaN where the aggregate cannot be computed); when the runs carry
    intervals (``evaluate(..., ci=...)``) also ``ci_low, ci_high`` (NaN where there is none)."""

    from cranfield.comparing.intervals import joined
    from cranfield.errors import CranfieldError

    intervals = joined(runs)
    rows: list[tuple[Any, ...]] = []
    for r in runs:
        for label in r.labels:
            try:
                value = r.aggregate_of(label)
            except CranfieldError:
                value = math.nan
            row: tuple[Any, ...] = (r.run, label, r.aggregation_of(label), value, len(r.query_ids))
            if intervals is not None:
                ci = intervals.get(r.run, label)
                row += (math.nan, math.nan) if ci is None else (float(ci[0]), float(ci[1]))
            rows.append(row)
    columns = ["run", "measure", "aggregation", "value", "queries"]
    if intervals is not None:
        columns += ["ci_low", "ci_high"]
    return _frame(rows, columns)


def _frame(rows: Sequence[Sequence[Any]], columns: list[str]) -> pd.DataFrame:
    """A DataFrame of ``rows``, its text cells as text only: run names from file names that
    are not UTF-8 with those bytes as ``\\xNN`` (a pandas string column, stored by Arrow,
    cannot hold a lone surrogate)."""
    import pandas as pd

    from cranfield.base.text import undecoded_as_text

    def cell(x: Any) -> Any:
        return undecoded_as_text(x) if isinstance(x, str) else x

    return pd.DataFrame([[cell(x) for x in row] for row in rows], columns=columns)


COMPARISON_KINDS = ("pairs", "means")


def comparison_frame(c: Comparison, what: str = "pairs") -> pd.DataFrame:
    """``pairs``: one row per measure and pair of runs (the columns of ``--format csv``, the
    interval as ``ci_low``/``ci_high``); ``means``: ``measure, run, mean, queries, marks``."""

    from cranfield.errors import ParameterError
    from cranfield.render.comparison_text import CSV_COLUMNS

    if what == "pairs":
        rows = [[getattr(p, k) for k in CSV_COLUMNS] for label in c.labels for p in c.pairs[label]]
        return _frame(rows, list(CSV_COLUMNS))
    if what == "means":
        means = []
        for label in c.labels:
            marks = c.markers(label)
            for r in c.runs:
                means.append((label, r, c.means[label][r], len(c.query_ids[label]), marks[r]))
        return _frame(means, ["measure", "run", "mean", "queries", "better_than"])
    raise ParameterError(f"unknown table {what!r}; choose one of {', '.join(COMPARISON_KINDS)}")
