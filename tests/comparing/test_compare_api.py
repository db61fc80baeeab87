"""compare(): the API over evaluated results, its rules and its renderings."""

from __future__ import annotations

import json
import warnings
from itertools import combinations

import numpy as np
import pytest
from scipy import stats

import cranfield
from cranfield.comparing import adjust
from cranfield.errors import CranfieldWarning, DataWarning, ParameterError

MEASURES = ["AP", "P@10", "nDCG@10", "RR"]

# RR of runs B and C is 1 on every query: their superiority is undefined (warned, tested below)
pytestmark = pytest.mark.filterwarnings(
    "ignore:compare. for 1 pair:cranfield.errors.CranfieldWarning"
)


def make_collection(n_queries: int = 25, seed: int = 0):
    """Qrels and three runs of increasing quality (dicts)."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, [{}, {}, {}]
    for q in range(1, n_queries + 1):
        qid = f"q{q}"
        rel = {f"d{d}": int(rng.random() < 0.25) + int(rng.random() < 0.1) for d in range(40)}
        qrels[qid] = rel
        for k, run in enumerate(runs):
            run[qid] = {
                d: float(rng.random() + 0.35 * k * g) for d, g in rel.items() if rng.random() < 0.9
            }
    return qrels, runs


@pytest.fixture(scope="module")
def collection():
    return make_collection()


@pytest.fixture(scope="module")
def evaluated(collection):
    qrels, runs = collection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return cranfield.evaluate(qrels, runs, MEASURES, complete=True, names=["A", "B", "C"])


def test_json_shape_and_values_follow_the_issue(evaluated):
    c = cranfield.compare(evaluated, test="t", correction="holm")
    d = json.loads(c.table("json"))
    assert set(d["measures"]) == set(MEASURES)
    for label in MEASURES:
        block = d["measures"][label]
        means = evaluated.aggregate()
        assert block["means"] == {r: pytest.approx(means[r][label], rel=1e-15) for r in "ABC"}
        assert [(p["a"], p["b"]) for p in block["pairs"]] == [("A", "B"), ("A", "C"), ("B", "C")]
        raw = []
        for p in block["pairs"]:
            assert {
                "a",
                "b",
                "mean_diff",
                "p_value",
                "p_adjusted",
                "wins",
                "losses",
                "ties",
                "superiority",
            } <= set(p)
            va = evaluated[p["a"]].column(label)
            vb = evaluated[p["b"]].column(label)
            assert p["mean_diff"] == pytest.approx(block["means"][p["b"]] - block["means"][p["a"]])
            wins = sum(1 for x, y in zip(va, vb, strict=True) if y > x)
            losses = sum(1 for x, y in zip(va, vb, strict=True) if y < x)
            assert (p["wins"], p["losses"], p["ties"]) == (wins, losses, len(va) - wins - losses)
            sup = 100 * (wins - losses) / (wins + losses) if wins + losses else 0.0
            assert p["superiority"] == pytest.approx(sup)
            if wins + losses:
                assert p["p_value"] == pytest.approx(stats.ttest_rel(vb, va).pvalue, rel=1e-12)
            else:  # scipy gives NaN for identical samples; the declared value is 1
                assert p["p_value"] == 1.0
            raw.append(p["p_value"])
        assert [p["p_adjusted"] for p in block["pairs"]] == pytest.approx(
            adjust(raw, "holm").tolist()
        )


def test_every_test_runs_through_compare(evaluated):
    for test in ("t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"):
        c = cranfield.compare(evaluated, ["AP"], test=test, permutations=500)
        assert len(c.pairs["AP"]) == 3
        for p in c.pairs["AP"]:
            assert 0.0 <= p.p_value <= 1.0
            assert p.ci_low <= p.mean_diff + 1e-12 and p.mean_diff - 1e-12 <= p.ci_high


def test_markers_name_the_runs_a_run_beats(evaluated):
    c = cranfield.compare(evaluated, ["AP"])
    for p in c.pairs["AP"]:
        assert p.significant == (p.p_adjusted < 0.05)
    marks = c.markers("AP")
    letters = c.letters
    for p in c.pairs["AP"]:
        if p.outcome == "b":
            assert letters[p.a] in marks[p.b]
        elif p.outcome == "a":
            assert letters[p.b] in marks[p.a]
    # the test collection is built so that C beats A clearly
    assert c.pair("AP", "A", "C").outcome == "b" and "a" in marks["C"]
    latex = c.table("latex")
    assert "$^{" + marks["C"] + "}$" in latex
    md = c.table("markdown")
    assert f"<sup>{marks['C']}</sup>" in md


def test_baseline_compares_each_run_with_the_baseline(evaluated):
    c = cranfield.compare(evaluated, ["AP", "RR"], baseline="B", correction="bonferroni")
    assert [(p.a, p.b) for p in c.pairs["AP"]] == [("B", "A"), ("B", "C")]
    t = cranfield.compare(evaluated, ["AP"], baseline="B", test="t")
    for p, q in zip(c.pairs["AP"], t.pairs["AP"], strict=True):
        assert p.p_adjusted == pytest.approx(min(1.0, 2 * q.p_value))
    with pytest.raises(ParameterError, match="baseline 'Z'"):
        cranfield.compare(evaluated, ["AP"], baseline="Z")


def test_queries_missing_from_a_run_follow_the_documented_rule(collection):
    qrels, runs = collection
    partial = {q: v for q, v in runs[1].items() if q not in ("q3", "q7")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        plain = cranfield.evaluate(
            qrels, [runs[0], partial], ["AP"], names=["A", "B"], complete=False
        )
        default = cranfield.evaluate(qrels, [runs[0], partial], ["AP"], names=["A", "B"])
    # evaluated by default: every judged query, as compare(qrels, runs) below
    assert len(cranfield.compare(default).query_ids["AP"]) == 25
    # evaluated without complete: only the queries of every run, with a warning
    with pytest.warns(DataWarning, match="2 queries are not in every run"):
        c = cranfield.compare(plain)
    assert len(c.query_ids["AP"]) == 23 and "q3" not in c.query_ids["AP"]
    with pytest.raises(ParameterError, match="not in every run"):
        cranfield.compare(plain, missing="error")
    # compare(qrels, runs) scores them as empty rankings: every judged query counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        full = cranfield.compare(qrels, [runs[0], partial], ["AP"], names=["A", "B"])
    assert len(full.query_ids["AP"]) == 25
    i = full.query_ids["AP"].index("q3")
    assert full.values["AP"][i, 1] == 0.0


def test_randomized_tests_are_reproducible(evaluated):
    a = cranfield.compare(evaluated, test="randomization", permutations=2000, seed=4)
    b = cranfield.compare(evaluated, test="randomization", permutations=2000, seed=4)
    assert a.table("json") == b.table("json")
    c = cranfield.compare(evaluated, test="bootstrap", permutations=2000, seed=4)
    d = cranfield.compare(evaluated, test="bootstrap", permutations=2000, seed=4)
    assert c.table("csv") == d.table("csv")
    assert json.loads(c.table("json"))["seed"] == 4


def test_agreement_and_correlations(evaluated):
    c = cranfield.compare(evaluated, MEASURES)
    rows = c.agreement()
    assert sum(r.count for r in rows) == 3
    out = c.outcomes()
    for r in rows:
        k = sum(1 for i in range(3) if tuple(out[m][i] for m in MEASURES) == r.outcomes)
        assert k == r.count
    for m1, m2 in combinations(MEASURES, 2):
        x = [c.means[m1][r] for r in "ABC"]
        y = [c.means[m2][r] for r in "ABC"]
        assert c.correlation(m1, m2) == pytest.approx(stats.kendalltau(x, y).statistic)
    d = c.to_dict()
    assert len(d["agreement"]) == len(rows) and len(d["correlations"]) == 6


def test_sweep_of_cutoffs(collection):
    qrels, runs = collection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        c = cranfield.compare(qrels, runs, ["AP"], sweep="P@5,10,20", names=["A", "B", "C"])
        ev = cranfield.evaluate(qrels, runs, ["P@5", "P@10", "P@20"], complete=True)
    (s,) = c.sweeps
    assert s.name == "P" and s.xs == (5.0, 10.0, 20.0)
    for name, r in zip("ABC", ev, strict=True):
        assert s.values[name] == pytest.approx(tuple(r.aggregate().values()), rel=1e-15)
    # a sweep from results already evaluated at several cut-offs
    c2 = cranfield.compare(ev, ["P@5"], sweep="P")
    assert c2.sweeps[0].labels == ("P@5", "P@10", "P@20")
    with pytest.raises(ParameterError, match="at least two cut-offs"):
        cranfield.compare(ev, ["P@5"], sweep="P@5")


def test_renderings(evaluated):
    c = cranfield.compare(evaluated, ["AP", "P@10"], correction="bh")
    text = c.table()
    assert "Benjamini-Hochberg FDR over 3 comparisons per measure" in text
    assert "Agreement of the measures over 3 pairs" in text
    csv = c.table("csv").splitlines()
    assert csv[0].startswith("measure,a,b,mean_a,mean_b,mean_diff,statistic,p_value")
    assert len(csv) == 1 + 2 * 3
    keen = c.table(details=["requests"])
    assert "percentages ignoring equal cases" in keen
    with pytest.raises(ParameterError, match="unknown format"):
        c.table("html")


def test_parameter_errors(evaluated):
    with pytest.raises(ParameterError, match="unknown test"):
        cranfield.compare(evaluated, test="z")
    with pytest.raises(ParameterError, match="Tukey"):
        cranfield.compare(evaluated, test="tukey", correction="holm")
    with pytest.raises(ParameterError, match="alpha"):
        cranfield.compare(evaluated, alpha=1.5)
    with pytest.raises(ParameterError, match="has no values for MAP@5"):
        cranfield.compare(evaluated, ["MAP@5"])
    with pytest.raises(ParameterError, match="at least 2 runs"):
        cranfield.compare([evaluated[0]])


def test_identical_runs_warn_about_undefined_superiority(collection):
    qrels, runs = collection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        ev = cranfield.evaluate(qrels, [runs[0], runs[0]], ["AP"], complete=True)
    with pytest.warns(CranfieldWarning, match="superiority percentage is undefined"):
        c = cranfield.compare(ev)
    p = c.pairs["AP"][0]
    assert (p.p_value, p.superiority, p.ties) == (1.0, 0.0, 25)


def test_compare_function_and_package_are_both_reachable():
    import cranfield.comparing as pkg

    assert cranfield.compare is pkg.compare and pkg.compare.__name__ == "compare"
    # the package's paired t-test, on d = b - a = (1, 2, 2, 3): mean 2, sd sqrt(2/3), n = 4
    r = pkg.t_test([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 5.0, 7.0])
    t = 2 / (np.sqrt(2 / 3) / 2)
    assert (r.test, r.n, r.direction) == ("t", 4, 1)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.p_value == pytest.approx(2 * stats.t.sf(t, df=3), rel=1e-12)
