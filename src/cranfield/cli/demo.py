"""``cranfield demo``: evaluate the bundled example runs on the bundled qrels (offline).

Without an option: three real retrieval models on the Cranfield collection (shipped in the
package, :mod:`cranfield.examples`); ``--ties``: the tie analysis of its coordination-level
run; ``--synthetic``: the six runs of the synthetic collection.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from cranfield.cli._args import Parser
from cranfield.cli._output import echo

MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@1000")
CRANFIELD_MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@100")
OPTIONAL = ("Bpref",)
"""Shown when registered (they come with the trec_eval-compatible measures)."""
TIE_MEASURES = ("AP", "P@10", "nDCG@10")

MEANINGS = """\
Each column is a mean over the queries, with the documents of every tie group (documents of
equal score) put in a different order:
  worst     relevant documents last: the lowest value any tie-breaking gives;
  trec      trec_eval's order (document id descending): the value trec_eval reports;
  expected  the exact mean over all tie-breakings, uniformly at random (what
            `cranfield evaluate --ties weak` reports);
  best      relevant documents first: the highest value any tie-breaking gives;
  range     best - worst.
tied: queries with a tie group of several documents; rel_tied: queries where such a group
holds a relevant document; changed: queries whose value differs between best and worst."""


def demo_measures(base: Sequence[str] = MEASURES) -> list[str]:
    from cranfield.measures import lookup

    return [*base, *(m for m in OPTIONAL if lookup(m) is not None)]


def _try_lines(d: str, lines: Sequence[str]) -> list[str]:
    return ["Next, try (in a POSIX shell):", f"  D={shlex.quote(d)}", *(f"  {x}" for x in lines)]


def cranfield_text() -> str:
    """The demo on the Cranfield collection: BM25, TF-IDF and coordination level."""
    import numpy as np

    from cranfield import examples
    from cranfield.evaluation import evaluate
    from cranfield.io import read_qrels, read_run
    from cranfield.render.results_text import render
    from cranfield.results.tables import ResultsSet
    from cranfield.ties.analysis import tie_ranges

    paths = examples.cranfield_runs()
    qrels = read_qrels(examples.cranfield_qrels())
    runs = [read_run(p, name=name) for name, p in paths.items()]
    # no Bpref: the qrels judge no document non-relevant, so bpref would equal recall
    res = evaluate(qrels, runs, list(CRANFIELD_MEASURES))
    assert isinstance(res, ResultsSet)  # (a list of runs gives a ResultsSet)
    coord = runs[list(paths).index("coordination")]
    ap = tie_ranges(qrels, coord, ("AP",))[0].summary()[0]
    groups = len(np.unique(np.column_stack([coord.qcodes, coord.scores]), axis=0))
    nq, nrel = qrels.num_queries, int((qrels.grades >= 1).sum())
    lines = [
        "cranfield demo: three retrieval models on the Cranfield collection (Cleverdon's",
        f"Cranfield II: {nq} queries over 1,400 aerodynamics abstracts, {nrel:,} relevant",
        "documents graded 1-4). BM25, TF-IDF cosine and coordination level (score = number of",
        "query terms in the document) list 100 documents per query; coordination level keeps",
        "the whole tie group at the cut.",
        "",
        render(list(res), "table").rstrip("\n"),
        "",
        f"Coordination level ties massively: a query's {len(coord) / coord.num_queries:.0f} "
        f"documents share {groups / coord.num_queries:.1f} distinct",
        "scores on average, so its measures depend on how ties are broken. Its AP is "
        f"{ap['trec']:.4f} in",
        f"trec_eval's order, but anywhere from {ap['worst']:.4f} to {ap['best']:.4f} "
        f"({ap['expected']:.4f} expected) over",
        "all tie-breakings: see `cranfield demo --ties`.",
        "",
        *_try_lines(
            str(examples.path("cranfield")),
            [
                'cranfield evaluate "$D/qrels.txt" "$D"/runs/*.txt.gz -m AP -m "P(rel=3)@10"',
                'cranfield compare "$D/qrels.txt" "$D/runs/bm25.txt.gz" "$D/runs/tfidf.txt.gz"'
                " -m AP",
                'cranfield trec_eval -q -m all_trec "$D/qrels.txt" "$D/runs/bm25.txt.gz"',
                "cranfield demo --ties",
                "cranfield demo --synthetic",
            ],
        ),
        "",
        f"The data and its provenance: {examples.path('cranfield')} (README.md).",
    ]
    return "\n".join(lines) + "\n"


def ties_text(synthetic: bool = False) -> str:
    """The tie analysis of a coordination-level run, against a run that rarely ties."""
    from cranfield import examples
    from cranfield.io import read_run
    from cranfield.render.ties_text import render_ranges
    from cranfield.ties.analysis import tie_ranges

    lines: list[str] = []
    if synthetic:
        qrels, runs, names = examples.qrels(), examples.runs(), ("boolean", "bm25")
        folder = examples.path("collection")
        lines += [
            "cranfield demo --ties, synthetic collection: how far tie-breaking moves its",
            "coordination-level run ('boolean': integer scores 0-5, listed in document id",
            "order), next to its 'bm25' run, whose scores rarely tie.",
        ]
        tie_run = "boolean"
    else:
        qrels, runs = examples.cranfield_qrels(), examples.cranfield_runs()
        names = ("coordination", "bm25")
        folder = examples.path("cranfield")
        lines += [
            "cranfield demo --ties: how far tie-breaking moves the coordination-level run on the",
            "Cranfield collection (score = number of distinct query terms in the document, so",
            "dozens of documents share each score), next to BM25, whose scores rarely tie.",
        ]
        tie_run = "coordination"
    chosen = [read_run(runs[n], name=n) for n in names]
    ranges = tie_ranges(qrels, chosen, TIE_MEASURES)
    lines += [
        "",
        render_ranges(ranges, 4, False).rstrip("\n"),
        "",
        MEANINGS,
        "",
        *_try_lines(
            str(folder),
            [
                f'cranfield ties "$D/qrels.txt" "$D/runs/{tie_run}.txt.gz" --per-query',
                f'cranfield evaluate "$D/qrels.txt" "$D/runs/{tie_run}.txt.gz" --ties weak'
                " -m AP -m P@10",
                f'cranfield ties "$D/qrels.txt" "$D/runs/{tie_run}.txt.gz" --curves',
            ],
        ),
        "",
        "More: 'cranfield docs ties' (tie-aware evaluation of weak orderings, Raghavan et al. "
        "1989).",
    ]
    return "\n".join(lines) + "\n"


def synthetic_text() -> str:
    """The demo on the synthetic collection (six runs of known quality order)."""
    from cranfield import examples
    from cranfield.evaluation import evaluate
    from cranfield.render.results_text import render
    from cranfield.results.tables import ResultsSet

    runs = examples.runs()
    qrels = examples.qrels()
    res = evaluate(qrels, list(runs.values()), demo_measures(), names=list(runs))
    assert isinstance(res, ResultsSet)  # (a list of runs gives a ResultsSet)
    d = shlex.quote(str(examples.path("collection")))
    lines = [
        "cranfield demo, synthetic collection: six runs on a synthetic TREC-style test",
        "collection (50 topics, graded judgments pooled to depth 100, 1,000 documents per run",
        "and topic), best first by construction.",
        "",
        render(list(res), "table").rstrip("\n"),
        "",
        "Next, try (in a POSIX shell):",
        f"  D={d}",
        '  cranfield evaluate "$D/qrels.txt" "$D/runs/bm25.txt.gz" -m AP -m "P(rel=2)@10" -q',
        '  cranfield evaluate "$D/qrels.txt" "$D"/runs/*.txt.gz -m nDCG@10 --format json',
        '  cranfield trec_eval -q -m all_trec "$D/qrels.txt" "$D/runs/bm25.txt.gz"',
        "  cranfield measures",
        "  python -c 'import cranfield; from cranfield import examples; "
        'print(cranfield.evaluate(examples.qrels(), examples.runs()["good"], '
        '["AP", "nDCG@10"]).aggregate())\'',
        "",
        f"The data: {examples.path('')} (cranfield/, collection/ and papers/, each with a README).",
    ]
    return "\n".join(lines) + "\n"


def demo_text(ties: bool = False, synthetic: bool = False) -> str:
    """The demo's whole output (deterministic: the same bytes on every run)."""

    if ties:
        return ties_text(synthetic)
    if synthetic:
        return synthetic_text()
    return cranfield_text()


def run(argv: Sequence[str]) -> None:
    """Evaluate the bundled example runs on the bundled qrels and print a table.

    By default: BM25, TF-IDF and coordination-level runs on the real Cranfield collection
    (225 queries, 1,400 documents). Works offline: the data is inside the package (see
    cranfield.examples).

    \b
    cranfield demo
    cranfield demo --ties
    cranfield demo --synthetic
    """
    p = Parser("cranfield demo", run.__doc__, usage="%(prog)s [options]")
    p.option(
        "--ties",
        action="store_true",
        help="Show the tie analysis of the coordination-level run (cranfield ties): its "
        "measures under the worst, trec_eval's, the expected and the best tie-breaking.",
    )
    p.option(
        "--synthetic",
        action="store_true",
        help="Use the synthetic collection (six runs of known quality order) instead.",
    )
    a = p.parse(argv)
    echo(demo_text(ties=a.ties, synthetic=a.synthetic))
