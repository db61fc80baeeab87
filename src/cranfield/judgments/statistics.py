"""The agreement statistics between judgment sets, each declared once.

A :class:`Statistic` states the name, what it measures, its formula, its source (the paper
and the part of it; section and equation numbers are not given where they were not checked
against the paper), the cases where it is undefined and the value declared for them, and the
tests that check it against a peer package or the paper's worked example;
``docs/judgments.md`` and ``tests/judgments/test_judges_statistics.py`` read :data:`STATISTICS`.

Every statistic is computed from *sufficient statistics that add up over queries* (a
confusion matrix, a coincidence matrix, sums over units), so that a bootstrap sample of
queries is one matrix product of the queries' multiplicities with the per-query arrays
(:mod:`cranfield.judgments.agreement`).  The functions below take those sums, with any
number of leading axes (one per bootstrap sample), and return NaN where the statistic is
undefined (the caller warns, saying why).

Categories are the integer grades from the smallest to the largest grade in the data,
``k = max - min + 1`` of them (a grade nobody used is still a category: weights and
distances are by grade value, and Gwet's ``q`` counts it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "STATISTICS",
    "Statistic",
    "cohen_kappa",
    "coincidences",
    "disagreement_weights",
    "fleiss_kappa",
    "fleiss_terms",
    "gwet_ac",
    "gwet_terms",
    "krippendorff_alpha",
    "markdown_table",
]

COHEN_1960 = (
    "Cohen, 'A coefficient of agreement for nominal scales', Educational and Psychological "
    "Measurement 20(1), 1960"
)
COHEN_1968 = (
    "Cohen, 'Weighted kappa: nominal scale agreement with provision for scaled disagreement "
    "or partial credit', Psychological Bulletin 70(4), 1968"
)
KRIPPENDORFF_2011 = "Krippendorff, 'Computing Krippendorff's alpha-reliability', 2011"
FLEISS_1971 = (
    "Fleiss, 'Measuring nominal scale agreement among many raters', Psychological Bulletin "
    "76(5), 1971"
)
GWET_2008 = (
    "Gwet, 'Computing inter-rater reliability and its variance in the presence of high "
    "agreement', British Journal of Mathematical and Statistical Psychology 61(1), 2008"
)
GWET_2014 = "Gwet, Handbook of Inter-Rater Reliability, 4th ed., 2014"


@dataclass(frozen=True)
class Statistic:
    """The declaration of one agreement statistic."""

    name: str
    summary: str
    formula: str
    source: str
    sets: str
    """``pair`` (two sets, on the pairs both judged) or ``all`` (every set at once)."""
    undefined: str
    checked_by: tuple[str, ...]


_T = "tests/judgments/test_judges_statistics.py::"
_KAPPA_UNDEFINED = (
    "no pair in common, or expected disagreement 0 (both sets give every pair the same one "
    "grade, p_e = 1): NaN with a warning saying which"
)

STATISTICS: dict[str, Statistic] = {
    s.name: s
    for s in (
        Statistic(
            "kappa",
            "Cohen's kappa: agreement beyond chance between two sets",
            "kappa = (p_o - p_e) / (1 - p_e); p_o = sum_g n_gg / n, "
            "p_e = sum_g (n_g. / n)(n_.g / n)",
            f"{COHEN_1960}: the coefficient kappa",
            "pair",
            _KAPPA_UNDEFINED,
            (_T + "test_cohen_equals_sklearn", _T + "test_cohen_hand_worked"),
        ),
        Statistic(
            "kappa_linear",
            "Cohen's weighted kappa, linear disagreement weights",
            "kappa_w = 1 - sum v_ij n_ij / sum v_ij n_i. n_.j / n; v_ij = |i - j|",
            f"{COHEN_1968}: weighted kappa, disagreement weights v_ij",
            "pair",
            _KAPPA_UNDEFINED,
            (_T + "test_cohen_equals_sklearn", _T + "test_cohen_hand_worked"),
        ),
        Statistic(
            "kappa_quadratic",
            "Cohen's weighted kappa, quadratic disagreement weights",
            "kappa_w = 1 - sum v_ij n_ij / sum v_ij n_i. n_.j / n; v_ij = (i - j)^2",
            f"{COHEN_1968}: weighted kappa, disagreement weights v_ij",
            "pair",
            _KAPPA_UNDEFINED,
            (_T + "test_cohen_equals_sklearn", _T + "test_cohen_hand_worked"),
        ),
        Statistic(
            "alpha_nominal",
            "Krippendorff's alpha, nominal metric, every set at once (missing judgments allowed)",
            "alpha = 1 - (n - 1) sum_ck o_ck d_ck / sum_ck n_c n_k d_ck; o_ck = sum_u "
            "(pairs of values c, k in unit u) / (m_u - 1); d_ck = [c != k]",
            f"{KRIPPENDORFF_2011}: coincidences of pairable values, nominal difference",
            "all",
            "fewer than 2 pairable values, or a single grade in all of them (expected "
            "disagreement 0): NaN with a warning",
            (_T + "test_krippendorff_paper_example", _T + "test_krippendorff_equals_package"),
        ),
        Statistic(
            "alpha_ordinal",
            "Krippendorff's alpha, ordinal metric",
            "as alpha_nominal with d_ck = (sum_{g=c..k} n_g - (n_c + n_k)/2)^2",
            f"{KRIPPENDORFF_2011}: ordinal difference function",
            "all",
            "as alpha_nominal",
            (_T + "test_krippendorff_paper_example", _T + "test_krippendorff_equals_package"),
        ),
        Statistic(
            "alpha_interval",
            "Krippendorff's alpha, interval metric",
            "as alpha_nominal with d_ck = (c - k)^2",
            f"{KRIPPENDORFF_2011}: interval difference function",
            "all",
            "as alpha_nominal",
            (_T + "test_krippendorff_paper_example", _T + "test_krippendorff_equals_package"),
        ),
        Statistic(
            "fleiss_kappa",
            "Fleiss' kappa over the pairs judged by every set (for 2 sets it is Scott's pi)",
            "kappa = (P - P_e) / (1 - P_e); P = mean_i (sum_j n_ij^2 - m) / (m (m - 1)), "
            "P_e = sum_j p_j^2, p_j = sum_i n_ij / (N m)",
            f"{FLEISS_1971}: kappa for m raters per subject",
            "all",
            "no pair judged by every set, or one grade everywhere (P_e = 1): NaN with a warning",
            (_T + "test_fleiss_paper_example", _T + "test_fleiss_equals_statsmodels"),
        ),
        Statistic(
            "ac1",
            "Gwet's AC1: agreement beyond chance, robust to skewed grades (missing judgments "
            "allowed)",
            "AC1 = (p_a - p_e) / (1 - p_e); p_a = mean_{i: r_i >= 2} sum_k r_ik (r_ik - 1) / "
            "(r_i (r_i - 1)), p_e = 1/(q - 1) sum_k pi_k (1 - pi_k), pi_k = mean_{i: r_i >= 1} "
            "r_ik / r_i (pairs judged by one set only count in pi_k, of the queries with a pair "
            "judged by two)",
            f"{GWET_2008}: AC1 (two raters, and several); {GWET_2014}: missing ratings",
            "all",
            "no pair judged by two sets, or a single category (q = 1): NaN with a warning",
            (
                _T + "test_gwet_hand_worked",
                _T + "test_gwet_brute_force",
                _T + "test_gwet_equals_irrcac",
            ),
        ),
        Statistic(
            "ac2",
            "Gwet's AC2: AC1 with quadratic agreement weights w_kl = 1 - (k - l)^2 / (q - 1)^2",
            "AC2 = (p_a - p_e) / (1 - p_e); p_a = mean_i sum_k r_ik (r*_ik - 1) / "
            "(r_i (r_i - 1)), r*_ik = sum_l w_kl r_il; p_e = T_w / (q (q - 1)) sum_k pi_k "
            "(1 - pi_k), T_w = sum_kl w_kl",
            f"{GWET_2014}: the weighted AC2",
            "all",
            "as ac1",
            (
                _T + "test_gwet_hand_worked",
                _T + "test_gwet_brute_force",
                _T + "test_gwet_equals_irrcac",
            ),
        ),
    )
}


def disagreement_weights(k: int, kind: str | None) -> np.ndarray:
    """Cohen's disagreement weights ``v_ij`` on ``k`` consecutive grades: ``None`` 0/1,
    ``linear`` ``|i - j|``, ``quadratic`` ``(i - j)^2``."""
    i = np.arange(k, dtype=np.float64)
    d = np.abs(i[:, None] - i[None, :])
    if kind is None:
        return (d > 0).astype(np.float64)
    if kind == "linear":
        return d
    if kind == "quadratic":
        return d * d
    raise ValueError(f"unknown weights {kind!r}")


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with NaN where ``den`` is 0 (no division by zero, no numpy warning)."""
    num, den = np.broadcast_arrays(np.asarray(num, np.float64), np.asarray(den, np.float64))
    out = np.full(num.shape, np.nan)
    ok = den != 0
    np.divide(num, den, out=out, where=ok)
    return out


