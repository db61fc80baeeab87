"""``cranfield evaluate``: evaluate runs against qrels."""

from __future__ import annotations

import click

from ..order import TIE_POLICIES
from ..report.results_text import FORMATS


@click.command("evaluate", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("qrels", type=click.Path(dir_okay=False))
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "-m",
    "--measure",
    "measures",
    multiple=True,
    metavar="MEASURE",
    help="Measure string, repeatable: AP, P@10, 'P(rel=2)@5', nDCG@10, ... "
    "(default: AP, nDCG@10, P@10, RR, R@1000). See 'cranfield measures'.",
)
@click.option("-q", "--per-query", is_flag=True, help="Also print one value per query.")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--ties",
    type=click.Choice(TIE_POLICIES),
    default="trec",
    show_default=True,
    help="Order of tied scores: trec_eval's (docno descending), the given rank "
    "column, or random (reproducible with --seed).",
)
@click.option("--seed", type=int, default=None, help="Seed of --ties random (default 0).")
@click.option(
    "-M",
    "--depth",
    type=click.IntRange(min=0),
    default=None,
    help="Keep only the first N documents of each ranking (trec_eval -M).",
)
@click.option(
    "-J",
    "--judged-only",
    is_flag=True,
    help="Drop unjudged documents before measuring (trec_eval -J).",
)
@click.option(
    "-c",
    "--complete",
    is_flag=True,
    help="Score judged queries missing from a run as empty rankings (trec_eval -c).",
)
@click.option(
    "--digits",
    type=click.IntRange(0, 17),
    default=4,
    show_default=True,
    help="Decimals in table and trec output.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of standard output.",
)
def command(
    qrels, runs, measures, per_query, fmt, ties, seed, depth, judged_only, complete, digits, output
):
    """Evaluate RUNS against QRELS.

    \b
    cranfield evaluate qrels.txt run1.txt run2.txt -m AP -m P@10 -m nDCG@10
    cranfield evaluate qrels.txt run.txt -m AP --per-query --format trec
    cranfield evaluate qrels.txt runs/*.txt -m AP --per-query --format json > results.json
    """
    from ..evaluation import evaluate
    from ..report.results_text import render

    res = evaluate(
        qrels,
        list(runs),
        list(measures) or None,
        ties=ties,
        seed=seed,
        depth=depth,
        judged_only=judged_only,
        complete=complete,
    )
    text = render(list(res), fmt, per_query=per_query, digits=digits)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)
