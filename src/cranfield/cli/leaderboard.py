"""``cranfield leaderboard``: do several judgment sets rank the same runs alike?"""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import echo, write_output
from cranfield.cli._types import Range, Switch, file_path, name_list, plot_file
from cranfield.comparing.corrections import CORRECTIONS
from cranfield.comparing.paired import TESTS
from cranfield.judging.ordering import TIE_POLICIES

FORMATS = choices("leaderboard")


def parser() -> Parser:
    p = Parser(
        "cranfield leaderboard",
        run.__doc__,
        usage="%(prog)s [options] QRELS_A QRELS_B [QRELS...] -r RUN [RUN...]",
    )
    p.add_argument("qrels", metavar="QRELS", type=file_path, nargs="+", help="Judgment sets.")
    p.option(
        "-r",
        "--run",
        dest="runs",
        type=file_path,
        nargs="+",
        action="extend",
        required=True,
        metavar="RUN",
        help="Run files, each read once and judged against every set (repeatable).",
    )
    p.common(
        "measures",
        help="Measure, repeatable (-m AP -m nDCG@10). Default: AP, nDCG@10, P@10, RR, R@1000.",
    )
    p.option(
        "--set-names",
        type=name_list,
        action="extend",
        metavar="NAME,...",
        help="Names of the judgment sets, in order (default: the file names).",
    )
    p.option(
        "--pairs",
        choices=("reference", "all"),
        default="reference",
        show_default=True,
        help="Compare every set with the first (reference) or every pair of sets.",
    )
    p.option(
        "-k",
        "--top-k",
        type=Range(int, 1, 10**9),
        default=10,
        show_default=True,
        metavar="K",
        help="tau_b among the runs ranked K or better under either set of a pair.",
    )
    p.option(
        "--queries",
        choices=("common", "each"),
        default="common",
        show_default=True,
        help="Means over the queries judged in every set, or over each set's own queries.",
    )
    p.option(
        "-t",
        "--test",
        choices=tuple(TESTS),
        default="t",
        show_default=True,
        help="Paired test whose verdicts are compared between the sets.",
    )
    p.option(
        "--correction",
        choices=tuple(CORRECTIONS),
        default="none",
        show_default=True,
        help="Multiple-comparison correction over the run pairs of each measure and set.",
    )
    p.option(
        "-b",
        "--baseline",
        metavar="RUN",
        help="Test every run against this one only (default: every pair of runs).",
    )
    p.common("alpha", help="Significance level.")
    p.common("alternative", help="Alternative hypothesis of the tests.")
    p.common("permutations", help="Permutations / bootstrap samples of the tests.")
    p.common(
        "seed",
        default=0,
        show_default=True,
        help="Seed of the randomization, the bootstrap and --ties random.",
    )
    p.option(
        "--complete",
        "--no-complete",
        action=Switch,
        default=True,
        show_default=True,
        help="Score judged queries a run has no results for as empty rankings (trec_eval -c).",
    )
    p.common("ties", choices=TIE_POLICIES, help="Order of tied scores.")
    p.common("depth", "judged_only", "rel", "names", "jobs")
    p.common("fmt", choices=FORMATS, help="Output format.")
    p.common("digits")
    p.option(
        "--plot",
        dest="plot_path",
        type=plot_file,
        metavar="FILE",
        help="Scatter plot of the run means under two sets (.png, .svg, .pdf), swapped pairs "
        "marked.",
    )
    p.option("--plot-measure", metavar="MEASURE", help="Measure of --plot (default: the first).")
    p.option(
        "--plot-sets",
        type=name_list,
        metavar="A,B",
        help="The two sets of --plot, by name (default: the first two).",
    )
    p.option("--quiet", action="store_true", help="No progress bars.")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Evaluate every RUN under each judgment set QRELS (each run read once) and compare the
    leaderboards per measure: Kendall's tau_b, tau_AP_b, Spearman and Pearson, tau_b among the
    top-k runs, the swapped pairs, the run whose rank moves most, and the share of run pairs
    with the same significance verdict ('cranfield docs judgments', "Leaderboard agreement").

    \b
    cranfield leaderboard human.qrels llm.qrels -r runs/*.run -m AP -m nDCG@10
    cranfield leaderboard human.qrels llm*.qrels -r runs/*.run --pairs all --format csv
    cranfield leaderboard a.qrels b.qrels -r runs/*.run -m P@10 -l 2 --plot scatter.png
    """
    p = parser()
    a = p.parse(argv)
    if a.plot_sets is not None and len(a.plot_sets) != 2:
        p.error("argument --plot-sets: give two set names, A,B")
    from cranfield.judgments.leaderboard_runs import leaderboards

    res = leaderboards(
        a.qrels,
        a.runs,
        a.measures or None,
        set_names=a.set_names,
        pairs=a.pairs,
        top_k=a.top_k,
        queries=a.queries,
        test=a.test,
        correction=a.correction,
        alpha=a.alpha,
        alternative=a.alternative,
        permutations=a.permutations,
        seed=a.seed,
        baseline=a.baseline,
        names=a.names,
        complete=a.complete,
        ties=a.ties,
        depth=a.depth,
        judged_only=a.judged_only,
        rel=a.rel,
        jobs=a.jobs,
    )
    text = res.table(a.fmt, digits=a.digits)
    write_output(text, a.output)
    if a.plot_path:
        sets = a.plot_sets or [0, 1]
        if len(res.sets) < 2 and a.plot_sets is None:
            sets = [0, 0]
        res.plot(a.plot_path, measure=a.plot_measure, a=sets[0], b=sets[1])
        echo(f"cranfield: wrote {a.plot_path}\n", err=True)