def cohen_kappa(confusion: np.ndarray, weights: str | None = None) -> np.ndarray:
    """Cohen's (weighted) kappa of confusion matrices ``(..., k, k)`` (rows: first set,
    columns: second): ``1 - sum v O / sum v E`` with ``E = row x column / n``; NaN when the
    expected disagreement is 0 (or n = 0)."""
    c = np.asarray(confusion, dtype=np.float64)
    v = disagreement_weights(c.shape[-1], weights)
    n = c.sum(axis=(-2, -1))
    rows, cols = c.sum(axis=-1), c.sum(axis=-2)
    observed = (c * v).sum(axis=(-2, -1))
    expected = _ratio(np.einsum("...i,ij,...j->...", rows, v, cols), n)
    return 1.0 - _ratio(observed, np.where(n > 0, expected, 0.0))


def coincidences(values: np.ndarray, groups: np.ndarray, n_groups: int, k: int) -> np.ndarray:
    """Krippendorff's coincidence matrices summed by group, ``(n_groups, k, k)``, from the
    units' values ``(units, coders)`` (categories 0..k-1; -1: no value) and each unit's
    group: every ordered pair of values (coders i != j) of a unit with ``m_u >= 2`` values
    adds ``1 / (m_u - 1)`` to ``o[v_i, v_j]``.  One weighted
    bincount per pair of coders: memory ``n_groups x k x k``, never ``units x k x k``."""
    v = np.asarray(values, dtype=np.int64)
    m = (v >= 0).sum(axis=1)
    weight = _ratio(np.ones(len(v)), m - 1.0)
    weight[m < 2] = 0.0
    out = np.zeros(n_groups * k * k)
    for i in range(v.shape[1]):
        for j in range(v.shape[1]):
            if i == j:
                continue
            both = np.flatnonzero((v[:, i] >= 0) & (v[:, j] >= 0) & (m >= 2))
            if len(both):
                codes = (groups[both] * k + v[both, i]) * k + v[both, j]
                out += np.bincount(codes, weights=weight[both], minlength=n_groups * k * k)
    return out.reshape(n_groups, k, k)


