"""``cranfield.suite``: one family of systems evaluated over many collections at once.

A suite file (:mod:`cranfield.comparing.suite_file`) names per dataset the qrels, the runs
(system -> run file), the official measure and its relevance level, and optionally a group.
For each dataset every run is evaluated with :func:`cranfield.evaluate` (every judged query,
trec_eval ``-c``); datasets of one group (CQADupStack's forums) are collapsed into one by
averaging.  Then, over the collapsed datasets:

- each system's mean of the official measure per dataset, their mean and geometric mean;
- wins / ties / losses of each system against the baseline, one per dataset: a tie is two means
  equal at the printed precision (``digits``: the values the table shows are equal), else the
  better mean by the measure's direction wins;
- a random-effects meta-analysis of each system's effect over the baseline
  (:mod:`cranfield.comparing.meta_analysis`): per dataset the effect and its variance from the
  per-query paired differences (a group: the mean of its members' effects, variance
  ``sum v_i / m^2``), its sign turned for a measure where lower is better so that a positive
  effect is always a gain, pooled by DerSimonian and Laird, with a forest plot
  (:meth:`Suite.plot`).

See ``docs/suites.md``.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cranfield.comparing.meta_analysis import EFFECTS, MetaAnalysis
from cranfield.comparing.suite_file import SuiteSpec
from cranfield.errors import ParameterError, warn

__all__ = ["DatasetRow", "Suite", "suite"]

EFFECT_TITLES = {"difference": "mean paired difference", "standardized": "Hedges' g (paired)"}


@dataclass(frozen=True)
class DatasetRow:
    """One dataset after groups are collapsed: its members (one for a plain dataset), the
    official measure, the queries (summed over the members), each system's mean, and each
    non-baseline system's effect over the baseline and its variance (``None`` when undefined,
    the reason in ``notes``)."""

    name: str
    members: tuple[str, ...]
    measure: str
    queries: int
    means: dict[str, float]
    effects: dict[str, tuple[float, float] | None]
    direction: int


@dataclass(frozen=True)
class Suite:
    """What :func:`suite` returns; :meth:`table` renders it, :meth:`to_dict` is its JSON."""

    source: str
    systems: tuple[str, ...]
    baseline: str
    effect: str
    alpha: float
    digits: int
    datasets: tuple[DatasetRow, ...]
    meta: dict[str, MetaAnalysis | None]
    notes: tuple[str, ...] = field(default=())

    # ------------------------------------------------------------------ summaries
    def mean(self, system: str) -> float:
        """The system's arithmetic mean over the (collapsed) datasets."""
        values = [d.means[system] for d in self.datasets]
        return math.fsum(values) / len(values)

    def gmean(self, system: str) -> float:
        """The geometric mean over the datasets: 0 when a dataset's mean is 0, NaN when one
        is negative (a geometric mean of signed values has no meaning)."""
        values = [d.means[system] for d in self.datasets]
        if any(v < 0 or math.isnan(v) for v in values):
            return math.nan
        if any(v == 0 for v in values):
            return 0.0
        return math.exp(math.fsum(math.log(v) for v in values) / len(values))

    def record(self, system: str) -> tuple[int, int, int]:
        """(wins, ties, losses) of ``system`` against the baseline, one per dataset; equal at
        ``digits`` decimals is a tie."""
        wins = ties = losses = 0
        for d in self.datasets:
            a, b = d.means[self.baseline], d.means[system]
            if _printed(a, self.digits) == _printed(b, self.digits) or d.direction == 0:
                ties += 1
            elif d.direction * (b - a) > 0:
                wins += 1
            else:
                losses += 1
        return wins, ties, losses

    # ------------------------------------------------------------------ output
    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "suite": self.source,
            "systems": list(self.systems),
            "baseline": self.baseline,
            "effect": self.effect,
            "alpha": self.alpha,
            "tie_digits": self.digits,
            "datasets": [
                {
                    "name": d.name,
                    "members": list(d.members),
                    "measure": d.measure,
                    "queries": d.queries,
                    "means": {s: num(v) for s, v in d.means.items()},
                    "effects": {
                        s: None if e is None else {"effect": e[0], "variance": e[1]}
                        for s, e in d.effects.items()
                    },
                }
                for d in self.datasets
            ],
            "summary": {
                s: {
                    "mean": num(self.mean(s)),
                    "gmean": num(self.gmean(s)),
                    **(
                        {}
                        if s == self.baseline
                        else dict(zip(("wins", "ties", "losses"), self.record(s), strict=True))
                    ),
                }
                for s in self.systems
            },
            "meta_analysis": {s: None if m is None else m.to_dict() for s, m in self.meta.items()},
            "notes": list(self.notes),
        }

    def table(self, fmt: str = "table", *, digits: int | None = None) -> str:
        """``table`` (text, also spelled ``text``: the datasets table and the meta-analysis),
        ``csv`` (the datasets table with the mean, gmean, wins, ties and losses rows) or
        ``json``."""
        from cranfield.base.output_formats import canonical

        fmt = canonical("suite", fmt)
        dg = self.digits if digits is None else digits
        if fmt == "json":
            import json

            return json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n"

        def num(x: float) -> str:
            return "nan" if not math.isfinite(x) else f"{x:.{dg}f}"

        head = ["dataset", "collections", "measure", "queries", *self.systems]
        body = [
            [d.name, str(len(d.members)), d.measure, str(d.queries)]
            + [num(d.means[s]) for s in self.systems]
            for d in self.datasets
        ]
        body.append(["mean", "", "", ""] + [num(self.mean(s)) for s in self.systems])
        body.append(["gmean", "", "", ""] + [num(self.gmean(s)) for s in self.systems])
        records = {s: self.record(s) for s in self.systems if s != self.baseline}
        for i, what in enumerate(("wins", "ties", "losses")):
            body.append(
                [what, "", "", ""]
                + ["" if s == self.baseline else str(records[s][i]) for s in self.systems]
            )
        if fmt == "csv":
            from cranfield.render.delimited import delimited

            return delimited(head, body)
        from cranfield.render.table import counted, escape_controls, text_table

        collections = sum(len(d.members) for d in self.datasets)
        lines = [
            f"suite {escape_controls(self.source)}: {counted(len(self.datasets), 'dataset')} "
            f"({counted(collections, 'collection')}), {counted(len(self.systems), 'system')}; "
            f"baseline {escape_controls(self.baseline)}; wins/ties/losses per dataset, "
            f"a tie equal at {counted(self.digits, 'decimal')}\n\n",
            text_table(head, body, left=3),
        ]
        others = [s for s in self.systems if s != self.baseline]
        if others:
            lines.append(
                f"\nrandom-effects meta-analysis (DerSimonian-Laird) of each system over "
                f"{escape_controls(self.baseline)}: {EFFECT_TITLES[self.effect]} per dataset, "
                f"{1 - self.alpha:.0%} interval\n\n"
            )
            mhead = ["system", "datasets", "effect", "se", "ci_low", "ci_high", "p", "tau2"]
            mhead += ["Q", "Q_p", "I2"]
            rows = []
            for s in others:
                m = self.meta[s]
                if m is None:
                    rows.append([s, "0", *["nan"] * 9])
                    continue
                rows.append(
                    [
                        s,
                        str(len(m.effects)),
                        num(m.pooled),
                        num(m.se),
                        num(m.ci_low),
                        num(m.ci_high),
                        num(m.p_value),
                        num(m.tau2),
                        num(m.q),
                        num(m.q_p_value),
                        num(m.i2),
                    ]
                )
            lines.append(text_table(mhead, rows, left=1))
        lines.extend(f"note: {escape_controls(n)}\n" for n in self.notes)
        return "".join(lines)

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Forest plot: one panel per system other than the baseline, each dataset's effect
        with its interval (marker area by its random-effects weight) and the pooled effect as
        a diamond; written to ``path`` (``.png``, ``.svg``, ``.pdf``) when given.  Returns
        the figure."""
        from scipy import stats

        from cranfield.render import charts

        others = [s for s in self.systems if s != self.baseline]
        if not others:
            raise ParameterError("a forest plot needs a system besides the baseline")
        if path is not None:
            fmt = Path(path).suffix.lstrip(".").lower()
            if fmt not in ("png", "svg", "pdf"):
                raise ParameterError(f"{path}: a plot is written as .png, .svg or .pdf")
        zc = float(stats.norm.ppf(1 - self.alpha / 2))
        k = len(self.datasets)
        fig = charts.new_figure(6.0, (0.28 * (k + 2) + 0.6) * len(others))
        axes = fig.subplots(len(others), 1, squeeze=False)[:, 0]
        names = [charts.shorten(d.name, 30) for d in self.datasets]
        for ax, s in zip(axes, others, strict=True):
            m = self.meta[s]
            weights = dict(zip(self._included(s), m.weights, strict=True)) if m else {}
            for i, d in enumerate(self.datasets):
                e = d.effects.get(s)
                if e is None:
                    continue
                y, v = e
                ax.plot([y - zc * math.sqrt(v), y + zc * math.sqrt(v)], [i, i], color="0.3")
                size = 20 + 180 * weights.get(d.name, 0.0)
                ax.scatter([y], [i], s=size, marker="s", color="#1f77b4", zorder=3)
            if m is not None:
                yk = k + 0.5
                ax.fill(
                    [m.ci_low, m.pooled, m.ci_high, m.pooled],
                    [yk, yk - 0.3, yk, yk + 0.3],
                    color="#d62728",
                    zorder=3,
                )
            ax.axvline(0.0, color="0.6", lw=0.8, ls="--")
            ax.set_yticks([*range(k), k + 0.5], [*names, "pooled (random effects)"])
            ax.invert_yaxis()
            ax.set_xlabel(f"{EFFECT_TITLES[self.effect]} (positive: {s} is better)")
            ax.set_title(
                charts.wrap_title(
                    f"{s} over {self.baseline}"
                    + (
                        ""
                        if m is None
                        else f": {m.pooled:.3f} [{m.ci_low:.3f}, {m.ci_high:.3f}], I2 {m.i2:.0%}"
                    )
                ),
                fontsize=9,
            )
        fig = charts.finish(fig, True, list(axes))
        if path is not None:
            charts.save(fig, Path(path), fmt)
        return fig

    def _included(self, system: str) -> list[str]:
        return [d.name for d in self.datasets if d.effects.get(system) is not None]


def _printed(x: float, digits: int) -> float:
    """``x`` as the table prints it (``-0.0000`` and ``0.0000`` are equal)."""
    return float(f"{x:.{digits}f}") if math.isfinite(x) else x


def suite(
    source: str | os.PathLike[str] | Mapping[str, Any],
    *,
    baseline: str | None = None,
    effect: str = "difference",
    alpha: float = 0.05,
    digits: int = 4,
    jobs: int | None = None,
) -> Suite:
    """Evaluate the systems of the suite ``source`` over its datasets and compare them with
    the baseline (see the module doc and ``docs/suites.md``).

    ``source`` is the path of a suite file (``.yaml``, ``.yml``, ``.toml``) or the same
    content as a dict (its relative paths then resolve against the current folder);
    ``baseline``: a system (default: the suite's ``baseline``, else its first system);
    ``effect``: ``difference`` (mean paired difference) or ``standardized`` (Hedges' g);
    ``alpha``: 1 - the confidence of the intervals; ``digits``: the printed precision, at
    which equal means are a tie; ``jobs``: as :func:`cranfield.evaluate`."""
    from cranfield.comparing.suite_file import check_suite, read_suite

    if effect not in EFFECTS:
        raise ParameterError(f"unknown effect {effect!r}; choose one of {', '.join(EFFECTS)}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ParameterError(f"alpha must lie between 0 and 1, got {alpha!r}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 17:
        raise ParameterError(f"digits must be a whole number from 0 to 17, got {digits!r}")
    if isinstance(source, Mapping):
        spec = check_suite(source, "<suite>", Path.cwd())
    else:
        spec = read_suite(source)
    base = baseline or spec.baseline or spec.systems[0]
    if base not in spec.systems:
        raise ParameterError(
            f"no system {base!r} in {spec.source}; the systems are {', '.join(spec.systems)}"
        )
    return _run(spec, base, effect, float(alpha), digits, jobs)


def _run(
    spec: SuiteSpec, base: str, effect: str, alpha: float, digits: int, jobs: int | None
) -> Suite:
    from cranfield.comparing.meta_analysis import paired_effect, random_effects
    from cranfield.comparing.result import direction
    from cranfield.evaluation import evaluate
    from cranfield.measures import parse
    from cranfield.results.tables import ResultsSet

    notes: list[str] = []
    others = [s for s in spec.systems if s != base]
    groups: dict[str, list[tuple[str, int, dict[str, float], dict[str, Any]]]] = {}
    labels: dict[str, tuple[str, int]] = {}
    for d in spec.datasets:
        label = d.measure
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = evaluate(d.qrels, dict(d.runs), [label], rel=d.rel, complete=True, jobs=jobs)
        assert isinstance(res, ResultsSet)  # (a mapping of runs gives a ResultsSet)
        for w in caught:  # the dataset named: the runs of every dataset have the same names
            warn(f"{d.name}: {w.message}", w.category)
        by_name = {r.run: r for r in res}
        first = by_name[spec.systems[0]]
        means = {s: float(by_name[s].aggregate_of(label)) for s in spec.systems}
        sgn = direction(parse(label))
        effects: dict[str, Any] = {}
        for s in others:
            try:
                y, v = paired_effect(by_name[base].column(label), by_name[s].column(label), effect)
            except ParameterError as exc:
                effects[s] = None
                notes.append(f"{s} on {d.name}: no effect ({exc})")
                continue
            effects[s] = (-y if sgn < 0 else y, v)  # positive: the system is the better
        shown = label if d.rel is None else f"{label} (rel {d.rel})"
        labels[d.group] = (shown, sgn)
        groups.setdefault(d.group, []).append((d.name, len(first.query_ids), means, effects))
    rows: list[DatasetRow] = []
    for group, members in groups.items():
        m = len(members)
        means = {s: math.fsum(x[2][s] for x in members) / m for s in spec.systems}
        effects = {}
        for s in others:
            parts = [x[3][s] for x in members]
            if any(p is None for p in parts):
                effects[s] = None
                continue
            effects[s] = (
                math.fsum(p[0] for p in parts) / m,
                math.fsum(p[1] for p in parts) / (m * m),
            )
        shown, sgn = labels[group]
        rows.append(
            DatasetRow(
                name=group,
                members=tuple(x[0] for x in members),
                measure=shown,
                queries=sum(x[1] for x in members),
                means=means,
                effects=effects,
                direction=sgn,
            )
        )
    meta: dict[str, MetaAnalysis | None] = {}
    for s in others:
        kept = [e for r in rows if (e := r.effects[s]) is not None]
        if not kept:
            meta[s] = None
            continue
        meta[s] = random_effects([e[0] for e in kept], [e[1] for e in kept], alpha=alpha)
    return Suite(
        source=spec.source,
        systems=spec.systems,
        baseline=base,
        effect=effect,
        alpha=alpha,
        digits=digits,
        datasets=tuple(rows),
        meta=meta,
        notes=tuple(notes),
    )
