"""What a declaration of a statistic says (:class:`Statistic`) and the kinds of statistics
(:data:`KINDS`); the declarations are in :mod:`.significance` and :mod:`.analyses`."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KINDS", "Statistic"]


KINDS = ("test", "correction", "interval", "anova", "effect", "design", "meta")
"""What a statistic is: a paired or multi-run test, a correction of a family of p-values, an
interval of a mean, a part of an ANOVA table, an effect size or margin of error, a topic-set
design quantity, or a meta-evaluation of a measure."""


@dataclass(frozen=True)
class Statistic:
    """One declared statistic (see the module docstring)."""

    kind: str
    name: str
    title: str
    formula: str
    source: str
    better: str
    degenerate: str
    peer: str
    checked_by: tuple[str, ...]
    controls: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.name)
