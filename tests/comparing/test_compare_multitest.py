"""Every correction of statsmodels' multipletests, and Westfall & Young's MaxT and MinP.

The p-value corrections are checked against ``statsmodels.stats.multitest.multipletests`` on
generated p-values (ties, 0 and 1 included); MaxT and MinP against a brute-force enumeration
of every within-query arrangement, written here in plain Python from Westfall & Young's
definitions."""

from __future__ import annotations

import bisect
import itertools
import math
import statistics

import numpy as np
import pytest

from cranfield.comparing import adjust
from cranfield.comparing.corrections import CORRECTIONS
from cranfield.comparing.westfall_young import westfall_young
from cranfield.errors import ParameterError

multitest = pytest.importorskip("statsmodels.stats.multitest")

STATSMODELS = {
    "bonferroni": "bonferroni",
    "holm": "holm",
    "sidak": "sidak",
    "holm-sidak": "holm-sidak",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
    "bh": "fdr_bh",
    "by": "fdr_by",
    "tsbh": "fdr_tsbh",
    "tsbky": "fdr_tsbky",
    "gbs": "fdr_gbs",
}


def _generated(rng: np.random.Generator) -> list[np.ndarray]:
    """p-values with ties, zeros and ones, spread over many orders of magnitude."""
    out = [np.array([0.5]), np.array([0.0]), np.array([1.0]), np.array([0.0, 1.0])]
    for _ in range(60):
        m = int(rng.integers(1, 40))
        p = rng.random(m) ** rng.choice([1, 3, 8])
        kind = rng.integers(0, 4)
        if kind == 1:  # ties: a few distinct values repeated
            p = rng.choice(np.round(rng.random(3), 3), size=m)
        elif kind == 2:  # zeros and ones
            p[rng.random(m) < 0.2] = 0.0
            p[rng.random(m) < 0.2] = 1.0
        elif kind == 3:
            p = np.round(p, 2)
        out.append(p)
    return out


@pytest.mark.slow
def test_every_correction_equals_statsmodels():
    rng = np.random.default_rng(29)
    assert set(STATSMODELS) == set(CORRECTIONS) - {"none", "maxt", "minp"}
    for p in _generated(rng):
        for ours, theirs in STATSMODELS.items():
            # alpha matters to the two-stage corrections only
            for alpha in (0.01, 0.05, 0.2) if ours.startswith("ts") else (0.05,):
                with np.errstate(divide="ignore", invalid="ignore"):
                    ref = multitest.multipletests(p, alpha=alpha, method=theirs)[1]
                got = adjust(p, ours, alpha=alpha)
                # the same operations in the same order: the same bits
                np.testing.assert_array_equal(got, ref, err_msg=f"{ours} {p.tolist()} {alpha}")
                assert ((got >= 0) & (got <= 1)).all()


def test_tied_p_values_get_equal_adjusted_values():
    p = np.array([0.01, 0.04, 0.04, 0.04, 0.2, 0.01, 1.0, 0.0])
    for method in STATSMODELS:
        adj = adjust(p, method)
        for v in np.unique(p):
            assert len(set(adj[p == v].tolist())) == 1, method


def test_nan_is_refused_or_left_out_of_the_family():
    p = np.array([0.01, np.nan, 0.03, 0.2, np.nan])
    with pytest.raises(ParameterError, match="position 1 is NaN"):
        adjust(p, "holm")
    for method, theirs in STATSMODELS.items():
        got = adjust(p, method, nan_policy="omit")
        assert np.isnan(got[[1, 4]]).all()
        ref = multitest.multipletests(p[[0, 2, 3]], method=theirs)[1]
        np.testing.assert_array_equal(got[[0, 2, 3]], ref)
    with pytest.raises(ParameterError, match="nan_policy"):
        adjust(p, "holm", nan_policy="propagate")


