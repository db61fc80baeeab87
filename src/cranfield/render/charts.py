"""What every chart shares (matplotlib, the ``plot`` extra, imported when drawing).

- Figures are :class:`matplotlib.figure.Figure` objects (no pyplot, no global state) with
  constrained layout; a chart drawn on a caller's ``ax`` leaves the caller's figure alone.
- Runs get distinct styles: colour (10, tab10) x line style (4) x marker (7) cycle with
  coprime periods, so the first 140 runs all differ in the triple and neighbours differ in
  all three (readable in black-and-white print too).
- Long names are shortened in the middle (``experiment-0…-b0.75-run1``) where the shortened
  names stay distinct, else wrapped; titles are wrapped; legends stand outside the data.
- :func:`fit` grows a figure until every text is inside it, so nothing is clipped when saved.
- Files carry no date and fixed SVG ids: the same chart gives the same bytes.
"""

from __future__ import annotations

import re
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cranfield.base.optional import require
from cranfield.base.output_files import replace_atomically

__all__ = [
    "distinct_labels",
    "finish",
    "fit",
    "legend_labels",
    "legend_outside",
    "mpl",
    "new_figure",
    "panels",
    "run_styles",
    "save",
    "shorten",
    "wrap_title",
]

COLORS = (  # matplotlib's tab10
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
LINESTYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LABEL_CHARS = 40
"""Longest legend or line label, in characters, before it is shortened or wrapped."""
LEGEND_ROWS = 40
"""Most entries in one column of a legend (more runs: more columns)."""
MOST_INCHES = 100.0
"""The largest side :func:`fit` grows a figure to (15,000 pixels at 150 dpi)."""


PLOT_FORMATS = ("png", "svg", "pdf")
"""The file formats of the charts a command writes into a directory."""


def chart_directory(directory: str | Path, formats: Sequence[str]) -> Path:
    """``directory``, checked and made, for charts in ``formats``; a
    :class:`~cranfield.errors.ParameterError` for an unknown format or a directory that cannot
    be written or made."""
    from cranfield.base.output_files import check_output_dir
    from cranfield.errors import ParameterError

    for fmt in formats:
        if fmt not in PLOT_FORMATS:
            raise ParameterError(
                f"unknown plot format {fmt!r}; choose one of {', '.join(PLOT_FORMATS)}"
            )
    check_output_dir(directory)
    mpl()
    out_dir = Path(directory)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(f"{directory}: cannot create the directory: {exc.strerror}") from None
    return out_dir


def mpl() -> Any:
    return require("matplotlib", "plot", "plotting")


def new_figure(width: float, height: float) -> Any:
    """A new figure (constrained layout) that a notebook displays by itself
    (:mod:`cranfield.render.figure`)."""
    mpl()
    from cranfield.render.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def panels(
    ax: Any, n: int, size: tuple[float, float], *, ratios: Sequence[float] | None = None, **kw: Any
) -> tuple[Any, list[Any]]:
    """``n`` axes side by side: a new figure of ``size`` inches, or the area of the caller's
    ``ax`` divided (its own frame hidden).  Returns the figure and the axes."""
    if ax is None:
        fig = new_figure(*size)
        axes = fig.subplots(1, n, squeeze=False, width_ratios=ratios, **kw)[0]
        return fig, list(axes)
    if n == 1:
        return ax.figure, [ax]
    ratios = list(ratios or [1.0] * n)
    gap = 0.12
    unit = (1.0 - gap * (n - 1)) / sum(ratios)
    axes, x = [], 0.0
    for r in ratios:
        share = {"sharey": axes[0]} if kw.get("sharey") and axes else {}
        axes.append(ax.inset_axes((x, 0.0, r * unit, 1.0), **share))
        x += r * unit + gap
    ax.set_axis_off()
    return ax.figure, axes


def run_styles(n: int) -> list[dict[str, str]]:
    """``n`` line styles, distinct in (colour, line style, marker) for up to 140 runs."""
    return [
        {
            "color": COLORS[i % len(COLORS)],
            "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)],
        }
        for i in range(n)
    ]


def markevery(points: int, i: int) -> Any:
    """About ten markers on a line of ``points`` points, staggered between runs."""
    if points <= 25:
        return None
    step = -(-points // 10)
    return (i % step, step)


def shorten(text: str, most: int = LABEL_CHARS) -> str:
    """``text`` cut in the middle to ``most`` characters (an ellipsis marks the cut)."""
    if len(text) <= most:
        return text
    head = (most - 1) // 2
    return text[:head] + "…" + text[len(text) - (most - 1 - head) :]


def legend_labels(names: Sequence[str], most: int = LABEL_CHARS) -> list[str]:
    """Names shortened in the middle, or wrapped whole where shortening would make two
    alike."""
    short = [shorten(n, most) for n in names]
    if len(set(short)) == len(set(names)):
        return short
    return [
        "\n".join(textwrap.wrap(n, most, break_long_words=True, break_on_hyphens=False)) or n
        for n in names
    ]


SEPARATORS = "_-/ :"
"""Where a run name is cut when its common prefix is dropped (a word or a number is not cut
in two); a common suffix may also be cut at a dot (``.txt.gz``)."""
COMMON_CHARS = 8
"""The shortest common prefix or suffix of run names worth dropping from their labels."""


def _common_start(texts: Sequence[str]) -> str:
    """The characters every text starts with."""
    first, last = min(texts), max(texts)  # the others lie between them
    n = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first))
    return first[:n]


