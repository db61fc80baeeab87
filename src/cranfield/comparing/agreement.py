"""Agreement between measures: pairwise significance outcomes and rank correlations.

Magdy & Jones ("PRES: A Score Metric for Evaluating Recall-Oriented Information Retrieval
Applications", SIGIR 2010) sec. 6.2 compare every pair of runs under each measure with a
significance test (Wilcoxon, 95%) and classes it as "run 1 significantly better", "run 2
significantly better" or "indistinguishable"; the agreement chart (Fig. 7) counts how often the
measures agree.  It also correlates the rankings of runs that two measures induce with
Kendall's tau (Kendall 1938) and draws the ranking change (Fig. 6).

Correlations here:

- ``tau`` variants ``a`` (``(C - D) / (n(n-1)/2)``), ``b`` (ties corrected; scipy's default)
  and ``c`` (Stuart), via ``scipy.stats.kendalltau`` for b and c;
- ``tau_ap`` (Yilmaz, Aslam & Robertson, SIGIR 2008): top-weighted and asymmetric,
  ``tau_AP = 2/(N-1) sum_{i=2..N} C(i)/(i-1) - 1`` where items are in the order of the
  estimated ranking ``y`` and ``C(i)`` counts the items above position i that the reference
  ranking ``x`` also puts above it; no ties allowed;
- ``tau_ap_b`` (Urbano & Marrero, ICTIR 2017): the symmetric AP correlation that allows ties,
  the mean of ``2/|T| sum_{i in T} C(i)/A(i) - 1`` over both directions, where ``A(i)`` is the
  number of items strictly above item i, ``T`` the items with ``A(i) > 0``.

All of them take O(n log n) time and O(n) memory (``dominance`` counts, for every item, the
items above it in both rankings with a merge sort vectorised level by level), so they work on
200,000 items as on 10.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.comparing.checks import floats
from cranfield.errors import ParameterError

__all__ = [
    "OUTCOMES",
    "AgreementRow",
    "agreement_rows",
    "kendall_tau",
    "pairwise_agreement",
    "ranking",
    "tau_ap",
    "tau_ap_b",
]

# outcome of comparing run a (first) with run b (second) under one measure
OUTCOMES = ("a", "b", "=")
OUTCOME_TEXT = {"a": "1st better", "b": "2nd better", "=": "indistinguishable"}


def _pair_arrays(x, y) -> tuple[np.ndarray, np.ndarray]:
    a = floats(x, "rank correlation scores")
    b = floats(y, "rank correlation scores")
    if a.shape != b.shape or a.ndim != 1:
        raise ParameterError("rank correlation needs two equally long lists of scores")
    if len(a) < 2:
        raise ParameterError("rank correlation needs at least 2 items")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ParameterError("rank correlation needs scores that are numbers (no NaN)")
    return a, b


def tied_pairs(*keys: np.ndarray) -> int:
    """Number of pairs of items equal on every key."""
    order = np.lexsort(keys)
    change = np.zeros(len(order), dtype=bool)
    change[0] = True
    for k in keys:
        s = k[order]
        change[1:] |= s[1:] != s[:-1]
    sizes = np.diff(np.append(np.flatnonzero(change), len(order))).astype(object)
    return int((sizes * (sizes - 1) // 2).sum())


def dominance(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """For every item i, ``#{j: x_j > x_i and y_j > y_i}``, in O(n log^2 n) vectorised time.

    In the order of y descending (ties by x ascending) those j are exactly the items placed
    before i with a larger x: an item before i has ``y_j >= y_i``, and with ``y_j = y_i`` it
    has ``x_j <= x_i``.  A bottom-up merge sort counts them: at the level of width w, each
    item in the right half of a group of 2w positions counts the larger x in the left half
    (one ``searchsorted`` over the sorted left halves of all groups at once).
    """
    n = len(x)
    order = np.lexsort((x, -y))
    v = np.unique(x, return_inverse=True)[1].reshape(-1)[order].astype(np.int64)
    m = int(v.max()) + 2  # keys group * m + v keep the groups apart
    before = np.zeros(n, dtype=np.int64)
    pos = np.arange(n, dtype=np.int64)
    w = 1
    while w < n:
        group = pos // (2 * w)
        right = (pos // w) % 2 == 1
        left_keys = np.sort(group[~right] * m + v[~right])
        g = group[right] * m
        end = np.searchsorted(left_keys, g + m, side="left")
        before[right] += end - np.searchsorted(left_keys, g + v[right], side="right")
        w *= 2
    out = np.empty(n, dtype=np.int64)
    out[order] = before
    return out


def kendall_tau(x, y, variant: str = "b") -> float:
    """Kendall's tau between the rankings that scores ``x`` and ``y`` induce on the same items.

    ``variant``: ``a`` (no tie correction, ``(C - D) / (n(n-1)/2)`` counted exactly in
    integers), ``b`` (default) or ``c`` (``scipy.stats.kendalltau``); NaN when a ranking is
    constant (b and c).
    """
    a, b = _pair_arrays(x, y)
    if variant == "a":
        n = len(a)
        pairs = n * (n - 1) // 2
        concordant = int(dominance(a, b).sum())
        untied = pairs - tied_pairs(a) - tied_pairs(b) + tied_pairs(a, b)
        return (2 * concordant - untied) / pairs
    if variant not in ("b", "c"):
        raise ParameterError(f"unknown tau variant {variant!r}; choose a, b or c")
    from scipy import stats

    return float(stats.kendalltau(a, b, variant=variant).statistic)


def _above(y: np.ndarray) -> np.ndarray:
    """For every item, the number of items with a strictly larger score."""
    return len(y) - np.searchsorted(np.sort(y), y, side="right")


def _ap_direction(y: np.ndarray, c: np.ndarray) -> float:
    """``2/|T| sum_{i in T} C(i)/A(i) - 1`` with positions from ``y`` (higher is better) and
    ``C`` from :func:`dominance`."""
    a = _above(y)
    t = a > 0
    if not t.any():
        return float("nan")
    return 2.0 * float((c[t] / a[t]).sum()) / int(t.sum()) - 1.0


def tau_ap(x, y) -> float:
    """Yilmaz et al.'s AP correlation of the estimated ranking ``y`` against the reference
    ranking ``x`` (scores, higher is better); neither may contain ties."""
    a, b = _pair_arrays(x, y)
    if len(np.unique(a)) < len(a) or len(np.unique(b)) < len(b):
        raise ParameterError("tau_ap is defined without ties; use tau_ap_b for tied scores")
    return _ap_direction(b, dominance(a, b))


def tau_ap_b(x, y) -> float:
    """Urbano & Marrero's symmetric AP correlation with ties (tau_AP_b); NaN when a ranking
    is constant (no item has another above it)."""
    a, b = _pair_arrays(x, y)
    c = dominance(a, b)  # symmetric in the two rankings
    return (_ap_direction(b, c) + _ap_direction(a, c)) / 2.0


def ranking(scores: Mapping[str, float], *, higher_is_better: bool = True) -> list[str]:
    """Run names from best to worst; equal scores keep the given order, NaN scores go last."""
    sign = -1.0 if higher_is_better else 1.0
    keyed = []
    for i, (name, score) in enumerate(scores.items()):
        s = float(score)
        keyed.append((s != s, 0.0 if s != s else sign * s, i, name))
    return [name for *_, name in sorted(keyed)]


@dataclass(frozen=True)
class AgreementRow:
    """One bar of the agreement chart: an outcome per measure and how many pairs had it."""

    outcomes: tuple[str, ...]
    count: int
    percent: float

    @property
    def agree(self) -> bool:
        return len(set(self.outcomes)) == 1


def agreement_rows(outcomes: Mapping[str, Sequence[str]]) -> list[AgreementRow]:
    """Count each combination of outcomes across measures (Magdy & Jones 2010, Fig. 7).

    ``outcomes[measure][k]`` is ``"a"``, ``"b"`` or ``"="`` for the k-th pair of runs.  Rows
    are ordered by decreasing count, then by outcome (a, b, =) measure by measure.
    """
    labels = list(outcomes)
    if not labels:
        raise ParameterError("agreement needs at least one measure")
    lengths = {len(v) for v in outcomes.values()}
    if len(lengths) != 1:
        raise ParameterError("every measure must have an outcome for every pair")
    total = lengths.pop()
    for v in outcomes.values():
        bad = set(v) - set(OUTCOMES)
        if bad:
            raise ParameterError(f"unknown outcome {sorted(bad)[0]!r}; outcomes are a, b, =")
    combos = Counter(zip(*(outcomes[m] for m in labels), strict=True))
    rank = {o: i for i, o in enumerate(OUTCOMES)}
    rows = [
        AgreementRow(tuple(k), c, 100.0 * c / total if total else 0.0) for k, c in combos.items()
    ]
    rows.sort(key=lambda r: (-r.count, [rank[o] for o in r.outcomes]))
    return rows


def pairwise_agreement(outcomes: Mapping[str, Sequence[str]]) -> dict[tuple[str, str], float]:
    """Fraction of pairs of runs on which two measures reach the same outcome."""
    labels = list(outcomes)
    out: dict[tuple[str, str], float] = {}
    for i, m1 in enumerate(labels):
        for m2 in labels[i + 1 :]:
            o1, o2 = outcomes[m1], outcomes[m2]
            same = sum(1 for u, v in zip(o1, o2, strict=True) if u == v)
            out[(m1, m2)] = same / len(o1) if o1 else float("nan")
    return out
