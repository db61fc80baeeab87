"""Pessimistic and optimistic bounds of every measure over the run's unjudged documents.

A document of a ranking that the qrels do not judge (absent from the query's qrels; a negative
grade, trec_eval's "pooled but not judged", stays as it is) is given a grade, and the measure
is computed as if the qrels had always held that judgment:

``lo`` (pessimistic)
    every unjudged retrieved document is judged with grade 0: non-relevant, and judged (so
    bpref, Judged@k and the condensed measures see it as a judged non-relevant document).
``hi`` (optimistic)
    every unjudged retrieved document is judged with the **top grade of the query's qrels**
    (1 if the query has no positive grade: each query's own judgments decide, so a run
    evaluated block by block gets the same bounds).  The documents join the judged set:
    ``R`` grows by the number of unjudged retrieved documents, and the ideal ranking of nDCG
    and the like holds them (the ideal gain vector is the sorted grades of the filled qrels).
    The filled qrels are the ones a judge who found every hole relevant would have made, so
    the value is that of a real completion of the judgments of the retrieved documents.
    It is *not* an upper bound of every measure: a measure normalised by ``R`` or the ideal
    (AP, nDCG, R-precision, recall) can drop when a hole deep in the ranking becomes
    relevant (bm25 on the bundled example collection: nDCG@10 0.3677, hi 0.3161), while
    the counts of relevant retrieved documents (P@k, RR, success) only grow.

Both read the ranking as it is evaluated: after ``depth`` (``-M``), so a document cut by the
depth is not filled; with ``judged_only`` (``-J``) no unjudged document remains and the bounds
equal the value.  Only the qrels are filled: the side inputs (``known``, preferences, judgment
groups, subtopics) are unchanged, so measures computed from those alone have bounds equal to
their value.

The bounds are further measures: :func:`bounded` turns ``(label, Measure)`` into the three
columns ``label``, ``label:lo``, ``label:hi``, each computed by the ordinary measure code on
the filled rankings (:func:`fill`), so every output, aggregation, executor and the streamed
path handle them as any measure.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.judging.rankings import NOT_IN_QRELS, JudgedRankings
from cranfield.measures.measure_object import Measure
from cranfield.measures.registry import REGISTRY, MeasureDef, Undefined

__all__ = ["SIDES", "Bound", "bounded", "fill", "top_grades"]

SIDES = ("lo", "hi")
"""The two bounds, in the order their columns follow the value."""

_filled: weakref.WeakKeyDictionary[JudgedRankings, dict[str, JudgedRankings]] = (
    weakref.WeakKeyDictionary()
)


def top_grades(jr: JudgedRankings) -> np.ndarray:
    """Per query, the grade an unjudged document gets under ``hi``: the query's top qrels
    grade if positive, else 1."""
    n = jr.num_queries
    counts = np.diff(jr.qrels_offsets)
    top = np.zeros(n, dtype=np.int64)
    has = counts > 0
    # qrels grades are sorted descending within each query: the first is the top
    top[has] = jr.qrels_grades[jr.qrels_offsets[:-1][has]]
    return np.where(top > 0, top, 1)


def fill(jr: JudgedRankings, side: str) -> JudgedRankings:
    """``jr`` with its unjudged rows judged: grade 0 (``side="lo"``) or the query's top grade
    (``"hi"``, :func:`top_grades`); the new judgments are added to the query's qrels grades
    (so ``R`` and the ideal gains see them).  Computed once per rankings and side."""
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    cache = _filled.setdefault(jr, {})
    if side in cache:
        return cache[side]
    holes = jr.grades == NOT_IN_QRELS
    if not holes.any():
        cache[side] = jr
        return jr
    qn = jr.num_queries
    per_query = jr.count(holes)
    grade = np.zeros(qn, dtype=np.int64) if side == "lo" else top_grades(jr)
    grades = np.array(jr.grades, dtype=np.int64, copy=True)
    grades[holes] = grade[jr.row_query[holes]]
    # the added judgments, merged into the qrels grades and sorted descending per query
    added_q = np.repeat(np.arange(qn, dtype=np.int64), per_query)
    q = np.concatenate((jr.qrels_query, added_q))
    g = np.concatenate((np.asarray(jr.qrels_grades, dtype=np.int64), grade[added_q]))
    order = np.lexsort((-g, q))
    offsets = np.zeros(qn + 1, dtype=np.int64)
    np.cumsum(np.diff(jr.qrels_offsets) + per_query, out=offsets[1:])
    out = dataclasses.replace(
        jr,
        grades=grades.astype(jr.grades.dtype, copy=False),
        qrels_offsets=offsets,
        qrels_grades=g[order].astype(jr.qrels_grades.dtype, copy=False),
    )
    cache[side] = out
    return out


def _on_filled(f: Any, side: str) -> Any:
    if f is None:
        return None

    def on_filled(jr: JudgedRankings, *args: Any, **kwargs: Any) -> Any:
        return f(fill(jr, side), *args, **kwargs)

    return on_filled


class Bound(Measure):
    """A measure computed on the rankings filled for one bound (:func:`fill`): ``side`` is
    ``lo`` or ``hi``.  Its string is the measure's with ``:lo`` or ``:hi`` appended."""

    side: str

    def __init__(self, measure: Measure, side: str) -> None:
        if side not in SIDES:
            raise ValueError(f"side must be one of {SIDES}, got {side!r}")
        object.__setattr__(self, "name", measure.name)
        object.__setattr__(self, "params", measure.params)
        object.__setattr__(self, "cutoff", measure.cutoff)
        object.__setattr__(self, "side", side)
        if getattr(measure, "_unchecked", False):
            object.__setattr__(self, "_unchecked", True)

    def __reduce__(self) -> Any:  # to worker processes: rebuilt from the plain measure
        return (Bound, (Measure.unchecked(self.name, self.params, self.cutoff), self.side))

    @property
    def definition(self) -> MeasureDef:
        d = REGISTRY[self.name]
        side = self.side
        return dataclasses.replace(
            d,
            core_kernel=None,  # the core's kernel would read the rankings as they are, unfilled
            func=_on_filled(d.func, side),
            tie_aware=_on_filled(d.tie_aware, side),
            micro=_on_filled(d.micro, side),
            undefined=tuple(
                Undefined(u.when, u.value, _on_filled(u.mask, side)) for u in d.undefined
            ),
        )

    def __str__(self) -> str:
        return f"{Measure.__str__(self)}:{self.side}"

    def __repr__(self) -> str:
        return f"Bound({Measure.__str__(self)!r}, {self.side!r})"

    def __matmul__(self, k: int | float) -> Measure:
        return Bound(Measure.__matmul__(self, k), self.side)

    def __call__(self, **params: Any) -> Measure:
        return Bound(Measure.__call__(self, **params), self.side)


def bounded(specs: Sequence[tuple[str, Measure]]) -> list[tuple[str, Measure]]:
    """Each ``(label, measure)`` followed by its bounds ``(label:lo, ...)``, ``(label:hi,
    ...)``."""
    out: list[tuple[str, Measure]] = []
    for label, m in specs:
        out.append((label, m))
        out.extend((f"{label}:{side}", Bound(m, side)) for side in SIDES)
    return out


def bounded_aggregate(specs: Sequence[tuple[str, Measure]], aggregate: Any) -> Any:
    """``aggregate`` (as :func:`cranfield.results.aggregate.resolve_aggregation` takes it, for the
    measures without bounds) as a ``{label: how}`` mapping that gives each bound the
    statistic of its measure; ``None`` stays ``None``."""
    from cranfield.results.aggregate import resolve_aggregation

    if aggregate is None:
        return None
    wanted = resolve_aggregation(specs, aggregate, warn=False)
    return {f"{label}{suffix}": how for label, how in wanted.items() for suffix in _SUFFIXES}


_SUFFIXES = ("", *(f":{side}" for side in SIDES))
