"""``cranfield measures``: every measure with its parameters, formula and source."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.cli._args import SUPPRESS, Parser
from cranfield.cli._output import echo, stdout_is_terminal


def parser() -> Parser:
    p = Parser("cranfield measures", run.__doc__, usage="%(prog)s [options] [NAMES]...")
    p.add_argument("names", metavar="NAMES", nargs="*", help=SUPPRESS)
    p.option("--family", help="Only this family (precision, ranking, gain, ...).")
    p.option(
        "--find",
        metavar="WORD",
        help="Only the measures whose name, aliases, family, summary, formula or trec_eval "
        "names hold WORD (any case): --find recall. One line each unless --format says.",
    )
    p.option(
        "--format",
        dest="fmt",
        choices=("text", "short", "markdown", "json"),
        help="Output format: text (everything, by family, the common measures first; the "
        "default), short (one line each, in the terminal's width), markdown (the docs table) "
        "or json (every declaration: parameters with defaults and ranges, direction, "
        "aggregations, tie-aware form, side inputs, trec_eval names, source, tests).",
    )
    p.option("--short", action="store_true", help="One line per measure (--format short).")
    return p


def run(argv: Sequence[str]) -> None:
    """List measures (all, or the NAMES given) with parameters, defaults, formula and source."""
    a = parser().parse(argv)
    from cranfield.measures import REGISTRY, lookup
    from cranfield.render.measure_list import render_measures

    if a.names:
        defs = []
        for n in a.names:
            d = lookup(n)
            if d is None:
                from cranfield.measures import parse

                parse(n)  # raises with suggestions
            else:
                defs.append(d)
    else:
        defs = list(REGISTRY.values())
    if a.family is not None:
        families = sorted({d.family for d in REGISTRY.values()})
        if a.family not in families:
            from cranfield.cli._args import _did_you_mean
            from cranfield.errors import ParameterError

            raise ParameterError(
                f"--family: no family {a.family!r}{_did_you_mean(a.family, families)}; "
                f"the families are {', '.join(families)}"
            )
        defs = [d for d in defs if d.family == a.family]
    if a.find is not None:
        from cranfield.render.measure_list import find_measures

        word = a.find.strip()
        if not word:
            from cranfield.errors import ParameterError

            raise ParameterError("--find: give a word to look for (--find recall)")
        found = find_measures(defs, word)
        if not found:
            from cranfield.errors import ParameterError

            raise ParameterError(
                f"--find: no measure mentions {word!r}; 'cranfield measures --short' lists them all"
            )
        defs = found
    fmt = "short" if a.short else a.fmt or ("short" if a.find is not None else "text")
    import os

    wrap = bool(os.environ.get("COLUMNS", "").strip()) or stdout_is_terminal()
    echo(render_measures(defs, fmt, wrap=wrap))
