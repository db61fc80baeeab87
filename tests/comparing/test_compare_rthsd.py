"""The randomised Tukey HSD test: exact enumeration in rational arithmetic, elinor's published
output, seeded sampling, and ``compare(test="rthsd")``."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from test_compare_multitest import _results

import cranfield
from cranfield.comparing.paired import randomization_tests
from cranfield.comparing.rthsd import randomised_tukey_hsd
from cranfield.errors import ParameterError

# elinor's test-data/sample/pred_{1,2,3}.csv (github.com/kampersanda/elinor): per query
# precision@3, ap, rr, ndcg@3 of three systems
PRED = [
    [
        [0.6666666666666666, 0.5833333333333333, 0.5, 0.66967181649423],
        [0.6666666666666666, 1.0, 1.0, 0.8597186998521972],
        [0.6666666666666666, 0.5833333333333333, 0.5, 0.6199062332840657],
        [0.6666666666666666, 0.5833333333333333, 0.5, 0.66967181649423],
        [0.3333333333333333, 1.0, 1.0, 1.0],
        [0.6666666666666666, 0.8333333333333333, 1.0, 0.9502344167898356],
        [0.3333333333333333, 1.0, 1.0, 1.0],
        [0.6666666666666666, 1.0, 1.0, 0.8597186998521972],
    ],
    [
        [0.0, 0.0, 0.0, 0.0],
        [0.3333333333333333, 0.5, 1.0, 0.38009376671593426],
        [0.6666666666666666, 0.5833333333333333, 0.5, 0.6199062332840657],
        [0.0, 0.0, 0.0, 0.0],
        [0.3333333333333333, 1.0, 1.0, 1.0],
        [0.3333333333333333, 0.25, 0.5, 0.23981246656813146],
        [0.3333333333333333, 1.0, 1.0, 1.0],
        [0.3333333333333333, 0.25, 0.5, 0.4796249331362629],
    ],
    [
        [0.3333333333333333, 0.25, 0.5, 0.4796249331362629],
        [0.3333333333333333, 0.25, 0.5, 0.4796249331362629],
        [0.3333333333333333, 0.16666666666666666, 0.3333333333333333, 0.38009376671593426],
        [0.6666666666666666, 1.0, 1.0, 1.0],
        [0.3333333333333333, 0.3333333333333333, 0.3333333333333333, 0.5],
        [0.6666666666666666, 1.0, 1.0, 0.8597186998521972],
        [0.0, 0.0, 0.0, 0.0],
        [0.6666666666666666, 0.5833333333333333, 0.5, 0.66967181649423],
    ],
]
METRICS = ("precision@3", "ap", "rr", "ndcg@3")
# elinor-cli/README.md: "Fisher's randomized test (n_iters = 10000)" of System_1 vs System_2
# (elinor's RandomizedTukeyHsdTest with two systems), and the randomised Tukey HSD p-values of
# the three systems on precision@3
ELINOR_TWO = {"precision@3": 0.0596, "ap": 0.0657, "rr": 0.1248, "ndcg@3": 0.0612}
ELINOR_THREE = {(0, 1): 0.0248, (0, 2): 0.2511, (1, 2): 0.6557}
ELINOR_B = 10_000


def _table(metric: str, systems=(0, 1, 2)) -> np.ndarray:
    col = METRICS.index(metric)
    return np.array([[PRED[s][q][col] for s in systems] for q in range(8)])


def _brute_force(Y) -> dict[tuple[int, int], Fraction]:
    """Every arrangement, in exact rational arithmetic (the floats' exact values)."""
    F = [[Fraction(v) for v in row] for row in Y]
    n, k = len(F), len(F[0])
    means = [sum(F[q][j] for q in range(n)) / n for j in range(k)]
    pairs = [(j, l) for j in range(k) for l in range(j + 1, k)]
    hits = dict.fromkeys(pairs, 0)
    total = 0
    for arr in itertools.product(itertools.permutations(range(k)), repeat=n):
        m = [sum(F[q][arr[q][j]] for q in range(n)) / n for j in range(k)]
        rng = max(m) - min(m)
        total += 1
        for j, l in pairs:
            hits[(j, l)] += rng >= abs(means[j] - means[l])
    return {p: Fraction(h, total) for p, h in hits.items()}


CASES = [
    [["0.3", "0.5", "0.8"], ["0.1", "0.4", "0.4"], ["0.6", "0.6", "0.9"], ["0.2", "0.5", "0.7"]],
    [["0.2", "0.2", "0.5", "0.9"], ["0.4", "0.3", "0.3", "0.8"], ["0.1", "0.1", "0.6", "0.7"]],
]


@pytest.mark.parametrize("rows", CASES)
def test_rthsd_equals_exact_enumeration(rows):
    Y = np.array([[float(v) for v in r] for r in rows])
    exact = _brute_force([[Fraction(v) for v in r] for r in rows])
    r = randomised_tukey_hsd(Y, permutations=10**6)
    assert r.exact and r.resamples == math.factorial(Y.shape[1]) ** Y.shape[0]
    for (j, l), p in exact.items():
        assert r.p[j, l] == r.p[l, j] == float(p)
    # two runs: the randomization test of |mean(b) - mean(a)|, enumerated
    for j, l in exact:
        two = randomised_tukey_hsd(Y[:, [j, l]], permutations=10**6)
        rand = randomization_tests((Y[:, l] - Y[:, j])[:, None], permutations=10**6)[0]
        assert two.p[0, 1] == rand.p_value


def test_rthsd_against_elinor_sample_output():
    # two systems, every metric: exact enumeration (2^8 sign flips) in rational arithmetic
    for metric, published in ELINOR_TWO.items():
        Y = _table(metric, (0, 1))
        exact = _brute_force(Y.tolist())[(0, 1)]
        ours = randomised_tukey_hsd(Y, permutations=10**6)
        assert ours.exact and ours.p[0, 1] == float(exact)
        # elinor samples 10,000 arrangements and compares floats without slack, so it can
        # miss exact ties of the range; its published p lies within Monte Carlo error of the
        # enumeration that compares its own float arithmetic (sequential sums, no slack)
        strict = _elinor_exact(Y)[(0, 1)]
        assert abs(published - strict) <= 4 * math.sqrt(strict * (1 - strict) / ELINOR_B) + 1e-4
    # three systems on precision@3: all 6^8 arrangements, in integers (values are thirds)
    Y = _table("precision@3")
    ours = randomised_tukey_hsd(Y, permutations=2_000_000)
    assert ours.exact and ours.resamples == 6**8
    integer = _integer_exact(np.rint(Y * 3).astype(np.int64))
    strict = _elinor_exact(Y)
    for pair, published in ELINOR_THREE.items():
        assert ours.p[pair] == integer[pair]
        sd = math.sqrt(strict[pair] * (1 - strict[pair]) / ELINOR_B)
        assert abs(published - strict[pair]) <= 4 * sd + 1e-4
        # the ties elinor misses are what separates its p-values from the exact ones here
        assert ours.p[pair] >= strict[pair]
    assert ours.p[0, 1] - strict[(0, 1)] > 0.015


def _all_arrangements(n: int, k: int):
    table = np.array(list(itertools.permutations(range(k))))
    codes = np.indices((len(table),) * n).reshape(n, -1).T  # every digit combination
    for lo in range(0, len(codes), 200_000):
        yield table[codes[lo : lo + 200_000]]  # (rows, n, k)


def _integer_exact(Yi: np.ndarray) -> dict[tuple[int, int], float]:
    n, k = Yi.shape
    sums = Yi.sum(axis=0)
    pairs = [(j, l) for j in range(k) for l in range(j + 1, k)]
    hits, total = dict.fromkeys(pairs, 0), 0
    for arr in _all_arrangements(n, k):
        s = Yi[np.arange(n)[None, :, None], arr].sum(axis=1)
        rng = s.max(axis=1) - s.min(axis=1)
        total += len(rng)
        for j, l in pairs:
            hits[(j, l)] += int((rng >= abs(sums[j] - sums[l])).sum())
    return {p: h / total for p, h in hits.items()}


def _elinor_exact(Y: np.ndarray) -> dict[tuple[int, int], float]:
    """Every arrangement with elinor's float arithmetic: sequential sums over the topics,
    divided by n, range >= |difference| compared without slack."""
    n, k = Y.shape

    def means(Z):
        acc = np.zeros(Z.shape[:1] + Z.shape[2:])
        for q in range(n):
            acc = acc + Z[:, q]
        return acc / n

    m = means(Y[None])[0]
    pairs = [(j, l) for j in range(k) for l in range(j + 1, k)]
    hits, total = dict.fromkeys(pairs, 0), 0
    for arr in _all_arrangements(n, k):
        mm = means(Y[np.arange(n)[None, :, None], arr])
        rng = mm.max(axis=1) - mm.min(axis=1)
        total += len(rng)
        for j, l in pairs:
            hits[(j, l)] += int((rng >= abs(m[j] - m[l])).sum())
    return {p: h / total for p, h in hits.items()}


def test_rthsd_sampling_is_seeded_and_near_exact():
    Y = np.random.default_rng(3).random((7, 3))
    exact = randomised_tukey_hsd(Y, permutations=10**6)  # 6^7 = 279,936 arrangements
    assert exact.exact
    B = 20_000
    a = randomised_tukey_hsd(Y, permutations=B, seed=8)
    assert not a.exact and a.resamples == B + 1
    assert a.p.tobytes() == randomised_tukey_hsd(Y, permutations=B, seed=8).p.tobytes()
    sd = np.sqrt(exact.p * (1 - exact.p) / B)
    assert (np.abs(a.p - exact.p) <= 4 * sd + 2 / B).all()
    assert (a.p > 0).all() and (a.p <= 1).all()


def test_rthsd_degenerate_tables():
    Y = np.tile(np.array([[0.1], [0.4], [0.3]]), (1, 3))
    assert (randomised_tukey_hsd(Y).p == 1).all()  # identical runs
    one = randomised_tukey_hsd([[0.1, 0.5, 0.3]], permutations=100)  # one query: 3! orders
    assert one.exact and one.resamples == 6 and ((one.p >= 0) & (one.p <= 1)).all()
    with pytest.raises(ParameterError, match="2 runs"):
        randomised_tukey_hsd([[0.1], [0.2]])
    with pytest.raises(ParameterError, match="finite"):
        randomised_tukey_hsd([[0.1, math.inf], [0.2, 0.3]])
    with pytest.raises(ParameterError, match="too large"):
        randomised_tukey_hsd(np.zeros((20, 3)), exact=True)


def test_compare_with_rthsd():
    Y = np.round(np.random.default_rng(2).random((25, 4)) + np.array([0, 0.1, 0.2, 0.4]), 2)
    for baseline in (None, "B"):
        cmp = cranfield.compare(
            _results(Y), ["AP"], test="rthsd", permutations=3000, seed=6, baseline=baseline
        )
        ref = randomised_tukey_hsd(Y, permutations=3000, seed=6)
        idx = {name: j for j, name in enumerate("ABCD")}
        for p in cmp.pairs["AP"]:
            assert p.p_value == p.p_adjusted == ref.p[idx[p.a], idx[p.b]]
            assert p.statistic == pytest.approx(abs(p.mean_diff), rel=1e-12)
        head = cmp.table().splitlines()[0]
        assert "randomised Tukey HSD" in head and "3000 permutations, seed 6" in head
    with pytest.raises(ParameterError, match="already controls"):
        cranfield.compare(_results(Y), ["AP"], test="rthsd", correction="holm")
    with pytest.raises(ParameterError, match="two-sided only"):
        cranfield.compare(_results(Y), ["AP"], test="rthsd", alternative="less")


def test_permutation_statistics_give_the_same_bits_with_an_executor():
    """rthsd and MaxT/MinP run in the calling process; with an executor the randomization
    test and the bootstrap interval run there: the comparison is the same, bit for bit."""
    from concurrent.futures import ProcessPoolExecutor

    Y = np.round(np.random.default_rng(5).random((30, 3)) + np.array([0, 0.05, 0.15]), 3)
    settings = [
        {"test": "rthsd", "ci": "bootstrap"},
        {"test": "randomization", "correction": "maxt"},
        {"test": "bootstrap", "correction": "minp"},
    ]
    with ProcessPoolExecutor(2) as pool:
        for kw in settings:
            here = cranfield.compare(_results(Y), ["AP"], permutations=500, seed=9, **kw)
            there = cranfield.compare(
                _results(Y), ["AP"], permutations=500, seed=9, executor=pool, **kw
            )
            assert there.table("json") == here.table("json")


@pytest.mark.slow
def test_cli_offers_rthsd_and_every_correction(cli, tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    qrels, runs = make_collection(10, seed=2)
    q, paths = write_trec(tmp_path, qrels, runs, ["a.run", "b.run", "c.run"])
    out = cli("compare", q, *paths, "-m", "AP", "--test", "rthsd", "--permutations", "500")
    assert out.returncode == 0, out.stderr.decode()
    assert "randomised Tukey HSD" in out.stdout.decode()
    for correction in ("hommel", "by", "maxt"):
        out = cli("compare", q, *paths, "-m", "AP", "--correction", correction)
        assert out.returncode == 0, out.stderr.decode()
    bad = cli("compare", q, *paths, "--test", "rthsd", "--correction", "holm")
    assert bad.returncode == 2 and b"already controls" in bad.stderr