def test_permutation_corrections_are_not_p_value_corrections():
    with pytest.raises(ParameterError, match="per-query values"):
        adjust([0.1, 0.2], "maxt")


# -- Westfall & Young, by brute force ---------------------------------------------------------


def _t(d: list[float]) -> float:
    n = len(d)
    mean = math.fsum(d) / n
    sd = statistics.stdev(d)
    if sd <= 1e-12:
        return 0.0 if abs(mean) <= 1e-12 else math.copysign(math.inf, mean)
    return mean / (sd / math.sqrt(n))


def _at_least(x: float, y: float) -> bool:
    return x >= y - 1e-9 * max(abs(y), 1.0) if math.isfinite(y) else x >= y


def _brute_force(Y: list[list[float]], pairs: list[tuple[int, int]]):
    """MaxT and MinP adjusted p-values over every arrangement, from the definitions."""
    n, k = len(Y), len(Y[0])
    stats = []  # |t| of every pair, for every arrangement; the first is the observed table
    for arrangement in itertools.product(itertools.permutations(range(k)), repeat=n):
        Z = [[Y[q][arrangement[q][r]] for r in range(k)] for q in range(n)]
        stats.append([abs(_t([Z[q][j] - Z[q][i] for q in range(n)])) for i, j in pairs])
    N, m = len(stats), len(pairs)
    obs = stats[0]

    columns = [sorted(s[j] for s in stats) for j in range(m)]

    def p_of(j: int, value: float) -> float:  # pair j's permutation p-value of a |t|
        low = value - 1e-9 * max(abs(value), 1.0) if math.isfinite(value) else value
        return (N - bisect.bisect_left(columns[j], low)) / N

    raw = [p_of(j, obs[j]) for j in range(m)]
    order = sorted(range(m), key=lambda j: -obs[j])
    maxt = [0.0] * m
    running = 0.0
    for pos, j in enumerate(order):
        rest = order[pos:]
        share = sum(_at_least(max(s[l] for l in rest), obs[j]) for s in stats) / N
        running = max(running, share)
        maxt[j] = running
    P = [[p_of(j, s[j]) for j in range(m)] for s in stats]
    order = sorted(range(m), key=lambda j: (raw[j], -obs[j]))
    minp = [0.0] * m
    running = 0.0
    for pos, j in enumerate(order):
        rest = order[pos:]
        share = sum(min(row[l] for l in rest) <= raw[j] + 1e-12 for row in P) / N
        running = max(running, share)
        minp[j] = running
    return raw, maxt, minp


CASES = [
    # 3 runs x 4 queries, P@10-like values (ties in the permutation distribution)
    ([[0.3, 0.5, 0.8], [0.1, 0.4, 0.4], [0.6, 0.6, 0.9], [0.2, 0.5, 0.7]], "all"),
    ([[0.3, 0.5, 0.8], [0.1, 0.4, 0.4], [0.6, 0.6, 0.9], [0.2, 0.5, 0.7]], "baseline"),
    # 3 runs x 4 queries, two runs equal (tied statistics)
    ([[0.2, 0.2, 0.9], [0.4, 0.4, 0.3], [0.1, 0.1, 0.6], [0.5, 0.5, 0.8]], "all"),
    # 2 runs x 7 queries: the randomization test's sign flips
    ([[0.1, 0.3], [0.5, 0.7], [0.2, 0.1], [0.4, 0.9], [0.3, 0.35], [0.8, 0.9], [0.0, 0.2]], "all"),
]


@pytest.mark.parametrize(("Y", "family"), CASES)
def test_maxt_minp_equal_brute_force_enumeration(Y, family):
    k = len(Y[0])
    if family == "all":
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    else:
        pairs = [(0, j) for j in range(1, k)]
    raw, maxt, minp = _brute_force(Y, pairs)
    for method, expected in (("maxt", maxt), ("minp", minp)):
        r = westfall_young(np.array(Y), pairs, method=method, permutations=10**7)
        assert r.exact and r.resamples == math.factorial(k) ** len(Y)
        assert r.p_raw.tolist() == pytest.approx(raw, abs=1e-12)
        assert r.p_adjusted.tolist() == pytest.approx(expected, abs=1e-12)
        # a step-down correction never lowers a raw p-value and keeps the order of |t|
        assert (r.p_adjusted >= r.p_raw - 1e-12).all()


