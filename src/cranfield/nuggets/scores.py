"""The nugget scores of RAG responses (AutoNuggetizer; TREC 2024 and 2025 RAG tracks).

Pradeep, Thakur, Upadhyay, Campos, Craswell & Lin, "The Great Nugget Recall: Automating Fact
Extraction and RAG Evaluation with Large Language Models", SIGIR 2025 (arXiv:2504.15068), and
"Initial Nugget Evaluation Results for the TREC 2024 RAG Track with the AutoNuggetizer
Framework" (arXiv:2411.09607): a response's score is the recall of the query's nuggets it
supports, over all nuggets or the vital ones only; a ``partial_support`` counts 0.5, or 0 in
the strict scores.  The edge cases are those of nuggetizer's ``calculate_nugget_scores``
(``nuggetizer/core/metrics.py``): a response with no vital nugget scores 0 on the vital
scores, one with no nugget at all 0 on every score.  A run's score is the mean over its
responses (nuggetizer's ``calculate_global_metrics`` over the responses of one run).

Each score is declared once, in :data:`SCORES`; :class:`NuggetScore` stands where the
evaluation of rankings has a :class:`~cranfield.measures.Measure` (its ``definition`` has the
direction, the statistic over queries and the source), so that the per-run tables are
:class:`~cranfield.results.tables.Results` and :func:`cranfield.compare` tests them as it tests
any measure.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.errors import ParameterError
from cranfield.nuggets.reader import NuggetAssignments, read
from cranfield.results.tables import Results, ResultsSet

__all__ = ["SCORES", "NuggetScore", "ScoreDef", "docs_table", "response_scores", "score"]

SOURCE = (
    "Pradeep et al., The Great Nugget Recall: Automating Fact Extraction and RAG Evaluation "
    "with Large Language Models, SIGIR 2025 (arXiv:2504.15068; section and equation not "
    "verified); nuggetizer's calculate_nugget_scores (nuggetizer/core/metrics.py)"
)
CHECKED = (
    "tests/nuggets/test_nuggets_peer.py::test_each_response_is_nuggetizers_value_to_the_bit",
    "tests/nuggets/test_nuggets_peer.py::test_each_runs_means_are_nuggetizers_global_metrics",
    "tests/nuggets/test_nuggets_worked.py::test_a_response_scores_as_worked_out_by_hand",
)
"""The tests that check every score: against nuggetizer's functions and by hand."""


QUERY_RULE = "the queries of the runs' responses in the nugget-assignment files"
"""What a mean is over, in the note under a table (:func:`cranfield.results.query_sets.note`)."""
MISSING_ADVICE = (
    "give every run a line for every query (nuggetizer's assign writes one for a query a run "
    "did not answer, its nuggets all not_support)"
)
"""What would put a query some run has no response for into a comparison (compare's warning)."""


@dataclass(frozen=True)
class ScoreDef:
    """One nugget score: over the ``vital`` nuggets only or all of them, ``strict`` (a
    partial support counts 0) or not (0.5).  The attributes after ``strict`` are those of a
    measure's declaration that the comparisons and tables read."""

    name: str
    summary: str
    formula: str
    vital_only: bool
    strict: bool
    empty: str = "0"
    source: str = SOURCE
    checked_by: tuple[str, ...] = CHECKED
    better: str = "higher"
    better_by: None = None
    aggregate: str = "mean"
    integer: bool = False
    micro: None = None
    family: str = "nuggets"

    def better_for(self, params: dict[str, Any]) -> str:
        return self.better


SCORES: dict[str, ScoreDef] = {
    d.name: d
    for d in (
        ScoreDef(
            "strict_vital",
            "share of the vital nuggets the response supports fully",
            "supported vital / vital nuggets (0 when there is no vital nugget)",
            vital_only=True,
            strict=True,
            empty="0 (no vital nugget)",
        ),
        ScoreDef(
            "strict_all",
            "share of all nuggets the response supports fully",
            "supported / nuggets (0 when there is no nugget)",
            vital_only=False,
            strict=True,
            empty="0 (no nugget)",
        ),
        ScoreDef(
            "vital",
            "vital nuggets supported, a partial support counting 0.5",
            "(supported vital + 0.5 partly supported vital) / vital nuggets (0 when none)",
            vital_only=True,
            strict=False,
            empty="0 (no vital nugget)",
        ),
        ScoreDef(
            "all",
            "nuggets supported, a partial support counting 0.5",
            "(supported + 0.5 partly supported) / nuggets (0 when there is no nugget)",
            vital_only=False,
            strict=False,
            empty="0 (no nugget)",
        ),
    )
}
"""The scores, in nuggetizer's order (its ``strict_vital_score``, ``strict_all_score``,
``vital_score``, ``all_score``)."""


