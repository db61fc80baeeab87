"""``trec`` interpolation against trec_eval 10.0's iprec_at_recall (conformance outputs), and
``trec9`` against trec_eval 9.x as embedded in pytrec_eval."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from conftest import CONFORMANCE, need
from cranfield.curves import precision_recall

CASES = [
    # expected output, qrels, run, options (as in the conformance README)
    ("out.test", "qrels.test", "results.test", {}),
    ("out.test.aq", "qrels.test", "results.test", {}),
    ("out.test.aqc", "qrels.test", "results.trunc", {"complete": True}),
    ("out.test.aqcM", "qrels.test", "results.trunc", {"complete": True, "depth": 100}),
    ("out.test.aql", "qrels.rel_level", "results.test", {"rel": 2}),
    ("out.test.meas_params", "qrels.test", "results.test", {"levels": ".10,.20,.25,.75,.50"}),
    ("out.comment.test", "qrels.comment.test", "results.comment.test", {}),
    ("generated-v10.0/out.302.aq", "qrels-302.test", "results-302.test", {}),
    ("generated-v10.0/out.comment.aq", "qrels.comment.test", "results.comment.test", {}),
    ("generated-v10.0/out.comment.aql2", "qrels.comment.test", "results.comment.test", {"rel": 2}),
    ("generated-v10.0/out.test.aqJ", "qrels.rel_level", "results.test", {"judged_only": True}),
]


def expected_lines(path):
    out = {}
    for line in path.read_text().splitlines():
        name, qid, value = line.split("\t")
        if name.startswith("iprec_at_recall_"):
            out[(name.strip(), qid)] = value
    return out


@pytest.mark.parametrize(("out", "qrels", "run", "opts"), CASES, ids=[c[0] for c in CASES])
def test_trec_interpolation_matches_trec_eval_iprec_at_recall(out, qrels, run, opts):
    base = need(CONFORMANCE)
    expected = expected_lines(base / out)
    assert expected, f"no iprec_at_recall lines in {out}"
    levels = opts.pop("levels", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df, pq = precision_recall(
            str(base / qrels),
            str(base / run),
            interpolation="trec",
            levels=levels,
            per_query=True,
            **opts,
        )
    got = {(f"iprec_at_recall_{r.level:.2f}", "all"): f"{r.value:6.4f}" for r in df.itertuples()}
    got.update(
        {(f"iprec_at_recall_{r.level:.2f}", r.query_id): f"{r.value:6.4f}" for r in pq.itertuples()}
    )
    # trec_eval prints per-query lines only with -q; compare every line it printed
    assert {k: got[k] for k in expected} == expected
    assert len(expected) >= len(df)


def test_trec9_matches_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    base = need(CONFORMANCE)
    from cranfield.io import read_qrels, read_run

    qrels = read_qrels(str(base / "qrels.test")).to_dict()
    run = read_run(str(base / "results.test")).to_dict()
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"})
    theirs = ev.evaluate(run)
    _, pq = precision_recall(qrels, run, interpolation="trec9", per_query=True)
    for row in pq.itertuples():
        assert row.value == theirs[row.query_id][f"iprec_at_recall_{row.level:.2f}"]


@pytest.mark.parametrize(
    "opts",
    [{}, {"complete": True}, {"complete": True, "depth": 0}, {"judged_only": True}, {"rel": 2}],
)
def test_trec_interpolation_equals_the_iprec_measure(opts):
    """Two implementations of trec_eval's rule: the curve and the registered IPrec measure."""
    base = need(CONFORMANCE)
    from cranfield import evaluate

    levels = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0]
    qrels, run = str(base / "qrels.rel_level"), str(base / "results.trunc")
    rel = opts.pop("rel", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, pq = precision_recall(
            qrels, run, interpolation="trec", levels=levels, rel=rel, per_query=True, **opts
        )
        labels = {r: f"IPrec(rel={rel})@{r}" for r in levels}
        res = evaluate(qrels, run, list(labels.values()), **opts)
    table = res.per_query()
    for row in pq.itertuples():
        want = table.loc[row.query_id, labels[row.level]]
        assert row.value == want or (np.isnan(row.value) and np.isnan(want))