def _alpha_distances(level: str, totals: np.ndarray) -> np.ndarray:
    """``d_ck`` of a metric, ``(..., k, k)``; the ordinal one depends on the totals n_g."""
    k = totals.shape[-1]
    i = np.arange(k, dtype=np.float64)
    if level == "nominal":
        return np.broadcast_to((i[:, None] != i[None, :]).astype(np.float64), (*totals.shape, k))
    if level == "interval":
        d = i[:, None] - i[None, :]
        return np.broadcast_to(d * d, (*totals.shape, k))
    if level == "ordinal":
        cum = np.cumsum(totals, axis=-1)  # sum_{g <= c} n_g
        lo = np.minimum(i[:, None], i[None, :]).astype(np.int64)
        hi = np.maximum(i[:, None], i[None, :]).astype(np.int64)
        # sum_{g=lo..hi} n_g - (n_lo + n_hi) / 2
        below = np.where(lo > 0, cum[..., np.maximum(lo - 1, 0)], 0.0)
        span = cum[..., hi] - below - (totals[..., lo] + totals[..., hi]) / 2.0
        return span * span
    raise ValueError(f"unknown level of measurement {level!r}")


def krippendorff_alpha(coincidence: np.ndarray, level: str) -> np.ndarray:
    """Krippendorff's alpha from summed coincidence matrices ``(..., k, k)``: ``1 - (n - 1)
    sum o d / sum n_c n_k d``; NaN when the expected disagreement is 0."""
    o = np.asarray(coincidence, dtype=np.float64)
    totals = o.sum(axis=-1)
    n = totals.sum(axis=-1)
    d = _alpha_distances(level, totals)
    observed = (o * d).sum(axis=(-2, -1))
    expected = np.einsum("...i,...ij,...j->...", totals, d, totals)
    return 1.0 - _ratio((n - 1) * observed, expected)


