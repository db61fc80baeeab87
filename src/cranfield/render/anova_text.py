"""Renderings of ANOVA results (:class:`~cranfield.comparing.anova_table.Anova`), one per
measure: text, Markdown, CSV (the ANOVA tables) and JSON."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cranfield.base.output_formats import KINDS
from cranfield.errors import ParameterError
from cranfield.render.delimited import delimited
from cranfield.render.markup import markdown_escape, markdown_table
from cranfield.render.table import escape_controls, table_lines
from cranfield.render.table import fmt_number as _f

if TYPE_CHECKING:
    from cranfield.comparing.anova_table import Anova

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["anova"].formats
_TITLES = {
    "two-way": "two-way ANOVA without replication (runs x queries)",
    "one-way": "one-way ANOVA (runs as groups, queries not blocked)",
}


def _p(p: float, digits: int) -> str:
    if math.isnan(p):
        return ""
    floor = 10.0**-digits
    return f"<{floor:.{digits}f}" if p < floor else f"{p:.{digits}f}"


def _blank(x: float, digits: int) -> str:
    return "" if math.isnan(x) else _f(x, digits)


def _sections(label: str, a: Anova, digits: int) -> list[tuple[str, list[list[str]], int]]:
    """(title, rows with the header first, left-aligned columns) of one measure."""
    table = [["source", "SS", "df", "MS", "F", "p"]]
    for r in a.rows:
        table.append(
            [
                r.source,
                _f(r.ss, digits),
                str(r.df),
                _blank(r.ms, digits),
                _blank(r.f, digits),
                _p(r.p, digits),
            ]
        )
    conf = f"{100 * (1 - a.alpha):g}%"
    moe = f"MOE = t({a.alpha / 2:g}; {a.residual_df}) sqrt(V_E / {a.queries}) = {_f(a.moe, digits)}"
    runs = [["run", "mean", f"{conf} CI (mean +- MOE)"]]
    for run, m in zip(a.runs, a.means, strict=True):
        lo, hi = a.interval(run)
        runs.append([run, _f(m, digits), f"[{_f(lo, digits)}, {_f(hi, digits)}]"])
    es = [["a", "b", "ES_E = (mean_a - mean_b) / sqrt(V_E)"]]
    for i, x in enumerate(a.runs):
        for y in a.runs[i + 1 :]:
            es.append([x, y, _f(a.effect_size(x, y), 2, True)])
    head = f"{label}: {_TITLES[a.design]}, {len(a.runs)} runs, {a.queries} queries"
    return [(head, table, 1), (moe, runs, 1), ("Standardised effect sizes", es, 2)]


def render(analyses: Sequence[tuple[str, Anova]], fmt: str, *, digits: int = 4) -> str:
    """The ANOVA of each measure in ``fmt``: ``table`` (text), ``markdown``, ``csv`` (one row
    per measure and line of the table) or ``json``."""
    if fmt == "json":
        out = {label: a.to_dict() for label, a in analyses}
        return json.dumps({"measures": out}, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        head = ["measure", "design", "source", "ss", "df", "ms", "f", "p"]
        rows = [
            [
                label,
                a.design,
                r.source,
                repr(r.ss),
                str(r.df),
                *("" if math.isnan(x) else repr(x) for x in (r.ms, r.f, r.p)),
            ]
            for label, a in analyses
            for r in a.rows
        ]
        return delimited(head, rows)
    if fmt not in FORMATS:
        raise ParameterError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    lines: list[str] = []
    for label, a in analyses:
        for title, rows, left in _sections(label, a, digits):
            if lines:
                lines.append("")
            if fmt == "markdown":
                lines += [f"**{markdown_escape(title)}**", ""]
                lines += markdown_table(rows[0], rows[1:], left=left)
            else:
                lines.append(escape_controls(title))
                lines += table_lines(rows[0], rows[1:], left=left)
    return "\n".join(lines) + "\n"
