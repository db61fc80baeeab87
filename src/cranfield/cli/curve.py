"""``cranfield curve pr|gain|fallout``: averaged curves as numbers and plots."""

from __future__ import annotations

import click

from ..order import TIE_POLICIES
from ..report.curves_text import CURVE_FORMATS

CTX = {"help_option_names": ["-h", "--help"]}
# fixed by issue 6 (scripts depend on these names and values)
INTERPOLATIONS = ("max", "trec", "trec9", "ceiling", "quasi-cranfield", "semi-cranfield", "none")
STEPS = ("highest", "lowest", "middle", "mean", "ends")


def _common(f):
    """Arguments and options shared by the three curve commands."""
    options = [
        click.argument("qrels", type=click.Path(dir_okay=False)),
        click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False)),
        click.option(
            "-f",
            "--format",
            "fmt",
            type=click.Choice(CURVE_FORMATS),
            default="table",
            show_default=True,
            help="Output format (csv: a header line, then one row per run and point).",
        ),
        click.option(
            "-o", "--output", type=click.Path(dir_okay=False), help="Write here, not to stdout."
        ),
        click.option(
            "--plot",
            "plot_path",
            type=click.Path(dir_okay=False),
            help="Also draw the curves to this file (.png, .svg or .pdf).",
        ),
        click.option("--title", help="Title of the plot."),
        click.option(
            "-q",
            "--per-query",
            is_flag=True,
            help="Output every query's values instead of the averages.",
        ),
        click.option(
            "--digits",
            type=click.IntRange(0, 17),
            default=4,
            show_default=True,
            help="Decimals in table output.",
        ),
        click.option(
            "--rel",
            type=int,
            default=1,
            show_default=True,
            help="Minimum grade of a relevant document.",
        ),
        click.option(
            "--ties",
            type=click.Choice(TIE_POLICIES),
            default="trec",
            show_default=True,
            help="Order of tied scores.",
        ),
        click.option("--seed", type=int, default=None, help="Seed of --ties random."),
        click.option(
            "-M",
            "--depth",
            type=click.IntRange(min=0),
            default=None,
            help="Keep only the first N documents of each ranking.",
        ),
        click.option("-J", "--judged-only", is_flag=True, help="Drop unjudged documents."),
        click.option(
            "-c",
            "--complete",
            is_flag=True,
            help="Judged queries missing from a run count as empty rankings.",
        ),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f


def _average(default: str):
    def deco(f):
        f = click.option(
            "--statistic",
            type=click.Choice(("mean", "median")),
            default="mean",
            show_default=True,
            help="Average of the queries' values (Keen Fig. 13).",
        )(f)
        return click.option(
            "--average",
            type=click.Choice(("macro", "micro")),
            default=default,
            show_default=True,
            help="macro: per query, then averaged; micro: counts pooled over queries.",
        )(f)

    return deco


def _collection_size(value: str | None) -> int | str | None:
    """An integer when the option value is one, else the 'qid N' file it names."""
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.lstrip("+-").isdigit() else value


def _emit(table, fmt: str, digits: int, output: str | None) -> None:
    from ..report.curves_text import render_curves

    text = render_curves(table, fmt, digits=digits)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)


def _judge_opts(kw: dict) -> dict:
    return {k: kw.pop(k) for k in ("ties", "seed", "depth", "judged_only", "complete")}


def _finish(result, per_query: bool, kw: dict, **plot_kw) -> None:
    table, pq = result
    if kw["plot_path"]:
        from ..curves import plot

        plot(table, kw["plot_path"], title=kw["title"], **plot_kw)
    _emit(pq if per_query else table, kw["fmt"], kw["digits"], kw["output"])


@click.group("curve", context_settings=CTX)
def command() -> None:
    """Precision-recall, gain and recall-fallout curves, averaged over queries.

    \b
    cranfield curve pr qrels run1 run2 --interpolation quasi-cranfield --step highest \\
        --extrapolation 5 --levels 21 --average macro --statistic mean --plot pr.png
    cranfield curve pr qrels run --cutoffs standard --format csv
    cranfield curve gain qrels run1 run2 --cutoffs 1,2,3,4,5,10,15,20 --plot gain.pdf
    cranfield curve fallout qrels run --collection-size 1400 --plot roc.svg
    """


