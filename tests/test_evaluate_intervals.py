"""``evaluate --ci``: the Student-t, bootstrap percentile and BCa intervals of each run's mean,
against scipy (bit for bit for the bootstrap, with the same seed and batch), their declared
values on degenerate input, and every output format."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing.intervals import batch_size, mean_interval, run_intervals
from cranfield.errors import CranfieldWarning, ParameterError


def test_t_interval_equals_scipy():
    rng = np.random.default_rng(4)
    for n in (2, 3, 10, 50, 5000):
        x = rng.random(n) ** 2
        for c in (0.5, 0.9, 0.95, 0.999):
            lo, hi = mean_interval(x, "t", confidence=c)
            ref = stats.t.interval(c, n - 1, loc=x.mean(), scale=stats.sem(x))
            assert lo == pytest.approx(ref[0], rel=1e-12, abs=1e-15)
            assert hi == pytest.approx(ref[1], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(("method", "scipy_method"), [("bootstrap", "percentile"), ("bca", "BCa")])
def test_bootstrap_intervals_equal_scipy_bit_for_bit(method, scipy_method):
    """The resamples, the jackknife, z0, a and the quantiles are scipy's, operation by
    operation: ``scipy.stats.bootstrap`` with the same seed and batch gives the same bits."""
    rng = np.random.default_rng(5)
    for n in (2, 3, 7, 50, 301, 2000):
        x = np.round(rng.random(n) ** 2, 3)  # P@k-like ties too
        for c in (0.9, 0.95):
            for samples in (999, 2500):
                ours = mean_interval(x, method, confidence=c, samples=samples, seed=11)
                ref = stats.bootstrap(
                    (x,),
                    np.mean,
                    method=scipy_method,
                    confidence_level=c,
                    n_resamples=samples,
                    batch=batch_size(n),
                    rng=np.random.default_rng(11),
                ).confidence_interval
                assert ours == (ref.low, ref.high), (n, c, samples)


def test_bca_beyond_the_exact_jackknife_agrees_with_scipy():
    from cranfield.comparing.intervals import EXACT_JACKKNIFE_QUERIES

    n = EXACT_JACKKNIFE_QUERIES + 1
    x = np.round(np.random.default_rng(6).random(n) ** 3, 4)
    ours = mean_interval(x, "bca", samples=300, seed=2)
    ref = stats.bootstrap(
        (x,), np.mean, method="BCa", n_resamples=300, batch=batch_size(n),
        rng=np.random.default_rng(2),
    ).confidence_interval  # fmt: skip
    assert ours == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_degenerate_values_give_declared_intervals_with_a_warning():
    for method in ("t", "bootstrap", "bca"):
        with pytest.warns(CranfieldWarning, match="at least 2 queries"):
            assert all(math.isnan(v) for v in mean_interval([0.3], method))
        with pytest.warns(CranfieldWarning, match="undefined"):
            assert all(math.isnan(v) for v in mean_interval([0.3, math.nan, 0.1], method))
        with pytest.warns(CranfieldWarning, match="same value"):
            assert mean_interval([0.25] * 6, method) == (0.25, 0.25)
    with pytest.raises(ParameterError, match="unknown interval"):
        mean_interval([0.1, 0.2], "normal")
    with pytest.raises(ParameterError, match="confidence"):
        mean_interval([0.1, 0.2], "t", confidence=1.5)


def test_every_run_draws_the_same_resamples():
    from test_compare_multitest import _results

    Y = np.random.default_rng(2).random((30, 3))
    alone = run_intervals(_results(Y[:, [1]], "B"), "bca", samples=500, seed=3)
    together = run_intervals(_results(Y), "bca", samples=500, seed=3)
    assert together.get("B", "AP") == alone.get("B", "AP")
    assert together.get("A", "AP") == mean_interval(Y[:, 0], "bca", samples=500, seed=3)


def _collection(tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    qrels, runs = make_collection(15, seed=8)
    return write_trec(tmp_path, qrels, runs[:2], ["a.run", "b.run"])


def test_every_output_format_shows_the_intervals(tmp_path):
    import cranfield
    from cranfield.report.results_text import render

    q, paths = _collection(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = list(cranfield.evaluate(q, paths, ["AP", "P@10", "num_ret"]))
    ci = run_intervals(res, "bootstrap", samples=300, seed=1)
    assert ci.get("a.run", "num_ret") is None  # a sum has no interval
    lo, hi = ci.get("a.run", "AP")
    assert lo < res[0].aggregate()["AP"] < hi
    table = render(res, "table", intervals=ci)
    assert "AP 95% CI" in table and f"[{lo:.4f}, {hi:.4f}]" in table
    assert "num_ret 95% CI" not in table
    for fmt in ("markdown", "latex"):
        assert f"[{lo:.4f}, {hi:.4f}]" in render(res, fmt, intervals=ci)
    rows = render(res, "csv", intervals=ci).splitlines()
    assert rows[0].split(",")[5:8] == ["AP", "AP_ci_low", "AP_ci_high"]
    assert rows[1].split(",")[6:8] == [repr(lo), repr(hi)]
    per_query = render(res, "tsv", per_query=True, intervals=ci).splitlines()
    assert per_query[1].split("\t")[7:9] == ["", ""]  # blank on the per-query rows
    d = json.loads(render(res, "json", intervals=ci))
    assert d["ci"] == {"method": "bootstrap", "confidence": 0.95, "samples": 300, "seed": 1}
    assert d["runs"][0]["intervals"] == {"AP": [lo, hi], "P@10": list(ci.get("a.run", "P@10")),
                                         "num_ret": None}  # fmt: skip
    trec = render(res, "trec", intervals=ci)
    assert f"AP_ci_low\tall\t{lo:.4f}\nAP_ci_high\tall\t{hi:.4f}\n" in trec
    # without intervals every format is what it was
    for fmt in ("table", "trec", "csv", "json", "markdown"):
        assert render(res, fmt) == render(res, fmt, intervals=None)
        assert "ci" not in render(res, fmt).replace("precision", "")


@pytest.mark.slow
def test_cli_evaluate_ci(cli, tmp_path):
    import cranfield

    q, paths = _collection(tmp_path)
    plain = cli("evaluate", q, *paths, "-m", "AP", "-f", "trec")
    assert plain.returncode == 0 and b"_ci_" not in plain.stdout
    out = cli("evaluate", q, *paths, "-m", "AP", "--ci", "bca", "--samples", "400", "-f", "json")
    assert out.returncode == 0, out.stderr.decode()
    d = json.loads(out.stdout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(q, paths, ["AP"])
    ci = run_intervals(res, "bca", samples=400, seed=0)
    assert d["runs"][1]["intervals"]["AP"] == list(ci.get("b.run", "AP"))
    again = cli("evaluate", q, *paths, "-m", "AP", "--ci", "bca", "--samples", "400", "-f", "json")
    assert again.stdout == out.stdout
    bad = cli("evaluate", q, *paths, "--ci", "normal")
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr
