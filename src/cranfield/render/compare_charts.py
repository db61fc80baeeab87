"""Charts of a comparison, drawn with matplotlib (the ``plot`` extra), imported lazily.

- precision histogram (Baeza-Yates & Ribeiro-Neto, *Modern Information Retrieval*, 1999,
  sec. 3.2.1, Fig. 3.5): one bar per query, ``M(b) - M(a)`` for any measure M;
- magnitude-difference plot (Keen, "Evaluation Parameters", SMART report ISR-13, Fig. 36):
  the requests favouring each run, by decreasing difference;
- agreement chart (Magdy & Jones, "PRES: A Score Metric for Evaluating Recall-Oriented
  Information Retrieval Applications", SIGIR 2010, Fig. 7): how often the measures reach each
  combination of outcomes over the pairs of runs;
- ranking change (Magdy & Jones 2010, Fig. 6): each run's rank under each measure;
- sweeps (Magdy & Jones 2010, Fig. 8): the mean of a measure against its cut-off (N_max, k).

Each function takes an optional ``ax`` to draw on and returns the figure; the shared rules
(run styles, long names, legends outside the data, deterministic files) are in
:mod:`cranfield.render.charts`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cranfield.base import progress
from cranfield.comparing.agreement import OUTCOME_TEXT
from cranfield.errors import ParameterError
from cranfield.render.charts import (
    PLOT_FORMATS,
    chart_directory,
    finish,
    legend_labels,
    legend_outside,
    panels,
    run_styles,
    save,
    shorten,
    wrap_title,
)

if TYPE_CHECKING:
    from cranfield.comparing.requests import MagnitudeDifference
    from cranfield.comparing.result import Comparison, Sweep

__all__ = [
    "PLOT_FORMATS",
    "agreement_chart",
    "magnitude_plot",
    "plot_comparison",
    "precision_histogram",
    "ranking_chart",
    "sweep_chart",
]

# first run of a pair (a) and second (b): colour-blind safe (Okabe & Ito)
COLOR_A = "#D55E00"
COLOR_B = "#0072B2"
OUTCOME_COLORS = {"a": COLOR_A, "b": COLOR_B, "=": "#999999"}
TICK_CHARS = 24
"""Longest query id or measure shown on an axis, in characters (shortened in the middle)."""


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._@-]+", "_", s).strip("_") or "x"


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def _tick_step(n: int, most: int) -> int:
    return max(1, -(-n // most))


def precision_histogram(
    rows: Sequence[tuple[str, float]],
    measure: str,
    a: str,
    b: str,
    *,
    higher_is_better: bool = True,
    ax: Any = None,
) -> Any:
    """Bars of ``M(b) - M(a)`` per query (Baeza-Yates & Ribeiro-Neto 1999, eq. 3.5 with A = b,
    B = a), coloured by the run that is better on the query.  Returns the figure."""
    own = ax is None
    fig, (ax,) = panels(ax, 1, (min(14.0, max(6.0, 0.12 * len(rows) + 3.0)), 4.0))
    x = list(range(len(rows)))
    vals = [v for _, v in rows]
    s = 1.0 if higher_is_better else -1.0
    colors = [COLOR_B if s * v > 0 else COLOR_A if s * v < 0 else "#999999" for v in vals]
    ax.bar(x, vals, color=colors, width=0.8)
    ax.axhline(0.0, color="black", linewidth=0.8)
    win = sum(s * v > 0 for v in vals)
    lose = sum(s * v < 0 for v in vals)
    eq = len(vals) - win - lose
    from matplotlib.patches import Patch

    name_a, name_b = legend_labels([a, b])
    legend_outside(
        ax,
        [
            Patch(color=COLOR_B, label=f"{name_b} better ({_n(win, 'query', 'queries')})"),
            Patch(color=COLOR_A, label=f"{name_a} better ({_n(lose, 'query', 'queries')})"),
            Patch(color="#999999", label=f"equal ({_n(eq, 'query', 'queries')})"),
        ],
    )
    step = _tick_step(len(rows), 40)
    ticks = [shorten(q, TICK_CHARS) for q, _ in rows][::step]
    ax.set_xticks(x[::step], ticks, rotation=90, fontsize="small")
    ax.set_xlim(-0.8, len(rows) - 0.2)
    lim = max([abs(v) for v in vals] + [1e-9]) * 1.1
    ax.set_ylim(-lim, lim)
    ax.set_xlabel("query")
    ax.set_ylabel(f"{measure}({shorten(b, 16)}) − {measure}({shorten(a, 16)})")
    ax.set_title(wrap_title(f"Precision histogram: {measure}, {shorten(b)} vs {shorten(a)}"))
    ax.grid(axis="y", linewidth=0.3)
    return finish(fig, own, [ax], (min(13.0, max(5.0, 0.12 * len(rows) + 2.0)), 2.8))


def magnitude_plot(md: MagnitudeDifference, measure: str, *, ax: Any = None) -> Any:
    """Keen's magnitude-difference plot: for each option the differences of the requests it
    wins, largest first, against the request's position (Fig. 36).  Returns the figure."""
    own = ax is None
    fig, (ax,) = panels(ax, 1, (6.5, 4.2))
    n1, n2 = len(md.first), len(md.second)
    decided = n1 + n2
    total = decided + len(md.equal)
    name1, name2 = legend_labels([md.first_name, md.second_name])

    def pct(k: int) -> str:
        share = f"{100.0 * k / decided:.1f}%" if decided else "0%"
        return f"{share} of {decided} unequal" if md.equal else share

    if n2:
        ax.plot(
            range(1, n2 + 1),
            [d for _, d in md.second],
            marker="o",
            markerfacecolor="white",
            color=COLOR_A,
            zorder=2,
            label=f"{_n(n2, 'request')} better on {name2} ({pct(n2)})",
        )
    if n1:
        ax.plot(
            range(1, n1 + 1),
            [d for _, d in md.first],
            marker="^",
            color=COLOR_B,
            zorder=3,
            label=f"{_n(n1, 'request')} better on {name1} ({pct(n1)})",
        )
    if md.equal:
        ax.plot([], [], " ", label=f"{_n(len(md.equal), 'request')} equal (not plotted)")
    ax.set_xlim(0.5, max(n1, n2, 1) + 0.5)
    ax.set_ylim(bottom=0.0)
    ax.set_xlabel("individual requests, ranked by the size of the difference")
    ax.set_ylabel(f"difference in {measure}")
    ax.set_title(
        f"Magnitude differences in {measure} ({total} requests)\n"
        + wrap_title(f"{shorten(md.first_name)} vs {shorten(md.second_name)}")
    )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(linewidth=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if n1 and n2:  # option I first, as in Keen's figure
        handles[0], handles[1] = handles[1], handles[0]
        labels[0], labels[1] = labels[1], labels[0]
    legend_outside(ax, handles, labels)
    return finish(fig, own, [ax], (5.0, 3.0))


def agreement_chart(c: Comparison, *, ax: Any = None) -> Any:
    """Magdy & Jones (2010) Fig. 7 for any runs and measures: one row per combination of outcomes
    (a grid of the measures' verdicts on the left, the share of pairs of runs on the right).
    Returns the figure."""
    own = ax is None
    rows = c.agreement()
    labels = list(c.labels)
    npairs = sum(r.count for r in rows)
    size = (4.0 + 1.0 * len(labels), 1.4 + 0.38 * len(rows))
    fig, (grid, bars) = panels(ax, 2, size, ratios=[0.9 * len(labels), 4.0], sharey=True)
    symbol = {"a": "1st", "b": "2nd", "=": "="}
    for i, row in enumerate(rows):
        for j, o in enumerate(row.outcomes):
            grid.scatter(j, i, s=520, marker="s", color=OUTCOME_COLORS[o])
            grid.text(
                j,
                i,
                symbol[o],
                ha="center",
                va="center",
                color="white",
                fontsize=8,
                fontweight="bold",
            )
    grid.set_xticks(range(len(labels)), [shorten(m, TICK_CHARS) for m in labels], rotation=30)
    for t in grid.get_xticklabels():
        t.set_horizontalalignment("right")
    grid.set_xlim(-0.6, len(labels) - 0.4)
    grid.set_yticks(range(len(rows)), [_n(r.count, "pair") for r in rows])
    grid.invert_yaxis()
    grid.tick_params(length=0)
    for side in ("top", "right", "bottom", "left"):
        grid.spines[side].set_visible(False)
    colors = ["#009E73" if r.agree else "#CC79A7" for r in rows]
    bars.barh(range(len(rows)), [r.percent for r in rows], color=colors)
    for i, r in enumerate(rows):
        bars.text(r.percent, i, f" {r.percent:.1f}%", va="center", fontsize=8)
    bars.set_xlim(0, max([r.percent for r in rows] + [1]) * 1.25)
    bars.set_xlabel(f"% of {npairs} pairs of runs")
    bars.grid(axis="x", linewidth=0.3)
    from matplotlib.patches import Patch

    handles = [
        Patch(color=OUTCOME_COLORS["a"], label="1st run significantly better"),
        Patch(color=OUTCOME_COLORS["b"], label="2nd run significantly better"),
        Patch(color=OUTCOME_COLORS["="], label=OUTCOME_TEXT["="]),
        Patch(color="#009E73", label="all measures agree"),
        Patch(color="#CC79A7", label="measures disagree"),
    ]
    title = wrap_title(f"Agreement of {', '.join(labels)} ({c.test} test, alpha {c.alpha:g})")
    if own:
        fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize="small")
        fig.suptitle(title)
    else:
        legend_outside(bars, handles)
        ax.set_title(title)
    return finish(fig, own, [ax])


