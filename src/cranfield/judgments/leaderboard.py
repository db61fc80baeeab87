"""Leaderboard agreement: do several judgment sets rank the same runs alike?

Every run is read once and judged against each of the M judgment sets
(:func:`leaderboards`); the runs' means under each set give one leaderboard per set and
measure.  Two leaderboards are compared with (each statistic declared once, in
:data:`STATISTICS`):

- ``tau_b``: Kendall's tau-b (Kendall 1945, ties corrected), scipy's ``kendalltau``;
- ``tau_ap_b``: Urbano & Marrero's symmetric AP correlation with ties (ICTIR 2017),
  :func:`cranfield.comparing.agreement.tau_ap_b`, top-weighted by the measure's direction;
- ``spearman``, ``pearson``: Spearman's rho (average ranks for ties) and Pearson's r of the
  means;
- ``top_k_tau``: tau-b over the runs in the top ``k`` under *either* set (rank <= k, ties at
  the k-th place included).  Clarke & Dietz ("LLM-based relevance assessment still can't
  replace human relevance assessment", arXiv:2412.17156, 2024) show that a correlation over
  all runs hides disagreement among the best runs; the union of both top-k lists also keeps
  a run that one set alone promotes to the top;
- ``swaps``: the pairs of runs ordered one way under A and the other way under B
  (discordant pairs; a pair tied under either set is no swap);
- ``largest rank change``: the run whose rank (1 + the runs strictly better) moves most,
  the first such run in the runs' order on a tie;
- ``same verdict``: the share of the run pairs tested whose significance verdict ("1st
  better", "2nd better", "indistinguishable": :func:`cranfield.compare` with the chosen test
  and correction) is the same under both sets.

A statistic that is undefined (fewer than two runs, a leaderboard whose means are all equal,
fewer than two queries for a test) is ``NaN``, declared in the output, with a warning.

Queries: by default the means are over the queries judged in every set (``queries="common"``;
a :class:`~cranfield.errors.DataWarning` gives, per set, how many of its queries are left
out); ``queries="each"`` keeps each set's own queries.  Every set is read with its own grades;
``rel`` (``-l``) is the same for every set.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.errors import DataWarning, ParameterError
from cranfield.judgments.leaderboard_runs import (
    Work,
    documents,
    name_sets,
    note,
    run_task,
    verdicts,
)
from cranfield.judgments.leaderboard_stats import STATISTICS, SetPair, rank_statistics

__all__ = ["STATISTICS", "LeaderboardAgreement", "SetPair", "leaderboards", "rank_statistics"]


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


def leaderboards(
    qrels: Sequence[Any] | Mapping[str, Any],
    runs: Any,
    measures: Any = None,
    *,
    set_names: Sequence[str] | None = None,
    pairs: str = "reference",
    top_k: int = 10,
    queries: str = "common",
    test: str = "t",
    correction: str = "none",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    baseline: str | None = None,
    names: Sequence[str] | None = None,
    complete: bool = True,
    ties: str = "trec",
    depth: int | None = None,
    judged_only: bool = False,
    rel: int | None = None,
    jobs: int | None = None,
) -> LeaderboardAgreement:
    """Evaluate ``runs`` under every judgment set of ``qrels`` (a list, or ``{name: qrels}``)
    and compare the leaderboards, per measure.

    ``pairs``: ``reference`` (every set against the first) or ``all`` (every pair of sets);
    ``top_k``: the k of ``top_k_tau``; ``queries``: ``common`` (the queries judged in every
    set, default) or ``each``; ``test``, ``correction``, ``alpha``, ``alternative``,
    ``permutations``, ``seed``, ``baseline``: the significance tests of
    :func:`cranfield.compare` whose verdicts are compared; the judging options as
    :func:`cranfield.compare` (``complete=True``: a judged query without results scores as
    an empty ranking).  See the module's docstring for the statistics.
    """
    from cranfield.base import arguments as A
    from cranfield.comparing.pair_tests import check_settings
    from cranfield.comparing.result import direction
    from cranfield.evaluation import DEFAULT_MEASURES, measure_specs
    from cranfield.io import read_qrels
    from cranfield.judging.options import JudgeOptions
    from cranfield.judging.runs import judge_many
    from cranfield.results.blocks import micro_labels
    from cranfield.scale.streaming import Plan

    settings = check_settings(test, correction, alternative, alpha, permutations, seed, None)
    options = JudgeOptions(
        ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete, rel=rel
    )
    pairs = A.choice(pairs, "pairs", ("reference", "all"))
    queries = A.choice(queries, "queries", ("common", "each"))
    top_k = A.integer(top_k, "top_k", minimum=1)
    from cranfield.scale.processes import check_jobs

    jobs = check_jobs(jobs)
    if isinstance(qrels, Mapping):
        if set_names is not None:
            raise ParameterError("give set_names or a dict {name: qrels}, not both")
        set_names, sources = [str(k) for k in qrels], list(qrels.values())
    elif isinstance(qrels, list | tuple):
        sources = list(qrels)
    else:
        raise ParameterError("qrels must be a list of judgment sets or a dict {name: qrels}")
    if not sources:
        raise ParameterError("no judgment sets given")
    sets = name_sets(sources, set_names)
    specs = measure_specs(measures if measures is not None else list(DEFAULT_MEASURES))
    undirected = [label for label, m in specs if direction(m) == 0]
    if undirected:
        raise ParameterError(
            f"{', '.join(undirected)} declare no direction (counts and diagnostics): no run "
            "is better for a higher or a lower value, so they make no leaderboard"
        )
    notes: list[str] = []
    read = original = [read_qrels(s) for s in sources]
    if queries == "common":
        common = set(read[0].query_ids).intersection(*(q.query_ids for q in read[1:]))
        if not common:
            raise ParameterError(
                "no query is judged in every judgment set: the leaderboards share no query "
                "(queries='each', --queries each, ranks each set's runs over its own queries)"
            )
        left = [(s, q.num_queries - len(common)) for s, q in zip(sets, read, strict=True)]
        if any(n for _, n in left):
            msg = (
                f"the means are over the {len(common)} queries judged in every set; left out: "
                + ", ".join(
                    f"{n} of {s}'s {q.num_queries}" for (s, n), q in zip(left, read, strict=True)
                )
            )
            notes.append(msg)
            warnings.warn(DataWarning(f"leaderboards: {msg}"), stacklevel=2)
        read = [q.restrict(sorted(common)) for q in read]
    judged = judge_many(read[0], runs, names=names, options=options)
    plan = Plan(specs, None, options, micro_labels(specs, None))
    work = Work(
        tuple(read),
        plan,
        frozenset().union(*(q.query_ids for q in original)),
        *documents(read),
        tuple(sets),
    )
    done = list(judged.map(run_task, work, jobs=jobs))
    per_run = [r for r, _ in done]
    unjudged = [(r[0].run, u) for r, u in done if u]
    if unjudged:
        note(
            notes,
            f"{len(unjudged)} runs have results for queries no set judges, left out "
            f"(first: {unjudged[0][0]}, {len(unjudged[0][1])} queries such as "
            f"{unjudged[0][1][0]!r})",
        )
    run_names = tuple(r[0].run for r in per_run)
    labels = tuple(label for label, _ in specs)
    dirs = {label: direction(m) for label, m in specs}
    n_queries = {s: len(per_run[0][i].query_ids) if per_run else 0 for i, s in enumerate(sets)}
    means = {
        label: np.array([[r[i].aggregate_of(label) for r in per_run] for i in range(len(sets))])
        for label in labels
    }
    if len(run_names) < 2:
        note(notes, f"{len(run_names)} run: the correlations and verdicts are undefined (NaN)")
    if len(sets) < 2:
        note(notes, "one judgment set: no pair of leaderboards to compare")

    outcomes, pair_runs = verdicts(per_run, sets, labels, settings, baseline, notes)
    if pairs == "reference":
        set_pairs = [(0, j) for j in range(1, len(sets))]
    else:
        set_pairs = [(i, j) for i in range(len(sets)) for j in range(i + 1, len(sets))]
    rows = []
    for label in labels:
        M, sgn = means[label], dirs[label]
        for i, j in set_pairs:
            for s in (i, j):
                if not np.isfinite(M[s]).all():
                    note(
                        notes,
                        f"{label}: some run's mean under {sets[s]} is not a number: "
                        "no leaderboard, its statistics are undefined (NaN)",
                    )
                elif len(run_names) >= 2 and np.ptp(M[s]) == 0:
                    note(
                        notes,
                        f"{label}: every run has the same mean under {sets[s]}: its "
                        "correlations are undefined (NaN)",
                    )
            st = rank_statistics(sgn * M[i], sgn * M[j], k=top_k)
            same, tested = float("nan"), 0
            oc = outcomes.get(label)
            if oc is not None:
                tested = len(oc[i])
                if tested:
                    same = sum(u == v for u, v in zip(oc[i], oc[j], strict=True)) / tested
            rows.append(
                SetPair(
                    measure=label,
                    a=sets[i],
                    b=sets[j],
                    runs=len(run_names),
                    tau_b=st.tau_b,
                    tau_ap_b=st.tau_ap_b,
                    spearman=st.spearman,
                    pearson=st.pearson,
                    top_k=top_k,
                    top_runs=st.top_runs,
                    top_k_tau=st.top_k_tau,
                    swaps=st.swaps,
                    pairs=st.pairs,
                    moved=None if st.moved is None else run_names[st.moved],
                    rank_a=st.rank_a,
                    rank_b=st.rank_b,
                    same_verdict=same,
                    tested_pairs=tested,
                )
            )
    return LeaderboardAgreement(
        sets=tuple(sets),
        runs=run_names,
        labels=labels,
        directions=dirs,
        means=means,
        queries=n_queries,
        rows=rows,
        top_k=top_k,
        test=settings["test"],
        correction=settings["correction"],
        alpha=settings["alpha"],
        pair_runs=pair_runs,
        outcomes=outcomes,
        notes=notes,
    )
