"""``cranfield judges``: how two or more judgment sets (qrels) agree."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from cranfield.base.limits import MAX_SEED
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range, file_path, plot_file


def _mapping(text: str) -> Any:
    from cranfield.errors import ParameterError
    from cranfield.judgments.agreement import parse_mapping

    try:
        return parse_mapping(text)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"--map {text!r}: ")) from None


def parser() -> Parser:
    from cranfield.io.formats import QRELS_FORMATS

    p = Parser("cranfield judges", run.__doc__, usage="%(prog)s [options] QRELS QRELS...")
    p.add_argument("qrels", metavar="QRELS", type=file_path, nargs="+", help=argparse.SUPPRESS)
    p.option(
        "--qrels-format",
        dest="sets_format",  # read here, not tagged by the shared --qrels-format rule
        choices=QRELS_FORMATS,
        default="auto",
        show_default=True,
        help="Format of the qrels files (auto: by the file name, then the first line).",
    )
    p.common("rel", help="Binarise at this grade: grade >= N is relevant (default 1).")
    p.option(
        "--map",
        dest="mapping",
        type=_mapping,
        action="append",
        metavar="SET:GRADES->GRADE;...",
        help="Map a set's grades before comparing, e.g. 'B:0,1->0;2,3->1' (grades not "
        "listed stay as they are); repeatable, one per set. Sets are named A, B, C, ... in "
        "the order given, or by --names.",
    )
    p.option(
        "--names",
        type=lambda t: [x.strip() for x in t.split(",")],
        action="extend",
        metavar="NAME,...",
        help="Names of the sets, in order (default: A, B, C, ...).",
    )
    p.option(
        "--bootstrap",
        type=Range(int, 0, 100_000),
        default=1000,
        show_default=True,
        metavar="N",
        help="Resamples of the queries for the confidence intervals (0: none).",
    )
    p.option(
        "--seed",
        type=Range(int, 0, MAX_SEED),
        default=0,
        show_default=True,
        metavar="N",
        help="Seed of the bootstrap.",
    )
    p.option(
        "--worst",
        type=Range(int, 0, 1_000_000),
        default=10,
        show_default=True,
        metavar="N",
        help="Queries shown per pair of sets in the table, those that disagree most "
        "(JSON and CSV give every query).",
    )
    p.common("fmt", choices=choices("judges"), help="Output format.")
    p.common("digits")
    p.common("output")
    p.option(
        "--plot",
        dest="plot_path",
        type=plot_file,
        metavar="FILE",
        help="Also draw the confusion matrices as heat maps to this file (.png, .svg or .pdf; "
        "needs the plot extra).",
    )
    return p


def run(argv: Sequence[str]) -> None:
    """Compare judgment sets: label agreement on the (query, document) pairs they share.

    For every two sets: the pairs judged by both and by one only, Cohen's kappa (unweighted,
    linear, quadratic), the confusion matrix, agreement per grade, leniency and the queries
    that disagree most; over all sets: Krippendorff's alpha (nominal, ordinal, interval),
    Fleiss' kappa and Gwet's AC1/AC2; all again after binarising at -l; each with a
    bootstrap interval over queries.  Undefined values are shown as 'undefined' with a
    warning saying why (cranfield docs judgments).

    \b
    cranfield judges human.qrels llm.qrels
    cranfield judges a.qrels b.qrels c.qrels -l 2 --format json
    cranfield judges graded.qrels binary.qrels --map 'A:0,1->0;2,3->1' --plot confusion.png
    """
    p = parser()
    a = p.parse(argv)
    if len(a.qrels) < 2:
        p.error("give at least two judgment sets (QRELS QRELS...)")
    if a.names is not None and len(a.names) != len(a.qrels):
        p.error(f"--names gives {len(a.names)} names for {len(a.qrels)} judgment sets")
    from cranfield.judgments.agreement import judges
    from cranfield.render.judges_text import render_judges

    kw: dict[str, Any] = {} if a.rel is None else {"rel": a.rel}
    result = judges(
        *a.qrels,
        names=a.names,
        mapping=a.mapping,
        bootstrap=a.bootstrap,
        seed=a.seed,
        qrels_format=a.sets_format,
        **kw,
    )
    if a.plot_path:
        from cranfield.render.judges_charts import confusion_heatmaps

        confusion_heatmaps(result, a.plot_path)
    write_output(render_judges(result, a.digits, a.fmt, a.worst), a.output)
