"""ANOVA of runs x queries: statsmodels' anova_lm, Sakai's book (Table 5.1), elinor's sample,
margins of error and effect sizes, degenerate tables, and ``cranfield anova``."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing import anova
from cranfield.errors import CranfieldWarning, ParameterError

# Sakai, "情報アクセス評価方法論" (Corona, 2015), Table 5.1: nDCG@5 of three systems over 20
# topics (the data of elinor's test-data/sakai-book, github.com/kampersanda/elinor).
SAKAI_A = [0.70, 0.30, 0.20, 0.60, 0.40, 0.40, 0.00, 0.70, 0.10, 0.30,
           0.50, 0.40, 0.00, 0.60, 0.50, 0.30, 0.10, 0.50, 0.20, 0.10]  # fmt: skip
SAKAI_B = [0.50, 0.10, 0.00, 0.20, 0.40, 0.30, 0.00, 0.50, 0.30, 0.30,
           0.40, 0.40, 0.10, 0.40, 0.20, 0.10, 0.10, 0.60, 0.30, 0.20]  # fmt: skip
SAKAI_C = [0.00, 0.00, 0.20, 0.10, 0.30, 0.30, 0.10, 0.20, 0.40, 0.40,
           0.40, 0.30, 0.30, 0.20, 0.20, 0.20, 0.10, 0.50, 0.40, 0.30]  # fmt: skip
SAKAI = np.column_stack([SAKAI_A, SAKAI_B, SAKAI_C])

# elinor's test-data/sample/pred_{1,2,3}.csv, precision@3 of three systems over 8 queries
THIRD, TWO = 1 / 3, 2 / 3
ELINOR_P3 = np.array(
    [
        [TWO, 0.0, THIRD],
        [TWO, THIRD, THIRD],
        [TWO, TWO, THIRD],
        [TWO, 0.0, TWO],
        [THIRD, THIRD, THIRD],
        [TWO, THIRD, TWO],
        [THIRD, THIRD, 0.0],
        [TWO, THIRD, TWO],
    ]
)


def _long(Y: np.ndarray):
    pd = pytest.importorskip("pandas")
    n, m = Y.shape
    return pd.DataFrame(
        {
            "y": Y.ravel(),
            "query": np.repeat([f"q{i}" for i in range(n)], m),
            "run": np.tile([f"r{j}" for j in range(m)], n),
        }
    )


def _anova_lm(Y: np.ndarray, formula: str):
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    return anova_lm(smf.ols(formula, data=_long(Y)).fit())


@pytest.mark.parametrize(("n", "m", "seed"), [(20, 3, 1), (50, 8, 2), (7, 2, 3), (3, 12, 4)])
def test_two_way_anova_equals_statsmodels_anova_lm(n, m, seed):
    rng = np.random.default_rng(seed)
    Y = np.clip(rng.random((n, m)) * 0.6 + rng.random((n, 1)) * 0.4 + np.linspace(0, 0.2, m), 0, 1)
    ref = _anova_lm(Y, "y ~ C(run) + C(query)")
    a = anova(Y)
    for source, row in (("runs", "C(run)"), ("queries", "C(query)"), ("residual", "Residual")):
        got = a.row(source)
        assert got.df == int(ref.loc[row, "df"])
        assert got.ss == pytest.approx(ref.loc[row, "sum_sq"], rel=1e-9)
        assert got.ms == pytest.approx(ref.loc[row, "mean_sq"], rel=1e-9)
        if source != "residual":
            assert got.f == pytest.approx(ref.loc[row, "F"], rel=1e-9)
            assert got.p == pytest.approx(ref.loc[row, "PR(>F)"], rel=1e-7, abs=1e-300)
    assert a.row("total").ss == pytest.approx(ref["sum_sq"].sum(), rel=1e-9)
    assert a.residual_variance == pytest.approx(ref.loc["Residual", "mean_sq"], rel=1e-9)


@pytest.mark.parametrize(("n", "m", "seed"), [(20, 3, 5), (9, 6, 6)])
def test_one_way_anova_equals_statsmodels_anova_lm(n, m, seed):
    Y = np.random.default_rng(seed).random((n, m))
    ref = _anova_lm(Y, "y ~ C(run)")
    a = anova(Y, design="one-way")
    assert [r.source for r in a.rows] == ["runs", "residual", "total"]
    for source, row in (("runs", "C(run)"), ("residual", "Residual")):
        got = a.row(source)
        assert got.df == int(ref.loc[row, "df"])
        assert got.ss == pytest.approx(ref.loc[row, "sum_sq"], rel=1e-9)
    assert a.row("runs").f == pytest.approx(ref.loc["C(run)", "F"], rel=1e-9)
    assert a.row("runs").p == pytest.approx(ref.loc["C(run)", "PR(>F)"], rel=1e-7)
    # scipy's one-way ANOVA over the runs as groups agrees too
    assert a.row("runs").f == pytest.approx(stats.f_oneway(*Y.T).statistic, rel=1e-9)


def test_sakai_book_table_5_1():
    """The two-way ANOVA, margin of error and effect sizes of Sakai's worked example, to the
    decimals the book prints (as elinor's tests transcribe them)."""
    a = anova(SAKAI, runs="ABC")
    r, q, e = a.row("runs"), a.row("queries"), a.row("residual")
    assert (round(r.ss, 4), round(q.ss, 4), round(e.ss, 4)) == (0.1083, 1.0293, 0.8317)
    assert (round(r.ms, 4), round(q.ms, 4), round(e.ms, 4)) == (0.0542, 0.0542, 0.0219)
    assert (r.df, q.df, e.df) == (2, 19, 38)
    assert (round(r.f, 3), round(q.f, 3)) == (2.475, 2.475)
    assert (round(r.p, 3), round(q.p, 3)) == (0.098, 0.009)
    assert round(a.moe, 4) == 0.0670
    es = (a.effect_size("A", "B"), a.effect_size("A", "C"), a.effect_size("B", "C"))
    assert tuple(round(x, 4) for x in es) == (0.5070, 0.6760, 0.1690)
    assert a.effect_size("B", "A") == -a.effect_size("A", "B")


def test_elinor_sample_precision_at_3():
    """elinor-compare's output on its sample data (elinor-cli/README.md), 4 decimals."""
    a = anova(ELINOR_P3, runs=["System_1", "System_2", "System_3"])
    rows = [(round(x.ss, 4), x.df, round(x.ms, 4)) for x in a.rows[:3]]
    assert rows == [(0.3426, 2, 0.1713), (0.3287, 7, 0.0470), (0.5463, 14, 0.0390)]
    assert (round(a.row("runs").f, 4), round(a.row("runs").p, 4)) == (4.3898, 0.0331)
    assert (round(a.row("queries").f, 4), round(a.row("queries").p, 4)) == (1.2034, 0.3623)
    assert round(a.moe, 4) == 0.1498
    assert round(a.effect_size("System_1", "System_2"), 4) == 1.4765
    assert round(a.effect_size("System_1", "System_3"), 4) == 0.8437
    assert round(a.effect_size("System_2", "System_3"), 4) == -0.6328


def test_moe_and_effect_sizes_by_hand():
    rng = np.random.default_rng(9)
    Y = rng.random((15, 4))
    rows = Y.tolist()
    n, m = 15, 4
    grand = sum(map(sum, rows)) / (n * m)
    rmean = [sum(r[j] for r in rows) / n for j in range(m)]
    qmean = [sum(r) / m for r in rows]
    for design, df_e in (("two-way", (n - 1) * (m - 1)), ("one-way", m * (n - 1))):
        if design == "two-way":
            ss = sum(
                (rows[i][j] - rmean[j] - qmean[i] + grand) ** 2 for i in range(n) for j in range(m)
            )
        else:
            ss = sum((rows[i][j] - rmean[j]) ** 2 for i in range(n) for j in range(m))
        v_e = ss / df_e
        a = anova(Y, design=design, alpha=0.1)
        assert a.residual_df == df_e
        assert a.moe == pytest.approx(stats.t.ppf(0.95, df_e) * math.sqrt(v_e / n), rel=1e-12)
        for i in range(m):
            lo, hi = a.interval(a.runs[i])
            assert (lo + hi) / 2 == pytest.approx(rmean[i], rel=1e-12)
            for j in range(m):
                want = (rmean[i] - rmean[j]) / math.sqrt(v_e)
                assert a.effect[i, j] == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_degenerate_tables_give_declared_values_and_warn():
    # one query: no residual degrees of freedom
    with pytest.warns(CranfieldWarning, match="no residual degrees of freedom"):
        a = anova([[0.2, 0.5, 0.1]])
    assert math.isnan(a.row("runs").p) and math.isnan(a.moe)
    assert a.to_dict()["moe"] is None
    # identical runs, and queries that differ only by a constant: nothing is left over
    with pytest.warns(CranfieldWarning, match="no residual variation"):
        a = anova(np.tile([[0.1], [0.7], [0.4]], (1, 3)))
    assert (a.row("runs").f, a.row("runs").p) == (0.0, 1.0)
    assert (a.row("queries").f, a.row("queries").p) == (math.inf, 0.0)
    assert a.moe == 0.0 and (a.effect == 0).all()
    # every query moved by the same amount: residual 0, runs differ
    with pytest.warns(CranfieldWarning, match="no residual variation"):
        a = anova(np.array([[0.1, 0.3], [0.5, 0.7], [0.2, 0.4]]))
    assert (a.row("runs").f, a.row("runs").p) == (math.inf, 0.0)
    assert a.effect_size("run1", "run2") == -math.inf
    # identical runs with varying residual: F = 0, p = 1 for the runs, no warning
    Y = np.random.default_rng(1).random((6, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = anova(np.hstack([Y, Y, Y]), design="one-way")
    assert a.row("runs").p == 1.0
    # the same p at any scale (values are rescaled by a power of two), up to 1e300; values
    # within 1e-12 of each other are ties by the rule of every test (docs/compare.md)
    for scale in (2.0**-20, 1.0, 1e300):
        b = anova(SAKAI * scale)
        assert b.row("runs").p == pytest.approx(anova(SAKAI).row("runs").p, rel=1e-9)
    with pytest.warns(CranfieldWarning, match="no residual variation"):
        assert anova(SAKAI * 1e-300).row("runs").p == 1.0
    with pytest.raises(ParameterError, match="2 runs"):
        anova([[0.1], [0.2]])
    with pytest.raises(ParameterError, match="finite"):
        anova([[0.1, math.nan], [0.2, 0.3]])
    with pytest.raises(ParameterError, match="design"):
        anova(SAKAI, design="three-way")


def test_tukey_takes_its_error_term_from_the_anova():
    from cranfield.comparing import tukey_hsd

    assert tukey_hsd(SAKAI).mse == anova(SAKAI).residual_variance


@pytest.mark.slow
def test_cli_anova_matches_the_api(cli, tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    import cranfield

    qrels, runs = make_collection(12, seed=5)
    q, paths = write_trec(tmp_path, qrels, runs, ["a.run", "b.run", "c.run"])
    out = cli("anova", q, *paths, "-m", "AP", "-m", "P@10", "--format", "json")
    assert out.returncode == 0, out.stderr.decode()
    d = json.loads(out.stdout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = cranfield.compare(q, paths, ["AP", "P@10"])
    for label in ("AP", "P@10"):
        assert d["measures"][label] == json.loads(json.dumps(cmp.anova(label).to_dict()))
    text = cli("anova", q, *paths, "-m", "AP", "--design", "one-way")
    assert text.returncode == 0 and "one-way ANOVA" in text.stdout.decode()
    assert "MOE = t(0.025; 33)" in text.stdout.decode()
    bad = cli("anova", q, *paths, "--design", "3-way")
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr
