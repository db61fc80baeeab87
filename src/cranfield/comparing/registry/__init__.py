"""Every statistic of ``compare``, ``anova``, ``design`` and ``meta``, declared once.

A statistic is a test (``--test``), a multiple-comparison correction (``--correction``), an
interval (``--ci``), or a quantity of an analysis (the ANOVA table, margins of error, effect
sizes, topic-set sizes, discriminative power, ...).  Its declaration states its name, what it
computes (formula), where it comes from (paper, section, equation), which direction is better,
what it gives on degenerate input (and that it warns), the peer tool or brute force that
reproduces it, and the tests that check it.  From this one place come the choices of the
options (``TESTS``, ``CORRECTIONS``, ``INTERVALS``), the names printed in the outputs, and the
tables of ``docs/statistics.md`` and ``docs/compare.md``
(``python -m cranfield.render.generated_docs docs``);
``tests/comparing/test_statistics_registry.py`` fails for a declaration without a test, with a
test that does not exist, or with a stale table.

The declarations: :mod:`.significance` (tests, corrections), :mod:`.analyses` (intervals,
ANOVA, effect sizes, suites, design, meta-evaluation); what one states: :mod:`.statistic`.
"""

from __future__ import annotations

from cranfield.comparing.registry.analyses import ANALYSIS_STATISTICS
from cranfield.comparing.registry.significance import CORRECTION_STATISTICS, TEST_STATISTICS
from cranfield.comparing.registry.statistic import KINDS, Statistic

__all__ = ["KINDS", "STATISTICS", "Statistic", "aliases", "choices", "declared", "lookup"]


STATISTICS: tuple[Statistic, ...] = (
    *TEST_STATISTICS,
    *CORRECTION_STATISTICS,
    *ANALYSIS_STATISTICS,
)
"""Every declaration, in the order of the docs' tables."""


def declared(kind: str) -> tuple[Statistic, ...]:
    """The statistics of one kind, in declaration order."""
    return tuple(s for s in STATISTICS if s.kind == kind)


def choices(kind: str) -> dict[str, tuple[str, str]]:
    """``{name: (title, source)}`` of one kind: the choices of an option."""
    return {s.name: (s.title, s.source) for s in declared(kind)}


def aliases(kind: str) -> dict[str, str]:
    """``{alias: name}`` of one kind."""
    return {a: s.name for s in declared(kind) for a in s.aliases}


def lookup(kind: str, name: str) -> Statistic:
    """The declaration of ``name`` (or an alias) of ``kind``; KeyError when there is none."""
    name = aliases(kind).get(name, name)
    for s in declared(kind):
        if s.name == name:
            return s
    raise KeyError((kind, name))
