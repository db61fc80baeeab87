"""Renderings of a :class:`~cranfield.comparing.result.Comparison`: terminal text, Markdown,
LaTeX (booktabs, superscript letters), CSV, and JSON (:mod:`.comparison_json`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cranfield.base.output_formats import KINDS, canonical
from cranfield.comparing.agreement import OUTCOME_TEXT
from cranfield.comparing.corrections import CORRECTIONS
from cranfield.comparing.paired import TESTS
from cranfield.comparing.requests import KEEN_METHODS
from cranfield.errors import ParameterError
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


def _fmt(x: float, digits: int, sign: bool = False) -> str:
    if x is None or math.isnan(x):
        return "nan"
    if math.isinf(x):
        return ("+" if x > 0 and sign else "-" if x < 0 else "") + "inf"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _fmt_p(p: float, digits: int) -> str:
    if math.isnan(p):
        return "nan"
    floor = 10.0**-digits
    if 0 < p < floor or (p == 0.0):
        return f"<{floor:.{digits}f}"
    return f"{p:.{digits}f}"


def _header(c: Comparison) -> str:
    n = c.notes.get("queries")
    parts = [TESTS[c.test][0], c.alternative, f"alpha {c.alpha:g}"]
    if c.test in ("randomization", "bootstrap"):
        what = "permutations" if c.test == "randomization" else "samples"
        exact = c.notes.get("exact", [])
        if exact and len(exact) == len(c.labels):
            parts.append("exact (all 2^n sign flips)")
        else:
            parts.append(f"{c.permutations} {what}, seed {c.seed}")
            if exact:
                parts.append(f"exact for {', '.join(exact)}")
    if c.test == "rthsd":
        exact = c.notes.get("exact", [])
        if exact and len(exact) == len(c.labels):
            parts.append("exact (every within-query arrangement)")
        else:
            parts.append(f"{c.permutations} permutations, seed {c.seed}")
            if exact:
                parts.append(f"exact for {', '.join(exact)}")
    npairs = len(next(iter(c.pairs.values())))
    if c.test in ("tukey", "rthsd"):
        parts.append("family-wise over all pairs of runs")
    elif c.correction == "none":
        parts.append(f"no correction for {counted(npairs, 'comparison')} per measure")
    else:
        parts.append(
            f"{CORRECTIONS[c.correction][0]} over {counted(npairs, 'comparison')} per measure"
        )
        if c.correction in ("maxt", "minp"):
            exact = c.notes.get("correction_exact", [])
            if exact and len(exact) == len(c.labels):
                parts.append("exact (every within-query arrangement)")
            else:
                parts.append(f"{c.permutations} permutations, seed {c.seed}")
    if c.baseline:
        parts.append(f"baseline {c.baseline}")
    return f"{len(c.runs)} runs, {n} queries: " + "; ".join(parts)


def queries_note(c: Comparison, width: int = 100) -> str:
    """Which queries the comparison's means are over (:func:`cranfield.results.query_sets.note`)."""
    from cranfield.results.query_sets import note

    if not c.results:
        return ""
    common = set.intersection(*(set(r.query_ids) for r in c.results))
    return note(c.results, sorted(common), width=width)


def _align(rows: list[list[str]], left: int) -> list[str]:
    """A text table whose first row is its header (no rule under it)."""
    return table_lines(rows[0], rows[1:], left=left, rule=False)


def _pair_rows(c: Comparison, label: str, digits: int) -> list[list[str]]:
    conf = f"{100 * (1 - c.alpha):g}% CI"
    head = ["a", "b", "diff", conf, "p", "p_adj", "sig", "W/L/T", "sup%", "d_z"]
    rows = [head]
    for p in c.pairs[label]:
        sig = {"b": "b>a", "a": "a>b", "=": ""}[p.outcome]
        rows.append(
            [
                p.a,
                p.b,
                _fmt(p.mean_diff, digits, True),
                f"[{_fmt(p.ci_low, digits, True)}, {_fmt(p.ci_high, digits, True)}]",
                _fmt_p(p.p_value, digits),
                _fmt_p(p.p_adjusted, digits),
                sig,
                f"{p.wins}/{p.losses}/{p.ties}",
                f"{p.superiority:+.1f}",
                _fmt(p.effect_size, 2),
            ]
        )
    return rows


