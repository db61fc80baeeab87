"""The tables of ``docs/statistics.md`` and ``docs/compare.md`` made from the declarations of
:mod:`cranfield.comparing.registry` (see :mod:`.generated_docs`)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["corrections_table", "statistics_table"]

_KIND_TITLES = {
    "test": "Tests (`compare --test`)",
    "correction": "Corrections (`compare --correction`)",
    "interval": "Intervals of a run's mean (`evaluate --ci`)",
    "anova": "ANOVA (`cranfield anova`)",
    "effect": "Effect sizes and margins of error (`cranfield anova`); effects and pooling "
    "(`cranfield suite`)",
    "design": "Topic-set size and power (`cranfield design`)",
    "meta": "Judging the measures (`cranfield meta`)",
}


def _md(cells: Sequence[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _tests(refs: Sequence[str]) -> str:
    return "<br>".join(f"`{r.split('::')[1]}`" for r in refs)


def statistics_table() -> str:
    """Every declared statistic, grouped by kind: name, formula, source, better, degenerate
    input, peer and the tests that check it."""
    from cranfield.comparing.registry import KINDS, declared

    out: list[str] = []
    for kind in KINDS:
        stats = declared(kind)
        if not stats:
            continue
        out += [f"#### {_KIND_TITLES[kind]}", ""]
        out.append(
            "| name | what | formula | source | better | degenerate input | peer | checked by |"
        )
        out.append("|---|---|---|---|---|---|---|---|")
        for s in stats:
            name = f"`{s.name}`" + (
                " (" + ", ".join(f"`{a}`" for a in s.aliases) + ")" if s.aliases else ""
            )
            what = s.title + (f"; controls {s.controls}" if s.controls else "")
            out.append(
                _md(
                    [
                        name,
                        what,
                        s.formula,
                        s.source or "-",
                        s.better,
                        s.degenerate,
                        s.peer or "-",
                        _tests(s.checked_by),
                    ]
                )
            )
        out.append("")
    return "\n".join(out)


def corrections_table() -> str:
    """The corrections of ``compare --correction``: adjusted p, what it controls, source."""
    from cranfield.comparing.registry import declared

    lines = ["| `--correction` | adjusted p | controls | source |", "|---|---|---|---|"]
    for s in declared("correction"):
        name = f"`{s.name}`" + (" (default)" if s.name == "none" else "")
        lines.append(_md([name, s.formula, s.controls, s.source or "-"]))
    return "\n".join(lines) + "\n"
