"""A :class:`~cranfield.comparing.result.Comparison`'s tables as rows of text cells: the
header, the means, each measure's pairwise tests, the agreement and correlation of the
measures, the overlap of the top runs, Keen's and generality's details, and the numbers as
shown.  The same rows make the terminal text, Markdown and LaTeX (:mod:`.comparison_text`), the
HTML report (:mod:`.html_model`) and the notebook tables (:mod:`.notebook`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cranfield.comparing.agreement import OUTCOME_TEXT
from cranfield.comparing.corrections import CORRECTIONS
from cranfield.comparing.paired import TESTS
from cranfield.comparing.requests import KEEN_METHODS
from cranfield.render.markup import Markup, markdown_escape
from cranfield.render.table import counted, fmt_number

if TYPE_CHECKING:
    from cranfield.comparing.result import Comparison

__all__ = [
    "agreement_rows",
    "correlation_rows",
    "fmt_number",
    "fmt_p",
    "generality_rows",
    "header",
    "keen_rows",
    "legend",
    "means_rows",
    "overlap_rows",
    "overlap_title",
    "pair_rows",
    "queries_note",
]


def fmt_p(p: float, digits: int) -> str:
    if math.isnan(p):
        return "nan"
    floor = 10.0**-digits
    if 0 < p < floor or (p == 0.0):
        return f"<{floor:.{digits}f}"
    return f"{p:.{digits}f}"


def header(c: Comparison) -> str:
    n = c.notes.get("queries")
    parts = [TESTS[c.test][0], c.alternative, f"alpha {c.alpha:g}"]
    resampled = {
        "randomization": ("permutations", "exact (all 2^n sign flips)"),
        "bootstrap": ("samples", "exact (all 2^n sign flips)"),
        "rthsd": ("permutations", "exact (every within-query arrangement)"),
    }
    if c.test in resampled:
        what, all_exact = resampled[c.test]
        exact = c.notes.get("exact", [])
        if exact and len(exact) == len(c.labels):
            parts.append(all_exact)
        else:
            parts.append(f"{c.permutations} {what}, seed {c.seed}")
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


def pair_rows(c: Comparison, label: str, digits: int) -> list[list[str]]:
    conf = f"{100 * (1 - c.alpha):g}% CI"
    head = ["a", "b", "diff", conf, "p", "p_adj", "sig", "W/L/T", "sup%", "d_z"]
    rows = [head]
    for p in c.pairs[label]:
        sig = {"b": "b>a", "a": "a>b", "=": ""}[p.outcome]
        rows.append(
            [
                p.a,
                p.b,
                fmt_number(p.mean_diff, digits, True),
                f"[{fmt_number(p.ci_low, digits, True)}, {fmt_number(p.ci_high, digits, True)}]",
                fmt_p(p.p_value, digits),
                fmt_p(p.p_adjusted, digits),
                sig,
                f"{p.wins}/{p.losses}/{p.ties}",
                f"{p.superiority:+.1f}",
                fmt_number(p.effect_size, 2),
            ]
        )
    return rows


def means_rows(c: Comparison, digits: int, sup: str = "plain") -> list[list[str]]:
    letters = c.letters
    marks = {label: c.markers(label) for label in c.labels}
    width = {label: max(len(v) for v in marks[label].values()) for label in c.labels}
    rows = [["", "run", *c.labels]]
    for r in c.runs:
        cells = []
        for label in c.labels:
            v = fmt_number(c.means[label][r], digits)
            mk = marks[label][r]
            if sup == "plain" and width[label]:
                v = f"{v} {mk.ljust(width[label])}"  # decimals stay aligned
            elif mk and sup == "markdown":
                v = Markup(f"{markdown_escape(v)}<sup>{markdown_escape(mk)}</sup>")
            cells.append(v)
        rows.append([letters[r], r, *cells])
    return rows


def legend(c: Comparison) -> str:
    return (
        "Letters after a mean: significantly better than the runs with those letters "
        f"(p_adj < {c.alpha:g}). diff = mean(b) - mean(a); W/L/T = queries where b wins / "
        "loses / ties; sup% = Keen's superiority percentage of b; d_z = mean(d)/sd(d)."
    )


def agreement_rows(c: Comparison) -> list[list[str]]:
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


def correlation_rows(c: Comparison) -> list[list[str]]:
    rows = [["measure 1", "measure 2", "tau", "tau_ap_b", "same outcome"]]
    agree = c.pairwise_agreement()
    for (m1, m2), tau in c.correlations("b").items():
        rows.append(
            [
                m1,
                m2,
                fmt_number(tau, 3),
                fmt_number(c.correlation(m1, m2, "ap_b"), 3),
                f"{100 * agree[(m1, m2)]:.1f}%",
            ]
        )
    return rows


def keen_rows(c: Comparison, label: str, a: str, b: str) -> list[list[str]]:
    rows = [["", f"{b} better", f"{a} better", "equal", f"superiority of {b}"]]
    for row, name in zip(c.keen(label, a, b), KEEN_METHODS, strict=True):
        if name == "numbers":
            rows.append([name, f"{row.first:.0f}", f"{row.second:.0f}", f"{row.equal:.0f}", ""])
        else:
            eq = "-" if row.equal is None else f"{row.equal:.1f}%"
            sup = "" if row.superiority is None else f"{row.superiority:.1f}%"
            rows.append([name, f"{row.first:.1f}%", f"{row.second:.1f}%", eq, sup])
    return rows


def generality_rows(c: Comparison, digits: int) -> tuple[str, list[list[str]]]:
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
                fmt_number(r.specific, digits),
                fmt_number(r.general, digits),
                fmt_number(r.general - r.specific, digits, True),
            ]
        )
    return title, rows


def overlap_title(c: Comparison) -> str:
    o = c.overlaps[0]
    return (
        f"Rank-biased overlap of the rankings (p = {o.p:g}; means over {len(o.query_ids)} "
        "queries; RBO lies in [min, min + residual])"
    )


def overlap_rows(c: Comparison, digits: int) -> list[list[str]]:
    rows = [["a", "b", "RBO_min", "residual", "RBO_ext"]]
    for o in c.overlaps:
        m = o.means
        rows.append([o.a, o.b, *(fmt_number(m[k], digits) for k in ("min", "residual", "ext"))])
    return rows