def _means_rows(c: Comparison, digits: int, sup: str = "plain") -> list[list[str]]:
    letters = c.letters
    marks = {label: c.markers(label) for label in c.labels}
    width = {label: max(len(v) for v in marks[label].values()) for label in c.labels}
    rows = [["", "run", *c.labels]]
    for r in c.runs:
        cells = []
        for label in c.labels:
            v = _fmt(c.means[label][r], digits)
            mk = marks[label][r]
            if sup == "plain" and width[label]:
                v = f"{v} {mk.ljust(width[label])}"  # decimals stay aligned
            elif mk and sup == "markdown":
                v = Markup(f"{markdown_escape(v)}<sup>{markdown_escape(mk)}</sup>")
            cells.append(v)
        rows.append([letters[r], r, *cells])
    return rows


def _legend(c: Comparison) -> str:
    return (
        "Letters after a mean: significantly better than the runs with those letters "
        f"(p_adj < {c.alpha:g}). diff = mean(b) - mean(a); W/L/T = queries where b wins / "
        "loses / ties; sup% = Keen's superiority percentage of b; d_z = mean(d)/sd(d)."
    )


def _agreement_rows(c: Comparison) -> list[list[str]]:
    rows = [[*c.labels, "pairs", "%"]]
    for row in c.agreement():
        rows.append(
            [
                *(OUTCOME_TEXT[o] for o in row.outcomes),
                str(row.count),
                f"{row.percent:.1f}",
            ]
        )
    return rows


def _correlation_rows(c: Comparison) -> list[list[str]]:
    rows = [["measure 1", "measure 2", "tau", "tau_ap_b", "same outcome"]]
    agree = c.pairwise_agreement()
    for (m1, m2), tau in c.correlations("b").items():
        rows.append(
            [
                m1,
                m2,
                _fmt(tau, 3),
                _fmt(c.correlation(m1, m2, "ap_b"), 3),
                f"{100 * agree[(m1, m2)]:.1f}%",
            ]
        )
    return rows


def _keen_rows(c: Comparison, label: str, a: str, b: str) -> list[list[str]]:
    rows = [["", f"{b} better", f"{a} better", "equal", f"superiority of {b}"]]
    for row, name in zip(c.keen(label, a, b), KEEN_METHODS, strict=True):
        if name == "numbers":
            rows.append([name, f"{row.first:.0f}", f"{row.second:.0f}", f"{row.equal:.0f}", ""])
        else:
            eq = "-" if row.equal is None else f"{row.equal:.1f}%"
            sup = "" if row.superiority is None else f"{row.superiority:.1f}%"
            rows.append([name, f"{row.first:.1f}%", f"{row.second:.1f}%", eq, sup])
    return rows


def _generality_rows(c: Comparison, digits: int) -> tuple[str, list[list[str]]]:
    g = c.generality()
    s = g.split
    title = (
        f"Specific (<= {s.threshold} relevant, {len(s.specific)} queries, mean "
        f"{g.mean_relevant[0]:.1f}) vs general (> {s.threshold}, {len(s.general)} queries, "
        f"mean {g.mean_relevant[1]:.1f}) requests"
    )
    rows = [["measure", "run", "specific", "general", "general - specific"]]
    for r in g.rows:
        rows.append(
            [
                r.measure,
                r.run,
                _fmt(r.specific, digits),
                _fmt(r.general, digits),
                _fmt(r.general - r.specific, digits, True),
            ]
        )
    return title, rows


def _overlap_title(c: Comparison) -> str:
    o = c.overlaps[0]
    return (
        f"Rank-biased overlap of the rankings (p = {o.p:g}; means over {len(o.query_ids)} "
        "queries; RBO lies in [min, min + residual])"
    )


