"""Grades from -2**63 to 2**63-1 on every measure (finite or declared values, memory that does
not depend on the grade), and ERR and nDCG with large grades against exact and plain
computations."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from _extremes import BASE, _cutoff, _finite_or_declared, _judged, _measured

from cranfield.measures import REGISTRY, Measure, parse
from cranfield.measures.params import INT64_MAX, INT64_MIN

GRADES = (INT64_MAX, INT64_MIN, 2**62, 10**15, 5 * 10**7, 1025, 2, 1, 0, -1)


def _complete(name: str) -> Measure:
    d = REGISTRY[name]
    return Measure(name, BASE.get(name, {}), _cutoff(d, ""))


@pytest.mark.parametrize("ties", ["trec", "weak"])
def test_grades_from_minus_2_63_to_2_63_on_every_measure(ties):
    qrels = {
        "a": {f"d{i}": g for i, g in enumerate(GRADES)},
        "b": {"d1": INT64_MAX},
        "c": {"d1": INT64_MIN, "d2": 1},
        "e": {"d1": 10**15, "d2": 10**15 - 1},
    }
    run = {
        "a": {f"d{i}": float(i % 3) for i in range(len(GRADES) + 2)},
        "b": {"d1": 1.0, "x": 2.0},
        "c": {"d1": 1.0, "d2": 1.0},
        "e": {"d2": 2.0, "d1": 1.0},
    }
    jr = _judged(qrels, run, ties)
    for name, d in sorted(REGISTRY.items()):
        if ties == "weak" and d.tie_aware is None:
            continue
        m = _complete(name)
        _finite_or_declared(m, _measured(m, jr))


def _err_exact(grades: list[int], gmax: int) -> Fraction:
    """ERR of a ranking in exact arithmetic (Chapelle et al. eq. 4)."""
    total, reach = Fraction(0), Fraction(1)
    for i, g in enumerate(grades, start=1):
        r = Fraction(2 ** max(g, 0) - 1, 2**gmax)
        total += reach * r / i
        reach *= 1 - r
    return total


@pytest.mark.parametrize(
    "grades",
    [[1500, 3, 0, 2000], [1024, 1023, 1], [2000, 2000], [0, 5, 1100], [3, 2, 1, 0]],
)
def test_err_with_large_grades_matches_exact_arithmetic(grades):
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    run = {"q": {f"d{i}": float(len(grades) - i) for i in range(len(grades))}}
    jr = _judged(qrels, run)
    gmax = max(grades)
    for m, top in ((parse("ERR"), gmax), (parse(f"ERR(max_grade={gmax + 7})"), gmax + 7)):
        got = float(m.compute(jr)[0])
        assert got == pytest.approx(float(_err_exact(grades, top)), rel=1e-14, abs=1e-300)


def test_err_at_the_largest_grade():
    # R = (2^g - 1) / 2^(2^63 - 1): 1 at the top grade, 0 (below 2^-1074) at grade 5, so the
    # user stops at rank 2: ERR = 1/2
    qrels = {"q": {"a": 5, "b": INT64_MAX}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    assert parse("ERR").compute(_judged(qrels, run)).tolist() == [0.5]


def test_err_stop_probability_is_correctly_rounded():
    from cranfield.measures.cg import stop_probability

    for gmax in (1, 2, 7, 53, 54, 55, 1022, 1023, 1024, 1074, 1075, 1076, 1100, 2000):
        g = np.arange(gmax + 1) if gmax < 200 else np.r_[0:70, gmax - 70 : gmax + 1]
        exact = [float(Fraction(2**x - 1, 2**gmax)) for x in g.tolist()]
        assert stop_probability(g, gmax).tolist() == exact, gmax
        if gmax <= 1023:  # the plain formula, where it does not overflow
            plain = (np.exp2(g.astype(float)) - 1.0) / 2.0**gmax
            assert stop_probability(g, gmax).tolist() == plain.tolist()


def test_ndcg_with_large_grades_matches_a_plain_computation():
    grades = {"d1": 10**15, "d2": 3, "d3": INT64_MAX, "d4": 2**62, "d5": 0}
    ranking = ["d2", "d5", "d1", "d9", "d4"]
    qrels = {"q": grades}
    run = {"q": {d: float(len(ranking) - i) for i, d in enumerate(ranking)}}
    jr = _judged(qrels, run)
    gain = {d: float(max(g, 0)) for d, g in grades.items()}
    dcg = sum(gain.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking))
    ideal = sorted((g for g in gain.values() if g > 0), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    assert parse("nDCG").compute(jr)[0] == pytest.approx(dcg / idcg, rel=1e-13)
    idcg3 = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:3]))
    dcg3 = sum(gain.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking[:3]))
    assert parse("nDCG@3").compute(jr)[0] == pytest.approx(dcg3 / idcg3, rel=1e-13)
    # a custom gain on the largest grade, and one on a grade no document has
    g2 = {INT64_MAX: 1.0, 7: 100.0}
    gain2 = {d: g2.get(g, float(max(g, 0))) for d, g in grades.items()}
    dcg = sum(gain2.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking))
    ideal = sorted((g for g in gain2.values() if g > 0), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    m = parse(f"nDCG(gains={{{INT64_MAX}:1,7:100}})")
    assert m.compute(jr)[0] == pytest.approx(dcg / idcg, rel=1e-13)


def test_a_grade_of_minus_2_63_is_a_negative_grade_like_any_other():
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0, "x": 0.5}}
    base = _judged({"q": {"a": -1, "b": 1, "c": 0}}, run)
    low = _judged({"q": {"a": INT64_MIN, "b": 1, "c": 0}}, run)
    for name in sorted(REGISTRY):
        m = _complete(name)
        assert np.array_equal(m.compute(low), m.compute(base), equal_nan=True), name


def test_many_queries_with_their_own_huge_grades_cost_what_the_input_costs():
    n = 3000
    grades = [(i * 3_074_457_345_618_258_602) % INT64_MAX for i in range(1, n + 1)]
    qrels = {f"q{i}": {"a": g, "b": 1} for i, g in enumerate(grades)}
    run = {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(n)}
    jr = _judged(qrels, run, side=False)
    for text in ("nDCG", "nDCG(gains={1:0.5})", "RBP", "G", "ERR", "RnDCG", "CG@2"):
        m = parse(text)
        values = _measured(m, jr)
        assert np.isfinite(values).all(), text
    # the ranking is ideal for every query
    assert parse("nDCG(gains={1:0.5})").compute(jr).tolist() == [1.0] * n
