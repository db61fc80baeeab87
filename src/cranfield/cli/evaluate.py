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
    "column, random (reproducible with --seed), or weak (expectation over all "
    "tie-breakings; see docs/ties.md).",
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
    "--collection-size",
    "collection_size",
    metavar="N|FILE",
    default=None,
    help="Documents in the collection: one number, or a file of 'qid N' lines "
    "(needed by Rnorm, Pnorm, RankRecall, LogPrecision, WRnorm, Fallout, Generality, AdjP).",
)
@click.option(
    "--known",
    type=click.Path(dir_okay=False),
    default=None,
    help="Documents known to the user, qrels format, grade > 0 = known (Coverage, Novelty).",
)
@click.option(
    "--target",
    metavar="N|FILE",
    default=None,
    help="Relevant documents the user wants: one number, or a file of 'qid N' lines "
    "(RelativeRecall, RecallEffort).",
)
@click.option(
    "--aggregate",
    "aggregate",
    multiple=True,
    metavar="HOW|MEASURE=HOW",
    help="Statistic over queries: mean, gmean, median or micro (sum of numerators over sum of "
    "denominators), for every measure or one (repeatable: --aggregate 'P@10=micro'). "
    "Default: each measure's own.",
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
    qrels,
    runs,
    measures,
    per_query,
    fmt,
    ties,
    seed,
    depth,
    judged_only,
    complete,
    collection_size,
    known,
    target,
    aggregate,
    digits,
    output,
):
    """Evaluate RUNS against QRELS.

    \b
    cranfield evaluate qrels.txt run1.txt run2.txt -m AP -m P@10 -m nDCG@10
    cranfield evaluate qrels.txt run.txt -m AP --per-query --format trec
    cranfield evaluate qrels.txt runs/*.txt -m AP --per-query --format json > results.json
    cranfield evaluate qrels.txt run.txt -m PRES@1000 -m Rnorm --collection-size 1400
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
        collection_size=_number_or_path(collection_size),
        known=known,
        target=_number_or_path(target),
        aggregate=_aggregate_option(aggregate, list(measures)),
    )
    text = render(list(res), fmt, per_query=per_query, digits=digits)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)


def _number_or_path(value: str | None) -> int | str | None:
    """An integer when the option value is one, else the file path it names."""
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.lstrip("+-").isdigit() else value


def _aggregate_option(values: tuple[str, ...], labels: list[str]) -> str | dict[str, str] | None:
    """``HOW`` (every measure) and ``MEASURE=HOW`` items; the last ``=`` splits, since measure
    strings may hold ``=`` themselves (``F(beta=2)@10=micro``)."""
    default, per = None, {}
    for v in values:
        label, sep, how = v.rpartition("=")
        if sep and label:
            per[label] = how
        else:
            default = v
    if not per:
        return default
    if default is not None:
        from ..evaluation import DEFAULT_MEASURES

        return {**dict.fromkeys(labels or DEFAULT_MEASURES, default), **per}
    return per