def _overlap_rows(c: Comparison, digits: int) -> list[list[str]]:
    rows = [["a", "b", "RBO_min", "residual", "RBO_ext"]]
    for o in c.overlaps:
        m = o.means
        rows.append([o.a, o.b, *(_fmt(m[k], digits) for k in ("min", "residual", "ext"))])
    return rows


def render_text(c: Comparison, *, digits: int = 4, details: Sequence[str] = ()) -> str:
    out = [_header(c), ""]
    out += _align(_means_rows(c, digits), 2)
    out += ["", *queries_note(c).splitlines(), "", _legend(c)]
    for label in c.labels:
        out += ["", f"{label} ({len(c.query_ids[label])} queries)"]
        out += _align(_pair_rows(c, label, digits), 2)
    if len(c.labels) >= 2:
        npairs = len(c.pairs[c.labels[0]])
        out += [
            "",
            f"Agreement of the measures over {counted(npairs, 'pair')} of runs (1st = a, 2nd = b)",
        ]
        out += _align(_agreement_rows(c), len(c.labels))
        if len(c.runs) >= 3:
            out += ["", "Rank correlation of the runs' means"]
            out += _align(_correlation_rows(c), 2)
    if c.overlaps:
        out += ["", _overlap_title(c)]
        out += _align(_overlap_rows(c, digits), 2)
    for s in c.sweeps:
        out += ["", f"Sweep of {s.name} (mean at each cut-off)"]
        rows = [["run", *(f"@{x:g}" for x in s.xs)]]
        for r, vals in s.values.items():
            rows.append([r, *(_fmt(v, digits) for v in vals)])
        out += _align(rows, 1)
    for d in details:
        if d == "requests":
            for label in c.labels:
                for p in c.pairs[label]:
                    out += ["", f"Requests favouring each run: {label}, {p.b} vs {p.a} (Keen)"]
                    out += _align(_keen_rows(c, label, p.a, p.b), 1)
        elif d == "generality":
            title, rows = _generality_rows(c, digits)
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
    out = [f"*{md(_header(c))}*", ""]
    out += _md_table(_means_rows(c, digits, sup="markdown"), 2)
    out += ["", md(queries_note(c, 0)), "", _legend(c)]
    for label in c.labels:
        out += ["", f"**{md(label)}** ({len(c.query_ids[label])} queries)", ""]
        out += _md_table(_pair_rows(c, label, digits), 2)
    if len(c.labels) >= 2:
        out += ["", "**Agreement of the measures** (1st = a, 2nd = b)", ""]
        out += _md_table(_agreement_rows(c), len(c.labels))
        if len(c.runs) >= 3:
            out += ["", "**Rank correlation of the runs' means**", ""]
            out += _md_table(_correlation_rows(c), 2)
    if c.overlaps:
        out += ["", f"**{md(_overlap_title(c))}**", ""]
        out += _md_table(_overlap_rows(c, digits), 2)
    for d in details:
        if d == "requests":
            for label in c.labels:
                for p in c.pairs[label]:
                    head = f"{md(label)}, {md(p.b)} vs {md(p.a)}"
                    out += ["", f"**Requests favouring each run**: {head}", ""]
                    out += _md_table(_keen_rows(c, label, p.a, p.b), 1)
        elif d == "generality":
            title, rows = _generality_rows(c, digits)
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
            s = latex_escape(_fmt(v, digits))
            if v == best[label]:
                s = r"\textbf{" + s + "}"
            if marks[label][r]:
                s += "$^{" + latex_escape(marks[label][r]) + "}$"
            cells.append(Markup(s))
        rows.append([f"({letters[r]})", r, *cells])
    lines = [
        "% " + escape_controls(_header(c)),
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
            _fmt(p.mean_diff, digits, True),
            _fmt_p(p.p_value, digits),
            Markup(
                latex_escape(_fmt_p(p.p_adjusted, digits)) + ("$^{*}$" if p.significant else "")
            ),
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
