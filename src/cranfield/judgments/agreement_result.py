"""What :func:`cranfield.judges` returns: every set summarised, every two sets compared
(:class:`PairAgreement`), the statistics over all sets, each an :class:`Estimate` with its
bootstrap interval, and their JSON form (``to_dict``: NaN as null).  Rendered by
:mod:`cranfield.render.judges_text` and :mod:`cranfield.render.judges_charts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ALL_STATISTICS",
    "PAIR_STATISTICS",
    "Estimate",
    "JudgmentAgreement",
    "PairAgreement",
    "QueryKappa",
    "SetSummary",
]


PAIR_STATISTICS = ("kappa", "kappa_linear", "kappa_quadratic")


ALL_STATISTICS = (
    "alpha_nominal",
    "alpha_ordinal",
    "alpha_interval",
    "fleiss_kappa",
    "ac1",
    "ac2",
)


@dataclass(frozen=True)
class Estimate:
    """A statistic's value and its bootstrap interval (NaN where undefined)."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        return {k: _json_float(getattr(self, k)) for k in ("value", "low", "high")}


@dataclass(frozen=True)
class SetSummary:
    """One judgment set: its name, source, judgments used and lines left out."""

    name: str
    source: str
    judgments: int
    unjudged: int
    """Lines with a negative grade (left out)."""
    queries: int
    grades: tuple[int, ...]
    """The distinct grades after the mapping."""
    mapping: dict[int, int] = field(default_factory=dict)
    """The grades this set's were mapped from and to (``--map``; empty: none)."""

    def mapping_text(self) -> str:
        """The mapping as ``--map`` writes it: ``0,1->0;2,3->1`` (empty without one)."""
        targets: dict[int, list[int]] = {}
        for g, t in sorted(self.mapping.items()):
            targets.setdefault(t, []).append(g)
        return ";".join(f"{','.join(map(str, gs))}->{t}" for t, gs in sorted(targets.items()))


@dataclass(frozen=True)
class QueryKappa:
    query: str
    pairs: int
    agreement: float
    kappa: float


@dataclass
class PairAgreement:
    """Two sets compared on the pairs both judged."""

    a: str
    b: str
    both: int
    only_a: int
    only_b: int
    grades: tuple[int, ...]
    """The grades of the confusion matrix's rows and columns."""
    confusion: np.ndarray
    observed: float
    """Share of common pairs given the same grade."""
    statistics: dict[str, Estimate]
    per_grade: dict[int, float]
    """Specific agreement on each grade: 2 n_gg / (n_g. + n_.g)."""
    binary_confusion: np.ndarray
    binary_statistics: dict[str, Estimate]
    mean_difference: float
    """Mean of b's grade - a's grade over the common pairs."""
    b_higher: float
    a_higher: float
    per_query: list[QueryKappa]
    """Per-query kappa, the queries that disagree most first."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "pairs_in_both": self.both,
            "pairs_in_a_only": self.only_a,
            "pairs_in_b_only": self.only_b,
            "grades": list(self.grades),
            "confusion": self.confusion.astype(int).tolist(),
            "observed_agreement": _json_float(self.observed),
            "statistics": {k: v.to_dict() for k, v in self.statistics.items()},
            "agreement_per_grade": {str(g): _json_float(v) for g, v in self.per_grade.items()},
            "binary_confusion": self.binary_confusion.astype(int).tolist(),
            "binary_statistics": {k: v.to_dict() for k, v in self.binary_statistics.items()},
            "leniency": {
                "mean_difference": _json_float(self.mean_difference),
                "b_higher": _json_float(self.b_higher),
                "a_higher": _json_float(self.a_higher),
            },
            "per_query": [
                {
                    "query": q.query,
                    "pairs": q.pairs,
                    "agreement": _json_float(q.agreement),
                    "kappa": _json_float(q.kappa),
                }
                for q in self.per_query
            ],
        }


@dataclass
class JudgmentAgreement:
    """What :func:`judges` returns."""

    sets: list[SetSummary]
    rel: int
    bootstrap: int
    seed: int
    confidence: float
    queries: int
    """Queries with a pair judged by at least two sets (the bootstrap's units)."""
    units: int
    """(query, document) pairs judged by at least two sets."""
    common: int
    """Pairs judged by every set (Fleiss' kappa's subjects)."""
    pairs: list[PairAgreement]
    statistics: dict[str, Estimate]
    binary_statistics: dict[str, Estimate]
    warnings: list[str] = field(default_factory=list)

    def pair(self, a: str, b: str) -> PairAgreement:
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
        raise KeyError((a, b))

    def to_dict(self) -> dict[str, Any]:
        return {
            "sets": [
                {
                    "name": s.name,
                    "source": s.source,
                    "judgments": s.judgments,
                    "unjudged_left_out": s.unjudged,
                    "queries": s.queries,
                    "grades": list(s.grades),
                    "mapping": {str(g): t for g, t in sorted(s.mapping.items())},
                }
                for s in self.sets
            ],
            "rel": self.rel,
            "bootstrap": {
                "samples": self.bootstrap,
                "seed": self.seed,
                "confidence": self.confidence,
                "queries": self.queries,
            },
            "pairs_judged_by_two_or_more": self.units,
            "pairs_judged_by_all": self.common,
            "statistics": {k: v.to_dict() for k, v in self.statistics.items()},
            "binary_statistics": {k: v.to_dict() for k, v in self.binary_statistics.items()},
            "pairs": [p.to_dict() for p in self.pairs],
            "warnings": list(self.warnings),
        }


def _json_float(x: float) -> float | None:
    return None if x != x else float(x)
