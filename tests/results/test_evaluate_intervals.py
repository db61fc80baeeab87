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
    from cranfield.render.results_text import render

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


# -- the Python API, the notebook display and the report -----------------------------------

MEASURES = ["AP", "P@10", "num_ret"]


@pytest.fixture(scope="module")
def dict_collection():
    from test_compare_api import make_collection

    qrels, runs = make_collection(15, seed=8)
    return qrels, dict(zip(["a", "b", "c"], runs, strict=True))


def _evaluate(qrels, runs, measures=MEASURES, **kw):
    import cranfield

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(qrels, runs, measures, complete=True, **kw)


def test_evaluate_ci_keeps_the_intervals_of_run_intervals(dict_collection):
    """``evaluate(..., ci=)``: each Results carries run_intervals' values (and, for one case,
    scipy's own BCa interval, bit for bit); ``to_frame`` and ``to_dict`` show them; without
    ``ci`` nothing changes."""
    qrels, runs = dict_collection
    plain = _evaluate(qrels, runs)
    res = _evaluate(qrels, runs, ci="bca", samples=400, seed=3)
    want = run_intervals(plain, "bca", samples=400, seed=3)
    for r in res:
        for label in MEASURES:
            assert r.intervals.get(r.run, label) == want.get(r.run, label), (r.run, label)
    x = plain["b"].column("AP")
    ref = stats.bootstrap(
        (x,), np.mean, method="BCa", n_resamples=400, batch=batch_size(len(x)),
        rng=np.random.default_rng(3),
    ).confidence_interval  # fmt: skip
    assert res["b"].intervals.get("b", "AP") == (ref.low, ref.high)
    assert res["a"].intervals.get("a", "AP") != res["b"].intervals.get("b", "AP")
    frame = res.to_frame()
    assert list(frame.columns) == [
        "run", "measure", "aggregation", "value", "queries", "ci_low", "ci_high",
    ]  # fmt: skip
    row = frame[(frame.run == "c") & (frame.measure == "P@10")].iloc[0]
    assert (row.ci_low, row.ci_high) == want.get("c", "P@10")
    num_ret = frame[frame.measure == "num_ret"]
    assert num_ret.ci_low.isna().all() and num_ret.ci_high.isna().all()  # a sum has none
    assert list(res["a"].to_frame().ci_low[:2]) == [want.get("a", m)[0] for m in MEASURES[:2]]
    d = res["a"].to_dict()["intervals"]
    assert d == {"AP": list(want.get("a", "AP")), "P@10": list(want.get("a", "P@10")),
                 "num_ret": None}  # fmt: skip
    assert "ci_low" not in plain.to_frame().columns and "intervals" not in plain[0].to_dict()
    assert plain[0].intervals is None


def test_evaluate_ci_t_equals_scipy_and_its_seed_defaults_to_0(dict_collection):
    qrels, runs = dict_collection
    res = _evaluate(qrels, runs, ["AP"], ci="t", confidence=0.9)
    x = res["c"].column("AP")
    ref = stats.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert res["c"].intervals.get("c", "AP") == pytest.approx(ref, rel=1e-12)
    one = _evaluate(qrels, {"b": runs["b"]}, ["AP"], ci="bootstrap", samples=300)
    assert one.intervals.get("b", "AP") == one["b"].intervals.get("b", "AP")
    assert one.intervals.get("b", "AP") == mean_interval(
        res["b"].column("AP"), "bootstrap", samples=300, seed=0
    )


def test_evaluate_ci_checks_its_settings_before_reading():
    import cranfield

    for kw, message in [
        ({"ci": "normal"}, "unknown interval"),
        ({"ci": "bca", "confidence": 0}, "confidence"),
        ({"ci": "bca", "samples": 0}, "samples"),
        ({"ci": "bca", "seed": -1}, "seed"),
    ]:
        with pytest.raises(ParameterError, match=message):
            cranfield.evaluate("/no/such/qrels", "/no/such/run", "AP", **kw)