@dataclass(frozen=True)
class NuggetScore:
    """A nugget score where a :class:`~cranfield.measures.Measure` would stand: a name, no
    parameters, its :class:`ScoreDef` as ``definition``."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    cutoff: None = None

    @property
    def definition(self) -> ScoreDef:
        return SCORES[self.name]

    def resolve(self) -> dict[str, Any]:
        return {}

    def __str__(self) -> str:
        return self.name


def response_scores(a: NuggetAssignments) -> dict[str, np.ndarray]:
    """``{score: value per response}``, in the order of :data:`SCORES`; the arithmetic of
    nuggetizer (counts, plus 0.5 per partial support, over the number of nuggets)."""
    out: dict[str, np.ndarray] = {}
    for name, d in SCORES.items():
        n, full, half = (
            (a.vital, a.vital_support, a.vital_partial)
            if d.vital_only
            else (a.total, a.support, a.partial)
        )
        got = full.astype(np.float64)
        if not d.strict:
            got = got + 0.5 * half
        value = np.zeros(len(n))
        np.divide(got, n, out=value, where=n > 0)
        out[name] = value
    return out


def score_list(scores: str | Sequence[str] | None) -> list[str]:
    if scores is None:
        return list(SCORES)
    names = [scores] if isinstance(scores, str) else scores
    if not isinstance(names, Sequence) or not names or not all(isinstance(s, str) for s in names):
        raise ParameterError(f"scores must be score names, got {scores!r}")
    unknown = [s for s in names if s not in SCORES]
    if unknown:
        raise ParameterError(
            f"unknown nugget score {unknown[0]!r}; choose from {', '.join(SCORES)}"
        )
    return list(dict.fromkeys(names))


def score(
    assignments: NuggetAssignments | str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    scores: str | Sequence[str] | None = None,
    *,
    ci: str | None = None,
    confidence: float = 0.95,
    samples: int = 10_000,
    seed: int | None = 0,
) -> ResultsSet:
    """Each run's nugget scores per query: a :class:`~cranfield.results.tables.ResultsSet`, one
    :class:`~cranfield.results.tables.Results` per run (in the order the runs first appear; queries
    in ``strcmp`` order of their ids), whose ``aggregate()`` is the mean over the run's
    responses and which :func:`cranfield.compare` takes as it takes evaluated runs.

    ``assignments``: what :func:`cranfield.nuggets.read` returns, or the files to read;
    ``scores``: some of :data:`SCORES` (default: all four); ``ci`` (``t``, ``bootstrap`` or
    ``bca``), ``confidence``, ``samples``, ``seed``: also the interval of each run's mean over
    its queries, as :func:`cranfield.evaluate` gives it (each Results' ``intervals``)."""
    from cranfield.evaluation import interval_settings, with_intervals

    names = score_list(scores)
    interval = interval_settings(ci, confidence, samples, seed)  # fail before reading
    if not isinstance(assignments, NuggetAssignments):
        assignments = read(assignments)
    a = assignments
    values = response_scores(a)
    table = np.column_stack([values[s] for s in names])
    measures = tuple(NuggetScore(s) for s in names)
    runs = np.asarray(a.runs, dtype=object)
    out = []
    for run in a.run_names:
        rows = np.asarray(
            sorted(np.flatnonzero(runs == run), key=lambda i: a.query_ids[i].encode("utf-8"))
        )
        out.append(
            Results(
                run=run,
                query_ids=tuple(a.query_ids[i] for i in rows),
                labels=tuple(names),
                measures=measures,  # type: ignore[arg-type]  # NuggetScore stands for Measure
                values=table[rows],
                notes={"query_rule": QUERY_RULE, "missing_advice": MISSING_ADVICE},
                summary={
                    "queries": len(rows),
                    "nuggets": int(a.total[rows].sum()),
                    "vital": int(a.vital[rows].sum()),
                },
            )
        )
    if interval is not None:
        out = with_intervals(out, **interval)
    return ResultsSet(tuple(out))


def docs_table() -> str:
    """The scores as the markdown table of ``docs/nuggets.md`` (generated: see
    :mod:`cranfield.render.generated_docs`)."""
    rows = [
        "| score | what | formula | when there is nothing to count | better | checked by |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for d in SCORES.values():
        checked = "<br>".join(f"`{t}`" for t in d.checked_by)
        rows.append(
            f"| `{d.name}` | {d.summary} | {d.formula} | {d.empty} | {d.better} | {checked} |"
        )
    return "\n".join(rows) + f"\n\nSource of every score: {SOURCE}.\n"
