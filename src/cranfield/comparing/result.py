"""The result of a comparison: :class:`Comparison`, with every pairwise result per measure
(:class:`PairResult`) and the analyses read from them (agreement, rankings, Keen's per-request
tables and magnitude differences, generality); it computes no measure.

Sources: Magdy & Jones, "PRES: A Score Metric for Evaluating Recall-Oriented Information
Retrieval Applications", SIGIR 2010 (agreement, sweeps); Keen, "Evaluation Parameters", SMART
report ISR-13 (per-request tables, generality); Baeza-Yates & Ribeiro-Neto, *Modern Information
Retrieval*, 1999, sec. 3.2.1 (precision histogram)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.comparing import agreement as agr
from cranfield.comparing.paired import differences
from cranfield.comparing.requests import (
    GeneralitySplit,
    KeenRow,
    MagnitudeDifference,
    keen_table,
    magnitude_difference,
    natural_key,
    split_by_relevant,
)
from cranfield.errors import ParameterError
from cranfield.measures.measure_object import Measure
from cranfield.results.aggregate import aggregate_values
from cranfield.results.tables import Results

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Comparison", "Generality", "GeneralityRow", "PairResult", "Sweep"]


def direction(m: Measure) -> int:
    """+1 when higher values are better, -1 when lower ones are, as the measure declares
    (``better=`` of :func:`cranfield.measures.registry.measure`); 0 for counts and
    diagnostics (``better="none"``), which have no better run."""
    d = m.definition
    better = d.better if d.better_by is None else d.better_for(m.resolve())
    return {"higher": 1, "lower": -1}.get(better, 0)


def mean_of(values: np.ndarray, m: Measure) -> float:
    if m.definition.aggregate == "gmean":
        return aggregate_values(values, "gmean", eps=dict(m.params).get("eps", 1e-5))
    return aggregate_values(values, "mean")


@dataclass(frozen=True)
class PairResult:
    """Run ``b`` against run ``a`` under one measure.

    ``wins``: queries where b is better than a, ``losses``: where a is better, ``ties``: equal;
    ``superiority``: Keen's superiority percentage of b over a ignoring equal cases
    (``100 (wins - losses) / (wins + losses)``); ``outcome``: ``"b"`` (b significantly better),
    ``"a"`` or ``"="``; ``ci_low``/``ci_high``: the interval of the mean difference;
    ``effect_size``: ``mean(d) / sd(d)`` (Cohen's d for paired data, d_z).
    """

    measure: str
    a: str
    b: str
    mean_a: float
    mean_b: float
    mean_diff: float
    statistic: float
    p_value: float
    p_adjusted: float
    significant: bool
    outcome: str
    wins: int
    losses: int
    ties: int
    superiority: float
    ci_low: float
    ci_high: float
    effect_size: float
    queries: int

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "a": self.a,
            "b": self.b,
            "mean_a": num(self.mean_a),
            "mean_b": num(self.mean_b),
            "mean_diff": num(self.mean_diff),
            "statistic": num(self.statistic),
            "p_value": num(self.p_value),
            "p_adjusted": num(self.p_adjusted),
            "significant": self.significant,
            "outcome": self.outcome,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "superiority": num(self.superiority),
            "ci": [num(self.ci_low), num(self.ci_high)],
            "effect_size": num(self.effect_size),
            "queries": self.queries,
        }


@dataclass(frozen=True)
class Sweep:
    """A measure evaluated at several values of its cut-off (N_max for PRES, k for P@k):
    ``values[run][i]`` is the mean at ``xs[i]`` (Magdy & Jones 2010, Fig. 8)."""

    name: str
    labels: tuple[str, ...]
    xs: tuple[float, ...]
    values: dict[str, tuple[float, ...]]


@dataclass(frozen=True)
class GeneralityRow:
    measure: str
    run: str
    specific: float
    general: float


@dataclass(frozen=True)
class Generality:
    """Means over specific and general requests (Keen sec. 8)."""

    split: GeneralitySplit
    mean_relevant: tuple[float, float]
    rows: tuple[GeneralityRow, ...]


def base_name(m: Measure) -> str:
    return str(Measure(m.name, m.params, None))


@dataclass(eq=False)
class Comparison:
    """Every pairwise comparison of runs, per measure.  See :func:`compare`."""

    results: tuple[Results, ...]
    runs: tuple[str, ...]
    labels: tuple[str, ...]
    measures: tuple[Measure, ...]
    query_ids: dict[str, tuple[str, ...]]
    values: dict[str, np.ndarray]
    means: dict[str, dict[str, float]]
    pairs: dict[str, list[PairResult]]
    test: str
    correction: str
    alpha: float
    alternative: str
    baseline: str | None
    ci: str
    permutations: int
    seed: int | None
    sweeps: tuple[Sweep, ...] = ()
    notes: dict[str, Any] = field(default_factory=dict)
    overlaps: tuple[Any, ...] = ()
    """Rank-biased overlap of each pair of runs (:class:`~cranfield.comparing.rbo.Overlap`),
    when ``compare(..., rbo=p)`` asked for it."""

    # -- lookups -----------------------------------------------------------------------------
    def pair(self, measure: str, a: str, b: str) -> PairResult:
        """The result of b against a (either order of a and b is accepted)."""
        for p in self._pairs(measure):
            if (p.a, p.b) == (a, b) or (p.a, p.b) == (b, a):
                return p
        raise ParameterError(f"runs {a!r} and {b!r} were not compared on {measure}")

    def _pairs(self, measure: str) -> list[PairResult]:
        if measure not in self.pairs:
            raise ParameterError(
                f"measure {measure!r} is not in this comparison ({', '.join(self.labels)})"
            )
        return self.pairs[measure]

    def _column(self, measure: str, run: str) -> np.ndarray:
        self._pairs(measure)
        if run not in self.runs:
            raise ParameterError(f"no run named {run!r} (runs: {', '.join(self.runs)})")
        return self.values[measure][:, self.runs.index(run)]

    @property
    def letters(self) -> dict[str, str]:
        """The marker letter of each run: a, b, ..., z, aa, ab, ..."""
        out = {}
        for i, r in enumerate(self.runs):
            s, k = "", i
            while True:
                s = chr(ord("a") + k % 26) + s
                k = k // 26 - 1
                if k < 0:
                    break
            out[r] = s
        return out

    def markers(self, measure: str) -> dict[str, str]:
        """For each run the letters of the runs it is significantly better than."""
        letters = self.letters
        beats: dict[str, list[str]] = {r: [] for r in self.runs}
        for p in self._pairs(measure):
            if p.outcome == "b":
                beats[p.b].append(p.a)
            elif p.outcome == "a":
                beats[p.a].append(p.b)
        return {
            r: "".join(letters[x] for x in sorted(v, key=self.runs.index)) for r, v in beats.items()
        }

    def higher_is_better(self, measure: str) -> bool:
        self._pairs(measure)
        return direction(self.measures[self.labels.index(measure)]) > 0

    def anova(self, measure: str, design: str = "two-way") -> Any:
        """The ANOVA of the runs on the compared queries of ``measure``
        (:func:`cranfield.comparing.anova`: the table, Sakai's margin of error at the
        comparison's alpha, the standardised effect sizes)."""
        from cranfield.comparing.anova_table import anova

        self._pairs(measure)
        return anova(self.values[measure], runs=self.runs, design=design, alpha=self.alpha)

    # -- agreement ---------------------------------------------------------------------------
    def outcomes(self) -> dict[str, list[str]]:
        """``{measure: [outcome of each pair]}`` with the pairs in the same order."""
        return {m: [p.outcome for p in self.pairs[m]] for m in self.labels}

    def agreement(self) -> list[agr.AgreementRow]:
        """The agreement chart's rows (Magdy & Jones 2010, Fig. 7)."""
        return agr.agreement_rows(self.outcomes())

    def pairwise_agreement(self) -> dict[tuple[str, str], float]:
        return agr.pairwise_agreement(self.outcomes())

    def ranking(self, measure: str) -> list[str]:
        """Runs from best to worst by their mean under ``measure``."""
        m = self.measures[self.labels.index(measure)] if measure in self.labels else None
        if m is None:
            raise ParameterError(f"measure {measure!r} is not in this comparison")
        return agr.ranking(self.means[measure], higher_is_better=direction(m) > 0)

    def correlation(self, m1: str, m2: str, variant: str = "b") -> float:
        """Rank correlation of the runs' means under two measures: Kendall's tau ``a``/``b``/
        ``c``, ``ap`` (tau_AP of m2's ranking against m1's) or ``ap_b`` (symmetric)."""
        for m in (m1, m2):
            self._pairs(m)
        signs = [direction(self.measures[self.labels.index(m)]) for m in (m1, m2)]
        x = [signs[0] * self.means[m1][r] for r in self.runs]
        y = [signs[1] * self.means[m2][r] for r in self.runs]
        if variant in ("a", "b", "c"):
            return agr.kendall_tau(x, y, variant)
        if variant == "ap":
            return agr.tau_ap(x, y)
        if variant == "ap_b":
            return agr.tau_ap_b(x, y)
        raise ParameterError(f"unknown correlation {variant!r}; choose a, b, c, ap or ap_b")

    def correlations(self, variant: str = "b") -> dict[tuple[str, str], float]:
        out = {}
        for i, m1 in enumerate(self.labels):
            for m2 in self.labels[i + 1 :]:
                out[(m1, m2)] = self.correlation(m1, m2, variant)
        return out

    # -- per request -------------------------------------------------------------------------
    def differences(self, measure: str, a: str, b: str) -> list[tuple[str, float]]:
        """``(query, value(b) - value(a))`` per compared query: the precision histogram's bars
        (Baeza-Yates & Ribeiro-Neto 1999, eq. 3.5 with A = b, B = a), in natural query order."""
        d = differences(self._column(measure, a), self._column(measure, b))
        rows = list(zip(self.query_ids[measure], d.tolist(), strict=True))
        return sorted(rows, key=lambda t: natural_key(t[0]))

    def keen(self, measure: str, a: str, b: str) -> list[KeenRow]:
        """Keen's Fig. 35 table with option I = ``b`` and option II = ``a``."""
        p = self.pair(measure, a, b)
        first, second = (p.wins, p.losses) if p.b == b else (p.losses, p.wins)
        return keen_table((first, second, p.ties))

    def magnitude(self, measure: str, a: str, b: str) -> MagnitudeDifference:
        """Keen's magnitude-difference data with option I = ``b``, option II = ``a``."""
        self._pairs(measure)
        s = direction(self.measures[self.labels.index(measure)])
        return magnitude_difference(
            self.query_ids[measure],
            s * self._column(measure, b),
            s * self._column(measure, a),
            first_name=b,
            second_name=a,
        )

    def generality(self, num_rel: Mapping[str, float] | None = None) -> Generality:
        """Means over specific and general requests (Keen sec. 8).

        ``num_rel`` maps query ids to their number of relevant documents; by default it is
        read from a ``NumRel`` column of the results (``compare(qrels, runs)`` adds one)."""
        if num_rel is None:
            num_rel = self._num_rel()
        queries = sorted({q for m in self.labels for q in self.query_ids[m]}, key=natural_key)
        missing = [q for q in queries if q not in num_rel]
        if missing:
            raise ParameterError(
                f"no number of relevant documents for {len(missing)} queries "
                f"(first: {missing[0]!r})"
            )
        split = split_by_relevant({q: num_rel[q] for q in queries})
        spec, gen = set(split.specific), set(split.general)
        rows = []
        for m, label in zip(self.measures, self.labels, strict=True):
            qids = self.query_ids[label]
            ms = np.array([q in spec for q in qids])
            mg = np.array([q in gen for q in qids])
            for j, run in enumerate(self.runs):
                col = self.values[label][:, j]
                rows.append(
                    GeneralityRow(
                        label,
                        run,
                        mean_of(col[ms], m) if ms.any() else math.nan,
                        mean_of(col[mg], m) if mg.any() else math.nan,
                    )
                )
        mean_rel = (
            float(np.mean([num_rel[q] for q in split.specific])),
            float(np.mean([num_rel[q] for q in split.general])),
        )
        return Generality(split, mean_rel, tuple(rows))

    def _num_rel(self) -> dict[str, float]:
        for r in self.results:
            for label, m in zip(r.labels, r.measures, strict=True):
                if m.name == "NumRel" and not m.params:
                    return dict(zip(r.query_ids, r.column(label).tolist(), strict=True))
        raise ParameterError(
            "the results have no NumRel column: evaluate with the measure NumRel, or pass "
            "num_rel={query: count}"
        )

    # -- output ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: ``{"measures": {label: {"means": {run: mean}, "pairs": [...]}}}``
        plus the settings, and the agreement between measures when there are several."""
        from cranfield.render.comparison_json import comparison_dict

        return comparison_dict(self)

    def table(self, fmt: str = "table", *, digits: int = 4, details: Sequence[str] = ()) -> str:
        """The comparison as ``table`` (text; ``text`` is the same), ``markdown``, ``latex``,
        ``csv``, ``tsv`` or ``json``.

        ``details`` adds sections to text and markdown output: ``requests`` (Keen's tables),
        ``generality`` (specific vs general requests)."""
        from cranfield.render.comparison_text import render

        return render(self, fmt, digits=digits, details=details)

    def plot(
        self,
        directory: str | Path,
        *,
        formats: Sequence[str] = ("png",),
        pair_plots: str = "auto",
    ) -> list[Path]:
        """Write the charts into ``directory`` and return their paths: agreement chart and
        ranking change (two or more measures), sweeps, and per tested pair and measure the
        precision histogram and Keen's magnitude-difference plot (``pair_plots="none"`` skips
        those).  Needs matplotlib (``pip install 'cranfield[plot]'``)."""
        from cranfield.render.compare_charts import plot_comparison

        return plot_comparison(self, directory, formats=formats, pair_plots=pair_plots)

    def to_frame(self, what: str = "pairs") -> pd.DataFrame:
        """A tidy pandas DataFrame: ``pairs`` (default), one row per measure and pair of runs
        (the columns of ``table("csv")``); ``means``, one row per measure and run (``mean``,
        ``queries``, ``better_than``: the letters of the runs it is significantly better
        than)."""
        from cranfield.render.notebook import comparison_frame

        return comparison_frame(self, what)

    def to_html(self, *, digits: int = 4, details: bool = True) -> str:
        """An HTML fragment: the means with significance marks, best per measure, and (with
        ``details``) the pairwise tests and the agreement between measures."""
        from cranfield.render.html import comparison_html

        return comparison_html(self, digits=digits, details=details)

    def __repr__(self) -> str:
        from cranfield.render.notebook import comparison_repr

        return comparison_repr(self)

    def _repr_html_(self) -> str:  # notebooks
        return self.to_html()

    def _repr_markdown_(self) -> str:  # notebooks without HTML
        return self.table("markdown")
