"""The test oracle (``oracle_trec.py``) reproduces trec_eval 10.0's real output files.

This is what makes the oracle trustworthy: every per-topic and summary line of each expected
output in ``conformance/trec_eval`` (upstream's ``test/out.*`` and our ``generated-v10.0``
files, README there) must come out identical at trec_eval's printed precision (4 decimals).
Input files are read with a minimal whitespace split, independent of ``cranfield.io``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import oracle_trec as oracle
from conftest import CONFORMANCE, need


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        qid, _, docno, grade = line.split()
        qrels.setdefault(qid, {})[docno] = int(grade)
    return qrels


def read_run(path: Path) -> tuple[dict[str, list[tuple[str, float]]], str]:
    run: dict[str, list[tuple[str, float]]] = {}
    runid = ""
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        qid, _, docno, _, score, runid = fields[:6]
        run.setdefault(qid, []).append((docno, float(score)))
    return run, runid


# (expected output, qrels, run, measures, params, options): the flags of the README table
CASES = [
    ("out.test", "qrels.test", "results.test", oracle.OFFICIAL, {}, {}),
    ("out.test.a", "qrels.test", "results.test", oracle.ALL_TREC, {}, {}),
    ("out.test.aq", "qrels.test", "results.test", oracle.ALL_TREC, {}, {}),
    ("out.test.aqc", "qrels.test", "results.trunc", oracle.ALL_TREC, {}, {"complete": True}),
    (
        "out.test.aqcM",
        "qrels.test",
        "results.trunc",
        oracle.ALL_TREC,
        {},
        {"complete": True, "depth": 100},
    ),
    (
        "out.test.aql",
        "qrels.rel_level",
        "results.test",
        oracle.ALL_TREC,
        {"relstring": "20"},
        {"rel_level": 2},
    ),
    (
        "out.test.meas_params",
        "qrels.test",
        "results.test",
        [
            "iprec_at_recall",
            "P",
            "recall",
            "Rprec_mult",
            "utility",
            "11pt_avg",
            "ndcg",
            "ndcg_cut",
            "success",
        ],
        {
            "iprec_at_recall": ".10,.20,.25,.75,.50",
            "P": "5,7,3",
            "recall": "20,2000",
            "Rprec_mult": "5.0,0.2,0.35",
            "utility": "2,-1,0,0",
            "11pt_avg": ".25,.5,.75",
            "ndcg": "1=3,2=9,4=4.5",
            "ndcg_cut": "10,20,23.4",
            "success": "2,5,20",
        },
        {},
    ),
    ("out.comment.test", "qrels.comment.test", "results.comment.test", oracle.OFFICIAL, {}, {}),
    (
        "generated-v10.0/out.comment.aq",
        "qrels.comment.test",
        "results.comment.test",
        oracle.ALL_TREC,
        {},
        {},
    ),
    (
        "generated-v10.0/out.comment.aql2",
        "qrels.comment.test",
        "results.comment.test",
        oracle.ALL_TREC,
        {},
        {"rel_level": 2},
    ),
    (
        "generated-v10.0/out.test.aqJ",
        "qrels.rel_level",
        "results.test",
        oracle.ALL_TREC,
        {},
        {"judged_only": True},
    ),
    (
        "generated-v10.0/out.test.extra",
        "qrels.rel_level",
        "results.test",
        ["dcg", "ideal_dcg", "yaap", "ndcg_rel", "G", "Rndcg", "rbp_resid", "set_F"],
        {
            "ndcg_rel": "0=1,1=0.5,2=3",
            "G": "1=2",
            "Rndcg": "2=1,1=3",
            "rbp_resid": "p=0.5",
            "set_F": "0.25",
        },
        {},
    ),
    ("generated-v10.0/out.302.aq", "qrels-302.test", "results-302.test", oracle.ALL_TREC, {}, {}),
]


@pytest.mark.parametrize(
    ("expected", "qrels_file", "run_file", "measures", "params", "options"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_oracle_reproduces_trec_eval_output(
    expected, qrels_file, run_file, measures, params, options
):
    base = need(CONFORMANCE)
    qrels = read_qrels(base / qrels_file)
    run, runid = read_run(base / run_file)
    per_topic, summary = oracle.trec_eval(
        qrels, run, measures, params=params, runid=runid, **options
    )
    with_q = expected.split("/")[-1] not in ("out.test", "out.test.a", "out.comment.test")
    lines = [oracle.format_line(*line) for line in (per_topic if with_q else []) + summary]
    want = (base / expected).read_text().splitlines()
    assert len(lines) == len(want)
    mismatches = [(got, exp) for got, exp in zip(lines, want, strict=True) if got != exp]
    assert not mismatches, f"{len(mismatches)} lines differ, first: {mismatches[:5]}"


def test_oracle_reproduces_the_reference_examples():
    """The worked examples and quirks stated in reference/trec_eval.md (sec. 4, 6.3, 7)."""
    # Rndcg: qrels {a:1, b:0}; run b,a gives 0 (no end point when n == m + 1), b,a,c 0.3155
    qrels = {"q": {"a": 1, "b": 0}}
    ba = {"q": [("b", 2.0), ("a", 1.0)]}
    bac = {"q": [("b", 3.0), ("a", 2.0), ("c", 1.0)]}
    assert oracle.evaluate(qrels, ba, lambda t: t.Rndcg())[1] == 0.0
    assert f"{oracle.evaluate(qrels, bac, lambda t: t.Rndcg())[1]:.4f}" == "0.3155"
    # iprec_at_recall_0.00 is NaN when nothing is retrieved (-M 0), quirk 10
    value = oracle.evaluate(qrels, ba, lambda t: t.iprec_at_recall(0.0), depth=0)[1]
    assert math.isnan(value)
    # rbp_resid is 0 (not p^n) when no retrieved doc is unjudged; residual p^n otherwise
    judged = {"q": [("a", 1.0)]}
    assert oracle.evaluate(qrels, judged, lambda t: t.rbp_resid(0.5))[1] == 0.0
    assert oracle.evaluate(qrels, judged, lambda t: t.rbp_residual(0.5))[1] == 0.5
    # rbp: a grade-1 doc is worth 1/3 in a topic graded 0..3
    graded = {"q": {"a": 1, "b": 3}}
    assert oracle.evaluate(graded, judged, lambda t: t.rbp(0.5))[1] == 0.5 * (1 / 3)
    # -c: a judged topic missing from the run scores yaap ln(1/(1+R)), num_ret 0, utility 0
    two = {"q": {"a": 1}, "r": {"x": 1, "y": 2}}
    per_q, _ = oracle.evaluate(two, judged, lambda t: t.yaap(), complete=True)
    assert per_q["r"] == math.log(1 / 3)
    missing = oracle.topics(two, judged, complete=True)["r"]
    assert (missing.num_ret(), missing.utility(), missing.relstring()) == (0, 0.0, "")
    # without -c the missing topic is skipped (documented intent, quirk Q2)
    assert list(oracle.evaluate(two, judged, lambda t: t.map())[0]) == ["q"]
