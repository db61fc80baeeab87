"""Multiple-comparison corrections and Tukey's HSD."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing import adjust, t_test, tukey_hsd
from cranfield.comparing.tukey import _quadrature_sf, studentized_range_sf
from cranfield.errors import ParameterError

# Benjamini & Hochberg (1995), sec. 4: the 15 p-values of Neuhaus et al.; at level 0.05 the
# Bonferroni procedure rejects 3 hypotheses, the Holm procedure 3 and the BH procedure 4.
BH_EXAMPLE = [
    0.0001,
    0.0004,
    0.0019,
    0.0095,
    0.0201,
    0.0278,
    0.0298,
    0.0344,
    0.0459,
    0.3240,
    0.4262,
    0.5719,
    0.6528,
    0.7590,
    1.0000,
]


def test_benjamini_hochberg_paper_example():
    p = np.array(BH_EXAMPLE)
    assert int((adjust(p, "bonferroni") <= 0.05).sum()) == 3
    assert int((adjust(p, "holm") <= 0.05).sum()) == 3
    assert int((adjust(p, "bh") <= 0.05).sum()) == 4


def _holm_rejects(p: list[float], alpha: float) -> set[int]:
    """Holm's sequential procedure as stated: reject in increasing order while
    p_(i) <= alpha / (m - i + 1)."""
    m = len(p)
    out = set()
    for i, k in enumerate(sorted(range(m), key=lambda j: (p[j], j))):
        if p[k] <= alpha / (m - i):
            out.add(k)
        else:
            break
    return out


def _bh_rejects(p: list[float], alpha: float) -> set[int]:
    """BH step-up: the largest i with p_(i) <= i alpha / m, and every smaller p."""
    m = len(p)
    order = sorted(range(m), key=lambda j: (p[j], j))
    last = 0
    for i, k in enumerate(order, 1):
        if p[k] <= i * alpha / m:
            last = i
    return set(order[:last])


def test_adjusted_p_values_reject_exactly_what_the_procedures_reject():
    rng = np.random.default_rng(2)
    for _ in range(200):
        m = int(rng.integers(1, 12))
        p = np.round(rng.random(m) ** 3, 4).tolist()
        holm = adjust(p, "holm")
        bh = adjust(p, "bh")
        bonf = adjust(p, "bonferroni")
        for alpha in (0.001, 0.01, 0.05, 0.1, 0.2):
            assert {i for i in range(m) if holm[i] <= alpha} == _holm_rejects(p, alpha)
            assert {i for i in range(m) if bh[i] <= alpha} == _bh_rejects(p, alpha)
            assert {i for i in range(m) if bonf[i] <= alpha} == {
                i for i in range(m) if p[i] * m <= alpha
            }
        assert np.all(holm >= np.array(p)) and np.all(holm <= bonf + 1e-15)
        assert np.all(bh <= holm + 1e-15)


def test_adjust_rejects_bad_input():
    with pytest.raises(ParameterError, match="unknown correction"):
        adjust([0.1], "sidak-bonferroni")
    with pytest.raises(ParameterError, match=r"\[0, 1\]"):
        adjust([1.5], "holm")
    assert adjust([0.2, 0.01], "none").tolist() == [0.2, 0.01]
    assert adjust([0.02, 0.04], "fdr_bh").tolist() == pytest.approx([0.04, 0.04])


def test_tukey_with_two_runs_is_the_paired_t_test():
    rng = np.random.default_rng(4)
    a = rng.random(30)
    b = np.clip(a + rng.normal(0.04, 0.1, 30), 0, 1)
    hsd = tukey_hsd(np.column_stack([a, b]))
    t = t_test(a, b)
    assert hsd.q[0, 1] == pytest.approx(math.sqrt(2) * abs(t.statistic), rel=1e-12)
    assert hsd.p[0, 1] == pytest.approx(t.p_value, rel=1e-12)


@pytest.mark.parametrize("df", [1, 2, 5, 30, 1000, 18753, 400_000, 9_600_000])
def test_studentized_range_with_two_groups_is_students_t(df):
    q = np.linspace(0.05, 8, 40)
    exact = 2 * stats.t.sf(q / math.sqrt(2), df)
    # k = 2 is computed through Student's t; the quadrature used for k > 2 agrees with it
    assert studentized_range_sf(q, 2, df) == pytest.approx(exact, rel=1e-12)
    assert np.abs(_quadrature_sf(q, 2, df) - exact).max() < 1e-9


@pytest.mark.parametrize("k", [3, 10, 48])
def test_studentized_range_agrees_with_scipy(k):
    # df = (n - 1)(k - 1) >= k - 1 in a runs x queries design
    for df in (k - 1, 5 * (k - 1), 400 * (k - 1), math.inf):
        q = np.linspace(0.05, 3 + 1.5 * math.log(k) * (2 if df == k - 1 else 1), 8)
        ref = stats.studentized_range.sf(q, k, df)
        assert np.abs(studentized_range_sf(q, k, df) - ref).max() < 1e-8


def test_tukey_error_term_is_the_two_way_anova_residual():
    rng = np.random.default_rng(8)
    n, k = 12, 4
    Y = rng.random((n, k))
    # brute force: residual sum of squares of the additive model, loops in plain Python
    rows = Y.tolist()
    grand = sum(map(sum, rows)) / (n * k)
    rmean = [sum(r[j] for r in rows) / n for j in range(k)]
    qmean = [sum(r) / k for r in rows]
    ss = sum((rows[i][j] - rmean[j] - qmean[i] + grand) ** 2 for i in range(n) for j in range(k))
    mse = ss / ((n - 1) * (k - 1))
    hsd = tukey_hsd(Y)
    assert hsd.mse == pytest.approx(mse, rel=1e-12)
    assert hsd.df == (n - 1) * (k - 1)
    for j in range(k):
        for m in range(k):
            if j != m:
                q = abs(rmean[j] - rmean[m]) / math.sqrt(mse / n)
                assert hsd.q[j, m] == pytest.approx(q, rel=1e-12)
                assert hsd.p[j, m] == pytest.approx(
                    stats.studentized_range.sf(q, k, (n - 1) * (k - 1)), rel=1e-9
                )
    # adding a per-query constant (query difficulty) changes nothing: the design is blocked
    shifted = tukey_hsd(Y + rng.random((n, 1)) * 5)
    assert shifted.p == pytest.approx(hsd.p, rel=1e-9)


def test_tukey_rejects_too_small_tables():
    with pytest.raises(ParameterError, match="2 runs"):
        tukey_hsd(np.zeros((5, 1)))
    with pytest.raises(ParameterError, match="2 queries"):
        tukey_hsd(np.zeros((1, 3)))
