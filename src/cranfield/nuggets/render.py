"""The tables of ``cranfield nuggets``: each run's mean nugget scores (and each response's),
as aligned text, Markdown, CSV/TSV or JSON; the values are computed in
:mod:`cranfield.nuggets.scores`, only formatted here."""

from __future__ import annotations

import json
import math
from typing import Any

from cranfield.nuggets.reader import NuggetAssignments
from cranfield.results import Results, ResultsSet

__all__ = ["FORMATS", "render"]

FORMATS = ("table", "markdown", "json", "csv", "tsv")
COUNTS = ("queries", "nuggets", "vital_nuggets")
"""The columns before the scores: responses (one per query), their nuggets, the vital ones."""


def _counts(a: NuggetAssignments) -> dict[tuple[str, str], tuple[int, int]]:
    """(run, query) -> (nuggets, vital nuggets) of that response."""
    return {
        (run, q): (int(n), int(v))
        for run, q, n, v in zip(a.runs, a.query_ids, a.total, a.vital, strict=True)
    }


def _rows(rs: ResultsSet, a: NuggetAssignments, per_query: bool, cell: Any) -> list[list[Any]]:
    """Per run (and per query): run, [query,] counts, scores; ``cell`` formats a score."""
    counts = _counts(a)
    rows: list[list[Any]] = []
    for r in rs:
        if per_query:
            for q, values in zip(r.query_ids, r.values.tolist(), strict=True):
                n, v = counts[(r.run, q)]
                rows.append([r.run, q, "", n, v, *(cell(x) for x in values)])
        tail = ["all"] if per_query else []
        summ = [r.summary["queries"], r.summary["nuggets"], r.summary["vital"]]
        rows.append([r.run, *tail, *summ, *(cell(x) for x in r.aggregate().values())])
    return rows


def render(
    rs: ResultsSet, a: NuggetAssignments, fmt: str, *, per_query: bool = False, digits: int = 4
) -> str:
    """``rs`` (:func:`cranfield.nuggets.score` of ``a``) in ``fmt``: one row per run with the
    means over its responses, and with ``per_query`` one row per response before it."""
    labels = list(rs[0].labels)
    if fmt == "json":
        return _json(rs, a, per_query)
    head = ["run", *(["query"] if per_query else []), *COUNTS, *labels]
    if fmt in ("csv", "tsv"):
        from cranfield.report.delimited import delimited

        rows = _rows(rs, a, per_query, repr)
        return delimited(
            head, [[str(c) for c in row] for row in rows], "," if fmt == "csv" else "\t"
        )
    rows = _rows(rs, a, per_query, lambda x: f"{x:.{digits}f}")
    cells = [[str(c) for c in row] for row in rows]
    left = 2 if per_query else 1
    note = _note(rs, a)
    if fmt == "markdown":
        from cranfield.report.markup import markdown_table

        return "\n".join(markdown_table(head, cells, left=left)) + f"\n\n{note}\n"
    from cranfield.report.table import text_table

    return text_table(head, cells, left=left) + f"\n{note}\n"


def _note(rs: ResultsSet, a: NuggetAssignments) -> str:
    from cranfield.report.table import counted

    lines = sum(c.lines for c in a.counts.values())
    blank = sum(c.blank for c in a.counts.values())
    return (
        f"Means over each run's responses, one per query: {counted(len(a), 'response')} "
        f"read from {counted(len(a.counts), 'file')} ({counted(lines, 'line')}, "
        f"{blank} blank)."
    )


def _json(rs: ResultsSet, a: NuggetAssignments, per_query: bool) -> str:
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

    doc = {
        "scores": list(rs[0].labels),
        "runs": [run_doc(r) for r in rs],
        "files": {
            src: {"lines": c.lines, "responses": c.data, "blank": c.blank}
            for src, c in a.counts.items()
        },
    }
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
