"""Charts of a meta-evaluation (:class:`~cranfield.comparing.meta.MetaEvaluation`), one line
per measure: the ASL curves (Sakai, SIGIR 2006, Fig. 1: the pairs of runs sorted by their
achieved significance level), the swap rate against the difference of the means (Voorhees &
Buckley, SIGIR 2002, Fig. 2) and Kendall's tau against the number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cranfield.render.charts import (
    chart_directory,
    finish,
    legend_labels,
    legend_outside,
    panels,
    run_styles,
    save,
)

if TYPE_CHECKING:
    from cranfield.comparing.meta import MetaEvaluation

__all__ = ["asl_chart", "plot_meta", "stability_chart", "swap_chart"]


def _lines(m: MetaEvaluation, ax: Any, title: str) -> tuple[Any, Any, bool]:
    own = ax is None
    fig, axes = panels(ax, 1, (6.0, 4.0))
    axes[0].set_title(title)
    axes[0].grid(linewidth=0.3)
    return fig, axes[0], own


def asl_chart(m: MetaEvaluation, *, ax: Any = None) -> Any:
    """The ASL curve of each measure, with alpha as a horizontal line."""
    d0 = m.discrimination[m.labels[0]]
    fig, panel, own = _lines(m, ax, f"ASL curves ({d0.test}, {d0.samples} resamples)")
    names = legend_labels(list(m.labels))
    for label, name, style in zip(m.labels, names, run_styles(len(m.labels)), strict=True):
        curve = m.discrimination[label].curve
        panel.plot(range(1, len(curve) + 1), curve, label=name, markevery=max(1, len(curve) // 10),
                   **style)  # fmt: skip
    panel.axhline(d0.alpha, color="#999999", linewidth=0.8, linestyle=":")
    panel.set_xlabel("pairs of runs, sorted by ASL")
    panel.set_ylabel("achieved significance level (p)")
    legend_outside(panel)
    return finish(fig, own, [panel], (4.5, 3.0))


def swap_chart(m: MetaEvaluation, *, ax: Any = None) -> Any:
    """The swap rate of each measure against the bin of |difference of the means|."""
    s0 = m.swaps[m.labels[0]]
    title = f"Swap rate, two sets of {s0.subset} queries, {s0.trials} splits"
    fig, panel, own = _lines(m, ax, title)
    names = legend_labels(list(m.labels))
    for label, name, style in zip(m.labels, names, run_styles(len(m.labels)), strict=True):
        s = m.swaps[label]
        mids = (s.edges[:-1] + s.edges[1:]) / 2
        panel.plot(mids, s.rate, label=name, **style)
    panel.set_xlabel("|difference of the means| on the first set")
    panel.set_ylabel("swap rate")
    legend_outside(panel)
    return finish(fig, own, [panel], (4.5, 3.0))


def stability_chart(m: MetaEvaluation, *, ax: Any = None) -> Any:
    """Mean Kendall's tau of each measure's ranking against the number of queries."""
    st0 = m.stability[m.labels[0]]
    fig, panel, own = _lines(m, ax, f"Ranking stability, {st0.trials} subsets per size")
    names = legend_labels(list(m.labels))
    for label, name, style in zip(m.labels, names, run_styles(len(m.labels)), strict=True):
        st = m.stability[label]
        panel.plot(st.sizes, st.mean_tau, label=name, **style)
    panel.set_xlabel("queries in the subset")
    panel.set_ylabel("mean Kendall's tau_b against all queries")
    legend_outside(panel)
    return finish(fig, own, [panel], (4.5, 3.0))


def plot_meta(
    m: MetaEvaluation, directory: str | Path, *, formats: Sequence[str] = ("png",)
) -> list[Path]:
    """Write ``asl``, ``swap-rate`` and ``stability`` charts into ``directory``."""
    out_dir = chart_directory(directory, formats)
    written = []
    for stem, chart in (
        ("asl", asl_chart),
        ("swap-rate", swap_chart),
        ("stability", stability_chart),
    ):
        fig = chart(m)
        for fmt in formats:
            written.append(save(fig, out_dir / f"{stem}.{fmt}", fmt))
    return written
