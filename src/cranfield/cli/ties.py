"""``cranfield ties``: how much can tie-breaking move each run's scores?"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..limits import MAX_CUTOFF
from ._args import SIDE_INPUTS, NumberList, Parser, Range, values
from ._output import write_output


def _table(head: list[str], rows: list[list[str]], nleft: int) -> list[str]:
    widths = [max(len(h), *(len(r[c]) for r in rows)) for c, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        parts = [
            c.ljust(w) if k < nleft else c.rjust(w)
            for k, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(head), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def render_ranges(ranges, digits: int, per_query: bool) -> str:
    head = ["run", "measure", "queries", "tied", "rel_tied", "changed"]
    head += ["worst", "trec", "expected", "best", "range"]
    rows = []
    for tr in ranges:
        for s in tr.summary():
            rows.append(
                [tr.run, s["measure"], *(str(s[k]) for k in ("queries", "tied", "rel_tied"))]
                + [str(s["changed"])]
                + [f"{s[k]:.{digits}f}" for k in ("worst", "trec", "expected", "best", "range")]
            )
    out = _table(head, rows, 2)
    if per_query:
        qhead = ["run", "query", "measure", "worst", "trec", "expected", "best"]
        qrows = []
        for tr in ranges:
            for i, q in enumerate(tr.query_ids):
                for j, label in enumerate(tr.labels):
                    vals = [getattr(tr, k)[i, j] for k in ("worst", "trec", "expected", "best")]
                    qrows.append([tr.run, q, label, *(f"{v:.{digits}f}" for v in vals)])
        out += ["", *_table(qhead, qrows, 3)]
    return "\n".join(out) + "\n"


def render_curves(curves, digits: int) -> str:
    out: list[str] = []
    for c in curves:
        out.append(f"{c.run}: precision at recall, averaged over {c.queries} queries (over NR)")
        methods = list(c.by_recall)
        rows = [
            [f"{x:g}", *(f"{c.by_recall[m][i]:.{digits}f}" for m in methods)]
            for i, x in enumerate(c.recall)
        ]
        rows.append(["Average", *(f"{c.average[m]:.{digits}f}" for m in methods)])
        out += _table(["recall", *methods], rows, 1)
        if c.nd:
            out.append("")
            out.append(f"{c.run}: expected recall and precision at ND (over ND)")
            rows = [
                [str(k), f"{c.er[i]:.{digits}f}", f"{c.ep[i]:.{digits}f}"]
                for i, k in enumerate(c.nd)
            ]
            rows.append(
                ["Average", f"{c.average['ER']:.{digits}f}", f"{c.average['EP']:.{digits}f}"]
            )
            out += _table(["ND", "ER", "EP"], rows, 1)
        out.append("")
    return "\n".join(out[:-1]) + "\n"


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
    p.common("fmt", choices=("table", "json"), help="Output format.")
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
    from ..ties.analysis import tie_ranges, weak_curves

    kw = values(a, "depth", "judged_only", "complete", *SIDE_INPUTS, "names")
    if a.curves:
        rel = {} if a.rel is None else {"rel": a.rel}
        res = weak_curves(a.qrels, a.runs, list(a.recall), list(a.nd), **rel, **kw)
        if a.fmt == "json":
            text = json.dumps({"runs": [c.to_dict() for c in res]}, indent=2) + "\n"
        else:
            text = render_curves(res, a.digits)
    else:
        ranges = tie_ranges(a.qrels, a.runs, a.measures or None, rel=a.rel, **kw)
        if a.fmt == "json":
            doc = {"runs": [r.to_dict(per_query=a.per_query) for r in ranges]}
            text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
        else:
            text = render_ranges(ranges, a.digits, a.per_query)
    write_output(text, a.output)
