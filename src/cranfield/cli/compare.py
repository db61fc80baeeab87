"""``cranfield compare``: significance tests, agreement between measures, per-request analysis."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._options import JUDGING, JUDGMENT_FILES, SIDE_INPUTS, cluster, values
from cranfield.cli._output import echo, write_output
from cranfield.cli._types import Range, Switch, output_dir
from cranfield.comparing.corrections import CORRECTIONS as _CORRECTIONS
from cranfield.comparing.paired import TESTS as _TESTS
from cranfield.judging.ordering import TIE_POLICIES

TESTS = tuple(_TESTS)  # the library's tables: a test or correction added there is offered here
CORRECTIONS = tuple(_CORRECTIONS)
FORMATS = choices("comparison")


def parser() -> Parser:
    p = Parser("cranfield compare", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure to compare, repeatable: AP, P@10, nDCG@10, PRES@1000, ...; several in "
        "one (-m 'AP nDCG@10'); trec_eval's names too (map, P_10). Default: AP, nDCG@10, P@10, "
        "RR, R@1000.",
    )
    statistics_options(p)
    p.option(
        "--sweep",
        dest="sweeps",
        action="append",
        default=[],
        metavar="SPEC",
        help="Evaluate a measure at several cut-offs and report/plot the means, repeatable: "
        "'P@5,10,20,100', 'PRES@10,100,1000'.",
    )
    p.option(
        "--rbo",
        metavar="P",
        type=Range(float, 0, 1, open=True),
        help="Also the rank-biased overlap of the runs' rankings for every pair (Webber, "
        "Moffat & Zobel 2010): mean RBO_min, residual and RBO_ext with persistence P (0.9 "
        "is usual).",
    )
    p.option(
        "--requests",
        dest="show_requests",
        action="store_true",
        help="Also print Keen's per-request tables (requests favouring each run, percentages).",
    )
    p.option(
        "--generality",
        action="store_true",
        help="Also compare specific and general requests (split by number of relevant documents).",
    )
    judging_options(p)
    p.common("fmt", choices=FORMATS, help="Output format.")
    p.common("digits", help="Decimals.")
    plot_options(p)
    p.common("dask")
    p.common("output")
    return p


def plot_options(p: Parser, what: str = "agreement, ranking change, sweeps, and ") -> None:
    """``--plot``, ``--plot-format`` and ``--pair-plots``: the comparison's charts (compare,
    nuggets --compare; written by :func:`write_plots`)."""
    p.option(
        "--plot",
        dest="plot_dir",
        type=output_dir,
        metavar="DIRECTORY",
        help=f"Write charts into this directory: {what}per pair precision histograms and "
        "magnitude differences.",
    )
    p.option(
        "--plot-format",
        dest="plot_formats",
        action="append",
        default=[],
        choices=("png", "svg", "pdf"),
        help="Chart file format, repeatable (default png).",
    )
    p.option(
        "--pair-plots",
        "--no-pair-plots",
        action=Switch,
        default=True,
        show_default=True,
        help="With --plot: draw the per-pair charts (one histogram and one magnitude plot per "
        "pair and measure).",
    )


def write_plots(cmp: Any, a: argparse.Namespace) -> None:
    """The charts of ``--plot`` (nothing without it), and a line on standard error."""
    if not a.plot_dir:
        return
    paths = cmp.plot(
        a.plot_dir,
        formats=a.plot_formats or ["png"],
        pair_plots="all" if a.pair_plots else "none",
    )
    from cranfield.render.table import counted

    echo(f"cranfield: wrote {counted(len(paths), 'chart')} to {a.plot_dir}\n", err=True)


def statistics_options(
    p: Parser, seed_help: str = "Seed of the randomization, the bootstrap and --ties random."
) -> None:
    """The options of the tests (shared with ``cranfield report``): test, correction,
    baseline, alpha, alternative, permutations, seed, interval."""
    p.option(
        "-t",
        "--test",
        choices=TESTS,
        default="t",
        show_default=True,
        help="Paired test: Student's t, Wilcoxon signed-rank, sign, Fisher randomization, "
        "paired bootstrap, or Tukey's HSD across all runs.",
    )
    p.option(
        "--correction",
        choices=CORRECTIONS,
        default="none",
        show_default=True,
        help="Multiple-comparison correction over the pairs of each measure "
        "(bh = Benjamini-Hochberg).",
    )
    p.option(
        "-b",
        "--baseline",
        metavar="RUN",
        help="Compare every run with this one: its name, a path ending with it, or its end "
        "(one run must match); default: every pair.",
    )
    p.common("alpha", help="Significance level (confidence intervals at 1 - alpha).")
    p.common("alternative", help="greater: mean(b) > mean(a), with b the later run of a pair.")
    p.common(
        "permutations", help="Permutations of the randomization test / samples of the bootstrap."
    )
    p.common("seed", default=0, show_default=True, help=seed_help)
    p.option(
        "--ci",
        choices=("t", "bootstrap"),
        help="Interval of the mean difference: Student t (default) or bootstrap percentile "
        "(default with --test bootstrap).",
    )


def judging_options(p: Parser) -> None:
    """The judging options of the commands that compare runs (compare, report)."""
    p.common(
        "complete",
        help="Which queries a mean is over: every judged query of the qrels, a judged query a "
        "run has no results for scored as an empty ranking (trec_eval -c); --no-complete: "
        "only the queries every run has results for.",
    )
    p.common("ties", choices=TIE_POLICIES, help="Order of tied scores.")
    p.common("bounds")
    p.common("depth", "judged_only", "rel", "collection_size", "known", "target", "names")
    p.common("prefs", "prefs_format", "judgment_groups", "subtopics")


def run(argv: Sequence[str]) -> None:
    """Compare RUNS against each other on QRELS: per-run means with significance letters,
    p-values, wins/losses/ties and Keen's superiority percentage.

    \b
    cranfield compare qrels.txt a.run b.run c.run -m AP -m nDCG@10 --test wilcoxon \\
        --correction holm --baseline a.run
    cranfield compare qrels.txt runs/*.run -m AP -m P@10 --format latex > table.tex
    cranfield compare qrels.txt a.run b.run -m AP --sweep 'P@5,10,20,100' --plot figs/
    cranfield compare qrels.txt a.run b.run -m AP --rbo 0.9
    cranfield compare qrels.txt a.run b.run -m AP --bounds
    cranfield compare qrels.txt a.run b.run -m Rnorm --collection-size 1400 -l 2
    cranfield compare qrels.txt runs/*.run -m AP --test randomization --dask tcp://host:8786
    """
    p = parser()
    a = p.parse(argv)
    details = [d for d, on in (("requests", a.show_requests), ("generality", a.generality)) if on]
    if details and a.fmt not in ("table", "markdown"):
        p.error("--requests and --generality are printed with --format table or markdown")
    from cranfield.comparing import compare

    with cluster(p, a) as client:
        cmp = compare(
            a.qrels,
            a.runs,
            a.measures or None,
            sweep=a.sweeps,
            missing="intersect",
            rbo=a.rbo,
            executor=client,
            **values(a, "test", "correction", "baseline", "alpha", "alternative", "permutations"),
            **values(a, *JUDGING, *SIDE_INPUTS, *JUDGMENT_FILES, "ci", "names", "rel", "bounds"),
        )
    text = cmp.table(a.fmt, digits=a.digits, details=details)
    write_output(text, a.output)
    write_plots(cmp, a)
