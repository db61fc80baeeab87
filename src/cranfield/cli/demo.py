"""``cranfield demo``: evaluate the bundled example runs on the bundled qrels (offline)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from ._args import Parser
from ._output import echo

MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@1000")
OPTIONAL = ("Bpref",)
"""Shown when registered (they come with the trec_eval-compatible measures)."""


def demo_measures() -> list[str]:
    from ..measures import lookup

    return [*MEASURES, *(m for m in OPTIONAL if lookup(m) is not None)]


def demo_text() -> str:
    """The demo's whole output (deterministic: the same bytes on every run)."""
    from .. import examples
    from ..evaluation import evaluate
    from ..report.results_text import render

    runs = examples.runs()
    qrels = examples.qrels()
    res = evaluate(qrels, list(runs.values()), demo_measures(), names=list(runs))
    d = shlex.quote(str(examples.path("collection")))
    lines = [
        "cranfield demo: six runs on the bundled test collection (50 topics, graded judgments",
        "pooled to depth 100, 1,000 documents per run and topic), best first by construction.",
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
        f"The data: {examples.path('')} (collection/ and papers/, each with a README).",
    ]
    return "\n".join(lines) + "\n"


def run(argv: Sequence[str]) -> None:
    """Evaluate the bundled example runs on the bundled qrels and print a table.

    Works offline: the data ships inside the package (see cranfield.examples).
    """
    Parser("cranfield demo", run.__doc__, usage="%(prog)s [options]").parse(argv)
    echo(demo_text())