def _line_labels(c: Comparison) -> list[str]:
    """Run names for the ends of the ranking chart's lines: shortened, with the comparison's
    letter in front where shortening makes two alike."""
    short = [shorten(r) for r in c.runs]
    if len(set(short)) == len(short):
        return short
    letters = c.letters
    return [f"({letters[r]}) {s}" for r, s in zip(c.runs, short, strict=True)]


def ranking_chart(c: Comparison, *, ax: Any = None) -> Any:
    """Magdy & Jones (2010) Fig. 6: the rank of each run under each measure, lines joining a run's
    ranks, the run's name and rank at both ends.  Returns the figure."""
    own = ax is None
    labels = list(c.labels)
    k = len(c.runs)
    fig, (ax,) = panels(ax, 1, (2.2 + 2.0 * len(labels), 1.5 + 0.28 * k))
    ranks = {m: {r: i + 1 for i, r in enumerate(c.ranking(m))} for m in labels}
    names = _line_labels(c)
    for run, name, style in zip(c.runs, names, run_styles(k), strict=True):
        ys = [ranks[m][run] for m in labels]
        ax.plot(range(len(labels)), ys, linewidth=1.2, markersize=5, label=name, **style)
        for x, y, text in ((0, ys[0], f"{name}  {ys[0]}"), (1, ys[-1], f"{ys[-1]}  {name}")):
            ax.annotate(
                text,
                xy=(x, y),
                xycoords=("axes fraction", "data"),
                xytext=(6 if x else -6, 0),
                textcoords="offset points",
                ha="left" if x else "right",
                va="center",
                fontsize=8,
                color=style["color"],
                annotation_clip=False,
            )
    ax.set_xticks(range(len(labels)), [shorten(m, TICK_CHARS) for m in labels])
    ax.set_xlim(-0.15, len(labels) - 0.85)
    ax.set_ylim(k + 0.5, 0.5)
    ax.tick_params(axis="y", left=False, labelleft=False)  # the ranks stand by the names
    ax.set_title(f"Ranking of {k} runs by each measure (1 = best mean)")
    ax.grid(axis="x", linewidth=0.3)
    return finish(fig, own, [ax], (1.6 * len(labels), 0.25 * k + 0.5))


