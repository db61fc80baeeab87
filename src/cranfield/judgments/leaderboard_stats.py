"""The statistics of two leaderboards: how alike two orderings of the same runs are.

Each statistic is declared once in :data:`STATISTICS` (what, formula, source; the table of
docs/judgments.md); :func:`rank_statistics` computes all of them but ``same_verdict`` (the
significance verdicts, :mod:`cranfield.judgments.leaderboard_runs`) from the runs' means under
two judgment sets, and :class:`SetPair` is one row of :func:`cranfield.leaderboards`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

__all__ = ["STATISTICS", "RankStats", "SetPair", "rank_statistics", "ranks"]


STATISTICS: dict[str, tuple[str, str, str]] = {
    "tau_b": (
        "Kendall's tau-b between the two orderings of the runs' means",
        "(C - D) / sqrt((n0 - n1)(n0 - n2))",
        "Kendall, Biometrika 33(3), 1945; scipy.stats.kendalltau",
    ),
    "tau_ap_b": (
        "AP rank correlation with ties, symmetric, top-weighted",
        "mean over both directions of 2/|T| sum_{i in T} C(i)/A(i) - 1",
        "Urbano & Marrero, ICTIR 2017, eq. (9)-(10)",
    ),
    "spearman": (
        "Spearman's rho of the means (average ranks for ties)",
        "Pearson's r of the ranks",
        "Spearman 1904; scipy.stats.spearmanr",
    ),
    "pearson": (
        "Pearson's r of the means",
        "cov(a, b) / (sd(a) sd(b))",
        "Pearson 1895; scipy.stats.pearsonr",
    ),
    "top_k_tau": (
        "tau-b over the runs ranked k or better under either set",
        "tau_b restricted to {r: rank_A(r) <= k or rank_B(r) <= k}",
        "Clarke & Dietz, arXiv:2412.17156, 2024 (aggregate tau hides disagreement at the top)",
    ),
    "swaps": (
        "pairs of runs ordered one way under A and the other under B",
        "#{(r, s): (a_r - a_s)(b_r - b_s) < 0}",
        "discordant pairs (Kendall 1938)",
    ),
    "rank_change": (
        "largest change of a run's rank, rank = 1 + runs strictly better",
        "max_r |rank_B(r) - rank_A(r)|",
        "",
    ),
    "same_verdict": (
        "share of tested run pairs with the same significance verdict under A and B",
        "#{pairs: outcome_A = outcome_B} / #pairs",
        "Magdy & Jones, SIGIR 2010, sec. 6.2 (outcomes as cranfield compare)",
    ),
}
"""Each statistic of a pair of leaderboards: (what, formula, source)."""


@dataclass(frozen=True)
class SetPair:
    """Two leaderboards (sets ``a`` and ``b``) under one measure."""

    measure: str
    a: str
    b: str
    runs: int
    tau_b: float
    tau_ap_b: float
    spearman: float
    pearson: float
    top_k: int
    top_runs: int
    top_k_tau: float
    swaps: int
    pairs: int
    moved: str | None
    rank_a: int
    rank_b: int
    same_verdict: float
    tested_pairs: int

    def to_dict(self) -> dict[str, Any]:
        def num(x: Any) -> Any:
            return None if isinstance(x, float) and not math.isfinite(x) else x

        return {k: num(v) for k, v in self.__dict__.items()}


class RankStats(NamedTuple):
    tau_b: float
    tau_ap_b: float
    spearman: float
    pearson: float
    top_runs: int
    top_k_tau: float
    swaps: int
    pairs: int
    moved: int | None
    rank_a: int
    rank_b: int


def ranks(x: np.ndarray) -> np.ndarray:
    """1 + the number of items strictly greater (higher is better), for every item."""
    return len(x) - np.searchsorted(np.sort(x), x, side="right") + 1


def _tau_b(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    from scipy import stats

    return float(stats.kendalltau(x, y).statistic)


def rank_statistics(a: Sequence[float], b: Sequence[float], *, k: int = 10) -> RankStats:
    """The statistics of :data:`STATISTICS` (but ``same_verdict``) between the leaderboards
    whose scores are ``a`` and ``b`` (higher is better; negate a lower-is-better measure):
    NaN where undefined (fewer than two runs, constant scores)."""
    from scipy import stats

    from cranfield.comparing.agreement import dominance, tau_ap_b, tied_pairs

    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    n = len(x)
    nan = float("nan")
    if n == 0 or not (np.isfinite(x).all() and np.isfinite(y).all()):
        return RankStats(nan, nan, nan, nan, 0, nan, 0, 0, None, 0, 0)  # no ordering
    ra, rb = ranks(x), ranks(y)
    shift = np.abs(rb - ra)
    moved = int(np.argmax(shift))
    pairs = n * (n - 1) // 2
    if n < 2:
        return RankStats(nan, nan, nan, nan, n, nan, 0, 0, moved, int(ra[0]), int(rb[0]))
    concordant = int(dominance(x, y).sum())
    # untied in both: pairs - tied in x - tied in y + tied in both
    untied = pairs - tied_pairs(x) - tied_pairs(y) + tied_pairs(x, y)
    swaps = untied - concordant
    constant = np.ptp(x) == 0 or np.ptp(y) == 0
    if constant:
        tau = ap = rho = r = nan
    else:
        tau = _tau_b(x, y)
        ap = tau_ap_b(x, y)
        rho = float(stats.spearmanr(x, y).statistic)
        r = float(stats.pearsonr(x, y).statistic)
    top = (ra <= k) | (rb <= k)
    return RankStats(
        tau,
        ap,
        rho,
        r,
        int(top.sum()),
        _tau_b(x[top], y[top]),
        swaps,
        pairs,
        moved,
        int(ra[moved]),
        int(rb[moved]),
    )