def _cells(html: str) -> tuple[dict[tuple[str, str], dict[str, str]], list[str]]:
    """The notebook fragment's table, by (run, measure): the texts of the mean and the
    interval of each cell; and the texts of its paragraphs."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    head = [th.get_text() for th in soup.find("thead").find_all("th")]
    out = {}
    for tr in soup.find("tbody").find_all("tr"):
        tds = tr.find_all("td")
        for name, td in zip(head[2:], tds[2:], strict=True):
            ci = td.find("span", class_="ci")
            out[(tds[0].get_text(), name)] = {
                "mean": td.find("span", class_="mean").get_text(),
                "ci": None if ci is None else ci.get_text(),
            }
    return out, [p.get_text() for p in soup.find_all("p")]


def test_notebook_display_shows_each_runs_interval(dict_collection):
    qrels, runs = dict_collection
    res = _evaluate(qrels, runs, ci="bca", samples=400, seed=3)
    want = run_intervals(_evaluate(qrels, runs), "bca", samples=400, seed=3)
    cells, notes = _cells(res._repr_html_())
    for run in runs:
        for label in ("AP", "P@10"):
            lo, hi = want.get(run, label)
            assert cells[(run, label)]["ci"] == f"[{lo:.4f}, {hi:.4f}]", (run, label)
            assert cells[(run, label)]["mean"] == f"{res[run].aggregate()[label]:.4f}"
        assert cells[(run, "num_ret")]["ci"] is None
    assert any("(95% BCa CI)" in p and "400 resamples, seed 3" in p for p in notes)
    one, notes = _cells(res["b"]._repr_html_())
    assert set(one) == {("b", m) for m in MEASURES} and one[("b", "AP")] == cells[("b", "AP")]
    plain, notes = _cells(_evaluate(qrels, runs)._repr_html_())
    assert all(c["ci"] is None for c in plain.values()) and not any("CI" in p for p in notes)


def _report(qrels, runs, measures, **kw):
    import cranfield

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.report(qrels, runs, measures, **kw)


@pytest.mark.parametrize("method", ["t", "bootstrap", "bca"])
def test_report_intervals_are_evaluate_ci_intervals(dict_collection, method):
    """The report's intervals of the means (its data and its summary table) are those of
    ``evaluate(..., ci=method)`` with confidence 1 - alpha, ``permutations`` resamples and
    the seed; the method is named in the page."""
    from _report_pages import script_data, table

    qrels, runs = dict_collection
    labels = ["AP", "P@10", "GMAP"]
    rep = _report(qrels, runs, labels, mean_ci=method, alpha=0.1, permutations=300, seed=5)
    res = _evaluate(qrels, runs, labels, ci=method, confidence=0.9, samples=300, seed=5)
    data = script_data(rep.html)
    assert data["ci"]["method"] == method and data["ci"]["confidence"] == 0.9
    if method != "t":
        assert (data["ci"]["samples"], data["ci"]["seed"]) == (300, 5)
    assert data["runs"] == list(runs)
    rows = {row[1]: row for row in table(rep.html, "summary-table")[1:]}
    for m in data["measures"]:
        if m["label"] == "GMAP":
            assert m["ci"] is None  # a geometric mean has no interval
            continue
        for run, ci in zip(data["runs"], m["ci"], strict=True):
            want = res[run].intervals.get(run, m["label"])
            assert tuple(ci) == want, (run, m["label"])
            cell = rows[run][2 + labels.index(m["label"])]
            assert f"[{want[0]:.4f}, {want[1]:.4f}]" in cell
    tag = {"t": "Student-t", "bootstrap": "bootstrap percentile", "bca": "BCa"}[method]
    assert f"[low, high] (90% {tag} CI)" in rep.html


def test_report_intervals_cover_the_compared_queries_only(dict_collection):
    """Without ``complete`` a report compares the queries every run has: each run's interval
    is evaluate(ci=)'s over those queries (the others' values left out)."""
    from _report_pages import script_data

    qrels, runs = dict_collection
    short = {**runs, "c": {q: d for q, d in runs["c"].items() if q not in ("q3", "q12")}}
    rep = _report(qrels, short, ["AP"], mean_ci="bca", permutations=300, complete=False)
    got = script_data(rep.html)["measures"][0]["ci"]
    import cranfield

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(qrels, short, ["AP"], complete=False)
    common = set(res["c"].query_ids)
    assert len(common) == 13 and len(res["a"].query_ids) == 15
    for j, run in enumerate(short):
        r = res[run]
        x = np.array([v for q, v in zip(r.query_ids, r.column("AP"), strict=True) if q in common])
        assert tuple(got[j]) == mean_interval(x, "bca", samples=300, seed=0), run


def test_report_t_interval_equals_scipy(dict_collection):
    from _report_pages import script_data

    qrels, runs = dict_collection
    data = script_data(_report(qrels, runs, ["AP"]).html)  # the default: t at 1 - alpha
    x = _evaluate(qrels, runs, ["AP"])["c"].column("AP")
    ref = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert data["ci"] == {"method": "t", "confidence": 0.95}
    assert data["measures"][0]["ci"][2] == pytest.approx(list(ref), rel=1e-12)


def test_report_mean_ci_is_checked():
    with pytest.raises(ParameterError, match="unknown interval 'normal' of the means"):
        _report("/no/such/qrels", ["/no/a", "/no/b"], "AP", mean_ci="normal")


@pytest.mark.slow
def test_cli_report_mean_ci(cli, tmp_path):
    from _report_pages import script_data

    q, paths = _collection(tmp_path)
    out = tmp_path / "r.html"
    done = cli("report", q, *paths, "-m", "AP", "--mean-ci", "bca", "--permutations", "300",
               "--seed", "4", "-o", out)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    html = out.read_text()
    ev = cli("evaluate", q, *paths, "-m", "AP", "--ci", "bca", "--samples", "300", "--seed", "4",
             "-c", "-f", "json")  # fmt: skip
    want = json.loads(ev.stdout)
    got = script_data(html)["measures"][0]["ci"]
    assert got == [r["intervals"]["AP"] for r in want["runs"]]
    assert "95% BCa CI" in html and "300 resamples, seed 4" in html
