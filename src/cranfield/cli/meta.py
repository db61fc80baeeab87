"""``cranfield meta``: judging the measures (discriminative power, swap rate, ranking
stability) on the runs' per-query values."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.limits import MAX_RESAMPLES
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import echo, write_output
from cranfield.cli._types import Range, output_dir


def parser() -> Parser:
    from cranfield.cli.compare import judging_options

    p = Parser("cranfield meta", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure to judge, repeatable: AP, P@10, nDCG@10, ...; several in one "
        "(-m 'AP nDCG@10'). Default: AP, nDCG@10, P@10, RR, R@1000.",
    )
    p.option(
        "-t",
        "--test",
        choices=("bootstrap", "rthsd", "randomization"),
        default="bootstrap",
        show_default=True,
        help="The test of every pair of runs for the discriminative power: Sakai's paired "
        "bootstrap, the randomised Tukey HSD, or the randomization test.",
    )
    p.common("alpha", help="Significance level of the discriminative power.")
    p.option(
        "--samples",
        type=Range(int, 1, MAX_RESAMPLES),
        default=1000,
        show_default=True,
        help="Resamples of the test.",
    )
    p.option(
        "--trials",
        type=Range(int, 1, 10_000_000),
        default=100,
        show_default=True,
        help="Random splits (swap rate) and random subsets per size (stability).",
    )
    p.option(
        "--subset",
        type=Range(int, 1, 10**12),
        metavar="C",
        help="Queries in each of the two sets of the swap rate (default: half the queries).",
    )
    p.option(
        "--bin-width",
        type=Range(float, 0, 1e300, open=True),
        default=0.01,
        show_default=True,
        help="Width of the bins of |difference of the means| of the swap rate.",
    )
    p.common(
        "seed",
        default=0,
        show_default=True,
        help="Seed of the test, the splits, the subsets and --ties random.",
    )
    judging_options(p)
    p.common("fmt", choices=choices("meta"), help="Output format.")
    p.common("digits", help="Decimals.")
    p.option(
        "--plot",
        dest="plot_dir",
        type=output_dir,
        metavar="DIRECTORY",
        help="Write the charts into this directory: ASL curves, swap rates, stability.",
    )
    p.option(
        "--plot-format",
        dest="plot_formats",
        action="append",
        default=[],
        choices=("png", "svg", "pdf"),
        help="Chart file format, repeatable (default png).",
    )
    p.common("dask")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Judge the measures on RUNS and QRELS: discriminative power (Sakai, SIGIR 2006: the
    share of pairs of runs significant at alpha, and the ASL curve), swap rate over random
    splits of the queries into two sets (Voorhees & Buckley, SIGIR 2002), and the stability of
    the ranking of the runs under query subsampling (Kendall's tau against all queries).

    \b
    cranfield meta qrels.txt runs/*.run -m AP -m P@10 -m nDCG@10 --plot figures/
    cranfield meta qrels.txt runs/*.run -m AP --test rthsd --samples 10000 --format json
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.cli._tables import compared
    from cranfield.comparing.meta import meta_evaluation
    from cranfield.render.meta_text import render

    def judge(cmp, client):
        return meta_evaluation(
            cmp,
            test=a.test,
            samples=a.samples,
            seed=a.seed,
            subset=a.subset,
            trials=a.trials,
            bin_width=a.bin_width,
            executor=client,
        )

    _, m = compared(p, a, alpha=a.alpha, then=judge)
    write_output(render(m, a.fmt, digits=a.digits), a.output)
    if a.plot_dir:
        paths = m.plot(a.plot_dir, formats=a.plot_formats or ["png"])
        echo(f"cranfield: wrote {len(paths)} charts to {a.plot_dir}\n", err=True)
