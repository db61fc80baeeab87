"""Renderings of topic-set-size designs (:class:`~cranfield.comparing.design.Design`), one per
measure: text, Markdown and JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cranfield.base.output_formats import KINDS
from cranfield.render.markup import markdown_escape, markdown_table
from cranfield.render.table import escape_controls, table_lines

if TYPE_CHECKING:
    from cranfield.comparing.design import Design

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["design"].formats


def _n(n: int | None) -> str:
    from cranfield.comparing.design import MAX_TOPICS

    return f"> {MAX_TOPICS:,}" if n is None else f"{n:,}"


def _sections(label: str, d: Design, digits: int) -> tuple[str, list[list[str]]]:
    source = (
        "given"
        if d.estimate == "given"
        else f"{d.estimate} ANOVA V_E of {d.runs} runs x {d.queries} queries"
    )
    title = (
        f"{label}: variance {d.variance:.{digits}g} ({source}); alpha {d.alpha:g}, power "
        f"{d.power:g}, minimum difference {d.min_diff:g}"
    )
    now = f"with {d.queries} queries" if d.queries else "now"
    rows = [["requirement", "topics", now]]
    rows.append(
        [
            f"paired t-test, power >= {d.power:g}",
            _n(d.t_topics),
            "" if d.t_power_now is None else f"power {d.t_power_now:.3f}",
        ]
    )
    rows.append(
        [
            f"one-way ANOVA over {d.runs} runs, power >= {d.power:g}",
            _n(d.anova_topics),
            "" if d.anova_power_now is None else f"power {d.anova_power_now:.3f}",
        ]
    )
    if d.ci_width is not None:
        rows.append(
            [
                f"expected {100 * (1 - d.alpha):g}% CI width <= {d.ci_width:g}",
                _n(d.ci_topics),
                "" if d.ci_width_now is None else f"width {d.ci_width_now:.{digits}f}",
            ]
        )
    return title, rows


def render(designs: Sequence[tuple[str, Design]], fmt: str, *, digits: int = 4) -> str:
    if fmt == "json":
        doc = {"measures": {label: d.to_dict() for label, d in designs}}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    lines: list[str] = []
    for label, d in designs:
        title, rows = _sections(label, d, digits)
        if lines:
            lines.append("")
        if fmt == "markdown":
            lines += [f"**{markdown_escape(title)}**", ""]
            lines += markdown_table(rows[0], rows[1:], left=1)
        else:
            lines.append(escape_controls(title))
            lines += table_lines(rows[0], rows[1:], left=1)
    return "\n".join(lines) + "\n"
