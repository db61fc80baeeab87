"""The agreement statistics of ``cranfield.judges`` against peer packages (scikit-learn,
krippendorff, statsmodels), the papers' worked examples and hand-worked ones."""

from __future__ import annotations

import importlib
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.errors import DataWarning
from cranfield.judgments.agreement import judges
from cranfield.judgments.statistics import STATISTICS


def _sets(*columns, query_of=None):
    """Judgment sets as dicts from columns of grades (None: not judged); unit u is document
    'd<u>' of query ``query_of(u)`` (default: all in query 'q1')."""
    out = []
    for col in columns:
        qrels: dict[str, dict[str, int]] = {}
        for u, g in enumerate(col):
            if g is not None:
                q = query_of(u) if query_of else "q1"
                qrels.setdefault(q, {})[f"d{u}"] = int(g)
        out.append(qrels)
    return out


def _quiet(*sets, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return judges(*sets, bootstrap=0, **kw)


def test_every_statistic_is_declared_with_a_test_that_exists():
    for s in STATISTICS.values():
        assert s.source and s.formula and s.undefined and s.summary
        assert s.sets in ("pair", "all")
        assert s.checked_by
        for ref in s.checked_by:
            path, _, name = ref.partition("::")
            module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
            assert callable(getattr(module, name)), ref


def test_cohen_hand_worked():
    """Hand-worked (Cohen 1960 eq. 1, Cohen 1968 eq. 6; v = disagreement weights).

    A = (0, 1, 2, 0), B = (0, 2, 2, 2): confusion rows (A) [1,0,1], [0,0,1], [0,0,1];
    n = 4, row totals r = (2, 1, 1), column totals c = (1, 0, 3).

    - unweighted: observed disagreements 2; expected sum_{i!=j} r_i c_j / n =
      (16 - (2*1 + 1*0 + 1*3)) / 4 = 11/4; kappa = 1 - 2 / (11/4) = 3/11.
    - linear v = |i-j|: observed 2*1 (0->2) + 1*1 (1->2) = 3; expected
      (2*(0*1+1*0+2*3) + 1*(1*1+0*0+1*3) + 1*(2*1+1*0+0*3)) / 4 = (12 + 4 + 2)/4 = 4.5;
      kappa = 1 - 3/4.5 = 1/3.
    - quadratic v = (i-j)^2: observed 4 + 1 = 5; expected (2*(0+0+12) + 1*(1+0+3) +
      1*(4+0+0)) / 4 = 32/4 = 8; kappa = 1 - 5/8 = 3/8.
    - a 2-grade example: A = 1,1,1,1,1,1,1,1,0,0 and B = 1,1,1,1,1,1,1,0,1,0:
      p_o = 8/10, p_e = 0.8*0.8 + 0.2*0.2 = 0.68, kappa = 0.12/0.32 = 0.375.
    """
    r = _quiet(*_sets((0, 1, 2, 0), (0, 2, 2, 2)))
    p = r.pairs[0]
    assert p.confusion.tolist() == [[1, 0, 1], [0, 0, 1], [0, 0, 1]]
    assert p.statistics["kappa"].value == pytest.approx(3 / 11, abs=1e-15)
    assert p.statistics["kappa_linear"].value == pytest.approx(1 / 3, abs=1e-15)
    assert p.statistics["kappa_quadratic"].value == pytest.approx(3 / 8, abs=1e-15)
    r = _quiet(*_sets([1] * 8 + [0, 0], [1] * 7 + [0, 1, 0]))
    assert r.pairs[0].statistics["kappa"].value == pytest.approx(0.375, abs=1e-15)
    assert r.pairs[0].observed == pytest.approx(0.8)


grades_pair = st.integers(1, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
        st.lists(st.integers(0, 4), min_size=n, max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(grades_pair)
def test_cohen_equals_sklearn(pair):
    from sklearn.metrics import cohen_kappa_score

    a, b = pair
    r = _quiet(*_sets(a, b, query_of=lambda u: f"q{u % 3}"))
    labels = list(range(min(a + b), max(a + b) + 1))
    for name, w in (("kappa", None), ("kappa_linear", "linear"), ("kappa_quadratic", "quadratic")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = cohen_kappa_score(a, b, weights=w, labels=labels)
        got = r.pairs[0].statistics[name].value
        if math.isnan(want):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want, abs=1e-12), name


# Krippendorff (2011), sec. C: 4 observers x 12 units, values 1..5, '.' = missing
_K = [
    (1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None),
    (1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3),
    (None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None),
    (1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None),
]


def test_krippendorff_paper_example():
    """The paper's results: nominal 0.743, ordinal 0.815, interval 0.849 (unit 12 has one
    value and is not pairable)."""
    r = _quiet(*_sets(*_K))
    assert round(r.statistics["alpha_nominal"].value, 3) == 0.743
    assert round(r.statistics["alpha_ordinal"].value, 3) == 0.815
    assert round(r.statistics["alpha_interval"].value, 3) == 0.849
    assert r.units == 11


@st.composite
def _reliability(draw):
    m = draw(st.integers(2, 5))
    n = draw(st.integers(2, 40))
    cell = st.one_of(st.none(), st.integers(0, 3))
    col = st.lists(cell, min_size=n, max_size=n).filter(lambda c: any(g is not None for g in c))
    return [draw(col) for _ in range(m)]  # an empty set is an input error (tested elsewhere)


@settings(max_examples=120, deadline=None)
@given(_reliability())
def test_krippendorff_equals_package(cols):
    import krippendorff

    r = _quiet(*_sets(*cols, query_of=lambda u: f"q{u % 4}"))
    data = np.array([[np.nan if g is None else g for g in c] for c in cols], dtype=float)
    pairable = (~np.isnan(data)).sum(axis=0) >= 2
    values = data[:, pairable]
    seen = np.unique(values[~np.isnan(values)])
    for level in ("nominal", "ordinal", "interval"):
        got = r.statistics[f"alpha_{level}"].value
        if len(seen) < 2:  # the package raises; cranfield declares NaN
            assert math.isnan(got)
            continue
        domain = np.arange(seen.min(), seen.max() + 1)
        want = krippendorff.alpha(
            reliability_data=values, level_of_measurement=level, value_domain=domain
        )
        assert got == pytest.approx(want, abs=1e-9), level


# Fleiss (1971), Table 1: 30 patients, 6 psychiatrists, 5 diagnoses (as in R's irr
# package, `diagnoses`, and statsmodels' tests)
_DIAGNOSES = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip


def test_fleiss_paper_example():
    """Fleiss (1971) gives kappa = .430 for this table."""
    cols = list(zip(*_DIAGNOSES, strict=True))
    r = _quiet(*_sets(*cols))
    assert round(r.statistics["fleiss_kappa"].value, 3) == 0.430
    assert r.common == 30


@settings(max_examples=120, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda m: st.lists(
            st.lists(st.integers(0, 3), min_size=m, max_size=m), min_size=1, max_size=40
        )
    )
)
def test_fleiss_equals_statsmodels(rows):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    cols = list(zip(*rows, strict=True))
    r = _quiet(*_sets(*cols, query_of=lambda u: f"q{u % 3}"))
    flat = [g for row in rows for g in row]
    table, _ = aggregate_raters(np.array(rows), n_cat=None)
    got = r.statistics["fleiss_kappa"].value
    if len(set(flat)) == 1:  # P_e = 1: statsmodels divides by zero, cranfield declares NaN
        assert math.isnan(got)
        return
    # only the categories used matter to Fleiss' kappa (an unused one has p_j = 0)
    with np.errstate(all="ignore"):
        want = fleiss_kappa(table)
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(want, abs=1e-9)


def test_gwet_hand_worked():
    """Hand-worked (Gwet 2008 eqs. 14-15; AC2 as Gwet 2014 ch. 3).

    AC1, two raters: A = 1,1,1,1,1,1,1,1,0,0 and B = 1,1,1,1,1,1,1,0,1,0: p_a = 8/10;
    pi_1 = (0.8 + 0.8)/2 = 0.8, pi_0 = 0.2; p_e = 1/(2-1) (0.8*0.2 + 0.2*0.8) = 0.32;
    AC1 = (0.8 - 0.32)/(1 - 0.32) = 12/17.

    AC2, q = 3 grades, quadratic weights w = 1 - (k-l)^2/4 (1, .75, 0), T_w = 3 + 4*.75 = 6;
    units (A, B) = (0,0), (1,2), (2,2), (0,2): p_a,i = w(A_i, B_i) for two raters =
    1, .75, 1, 0 -> p_a = 2.75/4 = 0.6875; pi = ((1 + 0 + 0 + .5), (0 + .5 + 0 + 0),
    (0 + .5 + 1 + .5))/4 = (.375, .125, .5); sum pi(1-pi) = .234375 + .109375 + .25 =
    .59375; p_e = 6/(3*2) * .59375 = .59375; AC2 = .09375/.40625 = 3/13.
    """
    r = _quiet(*_sets([1] * 8 + [0, 0], [1] * 7 + [0, 1, 0]))
    assert r.statistics["ac1"].value == pytest.approx(12 / 17, abs=1e-15)
    r = _quiet(*_sets((0, 1, 2, 0), (0, 2, 2, 2)))
    assert r.statistics["ac2"].value == pytest.approx(3 / 13, abs=1e-15)


def _gwet_brute(cols, weighted, query_of):
    """Gwet's AC1/AC2 straight from the formulas, unit by unit: p_a over the units that at
    least two sets judge, pi_k over the units judged at all (of the queries that have a unit
    judged twice); q = the grades from the smallest to the largest."""
    n = len(cols[0])
    units = {u: [c[u] for c in cols if c[u] is not None] for u in range(n)}
    queries = {query_of(u) for u, vs in units.items() if len(vs) >= 2}
    rated = [vs for u, vs in units.items() if vs and query_of(u) in queries]
    twice = [vs for vs in rated if len(vs) >= 2]
    cats = list(range(min(min(u) for u in rated), max(max(u) for u in rated) + 1))
    q = len(cats)
    if q < 2:
        return float("nan")

    def w(k, l):
        return (1 - (k - l) ** 2 / (q - 1) ** 2) if weighted else float(k == l)

    pa = 0.0
    for u in twice:
        r = len(u)
        for k in cats:
            rstar = sum(w(k, l) * u.count(l) for l in cats)
            pa += u.count(k) * (rstar - 1) / (r * (r - 1))
    pa /= len(twice)
    pi = {k: sum(u.count(k) / len(u) for u in rated) / len(rated) for k in cats}
    tw = sum(w(k, l) for k in cats for l in cats)
    pe = tw / (q * (q - 1)) * sum(pi[k] * (1 - pi[k]) for k in cats)
    return float("nan") if pe == 1 else (pa - pe) / (1 - pe)


@settings(max_examples=120, deadline=None)
@given(_reliability())
def test_gwet_brute_force(cols):
    if sum(sum(c[u] is not None for c in cols) >= 2 for u in range(len(cols[0]))) == 0:
        return
    r = _quiet(*_sets(*cols, query_of=lambda u: f"q{u % 4}"))
    for name, weighted in (("ac1", False), ("ac2", True)):
        want = _gwet_brute(cols, weighted, lambda u: f"q{u % 4}")
        got = r.statistics[name].value
        if math.isnan(want):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(want, abs=1e-9), name


@settings(max_examples=80, deadline=None)
@given(_reliability())
def test_gwet_equals_irrcac(cols):
    """irrCAC (a Python port of Gwet's R package irrCAC) on the same ratings, one query,
    with the categories from the smallest to the largest grade.  Not in the test extra: its
    metadata pins scipy==1.12 (which takes numpy below 2); install it with
    ``pip install --no-deps irrcac``."""
    import pandas as pd

    cac = pytest.importorskip(
        "irrCAC.raw", reason="irrcac not installed: pip install --no-deps irrcac"
    )
    CAC = cac.CAC

    if sum(sum(c[u] is not None for c in cols) >= 2 for u in range(len(cols[0]))) == 0:
        return
    r = _quiet(*_sets(*cols))
    rated = [u for u in range(len(cols[0])) if any(c[u] is not None for c in cols)]
    if len(rated) < 2:  # irrCAC's variance divides by the number of units - 1
        return
    frame = pd.DataFrame(
        {f"s{i}": [np.nan if c[u] is None else c[u] for u in rated] for i, c in enumerate(cols)}
    )
    grades = [g for c in cols for g in c if g is not None]
    cats = list(range(min(grades), max(grades) + 1))
    for name, weights in (("ac1", "identity"), ("ac2", "quadratic")):
        got = r.statistics[name].value
        if len(cats) < 2:
            assert math.isnan(got)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = CAC(frame, weights=weights, categories=cats, digits=15).gwet()["est"]
        want = want["coefficient_value"]
        assert got == pytest.approx(want, abs=1e-9), name


def test_gwet_paper_example_with_missing_values():
    """Krippendorff's 4 x 12 data through irrCAC: AC1 0.77544 (5 decimals, its default); unit
    12, judged once, counts in pi_k (without it, 0.77515)."""
    r = _quiet(*_sets(*_K))
    assert round(r.statistics["ac1"].value, 5) == 0.77544
