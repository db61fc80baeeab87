"""Meta-evaluation: discriminative power against per-pair tests and an enumeration, swap
rates and ranking stability against plain loops over the same random splits, the executor
seam, the charts and ``cranfield meta``."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats
from test_compare_multitest import _results

import cranfield
from cranfield.comparing import bootstrap_test
from cranfield.comparing.meta import (
    discriminative_power,
    meta_evaluation,
    ranking_stability,
    swap_rates,
)
from cranfield.errors import CranfieldWarning, ParameterError


def _table(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # values in sixteenths: the means of subsets are exact in binary, so bins and swaps do
    # not depend on the order of a sum
    return np.floor(np.clip(rng.random((n, k)) * 0.6 + np.linspace(0, 0.3, k), 0, 1) * 16) / 16


def test_discriminative_power_is_the_share_of_pairs_each_test_finds_significant():
    Y = _table(20, 4, 1)
    d = discriminative_power(Y, samples=800, seed=3, alpha=0.1)
    assert len(d.p) == 6
    for i, j, p in zip(d.a, d.b, d.p, strict=True):
        assert p == bootstrap_test(Y[:, i], Y[:, j], samples=800, seed=3).p_value
    assert d.power == sum(p < 0.1 for p in d.p) / 6
    assert d.curve.tolist() == sorted(d.p.tolist())
    # the randomization test on 12 queries, enumerated, against a plain enumeration
    Y = _table(12, 3, 2)
    d = discriminative_power(Y, test="randomization", samples=1 << 12)
    for i, j, p in zip(d.a, d.b, d.p, strict=True):
        diff = [Fraction(y) - Fraction(x) for x, y in zip(Y[:, i], Y[:, j], strict=True)]
        obs = abs(sum(diff))
        hits = sum(
            abs(sum(s * x for s, x in zip(signs, diff, strict=True))) >= obs
            for signs in itertools.product((1, -1), repeat=12)
        )
        assert p == (1.0 if obs == 0 else hits / 4096)


def test_swap_rates_equal_a_loop_over_the_same_splits():
    Y = _table(16, 5, 3)
    trials, c, w, bins = 40, 6, 0.02, 10
    got = swap_rates(Y, subset=c, trials=trials, seed=9, bin_width=w, bins=bins)
    order = np.argsort(np.random.default_rng(9).random((trials, 16)), axis=1)
    pairs, swaps = [0] * bins, [0] * bins
    for row in order:
        one, two = row[:c].tolist(), row[c : 2 * c].tolist()
        for i, j in itertools.combinations(range(5), 2):
            d1 = math.fsum(Y[q, j] - Y[q, i] for q in one) / c
            d2 = math.fsum(Y[q, j] - Y[q, i] for q in two) / c
            b = min(int(abs(d1) / w), bins - 1)
            pairs[b] += 1
            swaps[b] += d1 * d2 < 0
    assert got.pairs.tolist() == pairs and got.swaps.tolist() == swaps
    assert got.overall == sum(swaps) / sum(pairs)
    # a run better on every query never swaps
    Z = np.column_stack([Y[:, 0], Y[:, 0] + 0.1])
    assert swap_rates(Z, trials=30).swaps.sum() == 0
    with pytest.raises(ParameterError, match="two disjoint sets"):
        swap_rates(Y, subset=9)


def test_ranking_stability_equals_a_loop_over_the_same_subsets():
    Y = _table(15, 6, 4)
    sizes, trials = [3, 8, 15], 25
    got = ranking_stability(Y, sizes=sizes, trials=trials, seed=2)
    rng = np.random.default_rng(2)
    full = Y.mean(axis=0)
    for k, s in enumerate(sizes):
        order = np.argsort(rng.random((trials, 15)), axis=1)[:, :s]
        taus = []
        for row in order:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                taus.append(stats.kendalltau(full, Y[row].mean(axis=0)).statistic)
        valid = [t for t in taus if not math.isnan(t)]
        assert got.mean_tau[k] == pytest.approx(np.mean(valid), rel=1e-12)
        assert got.min_tau[k] == min(valid)
    assert got.mean_tau[-1] == pytest.approx(1.0, abs=1e-12)  # all queries: the same ranking
    with pytest.warns(CranfieldWarning, match="tau is undefined"):
        same = ranking_stability(np.tile(Y[:, :1], (1, 3)), trials=5)
    assert np.isnan(same.mean_tau).all()


def test_meta_evaluation_is_seeded_and_the_same_with_an_executor(tmp_path):
    from concurrent.futures import ProcessPoolExecutor

    Y = _table(30, 4, 6)
    cmp = cranfield.compare(_results(Y), ["AP"])
    here = meta_evaluation(cmp, samples=300, trials=20, seed=1)
    assert json.dumps(here.to_dict()) == json.dumps(
        meta_evaluation(cmp, samples=300, trials=20, seed=1).to_dict()
    )
    with ProcessPoolExecutor(2) as pool:
        there = meta_evaluation(cmp, samples=300, trials=20, seed=1, executor=pool)
    assert json.dumps(there.to_dict()) == json.dumps(here.to_dict())
    pytest.importorskip("matplotlib")
    paths = here.plot(tmp_path / "charts", formats=["png", "svg"])
    assert sorted(p.name for p in paths) == sorted(
        f"{s}.{f}" for s in ("asl", "swap-rate", "stability") for f in ("png", "svg")
    )
    first = (tmp_path / "charts" / "asl.svg").read_bytes()
    here.plot(tmp_path / "again", formats=["png", "svg"])
    assert (tmp_path / "again" / "asl.svg").read_bytes() == first


@pytest.mark.slow
def test_cli_meta(cli, tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    qrels, runs = make_collection(16, seed=7)
    q, paths = write_trec(tmp_path, qrels, runs, ["a.run", "b.run", "c.run"])
    args = ("meta", q, *paths, "-m", "AP", "--samples", "200", "--trials", "10")
    out = cli(*args, "--format", "json")
    assert out.returncode == 0, out.stderr.decode()
    d = json.loads(out.stdout)["measures"]["AP"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = cranfield.compare(q, paths, ["AP"])
    ref = meta_evaluation(cmp, samples=200, trials=10).to_dict()["measures"]["AP"]
    assert d == json.loads(json.dumps(ref))
    text = cli(*args, "--test", "rthsd")
    assert text.returncode == 0 and "randomised Tukey HSD" in text.stdout.decode()
    bad = cli(*args, "--subset", "9")
    assert bad.returncode == 2 and b"two disjoint sets" in bad.stderr


def test_an_alpha_that_is_no_number_is_cranfields_error():
    """discriminative_power(alpha="x") was Python's ValueError of float(); now the shared
    check of every statistic's alpha (comparing.checks.check_alpha)."""
    import numpy as np

    from cranfield.comparing.meta import discriminative_power
    from cranfield.errors import ParameterError

    Y = np.arange(15, dtype=float).reshape(5, 3) % 4
    for bad, problem in (("x", "must be a number"), (1.5, "between 0 and 1")):
        with pytest.raises(ParameterError, match=problem):
            discriminative_power(Y, alpha=bad)
