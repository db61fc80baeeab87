"""Renderings of a meta-evaluation: text, Markdown and JSON."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import numpy as np

from cranfield.base.output_formats import KINDS
from cranfield.render.markup import markdown_escape, markdown_table
from cranfield.render.table import escape_controls, table_lines

if TYPE_CHECKING:
    from cranfield.comparing.meta import MetaEvaluation

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["meta"].formats
LISTED_PAIRS = 20
"""Up to this many pairs every pair's ASL is listed; beyond, the ASL curve's quantiles."""
_TESTS = {
    "bootstrap": "paired bootstrap test",
    "rthsd": "randomised Tukey HSD",
    "randomization": "randomization test",
}


def _f(x: float, digits: int) -> str:
    return "nan" if math.isnan(x) else f"{x:.{digits}f}"


def _sections(m: MetaEvaluation, label: str, digits: int) -> list[tuple[str, list[list[str]]]]:
    d, s, st = m.discrimination[label], m.swaps[label], m.stability[label]
    head = (
        f"{label} ({m.queries[label]} queries, {len(m.runs)} runs): discriminative power "
        f"{100 * d.power:.1f}% ({d.significant} of {len(d.p)} pairs with ASL < {d.alpha:g}; "
        f"{_TESTS[d.test]}, {d.samples} resamples)"
    )
    if len(d.p) <= LISTED_PAIRS:  # every pair, by ASL
        quant = [["a", "b", "ASL"]]
        for k in np.argsort(d.p, kind="stable"):
            quant.append([m.runs[d.a[k]], m.runs[d.b[k]], _f(float(d.p[k]), digits)])
    else:  # the ASL curve at its quantiles
        quant = [["pairs by ASL", "", "ASL"]]
        curve = d.curve
        for q in (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0):
            at = float(curve[round(q * (len(curve) - 1))])
            quant.append([f"{int(100 * q)}%", "", _f(at, digits)])
    swaps = [["|diff| on set 1", "pairs", "swaps", "swap rate"]]
    for i in range(len(s.pairs)):
        low = s.edges[i]
        span = f"[{low:.3f}, {s.edges[i + 1]:.3f})" if i + 1 < len(s.pairs) else f">= {low:.3f}"
        if s.pairs[i]:
            swaps.append(
                [span, str(int(s.pairs[i])), str(int(s.swaps[i])), _f(float(s.rate[i]), 3)]
            )
    swap_title = (
        f"Swap rate: {s.trials} random splits into two sets of {s.subset} queries "
        f"(overall {_f(s.overall, 3)})"
    )
    stab = [["queries", "mean tau", "min tau"]]
    for z, mean, low in zip(st.sizes, st.mean_tau, st.min_tau, strict=True):
        stab.append([str(int(z)), _f(mean, 3), _f(low, 3)])
    stab_title = (
        f"Ranking stability: Kendall's tau_b against all queries, {st.trials} subsets per size"
    )
    return [(head, quant), (swap_title, swaps), (stab_title, stab)]


def _left(rows: list[list[str]]) -> int:
    return 2 if rows[0][:2] in (["a", "b"], ["pairs by ASL", ""]) else 1


def render(m: MetaEvaluation, fmt: str, *, digits: int = 4) -> str:
    if fmt == "json":
        return json.dumps(m.to_dict(), indent=2, ensure_ascii=False) + "\n"
    lines: list[str] = []
    for label in m.labels:
        for title, rows in _sections(m, label, digits):
            if lines:
                lines.append("")
            if fmt == "markdown":
                lines += [f"**{markdown_escape(title)}**", ""]
                lines += markdown_table(rows[0], rows[1:], left=_left(rows))
            else:
                lines.append(escape_controls(title))
                lines += table_lines(rows[0], rows[1:], left=_left(rows))
    return "\n".join(lines) + "\n"
