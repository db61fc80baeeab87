"""``cranfield compare``: significance tests, agreement between measures, per-request analysis."""

from __future__ import annotations

import click

from ..comparing.corrections import CORRECTIONS as _CORRECTIONS
from ..comparing.paired import TESTS as _TESTS
from ..order import TIE_POLICIES

TESTS = tuple(_TESTS)  # the library's tables: a test or correction added there is offered here
CORRECTIONS = tuple(_CORRECTIONS)
FORMATS = ("table", "markdown", "latex", "csv", "json")


@click.command("compare", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("qrels", type=click.Path(dir_okay=False))
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "-m",
    "--measure",
    "measures",
    multiple=True,
    metavar="MEASURE",
    help="Measure to compare, repeatable: AP, P@10, nDCG@10, PRES@1000, ... "
    "(default: AP, nDCG@10, P@10, RR, R@1000).",
)
@click.option(
    "-t",
    "--test",
    type=click.Choice(TESTS),
    default="t",
    show_default=True,
    help="Paired test: Student's t, Wilcoxon signed-rank, sign, Fisher randomization, "
    "paired bootstrap, or Tukey's HSD across all runs.",
)
@click.option(
    "--correction",
    type=click.Choice(CORRECTIONS),
    default="none",
    show_default=True,
    help="Multiple-comparison correction over the pairs of each measure (bh = Benjamini-Hochberg).",
)
@click.option(
    "-b",
    "--baseline",
    default=None,
    metavar="RUN",
    help="Compare every run with this one (run file name or path); default: every pair.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level (confidence intervals at 1 - alpha).",
)
@click.option(
    "--alternative",
    type=click.Choice(("two-sided", "greater", "less")),
    default="two-sided",
    show_default=True,
    help="greater: mean(b) > mean(a), with b the later run of a pair.",
)
@click.option(
    "--permutations",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Permutations of the randomization test / samples of the bootstrap.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the randomization, the bootstrap and --ties random.",
)
@click.option(
    "--ci",
    type=click.Choice(("t", "bootstrap")),
    default=None,
    help="Interval of the mean difference: Student t (default) or bootstrap percentile "
    "(default with --test bootstrap).",
)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="SPEC",
    help="Evaluate a measure at several cut-offs and report/plot the means, repeatable: "
    "'P@5,10,20,100', 'PRES@10,100,1000'.",
)
@click.option(
    "--requests",
    "show_requests",
    is_flag=True,
    help="Also print Keen's per-request tables (requests favouring each run, percentages).",
)
@click.option(
    "--generality",
    is_flag=True,
    help="Also compare specific and general requests (split by number of relevant documents).",
)
@click.option(
    "--complete/--no-complete",
    default=True,
    show_default=True,
    help="Score judged queries a run has no results for as empty rankings (trec_eval -c); "
    "--no-complete compares only the queries every run has.",
)
@click.option(
    "--ties",
    type=click.Choice(TIE_POLICIES),
    default="trec",
    show_default=True,
    help="Order of tied scores.",
)
@click.option(
    "-M",
    "--depth",
    type=click.IntRange(min=0),
    default=None,
    help="Keep only the first N documents of each ranking (trec_eval -M).",
)
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
    "--digits", type=click.IntRange(0, 17), default=4, show_default=True, help="Decimals."
)
@click.option(
    "--plot",
    "plot_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write charts into this directory: agreement, ranking change, sweeps, and per "
    "pair precision histograms and magnitude differences.",
)
@click.option(
    "--plot-format",
    "plot_formats",
    type=click.Choice(("png", "svg", "pdf")),
    multiple=True,
    help="Chart file format, repeatable (default png).",
)
@click.option(
    "--pair-plots/--no-pair-plots",
    default=True,
    show_default=True,
    help="With --plot: draw the per-pair charts (one histogram and one magnitude plot per "
    "pair and measure).",
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
    test,
    correction,
    baseline,
    alpha,
    alternative,
    permutations,
    seed,
    ci,
    sweeps,
    show_requests,
    generality,
    complete,
    ties,
    depth,
    fmt,
    digits,
    plot_dir,
    plot_formats,
    pair_plots,
    output,
):
    """Compare RUNS against each other on QRELS: per-run means with significance letters,
    p-values, wins/losses/ties and Keen's superiority percentage.

    \b
    cranfield compare qrels.txt a.run b.run c.run -m AP -m nDCG@10 --test wilcoxon \\
        --correction holm --baseline a.run
    cranfield compare qrels.txt runs/*.run -m AP -m P@10 --format latex > table.tex
    cranfield compare qrels.txt a.run b.run -m AP --sweep 'P@5,10,20,100' --plot figs/
    """
    from ..comparing import compare

    cmp = compare(
        qrels,
        list(runs),
        list(measures) or None,
        test=test,
        correction=correction,
        baseline=baseline,
        alpha=alpha,
        alternative=alternative,
        permutations=permutations,
        seed=seed,
        ci=ci,
        sweep=list(sweeps),
        complete=complete,
        ties=ties,
        depth=depth,
        missing="intersect",
    )
    details = [d for d, on in (("requests", show_requests), ("generality", generality)) if on]
    if details and fmt not in ("table", "markdown"):
        raise click.UsageError(
            "--requests and --generality are printed with --format table or markdown"
        )
    text = cmp.table("text" if fmt == "table" else fmt, digits=digits, details=details)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)
    if plot_dir:
        paths = cmp.plot(
            plot_dir,
            formats=list(plot_formats) or ["png"],
            pair_plots="all" if pair_plots else "none",
        )
        click.echo(f"cranfield: wrote {len(paths)} charts to {plot_dir}", err=True)
