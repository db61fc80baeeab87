"""Agreement between measures and the per-request analysis at scale: the rank correlations
(Kendall's tau, tau_AP) against brute-force pair counts, pairwise agreement at 200,000 pairs,
the per-request tables, and request counts that refuse huge and fractional numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _scale_pairs import SIZES, pair
from scipy import stats

from cranfield.comparing import (
    keen_table,
    kendall_tau,
    magnitude_difference,
    pairwise_agreement,
    request_counts,
    split_by_relevant,
    superiority,
    tau_ap,
    tau_ap_b,
)
from cranfield.errors import ParameterError


def _brute_counts(x: np.ndarray, y: np.ndarray, block: int = 1000):
    """Per item: items strictly above in y (A), above in both (C); and sum sign*sign (S)."""
    A = np.zeros(len(x), dtype=np.int64)
    C = np.zeros(len(x), dtype=np.int64)
    S = 0
    for lo in range(0, len(x), block):
        xi, yi = x[lo : lo + block, None], y[lo : lo + block, None]
        above_y = y[None, :] > yi
        A[lo : lo + block] = above_y.sum(axis=1)
        C[lo : lo + block] = (above_y & (x[None, :] > xi)).sum(axis=1)
        S += int((np.sign(x[None, :] - xi) * np.sign(y[None, :] - yi)).sum())
    return A, C, S // 2


def _ap(a: np.ndarray, c: np.ndarray) -> float:
    t = a > 0
    return 2 * float((c[t] / a[t]).sum()) / int(t.sum()) - 1


@pytest.mark.parametrize("n", SIZES)
def test_rank_correlations_at_scale(n):
    rng = np.random.default_rng(n + 1)
    x = np.round(rng.random(n), 3)  # ties
    y = np.round(x + rng.normal(0, 0.2, n), 3)
    pairs = n * (n - 1) // 2
    assert kendall_tau(x, y, "b") == pytest.approx(stats.kendalltau(x, y).statistic, rel=1e-12)
    if n <= 10_000:
        A, C, S = _brute_counts(x, y)
        Ax, _, _ = _brute_counts(y, x)
        assert kendall_tau(x, y, "a") == pytest.approx(S / pairs, rel=1e-12)
        assert tau_ap_b(x, y) == pytest.approx((_ap(A, C) + _ap(Ax, C)) / 2, rel=1e-12)
        xs, ys = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
        A, C, _ = _brute_counts(xs, ys)
        assert tau_ap(xs, ys) == pytest.approx(_ap(A, C), rel=1e-12)
    else:
        # tau_a from scipy's tau_b and the tie counts: tau_a = tau_b sqrt((P-Tx)(P-Ty)) / P
        tx = sum(t * (t - 1) // 2 for t in np.unique(x, return_counts=True)[1].tolist())
        ty = sum(t * (t - 1) // 2 for t in np.unique(y, return_counts=True)[1].tolist())
        tau_b = stats.kendalltau(x, y).statistic
        expected = tau_b * math.sqrt((pairs - tx) * (pairs - ty)) / pairs
        assert kendall_tau(x, y, "a") == pytest.approx(expected, rel=1e-10)
    perm = rng.permutation(n).astype(float)
    assert tau_ap(perm, perm) == 1.0 and tau_ap(perm, -perm) == -1.0
    assert tau_ap_b(x, x) == 1.0 and tau_ap_b(x, -x) == -1.0


def test_pairwise_agreement_at_200000_pairs():
    rng = np.random.default_rng(0)
    o = {m: rng.choice(["a", "b", "="], 200_000).tolist() for m in ("AP", "P@10")}
    share = float(np.mean(np.array(o["AP"]) == np.array(o["P@10"])))
    assert pairwise_agreement(o)[("AP", "P@10")] == pytest.approx(share, rel=1e-12)


# -- per-request analysis --------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_per_request_tables_at_scale(n):
    a, b = pair(n)
    d = b - a
    counts = request_counts(b, a)  # option I = b
    assert (counts.first, counts.second, counts.equal) == (
        int((d > 0).sum()),
        int((d < 0).sum()),
        int((d == 0).sum()),
    )
    f, s, e = counts.first, counts.second, counts.equal
    rows = keen_table(counts)
    assert rows[1].first == pytest.approx(100 * f / (f + s), rel=1e-15)
    assert rows[2].equal == pytest.approx(100 * e / n, rel=1e-15)
    assert superiority(f, s) == pytest.approx(100 * (f - s) / (f + s), rel=1e-15)
    qids = [f"q{i}" for i in range(n)]
    md = magnitude_difference(qids, b, a)
    assert (len(md.first), len(md.second), len(md.equal)) == (f, s, e)
    assert all(x >= y for (_, x), (_, y) in zip(md.first, md.first[1:], strict=False))
    # split: brute force over every candidate threshold
    rng = np.random.default_rng(n)
    rel = rng.integers(1, 60, n)
    split = split_by_relevant(dict(zip(qids, rel.tolist(), strict=True)))
    gaps = {t: abs(n - 2 * int((rel <= t).sum())) for t in sorted(set(rel.tolist()))[:-1]}
    best = min(gaps.values())
    assert split.threshold == min(t for t, g in gaps.items() if g == best)
    assert len(split.specific) == int((rel <= split.threshold).sum())


def test_request_counts_refuse_huge_and_fractional_numbers():
    for bad in [(10**400, 1, 1), (2**53 + 1, 0, 0), (1.5, 1, 1), (True, 1, 1), (-1, 2, 3)]:
        with pytest.raises(ParameterError, match="request counts"):
            keen_table(bad)
    with pytest.raises(ParameterError, match="request counts"):
        superiority(10**400, 1)
    with pytest.raises(ParameterError, match="three request counts"):
        keen_table((1, 2))
    assert superiority(2**53, 0) == 100.0 and keen_table((6.0, 4, 2))[1].superiority == 20.0
    with pytest.raises(ParameterError, match="finite"):
        split_by_relevant({"q1": 1, "q2": float("nan")})
    with pytest.raises(ParameterError, match="numbers of relevant"):
        split_by_relevant({"q1": 1, "q2": 10**400})
    with pytest.raises(ParameterError, match="strings"):
        magnitude_difference([1, 2], [0.1, 0.2], [0.2, 0.1])
