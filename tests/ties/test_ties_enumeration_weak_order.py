"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed with ``fractions.Fraction`` (``_tie_enumeration.py``).

The weak-order family (Raghavan et al. 1989): ESL, EP, PRR, PRECALL and ER equal their
definitions by enumeration, with ceiling interpolation and the Gamma-interpolated intuitive
form of Lemma 3.1."""

from __future__ import annotations

import math
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
    mean,
    position_of,
    weak_orderings,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 5), st.integers(1, 6))
def test_weak_order_measures_equal_their_definitions_by_enumeration(queries, h, nd):
    """EP and ESL are expectations; PRR = NR / E[documents retrieved] (Theorem 3.1 proof);
    EP(ND) = PRR(ND) = E[rel@ND] / ND, ER = E[rel@ND] / R (Theorems 3.3-3.5)."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    labels = [
        f"EP(NR={h})",
        f"ESL(NR={h})",
        f"PRR(NR={h})",
        f"EP(ND={nd})",
        f"PRR(ND={nd})",
        f"ER(ND={nd})",
    ]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        R = _R(list(qrels[q].values()))
        orders = list(_linear_orders(levels))
        pos = [position_of(o, h) for o in orders]
        reach = R > 0 and pos[0] is not None
        relnd = mean(sum(_rel(g) for g in o[:nd]) for o in orders)
        expect = {
            f"EP(NR={h})": mean(Fraction(h, p) for p in pos) if reach else Fraction(0),
            f"ESL(NR={h})": mean(p - h for p in pos) if reach else math.nan,
            f"PRR(NR={h})": Fraction(h) / mean(pos) if reach else Fraction(0),
            f"EP(ND={nd})": relnd / nd,
            f"PRR(ND={nd})": relnd / nd,
            f"ER(ND={nd})": relnd / R if R else Fraction(0),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], value, levels)


def _prr_brute(orders, h):
    pos = [position_of(o, h) for o in orders]
    return None if pos[0] is None else Fraction(h) / mean(pos)


def _precall_levels(levels, h):
    """Eq. 2.2 at integer NR = h, from the levels (definition, in fractions)."""
    tr = j = 0
    for lv in levels:
        r = sum(_rel(g) for g in lv)
        i = len(lv) - r
        if tr + r >= h:
            s = h - tr
            return Fraction(h) / (h + j + Fraction(s * i, r))
        tr, j = tr + r, j + i
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 2 / 3, 0.9, 1.0]))
def test_ceiling_interpolation_is_the_max_over_later_recall_points(queries, x):
    """Raghavan et al. (1989) sec. 2.2: precision at recall x is the largest value at any simple
    recall point h / R with h >= ceil(x R) (ceiling and "chain effect"); for PRR (sec. 3.2.2) and
    PRECALL."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    labels = [f"PRR(recall={x!r},interpolation=ceiling)", f"PRECALL(recall={x!r})"]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        R = _R(list(qrels[q].values()))
        orders = list(_linear_orders(levels))
        h0 = max(1, math.ceil(Fraction(x).limit_denominator(1000) * R))
        prr = [_prr_brute(orders, h) for h in range(h0, R + 1)]
        pre = [_precall_levels(levels, h) for h in range(h0, R + 1)]
        want_prr = max([v for v in prr if v is not None], default=Fraction(0)) if R else 0
        want_pre = max([v for v in pre if v is not None], default=Fraction(0)) if R else 0
        assert _close(got[q][labels[0]], want_prr), (levels, x)
        assert _close(got[q][labels[1]], want_pre), (levels, x)


def _esl_gamma(j, r, i, s):
    """Sum_v (j + v) P_v with the factorials holding s interpolated by the Gamma function
    (Raghavan et al. sec. 3.2.2 and Appendix): the definition behind Lemma 3.1."""
    total = 0.0
    for v in range(i + 1):
        logp = (
            math.lgamma(s + v)
            - math.lgamma(s)
            - math.lgamma(v + 1)
            + math.lgamma(r - s + i - v + 1)
            - math.lgamma(r - s + 1)
            - math.lgamma(i - v + 1)
            - (math.lgamma(r + i + 1) - math.lgamma(r + 1) - math.lgamma(i + 1))
        )
        total += (j + v) * math.exp(logp)
    return total


@pytest.mark.parametrize(
    ("levels", "x"),
    [
        (["+-", "+++----"], 0.3),  # R = 4, NR = 1.2 in the second level
        (["-", "++---", "+-"], 0.5),  # R = 3, NR = 1.5
        (["--", "++++------"], 0.55),  # R = 4, NR = 2.2
        (["+", "-", "+++-----"], 0.9),  # R = 4, NR = 3.6
    ],
)
def test_intuitive_interpolation_follows_lemma_3_1(levels, x):
    """ESL and PRR at a fractional NR = x R: the Gamma-interpolated expectation (Lemma 3.1)."""
    grades = [[1 if c == "+" else 0 for c in lv] for lv in levels]
    qrels, run = _inputs([(grades, 0)])
    R = sum(sum(lv) for lv in grades)
    nr = x * R
    tr = j = 0
    for lv in grades:
        r, i = sum(lv), len(lv) - sum(lv)
        if tr + r >= nr:
            esl = _esl_gamma(j, r, i, nr - tr)
            break
        tr, j = tr + r, j + i
    got = _values(qrels, run, [f"ESL(recall={x})", f"PRR(recall={x})"], "weak")["q0"]
    assert got[f"ESL(recall={x})"] == pytest.approx(esl, rel=1e-10)
    assert got[f"PRR(recall={x})"] == pytest.approx(nr / (nr + esl), rel=1e-10)
