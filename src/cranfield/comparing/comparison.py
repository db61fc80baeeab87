"""``compare()``: significance, agreement and per-request analysis over evaluated runs.

The comparison consumes :class:`~cranfield.results.Results` (per-query values computed by
``evaluate``); it never computes a measure itself.

Which queries are compared (the explicit rule for queries present in one run only):

- ``compare(qrels, runs, ...)`` evaluates every run with ``complete=True`` by default, so every
  judged query is scored for every run (a run without results for a query scores what an
  empty ranking scores, trec_eval ``-c``) and all runs share the same queries;
- given already evaluated results, only the queries present in *every* run are compared
  (``missing="intersect"``; a :class:`~cranfield.errors.DataWarning` gives the count and the
  first one left out), or ``missing="error"`` refuses;
- a query whose value is NaN in some run is left out of that measure only (with a warning).

Means are over the compared queries: arithmetic, or geometric for measures aggregated that way
(GMAP); ``mean_diff = mean(b) - mean(a)``.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import arguments as A
from ..aggregate import aggregate_values
from ..errors import CranfieldWarning, DataWarning, ParameterError
from ..measures.parse import Measure, parse
from ..results import Results, ResultsSet
from . import agreement as agr
from .corrections import CORRECTIONS, adjust, canonical
from .paired import (
    ALTERNATIVES,
    TESTS,
    PairedTestResult,
    bootstrap_tests,
    differences,
    effect_size,
    exact_enumeration,
    mean_cis,
    paired_tests,
)
from .requests import (
    GeneralitySplit,
    KeenRow,
    MagnitudeDifference,
    keen_table,
    magnitude_difference,
    natural_key,
    split_by_relevant,
    superiority,
)
from .tukey import tukey_hsd

__all__ = ["Comparison", "PairResult", "Sweep", "compare", "parse_sweep"]

CI_METHODS = ("t", "bootstrap")
MAX_RESAMPLES = 100_000_000
"""The most ``permutations`` (resamples) a comparison takes: more would exhaust memory."""


def _warn(warning: Warning) -> None:
    """Warn with the caller's frame outside cranfield as the location."""
    import sys

    frame = sys._getframe(1)
    level = 2
    root = str(Path(__file__).resolve().parents[1])
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()).startswith(root):
        frame = frame.f_back
        level += 1
    warnings.warn(warning, stacklevel=level)


def _better(m: Measure) -> int:
    """+1 when higher values are better (the default), -1 for lower-is-better measures (a
    registry entry may declare ``extra["better"] = "lower"``)."""
    d = m.definition
    better = getattr(d, "better", None) or d.extra.get("better", "higher")
    return -1 if better == "lower" else 1


