"""``cranfield anova``: one-way or two-way ANOVA of the runs per measure, with Sakai's margins
of error and standardised effect sizes."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output


def parser() -> Parser:
    from cranfield.cli.compare import judging_options

    p = Parser("cranfield anova", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure, repeatable: AP, P@10, nDCG@10, ...; several in one (-m 'AP nDCG@10'). "
        "Default: AP, nDCG@10, P@10, RR, R@1000.",
    )
    p.option(
        "--design",
        choices=("two-way", "one-way"),
        default="two-way",
        show_default=True,
        help="two-way: runs x queries without replication (queries as blocks, Sakai's "
        "choice for IR); one-way: runs as groups, queries ignored.",
    )
    p.common("alpha", help="The margins of error are at confidence 1 - alpha.")
    p.common("seed", default=0, show_default=True, help="Seed of --ties random.")
    judging_options(p)
    p.common("fmt", choices=choices("anova"), help="Output format.")
    p.common("digits", help="Decimals.")
    p.common("dask")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """ANOVA of RUNS on QRELS per measure: the table (SS, df, MS, F, p), every run's mean with
    Sakai's margin of error MOE = t(alpha/2; phi_E) sqrt(V_E/n), and the standardised effect
    size (mean_a - mean_b) / sqrt(V_E) of every pair.  The queries are those compare uses.

    \b
    cranfield anova qrels.txt a.run b.run c.run -m AP -m nDCG@10
    cranfield anova qrels.txt runs/*.run -m AP --design one-way --format json
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.cli._tables import compared
    from cranfield.render.anova_text import render

    cmp, _ = compared(p, a, alpha=a.alpha)
    analyses = [(label, cmp.anova(label, a.design)) for label in cmp.labels]
    write_output(render(analyses, a.fmt, digits=a.digits), a.output)
