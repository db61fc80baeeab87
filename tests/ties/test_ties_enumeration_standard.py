"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

The standard measures (P, R, Rprec, success, judged, AP, RR, bpref, RBP, nDCG, ...) under
``ties="weak"`` equal the mean of their plain forms over all tie-breakings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from _tie_enumeration import (
    _R,
    _close,
    _inputs,
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
    r_at,
    rbp,
    rbp_resid,
    rel_p,
    rr,
    success,
    unjudged_at,
    weak_orderings,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 4))
def test_standard_measures_equal_the_average_over_all_tie_breakings(queries, k, h):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
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
        "NumRelRet",
        "SetP",
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
    ]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        orders = list(_linear_orders(levels))
        n = len(orders[0])
        ideal = idcg(qgrades)
        ideal_k = idcg(qgrades, k)
        expect = {
            f"P@{k}": mean(p_at(o, k) for o in orders),
            f"R@{k}": mean(r_at(o, k, R) for o in orders),
            "AP": mean(ap(o, R) for o in orders),
            f"AP@{k}": mean(ap(o, R, k) for o in orders),
            "RR": mean(rr(o) for o in orders),
            f"RR@{k}": mean(rr(o, k) for o in orders),
            f"Success@{k}": mean(success(o, k) for o in orders),
            "Rprec": mean(r_at(o, min(n, R), R) for o in orders) if R else Fraction(0),
            f"Judged@{k}": mean(judged_at(o, k) for o in orders),
            "nDCG": sum(dcg(o) for o in orders) / len(orders) / ideal if ideal else 0.0,
            f"nDCG@{k}": sum(dcg(o, k) for o in orders) / len(orders) / ideal_k if ideal_k else 0.0,
            "GMAP": mean(ap(o, R) for o in orders),
            "NumRelRet": Fraction(sum(_rel(g) for g in orders[0])),
            "SetP": Fraction(sum(_rel(g) for g in orders[0]), n),
            f"RelP@{k}": mean(rel_p(o, k, R) for o in orders),
            f"R_cap@{k}": mean(rel_p(o, k, R) for o in orders),  # MTEB's
            f"Accuracy@{k}": mean(success(o, k) for o in orders),
            f"Unjudged@{k}": mean(unjudged_at(o, k) for o in orders),
            f"DCG@{k}": sum(dcg(o, k) for o in orders) / len(orders),
            "Rprec(mult=1.5)": mean(p_at(o, min(n, c)) * min(n, c) / c for o in orders)
            if (c := int(1.5 * R + 0.9)) and R
            else Fraction(0),
            "Bpref": mean(bpref(o, qgrades, R) for o in orders),
            "GMBpref": mean(bpref(o, qgrades, R) for o in orders),
            "BinG": sum(bin_g(o, R) for o in orders) / len(orders),
            "RBP(p=0.8)": sum(rbp(o, qgrades, 0.8) for o in orders) / len(orders),
            "RBPResid(p=0.8)": sum(rbp_resid(o, 0.8) for o in orders) / len(orders),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], float(value), levels)
