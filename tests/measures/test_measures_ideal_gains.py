"""The ideal gain list with fractional gains is trec_eval's (its merge sort and comparison,
written out here), also beyond 256 levels where the gains are ordered by value."""

from __future__ import annotations

import math

import pytest
from _extremes import _judged
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.measures import Measure, parse


def _msort(items: list, cmp) -> list:
    """glibc's merge sort (first half n // 2, left taken on cmp <= 0)."""
    if len(items) <= 1:
        return list(items)
    a, b = _msort(items[: len(items) // 2], cmp), _msort(items[len(items) // 2 :], cmp)
    out = []
    while a and b:
        out.append(a.pop(0) if cmp(a[0], b[0]) <= 0 else b.pop(0))
    return out + a + b


def _trec_ideal(grades: list[int], pairs: list[tuple[int, float]]) -> list[float]:
    """trec_eval 10.0 gain_init.c for one query, literally: the whole table (user pairs, then
    the grades 0..L-1 not given), merge-sorted with (int)(g1 - g2), read from the top, empty
    entries skipped, until a non-positive gain; nothing if the top entry is not positive
    (reference/trec_eval.md sec. 6.4).  Above 256 levels sorted by value (cranfield's rule)."""
    levels = max([g for g in grades if g >= 0], default=-1) + 1
    given = {g for g, _ in pairs}
    table = [(g, v, 0) for g, v in pairs]
    seen = set()
    for i, (g, v, _) in enumerate(table):
        if g not in seen and 0 <= g < levels:
            table[i] = (g, v, grades.count(g))
        seen.add(g)
    table += [(g, float(g), grades.count(g)) for g in range(levels) if g not in given]

    def cmp(x, y):
        d = x[1] - y[1]
        return int(d) if abs(d) < 2**31 else -(2**31)

    # beyond 256 levels (a table trec_eval could not afford for large grades) by value
    ordered = _msort(table, cmp) if levels <= 256 else sorted(table, key=lambda e: e[1])
    if not ordered or ordered[-1][1] <= 0:  # the top entry decides an empty list
        return []
    ideal = []
    for _g, v, n in reversed(ordered):
        if n == 0:
            continue
        if v <= 0:
            break
        ideal += [v] * n
    return ideal


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.one_of(st.integers(-2, 12), st.integers(250, 262)), min_size=1, max_size=12),
    pairs=st.lists(
        st.tuples(
            st.integers(-2, 45),
            st.sampled_from([0.5, 1.5, 2.25, -0.5, 3.7, 0.2, 17.4, 16.9, 3.0, 0.0, -1.0]),
        ),
        max_size=5,
        unique_by=lambda t: t[0],
    ),
)
def test_the_ideal_list_is_trec_evals_for_fractional_gains(grades, pairs):
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    jr = _judged(qrels, {"q": {"d0": 1.0}})
    m = Measure("IDCG", {"gains": dict(pairs)})
    ideal = _trec_ideal(grades, pairs)
    expect = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
    assert m.compute(jr)[0] == pytest.approx(expect, rel=1e-12, abs=0)


def test_beyond_256_levels_fractional_gains_are_ordered_by_value():
    # trec_eval's table would hold one entry per grade 0..10**12: gains are sorted by value
    qrels = {"q": {"a": 10**12, "b": 1, "c": 2}}
    jr = _judged(qrels, {"q": {"a": 1.0}})
    m = parse("IDCG(gains={1:2.5,2:2.25})")
    expect = 1e12 + 2.5 / math.log2(3) + 2.25 / 2
    assert m.compute(jr)[0] == pytest.approx(expect, rel=1e-15)
