"""``cranfield evaluate``: evaluate runs against qrels."""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.base.limits import MAX_RESAMPLES
from cranfield.base.output_formats import choices
from cranfield.cli._args import Parser
from cranfield.cli._options import JUDGING, JUDGMENT_FILES, SIDE_INPUTS, cluster, values
from cranfield.cli._output import write_output
from cranfield.cli._types import Range
from cranfield.judging.ordering import TIE_POLICIES


def parser() -> Parser:
    p = Parser("cranfield evaluate", run.__doc__)
    p.inputs()
    p.common(
        "measures",
        help="Measure string, repeatable: AP, P@10, 'P(rel=2)@5', nDCG@10, ...; several in "
        "one (-m 'AP nDCG@10', -m AP,nDCG@10); trec_eval's names too (map, P_10, ndcg_cut_10, "
        "recip_rank). Default: AP, nDCG@10, P@10, RR, R@1000. See 'cranfield measures'.",
    )
    p.common("per_query", help="Also print one value per query.")
    p.common("fmt", choices=choices("results"), help="Output format.")
    p.common(
        "ties",
        choices=TIE_POLICIES,
        help="Order of tied scores: trec_eval's (docno descending), the given rank column, "
        "random (reproducible with --seed), or weak (expectation over all tie-breakings; "
        "see 'cranfield docs ties').",
    )
    p.common("seed", help="Seed of --ties random and of --ci bootstrap / bca (default 0).")
    p.common("bounds")
    p.common("depth", "judged_only", "complete", "rel", "collection_size", "known", "target")
    p.common("prefs", "prefs_format", "judgment_groups", "subtopics")
    p.common("names")
    p.option(
        "--aggregate",
        action="append",
        default=[],
        metavar="HOW|MEASURE=HOW",
        help="Statistic over queries: mean, gmean, median or micro (sum of numerators over sum "
        "of denominators), for every measure or one (repeatable: --aggregate 'P@10=micro'). "
        "Default: each measure's own.",
    )
    p.option(
        "--ci",
        choices=("t", "bootstrap", "bca"),
        help="Also the interval of each run's mean over the queries (measures averaged by "
        "the mean): Student t, bootstrap percentile, or bias-corrected and accelerated "
        "bootstrap ('cranfield docs statistics'). Off by default; with --format trec it adds "
        "MEASURE_ci_low and MEASURE_ci_high lines.",
    )
    p.option(
        "--confidence",
        type=Range(float, 0, 1, open=True),
        default=0.95,
        show_default=True,
        help="Confidence of --ci.",
    )
    p.option(
        "--samples",
        type=Range(int, 1, MAX_RESAMPLES),
        default=10_000,
        show_default=True,
        help="Bootstrap resamples of --ci bootstrap / bca.",
    )
    p.common("jobs")
    p.common("dask")
    p.common("digits", help="Decimals in table, trec, markdown and latex output.")
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Evaluate RUNS against QRELS.

    \b
    cranfield evaluate qrels.txt run1.txt run2.txt -m AP -m P@10 -m nDCG@10
    cranfield evaluate qrels.txt run.txt -m AP --per-query --format trec
    cranfield evaluate qrels.txt run.txt -m AP -m nDCG@10 --bounds
    cranfield evaluate qrels.txt runs/*.txt -m AP --per-query --format json > results.json
    cranfield evaluate qrels.txt run.txt -m PRES@1000 -m Rnorm --collection-size 1400
    cranfield evaluate qrels.txt a/run.txt b/run.txt -m P@10 -l 2 --names bm25,dense
    cranfield evaluate div.qrels run.txt -m alpha_nDCG@20 -m ERR_IA@20 --subtopics div.qrels
    cranfield evaluate qrels.txt runs/*.txt -m AP --per-query --dask tcp://127.0.0.1:8786
    cranfield evaluate qrels.txt runs/*.txt -m AP -m nDCG@10 --ci bca --samples 20000
    """
    p = parser()
    a = p.parse(argv)
    from cranfield.evaluation import evaluate
    from cranfield.render.results_text import render
    from cranfield.results.tables import ResultsSet

    with cluster(p, a) as client:
        res = evaluate(
            a.qrels,
            a.runs,
            a.measures or None,
            aggregate=a.aggregate or None,
            executor=client,
            **values(a, *JUDGING, *SIDE_INPUTS, *JUDGMENT_FILES, "names", "rel", "jobs", "bounds"),
            **values(a, "ci", "confidence", "samples"),
        )
    assert isinstance(res, ResultsSet)  # (a list of runs gives a ResultsSet)
    runs = list(res)
    intervals = None
    if a.ci is not None:
        from cranfield.comparing.intervals import joined

        intervals = joined(runs)
    text = render(runs, a.fmt, per_query=a.per_query, digits=a.digits, intervals=intervals)
    write_output(text, a.output)
