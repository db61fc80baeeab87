"""``cranfield report``: one self-contained HTML file about a set of runs (docs/report.md)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from cranfield.cli._args import Parser
from cranfield.cli._options import JUDGING, JUDGMENT_FILES, SIDE_INPUTS, values
from cranfield.cli._output import echo, stdout_is_terminal
from cranfield.cli._types import Range, file_path
from cranfield.cli.compare import judging_options, statistics_options
from cranfield.curves.interpolate import INTERPOLATIONS

INTERPOLATION_CHOICES = tuple(i for i in INTERPOLATIONS if i != "none")


def parser() -> Parser:
    p = Parser("cranfield report", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure to report, repeatable: AP, P@10, nDCG@10, ... "
        "(default: AP, nDCG@10, P@10, RR, R@1000).",
    )
    statistics_options(p)
    p.option(
        "--mean-ci",
        choices=("t", "bootstrap", "bca"),
        default="t",
        show_default=True,
        help="Interval of each run's mean in the summary: Student t, bootstrap percentile or "
        "BCa bootstrap, at confidence 1 - alpha, with --permutations resamples from --seed "
        "(the values of 'evaluate --ci --samples N --seed S'; 'cranfield docs statistics').",
    )
    p.option("--title", help="Title of the report (default: 'Evaluation report').")
    p.option(
        "--interpolation",
        choices=INTERPOLATION_CHOICES,
        default="max",
        show_default=True,
        help="Interpolation of the precision-recall curves ('cranfield docs curves').",
    )
    p.option(
        "--gain-ranks",
        type=Range(int, 1, 100_000),
        default=100,
        show_default=True,
        metavar="N",
        help="Ranks of the gain curves (each run's curve stops at its deepest ranking).",
    )
    judging_options(p)
    p.option(
        "--judgments",
        dest="judgments",
        type=file_path,
        action="append",
        default=[],
        metavar="QRELS",
        help="Another judgment set of the same queries, repeatable: adds a section comparing "
        "the runs' leaderboards under QRELS and under each (cranfield leaderboard).",
    )
    p.option(
        "-k",
        "--top-k",
        type=Range(int, 1, 10**9),
        default=10,
        show_default=True,
        metavar="K",
        help="With --judgments: tau_b among the runs ranked K or better under either set.",
    )
    p.common("digits", help="Decimals shown.")
    p.option(
        "--timestamp",
        action="store_true",
        help="Note the time the report was made (without it, the same inputs give the same bytes).",
    )
    p.common("output", help="Write the report to this file (default: standard output).")
    return p


def run(argv: Sequence[str]) -> None:
    """Write an HTML report comparing RUNS on QRELS: the collection, means with confidence
    intervals and significance marks, a sortable per-query table with Keen's magnitude
    differences, precision-recall and gain curves, tie ranges, agreement between measures,
    and how to reproduce it (the command, versions, input checksums).  One file, no network
    access when opened.

    \b
    cranfield report qrels.txt runs/*.txt -m AP -m nDCG@10 -m P@10 --baseline bm25.txt \\
        -o report.html
    cranfield report qrels.txt a.run b.run --test randomization --correction holm \\
        --title "Dev set" -o r.html
    """
    p = parser()
    a = p.parse(argv)
    if not a.output and stdout_is_terminal():
        p.error(
            "the report is an HTML page, not text for a terminal: give -o FILE (-o report.html), "
            "or redirect standard output to a file (> report.html); -o - prints it anyway"
        )
    from cranfield.render.provenance import display_path
    from cranfield.reporting import report

    options = (getattr(a, k, None) for k in (*SIDE_INPUTS, *JUDGMENT_FILES))
    files = {x for x in (a.qrels, *a.runs, *options, a.output) if isinstance(x, str)}
    shown = [display_path(x) if x in files else x for x in argv]  # no absolute path in it

    rep = report(
        a.qrels,
        a.runs,
        a.measures or None,
        title=a.title,
        command=shlex.join(["cranfield", "report", *shown]),
        **values(a, "test", "correction", "baseline", "alpha", "alternative", "permutations"),
        **values(a, *JUDGING, *SIDE_INPUTS, *JUDGMENT_FILES, "ci", "names", "rel"),
        **values(a, "digits", "interpolation", "mean_ci"),
        **values(a, "gain_ranks", "timestamp", "judgments", "top_k", "bounds"),
    )
    if a.output and a.output != "-":
        rep.save(a.output)
        echo(f"cranfield: wrote {a.output}\n", err=True)
    else:
        echo(rep.html)
