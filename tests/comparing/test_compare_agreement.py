"""Agreement between measures: Kendall's tau on Magdy & Jones's Table 4, tau_AP, agreement rows."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from cranfield.comparing import (
    agreement_rows,
    kendall_tau,
    pairwise_agreement,
    ranking,
    tau_ap,
    tau_ap_b,
)
from cranfield.errors import ParameterError

# Magdy & Jones (SIGIR 2010) Table 4: MAP, Recall, PRES of 48 CLEF-IP 2009 runs.
TABLE4 = {
    "R01": (0.077, 0.530, 0.434), "R02": (0.087, 0.617, 0.499), "R03": (0.084, 0.609, 0.497),
    "R04": (0.053, 0.219, 0.213), "R05": (0.000, 0.020, 0.011), "R06": (0.000, 0.016, 0.009),
    "R07": (0.000, 0.012, 0.007), "R08": (0.000, 0.016, 0.009), "R09": (0.071, 0.454, 0.369),
    "R10": (0.088, 0.533, 0.430), "R11": (0.087, 0.489, 0.404), "R12": (0.088, 0.534, 0.430),
    "R13": (0.065, 0.508, 0.406), "R14": (0.068, 0.467, 0.363), "R15": (0.064, 0.434, 0.348),
    "R16": (0.020, 0.197, 0.148), "R17": (0.067, 0.584, 0.463), "R18": (0.033, 0.656, 0.490),
    "R19": (0.105, 0.600, 0.529), "R20": (0.003, 0.051, 0.040), "R21": (0.266, 0.760, 0.691),
    "R22": (0.028, 0.256, 0.200), "R23": (0.087, 0.728, 0.603), "R24": (0.011, 0.069, 0.054),
    "R25": (0.064, 0.492, 0.392), "R26": (0.084, 0.511, 0.431), "R27": (0.097, 0.514, 0.447),
    "R28": (0.091, 0.514, 0.442), "R29": (0.082, 0.436, 0.373), "R30": (0.092, 0.559, 0.469),
    "R31": (0.081, 0.568, 0.460), "R32": (0.078, 0.476, 0.391), "R33": (0.085, 0.457, 0.379),
    "R34": (0.082, 0.427, 0.354), "R35": (0.114, 0.572, 0.496), "R36": (0.108, 0.553, 0.480),
    "R37": (0.114, 0.572, 0.494), "R38": (0.107, 0.553, 0.479), "R39": (0.113, 0.575, 0.498),
    "R40": (0.107, 0.560, 0.483), "R41": (0.079, 0.547, 0.447), "R42": (0.103, 0.555, 0.466),
    "R43": (0.091, 0.575, 0.475), "R44": (0.091, 0.574, 0.474), "R45": (0.106, 0.616, 0.507),
    "R46": (0.102, 0.611, 0.504), "R47": (0.104, 0.589, 0.484), "R48": (0.102, 0.587, 0.484),
}  # fmt: skip
COLUMNS = {"MAP": 0, "Recall": 1, "PRES": 2}
# sec. 6.2: "MAP and recall = 0.56, PRES and recall = 0.87, and PRES and MAP = 0.66"
PAPER_TAU = {("MAP", "Recall"): 0.56, ("PRES", "Recall"): 0.87, ("PRES", "MAP"): 0.66}


def _col(name: str) -> list[float]:
    return [v[COLUMNS[name]] for v in TABLE4.values()]


def _tie_bounds(x: list[float], y: list[float]) -> tuple[float, float]:
    """The range of Kendall's tau over every way of breaking the ties of the rounded table:
    each tied pair can turn out concordant or discordant in the unrounded scores."""
    n = len(x)
    s = tied = 0
    for i, j in itertools.combinations(range(n), 2):
        p = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
        if p == 0:
            tied += 1
        s += p
    pairs = n * (n - 1) / 2
    return (s - tied) / pairs, (s + tied) / pairs


@pytest.mark.parametrize(("m1", "m2"), list(PAPER_TAU))
def test_kendall_tau_of_table_4_matches_the_paper(m1, m2):
    x, y = _col(m1), _col(m2)
    tau = kendall_tau(x, y)  # tau-b on the 3-decimal table
    assert tau == pytest.approx(stats.kendalltau(x, y).statistic, rel=1e-12)
    # The paper computed tau on unrounded scores, we only have the rounded table: its value
    # must lie within the range that resolving the table's ties allows, and our tau-b is
    # within 0.01 of it (0.561, 0.878, 0.665 against 0.56, 0.87, 0.66).
    lo, hi = _tie_bounds(x, y)
    assert lo <= PAPER_TAU[(m1, m2)] <= hi
    assert abs(tau - PAPER_TAU[(m1, m2)]) < 0.01


def test_table_4_rankings_match_the_text():
    # "Run 21 (R21) which achieved the highest MAP and recall also achieved the highest PRES"
    # R07 is the lowest run (MAP 0.000 is shared by R05-R08; recall 0.012, PRES 0.007)
    for name in COLUMNS:
        order = ranking(dict(zip(TABLE4, _col(name), strict=True)))
        assert order[0] == "R21"
        assert "R07" in order[-4:]
        if name != "MAP":
            assert order[-1] == "R07"


def test_tau_a_is_concordant_minus_discordant_over_pairs():
    rng = np.random.default_rng(0)
    x = np.round(rng.random(15), 1)
    y = np.round(rng.random(15), 1)
    n = len(x)
    s = sum(
        np.sign(x[i] - x[j]) * np.sign(y[i] - y[j]) for i, j in itertools.combinations(range(n), 2)
    )
    assert kendall_tau(x, y, "a") == pytest.approx(s / (n * (n - 1) / 2))
    assert kendall_tau(x, y, "c") == pytest.approx(
        stats.kendalltau(x, y, variant="c").statistic, rel=1e-12
    )


# Test vectors of Urbano's R package ircor (tests/testthat/helper_data.R and test_tauAP.R),
# an independent implementation of Yilmaz et al. (2008) and Urbano & Marrero (2017).
IRCOR = {
    "set1": dict(
        x=[0.897, 0.372, 0.908, 0.898, 0.661, 0.062, 0.177, 0.384, 0.498, 0.992],
        y=[0.82, 0.406, 0.817, 0.953, 0.673, 0.073, 0.364, 0.547, 0.589, 0.988],
        x_ties=[0.9, 0.4, 0.9, 0.9, 0.7, 0.1, 0.2, 0.4, 0.5, 1],
        y_ties=[0.8, 0.4, 0.8, 1, 0.7, 0.1, 0.4, 0.5, 0.6, 1],
        tau_ap=0.8519, tau_ap_b=0.8333, tau_ap_b_ties=0.7321,
    ),
    "set2": dict(
        x=[0.266, 0.573, 0.202, 0.945, 0.629, 0.206, 0.687, 0.77, 0.718, 0.38],
        y=[0.263, 0.843, 0.728, 0.928, 0.08, 0.114, 0.467, 0.641, 0.973, 0.644],
        x_ties=[0.3, 0.6, 0.2, 0.9, 0.6, 0.2, 0.7, 0.8, 0.7, 0.4],
        y_ties=[0.3, 0.8, 0.7, 0.9, 0.1, 0.1, 0.5, 0.6, 1, 0.6],
        tau_ap=0.2504, tau_ap_b=0.2880, tau_ap_b_ties=0.297,
    ),
    "set3": dict(
        x=[0.185, 0.573, 0.944, 0.129, 0.468, 0.553, 0.761, 0.405, 0.976, 0.445],
        y=[0.845, 0.272, 0.275, 0.924, 0.605, 0.334, 0.162, 0.872, 0.018, 0.25],
        x_ties=[0.2, 0.6, 0.9, 0.1, 0.5, 0.6, 0.8, 0.4, 1, 0.4],
        y_ties=[0.8, 0.3, 0.3, 0.9, 0.6, 0.3, 0.2, 0.9, 0, 0.2],
        tau_ap=-0.6971, tau_ap_b=-0.668, tau_ap_b_ties=-0.7047,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(IRCOR))
def test_tau_ap_matches_ircor(name):
    v = IRCOR[name]
    assert tau_ap(v["x"], v["y"]) == pytest.approx(v["tau_ap"], abs=5e-5)
    assert tau_ap_b(v["x"], v["y"]) == pytest.approx(v["tau_ap_b"], abs=5e-5)
    assert tau_ap_b(v["x_ties"], v["y_ties"]) == pytest.approx(v["tau_ap_b_ties"], abs=5e-5)
    assert tau_ap_b(v["y_ties"], v["x_ties"]) == pytest.approx(v["tau_ap_b_ties"], abs=5e-5)


def test_tau_ap_follows_yilmaz_definition():
    """tau_AP = 2/(N-1) sum_{i=2..N} C(i)/(i-1) - 1, positions from the estimate y."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        x, y = rng.random(9), rng.random(9)
        order = sorted(range(9), key=lambda i: -y[i])
        total = 0.0
        for pos in range(1, 9):
            i = order[pos]
            c = sum(1 for j in order[:pos] if x[j] > x[i])
            total += c / pos
        assert tau_ap(x, y) == pytest.approx(2 * total / 8 - 1, rel=1e-12)
    assert tau_ap([3, 2, 1], [30, 20, 10]) == 1.0
    assert tau_ap([3, 2, 1], [10, 20, 30]) == -1.0
    with pytest.raises(ParameterError, match="ties"):
        tau_ap([1, 1, 2], [1, 2, 3])


