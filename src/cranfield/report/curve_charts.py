"""Plots of the curve tables (matplotlib, the ``plot`` extra): one line per run.

Lines differ in colour *and* in dash pattern and marker, so that they stay distinguishable
in black-and-white print; the theoretical best (or ideal) curve is drawn thin, grey and
dashed.  Files are written by extension (``.png``, ``.svg``, ``.pdf``) with no timestamps,
so that the same curves give the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._lazy import require
from ..errors import ParameterError
from ..output_files import check_output_file, replace_atomically

__all__ = ["plot_curves"]

FORMATS = (".png", ".svg", ".pdf")
STYLES = [("-", "o"), ("--", "s"), ("-.", "^"), (":", "D"), ("-", "v"), ("--", "x")]
BEST = "best"


def _style(i: int) -> tuple[str, str]:
    return STYLES[i % len(STYLES)]


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


def _line(ax: Any, x: Any, y: Any, name: str, i: int, many: bool) -> None:
    if name == BEST:
        ax.plot(x, y, color="0.45", linestyle="--", linewidth=1.2, label="theoretical best")
        return
    ls, marker = _style(i)
    ax.plot(
        x,
        y,
        linestyle=ls,
        marker=None if many else marker,
        markersize=4.5,
        linewidth=1.8,
        label=name,
    )


def plot_curves(
    table: Any,
    path: str | Path | None = None,
    *,
    title: str | None = None,
    gain_curve: str = "dcg",
    figsize: tuple[float, float] | None = None,
) -> Any:
    """Draw a table from :func:`precision_recall`, :func:`gain` or :func:`fallout`; save it to
    ``path`` (PNG, SVG or PDF by extension) if given; return the matplotlib Figure.

    ``gain_curve``: ``dcg`` or ``cg`` for gain tables; ``figsize``: inches (width, height)."""
    kind = table.attrs.get("curve")
    if kind not in ("pr", "gain", "fallout"):
        raise ParameterError("plot() takes a table from precision_recall(), gain() or fallout()")
    if path is not None and Path(path).suffix.lower() not in FORMATS:
        raise ParameterError(f"plot file {str(path)!r}: use a .png, .svg or .pdf name")
    if path is not None:
        check_output_file(path, suffixes=FORMATS)  # before drawing
    require("matplotlib", "plot", "plotting curves")
    from matplotlib.figure import Figure

    if kind == "gain":
        fig = _gain(Figure(figsize=figsize or (10, 4.2), layout="constrained"), table, gain_curve)
    else:
        fig = Figure(figsize=figsize or (6.4, 5.0), layout="constrained")
        ax = fig.add_subplot()
        if kind == "pr":
            _pr(ax, table)
        else:
            _fallout(ax, table)
    head, _, sub = (title or _default_title(kind, table)).partition("\n")
    fig.suptitle(head, fontsize=12)
    if sub:
        fig.axes[0].set_title(sub, fontsize=9, color="0.3", loc="left")
    if path is not None:
        _save(fig, Path(path))
    return fig


def _default_title(kind: str, table: Any) -> str:
    if kind == "pr":
        desc = _describe(table.attrs.get("spec"))
        return "Precision-recall" + (f"\n{desc}" if desc else "")
    if kind == "fallout":
        return "Recall-fallout (operating characteristic)"
    return "Cumulated gain"


def _runs(table: Any) -> list[str]:
    return list(dict.fromkeys(table["run"].tolist()))


def _pr(ax: Any, table: Any) -> None:
    for i, name in enumerate(_runs(table)):
        part = table[table["run"] == name]
        _line(ax, part["level"], part["value"], name, i, len(part) > 25)
    ax.set_xlabel("Recall (share of relevant documents retrieved)")
    ax.set_ylabel("Precision (share of retrieved documents relevant)")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.05)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.legend(loc="upper right", fontsize=9)


def _fallout(ax: Any, table: Any) -> None:
    for i, name in enumerate(_runs(table)):
        part = table[table["run"] == name]
        _line(ax, part["value"], part["level"], name, i, len(part) > 25)
    ax.set_xlabel("Fallout (share of non-relevant documents retrieved)")
    ax.set_ylabel("Recall (share of relevant documents retrieved)")
    ax.set_xlim(left=0)
    ax.set_ylim(0, 1.05)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.legend(loc="lower right", fontsize=9)


def _gain(fig: Any, table: Any, which: str) -> Any:
    if which not in ("cg", "dcg"):
        raise ParameterError(f"gain_curve must be 'cg' or 'dcg', got {which!r}")
    left, right = fig.subplots(1, 2)
    names = _runs(table)
    ideal_drawn = False
    for i, name in enumerate(names):
        part = table[table["run"] == name]
        cur = part[part["curve"] == which]
        ideal = part[part["curve"] == "i" + which]
        norm = part[part["curve"] == "n" + which]
        many = len(cur) > 25
        _line(left, cur["rank"], cur["value"], name, i, many)
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
        _line(right, norm["rank"], norm["value"], name, i, many)
    label = "Discounted cumulated gain" if which == "dcg" else "Cumulated gain"
    left.set_xlabel("Rank (documents examined)")
    left.set_ylabel(f"{label} (gain units)")
    right.set_xlabel("Rank (documents examined)")
    right.set_ylabel(f"Normalized {which.upper()} (ratio to ideal)")
    right.set_ylim(0, 1.05)
    for ax in (left, right):
        ax.set_xlim(left=1)
        ax.grid(True, color="0.88", linewidth=0.6)
    left.legend(loc="upper left", fontsize=9)
    right.legend(loc="lower right", fontsize=9)
    return fig


_UNDECODED = re.compile("[\udc80-\udcff]")


def _literal_text(fig: Any) -> None:
    """Show every text as written: run names, query ids and titles may hold ``$`` (which
    matplotlib would parse as mathematics, failing on ``$\\foo$``).  Tick labels made while
    saving follow the ``text.parse_math`` setting of the save."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        t.set_parse_math(False)
        text = t.get_text()
        if _UNDECODED.search(text):  # bytes of a file name that is not UTF-8: no glyph
            t.set_text(_UNDECODED.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", text))


def _save(fig: Any, path: Path) -> None:
    import matplotlib

    suffix = path.suffix.lower()
    metadata: dict[str, Any]
    if suffix == ".png":
        metadata = {"Software": None}
    elif suffix == ".pdf":
        metadata = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    else:
        metadata = {"Date": None, "Creator": None}
    _literal_text(fig)
    rc = {"svg.hashsalt": "cranfield", "svg.fonttype": "path", "text.parse_math": False}
    with matplotlib.rc_context(rc), replace_atomically(path) as fh:
        fig.savefig(fh, format=suffix[1:], dpi=150, metadata=metadata)