def _mean(values: np.ndarray, m: Measure) -> float:
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
    ``values[run][i]`` is the mean at ``xs[i]`` (seed 000 Fig. 8)."""

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
    """Means over specific and general requests (seed 002 sec. 8)."""

    split: GeneralitySplit
    mean_relevant: tuple[float, float]
    rows: tuple[GeneralityRow, ...]


def parse_sweep(spec: str) -> tuple[str, list[str]]:
    """``"P@5,10,20"`` -> ``("P", ["P@5", "P@10", "P@20"])``; ``"PRES@10,100,1000"`` likewise.

    A spec without ``@`` names the measure only (its cut-offs are taken from the results)."""
    text = spec.strip()
    if "@" not in text:
        return _base(parse(f"{text}@1")), []
    base, _, cut = text.rpartition("@")
    parts = [p.strip() for p in cut.split(",") if p.strip()]
    if not base or len(parts) < 2:
        raise ParameterError(
            f"a sweep needs a measure and at least two cut-offs, as in 'P@5,10,20' (got {spec!r})"
        )
    measures = [parse(f"{base}@{p}") for p in parts]
    return _base(measures[0]), [str(m) for m in measures]


def _base(m: Measure) -> str:
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
        return _better(self.measures[self.labels.index(measure)]) > 0

    # -- agreement ---------------------------------------------------------------------------
    def outcomes(self) -> dict[str, list[str]]:
        """``{measure: [outcome of each pair]}`` with the pairs in the same order."""
        return {m: [p.outcome for p in self.pairs[m]] for m in self.labels}

    def agreement(self) -> list[agr.AgreementRow]:
        """The agreement chart's rows (seed 000 Fig. 7)."""
        return agr.agreement_rows(self.outcomes())

    def pairwise_agreement(self) -> dict[tuple[str, str], float]:
        return agr.pairwise_agreement(self.outcomes())

    def ranking(self, measure: str) -> list[str]:
        """Runs from best to worst by their mean under ``measure``."""
        m = self.measures[self.labels.index(measure)] if measure in self.labels else None
        if m is None:
            raise ParameterError(f"measure {measure!r} is not in this comparison")
        return agr.ranking(self.means[measure], higher_is_better=_better(m) > 0)

    def correlation(self, m1: str, m2: str, variant: str = "b") -> float:
        """Rank correlation of the runs' means under two measures: Kendall's tau ``a``/``b``/
        ``c``, ``ap`` (tau_AP of m2's ranking against m1's) or ``ap_b`` (symmetric)."""
        for m in (m1, m2):
            self._pairs(m)
        signs = [_better(self.measures[self.labels.index(m)]) for m in (m1, m2)]
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
        (seed 001 eq. 3.5 with A = b, B = a), in natural query order."""
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
        s = _better(self.measures[self.labels.index(measure)])
        return magnitude_difference(
            self.query_ids[measure],
            s * self._column(measure, b),
            s * self._column(measure, a),
            first_name=b,
            second_name=a,
        )

    def generality(self, num_rel: Mapping[str, float] | None = None) -> Generality:
        """Means over specific and general requests (seed 002 sec. 8).

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
                        _mean(col[ms], m) if ms.any() else math.nan,
                        _mean(col[mg], m) if mg.any() else math.nan,
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
        from .render import comparison_dict

        return comparison_dict(self)

    def table(self, fmt: str = "text", *, digits: int = 4, details: Sequence[str] = ()) -> str:
        """The comparison as ``text``, ``markdown``, ``latex``, ``csv`` or ``json``.

        ``details`` adds sections to text and markdown output: ``requests`` (Keen's tables),
        ``generality`` (specific vs general requests)."""
        from .render import render

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
        from .plots import plot_comparison

        return plot_comparison(self, directory, formats=formats, pair_plots=pair_plots)

    def __repr__(self) -> str:
        return (
            f"<Comparison {len(self.runs)} runs x {len(self.labels)} measures, "
            f"{TESTS[self.test][0]}, correction {self.correction}>"
        )

    def _repr_markdown_(self) -> str:  # notebooks
        return self.table("markdown")


# -----------------------------------------------------------------------------------------------


def _is_results(obj: Any) -> bool:
    if isinstance(obj, ResultsSet | Results):
        return True
    return isinstance(obj, list | tuple) and bool(obj) and all(isinstance(r, Results) for r in obj)