def test_agreement_rows_count_each_combination():
    outcomes = {
        "AP": ["a", "a", "=", "b", "=", "a"],
        "P@10": ["a", "=", "=", "b", "b", "a"],
    }
    rows = agreement_rows(outcomes)
    got = {r.outcomes: r.count for r in rows}
    assert got == {("a", "a"): 2, ("a", "="): 1, ("=", "="): 1, ("b", "b"): 1, ("=", "b"): 1}
    assert rows[0].outcomes == ("a", "a") and rows[0].percent == pytest.approx(100 * 2 / 6)
    assert sum(r.percent for r in rows) == pytest.approx(100)
    assert {r.outcomes: r.agree for r in rows} == {
        ("a", "a"): True,
        ("a", "="): False,
        ("=", "="): True,
        ("b", "b"): True,
        ("=", "b"): False,
    }
    # ties of count in the outcome order a, b, = measure by measure
    assert [r.outcomes for r in rows[1:]] == [("a", "="), ("b", "b"), ("=", "b"), ("=", "=")]
    assert pairwise_agreement(outcomes) == {("AP", "P@10"): pytest.approx(4 / 6)}
    with pytest.raises(ParameterError, match="every pair"):
        agreement_rows({"AP": ["a"], "P@10": ["a", "b"]})
