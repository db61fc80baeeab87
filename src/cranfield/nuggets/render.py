"""The tables of ``cranfield nuggets``: each run's mean nugget scores (and each response's),
as aligned text, Markdown, CSV/TSV or JSON; the values are computed in
:mod:`cranfield.nuggets.scores`, only formatted here."""

from __future__ import annotations

import json
import math
from typing import Any

from cranfield.base.output_formats import KINDS
from cranfield.nuggets.reader import NuggetAssignments
from cranfield.results.tables import Results, ResultsSet

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["nuggets"].formats
COUNTS = ("queries", "nuggets", "vital_nuggets")
"""The columns before the scores: responses (one per query), their nuggets, the vital ones."""


def _counts(a: NuggetAssignments) -> dict[tuple[str, str], tuple[int, int]]:
    """(run, query) -> (nuggets, vital nuggets) of that response."""
    return {
        (run, q): (int(n), int(v))
        for run, q, n, v in zip(a.runs, a.query_ids, a.total, a.vital, strict=True)
    }


def _rows(
    rs: ResultsSet, a: NuggetAssignments, per_query: bool, cell: Any, ci: Any
) -> list[list[Any]]:
    """Per run (and per query): run, [query,] counts, scores; ``cell`` formats a score, and
    ``ci(interval)`` gives the cells after a run's mean (its interval; blank on a query's row
    and for a mean without one), ``None`` without intervals."""
    counts = _counts(a)
    rows: list[list[Any]] = []
    for r in rs:
        if per_query:
            blank = [] if ci is None else ["" for _ in ci(None)]
            for q, values in zip(r.query_ids, r.values.tolist(), strict=True):
                n, v = counts[(r.run, q)]
                rows.append([r.run, q, "", n, v, *(c for x in values for c in [cell(x), *blank])])
        tail = ["all"] if per_query else []
        summ = [r.summary["queries"], r.summary["nuggets"], r.summary["vital"]]
        means = []
        for label, x in r.aggregate().items():
            means.append(cell(x))
            if ci is not None:
                means += ci(None if r.intervals is None else r.intervals.get(r.run, label))
        rows.append([r.run, *tail, *summ, *means])
    return rows


def render(
    rs: ResultsSet, a: NuggetAssignments, fmt: str, *, per_query: bool = False, digits: int = 4
) -> str:
    """``rs`` (:func:`cranfield.nuggets.score` of ``a``) in ``fmt``: one row per run with the
    means over its responses, and with ``per_query`` one row per response before it; the
    runs' intervals (``score(..., ci=...)``) after each mean: a ``[low, high]`` column in
    tables, ``_ci_low`` and ``_ci_high`` columns in CSV/TSV, ``intervals`` in JSON."""
    from cranfield.comparing.intervals import joined

    intervals = joined(rs)
    labels = list(rs[0].labels)
    if fmt == "json":
        return _json(rs, a, per_query, intervals)
    first = ["run", *(["query"] if per_query else []), *COUNTS]
    if fmt in ("csv", "tsv"):
        from cranfield.render.delimited import delimited

        def pair(ci: Any) -> list[str]:
            return ["", ""] if ci is None else [repr(float(ci[0])), repr(float(ci[1]))]

        ends: tuple[str, ...] = ("", "_ci_low", "_ci_high") if intervals else ("",)
        head = [*first, *(label + end for label in labels for end in ends)]
        rows = _rows(rs, a, per_query, repr, pair if intervals else None)
        sep = "," if fmt == "csv" else "\t"
        return delimited(head, [[str(c) for c in row] for row in rows], sep)

    def shown(x: float) -> str:
        return f"{x:.{digits}f}"

    def bracket(ci: Any) -> list[str]:
        return [""] if ci is None else [f"[{shown(ci[0])}, {shown(ci[1])}]"]

    ends = ("", f" {intervals.tag()}") if intervals else ("",)
    head = [*first, *(label + end for label in labels for end in ends)]
    rows = _rows(rs, a, per_query, shown, bracket if intervals else None)
    cells = [[str(c) for c in row] for row in rows]
    left = 2 if per_query else 1
    note = _note(rs, a)
    if intervals:
        note += f" Intervals: {intervals.describe()}."
    if fmt == "markdown":
        from cranfield.render.markup import markdown_table

        return "\n".join(markdown_table(head, cells, left=left)) + f"\n\n{note}\n"
    from cranfield.render.table import text_table

    return text_table(head, cells, left=left) + f"\n{note}\n"


def _note(rs: ResultsSet, a: NuggetAssignments) -> str:
    from cranfield.render.table import counted

    lines = sum(c.lines for c in a.counts.values())
    blank = sum(c.blank for c in a.counts.values())
    return (
        f"Means over each run's responses, one per query: {counted(len(a), 'response')} "
        f"read from {counted(len(a.counts), 'file')} ({counted(lines, 'line')}, "
        f"{blank} blank)."
    )


def _json(rs: ResultsSet, a: NuggetAssignments, per_query: bool, intervals: Any) -> str:
    counts = _counts(a)

    def num(x: float) -> float | None:
        return float(x) if math.isfinite(x) else None

    def run_doc(r: Results) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "name": r.run,
            "queries": r.summary["queries"],
            "nuggets": r.summary["nuggets"],
            "vital_nuggets": r.summary["vital"],
            "aggregate": {k: num(v) for k, v in r.aggregate().items()},
        }
        if intervals is not None:
            doc["intervals"] = {
                label: None if ci is None else [num(ci[0]), num(ci[1])]
                for label in r.labels
                for ci in [intervals.get(r.run, label)]
            }
        if per_query:
            doc["per_query"] = {
                q: {
                    "nuggets": counts[(r.run, q)][0],
                    "vital_nuggets": counts[(r.run, q)][1],
                    **{k: num(v) for k, v in zip(r.labels, row, strict=True)},
                }
                for q, row in zip(r.query_ids, r.values.tolist(), strict=True)
            }
        return doc

    doc: dict[str, Any] = {
        "scores": list(rs[0].labels),
        "runs": [run_doc(r) for r in rs],
        "files": {
            src: {"lines": c.lines, "responses": c.data, "blank": c.blank}
            for src, c in a.counts.items()
        },
    }
    if intervals is not None:
        doc["ci"] = intervals.settings()
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