def compare(
    results: Any,
    runs: Any = None,
    measures: str | Sequence[str] | None = None,
    *,
    test: str = "t",
    correction: str | None = "none",
    baseline: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    permutations: int = 10_000,
    seed: int | None = 0,
    ci: str | None = None,
    missing: str = "intersect",
    sweep: str | Sequence[str] = (),
    complete: bool = True,
    ties: str = "trec",
    depth: int | None = None,
    judged_only: bool = False,
    names: Sequence[str] | None = None,
) -> Comparison:
    """Compare runs pairwise under one or more measures.

    ``compare(results_set, ["AP", ...])`` takes evaluated results (a
    :class:`~cranfield.results.ResultsSet` or list of :class:`~cranfield.results.Results`);
    ``compare(qrels, [run_a, run_b, ...], ["AP", "P@10"])`` evaluates first (with
    ``complete=True``: every judged query counts for every run).

    Parameters
    ----------
    test
        ``t`` (default), ``wilcoxon``, ``sign``, ``randomization``, ``bootstrap`` or ``tukey``.
    correction
        ``none`` (default), ``bonferroni``, ``holm`` or ``bh``, applied per measure over the
        pairs compared; ``tukey`` needs none.
    baseline
        Compare every run with this one only; default: every pair of runs.
    alpha
        Significance level; a pair is significant when its adjusted p-value is below alpha.
    alternative
        ``two-sided``, ``greater`` (mean(b) > mean(a)) or ``less``.
    permutations, seed
        Resamples of the randomization and bootstrap tests, and their seed.
    ci
        Interval of the mean difference: ``t`` (default) or ``bootstrap`` (percentile; the
        default with ``test="bootstrap"``), at confidence ``1 - alpha``.
    missing
        ``intersect`` (compare the queries all runs have, with a warning) or ``error``.
    sweep
        Specs like ``"P@5,10,20"`` or ``"PRES@10,100,1000"`` (evaluated when compare
        evaluates), or a measure name whose cut-offs are taken from the results.
    """
    test = A.choice(test, "test", TESTS)
    A.judge_options(ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete)
    if correction is not None and not isinstance(correction, str):
        raise ParameterError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    correction = canonical(correction)
    if test == "tukey" and correction != "none":
        raise ParameterError(
            "Tukey's HSD already controls the family-wise error rate; use correction 'none'"
        )
    alternative = A.choice(alternative, "alternative", ALTERNATIVES)
    if test == "tukey" and alternative != "two-sided":
        raise ParameterError("Tukey's HSD is two-sided only")
    alpha = A.number(alpha, "alpha")
    if not 0.0 < alpha < 1.0:
        raise ParameterError(f"alpha must be between 0 and 1, got {alpha}")
    permutations = A.integer(permutations, "permutations", minimum=1, maximum=MAX_RESAMPLES)
    seed = A.random_seed(seed)
    if ci is None:
        ci = "bootstrap" if test == "bootstrap" else "t"
    ci = A.choice(ci, "interval", CI_METHODS)
    if missing not in ("intersect", "error"):
        raise ParameterError(f"missing must be 'intersect' or 'error', got {missing!r}")
    if baseline is not None and not isinstance(baseline, str | os.PathLike):
        raise ParameterError(f"baseline must be a run name, got {baseline!r}")
    if isinstance(sweep, str):
        sweeps = [sweep]
    elif isinstance(sweep, list | tuple) and all(isinstance(s, str) for s in sweep):
        sweeps = list(sweep)
    else:
        raise ParameterError(
            f"sweep must be a spec such as 'P@5,10,20' or a list of them, got {sweep!r}"
        )
    sweep_specs = [parse_sweep(s) for s in sweeps]

    if _is_results(results):
        if runs is not None:
            if measures is not None:
                raise ParameterError(
                    "give compare(results, measures) or compare(qrels, runs, measures)"
                )
            measures = runs
        rs = list(results) if not isinstance(results, Results) else [results]
        labels = A.measure_list(measures, list(rs[0].labels))
    else:
        if runs is None:
            raise ParameterError("compare(qrels, runs, measures): runs are missing")
        from ..evaluation import DEFAULT_MEASURES, evaluate

        A.qrels_given(results)
        run_list, _ = A.run_list(runs)
        if len(run_list) < 2:
            raise ParameterError(f"comparing needs at least 2 runs, got {len(run_list)}")
        labels = A.measure_list(measures, DEFAULT_MEASURES)
        extra = [label for _, cut_labels in sweep_specs for label in cut_labels]
        wanted = list(dict.fromkeys([*labels, *extra, "NumRel"]))
        rs = list(
            evaluate(
                results,
                run_list,
                wanted,
                ties=ties,
                seed=seed,
                depth=depth,
                judged_only=judged_only,
                complete=complete,
                names=names,
            )
        )
    return _build(
        rs,
        [str(m) for m in labels],
        test=test,
        correction=correction,
        baseline=baseline,
        alpha=alpha,
        alternative=alternative,
        permutations=permutations,
        seed=seed,
        ci=ci,
        missing=missing,
        sweep_specs=sweep_specs,
    )


def _resolve_baseline(baseline: str | None, names: list[str]) -> str | None:
    if baseline is None:
        return None
    if baseline in names:
        return baseline
    base = Path(baseline).name
    if base in names:
        return base
    raise ParameterError(f"baseline {baseline!r} is not one of the runs ({', '.join(names)})")


