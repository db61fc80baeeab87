"""The data of an HTML report (:func:`cranfield.report`): what the page shows, as the
project's result objects (:class:`ReportData`), and the rendered page (:class:`Report`).
:mod:`cranfield.render.html` renders a :class:`ReportData`; nothing here formats a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["GAIN_RANKS", "PR_LEVELS", "CollectionSummary", "Report", "ReportData"]

GAIN_RANKS = 100
"""Ranks of the gain curves by default (each run's curve stops at its deepest ranking)."""
PR_LEVELS = 11


def _shown(path: str) -> str:
    from cranfield.render.provenance import display_path

    return display_path(path)


@dataclass(frozen=True)
class CollectionSummary:
    """What the qrels hold: queries, judgments, distinct judged documents, relevant judgments
    (grade >= ``rel``) and the number of judgments at each grade."""

    source: str
    queries: int
    judgments: int
    documents: int
    relevant: int
    rel: int
    grades: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, qrels: Any, rel: int) -> CollectionSummary:
        grades, counts = np.unique(np.asarray(qrels.grades), return_counts=True)
        return cls(
            source=_shown(str(qrels.source)),
            queries=qrels.num_queries,
            judgments=len(qrels),
            documents=len(qrels.doc_vocabulary),
            relevant=int(np.count_nonzero(np.asarray(qrels.grades) >= rel)),
            rel=rel,
            grades=tuple((int(g), int(c)) for g, c in zip(grades, counts, strict=True)),
        )


@dataclass(frozen=True, eq=False)
class ReportData:
    """Everything a report shows, as the project's result objects."""

    title: str
    comparison: Any  # Comparison
    results: Any  # ResultsSet
    collection: CollectionSummary | None  # None: no qrels (nugget scores)
    pr: Any  # DataFrame of cranfield.curves.precision_recall, all runs; None without rankings
    gain: Any  # DataFrame of cranfield.curves.gain, all runs; None without rankings
    ties: tuple[Any, ...]  # TieRange per run
    tie_labels: tuple[str, ...]  # measures ranged over tie-breakings
    settings: dict[str, Any]
    provenance: Any  # report.provenance.Provenance
    notes: tuple[str, ...] = ()  # the warnings raised while gathering, each once
    digits: int = 4
    run_notes: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per run: judged queries it has no results for, queries it has that are not judged."""
    intervals: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    """Per measure and run: the interval of the run's mean (arithmetic means), by the method
    of ``mean_intervals``."""
    mean_intervals: Any = None
    """The :class:`~cranfield.comparing.intervals.RunIntervals` of the means: their method and
    settings, and the values of ``intervals`` by run."""
    leaderboard: Any = None
    """With ``judgments=``: the leaderboards' agreement between the qrels and the other sets
    (:class:`~cranfield.judgments.leaderboard.LeaderboardAgreement`)."""


@dataclass(frozen=True, eq=False)
class Report:
    """A rendered report: ``html`` (the page), ``data`` (what it shows); :meth:`save` writes
    it, and a notebook shows it inline."""

    html: str
    data: ReportData

    def save(self, path: str | Path) -> Path:
        from cranfield.base.output_files import write_text_file

        write_text_file(path, self.html)
        return Path(path)

    def _repr_html_(self) -> str:  # notebooks: the page in a frame of its own (its CSS apart)
        from html import escape

        return (
            f'<iframe srcdoc="{escape(self.html, quote=True)}" '
            'style="width:100%;height:700px;border:1px solid #8884"></iframe>'
        )

    def __repr__(self) -> str:
        c = self.data.comparison
        return (
            f"<Report {self.data.title!r}: {len(c.runs)} runs x {len(c.labels)} measures, "
            f"{c.notes.get('queries')} queries, {len(self.html):,} characters>"
        )