@command.command("pr", context_settings=CTX)
@_common
@click.option(
    "--interpolation",
    type=click.Choice(INTERPOLATIONS),
    default=None,
    help="How each query's curve is read at the recall levels [default: max].",
)
@click.option(
    "--step",
    type=click.Choice(STEPS),
    default=None,
    help="Precision on a vertical step, quasi/semi-cranfield (Keen Fig. 15) [default: highest].",
)
@click.option(
    "--extrapolation",
    type=click.Choice(("1", "2", "3", "4", "5")),
    default=None,
    help="Left-end extrapolation method, quasi/semi-cranfield (Keen Figs. 18-22) [default: 5].",
)
@click.option("--levels", default=None, help="Recall levels: 11, 21 or a comma list [default: 11].")
@_average("macro")
@click.option(
    "--cutoffs",
    default=None,
    help="Average at these document cut-offs (Pseudo-Cranfield): a comma list, 'standard' "
    "(5,10,15,20,30,50,100) or 'all'.",
)
@click.option(
    "--reference",
    type=click.Path(dir_okay=False),
    help="Full-search run: extend partial quasi-cranfield curves to recall 1.0 (Keen Fig. 25).",
)
@click.option("--best", is_flag=True, help="Add the theoretical best curve ('best').")
@click.option("--weak", is_flag=True, help="ceiling: tied scores form one level (PRECALL).")
@click.option(
    "--collection-size",
    default=None,
    help="Documents in the collection (a number or a file of 'qid N' lines); used by "
    "ceiling --weak, where the unranked documents form the last level.",
)
def pr(**kw):
    """Precision-recall curves of RUNS against QRELS."""
    from ..curves import precision_recall

    opts = _judge_opts(kw)
    result = precision_recall(
        kw["qrels"],
        list(kw["runs"]),
        levels=kw["levels"],
        interpolation=kw["interpolation"],
        step=kw["step"],
        extrapolation=kw["extrapolation"],
        average=kw["average"],
        statistic=kw["statistic"],
        cutoffs=kw["cutoffs"],
        reference=kw["reference"],
        best=kw["best"],
        rel=kw["rel"],
        weak=kw["weak"],
        collection_size=_collection_size(kw["collection_size"]),
        per_query=True,
        **opts,
    )
    _finish(result, kw["per_query"], kw)


@command.command("gain", context_settings=CTX)
@_common
@click.option(
    "--cutoffs", default=None, help="Ranks to report: a comma list or 'all' [default: all]."
)
@_average("micro")
@click.option(
    "--gains", default=None, help="Gain of each grade, e.g. '1=1,2=5,3=10' [default: the grade]."
)
@click.option(
    "--convention",
    type=click.Choice(("jk", "trec")),
    default="jk",
    show_default=True,
    help="Discount: jk = Järvelin & Kekäläinen (the slides), trec = 1/log(i+1).",
)
@click.option(
    "--base",
    type=float,
    default=2.0,
    show_default=True,
    help="Log base b of the discount (ranks below b are not discounted).",
)
@click.option("--area", is_flag=True, help="Output the area under each curve instead.")
@click.option(
    "--plot-curve",
    type=click.Choice(("dcg", "cg")),
    default="dcg",
    show_default=True,
    help="Which gain the plot shows.",
)
def gain_command(**kw):
    """Cumulated gain curves (CG, DCG, ideal, normalized) of RUNS against QRELS."""
    from ..curves import area, gain

    opts = _judge_opts(kw)
    table, pq = gain(
        kw["qrels"],
        list(kw["runs"]),
        cutoffs=kw["cutoffs"],
        average=kw["average"],
        statistic=kw["statistic"],
        gains=_parse_gains(kw["gains"]),
        convention=kw["convention"],
        base=kw["base"],
        per_query=True,
        **opts,
    )
    if kw["plot_path"]:
        from ..curves import plot

        plot(table, kw["plot_path"], title=kw["title"], gain_curve=kw["plot_curve"])
    out = area(table) if kw["area"] else pq if kw["per_query"] else table
    _emit(out, kw["fmt"], kw["digits"], kw["output"])


def _parse_gains(text: str | None) -> dict[int, float] | None:
    from ..errors import ParameterError

    if not text:
        return None
    out: dict[int, float] = {}
    for part in text.split(","):
        grade, sep, value = part.partition("=")
        try:
            if not sep:
                raise ValueError
            out[int(grade)] = float(value)
        except ValueError:
            raise ParameterError(f"--gains: expected grade=gain, got {part!r}") from None
    return out


@command.command("fallout", context_settings=CTX)
@_common
@click.option(
    "--collection-size",
    default=None,
    help="Documents in the collection (needed): a number or a file of 'qid N' lines.",
)
@click.option("--levels", default=None, help="Recall levels: 11, 21 or a comma list [default: 11].")
@_average("macro")
@click.option(
    "--cutoffs", default=None, help="Average at document cut-offs: a comma list or 'all'."
)
@click.option("--weak", is_flag=True, help="Tied scores form one level (seed 003 eq. 3.6).")
@click.option(
    "--generality",
    type=float,
    default=None,
    help="Adjust the precision column to this generality (relevant per 1000, Keen Fig. 28c).",
)
def fallout_command(**kw):
    """Recall-fallout curves of RUNS against QRELS (needs --collection-size)."""
    from ..curves import fallout

    opts = _judge_opts(kw)
    result = fallout(
        kw["qrels"],
        list(kw["runs"]),
        collection_size=_collection_size(kw["collection_size"]),
        levels=kw["levels"],
        average=kw["average"],
        statistic=kw["statistic"],
        cutoffs=kw["cutoffs"],
        weak=kw["weak"],
        generality=kw["generality"],
        rel=kw["rel"],
        per_query=True,
        **opts,
    )
    _finish(result, kw["per_query"], kw)
