"""What the HTML pages show, read from the result objects: rows of text formatted by the
project's formatting (:mod:`.comparison_text`), and the data the page's script draws.

Nothing here computes a measure or a statistic: means, intervals, p-values, wins and losses
come from the :class:`~cranfield.comparing.result.Comparison`; per-query differences from
:func:`cranfield.comparing.paired.differences` (the comparison's own, float noise counting as
a tie); the curves and tie ranges from their functions.

The script's data holds numbers rounded to the decimals shown, written in the shortest form
that reads back as the same decimal (``0.25`` for ``0.2500``), so that the page shows what
Python formatted; a nonzero value that rounds to zero keeps its sign in two significant
digits (``-0.0000`` stays, a win stays a win when the page counts or sorts).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.base.text import undecoded_as_text
from cranfield.comparing.agreement import OUTCOME_TEXT
from cranfield.comparing.paired import differences
from cranfield.comparing.requests import natural_key
from cranfield.render.comparison_rows import (
    agreement_rows,
    correlation_rows,
    fmt_number,
    header,
    pair_rows,
)

if TYPE_CHECKING:
    from cranfield.comparing.result import Comparison
    from cranfield.render.report_data import ReportData
    from cranfield.results.tables import Results

__all__ = ["decimals", "payload", "run_labels", "script_json", "summary"]

RUN_LABEL_CHARS = 24
"""Longest run label in the page's tables and charts (the full name on hover and in the runs
table)."""


def run_labels(names: Sequence[str]) -> dict[str, str]:
    """``{name: label}``: the part of the run names that differs, shortened
    (:func:`cranfield.render.charts.distinct_labels`, the charts' rule)."""
    from cranfield.render.charts import distinct_labels

    return dict(zip(names, distinct_labels(list(names), RUN_LABEL_CHARS), strict=True))


def run_cell(name: str, labels: dict[str, str]) -> Any:
    """A table cell of a run: its label, the full name on hover."""
    from markupsafe import Markup

    label = labels.get(name, name)
    return Markup('<span class="run-name" title="{}">{}</span>').format(name, label)


_SAFE_JSON = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
_SAFE_JSON.update({0x2028: "\\u2028", 0x2029: "\\u2029"})


def script_json(data: Any) -> str:
    """``data`` as JSON that can stand inside a ``<script>`` element (no ``</script>``)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return undecoded_as_text(text.translate(_SAFE_JSON), "\\\\")


def decimals(values: Any, digits: int) -> list[Any]:
    """Each value rounded as ``format(x, f".{digits}f")`` rounds it, as the float that reads
    back as that decimal (``None`` for NaN and infinities; ``-0.0`` as ``0.0``).

    Vectorised: ``rint(x 10^d) / 10^d`` is that float whenever ``x 10^d`` is not within its
    rounding error of a half (the division of an exact integer by an exact power of ten is
    correctly rounded); the few values near a half, or too large, are formatted one by one.
    Whole numbers come back as ints (the same number, a shorter text).
    A nonzero value that rounds to zero becomes itself in two significant digits: it keeps
    its sign, so that the page shows ``-0.0000`` where Python does, and a win stays a win."""
    x = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(x)
    scale = 10.0**digits
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = x * scale
        r = np.rint(scaled) / scale + 0.0
        frac = np.abs(scaled - np.floor(scaled) - 0.5)
        exact = np.abs(scaled) < 2.0**52
        near = finite & (~exact | (frac <= 1e-6 * np.maximum(1.0, np.abs(scaled))))
    spec = f".{digits}f"
    for i in np.flatnonzero(near).tolist():
        r[i] = float(format(float(x[i]), spec)) + 0.0
    for i in np.flatnonzero(finite & (r == 0.0) & (x != 0.0)).tolist():
        r[i] = float(f"{float(x[i]):.1e}")
    out: list[Any] = r.tolist()
    for i in np.flatnonzero(finite & (r == np.trunc(r)) & (np.abs(r) < 2.0**53)).tolist():
        out[i] = int(out[i])  # 3 rather than 3.0: the same number, a shorter text
    if not finite.all():
        for i in np.flatnonzero(~finite).tolist():
            out[i] = None
    return out


# ------------------------------------------------------------------------------ tables
MOST_LETTERS = 8
"""Longest string of significance letters shown after a mean; more: ``beats N``."""


def _beaten(c: Comparison, label: str, run: str) -> list[str]:
    """The runs ``run`` is significantly better than under ``label``, in run order."""
    out = set()
    for p in c.pairs[label]:
        if p.outcome in ("a", "b") and run == (p.b if p.outcome == "b" else p.a):
            out.add(p.a if p.outcome == "b" else p.b)
    return [x for x in c.runs if x in out]


def summary(
    c: Comparison, digits: int, intervals: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The runs x measures table: per cell the mean, its interval (when given), the marks of
    significance and whether it is the best of its column."""
    marks = {label: c.markers(label) for label in c.labels}
    base = c.baseline
    best = {label: c.means[label][c.ranking(label)[0]] for label in c.labels}
    names = run_labels(c.runs)
    rows = []
    for r in c.runs:
        cells = []
        for label in c.labels:
            mean = c.means[label][r]
            ci = (intervals or {}).get(label, {}).get(r)
            mark, why = marks[label][r], ""
            if base is not None:  # marks against the baseline only
                mark = ""
                if r != base:
                    p = c.pair(label, base, r)
                    up = p.outcome == ("b" if p.b == r else "a")
                    down = p.outcome == ("a" if p.b == r else "b")
                    mark = "▲" if up else "▼" if down else ""
                    why = f"p_adj = {fmt_number(p.p_adjusted, digits)} against {base}"
            elif mark:
                beaten = _beaten(c, label, r)
                why = "significantly better than " + ", ".join(beaten)
                if len(mark) > MOST_LETTERS:
                    mark = f"beats {len(beaten)}"
            cells.append(
                {
                    "mean": fmt_number(mean, digits),
                    "ci": None
                    if ci is None
                    else f"[{fmt_number(ci[0], digits)}, {fmt_number(ci[1], digits)}]",
                    "mark": mark,
                    "why": why,
                    "best": mean == best[label],
                }
            )
        rows.append(
            {
                "letter": c.letters[r],
                "run": r,
                "label": names[r],
                "baseline": r == base,
                "cells": cells,
            }
        )
    measures = [
        {"label": label, "better": "↑" if c.higher_is_better(label) else "↓"} for label in c.labels
    ]
    return {"header": header(c), "measures": measures, "rows": rows}


def pair_tables(c: Comparison, digits: int) -> list[dict[str, Any]]:
    """Per measure the pairwise table of the text output (the same cells)."""
    out = []
    names = run_labels(c.runs)
    for label in c.labels:
        rows = pair_rows(c, label, digits)
        body = [[run_cell(r[0], names), run_cell(r[1], names), *r[2:]] for r in rows[1:]]
        out.append(
            {"label": label, "queries": len(c.query_ids[label]), "head": rows[0], "rows": body}
        )
    return out


def agreement(c: Comparison) -> dict[str, Any] | None:
    """The agreement of the measures' verdicts over the pairs, and the rank correlations of the
    runs' means (Kendall's tau, tau_AP), when there are two measures or more."""
    if len(c.labels) < 2:
        return None
    rows = agreement_rows(c)
    corr = correlation_rows(c) if len(c.runs) >= 3 else None
    return {
        "pairs": len(c.pairs[c.labels[0]]),
        "head": rows[0],
        "rows": rows[1:],
        "corr_head": corr[0] if corr else None,
        "corr_rows": corr[1:] if corr else None,
        "legend": OUTCOME_TEXT,
    }


def results_rows(runs: Sequence[Results], digits: int) -> dict[str, Any]:
    """Runs x measures of evaluated results: each run's aggregate of each measure, and its
    interval when the runs carry intervals (``evaluate(..., ci=...)``), with the legend that
    names their method and confidence."""
    from cranfield.comparing.intervals import joined
    from cranfield.render.results_text import _fmt as fmt_value

    intervals = joined(runs)
    labels = list(runs[0].labels) if runs else []
    names = run_labels([r.run for r in runs]) if runs else {}
    rows = []
    for r in runs:
        agg = r.aggregate()
        ints = {label: m.definition.integer for label, m in zip(r.labels, r.measures, strict=True)}
        cells = []
        for label in labels:
            ci = None if intervals is None else intervals.get(r.run, label)
            cells.append(
                {
                    "mean": fmt_value(agg[label], ints[label], digits) if label in agg else "",
                    "ci": None
                    if ci is None
                    else f"[{fmt_number(ci[0], digits)}, {fmt_number(ci[1], digits)}]",
                }
            )
        rows.append(
            {"run": r.run, "label": names[r.run], "queries": len(r.query_ids), "cells": cells}
        )
    how = [runs[0].aggregation_of(label) for label in labels] if runs else []
    legend = None
    if intervals is not None:
        legend = (
            f"[low, high] ({intervals.tag()}): {intervals.describe()}, each run's over the "
            "queries; none for measures not averaged by the mean."
        )
    return {"labels": labels, "aggregation": how, "rows": rows, "legend": legend}


def tie_rows(data: ReportData, digits: int) -> list[list[Any]]:
    keys = ("worst", "trec", "expected", "best", "range")
    names = run_labels(data.comparison.runs)
    return [
        [run_cell(tr.run, names), s["measure"]]
        + [str(s[k]) for k in ("queries", "tied", "rel_tied", "changed")]
        + [fmt_number(s[k], digits) for k in keys]
        for tr in data.ties
        for s in tr.summary()
    ]


def _by_run(data: ReportData, table: Any) -> list[Any]:
    """The rows of each run of a curve table, in the comparison's order of runs (a curve table
    names the runs as text: the bytes of a file name that are not UTF-8 as ``\\xNN``)."""
    names = list(dict.fromkeys(table["run"].tolist()))
    if len(names) != len(data.comparison.runs):
        raise ValueError("the curve table does not hold one curve per run")
    return [table[table["run"] == name] for name in names]


def pr_rows(data: ReportData, digits: int) -> tuple[list[str], list[list[str]]]:
    levels = sorted(set(data.pr["level"].tolist()))
    head = ["run", *(f"{x:g}" for x in levels)]
    rows: list[list[Any]] = []
    names = run_labels(data.comparison.runs)
    for run, part in zip(data.comparison.runs, _by_run(data, data.pr), strict=True):
        by = dict(zip(part["level"].tolist(), part["value"].tolist(), strict=True))
        rows.append(
            [run_cell(run, names), *(fmt_number(by.get(x, math.nan), digits) for x in levels)]
        )
    return head, rows


# ------------------------------------------------------------------------------ script data
def payload(data: ReportData) -> dict[str, Any]:
    """The data of the page's script: per-query values and differences, curves; the
    intervals of the means (``ci``: the settings; per measure ``ci``: per run ``[low, high]``
    unrounded, ``null`` when undefined, or ``null`` for a measure not averaged by the mean)."""
    c, digits = data.comparison, data.digits
    queries = sorted({q for label in c.labels for q in c.query_ids[label]}, key=natural_key)
    where = {q: i for i, q in enumerate(queries)}
    ref = c.runs.index(c.baseline) if c.baseline else 0
    measures = []
    for label, m in zip(c.labels, c.measures, strict=True):
        qids = c.query_ids[label]
        V = c.values[label]
        pairs: dict[int, list[int]] = {}
        for p in c.pairs[label]:
            if c.runs[ref] in (p.a, p.b):
                other = p.b if p.a == c.runs[ref] else p.a
                wl = [p.wins, p.losses] if p.a == c.runs[ref] else [p.losses, p.wins]
                pairs[c.runs.index(other)] = [*wl, p.ties]
        integer = bool(m.definition.integer)
        measures.append(
            {
                "label": label,
                "better": 1 if c.higher_is_better(label) else -1,
                "integer": integer,
                "rows": None if len(qids) == len(queries) else [where[q] for q in qids],
                "values": [decimals(V[:, j], digits) for j in range(len(c.runs))],
                "diffs": [
                    None if j == ref else decimals(differences(V[:, ref], V[:, j]), digits)
                    for j in range(len(c.runs))
                ],
                "wlt": [pairs.get(j) for j in range(len(c.runs))],
                "ci": _mean_cis(data, label),
            }
        )
    return {
        "digits": digits,
        "runs": list(c.runs),
        "labels": list(run_labels(c.runs).values()),
        "reference": ref,
        "baseline": c.baseline is not None,
        "queries": queries,
        "relevant": _relevant(data, queries),
        "measures": measures,
        "ci": None if data.mean_intervals is None else data.mean_intervals.settings(),
        "pr": None if data.pr is None else _pr(data),
        "gain": None if data.gain is None else _gain(data),
    }


def _mean_cis(data: ReportData, label: str) -> list[Any] | None:
    """Per run the interval of its mean of ``label`` as two floats (``None`` if undefined)."""
    cis = data.intervals.get(label)
    if cis is None:
        return None
    out: list[Any] = []
    for r in data.comparison.runs:
        lo, hi = cis[r]
        out.append([float(lo), float(hi)] if math.isfinite(lo) and math.isfinite(hi) else None)
    return out


def _relevant(data: ReportData, queries: list[str]) -> list[int | None] | None:
    """Each query's relevant documents (``None`` without the count; all ``None`` without
    qrels: the page then has no such column)."""
    if data.collection is None:
        return None
    r = data.results.runs[0]
    if "NumRel" not in r.labels:
        return [None] * len(queries)
    by = dict(zip(r.query_ids, r.column("NumRel").tolist(), strict=True))
    return [None if q not in by else int(by[q]) for q in queries]


def _pr(data: ReportData) -> dict[str, Any]:
    levels = sorted(set(data.pr["level"].tolist()))
    runs = []
    for part in _by_run(data, data.pr):
        by = dict(zip(part["level"].tolist(), part["value"].tolist(), strict=True))
        runs.append(decimals([by.get(x, math.nan) for x in levels], data.digits))
    return {"levels": levels, "values": runs}


def _gain(data: ReportData) -> dict[str, Any]:
    parts = _by_run(data, data.gain)
    return {
        name: [decimals(p[p["curve"] == name]["value"].to_numpy(), data.digits) for p in parts]
        for name in ("ndcg", "ncg", "dcg", "cg")
    }
