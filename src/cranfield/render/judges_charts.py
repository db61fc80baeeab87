"""The heat map of a confusion matrix of grades (``cranfield judges --plot``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cranfield.judgments.agreement_result import JudgmentAgreement
from cranfield.render.charts import new_figure, save, wrap_title

__all__ = ["COLUMNS", "MOST_PAIRS", "confusion_heatmaps"]

COLUMNS = 4
"""Heat maps side by side; more pairs go on further rows."""
MOST_PAIRS = 12
"""The most heat maps drawn: with more pairs of sets, the first set against each of the others
(at most this many)."""


def confusion_heatmaps(r: JudgmentAgreement, path: str | Path | None = None) -> Any:
    """One heat map per pair of sets (beyond :data:`MOST_PAIRS` pairs, the first set against
    each other set, the first :data:`MOST_PAIRS` of them): the count of each (grade of a,
    grade of b) written in its cell, shaded by its share of the pairs; saved to ``path`` (``.png``,
    ``.svg``, ``.pdf``) when given.  Returns the figure."""
    pairs = r.pairs
    if len(pairs) > MOST_PAIRS:  # many sets: the first (the reference) against each other
        pairs = [p for p in pairs if p.a == r.sets[0].name][:MOST_PAIRS]
    n = len(pairs)
    cols = min(n, COLUMNS)
    rows = -(-n // cols)
    size = max(2.4, 0.55 * max((len(p.grades) for p in pairs), default=2) + 1.2)
    fig = new_figure((size + 0.8) * cols, (size + 0.6) * rows)
    grid = fig.subplots(rows, cols, squeeze=False)
    axes = list(grid.reshape(-1))
    for ax in axes[n:]:
        ax.set_visible(False)
    for ax, p in zip(axes, pairs, strict=False):
        total = p.confusion.sum()
        share = p.confusion / total if total else p.confusion
        top = float(share.max()) or 1.0
        image = ax.imshow(share, cmap="Blues", vmin=0.0, vmax=top, origin="upper")
        ticks = range(len(p.grades))
        ax.set_xticks(list(ticks), [str(g) for g in p.grades])
        ax.set_yticks(list(ticks), [str(g) for g in p.grades])
        ax.set_xlabel(f"grade in {p.b}")
        ax.set_ylabel(f"grade in {p.a}")
        k = p.statistics["kappa"].value
        shown = "undefined" if k != k else f"{k:.3f}"
        ax.set_title(wrap_title(f"{p.a} against {p.b}: {p.both} pairs, kappa {shown}", 40))
        for i in ticks:
            for j in ticks:
                ax.text(
                    j,
                    i,
                    str(int(p.confusion[i, j])),
                    ha="center",
                    va="center",
                    color="white" if share[i, j] > 0.6 * top else "black",
                    fontsize=8,
                )
        fig.colorbar(image, ax=ax, label="share of the pairs", shrink=0.8)
    if path is not None:
        out = Path(path)
        save(fig, out, out.suffix.lstrip(".").lower())
    return fig
