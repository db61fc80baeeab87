"""Curves at extreme cut-offs and recall levels: gain curves stop at the longest ranking
whatever the cut-off, cut-offs and recall levels are bounded, and recall levels with long
denominators count exactly."""

from __future__ import annotations

import math
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from _extremes import MEMORY_LIMIT


def test_gain_curves_stop_at_the_longest_ranking_whatever_the_cut_off():
    from cranfield import curves

    qrels = {"q1": {"d1": 2, "d2": 1}, "q2": {"d3": 1}}
    run = {"q1": {"d1": 2.0, "d2": 1.0, "d5": 0.5}, "q2": {"d3": 1.0}}
    tracemalloc.start()
    try:
        table = curves.gain(qrels, run, cutoffs=[3, 10**9])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT
    at = table.set_index(["curve", "rank"])["value"]
    for curve in ("cg", "dcg", "icg", "idcg", "ncg", "ndcg"):
        assert at[(curve, 10**9)] == at[(curve, 3)], curve  # flat after the last rank
    assert at[("cg", 3)] == pytest.approx((3 + 1) / 2)


def test_curve_cut_offs_and_recall_levels_are_bounded():
    from cranfield.base.limits import MAX_CUTOFF
    from cranfield.curves import parse_cutoffs, parse_levels
    from cranfield.errors import ParameterError

    assert parse_cutoffs([MAX_CUTOFF]) == (MAX_CUTOFF,)
    for bad in ([MAX_CUTOFF + 1], [10**30], [math.inf], "99999999999999999999"):
        with pytest.raises(ParameterError, match="cut-off"):
            parse_cutoffs(bad)
    assert parse_levels("1e-30,1/3") == (Fraction(1, 10**30), Fraction(1, 3))
    for bad in ("1e-999999999", "1e999999999", "nan", "inf", "1e-1001", "1e-31"):
        with pytest.raises(ParameterError, match="recall level"):
            parse_levels(bad)


def test_recall_levels_with_long_denominators_count_exactly():
    from cranfield.curves.recall_levels import ceil_count, floor_count

    R = np.array([0, 1, 7, 10**6], dtype=np.int64)
    level = Fraction(1, 10**40) + Fraction(1, 2)
    assert ceil_count(level, R).tolist() == [-(-level * r // 1) for r in R.tolist()]
    h, t = floor_count(level, R)
    assert h.tolist() == [level * r // 1 for r in R.tolist()]
    assert t.tolist() == [float(level * r - level * r // 1) for r in R.tolist()]
