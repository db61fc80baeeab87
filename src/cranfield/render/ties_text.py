"""Renderings of the tie analysis (:mod:`cranfield.ties.analysis`): the ranges of each run's
measures over tie-breakings, and the averaged weak-order curves, as tables or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cranfield.render.table import escape_controls, table_lines

if TYPE_CHECKING:
    from cranfield.ties.analysis import TieRange, WeakCurves

__all__ = ["render_ranges", "render_weak_curves"]

_BOUNDS = ("worst", "trec", "expected", "best")


def render_ranges(
    ranges: Sequence[TieRange], digits: int, per_query: bool, fmt: str = "table"
) -> str:
    """Per run and measure: queries, tied, rel_tied, changed, then the means under the worst,
    trec_eval's, the expected and the best tie-breaking, and best - worst (and with
    ``per_query`` a second table, per query)."""
    if fmt == "json":
        doc = {"runs": [r.to_dict(per_query=per_query) for r in ranges]}
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"
    head = ["run", "measure", "queries", "tied", "rel_tied", "changed", *_BOUNDS, "range"]
    rows = [
        [tr.run, s["measure"], *(str(s[k]) for k in ("queries", "tied", "rel_tied", "changed"))]
        + [f"{s[k]:.{digits}f}" for k in (*_BOUNDS, "range")]
        for tr in ranges
        for s in tr.summary()
    ]
    out = table_lines(head, rows, left=2)
    if per_query:
        qrows = [
            [tr.run, q, label, *(f"{getattr(tr, k)[i, j]:.{digits}f}" for k in _BOUNDS)]
            for tr in ranges
            for i, q in enumerate(tr.query_ids)
            for j, label in enumerate(tr.labels)
        ]
        out += ["", *table_lines(["run", "query", "measure", *_BOUNDS], qrows, left=3)]
    if ranges:  # which queries the means are over (cranfield.results.query_sets)
        from cranfield.results.query_sets import note

        out += ["", *note(ranges).splitlines()]
    return "\n".join(out) + "\n"


def render_weak_curves(curves: Sequence[WeakCurves], digits: int, fmt: str = "table") -> str:
    """Per run: precision at each recall level by method (averaged over NR), then expected
    recall and precision at each ND (averaged over ND), each with its average."""
    if fmt == "json":
        return json.dumps({"runs": [c.to_dict() for c in curves]}, indent=2) + "\n"
    out: list[str] = []
    for c in curves:
        run = escape_controls(c.run)
        out.append(f"{run}: precision at recall, averaged over {c.queries} queries (over NR)")
        methods = list(c.by_recall)
        rows = [
            [f"{x:g}", *(f"{c.by_recall[m][i]:.{digits}f}" for m in methods)]
            for i, x in enumerate(c.recall)
        ]
        rows.append(["Average", *(f"{c.average[m]:.{digits}f}" for m in methods)])
        out += table_lines(["recall", *methods], rows, left=1)
        if c.nd:
            out.append("")
            out.append(f"{run}: expected recall and precision at ND (over ND)")
            rows = [
                [str(k), f"{c.er[i]:.{digits}f}", f"{c.ep[i]:.{digits}f}"]
                for i, k in enumerate(c.nd)
            ]
            rows.append(
                ["Average", f"{c.average['ER']:.{digits}f}", f"{c.average['EP']:.{digits}f}"]
            )
            out += table_lines(["ND", "ER", "EP"], rows, left=1)
        out.append("")
    return "\n".join(out[:-1]) + "\n"
