"""Plots of the curve tables (matplotlib, the ``plot`` extra): one line per run.

Lines differ in colour, dash pattern and marker (:func:`cranfield.render.charts.run_styles`),
so they stay distinguishable in black-and-white print and past ten runs; the theoretical best
(or ideal) curve is drawn thin, grey and dashed; the legend stands to the right of the data.
Files are written by extension (``.png``, ``.svg``, ``.pdf``) with no timestamps, so that the
same curves give the same bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cranfield.base.output_files import check_output_file
from cranfield.errors import ParameterError
from cranfield.render.charts import (
    finish,
    legend_labels,
    legend_outside,
    markevery,
    mpl,
    panels,
    run_styles,
    save,
)

__all__ = ["plot_curves"]

FORMATS = (".png", ".svg", ".pdf")
BEST = "best"


def _describe(spec: Any) -> str:
    if spec is None:
        return ""
    if spec.mode == "cutoffs":
        how = "document cut-offs (Pseudo-Cranfield)"
        if spec.levels is not None:
            how += ", read at recall levels"
        avg = f"macro {spec.statistic}" if spec.average == "macro" else "micro (pooled counts)"
        return f"{how}; {avg}"
    parts = [f"{spec.interpolation} interpolation"]
    if spec.step:
        parts.append(f"step {spec.step}")
    if spec.extrapolation:
        parts.append(f"extrapolation {spec.extrapolation}")
    parts.append(f"{spec.average} {spec.statistic}")
    return ", ".join(parts)


class _Lines:
    """One style and one legend label per run of a table (the best curve apart)."""

    def __init__(self, table: Any) -> None:
        self.names = list(dict.fromkeys(table["run"].tolist()))
        runs = [n for n in self.names if n != BEST]
        self.style = dict(zip(runs, run_styles(len(runs)), strict=True))
        self.label = dict(zip(runs, legend_labels(runs), strict=True))

    def draw(self, ax: Any, x: Any, y: Any, name: str) -> None:
        if name == BEST:
            ax.plot(x, y, color="0.45", linestyle="--", linewidth=1.2, label="theoretical best")
            return
        i = list(self.style).index(name)
        ax.plot(
            x,
            y,
            markersize=4.5,
            linewidth=1.8,
            markevery=markevery(len(x), i),
            label=self.label[name],
            **self.style[name],
        )


def plot_curves(
    table: Any,
    path: str | Path | None = None,
    *,
    title: str | None = None,
    gain_curve: str = "dcg",
    figsize: tuple[float, float] | None = None,
    ax: Any = None,
) -> Any:
    """Draw a table from :func:`precision_recall`, :func:`gain` or :func:`fallout`; save it to
    ``path`` (PNG, SVG or PDF by extension) if given; return the matplotlib Figure.

    ``gain_curve``: ``dcg`` or ``cg`` for gain tables; ``figsize``: inches (width, height) of
    a new figure; ``ax``: draw on this Axes instead (a gain table's two panels share its
    area), leaving its figure's size and layout alone."""
    kind = table.attrs.get("curve")
    if kind not in ("pr", "gain", "fallout"):
        raise ParameterError("plot() takes a table from precision_recall(), gain() or fallout()")
    if kind == "gain" and gain_curve not in ("cg", "dcg"):
        raise ParameterError(f"gain_curve must be 'cg' or 'dcg', got {gain_curve!r}")
    if path is not None and Path(path).suffix.lower() not in FORMATS:
        raise ParameterError(f"plot file {str(path)!r}: use a .png, .svg or .pdf name")
    if path is not None:
        check_output_file(path, suffixes=FORMATS)  # before drawing
    mpl()
    own = ax is None
    lines = _Lines(table)
    if kind == "gain":
        fig, axes = panels(ax, 2, figsize or (10, 4.2))
        _gain(axes, table, gain_curve, lines)
    else:
        fig, axes = panels(ax, 1, figsize or (6.4, 5.0))
        (_pr if kind == "pr" else _fallout)(axes[0], table, lines)
    head, _, sub = (title or _default_title(kind, table)).partition("\n")
    if own:
        fig.suptitle(head, fontsize=12)
    else:
        sub = f"{head}\n{sub}" if sub else head
    if sub:
        axes[0].set_title(sub, fontsize=9, color="0.3", loc="left")
    data = None if figsize else (4.0, 3.2) if kind == "gain" else (4.8, 3.8)
    finish(fig, own, [ax] if ax is not None else axes, data)
    if path is not None:
        save(_root(fig), Path(path), Path(path).suffix.lower()[1:], tight=not own)
    return fig


def _root(fig: Any) -> Any:
    """The figure that holds ``fig`` (itself, unless it is a subfigure)."""
    while (parent := getattr(fig, "figure", None)) is not None and parent is not fig:
        fig = parent
    return fig


def _default_title(kind: str, table: Any) -> str:
    if kind == "pr":
        desc = _describe(table.attrs.get("spec"))
        return "Precision-recall" + (f"\n{desc}" if desc else "")
    if kind == "fallout":
        return "Recall-fallout (operating characteristic)"
    return "Cumulated gain"


def _pr(ax: Any, table: Any, lines: _Lines) -> None:
    _runs(ax, table, lines, "level", "value")
    ax.set_xlabel("Recall (share of relevant documents retrieved)")
    ax.set_ylabel("Precision (share of retrieved documents relevant)")
    ax.set_xlim(0, 1.02)


def _fallout(ax: Any, table: Any, lines: _Lines) -> None:
    _runs(ax, table, lines, "value", "level")
    ax.set_xlabel("Fallout (share of non-relevant documents retrieved)")
    ax.set_ylabel("Recall (share of relevant documents retrieved)")
    ax.set_xlim(left=0)


def _runs(ax: Any, table: Any, lines: _Lines, x: str, y: str) -> None:
    """One line per run of a pr or fallout table, a y axis of shares, the legend outside."""
    for name in lines.names:
        part = table[table["run"] == name]
        lines.draw(ax, part[x], part[y], name)
    ax.set_ylim(0, 1.05)
    ax.grid(True, color="0.88", linewidth=0.6)
    legend_outside(ax)


def _gain(axes: list[Any], table: Any, which: str, lines: _Lines) -> None:
    left, right = axes
    ideal_drawn = False
    for name in lines.names:
        part = table[table["run"] == name]
        cur = part[part["curve"] == which]
        ideal = part[part["curve"] == "i" + which]
        norm = part[part["curve"] == "n" + which]
        lines.draw(left, cur["rank"], cur["value"], name)
        if not ideal_drawn:
            left.plot(
                ideal["rank"],
                ideal["value"],
                color="0.45",
                linestyle="--",
                linewidth=1.2,
                label="ideal",
            )
            ideal_drawn = True
        lines.draw(right, norm["rank"], norm["value"], name)
    label = "Discounted cumulated gain" if which == "dcg" else "Cumulated gain"
    left.set_xlabel("Rank (documents examined)")
    left.set_ylabel(f"{label} (gain units)")
    right.set_xlabel("Rank (documents examined)")
    right.set_ylabel(f"Normalized {which.upper()} (ratio to ideal)")
    right.set_ylim(0, 1.05)
    for ax in (left, right):
        ax.set_xlim(left=1)
        ax.grid(True, color="0.88", linewidth=0.6)
    legend_outside(right, *left.get_legend_handles_labels())  # the runs and the ideal
