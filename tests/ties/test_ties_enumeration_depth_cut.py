"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

A depth cut (``-M d``) inside a tie group: each measure is its mean over all tie-breakings of
the ranking cut at d, not of the cut that document ids would choose; measures without a closed
form for a split tie are refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
from _tie_enumeration import (
    _R,
    _close,
    _inputs,
    _judged,
    _linear_orders,
    _orderings_count,
    _rel,
    _values,
    ap,
    bin_g,
    bpref,
    dcg,
    idcg,
    judged_at,
    mean,
    p_at,
    pres,
    r_at,
    rbp,
    rbp_resid,
    rel_p,
    rnorm,
    rr,
    success,
    unjudged_at,
    weak_orderings,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cranfield import evaluate


def _set_counts(order):
    relret = sum(_rel(g) for g in order)
    nonrel = sum(_judged(g) and not _rel(g) for g in order)
    return relret, nonrel


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 8))
def test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking(queries, k, d):
    """``--ties weak -M d``: each measure is its mean over all tie-breakings of the measure of
    the ranking cut at d (trec_eval's -M applied to each linear order), not of the cut that
    document ids would choose."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    N = 30  # collection size for Rnorm (more than any ranking and its extra relevant)
    labels = [
        f"P@{k}",
        f"R@{k}",
        "AP",
        f"AP@{k}",
        "RR",
        f"RR@{k}",
        f"Success@{k}",
        "Rprec",
        f"Judged@{k}",
        "nDCG",
        f"nDCG@{k}",
        "GMAP",
        "NumRet",
        "NumRelRet",
        "NumNonRelJudgedRet",
        "SetP",
        "SetR",
        "SetF",
        "SetRelP",
        "SetAP",
        f"RelP@{k}",
        f"R_cap@{k}",
        f"Accuracy@{k}",
        f"Unjudged@{k}",
        f"DCG@{k}",
        "Rprec(mult=1.5)",
        "Bpref",
        "GMBpref",
        "BinG",
        "RBP(p=0.8)",
        "RBPResid(p=0.8)",
        "Rnorm",
        f"EP(ND={k})",
        f"ER(ND={k})",
        f"PRES@{k + 2}",
    ]
    got = _values(qrels, run, labels, "weak", depth=d, collection_size=N)
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        cuts = [o[:d] for o in _linear_orders(levels)]
        n = len(cuts[0])
        ideal, ideal_k = idcg(qgrades), idcg(qgrades, k)
        counts = [_set_counts(o) for o in cuts]
        expect = {
            f"P@{k}": mean(p_at(o, k) for o in cuts),
            f"R@{k}": mean(r_at(o, k, R) for o in cuts),
            "AP": mean(ap(o, R) for o in cuts),
            f"AP@{k}": mean(ap(o, R, k) for o in cuts),
            "RR": mean(rr(o) for o in cuts),
            f"RR@{k}": mean(rr(o, k) for o in cuts),
            f"Success@{k}": mean(success(o, k) for o in cuts),
            "Rprec": mean(r_at(o, min(n, R), R) for o in cuts) if R else Fraction(0),
            f"Judged@{k}": mean(judged_at(o, k) for o in cuts),
            "nDCG": sum(dcg(o) for o in cuts) / len(cuts) / ideal if ideal else 0.0,
            f"nDCG@{k}": sum(dcg(o, k) for o in cuts) / len(cuts) / ideal_k if ideal_k else 0.0,
            "GMAP": mean(ap(o, R) for o in cuts),
            "NumRet": Fraction(n),
            "NumRelRet": mean(Fraction(c[0]) for c in counts),
            "NumNonRelJudgedRet": mean(Fraction(c[1]) for c in counts),
            "SetP": mean(Fraction(c[0], n) for c in counts),
            "SetR": mean(Fraction(c[0], R) for c in counts) if R else Fraction(0),
            "SetF": mean(Fraction(2 * c[0], R + n) for c in counts),
            "SetRelP": mean(Fraction(c[0], min(n, R)) for c in counts) if R else Fraction(0),
            "SetAP": mean(Fraction(c[0] ** 2, n * R) for c in counts) if R else Fraction(0),
            f"RelP@{k}": mean(rel_p(o, k, R) for o in cuts),
            f"R_cap@{k}": mean(rel_p(o, k, R) for o in cuts),  # MTEB's
            f"Accuracy@{k}": mean(success(o, k) for o in cuts),
            f"Unjudged@{k}": mean(unjudged_at(o, k) for o in cuts),
            f"DCG@{k}": sum(dcg(o, k) for o in cuts) / len(cuts),
            "Rprec(mult=1.5)": mean(p_at(o, min(n, c)) * min(n, c) / c for o in cuts)
            if (c := int(1.5 * R + 0.9)) and R
            else Fraction(0),
            "Bpref": mean(bpref(o, qgrades, R) for o in cuts),
            "GMBpref": mean(bpref(o, qgrades, R) for o in cuts),
            "BinG": sum(bin_g(o, R) for o in cuts) / len(cuts),
            "RBP(p=0.8)": sum(rbp(o, qgrades, 0.8) for o in cuts) / len(cuts),
            "RBPResid(p=0.8)": sum(rbp_resid(o, 0.8) for o in cuts) / len(cuts),
            "Rnorm": mean(rnorm(o, R, N) for o in cuts),
            f"EP(ND={k})": mean(Fraction(sum(_rel(g) for g in o[:k]), k) for o in cuts),
            f"ER(ND={k})": mean(r_at(o, k, R) for o in cuts),
            f"PRES@{k + 2}": mean(pres(o, R, k + 2) for o in cuts),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], float(value), levels)


def test_the_issue_example_a_cut_inside_a_tie_does_not_depend_on_document_ids():
    """qrels 'q1 0 d1 1'; run d1 and d2 tied: weak P@1 with -M 1 is 1/2, whatever the ids."""
    for relevant, other in (("d1", "d2"), ("d3", "d2")):
        res = evaluate(
            {"q1": {relevant: 1}},
            {"q1": {relevant: 1.0, other: 1.0}},
            ["P@1", "AP"],
            ties="weak",
            depth=1,
        )
        assert res.aggregate() == {"P@1": 0.5, "AP": 0.5}


@pytest.mark.parametrize(
    ("label", "why"),
    [
        ("ESL(NR=1)", "need"),
        ("EP(NR=1)", "need"),
        ("PRR(NR=1)", "need"),
        ("PRECALL(NR=1)", "need"),
        ("Pnorm", "logarithm"),
        ("WRnorm", "weights"),
        ("RelRank", "wanted"),
        ("SearchLength", "wanted"),
    ],
)
def test_measures_without_a_closed_form_for_a_split_tie_are_refused(label, why):
    from cranfield import MeasureError

    qrels, run = {"q1": {"d1": 1, "d2": 0}}, {"q1": {"d1": 1.0, "d2": 1.0, "d3": 0.5}}
    with pytest.raises(MeasureError, match=f"(?s)inside a tie group.*{why}"):
        evaluate(qrels, run, [label], ties="weak", depth=1, collection_size=10)
    # the same depth without a split tie group is computed
    evaluate(qrels, run, [label], ties="weak", depth=2, collection_size=10)


def test_weak_depth_and_judged_only_with_a_split_tie_is_refused():
    from cranfield import ParameterError

    qrels, run = {"q1": {"d1": 1, "d2": 0}}, {"q1": {"d1": 1.0, "d2": 1.0, "d3": 0.5}}
    with pytest.raises(ParameterError, match="judged_only"):
        evaluate(qrels, run, ["P@1"], ties="weak", depth=1, judged_only=True)
    assert evaluate(qrels, run, ["P@1"], ties="weak", depth=2, judged_only=True).aggregate()


def test_tie_ranges_with_a_depth_cut_range_over_which_documents_the_cut_keeps():
    """Best, worst and expected P@1 and AP under -M 1 for two tied documents, one relevant:
    the best keeps the relevant one (1), the worst drops it (0), the expectation is 1/2; trec
    keeps d2 (document ids descending) whatever the order."""
    from cranfield.ties.analysis import tie_ranges

    (tr,) = tie_ranges({"q1": {"d1": 1}}, {"q1": {"d1": 1.0, "d2": 1.0}}, ["P@1", "AP"], depth=1)
    assert tr.best.tolist() == [[1.0, 1.0]]
    assert tr.worst.tolist() == [[0.0, 0.0]]
    assert tr.expected.tolist() == [[0.5, 0.5]]
    assert tr.trec.tolist() == [[0.0, 0.0]]
