"""Renderings of a :class:`~cranfield.comparing.result.Comparison`: terminal text, Markdown,
LaTeX (booktabs, superscript letters), CSV, and JSON (:mod:`.comparison_json`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cranfield.base.output_formats import KINDS, canonical
from cranfield.comparing.corrections import CORRECTIONS
from cranfield.errors import ParameterError
from cranfield.render.comparison_rows import (
    agreement_rows,
    correlation_rows,
    fmt_number,
    fmt_p,
    generality_rows,
    header,
    keen_rows,
    legend,
    means_rows,
    overlap_rows,
    overlap_title,
    pair_rows,
    queries_note,
)
from cranfield.render.markup import (
    Markup,
    latex_escape,
    latex_table,
    markdown_escape,
    markdown_table,
)
from cranfield.render.table import counted, escape_controls, table_lines

if TYPE_CHECKING:
    from cranfield.comparing.result import Comparison

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["comparison"].formats
DETAILS = ("requests", "generality")


def _align(rows: list[list[str]], left: int) -> list[str]:
    """A text table whose first row is its header (no rule under it)."""
    return table_lines(rows[0], rows[1:], left=left, rule=False)


def render_text(c: Comparison, *, digits: int = 4, details: Sequence[str] = ()) -> str:
    out = [header(c), ""]
    out += _align(means_rows(c, digits), 2)
    out += ["", *queries_note(c).splitlines(), "", legend(c)]
    for label in c.labels:
        out += ["", f"{label} ({len(c.query_ids[label])} queries)"]
        out += _align(pair_rows(c, label, digits), 2)
    if len(c.labels) >= 2:
        npairs = len(c.pairs[c.labels[0]])
        out += [
            "",
            f"Agreement of the measures over {counted(npairs, 'pair')} of runs (1st = a, 2nd = b)",
        ]
        out += _align(agreement_rows(c), len(c.labels))
        if len(c.runs) >= 3:
            out += ["", "Rank correlation of the runs' means"]
            out += _align(correlation_rows(c), 2)
    if c.overlaps:
        out += ["", overlap_title(c)]
        out += _align(overlap_rows(c, digits), 2)
    for s in c.sweeps:
        out += ["", f"Sweep of {s.name} (mean at each cut-off)"]
        rows = [["run", *(f"@{x:g}" for x in s.xs)]]
        for r, vals in s.values.items():
            rows.append([r, *(fmt_number(v, digits) for v in vals)])
        out += _align(rows, 1)
    for d in details:
        if d == "requests":
            for label in c.labels:
                for p in c.pairs[label]:
                    out += ["", f"Requests favouring each run: {label}, {p.b} vs {p.a} (Keen)"]
                    out += _align(keen_rows(c, label, p.a, p.b), 1)
        elif d == "generality":
            title, rows = generality_rows(c, digits)
            out += ["", title]
            out += _align(rows, 2)
        else:
            raise ParameterError(f"unknown detail {d!r}; choose from {', '.join(DETAILS)}")
    return "".join(escape_controls(x) + "\n" for x in out)


def _md_table(rows: list[list[str]], left: int) -> list[str]:
    """A Markdown table whose first row is its header."""
    return markdown_table(rows[0], rows[1:], left=left)


def render_markdown(c: Comparison, *, digits: int = 4, details: Sequence[str] = ()) -> str:
    md = markdown_escape
    out = [f"*{md(header(c))}*", ""]
    out += _md_table(means_rows(c, digits, sup="markdown"), 2)
    out += ["", md(queries_note(c, 0)), "", legend(c)]
    for label in c.labels:
        out += ["", f"**{md(label)}** ({len(c.query_ids[label])} queries)", ""]
        out += _md_table(pair_rows(c, label, digits), 2)
    if len(c.labels) >= 2:
        out += ["", "**Agreement of the measures** (1st = a, 2nd = b)", ""]
        out += _md_table(agreement_rows(c), len(c.labels))
        if len(c.runs) >= 3:
            out += ["", "**Rank correlation of the runs' means**", ""]
            out += _md_table(correlation_rows(c), 2)
    if c.overlaps:
        out += ["", f"**{md(overlap_title(c))}**", ""]
        out += _md_table(overlap_rows(c, digits), 2)
    for d in details:
        if d == "requests":
            for label in c.labels:
                for p in c.pairs[label]:
                    head = f"{md(label)}, {md(p.b)} vs {md(p.a)}"
                    out += ["", f"**Requests favouring each run**: {head}", ""]
                    out += _md_table(keen_rows(c, label, p.a, p.b), 1)
        elif d == "generality":
            title, rows = generality_rows(c, digits)
            out += ["", f"**{title}**", ""]
            out += _md_table(rows, 2)
        else:
            raise ParameterError(f"unknown detail {d!r}; choose from {', '.join(DETAILS)}")
    return "\n".join(out) + "\n"


def render_latex(c: Comparison, *, digits: int = 4, details: Sequence[str] = ()) -> str:
    """Two booktabs tables: the means with superscript letters (``$^{ac}$``: significantly
    better than runs a and c; the best mean per measure in bold) and the pairwise p-values."""
    letters = c.letters
    marks = {label: c.markers(label) for label in c.labels}
    best = {label: c.means[label][c.ranking(label)[0]] for label in c.labels}
    rows: list[list[str]] = []
    for r in c.runs:
        cells = []
        for label in c.labels:
            v = c.means[label][r]
            s = latex_escape(fmt_number(v, digits))
            if v == best[label]:
                s = r"\textbf{" + s + "}"
            if marks[label][r]:
                s += "$^{" + latex_escape(marks[label][r]) + "}$"
            cells.append(Markup(s))
        rows.append([f"({letters[r]})", r, *cells])
    lines = [
        "% " + escape_controls(header(c)),
        *latex_table(["", "Run", *c.labels], rows, left=2),
        *("% " + escape_controls(x) for x in queries_note(c).splitlines()),
        "",
        "% p-values of b against a (adjusted: " + CORRECTIONS[c.correction][0] + ")",
    ]
    head = ["Measure", "a", "b", *map(Markup, (r"$\Delta$", "$p$", r"$p_\mathrm{adj}$"))]
    rows = [
        [
            label,
            p.a,
            p.b,
            fmt_number(p.mean_diff, digits, True),
            fmt_p(p.p_value, digits),
            Markup(latex_escape(fmt_p(p.p_adjusted, digits)) + ("$^{*}$" if p.significant else "")),
        ]
        for label in c.labels
        for p in c.pairs[label]
    ]
    lines += latex_table(head, rows, left=3)
    if details:
        raise ParameterError("details (requests, generality) are available in text and markdown")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = (
    "measure",
    "a",
    "b",
    "mean_a",
    "mean_b",
    "mean_diff",
    "statistic",
    "p_value",
    "p_adjusted",
    "significant",
    "outcome",
    "wins",
    "losses",
    "ties",
    "superiority",
    "ci_low",
    "ci_high",
    "effect_size",
    "queries",
)


def _csv_cell(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return str(v)


def render_csv(c: Comparison, fmt: str = "csv") -> str:
    """One row per measure and pair of runs (``fmt``: ``csv`` or ``tsv``)."""
    from cranfield.render.delimited import SEPARATORS, delimited

    rows = [
        [_csv_cell(getattr(p, k)) for k in CSV_COLUMNS]
        for label in c.labels
        for p in c.pairs[label]
    ]
    return delimited(CSV_COLUMNS, rows, SEPARATORS[fmt])


def render(
    c: Comparison, fmt: str = "table", *, digits: int = 4, details: Sequence[str] = ()
) -> str:
    fmt = canonical("comparison", fmt)
    if fmt == "table":
        return render_text(c, digits=digits, details=details)
    if fmt == "markdown":
        return render_markdown(c, digits=digits, details=details)
    if fmt == "latex":
        return render_latex(c, digits=digits, details=details)
    if fmt in ("csv", "tsv"):
        return render_csv(c, fmt)
    from cranfield.render.comparison_json import render_json

    return render_json(c)
