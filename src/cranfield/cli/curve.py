"""``cranfield curve pr|gain|fallout``: averaged curves as numbers and plots."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from cranfield.base.limits import MAX_CUTOFF
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser, dispatch
from cranfield.cli._options import JUDGING, values
from cranfield.cli._output import write_output
from cranfield.cli._types import NumberList, Range, file_path, plot_file
from cranfield.judging.ordering import TIE_POLICIES

# part of the command-line interface: scripts depend on these names and values
INTERPOLATIONS = ("max", "trec", "trec9", "ceiling", "quasi-cranfield", "semi-cranfield", "none")
STEPS = ("highest", "lowest", "middle", "mean", "ends")
SHARED = (
    "levels",
    "average",
    "statistic",
    "cutoffs",
    "weak",
    "rel",
    "collection_size",
    "names",
    *JUDGING,
)
"""Options of pr and fallout handed to the library under their own names."""
CUTOFFS = NumberList(Range(int, 1, MAX_CUTOFF), words=("all", "standard"))
"""``--cutoffs``: document cut-offs, or a named set."""


def run(argv: Sequence[str]) -> None:
    """Precision-recall, gain and recall-fallout curves, averaged over queries.

    \b
    cranfield curve pr qrels run1 run2 --interpolation quasi-cranfield --step highest \\
        --extrapolation 5 --levels 21 --average macro --statistic mean --plot pr.png
    cranfield curve pr qrels run --cutoffs standard --format csv
    cranfield curve gain qrels run1 run2 --cutoffs 1,2,3,4,5,10,15,20 --gains '{1:1,2:5}'
    cranfield curve gain qrels a/run b/run --names bm25,dense --plot gain.pdf
    cranfield curve fallout qrels run --collection-size 1400 --plot roc.svg
    """
    helps = {name: (f.__doc__ or "").partition("\n")[0] for name, f in SUBCOMMANDS.items()}
    name, rest = dispatch("cranfield curve", run.__doc__, helps, argv)
    SUBCOMMANDS[name](rest)


def _parser(name: str, doc: str | None) -> Parser:
    """A parser with the arguments and options the three curve commands share."""
    p = Parser(f"cranfield curve {name}", doc)
    p.inputs()
    p.common(
        "fmt",
        choices=choices("curves"),
        help="Output format (csv: a header line, then one row per run and point).",
    )
    p.common("output")
    p.option(
        "--plot",
        dest="plot_path",
        type=plot_file,
        metavar="FILE",
        help="Also draw the curves to this file (.png, .svg or .pdf).",
    )
    p.option("--title", help="Title of the plot.")
    p.common("per_query", help="Output every query's values instead of the averages.")
    p.common("digits")
    p.common("ties", choices=TIE_POLICIES, help="Order of tied scores.")
    p.common("seed", "depth", "judged_only", "complete", "names")
    return p


def _rel(p: Parser) -> None:
    """``-l/--rel`` of the curves that count relevant documents (pr, fallout)."""
    p.common(
        "rel", default=1, show_default=True, help="Minimum grade counted relevant (trec_eval -l)."
    )


def _average(p: Parser, default: str) -> None:
    p.option(
        "--average",
        choices=("macro", "micro"),
        default=default,
        show_default=True,
        help="macro: per query, then averaged; micro: counts pooled over queries.",
    )
    p.option(
        "--statistic",
        choices=("mean", "median"),
        default="mean",
        show_default=True,
        help="Average of the queries' values (Keen Fig. 13).",
    )


def _levels(p: Parser) -> None:
    p.option(
        "--levels",
        type=NumberList(Range(float, 0, 1), words=("11", "21"), as_text=True),
        help="Recall levels: 11, 21 or a comma list [default: 11].",
    )


def _emit(table, fmt: str, digits: int, output: str | None) -> None:
    from cranfield.render.curves_text import render_curves

    write_output(render_curves(table, fmt, digits=digits), output)


def _finish(result, a, **plot_kw) -> None:
    """Draw the ``--plot`` file, then print the averaged (or ``--per-query``) table."""
    table, pq = result
    if a.plot_path:
        from cranfield.render.curve_charts import plot_curves

        plot_curves(table, a.plot_path, title=a.title, **plot_kw)
    _emit(pq if a.per_query else table, a.fmt, a.digits, a.output)


def pr_command(argv: Sequence[str]) -> None:
    """Precision-recall curves of RUNS against QRELS."""
    p = _parser("pr", pr_command.__doc__)
    p.option(
        "--interpolation",
        choices=INTERPOLATIONS,
        help="How each query's curve is read at the recall levels [default: max].",
    )
    p.option(
        "--step",
        choices=STEPS,
        help="Precision on a vertical step, quasi/semi-cranfield (Keen Fig. 15) "
        "[default: highest].",
    )
    p.option(
        "--extrapolation",
        choices=("1", "2", "3", "4", "5"),
        help="Left-end extrapolation method, quasi/semi-cranfield (Keen Figs. 18-22) [default: 5].",
    )
    _levels(p)
    _average(p, "macro")
    _rel(p)
    p.option(
        "--cutoffs",
        type=CUTOFFS,
        help="Average at these document cut-offs (Pseudo-Cranfield): a comma list, 'standard' "
        "(5,10,15,20,30,50,100) or 'all'.",
    )
    p.option(
        "--reference",
        type=file_path,
        metavar="FILE",
        help="Full-search run: extend partial quasi-cranfield curves to recall 1.0 (Keen Fig. 25).",
    )
    p.option("--best", action="store_true", help="Add the theoretical best curve ('best').")
    p.option("--weak", action="store_true", help="ceiling: tied scores form one level (PRECALL).")
    p.common(
        "collection_size",
        help="Documents in the collection (a number or a file of 'qid N' lines); used by "
        "ceiling --weak, where the unranked documents form the last level.",
    )
    a = p.parse(argv)
    from cranfield.curves import precision_recall

    result = precision_recall(
        a.qrels,
        a.runs,
        per_query=True,
        **values(a, *SHARED, "interpolation", "step", "extrapolation", "reference", "best"),
    )
    _finish(result, a)


def gain_command(argv: Sequence[str]) -> None:
    """Cumulated gain curves (CG, DCG, ideal, normalized) of RUNS against QRELS."""
    p = _parser("gain", gain_command.__doc__)
    p.option(
        "--cutoffs", type=CUTOFFS, help="Ranks to report: a comma list or 'all' [default: all]."
    )
    _average(p, "micro")
    p.option(
        "--gains",
        type=_gains,
        metavar="MAP",
        help="Gain of each grade as in measure strings, quoted: '{1:1,2:5,3:10}' (unlisted "
        "grades gain their grade) [default: the grade].",
    )
    p.option(
        "--convention",
        choices=("jk", "trec"),
        default="jk",
        show_default=True,
        help="Discount: jk = Järvelin & Kekäläinen (the slides), trec = 1/log(i+1).",
    )
    p.option(
        "--base",
        type=Range(float, 1, open=True),
        default=2.0,
        show_default=True,
        help="Log base b of the discount (ranks below b are not discounted).",
    )
    p.option("--area", action="store_true", help="Output the area under each curve instead.")
    p.option(
        "--plot-curve",
        choices=("dcg", "cg"),
        default="dcg",
        show_default=True,
        help="Which gain the plot shows.",
    )
    a = p.parse(argv)
    from cranfield.curves import area, gain

    table, pq = gain(
        a.qrels,
        a.runs,
        per_query=True,
        **values(a, "gains", "cutoffs", "average", "statistic", "convention", "base", "names"),
        **values(a, *JUDGING),
    )
    if a.plot_path:
        from cranfield.render.curve_charts import plot_curves

        plot_curves(table, a.plot_path, title=a.title, gain_curve=a.plot_curve)
    _emit(area(table) if a.area else pq if a.per_query else table, a.fmt, a.digits, a.output)


def _gains(text: str) -> dict[int, float]:
    """``--gains``: the library's reading of a gains map, as an option error."""
    from cranfield.curves.gain import gains_from_text
    from cranfield.errors import ParameterError

    try:
        return gains_from_text(text)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def fallout_command(argv: Sequence[str]) -> None:
    """Recall-fallout curves of RUNS against QRELS (needs --collection-size)."""
    p = _parser("fallout", fallout_command.__doc__)
    p.common(
        "collection_size",
        help="Documents in the collection (needed): a number or a file of 'qid N' lines.",
    )
    _levels(p)
    _average(p, "macro")
    _rel(p)
    p.option("--cutoffs", type=CUTOFFS, help="Average at document cut-offs: a comma list or 'all'.")
    p.option(
        "--weak",
        action="store_true",
        help="Tied scores form one level (Raghavan, Jung & Bollmann 1989, eq. 3.6).",
    )
    p.option(
        "--generality",
        type=Range(float, 0, 1000, open=True),
        help="Adjust the precision column to this generality (relevant per 1000, Keen Fig. 28c).",
    )
    a = p.parse(argv)
    from cranfield.curves import fallout

    result = fallout(a.qrels, a.runs, per_query=True, **values(a, *SHARED, "generality"))
    _finish(result, a)


SUBCOMMANDS: dict[str, Callable[[Sequence[str]], None]] = {
    "pr": pr_command,
    "gain": gain_command,
    "fallout": fallout_command,
}
