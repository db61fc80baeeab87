"""``cranfield.judges``: what it reports besides the statistics (counts, per grade,
leniency, binarising, mappings, per-query kappa, bootstrap) and its degenerate cases."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import DataWarning, InputError, ParameterError
from cranfield.judgments.agreement import judges, parse_mapping

A = {"q1": {"d1": 0, "d2": 1, "d3": 2, "d4": 2, "x": 1}, "q2": {"d1": 1, "d2": 0}}
B = {"q1": {"d1": 0, "d2": 2, "d3": 2, "d4": 1}, "q2": {"d1": 1, "d2": 1, "y": 0, "z": 2}}


def _run(*sets, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = judges(*sets, **kw)
    return r, [str(w.message) for w in caught if issubclass(w.category, DataWarning)]


def test_counts_per_grade_leniency_by_hand():
    """Common pairs (A, B): q1 d1 (0,0), d2 (1,2), d3 (2,2), d4 (2,1); q2 d1 (1,1), d2 (0,1).
    A only: q1 x; B only: q2 y, z.  Confusion (rows A): [1,1,0], [0,1,1], [0,1,1].
    Per grade 2 n_gg / (n_g. + n_.g): 0: 2*1/(2+1) = 2/3; 1: 2*1/(2+3) = 2/5; 2: 2/(2+2) = 1/2.
    B - A: 0, 1, 0, -1, 0, 1: mean 1/6, B higher 2/6, A higher 1/6.
    Binarised at rel=2: A (0,0,1,1,0,0), B (0,1,1,0,0,0): confusion [[3,1],[1,1]]."""
    r, _ = _run(A, B, rel=2, bootstrap=0)
    p = r.pairs[0]
    assert (p.both, p.only_a, p.only_b) == (6, 1, 2)
    assert p.confusion.tolist() == [[1, 1, 0], [0, 1, 1], [0, 1, 1]]
    assert p.per_grade == pytest.approx({0: 2 / 3, 1: 2 / 5, 2: 1 / 2})
    assert p.mean_difference == pytest.approx(1 / 6)
    assert (p.b_higher, p.a_higher) == pytest.approx((2 / 6, 1 / 6))
    assert p.observed == pytest.approx(3 / 6)
    assert p.binary_confusion.tolist() == [[3, 1], [1, 1]]
    # binary kappa by hand: p_o = 4/6, p_e = (4*4 + 2*2)/36 = 20/36, kappa = (24-20)/(36-20)
    assert p.binary_statistics["kappa"].value == pytest.approx(4 / 16)
    assert [s.judgments for s in r.sets] == [7, 8]


def test_three_sets_count_the_pairs_of_each_pair():
    c = {"q1": {"d1": 1, "x": 1}, "q2": {"y": 0}}
    r, _ = _run(A, B, c, bootstrap=0)
    assert [(p.a, p.b) for p in r.pairs] == [("A", "B"), ("A", "C"), ("B", "C")]
    ac = r.pair("A", "C")
    assert (ac.both, ac.only_a, ac.only_b) == (2, 5, 1)  # common: q1 d1, q1 x
    bc = r.pair("B", "C")
    assert (bc.both, bc.only_b) == (2, 1)  # common: q1 d1, q2 y; C only: q1 x
    assert r.common == 1  # q1 d1 is the only pair all three judge


def test_negative_grades_are_no_judgment():
    a = {"q1": {"d1": 1, "d2": -1, "d3": 0}}
    b = {"q1": {"d1": 1, "d2": 1, "d3": 0}}
    r, _ = _run(a, b, bootstrap=0)
    assert r.sets[0].unjudged == 1 and r.sets[0].judgments == 2
    assert (r.pairs[0].both, r.pairs[0].only_b) == (2, 1)


def test_no_pair_in_common_is_nan_with_a_warning():
    r, said = _run({"q1": {"d1": 1}}, {"q1": {"d2": 1}}, bootstrap=10)
    p = r.pairs[0]
    assert p.both == 0 and all(math.isnan(e.value) for e in p.statistics.values())
    assert any("A and B judge no (query, document) pair in common" in s for s in said)
    assert math.isnan(r.statistics["alpha_nominal"].value)
    assert r.to_dict()["pairs"][0]["statistics"]["kappa"]["value"] is None


def test_all_grades_equal_is_nan_with_the_reason():
    a = {"q1": {"d1": 1, "d2": 1}, "q2": {"d1": 1}}
    r, said = _run(a, a, bootstrap=20)
    assert math.isnan(r.pairs[0].statistics["kappa"].value)
    assert r.pairs[0].observed == 1.0
    assert any(
        "kappa, kappa_linear, kappa_quadratic of A and B are undefined (NaN): every judgment "
        "compared has grade 1" in s
        for s in said
    )
    assert any(
        s.startswith("ac1, ac2 over all sets are undefined (NaN): a single category") for s in said
    )


def test_one_query_gives_no_interval_and_says_why():
    a = {"q1": {"d1": 0, "d2": 1, "d3": 1}}
    b = {"q1": {"d1": 0, "d2": 1, "d3": 0}}
    r, said = _run(a, b, bootstrap=50)
    e = r.pairs[0].statistics["kappa"]
    assert e.value == pytest.approx(0.4)  # p_o 2/3, p_e (1*2 + 2*1)/9 = 4/9 -> (6-4)/(9-4)
    assert math.isnan(e.low) and math.isnan(e.high)
    assert any("only one query" in s for s in said)


def test_mapping_puts_scales_together():
    a = {"q1": {"d1": 0, "d2": 1, "d3": 2, "d4": 3}}
    b = {"q1": {"d1": 0, "d2": 0, "d3": 1, "d4": 1}}
    r, said = _run(a, b, bootstrap=0)
    assert any("different scales (A 0..3; B 0..1)" in s for s in said)
    r, said = _run(a, b, bootstrap=0, mapping="A:0,1->0;2,3->1")
    assert not said
    assert r.pairs[0].statistics["kappa"].value == 1.0
    assert r.sets[0].grades == (0, 1)
    r2, _ = _run(a, b, bootstrap=0, mapping={"A": {1: 0, 2: 1, 3: 1}})
    assert r2.pairs[0].confusion.tolist() == r.pairs[0].confusion.tolist()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A 0->1", "give SET:GRADES->GRADE"),
        ("A:0=>1", "'0=>1' is not GRADES->GRADE"),
        ("A:0->1;0->2", "grade 0 is mapped twice"),
        ("A:0->-1", "negative"),
    ],
)
def test_bad_mapping_is_one_parameter_error(text, message):
    with pytest.raises(ParameterError, match=message):
        parse_mapping(text)


def test_mapping_of_an_unknown_set():
    with pytest.raises(ParameterError, match="names the set 'C'; the sets are A, B"):
        judges(A, B, mapping="C:1->0")


def test_bad_arguments():
    with pytest.raises(ParameterError, match="at least two"):
        judges(A)
    with pytest.raises(ParameterError, match="bootstrap"):
        judges(A, B, bootstrap=-1)
    with pytest.raises(InputError):
        judges(A, {})


def test_per_query_kappa_worst_first_equals_sklearn():
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(3)
    a, b = {}, {}
    for q in range(8):
        for d in range(12):
            g = int(rng.integers(0, 3))
            a.setdefault(f"q{q}", {})[f"d{d}"] = g
            b.setdefault(f"q{q}", {})[f"d{d}"] = (
                g if rng.random() < q / 8 else int(rng.integers(0, 3))
            )
    r, _ = _run(a, b, bootstrap=0)
    rows = r.pairs[0].per_query
    assert len(rows) == 8
    for row in rows:
        x = [a[row.query][d] for d in sorted(a[row.query])]
        y = [b[row.query][d] for d in sorted(a[row.query])]
        assert row.kappa == pytest.approx(cohen_kappa_score(x, y), abs=1e-12)
    kappas = [row.kappa for row in rows]
    assert kappas == sorted(kappas)


def test_bootstrap_equals_resampling_queries_directly():
    """The interval from one matrix product equals recomputing kappa (sklearn) on each
    resample of the queries drawn with the same generator."""
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(5)
    a, b = {}, {}
    for q in range(10):
        for d in range(int(rng.integers(3, 15))):
            g = int(rng.integers(0, 4))
            a.setdefault(f"q{q}", {})[f"d{d}"] = g
            b.setdefault(f"q{q}", {})[f"d{d}"] = min(3, g + int(rng.integers(0, 2)))
    r, _ = _run(a, b, bootstrap=200, seed=11)
    queries = sorted(a)
    draws = np.random.default_rng(11).integers(0, len(queries), size=(200, len(queries)))
    values = []
    for draw in draws:
        x = [a[queries[i]][d] for i in draw for d in a[queries[i]]]
        y = [b[queries[i]][d] for i in draw for d in a[queries[i]]]
        values.append(cohen_kappa_score(x, y, weights="quadratic", labels=[0, 1, 2, 3]))
    low, high = np.quantile(values, [0.025, 0.975])
    e = r.pairs[0].statistics["kappa_quadratic"]
    assert (e.low, e.high) == pytest.approx((low, high), abs=1e-12)
    assert e.low <= e.value <= e.high
    again, _ = _run(a, b, bootstrap=200, seed=11)
    assert again.to_dict() == r.to_dict()
    other, _ = _run(a, b, bootstrap=200, seed=12)
    assert other.pairs[0].statistics["kappa_quadratic"].low != e.low


def test_public_api():
    assert cranfield.judges is judges


def test_binarised_statistics_are_those_of_binarised_sets():
    """Every binarised value equals the graded value of sets binarised beforehand (and the
    pairwise kappa scikit-learn's on the binarised grades)."""
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(9)
    sets = [
        {
            f"q{q}": {f"d{d}": int(rng.integers(0, 4)) for d in range(10) if rng.random() < 0.8}
            for q in range(6)
        }
        for _ in range(3)
    ]
    binarised = [
        {q: {d: int(g >= 2) for d, g in docs.items()} for q, docs in s.items()} for s in sets
    ]
    r, _ = _run(*sets, rel=2, bootstrap=100, seed=1)
    b, _ = _run(*binarised, bootstrap=100, seed=1)
    assert r.binary_statistics == b.statistics
    for p, pb in zip(r.pairs, b.pairs, strict=True):
        assert p.binary_statistics == pb.statistics
        assert p.binary_confusion.tolist() == pb.confusion.tolist()
    common = [(q, d) for q in sets[0] for d in sets[0][q] if d in sets[1].get(q, {})]
    x = [binarised[0][q][d] for q, d in common]
    y = [binarised[1][q][d] for q, d in common]
    assert r.pairs[0].binary_statistics["kappa"].value == pytest.approx(
        cohen_kappa_score(x, y), abs=1e-12
    )


def test_too_wide_a_grade_range_asks_for_a_mapping():
    from cranfield.judgments.agreement import MAX_CATEGORIES

    a = {"q1": {"d1": 0, "d2": MAX_CATEGORIES}}
    with pytest.raises(ParameterError, match=r"grades span 0\.\.100, more than 100 categories"):
        judges(a, a)
    r, _ = _run(a, a, mapping={"A": {MAX_CATEGORIES: 1}, "B": {MAX_CATEGORIES: 1}})
    assert r.pairs[0].statistics["kappa"].value == 1.0


def test_a_mapping_that_is_not_grades():
    with pytest.raises(ParameterError, match="the mapping of set 'A': grades are integers"):
        judges(A, B, mapping={"A": {"x": 1}})
