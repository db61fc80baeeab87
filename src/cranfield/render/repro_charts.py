"""The ER/DeltaRI plot of Breuer et al. (SIGIR 2020, the figures of the "Overall effects"):
one point per measure, the effect ratio across, the delta relative improvement up; a perfect
reproduction sits at (1, 0) (``cranfield repro --plot``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cranfield.comparing.repro_result import Reproduction
from cranfield.render.charts import new_figure, save, wrap_title

__all__ = ["er_dri_plot"]


def er_dri_plot(r: Reproduction, path: str | Path | None = None) -> Any:
    """The ER/DeltaRI plot of ``r``, saved to ``path`` (``.png``, ``.svg``, ``.pdf``) when
    given; measures with an undefined ER or DeltaRI are left out.  Returns the figure."""
    fig = new_figure(5.5, 4.5)
    ax = fig.subplots()
    ax.axvline(1.0, color="grey", linewidth=0.8, linestyle="--")
    ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    shown = [m for m in r.measures if m.er == m.er and m.delta_ri == m.delta_ri]
    for m in shown:
        ax.scatter([m.er], [m.delta_ri], s=25)
        ax.annotate(m.measure, (m.er, m.delta_ri), textcoords="offset points", xytext=(4, 4),
                    fontsize=8)  # fmt: skip
    ax.set_xlabel("effect ratio (ER)")
    ax.set_ylabel("delta relative improvement (DeltaRI)")
    ax.set_title(wrap_title(f"{r.kind}: {r.runs['rep_advanced']} against "
                            f"{r.runs['orig_advanced']}", 60))  # fmt: skip
    if path is not None:
        p = Path(path)
        save(fig, p, p.suffix.lstrip(".").lower())
    return fig