def distinct_labels(names: Sequence[str], most: int = LABEL_CHARS) -> list[str]:
    """Labels for run names longer than ``most`` that share a long prefix or suffix: the part
    that differs, the dropped part marked by an ellipsis (``uogTr_bm25_..._qe_run1`` ..
    ``run12`` become ``…run1`` .. ``…run12``), then shortened in the middle as
    :func:`legend_labels` does; the full names where that would make two labels alike.
    Names that all fit in ``most`` characters are shown whole."""
    if len(set(names)) < 2 or all(len(n) <= most for n in names):
        return legend_labels(names, most)

    def backed_off(common: str, separators: str) -> int:  # to just after its last separator
        cut = max(common.rfind(c) for c in separators) + 1
        return cut if cut >= COMMON_CHARS else 0

    head = backed_off(_common_start(names), SEPARATORS)
    tail = backed_off(_common_start([n[::-1] for n in names]), SEPARATORS + ".")
    if any(len(n) - head - tail <= 0 for n in names):  # a name is all common part
        head = tail = 0
    parts = [("…" if head else "") + n[head : len(n) - tail] + ("…" if tail else "") for n in names]
    labels = legend_labels(parts, most)
    return labels if len(set(labels)) == len(set(names)) else legend_labels(names, most)


def wrap_title(text: str, width: int = 70) -> str:
    """A title wrapped to lines of ``width`` characters (its own line breaks kept)."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_long_words=True)) or line
        for line in text.split("\n")
    )


def legend_outside(ax: Any, handles: Any = None, labels: Any = None, **kw: Any) -> Any:
    """A legend to the right of ``ax``, top-aligned with it, outside the data area."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    elif labels is None:
        labels = [h.get_label() for h in handles]
    options = {
        "loc": "upper left",
        "bbox_to_anchor": (1.02, 1.0),
        "borderaxespad": 0.0,
        "fontsize": "small",
        "ncols": max(1, -(-len(handles) // LEGEND_ROWS)),
    }
    return ax.legend(handles, labels, **{**options, **kw})


def fit(
    fig: Any, data: tuple[float, float] | None = None, *, pad: float = 0.1, tries: int = 6
) -> Any:
    """Grow ``fig`` until everything drawn (legends outside the axes, long tick labels,
    titles) lies inside it and, with ``data`` (inches), until each panel's data area is at
    least that large; returns ``fig``."""
    mpl()
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    literal_text(fig)
    for _ in range(tries):
        with warnings.catch_warnings(), mpl().rc_context({"text.parse_math": False}):
            warnings.simplefilter("ignore", UserWarning)  # "axes sizes collapsed": grown next
            fig.draw_without_rendering()
            box = fig.get_tightbbox(fig.canvas.get_renderer())
        width, height = fig.get_size_inches()
        grow_w = max(0.0, -box.x0) + max(0.0, box.x1 - width)
        grow_h = max(0.0, -box.y0) + max(0.0, box.y1 - height)
        if data is not None:
            grids = [a.get_position() for a in fig.axes if a.get_subplotspec() is not None]
            cols = len({round(p.x0, 3) for p in grids})
            rows = len({round(p.y0, 3) for p in grids})
            grow_w = max(grow_w, (data[0] - min(p.width for p in grids) * width) * cols)
            grow_h = max(grow_h, (data[1] - min(p.height for p in grids) * height) * rows)
        if grow_w <= 0.01 and grow_h <= 0.01:
            break
        new_w = min(MOST_INCHES, width + (grow_w + pad if grow_w > 0.01 else 0.0))
        new_h = min(MOST_INCHES, height + (grow_h + pad if grow_h > 0.01 else 0.0))
        if (new_w, new_h) == (width, height):
            break
        fig.set_size_inches(new_w, new_h)
    literal_text(fig)  # the tick labels made while drawing
    return fig


def finish(
    fig: Any, own: bool, axes: Sequence[Any], data: tuple[float, float] | None = None
) -> Any:
    """The end of every chart: texts shown as written (:func:`literal_text`), and a figure the
    chart made grown to hold them and a data area of ``data`` inches (:func:`fit`); a
    caller's figure keeps its size."""
    if own:
        return fit(fig, data)
    for ax in axes:
        literal_text(ax)
    return fig


_UNDECODED = re.compile("[\udc80-\udcff]")


def literal_text(artist: Any) -> None:
    """Show every text as written: run names, query ids and titles may hold ``$`` (which
    matplotlib would parse as mathematics, failing on ``$\\foo$``).  Tick labels made while
    saving follow the ``text.parse_math`` setting of the save."""
    from matplotlib.text import Text

    for t in artist.findobj(Text):
        t.set_parse_math(False)
        text = t.get_text()
        if _UNDECODED.search(text):  # bytes of a file name that is not UTF-8: no glyph
            t.set_text(_UNDECODED.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", text))


METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
}


def save(fig: Any, path: Path, fmt: str, *, tight: bool = False) -> Path:
    """Write ``fig`` to ``path`` (replaced atomically) as ``png`` (150 dpi), ``svg`` or
    ``pdf``, without dates and with fixed SVG ids.  ``tight``: crop to what is drawn (for a
    caller's figure, which :func:`fit` does not resize)."""
    matplotlib = mpl()
    literal_text(fig)
    rc = {
        "svg.hashsalt": "cranfield",
        "svg.fonttype": "path",
        "pdf.compression": 6,
        "text.parse_math": False,
    }
    extra = {"bbox_inches": "tight", "pad_inches": 0.05} if tight else {}
    with matplotlib.rc_context(rc), replace_atomically(path) as fh:
        fig.savefig(fh, format=fmt, dpi=150, metadata=METADATA[fmt], **extra)
    return path
