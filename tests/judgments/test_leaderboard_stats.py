"""Leaderboard agreement (issue 28 part 2): every statistic against scipy, ircor's vectors or a
brute-force count, the means against the trec_eval oracle, the verdicts against compare()."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import stats
from test_compare_agreement import IRCOR

import cranfield
import oracle_trec as oracle
from cranfield.errors import DataWarning, ParameterError, UndefinedMeasureWarning
from cranfield.judgments.leaderboard_runs import leaderboards
from cranfield.judgments.leaderboard_stats import STATISTICS, rank_statistics


def _brute(x, y, k):
    """Swaps, ranks, the largest rank change and the top-k set, by loops over the items."""
    n = len(x)
    swaps = sum(
        1 for i, j in itertools.combinations(range(n), 2) if (x[i] - x[j]) * (y[i] - y[j]) < 0
    )
    ra = [1 + sum(1 for j in range(n) if x[j] > x[i]) for i in range(n)]
    rb = [1 + sum(1 for j in range(n) if y[j] > y[i]) for i in range(n)]
    change = [abs(rb[i] - ra[i]) for i in range(n)]
    moved = change.index(max(change))  # the first run on a tie
    top = [i for i in range(n) if ra[i] <= k or rb[i] <= k]
    return swaps, ra, rb, moved, top


def _tau_ap_b_brute(x, y):
    """Urbano & Marrero (2017) eq. (9)-(10) by loops: for each direction, over the items i
    with some item strictly above them in the ranking read (A(i) > 0), C(i) = the items
    strictly above i in both rankings."""

    def direction(rank_by, other):
        terms = []
        for i in range(len(rank_by)):
            above = [j for j in range(len(rank_by)) if rank_by[j] > rank_by[i]]
            if above:
                c = sum(1 for j in above if other[j] > other[i])
                terms.append(c / len(above))
        return 2 * sum(terms) / len(terms) - 1

    return (direction(y, x) + direction(x, y)) / 2


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [1, 3, 10])
def test_rank_statistics_equal_scipy_and_brute_force(seed, k):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 30))
    # coarse values: many ties within and between the two leaderboards
    x = rng.integers(0, 6, n) / 5
    y = np.where(rng.random(n) < 0.6, x, rng.integers(0, 6, n) / 5)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        x[0], y[0] = 2.0, 2.0
    st = rank_statistics(x, y, k=k)
    assert st.tau_b == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    assert st.spearman == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    assert st.pearson == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)
    assert st.tau_ap_b == pytest.approx(_tau_ap_b_brute(x, y), abs=1e-12)
    swaps, ra, rb, moved, top = _brute(x, y, k)
    assert st.swaps == swaps
    assert st.pairs == n * (n - 1) // 2
    assert (st.moved, st.rank_a, st.rank_b) == (moved, ra[moved], rb[moved])
    assert st.top_runs == len(top)
    xt, yt = x[top], y[top]
    if len(top) < 2 or np.ptp(xt) == 0 or np.ptp(yt) == 0:
        assert math.isnan(st.top_k_tau)
    else:
        assert st.top_k_tau == pytest.approx(stats.kendalltau(xt, yt).statistic, abs=1e-12)


@pytest.mark.parametrize("name", list(IRCOR))
def test_tau_ap_b_equals_ircor(name):
    """Urbano's R package ircor's values (the project's test vectors for tau_AP_b)."""
    v = IRCOR[name]
    assert rank_statistics(v["x"], v["y"]).tau_ap_b == pytest.approx(v["tau_ap_b"], abs=5e-5)
    ties = rank_statistics(v["x_ties"], v["y_ties"]).tau_ap_b
    assert ties == pytest.approx(v["tau_ap_b_ties"], abs=5e-5)


def test_undefined_statistics_are_nan():
    st = rank_statistics([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])
    assert all(math.isnan(v) for v in (st.tau_b, st.tau_ap_b, st.spearman, st.pearson))
    assert st.swaps == 0  # a pair tied under A is no swap
    one = rank_statistics([0.5], [0.1])
    assert math.isnan(one.tau_b) and one.pairs == 0
    undefined = rank_statistics([0.5, float("nan"), 0.2], [0.1, 0.2, 0.3])
    assert math.isnan(undefined.tau_b) and math.isnan(undefined.tau_ap_b)
    assert (undefined.swaps, undefined.moved) == (0, None)


def test_every_statistic_is_declared():
    for name, (what, formula, _source) in STATISTICS.items():
        assert what and formula, name
    assert {"tau_b", "tau_ap_b", "spearman", "pearson", "top_k_tau", "swaps"} <= set(STATISTICS)


# ------------------------------------------------------------------------ end to end
def _collection(seed=3, queries=12, docs=25, runs=7):
    rng = np.random.default_rng(seed)
    human = {
        f"q{q}": {f"d{d}": int(rng.choice(4, p=[0.5, 0.2, 0.2, 0.1])) for d in range(docs)}
        for q in range(queries)
    }
    # a binary "LLM" set judging a subset, with disagreements, and one query fewer
    llm = {
        q: {d: int((g >= 2) != (rng.random() < 0.2)) for d, g in v.items() if rng.random() < 0.8}
        for q, v in human.items()
    }
    del llm["q0"]
    rr = {
        f"r{i}": {
            f"q{q}": {
                f"d{d}": round(float(rng.random() + 0.05 * i * (d % 3)), 4) for d in range(docs)
            }
            for q in range(queries)
        }
        for i in range(runs)
    }
    return human, llm, rr


def _oracle_means(qrels, runs, queries, rel=1, measure=lambda t: t.map()):
    q = {k: v for k, v in qrels.items() if k in queries}
    out = []
    for run in runs.values():
        rd = {k: list(v.items()) for k, v in run.items() if k in queries}
        _, m = oracle.evaluate(q, rd, measure, rel_level=rel, complete=True)
        out.append(m)
    return np.array(out)


@pytest.mark.parametrize("rel", [1, 2])
def test_means_are_the_oracle_means_over_the_common_queries(rel):
    """Each set read with its own grades and the same -l: at rel=2 the binary set has no
    relevant document, every AP is 0 there and the correlations are undefined."""
    human, llm, runs = _collection()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = leaderboards({"human": human, "llm": llm}, runs, ["AP", "nDCG@5"], rel=rel, jobs=1)
    said = [str(w.message) for w in caught if issubclass(w.category, DataWarning)]
    assert any("11 queries judged in every set; left out: 1 of human's 12" in m for m in said)
    common = set(llm)
    assert res.queries == {"human": 11, "llm": 11}
    for s, qrels in enumerate((human, llm)):
        np.testing.assert_allclose(res.means["AP"][s], _oracle_means(qrels, runs, common, rel))
        ndcg = _oracle_means(qrels, runs, common, rel, lambda t: t.ndcg_cut(5))
        np.testing.assert_allclose(res.means["nDCG@5"][s], ndcg)
    row = res.rows[0]
    x, y = res.means["AP"]
    if rel == 2:
        assert not y.any() and math.isnan(row.tau_b)
        assert any("every run has the same mean under llm" in m for m in said)
    else:
        assert row.tau_b == pytest.approx(stats.kendalltau(x, y).statistic)
    assert row.swaps == _brute(list(x), list(y), 10)[0]


@pytest.mark.parametrize(
    "test, correction",
    [
        *[(t, c) for t in ("t", "wilcoxon", "sign") for c in ("none", "holm")],
        ("randomization", "bh"),
        ("bootstrap", "none"),
        ("tukey", "none"),
    ],
)
def test_verdicts_are_those_of_compare(test, correction):
    human, llm, runs = _collection(seed=5, runs=6)
    common = sorted(set(llm))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = leaderboards([human, llm], runs, ["AP", "E@5"], test=test, correction=correction)
        for s, qrels in enumerate((human, llm)):
            sub = {q: qrels[q] for q in common}
            cmp = cranfield.compare(sub, runs, ["AP", "E@5"], test=test, correction=correction)
            for label in ("AP", "E@5"):
                assert res.outcomes[label][s] == [p.outcome for p in cmp.pairs[label]]
    assert res.pair_runs == [(p.a, p.b) for p in cmp.pairs["AP"]]
    for row in res.rows:
        a, b = res.outcomes[row.measure]
        assert row.tested_pairs == len(a) == 15
        x, y = res.means[row.measure]
        if row.measure == "E@5":  # lower is better: the top of the leaderboard is the least E
            x, y = -x, -y
        assert row.tau_ap_b == pytest.approx(_tau_ap_b_brute(x, y), abs=1e-12)
        assert row.same_verdict == pytest.approx(
            sum(u == v for u, v in zip(a, b, strict=True)) / len(a)
        )


def test_each_run_is_read_once(monkeypatch):
    import cranfield.io as cio

    human, llm, runs = _collection(runs=4)
    reads = []
    real = cio.read_run
    monkeypatch.setattr(cio, "read_run", lambda src, *a, **k: reads.append(1) or real(src, *a, **k))
    third = {q: dict(v) for q, v in llm.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = leaderboards([human, llm, third], runs, ["AP"], pairs="all", jobs=1)
    assert len(reads) == 4
    assert [(r.a, r.b) for r in res.rows] == [
        ("qrels1", "qrels2"),
        ("qrels1", "qrels3"),
        ("qrels2", "qrels3"),
    ]
    # identical sets: identical leaderboards
    assert res.rows[2].tau_b == 1.0 and res.rows[2].swaps == 0 and res.rows[2].same_verdict == 1


def test_one_set_one_run_and_constant_means_warn_and_give_nan():
    human, llm, runs = _collection(runs=3)
    with pytest.warns(DataWarning, match="one judgment set"):
        res = leaderboards([human], runs, ["AP"])
    assert res.rows == [] and res.means["AP"].shape == (1, 3)
    with (
        pytest.warns(DataWarning, match="1 run: the correlations"),
        pytest.warns(DataWarning, match="the means are over the 11 queries judged in every set"),
    ):
        res = leaderboards([human, llm], {"a": runs["r0"]}, ["AP"])
    assert math.isnan(res.rows[0].tau_b) and math.isnan(res.rows[0].same_verdict)
    empty = {q: {d: 0 for d in v} for q, v in llm.items()}  # nothing relevant: every AP is 0
    with (
        pytest.warns(DataWarning, match="every run has the same mean under qrels2"),
        pytest.warns(UndefinedMeasureWarning, match="AP is undefined for 11 of 11 queries"),
        pytest.warns(DataWarning, match="the means are over the 11 queries judged in every set"),
    ):
        res = leaderboards([human, empty], runs, ["AP"])
    assert math.isnan(res.rows[0].tau_b) and math.isnan(res.rows[0].pearson)
    assert "nan" in res.table()
    assert res.to_dict()["agreement"][0]["tau_b"] is None


def test_bad_inputs_are_one_parameter_error():
    human, llm, runs = _collection(runs=3)
    other = {"x1": {"d1": 1}}
    with pytest.raises(ParameterError, match="no query is judged in every judgment set"):
        leaderboards([human, other], runs, ["AP"])
    with pytest.raises(ParameterError, match="pairs"):
        leaderboards([human, llm], runs, ["AP"], pairs="some")
    with pytest.raises(ParameterError, match="declare no direction"):
        leaderboards([human, llm], runs, ["num_ret"])
    with pytest.raises(ParameterError, match="set_names must be distinct"):
        leaderboards([human, llm], runs, ["AP"], set_names=["a", "a"])


def test_queries_each_keeps_each_sets_queries():
    human, llm, runs = _collection(runs=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        res = leaderboards([human, llm], runs, ["AP"], queries="each")
    assert res.queries == {"qrels1": 12, "qrels2": 11}
    np.testing.assert_allclose(res.means["AP"][0], _oracle_means(human, runs, set(human)))