def _common_queries(rs: list[Results], missing: str) -> list[str]:
    sets = [set(r.query_ids) for r in rs]
    common = set.intersection(*sets)
    union = set.union(*sets)
    dropped = sorted(union - common, key=natural_key)
    if dropped:
        where = [r.run for r in rs if set(r.query_ids) != union]
        msg = (
            f"{len(dropped)} queries are not in every run (missing from {', '.join(where[:3])}"
            f"{', ...' if len(where) > 3 else ''}; first: {dropped[0]!r})"
        )
        if missing == "error":
            raise ParameterError(
                f"compare: {msg}; evaluate with complete=True (--complete) to score them"
            )
        _warn(
            DataWarning(
                f"compare: {msg} and were left out; evaluate with complete=True "
                "(--complete) to score them as empty rankings"
            )
        )
    return sorted(common, key=natural_key)


def _build(
    rs: list[Results],
    labels: list[str],
    *,
    test: str,
    correction: str,
    baseline: str | None,
    alpha: float,
    alternative: str,
    permutations: int,
    seed: int | None,
    ci: str,
    missing: str,
    sweep_specs: list[tuple[str, list[str]]],
) -> Comparison:
    if len(rs) < 2:
        raise ParameterError(f"comparing needs at least 2 runs, got {len(rs)}")
    names = [r.run for r in rs]
    if len(set(names)) != len(names):
        raise ParameterError(f"run names must be distinct, got {', '.join(names)}")
    labels = list(dict.fromkeys(labels))
    if not labels:
        raise ParameterError("no measures to compare")
    for r in rs:
        absent = [m for m in labels if m not in r.labels]
        if absent:
            raise ParameterError(
                f"run {r.run!r} has no values for {', '.join(absent)} (it has: "
                f"{', '.join(r.labels)})"
            )
    base = _resolve_baseline(baseline, names)
    common = _common_queries(rs, missing)
    measures = [rs[0].measures[rs[0].labels.index(m)] for m in labels]
    index = [{q: i for i, q in enumerate(r.query_ids)} for r in rs]
    if base is None:
        pair_idx = [(i, j) for i in range(len(rs)) for j in range(i + 1, len(rs))]
    else:
        bi = names.index(base)
        pair_idx = [(bi, j) for j in range(len(rs)) if j != bi]

    values: dict[str, np.ndarray] = {}
    qids: dict[str, tuple[str, ...]] = {}
    means: dict[str, dict[str, float]] = {}
    pairs: dict[str, list[PairResult]] = {}
    notes: dict[str, Any] = {"queries": len(common)}
    undefined_sup = 0
    for label, m in zip(labels, measures, strict=True):
        V = np.empty((len(common), len(rs)))
        for j, (r, ix) in enumerate(zip(rs, index, strict=True)):
            V[:, j] = r.column(label)[[ix[q] for q in common]]
        ok = np.isfinite(V).all(axis=1)
        if not ok.all():
            bad = [q for q, f in zip(common, ok, strict=True) if not f]
            _warn(
                DataWarning(
                    f"compare: {label} is undefined (NaN) or infinite in some run for "
                    f"{len(bad)} queries "
                    f"(first: {bad[0]!r}); they were left out of {label}"
                )
            )
        V = V[ok]
        q_m = tuple(q for q, f in zip(common, ok, strict=True) if f)
        n = len(q_m)
        if n < 2:
            raise ParameterError(f"{label}: comparing needs at least 2 queries, got {n}")
        values[label] = V
        qids[label] = q_m
        means[label] = {name: _mean(V[:, j], m) for j, name in enumerate(names)}
        D = np.column_stack([differences(V[:, i], V[:, j]) for i, j in pair_idx])
        results, cis = _test_pairs(
            V, D, pair_idx, test, alternative, permutations, seed, ci, 1.0 - alpha
        )
        padj = adjust([t.p_value for t in results], correction)
        sgn = _better(m)
        plist = []
        for k, ((i, j), t, pa, (lo, hi)) in enumerate(
            zip(pair_idx, results, padj, cis, strict=True)
        ):
            d = D[:, k]
            wins = int(np.count_nonzero(sgn * d > 0))
            losses = int(np.count_nonzero(sgn * d < 0))
            if wins + losses == 0:
                undefined_sup += 1
            sig = bool(pa < alpha)
            direction = sgn * t.direction
            outcome = ("b" if direction > 0 else "a" if direction < 0 else "=") if sig else "="
            effect = effect_size(d)
            plist.append(
                PairResult(
                    measure=label,
                    a=names[i],
                    b=names[j],
                    mean_a=means[label][names[i]],
                    mean_b=means[label][names[j]],
                    mean_diff=means[label][names[j]] - means[label][names[i]],
                    statistic=t.statistic,
                    p_value=t.p_value,
                    p_adjusted=float(pa),
                    significant=sig,
                    outcome=outcome,
                    wins=wins,
                    losses=losses,
                    ties=n - wins - losses,
                    superiority=superiority(wins, losses),
                    ci_low=lo,
                    ci_high=hi,
                    effect_size=effect,
                    queries=n,
                )
            )
        pairs[label] = plist
    if undefined_sup:
        _warn(
            CranfieldWarning(
                f"compare: for {undefined_sup} pair(s) every query is equal on the measure, so "
                "the superiority percentage is undefined; reported as 0"
            )
        )
    if test in ("randomization", "bootstrap"):
        notes["resamples"] = permutations
    if test == "randomization":
        # exact enumeration of the 2^n sign vectors wherever 2^n <= permutations
        notes["exact"] = sorted(
            {label for label in labels if exact_enumeration(len(qids[label]), permutations)}
        )
    sweeps = tuple(_sweep(rs, common, spec) for spec in sweep_specs)
    return Comparison(
        results=tuple(rs),
        runs=tuple(names),
        labels=tuple(labels),
        measures=tuple(measures),
        query_ids=qids,
        values=values,
        means=means,
        pairs=pairs,
        test=test,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        baseline=base,
        ci=ci,
        permutations=permutations,
        seed=seed,
        sweeps=sweeps,
        notes=notes,
    )