def fleiss_terms(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per subject (judged by all ``m`` sets) ``P_i = (sum_j n_ij^2 - m) / (m (m - 1))`` and
    the counts themselves, from the counts ``(subjects, k)``."""
    n = np.asarray(counts, dtype=np.float64)
    m = n.sum(axis=1)
    return _ratio((n * n).sum(axis=1) - m, m * (m - 1)), n


def fleiss_kappa(sum_p: np.ndarray, subjects: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Fleiss' kappa from ``sum_i P_i``, the number of subjects and the category totals
    ``(..., k)`` summed over subjects; NaN when ``P_e = 1`` or there is no subject."""
    p_bar = _ratio(sum_p, subjects)
    p = _ratio(totals, np.asarray(totals, np.float64).sum(axis=-1, keepdims=True))
    p_e = (p * p).sum(axis=-1)
    return _ratio(p_bar - p_e, 1.0 - p_e)


def gwet_weights(k: int, weighted: bool) -> np.ndarray:
    """Agreement weights: identity (AC1) or quadratic ``1 - (k - l)^2 / (q - 1)^2`` (AC2)."""
    if not weighted or k < 2:
        return np.eye(k)
    i = np.arange(k, dtype=np.float64)
    return 1.0 - (i[:, None] - i[None, :]) ** 2 / (k - 1) ** 2


def gwet_terms(counts: np.ndarray, weighted: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per unit (judged by at least 2 sets) ``p_a,i = sum_k r_ik (r*_ik - 1) / (r_i (r_i -
    1))`` and ``r_ik / r_i``, from the counts ``r_ik`` ``(units, k)``."""
    r = np.asarray(counts, dtype=np.float64)
    ri = r.sum(axis=1)
    star = r @ gwet_weights(r.shape[1], weighted).T
    pa = _ratio((r * (star - 1.0)).sum(axis=1), ri * (ri - 1.0))
    return pa, r / ri[:, None]


def gwet_ac(sum_pa, units, sum_pi, units_pi, weighted: bool) -> np.ndarray:
    """Gwet's AC1 (``weighted=False``) or AC2 from ``sum_i p_a,i`` over the ``units`` rated
    at least twice and ``sum_i r_ik / r_i`` ``(..., k)`` over the ``units_pi`` rated at least
    once (Gwet 2014's treatment of missing ratings); NaN with one category or no unit."""
    sum_pi = np.asarray(sum_pi, dtype=np.float64)
    q = sum_pi.shape[-1]
    if q < 2:
        return np.full(np.shape(sum_pa), np.nan)
    t_w = gwet_weights(q, weighted).sum()
    pa = _ratio(sum_pa, units)
    pi = _ratio(sum_pi, np.asarray(units_pi, np.float64)[..., None])
    pe = t_w / (q * (q - 1)) * (pi * (1.0 - pi)).sum(axis=-1)
    return _ratio(pa - pe, 1.0 - pe)


def markdown_table() -> str:
    """The table of :data:`STATISTICS` in ``docs/judgments.md`` (between its ``generated``
    markers; ``tests/judgments/test_judges_statistics.py`` fails when the page is stale)."""
    rows = [
        "| name | sets | what | formula | source | undefined |",
        "|---|---|---|---|---|---|",
    ]
    for s in STATISTICS.values():
        rows.append(
            f"| `{s.name}` | {s.sets} | {s.summary} | `{s.formula}` | {s.source} | {s.undefined} |"
        )
    return "\n".join(rows) + "\n"
