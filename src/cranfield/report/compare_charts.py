"""Charts of a comparison, drawn with matplotlib (the ``plot`` extra), imported lazily.

- precision histogram (Baeza-Yates & Ribeiro-Neto, seed 001 Fig. 3.5): one bar per query,
  ``M(b) - M(a)`` for any measure M;
- magnitude-difference plot (Keen, seed 002 Fig. 36): the requests favouring each run, by
  decreasing difference;
- agreement chart (Magdy & Jones, seed 000 Fig. 7): how often the measures reach each
  combination of outcomes over the pairs of runs;
- ranking change (seed 000 Fig. 6): each run's rank under each measure;
- sweeps (seed 000 Fig. 8): the mean of a measure against its cut-off (N_max, k).

Figures are built with :class:`matplotlib.figure.Figure` (no pyplot, no global state) and
saved without timestamps, so the same comparison gives the same files.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._lazy import require
from ..comparing.agreement import OUTCOME_TEXT
from ..errors import ParameterError
from ..output_files import check_output_dir, replace_atomically

if TYPE_CHECKING:
    from ..comparing.requests import MagnitudeDifference
    from ..comparing.result import Comparison, Sweep

__all__ = [
    "PLOT_FORMATS",
    "agreement_chart",
    "magnitude_plot",
    "plot_comparison",
    "precision_histogram",
    "ranking_chart",
    "sweep_chart",
]

PLOT_FORMATS = ("png", "svg", "pdf")
# first run of a pair (a) and second (b): colour-blind safe (Okabe & Ito)
COLOR_A = "#D55E00"
COLOR_B = "#0072B2"
OUTCOME_COLORS = {"a": COLOR_A, "b": COLOR_B, "=": "#999999"}


def _mpl() -> Any:
    return require("matplotlib", "plot", "plotting")


def _figure(width: float, height: float) -> Any:
    _mpl()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


_UNDECODED = re.compile("[\udc80-\udcff]")


def _literal_text(fig: Any) -> None:
    """Show every text as written: run names and query ids may hold ``$`` (which matplotlib
    would parse as mathematics, failing on ``$\\foo$``).  Tick labels made while saving follow
    the ``text.parse_math`` setting of the save."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        t.set_parse_math(False)
        text = t.get_text()
        if _UNDECODED.search(text):  # bytes of a file name that is not UTF-8: no glyph
            t.set_text(_UNDECODED.sub(lambda m: f"\\x{ord(m[0]) - 0xDC00:02x}", text))


def _save(fig: Any, path: Path, fmt: str) -> Path:
    mpl = _mpl()
    if fmt not in PLOT_FORMATS:
        raise ParameterError(
            f"unknown plot format {fmt!r}; choose one of {', '.join(PLOT_FORMATS)}"
        )
    metadata = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
    out = path.parent / f"{path.name}.{fmt}"
    _literal_text(fig)
    rc = {"svg.hashsalt": "cranfield", "pdf.compression": 6, "text.parse_math": False}
    with mpl.rc_context(rc), replace_atomically(out) as fh:
        fig.savefig(fh, format=fmt, dpi=150, metadata=metadata[fmt])
    return out


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._@-]+", "_", s).strip("_") or "x"


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def _tick_step(n: int, most: int = 40) -> int:
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
    """Bars of ``M(b) - M(a)`` per query (seed 001 eq. 3.5 with A = b, B = a), coloured by the
    run that is better on the query.  Returns the figure (or draws on ``ax``)."""
    fig = None
    if ax is None:
        width = min(14.0, max(6.0, 0.12 * len(rows) + 3.0))
        fig = _figure(width, 4.0)
        ax = fig.add_subplot()
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

    ax.legend(
        handles=[
            Patch(color=COLOR_B, label=f"{b} better ({_n(win, 'query', 'queries')})"),
            Patch(color=COLOR_A, label=f"{a} better ({_n(lose, 'query', 'queries')})"),
            Patch(color="#999999", label=f"equal ({_n(eq, 'query', 'queries')})"),
        ],
        loc="best",
        fontsize="small",
    )
    step = _tick_step(len(rows))
    ax.set_xticks(x[::step], [q for q, _ in rows][::step], rotation=90, fontsize="small")
    ax.set_xlim(-0.8, len(rows) - 0.2)
    lim = max([abs(v) for v in vals] + [1e-9]) * 1.1
    ax.set_ylim(-lim, lim)
    ax.set_xlabel("query")
    ax.set_ylabel(f"{measure}({b}) − {measure}({a})")
    ax.set_title(f"Precision histogram: {measure}, {b} vs {a}")
    ax.grid(axis="y", linewidth=0.3)
    return fig


