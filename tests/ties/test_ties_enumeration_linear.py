"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

On a linear ordering (no ties) every tie-aware form equals its plain form bit for bit, every
registered tie-aware form is in that test, and micro-average denominators do not depend on the
tie-breaking."""

from __future__ import annotations

import warnings

import numpy as np
from _tie_enumeration import (
    N_COLLECTION,
    NOT_IN_QRELS,
    _inputs,
    _orderings_count,
    grade,
    weak_orderings,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cranfield import evaluate, judge, read_qrels, read_run
from cranfield.io.trec.subtopics import Subtopics

TIE_AWARE_LABELS = [
    "P@3",
    "R@5",
    "Rprec",
    "Success@2",
    "Judged@4",
    "AP",
    "AP@4",
    "GMAP",
    "RR",
    "RR@3",
    "nDCG",
    "nDCG@5",
    "nDCG(gains={0:0,1:1,2:3})@3",
    "NumQ",
    "NumRet",
    "NumRel",
    "NumRelRet",
    "SetP",
    "SetR",
    "SetF",
    "NumNonRelJudgedRet",
    "SetRelP",
    "SetAP",
    "IDCG@5",
    "DCG",
    "DCG@3",
    "Utility",
    "RelP@3",
    "R_cap@3",
    "Accuracy@2",
    "Hole@3",
    "Unjudged@4",
    "Rprec(mult=2.0)",
    "Bpref",
    "GMBpref",
    "BinG",
    "RBP",
    "RBP(p=0.5,gains={0:0,1:1,2:3})",
    "RBPResid",
    "nDCG(convention=jk,base=3.0)@5",
    "DCG(convention=jk)",
    "Rnorm",
    "Pnorm",
    "WRnorm",
    "WRnorm(gains={1:1,2:3})",
    "PRES@5",
    "PRESest@3",
    "RelRank",
    "RelRank(n=2)",
    "RelRank(n=last)",
    "SearchLength(n=2)",
    "F@3",
    "F(beta=2.0)@4",
    "E@3",
    "Fallout@3",
    "Generality",
    "SlidingRatio@3",
    "Coverage",
    "Coverage@3",
    "RelativeRecall",
    "RelativeRecall@4",
    "RelativeRecall(cap=false)@2",
    "RecallEffort",
    "CG",
    "CG@3",
    "nCG@4",
    "ESL(NR=2)",
    "ESL(recall=0.5)",
    "PRR(NR=2)",
    "PRR(recall=0.3)",
    "PRR(recall=0.3,interpolation=ceiling)",
    "PRR(ND=4)",
    "PRECALL(NR=1)",
    "PRECALL(recall=0.7)",
    "PRECALL(recall=0.7,interpolation=intuitive)",
    "EP(NR=2)",
    "EP(ND=3)",
    "ER(ND=5)",
    "nDCG(dcg=exp-log2)@3",
    "INSQ(max_rel=2)",
    "SDCG(max_rel=2,of=ResEU)@3",
    "TBG(H=3.0,max_rel=2,of=ETU)",
    "U(L=5.0,max_rel=2)",
    "P_IA@3",
    "StRecall@2",
    "AP_IA",
    "MSnDCG@3",
    "MSnDCG(gains={1:2,2:5},judged_only=true)",
]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(grade, min_size=1, max_size=12), min_size=1, max_size=4),
    st.randoms(use_true_random=False),
)
def test_on_a_linear_ordering_every_tie_aware_measure_equals_its_plain_form(queries, rnd):
    """No ties: ``--ties weak`` gives exactly (bit for bit) the ``trec`` values."""
    qrels, run = {}, {}
    for qi, grades in enumerate(queries):
        q = f"q{qi}"
        scores = rnd.sample(range(1000), len(grades))
        run[q] = {f"d{i}": float(s) for i, s in enumerate(scores)}
        qrels[q] = {f"d{i}": g for i, g in enumerate(grades) if g is not NOT_IN_QRELS}
        qrels[q]["u"] = 1
    known = {
        q: {"k0": 1, **{d: 1 for d, g in docs.items() if g > 0 and d != "d0"}}
        for q, docs in qrels.items()
    }
    subtopics = [(q, s, d, g // k) for q, docs in qrels.items() for d, g in docs.items()
                 for s, k in (("s1", 1), ("s2", 2))]  # fmt: skip
    side = {"collection_size": 40, "known": known, "target": 2}
    side["subtopics"] = Subtopics.from_rows(subtopics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weak = evaluate(qrels, run, TIE_AWARE_LABELS, ties="weak", **side)
        plain = evaluate(qrels, run, TIE_AWARE_LABELS, ties="trec", **side)
    np.testing.assert_array_equal(weak.values, plain.values)


def test_every_registered_tie_aware_form_is_covered_by_the_linear_test():
    from cranfield.measures import REGISTRY, parse

    covered = {parse(s).name for s in TIE_AWARE_LABELS}
    have = {n for n, d in REGISTRY.items() if d.tie_aware is not None}
    assert have <= covered, sorted(have - covered)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6))
def test_micro_denominators_do_not_depend_on_tie_breaking(queries, k):
    """Under 'weak' the micro average uses E[num] = E[value] * den, which needs every micro
    denominator of a tie-aware measure to be the same for all tie-breakings."""
    from cranfield.measures import REGISTRY, parse
    from cranfield.ties.analysis import reorder_ties

    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    known = {q: {"k0": 1, **{d: 1 for d, g in docs.items() if g >= 1}} for q, docs in qrels.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # known documents the qrels do not judge relevant
        jr = judge(
            read_qrels(qrels),
            read_run(run),
            ties="weak",
            collection_size=N_COLLECTION,
            known=read_qrels(known),
            target=2,
        )
    orders = [jr, reorder_ties(jr, True), reorder_ties(jr, False)]
    for name, d in REGISTRY.items():
        if d.micro is None or d.tie_aware is None:
            continue
        m = parse(f"{name}@{k}" if d.cutoff is not None else name)
        dens = [np.asarray(d.micro(o, **m.resolve())[1], dtype=float) for o in orders]
        np.testing.assert_array_equal(dens[0], dens[1], err_msg=name)
        np.testing.assert_array_equal(dens[0], dens[2], err_msg=name)
