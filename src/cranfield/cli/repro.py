"""``cranfield repro``: how far an experiment was reproduced or replicated (Breuer et al.)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from cranfield.base.limits import MAX_RBO_DEPTH
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range, file_path, plot_file


def parser() -> Parser:
    p = Parser(
        "cranfield repro",
        run.__doc__,
        usage="%(prog)s --orig-baseline RUN --orig-advanced RUN --rep-baseline RUN "
        "--rep-advanced RUN [options] QRELS [QRELS2]",
    )
    p.add_argument("qrels", metavar="QRELS", type=file_path, nargs="+", help=argparse.SUPPRESS)
    for role, what in (
        ("orig-baseline", "The original baseline run"),
        ("orig-advanced", "The original advanced run"),
        ("rep-baseline", "The reproduced (or replicated) baseline run"),
        ("rep-advanced", "The reproduced (or replicated) advanced run"),
    ):
        p.option(f"--{role}", type=file_path, required=True, metavar="RUN", help=f"{what}.")
    p.common(
        "measures",
        help="Measure, repeatable: AP, P@10, nDCG@10, ...; trec_eval's names too (map, P_10). "
        "Default: AP, nDCG@10, P@10, RR, R@1000.",
    )
    p.option(
        "--rbo-p",
        type=Range(float, 0, 1, open=True),
        default=0.95,
        show_default=True,
        metavar="P",
        help="Persistence of the rank-biased overlap.",
    )
    p.option(
        "--rbo-depth",
        type=Range(int, 1, MAX_RBO_DEPTH),
        default=1000,
        show_default=True,
        metavar="N",
        help="Depth of the rank-biased overlap (repro_eval's truncated, normalised RBO).",
    )
    p.option(
        "--welch",
        action="store_true",
        help="Replicability: Welch's unpaired t-test instead of Student's (repro_eval's).",
    )
    p.option(
        "--pytrec-eval-compat",
        dest="compat",
        action="store_const",
        const="pytrec_eval",
        help="As repro_eval (pytrec_eval 9.0.8): the documents for KTU and RBO in the file's "
        "order (equal adjacent scores by document id descending) instead of trec_eval's "
        "(score, then document id descending), and IPrec/IPrecAvg with trec_eval 9.x's "
        "rounding of recall levels (rounding=trec9).",
    )
    p.common("fmt", choices=choices("repro"), help="Output format.")
    p.common("digits")
    p.common("output")
    p.option(
        "--plot",
        dest="plot_path",
        type=plot_file,
        metavar="FILE",
        help="Also draw the ER/DeltaRI plot to this file (.png, .svg or .pdf; needs the plot "
        "extra).",
    )
    return p


def run(argv: Sequence[str]) -> None:
    """Measure how far runs reproduce (same collection and topics: QRELS) or replicate
    (another collection: QRELS2, the reproduced runs' qrels) an original experiment, after
    Breuer et al., SIGIR 2020, as repro_eval computes them: per topic Kendall's tau Union and
    RBO of the document orders, per measure RMSE and nRMSE (reproducibility), effect ratio,
    delta relative improvement and t-tests (paired for reproducibility, unpaired for
    replicability).  cranfield docs repro.

    \b
    cranfield repro --orig-baseline b.run --orig-advanced a.run \\
        --rep-baseline b2.run --rep-advanced a2.run qrels.txt -m AP -m nDCG@10
    cranfield repro --orig-baseline b.run --orig-advanced a.run \\
        --rep-baseline b2.run --rep-advanced a2.run qrels.txt qrels2.txt --plot er.png
    """
    p = parser()
    a = p.parse(argv)
    if len(a.qrels) > 2:
        p.error("give QRELS, and QRELS2 for replicability (at most two qrels files)")
    if a.welch and len(a.qrels) == 1:
        p.error("--welch is for replicability (an unpaired test): give QRELS2")
    from cranfield.comparing.repro import repro
    from cranfield.render.repro_text import render_repro

    result = repro(
        a.orig_baseline,
        a.orig_advanced,
        a.rep_baseline,
        a.rep_advanced,
        a.qrels[0],
        a.qrels[1] if len(a.qrels) == 2 else None,
        measures=a.measures or None,
        p=a.rbo_p,
        depth=a.rbo_depth,
        welch=a.welch,
        compat=a.compat,
    )
    if a.plot_path:
        from cranfield.render.repro_charts import er_dri_plot

        er_dri_plot(result, a.plot_path)
    write_output(render_repro(result, a.digits, a.fmt), a.output)