def magnitude_plot(md: MagnitudeDifference, measure: str, *, ax: Any = None) -> Any:
    """Keen's magnitude-difference plot: for each option the differences of the requests it
    wins, largest first, against the request's position (Fig. 36)."""
    fig = None
    if ax is None:
        fig = _figure(6.5, 4.2)
        ax = fig.add_subplot()
    n1, n2 = len(md.first), len(md.second)
    decided = n1 + n2
    total = decided + len(md.equal)

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
            label=f"{_n(n2, 'request')} better on {md.second_name} ({pct(n2)})",
        )
    if n1:
        ax.plot(
            range(1, n1 + 1),
            [d for _, d in md.first],
            marker="^",
            color=COLOR_B,
            zorder=3,
            label=f"{_n(n1, 'request')} better on {md.first_name} ({pct(n1)})",
        )
    if md.equal:
        ax.plot([], [], " ", label=f"{_n(len(md.equal), 'request')} equal (not plotted)")
    ax.set_xlim(0.5, max(n1, n2, 1) + 0.5)
    ax.set_ylim(bottom=0.0)
    ax.set_xlabel("individual requests, ranked by the size of the difference")
    ax.set_ylabel(f"difference in {measure}")
    ax.set_title(
        f"Magnitude differences in {measure} ({total} requests)\n"
        f"{md.first_name} vs {md.second_name}"
    )
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(linewidth=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if n1 and n2:  # option I first, as in Keen's figure
        handles[0], handles[1] = handles[1], handles[0]
        labels[0], labels[1] = labels[1], labels[0]
    ax.legend(handles, labels, fontsize="small", loc="upper right")
    return fig


def agreement_chart(c: Comparison) -> Any:
    """Seed 000 Fig. 7 for any runs and measures: one row per combination of outcomes (a
    grid of the measures' verdicts on the left, the share of pairs of runs on the right)."""
    rows = c.agreement()
    labels = list(c.labels)
    npairs = sum(r.count for r in rows)
    height = 1.4 + 0.38 * len(rows)
    fig = _figure(4.0 + 1.0 * len(labels), height)
    grid, bars = fig.subplots(1, 2, sharey=True, width_ratios=[0.9 * len(labels), 4.0])
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
    grid.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
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
    fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize="small")
    fig.suptitle(f"Agreement of {', '.join(labels)} ({c.test} test, alpha {c.alpha:g})")
    return fig


def _run_colors(n: int) -> list[Any]:
    mpl = _mpl()
    cmap = mpl.colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def ranking_chart(c: Comparison) -> Any:
    """Seed 000 Fig. 6: the rank of each run under each measure, lines joining a run's ranks."""
    labels = list(c.labels)
    k = len(c.runs)
    fig = _figure(2.2 + 2.0 * len(labels), 1.5 + 0.28 * k)
    ax = fig.add_subplot()
    ranks = {m: {r: i + 1 for i, r in enumerate(c.ranking(m))} for m in labels}
    colors = _run_colors(k)
    styles = ["-", "--", ":", "-."]
    for idx, run in enumerate(c.runs):
        ys = [ranks[m][run] for m in labels]
        ax.plot(
            range(len(labels)),
            ys,
            marker="o",
            color=colors[idx],
            linestyle=styles[(idx // 20) % 4] if k > 20 else "-",
            linewidth=1.2,
        )
        ax.text(-0.08, ys[0], run, ha="right", va="center", fontsize=8, color=colors[idx])
        ax.text(
            len(labels) - 1 + 0.08,
            ys[-1],
            run,
            ha="left",
            va="center",
            fontsize=8,
            color=colors[idx],
        )
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.9, len(labels) - 0.1)
    ax.set_ylim(k + 0.5, 0.5)
    step = _tick_step(k, 25)
    ax.set_yticks(range(1, k + 1, step))
    ax.set_ylabel("rank (1 = best mean)")
    ax.set_title(f"Ranking of {k} runs by each measure")
    ax.grid(axis="x", linewidth=0.3)
    return fig


def sweep_chart(sweeps: Sequence[Sweep]) -> Any:
    """Seed 000 Fig. 8: the mean of each swept measure against its cut-off, one line per run
    (logarithmic x axis when the cut-offs span a factor of 20 or more)."""
    n = len(sweeps)
    runs = list(sweeps[0].values)
    outside = len(runs) > 6
    fig = _figure(5.0 * n + (2.5 if outside else 0.0), 4.0)
    axes = fig.subplots(1, n, squeeze=False)[0]
    colors = _run_colors(len(runs))
    for ax, s in zip(axes, sweeps, strict=True):
        for idx, run in enumerate(runs):
            ax.plot(s.xs, s.values[run], marker="o", color=colors[idx], label=run)
        if min(s.xs) > 0 and max(s.xs) / min(s.xs) >= 20:
            ax.set_xscale("log")
        ax.set_xticks(list(s.xs), [f"{x:g}" for x in s.xs])
        ax.minorticks_off()
        ax.set_xlabel(f"cut-off of {s.name} (documents)")
        ax.set_ylabel(f"mean {s.name}@cut-off")
        ax.set_title(f"{s.name} against its cut-off")
        ax.grid(linewidth=0.3)
    if outside:
        fig.legend(
            *axes[0].get_legend_handles_labels(), loc="outside right upper", fontsize="small"
        )
    else:
        axes[0].legend(fontsize="small", loc="best")
    return fig


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
    for fmt in formats:
        if fmt not in PLOT_FORMATS:
            raise ParameterError(
                f"unknown plot format {fmt!r}; choose one of {', '.join(PLOT_FORMATS)}"
            )
    check_output_dir(directory)
    out_dir = Path(directory)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError(f"{directory}: cannot create the directory: {exc.strerror}") from None
    written: list[Path] = []

    def emit(fig: Any, stem: str) -> None:
        for fmt in formats:
            written.append(_save(fig, out_dir / stem, fmt))

    if len(c.labels) >= 2:
        emit(agreement_chart(c), "agreement")
        emit(ranking_chart(c), "ranking-change")
    if c.sweeps:
        emit(sweep_chart(c.sweeps), "sweeps")
    if pair_plots != "none":
        for label in c.labels:
            for p in c.pairs[label]:
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
