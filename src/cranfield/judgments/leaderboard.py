"""What :func:`cranfield.leaderboards` returns: the leaderboards of the runs under each
judgment set (the runs' means per measure), one :class:`~.leaderboard_stats.SetPair` of
statistics per measure and pair of sets compared, the significance verdicts, and their forms:
a table (text, CSV), JSON, and a scatter plot of two sets' means with the swapped pairs drawn.

How they are computed: :mod:`.leaderboard_runs` (:func:`leaderboards`, documented there) and
:mod:`.leaderboard_stats` (the statistics, declared once in :data:`STATISTICS`).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.base.moved_paths import former_names
from cranfield.errors import ParameterError
from cranfield.judgments.leaderboard_stats import STATISTICS, SetPair, rank_statistics

__all__ = ["STATISTICS", "LeaderboardAgreement", "SetPair", "rank_statistics"]

__getattr__ = former_names(__name__)  # leaderboards: cranfield.leaderboards


@dataclass
class LeaderboardAgreement:
    """The leaderboards of ``runs`` under each judgment set in ``sets``, and their agreement.

    ``means[label]`` is a (sets x runs) array of the runs' means; ``rows`` one
    :class:`SetPair` per measure and pair of sets compared; ``queries`` the number of queries
    the means of each set are over; ``outcomes[label][s]`` the significance verdict of every
    tested run pair (``pair_runs``) under set ``s``."""

    sets: tuple[str, ...]
    runs: tuple[str, ...]
    labels: tuple[str, ...]
    directions: dict[str, int]
    means: dict[str, np.ndarray]
    queries: dict[str, int]
    rows: list[SetPair]
    top_k: int
    test: str
    correction: str
    alpha: float
    pair_runs: list[tuple[str, str]] = field(default_factory=list)
    outcomes: dict[str, list[list[str]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def table(self, fmt: str = "table", *, digits: int = 4) -> str:
        """The agreement rows as ``table`` (text, also spelled ``text``), ``csv`` or ``json``
        (and the means, in JSON)."""
        from cranfield.base.output_formats import canonical

        fmt = canonical("leaderboard", fmt)
        if fmt == "json":
            import json

            return json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n"
        head = [
            "measure",
            "set A",
            "set B",
            "runs",
            "tau_b",
            "tau_ap_b",
            "spearman",
            "pearson",
            f"top{self.top_k}_runs",
            f"top{self.top_k}_tau_b",
            "swaps",
            "pairs",
            "moved",
            "rank_A",
            "rank_B",
            "same_verdict",
            "tested",
        ]

        def num(x: float) -> str:
            return "nan" if not math.isfinite(x) else f"{x:.{digits}f}"

        body = [
            [
                r.measure,
                r.a,
                r.b,
                str(r.runs),
                num(r.tau_b),
                num(r.tau_ap_b),
                num(r.spearman),
                num(r.pearson),
                str(r.top_runs),
                num(r.top_k_tau),
                str(r.swaps),
                str(r.pairs),
                r.moved or "",
                str(r.rank_a),
                str(r.rank_b),
                num(r.same_verdict),
                str(r.tested_pairs),
            ]
            for r in self.rows
        ]
        if fmt == "csv":
            from cranfield.render.delimited import delimited

            return delimited(head, body)
        from cranfield.render.table import text_table

        lines = [
            "queries per set: "
            + ", ".join(f"{s} {self.queries[s]}" for s in self.sets)
            + f"; significance: {self.test} test, correction {self.correction}, "
            f"alpha {self.alpha:g}\n",
            *(f"note: {n}\n" for n in self.notes),
            "\n",
            text_table(head, body, left=3),
        ]
        return "".join(lines)

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "sets": list(self.sets),
            "runs": list(self.runs),
            "measures": list(self.labels),
            "queries": dict(self.queries),
            "top_k": self.top_k,
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "notes": list(self.notes),
            "means": {
                label: {
                    s: {r: num(v) for r, v in zip(self.runs, row, strict=True)}
                    for s, row in zip(self.sets, self.means[label], strict=True)
                }
                for label in self.labels
            },
            "agreement": [r.to_dict() for r in self.rows],
        }

    def plot(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        measure: str | None = None,
        a: int | str = 0,
        b: int | str = 1,
        ax: Any = None,
    ) -> Any:
        """Scatter of the runs' means under set ``a`` (x) against set ``b`` (y) for
        ``measure`` (default: the first), the pairs that swap joined by red segments and
        their runs drawn in red; written to ``path`` (``.png``, ``.svg``, ``.pdf``) when
        given.  Returns the figure."""
        from pathlib import Path

        from cranfield.render import charts

        label = self.labels[0] if measure is None else measure
        if label not in self.means:
            raise ParameterError(f"no measure {label!r}; the measures are {', '.join(self.labels)}")
        ia, ib = (self._set_index(s) for s in (a, b))
        x, y = self.means[label][ia], self.means[label][ib]
        sgn = self.directions.get(label, 1) or 1
        dx = np.sign(sgn * (x[:, None] - x[None, :]))
        dy = np.sign(sgn * (y[:, None] - y[None, :]))
        swapped = np.argwhere(np.triu(dx * dy < 0))
        own = ax is None
        if own:
            fig = charts.new_figure(5.0, 5.0)
            ax = fig.add_subplot()
        fig = ax.figure
        from matplotlib.collections import LineCollection

        if len(swapped):
            segs = [[(x[i], y[i]), (x[j], y[j])] for i, j in swapped]
            ax.add_collection(
                LineCollection(
                    segs,
                    colors="#d62728",
                    linewidths=0.6,
                    alpha=0.35,
                    label=f"swapped pairs ({len(swapped)})",
                )
            )
        moving = np.zeros(len(x), dtype=bool)
        moving[swapped.reshape(-1)] = True
        if (~moving).any():
            ax.scatter(x[~moving], y[~moving], s=18, color="#1f77b4", label="runs", zorder=3)
        if moving.any():
            ax.scatter(
                x[moving],
                y[moving],
                s=18,
                color="#d62728",
                zorder=3,
                label="runs in a swapped pair",
            )
        finite = np.isfinite(np.concatenate([x, y]))
        if finite.any():
            both = np.concatenate([x, y])[finite]
            lo, hi = float(both.min()), float(both.max())
            pad = (hi - lo) * 0.05 or 0.05
            ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="0.6", lw=0.8, ls="--")
        if len(x) <= 20:
            for name, u, v in zip(self.runs, x, y, strict=True):
                ax.annotate(
                    charts.shorten(name, 20),
                    (u, v),
                    fontsize=6,
                    xytext=(3, 3),
                    textcoords="offset points",
                )
        ax.set_xlabel(f"{label} under {charts.shorten(self.sets[ia])}")
        ax.set_ylabel(f"{label} under {charts.shorten(self.sets[ib])}")
        ax.set_title(
            charts.wrap_title(f"{label}: run means, {self.sets[ia]} against {self.sets[ib]}"),
            fontsize=9,
        )
        ax.legend(fontsize=7, loc="upper left")
        fig = charts.finish(fig, own, [ax])
        if path is not None:
            p = Path(path)
            fmt = p.suffix.lstrip(".").lower()
            if fmt not in ("png", "svg", "pdf"):
                raise ParameterError(f"{path}: a plot is written as .png, .svg or .pdf")
            charts.save(fig, p, fmt)
        return fig

    def _set_index(self, s: int | str) -> int:
        if isinstance(s, int) and not isinstance(s, bool):
            if not 0 <= s < len(self.sets):
                raise ParameterError(f"set {s} out of range: there are {len(self.sets)} sets")
            return s
        if s in self.sets:
            return self.sets.index(s)
        raise ParameterError(f"no judgment set {s!r}; the sets are {', '.join(self.sets)}")
