"""``cranfield holes``: the unjudged (query, document) pairs of runs and of their pool."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.limits import MAX_CUTOFF
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range, file_path
from cranfield.judging.ordering import TIE_POLICIES

FORMATS = choices("holes")


def parser() -> Parser:
    from cranfield.judgments.pooling import RBP_MERGES, STRATEGIES

    p = Parser("cranfield holes", run.__doc__)
    p.add_argument("qrels", metavar="QRELS", type=file_path)
    p.add_argument("runs", metavar="RUNS", type=file_path, nargs="+")
    p.option(
        "--depth",
        type=Range(int, 1, MAX_CUTOFF),
        metavar="K",
        help="Each run's first K documents: the pool of --strategy depth, the documents "
        "whose holes each run counts, and the candidates of the other strategies (default: "
        "all it retrieved).",
    )
    p.option(
        "--strategy",
        choices=STRATEGIES,
        default="depth",
        show_default=True,
        help="Pooling: depth-K union; take (Take@N, depth pooling one rank at a time up to "
        "--size documents); rrf or rbp (the --size documents of highest reciprocal-rank-fusion "
        "score or rank-biased-precision weight over the runs).",
    )
    p.option("--size", type=Range(int, 1, MAX_CUTOFF), metavar="N", help="Pool size per query.")
    p.option("--p", type=float, default=0.8, show_default=True, help="RBP persistence.")
    p.option("--rrf-k", type=float, default=60.0, show_default=True, help="RRF's k.")
    p.option("--merge", choices=RBP_MERGES, default="sum", show_default=True, help="RBP over runs.")
    p.option(
        "--fill",
        action="append",
        default=[],
        type=file_path,
        metavar="QRELS",
        help="Another judgment set (repeatable, in order of preference): the runs' holes it "
        "judges are filled from it first; the table and JSON count the judgments by source.",
    )
    p.common("ties", choices=TIE_POLICIES, help="Order of tied scores.")
    p.common("seed")
    p.common("names")
    p.option(
        "-f",
        "--format",
        dest="fmt",
        choices=FORMATS,
        default="trec",
        show_default=True,
        help="trec: the pool's unjudged pairs as 'qid 0 docno' lines (a judgment request); "
        "csv: query_id,doc_id,priority; json: the request, each run's holes and the counts; "
        "table: holes per query for each run and the pool.",
    )
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """The unjudged documents of RUNS against QRELS: each run's, and its pool's as a
    judgment request.

    \b
    cranfield holes qrels.txt runs/*.txt --depth 10 > request.txt
    cranfield holes qrels.txt runs/*.txt --depth 10 --format table
    cranfield holes qrels.txt runs/*.txt --strategy rrf --size 50 --format csv -o request.csv
    cranfield holes qrels.txt runs/*.txt --strategy take --size 100 --depth 1000
    cranfield holes qrels.txt runs/*.txt --depth 10 --fill llm.qrels -f table
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.judgments.holes import holes

    qrels, sources = a.qrels, None
    if a.fill:
        from cranfield.judgments.filling import fill_holes

        filled = fill_holes(a.qrels, a.fill, a.runs, depth=a.depth)
        qrels, sources = filled.qrels, filled.counts()
    h = holes(
        qrels,
        a.runs,
        depth=a.depth,
        strategy=a.strategy,
        size=a.size,
        p=a.p,
        rrf_k=a.rrf_k,
        merge=a.merge,
        ties=a.ties,
        seed=a.seed,
        names=a.names,
    )
    if a.fmt == "trec":
        text = h.to_trec()
    elif a.fmt == "csv":
        text = h.to_csv()
    elif a.fmt == "json":
        import json

        data = h.to_dict()
        if sources is not None:
            data["judgments_by_source"] = sources
        text = json.dumps(data, indent=2) + "\n"
    else:
        text = h.table()
        if sources is not None:
            counts = ", ".join(f"{k} {v}" for k, v in sources.items())
            text += f"judgments by source: {counts}\n"
    write_output(text, a.output)