def sweep_chart(sweeps: Sequence[Sweep], *, ax: Any = None) -> Any:
    """Magdy & Jones (2010) Fig. 8: the mean of each swept measure against its cut-off, one line
    per run (logarithmic x axis when the cut-offs span a factor of 20 or more), one legend
    outside the panels.  Returns the figure."""
    own = ax is None
    n = len(sweeps)
    runs = list(sweeps[0].values)
    fig, axes = panels(ax, n, (5.0 * n, 4.0))
    names = legend_labels(runs)
    for panel, s in zip(axes, sweeps, strict=True):
        for run, name, style in zip(runs, names, run_styles(len(runs)), strict=True):
            panel.plot(s.xs, s.values[run], label=name, **style)
        if min(s.xs) > 0 and max(s.xs) / min(s.xs) >= 20:
            panel.set_xscale("log")
        panel.set_xticks(list(s.xs), [f"{x:g}" for x in s.xs])
        panel.minorticks_off()
        panel.set_xlabel(f"cut-off of {s.name} (documents)")
        panel.set_ylabel(f"mean {s.name}@cut-off")
        panel.set_title(f"{s.name} against its cut-off")
        panel.grid(linewidth=0.3)
    legend_outside(axes[-1])
    return finish(fig, own, [ax] if ax is not None else axes, (4.0, 3.0))


def plot_comparison(
    c: Comparison,
    directory: str | Path,
    *,
    formats: Sequence[str] = ("png",),
    pair_plots: str = "auto",
) -> list[Path]:
    """Write every chart of ``c`` into ``directory`` in each of ``formats``.

    ``pair_plots``: ``auto``/``all`` draw a precision histogram and a magnitude-difference
    plot for every tested pair and measure, ``none`` skips them."""
    if pair_plots not in ("auto", "all", "none"):
        raise ParameterError(f"pair_plots must be auto, all or none, got {pair_plots!r}")
    out_dir = chart_directory(directory, formats)
    written: list[Path] = []

    def emit(fig: Any, stem: str) -> None:
        for fmt in formats:
            written.append(save(fig, out_dir / f"{stem}.{fmt}", fmt))

    if len(c.labels) >= 2:
        emit(agreement_chart(c), "agreement")
        emit(ranking_chart(c), "ranking-change")
    if c.sweeps:
        emit(sweep_chart(c.sweeps), "sweeps")
    if pair_plots != "none":
        pairs = [(label, p) for label in c.labels for p in c.pairs[label]]
        for label, p in progress.track(pairs, "charts"):
            stem = f"{_slug(label)}-{_slug(p.b)}-vs-{_slug(p.a)}"
            hist = precision_histogram(
                c.differences(label, p.a, p.b),
                label,
                p.a,
                p.b,
                higher_is_better=c.higher_is_better(label),
            )
            emit(hist, "histogram-" + stem)
            emit(magnitude_plot(c.magnitude(label, p.a, p.b), label), "magnitude-" + stem)
    return written
