"""``cranfield inferred``: xinfAP, infAP and infNDCG from stratified samples of judgments."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.limits import MAX_CUTOFF
from cranfield.cli._args import Parser
from cranfield.cli._output import write_output
from cranfield.cli._types import Range, file_path


def parser() -> Parser:
    p = Parser("cranfield inferred", run.__doc__)
    p.add_argument("sampled", metavar="SAMPLED_QRELS", type=file_path)
    p.add_argument("runs", metavar="RUNS", type=file_path, nargs="+")
    p.common("per_query", help="Also print one value per query.")
    p.option(
        "--depth",
        type=Range(int, 1, MAX_CUTOFF),
        default=1000,
        show_default=True,
        metavar="K",
        help="Documents read from each ranking (sample_eval.pl's maxResultSize).",
    )
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Inferred measures of RUNS from SAMPLED_QRELS ('qid iter docno stratum grade' lines;
    grade -1: pooled, not sampled), as NIST's sample_eval.pl computes them: xinfAP, infAP
    (one stratum), infNDCG, iP@10, iP@50, iP@1000, inum_rel_ret, inum_rel.  Lines
    'measure<TAB>query<TAB>value' ('all' for the mean; the counts summed), one block per run.

    \b
    cranfield inferred sampled.qrels run.txt
    cranfield inferred sampled.qrels runs/*.txt -q -o inferred.txt
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.judgments.inferred import inferred, read_sampled_qrels

    sampled = read_sampled_qrels(a.sampled)
    blocks = []
    for path in a.runs:
        res = inferred(sampled, path, depth=a.depth)
        text = res.to_text(per_query=a.per_query)
        blocks.append(text if len(a.runs) == 1 else f"# {res.run}\n{text}")
    write_output("".join(blocks), a.output)
