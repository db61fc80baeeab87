"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

The best and worst tie-breaking of ``tie_range`` are the extremes over all orders and its
expected value their mean."""

from __future__ import annotations

import warnings

from _tie_enumeration import (
    _R,
    _close,
    _inputs,
    _linear_orders,
    _orderings_count,
    ap,
    dcg,
    idcg,
    p_at,
    rr,
    weak_orderings,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cranfield import judge, read_qrels, read_run
from cranfield.ties.analysis import tie_range


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6))
def test_best_and_worst_tie_breaking_are_the_extremes_over_all_orders(queries, k):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    jr = judge(read_qrels(qrels), read_run(run), ties="weak")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tr = tie_range(jr, ["AP", f"P@{k}", f"nDCG@{k}", "RR"])
    for i, q in enumerate(tr.query_ids):
        levels, _ = queries[int(q[1:])]
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        ideal = idcg(qgrades, k)
        orders = list(_linear_orders(levels))
        per_order = {
            "AP": [ap(o, R) for o in orders],
            f"P@{k}": [p_at(o, k) for o in orders],
            f"nDCG@{k}": [dcg(o, k) / ideal if ideal else 0.0 for o in orders],
            "RR": [rr(o) for o in orders],
        }
        for j, label in enumerate(tr.labels):
            vals = per_order[label]
            assert _close(tr.best[i, j], max(vals)), (label, levels)
            assert _close(tr.worst[i, j], min(vals)), (label, levels)
            assert _close(tr.expected[i, j], sum(vals) / len(vals)), (label, levels)
            assert min(vals) - 1e-12 <= tr.trec[i, j] <= max(vals) + 1e-12
