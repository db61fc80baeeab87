"""``cranfield design``: the number of topics a test collection needs (Sakai's topic-set-size
design), from the runs' per-query values on existing qrels."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range


def parser() -> Parser:
    from cranfield.cli.compare import judging_options

    p = Parser("cranfield design", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure, repeatable: AP, P@10, nDCG@10, ...; several in one (-m 'AP nDCG@10'). "
        "Default: AP, nDCG@10, P@10, RR, R@1000.",
    )
    p.option(
        "--min-diff",
        type=Range(float, 0, 1e300, open=True),
        required=True,
        metavar="D",
        help="The smallest difference in the measure's mean worth detecting.",
    )
    p.option(
        "--power",
        type=Range(float, 0, 1, open=True),
        default=0.8,
        show_default=True,
        help="Wanted probability of detecting a difference of --min-diff (1 - beta).",
    )
    p.common("alpha", help="Significance level.")
    p.option(
        "--ci-width",
        type=Range(float, 0, 1e300, open=True),
        metavar="W",
        help="Also the topics for an expected interval width of at most W (of a mean "
        "difference, at confidence 1 - alpha).",
    )
    p.option(
        "--estimate",
        choices=("one-way", "two-way"),
        default="one-way",
        show_default=True,
        help="The variance of the per-query values: the residual V_E of one-way ANOVA (within "
        "each run) or of two-way ANOVA (runs x queries).",
    )
    p.option(
        "--variance",
        type=Range(float, 0, 1e300),
        metavar="V",
        help="Use this variance instead of estimating it from the runs.",
    )
    p.common("seed", default=0, show_default=True, help="Seed of --ties random.")
    judging_options(p)
    p.common("fmt", choices=choices("design"), help="Output format.")
    p.common("digits", help="Decimals.")
    p.common("dask")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """How many topics a test collection needs to detect a difference of --min-diff with
    --power in a paired t-test and in one-way ANOVA over the runs (and, with --ci-width, for an
    interval that narrow), from the variance of each measure over RUNS on QRELS (Sakai,
    "Topic set size design", 2016); also the power the current topics give.

    \b
    cranfield design qrels.txt runs/*.run -m AP --min-diff 0.05 --power 0.8
    cranfield design qrels.txt a.run b.run -m nDCG@10 --min-diff 0.02 --ci-width 0.05 -f json
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.cli._tables import compared
    from cranfield.comparing.design import topic_set_size
    from cranfield.render.design_text import render

    cmp, _ = compared(p, a, alpha=a.alpha)
    designs = []
    for label in cmp.labels:
        kw = dict(min_diff=a.min_diff, power=a.power, alpha=a.alpha, ci_width=a.ci_width)
        if a.variance is not None:
            d = topic_set_size(variance=a.variance, runs=len(cmp.runs), **kw)
        else:
            d = topic_set_size(cmp.values[label], estimate=a.estimate, **kw)
        designs.append((label, d))
    write_output(render(designs, a.fmt, digits=a.digits), a.output)
