"""``cranfield suite``: one family of systems over many collections (BEIR, TREC DL years)."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import echo, write_output
from cranfield.cli._types import file_path, plot_file

FORMATS = choices("suite")


def parser() -> Parser:
    p = Parser("cranfield suite", run.__doc__, usage="%(prog)s [options] SUITE")
    p.add_argument(
        "suite", metavar="SUITE", type=file_path, help="The suite file (.yaml, .yml, .toml)."
    )
    p.option(
        "-b",
        "--baseline",
        metavar="SYSTEM",
        help="The system the others are compared with (default: the suite's baseline, else "
        "its first system).",
    )
    p.option(
        "--effect",
        choices=("difference", "standardized"),
        default="difference",
        show_default=True,
        help="Effect of the meta-analysis per dataset: the mean paired difference, or Hedges' "
        "g of the paired differences.",
    )
    p.common("alpha", help="1 - the confidence of the meta-analysis' intervals.")
    p.common("jobs")
    p.common("fmt", choices=FORMATS, help="Output format (csv: the datasets table only).")
    p.common("digits", help="Decimals in table output; means equal at them are a tie.")
    p.option(
        "--plot",
        dest="plot_path",
        type=plot_file,
        metavar="FILE",
        help="Forest plot of the meta-analysis (.png, .svg, .pdf).",
    )
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Evaluate every system of the SUITE file on each of its datasets with the dataset's
    official measure: the means per dataset (groups of sub-collections averaged into one),
    their mean and geometric mean, wins/ties/losses against the baseline, and a random-effects
    meta-analysis (DerSimonian-Laird) of each system's effect over the baseline
    (cranfield docs suites).

    \b
    cranfield suite beir.yaml
    cranfield suite beir.yaml --baseline bm25 --effect standardized --plot forest.png
    cranfield suite dl.toml --format json -o dl.json
    """
    a = parser().parse(argv)
    if a.suite == "-":
        from cranfield.errors import ParameterError

        raise ParameterError("the suite is a file (its paths are relative to its folder), not '-'")
    from cranfield.comparing.suites import suite

    res = suite(
        a.suite, baseline=a.baseline, effect=a.effect, alpha=a.alpha, digits=a.digits, jobs=a.jobs
    )
    if a.plot_path and len(res.systems) < 2:  # before any output is written
        from cranfield.errors import ParameterError

        raise ParameterError(f"--plot: {a.suite} names one system; a forest plot needs two")
    write_output(res.table(a.fmt), a.output)
    if a.plot_path:
        res.plot(a.plot_path)
        echo(f"cranfield: wrote {a.plot_path}\n", err=True)
