"""``cranfield nuggets``: AutoNuggetizer's nugget scores of RAG responses, per run, and their
comparison (the paired tests of ``cranfield compare``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from cranfield.base.limits import MAX_RESAMPLES
from cranfield.base.output_formats import KINDS, choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range, file_path, output_file

SCORE_NAMES = ("strict_vital", "strict_all", "vital", "all")
"""cranfield.nuggets.SCORES' names (here so that --help imports nothing; a test checks them)."""
FORMATS = choices("nuggets", "comparison")


def parser() -> Parser:
    from cranfield.cli.compare import plot_options, statistics_options

    p = Parser("cranfield nuggets", run.__doc__, usage="%(prog)s [options] FILE...")
    p.add_argument("files", metavar="FILE", type=file_path, nargs="+", help=argparse.SUPPRESS)
    p.option(
        "-s",
        "--score",
        dest="scores",
        action="append",
        default=[],
        choices=SCORE_NAMES,
        help="Score to show, repeatable (default: all four): strict_vital, strict_all (a "
        "partial support counts 0), vital, all (it counts 0.5).",
    )
    p.common("per_query", help="Also print each response's scores (one per run and query).")
    p.option(
        "--mean-ci",
        choices=("t", "bootstrap", "bca"),
        help="Also the interval of each run's mean over its queries: Student t, bootstrap "
        "percentile or BCa bootstrap (with --samples and --seed), at --confidence "
        "('cranfield docs statistics'). Not with --compare, whose --ci is the interval of a "
        "difference.",
    )
    p.option(
        "--confidence",
        type=Range(float, 0, 1, open=True),
        default=0.95,
        show_default=True,
        help="Confidence of --mean-ci.",
    )
    p.option(
        "--samples",
        type=Range(int, 1, MAX_RESAMPLES),
        default=10_000,
        show_default=True,
        help="Bootstrap resamples of --mean-ci bootstrap / bca.",
    )
    p.option(
        "--compare",
        action="store_true",
        help="Compare the runs instead: paired tests over the queries, as 'cranfield compare' "
        "does (the options below); the queries every run has a response to are compared.",
    )
    p.option(
        "--report",
        metavar="OUT.html",
        type=output_file,
        help="Write an HTML report instead (one self-contained page, as 'cranfield report' "
        "writes): the runs, their means (with --mean-ci their intervals, at confidence 1 - "
        "--alpha with --permutations resamples), the per-query table, the comparison (the "
        "options below), provenance; - writes it to standard output.",
    )
    p.option("--title", help="The title of the --report page.")
    statistics_options(
        p, seed_help="Seed of the randomization test, the bootstraps and --mean-ci's resamples."
    )
    plot_options(p, what="with --compare, agreement, ranking change, and ")
    p.common(
        "fmt",
        choices=FORMATS,
        help="Output format (latex with --compare only).",
    )
    p.common("digits")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Score RAG responses by the nuggets they support: FILE... are nugget-assignment files
    (JSON lines, one response per line: qid, run_id, nuggets with importance vital/okay and
    assignment support/partial_support/not_support), as nuggetizer's assign writes them.
    Prints each run's mean over its responses of strict_vital, strict_all, vital and all
    (Pradeep et al., SIGIR 2025; cranfield docs nuggets).

    \b
    cranfield nuggets assignments.jsonl
    cranfield nuggets run-a.jsonl run-b.jsonl --per-query --format csv
    cranfield nuggets run-a.jsonl run-b.jsonl --compare --test randomization -s vital
    cranfield nuggets runs/*.jsonl --compare --baseline bm25 --correction holm --plot figs/
    """
    p = parser()
    a = p.parse(argv)
    if a.report is not None:
        _report(p, a, argv)
        return
    if a.title is not None:
        p.error("--title is the title of the --report page: give --report")
    if a.compare and a.per_query:
        p.error("--per-query is not shown with --compare")
    kind = "comparison" if a.compare else "nuggets"
    if a.fmt not in KINDS[kind].formats:
        # the choices are both kinds' formats: one the other kind does not write
        p.error(f"--format {a.fmt} is {'not ' if a.compare else ''}a format of --compare")
    if a.plot_dir and not a.compare:
        p.error("--plot draws the comparison's charts: give --compare")
    if a.compare and a.mean_ci:
        p.error("--mean-ci is not shown with --compare (its --ci is the interval of a difference)")
    from cranfield.nuggets import read, score

    assignments = read(a.files)
    results = score(
        assignments,
        a.scores or None,
        ci=a.mean_ci,
        confidence=a.confidence,
        samples=a.samples,
        seed=a.seed,
    )
    if a.compare:
        from cranfield.comparing import compare

        cmp = compare(
            results,
            list(results[0].labels),
            test=a.test,
            correction=a.correction,
            baseline=a.baseline,
            alpha=a.alpha,
            alternative=a.alternative,
            permutations=a.permutations,
            seed=a.seed,
            ci=a.ci,
        )
        text = cmp.table(a.fmt, digits=a.digits)
        write_output(text, a.output)
        from cranfield.cli.compare import write_plots

        write_plots(cmp, a)
        return
    else:
        from cranfield.nuggets.render import render

        text = render(results, assignments, a.fmt, per_query=a.per_query, digits=a.digits)
    write_output(text, a.output)


def _report(p: Parser, a: argparse.Namespace, argv: Sequence[str]) -> None:
    """``--report OUT.html``: the page of :func:`cranfield.reporting.nugget_report`."""
    import shlex

    for given, what in (
        (a.compare, "--compare"),
        (a.per_query, "--per-query"),
        (a.plot_dir, "--plot"),
        (a.output, "-o/--output"),
        (a.fmt != "table", "--format"),
        # the means' intervals are the report's: at 1 - --alpha, --permutations resamples
        (a.confidence != p.get_default("confidence"), "--confidence (give --alpha)"),
        (a.samples != p.get_default("samples"), "--samples (give --permutations)"),
    ):
        if given:
            p.error(f"--report writes the page: {what} is not an option of it")
    from cranfield.cli._output import echo
    from cranfield.render.provenance import display_path
    from cranfield.reporting import nugget_report

    files = {x for x in (*a.files, a.report) if isinstance(x, str) and x != "-"}
    shown = [display_path(x) if x in files else x for x in argv]  # no absolute path in it
    rep = nugget_report(
        a.files,
        a.scores or None,
        title=a.title,
        test=a.test,
        correction=a.correction,
        baseline=a.baseline,
        alpha=a.alpha,
        alternative=a.alternative,
        permutations=a.permutations,
        seed=a.seed,
        ci=a.ci,
        mean_ci=a.mean_ci,
        digits=a.digits,
        command=shlex.join(["cranfield", "nuggets", *shown]),
        output=None if a.report == "-" else a.report,
    )
    if a.report == "-":
        echo(rep.html)
    else:
        echo(f"cranfield: wrote {a.report}\n", err=True)