def test_maxt_minp_sampling_is_seeded_and_near_exact():
    # continuous values: no two pairs share a permutation p-value, so that MinP's sampled
    # p-values estimate the enumerated ones (with exact ties between pairs, whether one
    # pair's p* reaches another's observed p is decided by Monte Carlo noise)
    Y = np.random.default_rng(7).random((5, 3))
    pairs = [(0, 1), (0, 2), (1, 2)]
    B = 20_000
    for method in ("maxt", "minp"):
        exact = westfall_young(Y, pairs, method=method, permutations=10**6)
        a = westfall_young(Y, pairs, method=method, permutations=B, seed=5, exact=False)
        b = westfall_young(Y, pairs, method=method, permutations=B, seed=5, exact=False)
        assert not a.exact and a.resamples == B + 1
        assert a.p_adjusted.tobytes() == b.p_adjusted.tobytes()
        se = np.sqrt(exact.p_adjusted * (1 - exact.p_adjusted) / B)
        assert (np.abs(a.p_adjusted - exact.p_adjusted) <= 4 * se + 2 / B).all()
        assert (a.p_adjusted > 0).all() and (a.p_adjusted <= 1).all()


def test_maxt_of_identical_runs_is_one_and_bad_input_is_refused():
    Y = np.tile(np.array([[0.1], [0.4], [0.3]]), (1, 3))
    r = westfall_young(Y, [(0, 1), (0, 2)], method="maxt")
    assert r.p_adjusted.tolist() == [1.0, 1.0]
    with pytest.raises(ParameterError, match="2 queries"):
        westfall_young(Y[:1], [(0, 1)])
    with pytest.raises(ParameterError, match="finite"):
        westfall_young(np.array([[0.1, np.nan], [0.2, 0.3]]), [(0, 1)])
    with pytest.raises(ParameterError, match="too large"):
        westfall_young(np.zeros((30, 3)), [(0, 1)], exact=True)


def _results(Y: np.ndarray, names: str = "ABCDEFGH") -> list:
    from cranfield.measures.parse import parse
    from cranfield.results.tables import Results

    qids = tuple(f"q{i:03d}" for i in range(Y.shape[0]))
    return [
        Results(names[j], qids, ("AP",), (parse("AP"),), Y[:, j : j + 1].copy())
        for j in range(Y.shape[1])
    ]


@pytest.mark.parametrize("correction", ["maxt", "minp"])
def test_compare_adjusts_with_westfall_young_on_the_compared_values(correction):
    import cranfield

    rng = np.random.default_rng(11)
    Y = np.round(np.clip(rng.random((30, 4)) + np.array([0, 0.05, 0.2, 0.25]), 0, 1), 3)
    for baseline, pairs in (
        (None, [(i, j) for i in range(4) for j in range(i + 1, 4)]),
        ("A", [(0, j) for j in range(1, 4)]),
    ):
        cmp = cranfield.compare(
            _results(Y),
            ["AP"],
            correction=correction,
            baseline=baseline,
            permutations=2000,
            seed=4,
        )
        wy = westfall_young(Y, pairs, method=correction, permutations=2000, seed=4)
        assert [p.p_adjusted for p in cmp.pairs["AP"]] == wy.p_adjusted.tolist()
        assert "permutations, seed 4" in cmp.table()
    with pytest.raises(ParameterError, match="two-sided only"):
        cranfield.compare(_results(Y), ["AP"], correction=correction, alternative="greater")
