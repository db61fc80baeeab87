"""``cranfield measures``: every measure with its parameters, formula and source."""

from __future__ import annotations

import click


@click.command("measures", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("names", nargs=-1)
@click.option("--family", default=None, help="Only this family (precision, ranking, gain, ...).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
)
def command(names, family, fmt):
    """List measures (all, or the NAMES given) with parameters, defaults, formula and source."""
    from ..measures import REGISTRY, lookup
    from ..report.measure_list import render_measures

    if names:
        defs = []
        for n in names:
            d = lookup(n)
            if d is None:
                from ..measures import parse

                parse(n)  # raises with suggestions
            else:
                defs.append(d)
    else:
        defs = list(REGISTRY.values())
    if family:
        defs = [d for d in defs if d.family == family]
    click.echo(render_measures(defs, fmt), nl=False)
