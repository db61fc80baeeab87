"""``cranfield ties``: how much can tie-breaking move each run's scores?"""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.limits import MAX_CUTOFF
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._options import SIDE_INPUTS, values
from cranfield.cli._output import write_output
from cranfield.cli._types import NumberList, Range


def parser() -> Parser:
    p = Parser("cranfield ties", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure to range over tie-breakings, repeatable (default: AP, P@10, nDCG@10).",
    )
    p.common("per_query", help="Also print the range of every query.")
    p.option(
        "--curves",
        action="store_true",
        help="Print the averaged weak-order curves instead (Raghavan et al. 1989, sec. 4).",
    )
    p.option(
        "--recall",
        type=NumberList(Range(float, 0, 1)),
        default="0.1,0.3,0.5,0.7,0.9",
        show_default=True,
        help="Recall levels of --curves (comma-separated).",
    )
    p.option(
        "--nd",
        type=NumberList(Range(int, 1, MAX_CUTOFF)),
        default="5,10,20,50,100",
        show_default=True,
        help="ND values (documents retrieved) of --curves (comma-separated).",
    )
    p.common("fmt", choices=choices("ties"), help="Output format.")
    p.common("depth", "judged_only", "complete", "rel", "collection_size", "known", "target")
    p.common("names", "digits")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Show, per run, how far tie-breaking can move its scores.

    For each measure: the mean over queries under the worst tie-breaking (relevant documents
    last within every tie group), trec_eval's (document id descending), the expectation over
    uniformly random tie-breaking (--ties weak) and the best (relevant first); 'tied' counts
    queries with a tie group of several documents, 'rel_tied' those where such a group holds
    a relevant document, 'changed' those whose value differs between best and worst.

    \b
    cranfield ties qrels.txt run1.txt run2.txt
    cranfield ties qrels.txt run.txt -m AP -m RR --per-query --format json
    cranfield ties qrels.txt run.txt --curves --recall .1,.3,.5,.7,.9 --nd 2,10,22,40,68
    """
    a = parser().parse(argv)
    from cranfield.render.ties_text import render_ranges, render_weak_curves
    from cranfield.ties.analysis import tie_ranges, weak_curves

    kw = values(a, "depth", "judged_only", "complete", *SIDE_INPUTS, "names")
    if a.curves:
        rel = {} if a.rel is None else {"rel": a.rel}
        res = weak_curves(a.qrels, a.runs, list(a.recall), list(a.nd), **rel, **kw)
        text = render_weak_curves(res, a.digits, a.fmt)
    else:
        ranges = tie_ranges(a.qrels, a.runs, a.measures or None, rel=a.rel, **kw)
        text = render_ranges(ranges, a.digits, a.per_query, a.fmt)
    write_output(text, a.output)