def _test_pairs(
    V: np.ndarray,
    D: np.ndarray,
    pair_idx: list[tuple[int, int]],
    test: str,
    alternative: str,
    permutations: int,
    seed: int | None,
    ci: str,
    confidence: float,
) -> tuple[list[PairedTestResult], list[tuple[float, float]]]:
    if test == "tukey":
        hsd = tukey_hsd(V)
        results = []
        for i, j in pair_idx:
            diff = hsd.means[j] - hsd.means[i]
            direction = 0 if hsd.q[i, j] == 0 else (1 if diff > 0 else -1)
            results.append(
                PairedTestResult("tukey", float(hsd.q[i, j]), float(hsd.p[i, j]), direction, len(V))
            )
    elif test == "bootstrap" and ci == "bootstrap":
        results, interval = bootstrap_tests(
            D, samples=permutations, seed=seed, alternative=alternative, confidence=confidence
        )
        assert interval is not None
        return results, [(float(lo), float(hi)) for lo, hi in interval.T]
    else:
        results = paired_tests(
            D, test, alternative=alternative, permutations=permutations, seed=seed
        )
    if ci == "bootstrap":
        _, interval = bootstrap_tests(
            D, samples=permutations, seed=seed, alternative=alternative, confidence=confidence
        )
        assert interval is not None
        cis = [(float(lo), float(hi)) for lo, hi in interval.T]
    else:
        cis = mean_cis(D, confidence)
    return results, cis


def _sweep(rs: list[Results], common: list[str], spec: tuple[str, list[str]]) -> Sweep:
    base, labels = spec
    if not labels:
        found = []
        for label, m in zip(rs[0].labels, rs[0].measures, strict=True):
            if _base(m) == base and m.cutoff is not None:
                found.append((m.cutoff, label))
        if len(found) < 2:
            raise ParameterError(
                f"sweep {base}: the results hold {len(found)} cut-offs of it; evaluate it at "
                f"two or more, as in '{base}@5,10,20'"
            )
        found.sort()
        labels = [label for _, label in found]
    xs = [float(parse(label).cutoff) for label in labels]
    values: dict[str, tuple[float, ...]] = {}
    for r in rs:
        by_canon = {str(m): j for j, m in enumerate(r.measures)}
        ix = {q: i for i, q in enumerate(r.query_ids)}
        rows = [ix[q] for q in common]
        vals = []
        for label in labels:
            j = by_canon.get(label)
            if j is None:
                raise ParameterError(f"sweep {base}: run {r.run!r} has no values for {label}")
            col = r.values[rows, j]
            vals.append(_mean(col[np.isfinite(col)], r.measures[j]))
        values[r.run] = tuple(vals)
    return Sweep(base, tuple(labels), tuple(xs), values)
