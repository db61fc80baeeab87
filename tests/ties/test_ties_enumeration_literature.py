"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

The literature measures (Rnorm, Pnorm, WRnorm, PRES, the n-th relevant rank, ...) under
``ties="weak"`` equal the mean of their plain forms, written out here, over all tie-breakings."""

from __future__ import annotations

import math
from fractions import Fraction

from _tie_enumeration import (
    _R,
    N_COLLECTION,
    _close,
    _gain,
    _inputs,
    _linear_orders,
    _orderings_count,
    _rel,
    _values,
    mean,
    nth_rank,
    pnorm,
    position_of,
    pres,
    rel_p,
    rnorm,
    weak_orderings,
    wrnorm,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 3))
def test_literature_measures_equal_the_average_over_all_tie_breakings(queries, k, s):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    # the user knows every other relevant document of the qrels
    # (plus a document the qrels do not list, so that no query's mapping is empty)
    known = {
        q: {"k0": 1, **{d: 1 for i, (d, g) in enumerate(docs.items()) if g >= 1 and i % 2 == 0}}
        for q, docs in qrels.items()
    }
    target = 2
    side = {"collection_size": N_COLLECTION, "known": known, "target": target}
    labels = [
        "Rnorm",
        "Pnorm",
        "WRnorm",
        f"PRES@{k}",
        f"PRESest@{k}",
        f"RelRank(n={s})",
        f"SearchLength(n={s})",
        f"F(beta=2.0)@{k}",
        f"E@{k}",
        f"Fallout@{k}",
        f"SlidingRatio@{k}",
        f"Coverage@{k}",
        f"RelativeRecall@{k}",
        "RecallEffort",
        f"CG@{k}",
        f"nCG@{k}",
        f"DCG(convention=jk)@{k}",
    ]
    got = _values(qrels, run, labels, "weak", **side)
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        N = N_COLLECTION
        orders = list(_linear_orders(levels))
        n = len(orders[0])
        known_rel = {d for d in known[q] if qrels[q].get(d, 0) >= 1}
        ideal = sorted((g for g in qgrades if g > 0), reverse=True)
        icg = sum(ideal[:k])
        ranks = [nth_rank(o, s, R, N) for o in orders]
        exp_rank = mean(ranks) if ranks[0] is not None else math.nan
        expect = {
            "Rnorm": mean(rnorm(o, R, N) for o in orders),
            "Pnorm": sum(pnorm(o, R, N) for o in orders) / len(orders),
            "WRnorm": mean(wrnorm(o, qgrades, R, N) for o in orders),
            f"PRES@{k}": mean(pres(o, R, k) for o in orders),
            f"PRESest@{k}": mean(pres(o, R, k) for o in orders) * max(1, Fraction(R, k)),
            f"RelRank(n={s})": exp_rank if s <= R else math.nan,
            f"SearchLength(n={s})": exp_rank - s if s <= R and ranks[0] is not None else math.nan,
            f"F(beta=2.0)@{k}": mean(
                Fraction(5 * sum(_rel(g) for g in o[:k]), 4 * R + k) for o in orders
            ),
            f"E@{k}": 1 - mean(Fraction(2 * sum(_rel(g) for g in o[:k]), R + k) for o in orders),
            f"Fallout@{k}": mean(
                Fraction(min(n, k) - sum(_rel(g) for g in o[:k]), N - R) for o in orders
            ),
            f"SlidingRatio@{k}": mean(rel_p(o, k, R) for o in orders),
            f"RelativeRecall@{k}": mean(
                Fraction(min(sum(_rel(g) for g in o[:k]), target), target) for o in orders
            ),
            "RecallEffort": mean(
                Fraction(target, position_of(o, target)) if position_of(o, target) else 0
                for o in orders
            ),
            f"CG@{k}": mean(Fraction(sum(_gain(g) for g in o[:k])) for o in orders),
            f"nCG@{k}": mean(Fraction(sum(_gain(g) for g in o[:k]), icg) for o in orders)
            if icg
            else Fraction(0),
            f"DCG(convention=jk)@{k}": sum(
                sum(_gain(g) / (math.log2(i) if i >= 2 else 1) for i, g in enumerate(o[:k], 1))
                for o in orders
            )
            / len(orders),
        }
        for label, value in expect.items():
            if isinstance(value, float) and math.isnan(value):
                assert math.isnan(got[q][label]), (q, label, got[q][label], levels)
                continue
            assert _close(got[q][label], value), (q, label, got[q][label], value, levels)
        # Coverage follows the documents: enumerate the documents' own orders
        doc_levels = []
        d = 0
        for lv in levels:
            doc_levels.append([f"d{d + j + 1:02d}" for j in range(len(lv))])
            d += len(lv)
        doc_orders = list(_linear_orders(doc_levels))
        cov = (
            mean(Fraction(sum(x in known_rel for x in o[:k]), len(known_rel)) for o in doc_orders)
            if known_rel
            else Fraction(0)
        )
        assert _close(got[q][f"Coverage@{k}"], cov), (q, levels)
