"""precision_recall(): averaged precision-recall curves, by any method of the literature.

Two ways of averaging (Raghavan, Jung & Bollmann, "A Critical Investigation of Recall and
Precision as Measures of Retrieval System Performance", ACM TOIS 7(3), 1989, sec. 3.4; Keen,
"Evaluation Parameters", SMART report ISR-13, sec. 4B):

- over NR, at recall levels: each query's curve is interpolated at the levels (``max``, ``trec``,
  ``trec9``, ``ceiling``, ``quasi-cranfield``, ``semi-cranfield``; see :mod:`.interpolate`), then
  the values are averaged level by level (Baeza-Yates & Ribeiro-Neto, *Modern Information
  Retrieval*, 1999, eq. 3.2);
- over ND, at document cut-offs (the Pseudo-Cranfield method, Fig. 14; ``interpolation="none"``
  is the raw curve, one point per rank; micro-averaging pools counts at each cut-off), see
  :mod:`.cutoffs`.

The result is a tidy DataFrame, one row per run and level: ``run, level, value, queries,
extrapolated`` -- the recall level (or, at document cut-offs, the averaged recall), the averaged
precision, how many queries entered the average, and how many of those through an
extrapolated part of their curve (so ``queries - extrapolated`` is Keen's Fig. 18 count).  At
document cut-offs a ``cutoff`` column follows.

Here: the method chosen and checked (:class:`PRSpec`) and the curves of every run; one run's
curve is computed in :mod:`.pr_run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cranfield.base import arguments as A
from cranfield.curves.average import check_average
from cranfield.curves.inputs import ideal, judged_runs
from cranfield.curves.interpolate import CRANFIELD, EXTRAPOLATIONS, INTERPOLATIONS
from cranfield.curves.pr_run import curve_of
from cranfield.curves.recall_levels import parse_cutoffs, parse_levels
from cranfield.curves.steps import STEP_CHOICES
from cranfield.errors import DataWarning, ParameterError, warn
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings

__all__ = ["PR_COLUMNS", "PRSpec", "precision_recall"]

PR_COLUMNS = ("run", "level", "value", "queries", "extrapolated")


@dataclass(frozen=True)
class PRSpec:
    """A validated choice of method (see :func:`precision_recall` for the parameters)."""

    mode: str  # "levels" (average over NR) or "cutoffs" (average over ND)
    interpolation: str | None
    step: str | None
    extrapolation: int | None
    levels: tuple[Fraction, ...] | None
    cutoffs: tuple[int, ...] | str | None
    average: str
    statistic: str
    weak: bool
    reference: bool

    @classmethod
    def resolve(
        cls,
        *,
        levels: Any = None,
        interpolation: str | None = None,
        step: str | None = None,
        extrapolation: int | str | None = None,
        average: str = "macro",
        statistic: str = "mean",
        cutoffs: Any = None,
        weak: bool = False,
        reference: bool = False,
    ) -> PRSpec:
        check_average(average, statistic)
        if interpolation is not None and interpolation not in INTERPOLATIONS:
            raise ParameterError(
                f"unknown interpolation {interpolation!r}; choose one of "
                + ", ".join(INTERPOLATIONS)
            )
        if step is not None and step not in STEP_CHOICES:
            raise ParameterError(
                f"unknown step choice {step!r}; choose one of {', '.join(STEP_CHOICES)}"
            )
        if extrapolation is not None:
            try:
                extrapolation = int(extrapolation)
            except (TypeError, ValueError):
                extrapolation = -1
            if extrapolation not in EXTRAPOLATIONS:
                raise ParameterError(
                    f"unknown extrapolation method {extrapolation!r}; choose 1, 2, 3, 4 or 5"
                )
        cut = parse_cutoffs(cutoffs)
        by_cutoff = interpolation == "none" or cut is not None or average == "micro"
        if by_cutoff:
            why = (
                "interpolation 'none'"
                if interpolation == "none"
                else "document cut-offs"
                if cut is not None
                else "micro-averaging (counts pooled at each document cut-off, Keen sec. 4A)"
            )
            if interpolation not in (None, "none"):
                raise ParameterError(
                    f"interpolation {interpolation!r} reads each query's curve at recall "
                    f"levels; it does not combine with {why}"
                )
            for name, value in (("step", step), ("extrapolation", extrapolation)):
                if value is not None:
                    raise ParameterError(
                        f"{name} applies to quasi- and semi-Cranfield curves, not to {why}"
                    )
            if reference:
                raise ParameterError("a reference run applies to quasi-cranfield curves only")
            if weak:
                raise ParameterError("weak orderings apply to ceiling interpolation only")
            if interpolation == "none" and levels is not None:
                raise ParameterError(
                    "interpolation 'none' gives the raw curve at every document cut-off; "
                    "recall levels need an interpolation"
                )
            read = levels is not None or (average == "micro" and cut is None and not interpolation)
            return cls(
                mode="cutoffs",
                interpolation="none",
                step=None,
                extrapolation=None,
                levels=parse_levels(levels) if read else None,
                cutoffs=cut if cut is not None else "all",
                average=average,
                statistic=statistic,
                weak=False,
                reference=False,
            )
        interp = interpolation or "max"
        if interp in CRANFIELD:
            step = step or "highest"
            extrapolation = 5 if extrapolation is None else extrapolation
        else:
            if step not in (None, "highest"):
                raise ParameterError(
                    f"interpolation {interp!r} takes the highest precision at or after each "
                    "recall by definition; step choices apply to quasi- and semi-cranfield"
                )
            if extrapolation is not None:
                raise ParameterError(
                    f"interpolation {interp!r} needs no left-end extrapolation; extrapolation "
                    "methods apply to quasi- and semi-cranfield"
                )
            step = None
        if reference and interp != "quasi-cranfield":
            raise ParameterError(
                "recall-ceiling extrapolation from a reference run (Keen Fig. 25) applies to "
                "quasi-cranfield curves only"
            )
        if weak and interp != "ceiling":
            raise ParameterError("weak orderings (tied scores as one level) apply to ceiling only")
        return cls(
            mode="levels",
            interpolation=interp,
            step=step,
            extrapolation=extrapolation,
            levels=parse_levels(levels),
            cutoffs=None,
            average=average,
            statistic=statistic,
            weak=weak,
            reference=reference,
        )


def precision_recall(
    qrels: Any,
    runs: Any = None,
    *,
    levels: Any = None,
    interpolation: str | None = None,
    step: str | None = None,
    extrapolation: int | None = None,
    average: str = "macro",
    statistic: str = "mean",
    cutoffs: Any = None,
    reference: Any = None,
    best: bool = False,
    rel: int = 1,
    weak: bool = False,
    collection_size: Any = None,
    per_query: bool = False,
    names: list[str] | None = None,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = True,
) -> Any:
    """Averaged precision-recall curves of one or more runs, as a tidy pandas DataFrame.

    Parameters
    ----------
    qrels, runs
        As for :func:`cranfield.evaluate`; or JudgedRankings (one or a list) and no runs.
    levels
        ``11`` (default; 0, 0.1, ..., 1), ``21`` (0, 0.05, ..., 1) or a list of recall levels.
    interpolation
        ``max`` (default), ``trec``, ``trec9``, ``ceiling``, ``quasi-cranfield``,
        ``semi-cranfield`` or ``none`` (the raw curve at every document cut-off).
    step
        Precision used on a vertical step by quasi/semi-Cranfield: ``highest`` (default),
        ``lowest``, ``middle``, ``mean``, ``ends`` (Keen Fig. 15).
    extrapolation
        Left-end extrapolation method 1..5 of quasi/semi-Cranfield (Keen Figs. 18-22;
        default 5).
    average, statistic
        ``macro`` (per query, then averaged) or ``micro`` (counts pooled at document cut-offs);
        ``mean`` or ``median`` (Keen Fig. 13).
    cutoffs
        Average at these document cut-offs instead (Pseudo-Cranfield, Keen Fig. 14): a list,
        ``"standard"`` (5, 10, 15, 20, 30, 50, 100; Baeza-Yates & Ribeiro-Neto) or ``"all"``.  With
        ``levels`` too, the averaged curve is read at those recall levels (Fig. 14 b).
    reference
        A full-search run: quasi-Cranfield curves of a partial search are extended from their
        recall ceiling to the reference's precision at recall 1.0 (Keen Fig. 25).
    best
        Add the theoretical best curve for the query set as a run named ``best``.
    rel
        Minimum grade of a relevant document.
    weak
        ``ceiling`` only: documents with tied scores form one level (PRECALL of
        Raghavan, Jung & Bollmann).
    collection_size
        ``N``: one integer, ``{qid: N}`` or a file of ``qid N`` lines (as for
        :func:`cranfield.judge`); with ``weak``, the unranked documents form one last level.
    per_query
        Also return the per-query table (then a ``(curves, per_query)`` tuple).
    names, ties, seed, depth, judged_only, complete
        As for :func:`cranfield.evaluate`.
    """
    rel = A.integer(rel, "rel")
    best, weak = A.flag(best, "best"), A.flag(weak, "weak")
    per_query = A.flag(per_query, "per_query")
    spec = PRSpec.resolve(
        levels=levels,
        interpolation=interpolation,
        step=step,
        extrapolation=extrapolation,
        average=average,
        statistic=statistic,
        cutoffs=cutoffs,
        weak=weak,
        reference=reference is not None,
    )
    if spec.weak:  # levels are tie groups: a depth cut must not pick members of one
        ties = "weak"
    options = JudgeOptions(
        ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete
    )
    jrs, ref = judged_runs(
        qrels,
        runs,
        names=names,
        options=options,
        collection_size=collection_size,
        reference=reference,
    )
    tables, pq = [], []
    for jr in jrs:
        t, p = curve_of(jr, spec, rel=rel, reference=ref, keep=per_query)
        tables.append(t)
        pq.append(p)
    if best:
        _warn_query_sets(jrs)
        spec_best = spec if spec.mode == "cutoffs" else _replace(spec, reference=False)
        t, p = curve_of(ideal(jrs[0]), spec_best, rel=rel, keep=per_query)
        tables.append(t)
        pq.append(p)
    from cranfield.curves.table import curve_frames

    return curve_frames(tables, pq, jrs, keep=per_query, curve="pr", spec=spec)


def _replace(spec: PRSpec, **changes: Any) -> PRSpec:
    import dataclasses

    return dataclasses.replace(spec, **changes)


def _warn_query_sets(jrs: list[JudgedRankings]) -> None:
    first = jrs[0].query_ids
    if any(jr.query_ids != first for jr in jrs[1:]):
        warn(
            f"the runs cover different queries; the best curve is for the queries of "
            f"{jrs[0].run_name!r}",
            DataWarning,
        )
