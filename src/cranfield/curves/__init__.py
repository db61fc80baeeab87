"""Precision-recall, gain and recall-fallout curves, with every method of the literature.

    from cranfield.curves import precision_recall, gain, fallout, plot
    df = precision_recall("qrels.txt", ["run1.txt", "run2.txt"],
                          interpolation="quasi-cranfield", step="highest", extrapolation=5)
    plot(df, "pr.png")

See ``docs/curves.md`` for each method and its source.
"""

from __future__ import annotations

from cranfield.curves.fallout import FALLOUT_COLUMNS, fallout
from cranfield.curves.gain import GAIN_COLUMNS, GAIN_CURVES, area, gain
from cranfield.curves.interpolate import EXTRAPOLATIONS, INTERPOLATIONS
from cranfield.curves.pr import PR_COLUMNS, precision_recall
from cranfield.curves.recall_levels import STANDARD_CUTOFFS, parse_cutoffs, parse_levels
from cranfield.curves.steps import STEP_CHOICES
from cranfield.render.curve_charts import plot_curves as plot  # matplotlib is imported when drawing

__all__ = [
    "EXTRAPOLATIONS",
    "FALLOUT_COLUMNS",
    "GAIN_COLUMNS",
    "GAIN_CURVES",
    "INTERPOLATIONS",
    "PR_COLUMNS",
    "STANDARD_CUTOFFS",
    "STEP_CHOICES",
    "area",
    "fallout",
    "gain",
    "parse_cutoffs",
    "parse_levels",
    "plot",
    "precision_recall",
]
