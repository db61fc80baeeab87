"""Tie-aware forms of the standard measures: exact expectations over random tie-breaking.

Used under the ``weak`` tie policy.  Each function returns, per query, the mean of the plain
measure over every ordering consistent with the weak order (uniformly random order within each
tie group), in closed form (McSherry & Najork, "Computing information retrieval performance
measures efficiently in the presence of tied scores", ECIR 2008; formulas and their
verification by enumeration: measures-notes sec. 2).  Notation: see :mod:`.levels`.

- counts at k (P, R, Rprec, Judged): ``E[c@k] = S_g + (k - T_g) r_g / n_g`` for the level
  ``g`` holding position k (sec. 2.1);
- Success@k: ``1 - C(n_g - r_g, k - T_g) / C(n_g, k - T_g)`` when ``S_g = 0`` (sec. 2.3);
- AP: ``(1/R) sum_g (r_g/n_g) sum_{j<=m_g} [S_g + 1 + (j-1)(r_g-1)/(n_g-1)] / (T_g + j)``
  (sec. 2.2), ``m_g = n_g`` or, at a cut-off k, ``min(n_g, k - T_g)``;
- RR: ``sum_j C(n-j, r-1)/C(n, r) / (T + j)`` over the first level holding a relevant
  document (sec. 2.3);
- DCG: ``sum_g (G_g / n_g) sum_{i in level g, i <= k} 1/log2(i+1)`` (sec. 2.4); IDCG does not
  depend on ties.

On a linear ordering (no ties) each form performs the plain measure's floating-point
operations in the same order, so it equals the plain value bit for bit.  Measures that do not
depend on the order (counts, set measures) are their own tie-aware form.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..judged_rankings import JudgedRankings, segment_seqsum
from ..ties.levels import expand, level_bounds, log_binom, marked_levels, retrieved_part_mean
from .dcg import dcg_parts
from .discount import discounted
from .gains import gain_table
from .registry import REGISTRY, tie_aware_form

__all__ = ["expected_count_at", "tie_average_precision", "tie_dcg", "tie_reciprocal_rank"]


class _AtK:
    """Per query with ``0 < k`` (capped at the ranking length): the level holding position k,
    and the marked rows before it (S_g) and in it (r_g)."""

    def __init__(self, jr: JudgedRankings, mask: np.ndarray, k: int | np.ndarray) -> None:
        k = np.broadcast_to(np.asarray(k, dtype=np.int64), jr.num_queries)
        kq = np.maximum(np.minimum(k, jr.num_ret), 0)
        self.q = np.flatnonzero(kq > 0)
        pos = jr.offsets[self.q] + kq[self.q] - 1
        _, start, end = level_bounds(jr, pos, True)
        rows = np.flatnonzero(mask)
        a, b, c = (np.searchsorted(rows, x) for x in (jr.offsets[self.q], start, end))
        self.S, self.r = b - a, c - b
        self.n = end - start
        self.m = pos + 1 - start  # positions of the level within the top k


def expected_count_at(jr: JudgedRankings, mask: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """Per query ``E[number of rows where mask holds among ranks 1..k]`` over tie-breakings."""
    at = _AtK(jr, mask, k)
    out = np.zeros(jr.num_queries)
    out[at.q] = at.S + at.m * at.r / at.n
    return out


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(len(num))
    den = np.asarray(den, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


@tie_aware_form("P")
def tie_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[P@k] = E[rel@k] / k."""
    return expected_count_at(jr, jr.relevant(rel), cutoff) / float(cutoff)


@tie_aware_form("R")
def tie_recall(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[R@k] = E[rel@k] / R."""
    return _ratio(expected_count_at(jr, jr.relevant(rel), cutoff), jr.num_rel(rel))


@tie_aware_form("Rprec")
def tie_r_precision(jr: JudgedRankings, *, rel: int, mult: float = 1.0) -> np.ndarray:
    """E[Rprec] = E[rel@min(n, R)] / R (with mult=x: c = (long)(x R + 0.9) for R)."""
    R = jr.num_rel(rel)
    c = R if mult == 1.0 else np.maximum(np.trunc(mult * R + 0.9).astype(np.int64), 0)
    return _ratio(expected_count_at(jr, jr.relevant(rel), np.minimum(jr.num_ret, c)), c)


@tie_aware_form("Judged")
def tie_judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Judged@k] = E[judged@k] / k."""
    return expected_count_at(jr, jr.grades >= 0, cutoff) / float(cutoff)


@tie_aware_form("Success")
def tie_success(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """P(rel@k > 0) = 1 - [S_g = 0] C(n_g - r_g, m) / C(n_g, m), m = k - T_g."""
    at = _AtK(jr, jr.relevant(rel), cutoff)
    i = at.n - at.r
    none = np.zeros(len(at.q))
    possible = (at.S == 0) & (at.m <= i)
    m = np.where(possible, at.m, 0)
    none[possible] = np.exp(log_binom(i, m) - log_binom(at.n, m))[possible]
    out = np.zeros(jr.num_queries)
    out[at.q] = 1.0 - none
    return out


def tie_average_precision(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """Expected AP (AP@k with ``cutoff``), normalised by R as trec_eval."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n, T, r, S = ml.size, ml.before, ml.marked, ml.marked_before
    limit = jr.limit(cutoff)
    m = n if limit is None else np.minimum(n, limit - T)
    idx = np.flatnonzero(m > 0)
    contrib = np.zeros(len(idx))
    single = n[idx] == 1
    si = idx[single]
    contrib[single] = (S[si] + 1).astype(np.float64) / (T[si] + 1).astype(np.float64)
    multi = idx[~single]
    if len(multi):
        rows, seg = expand(ml.start[multi], m[multi])
        rank = rows + np.repeat(T[multi] + 1 - ml.start[multi], m[multi])
        h = np.add.reduceat(1.0 / rank.astype(np.float64), seg)
        nm, rm, Tm, Sm, mm = n[multi], r[multi], T[multi], S[multi], m[multi]
        c = (rm - 1) / (nm - 1)
        inner = (Sm + 1) * h + c * (mm - (Tm + 1) * h)
        contrib[~single] = rm / nm * inner
    total = segment_seqsum(ml.query[idx], contrib, jr.num_queries)
    return _ratio(total, jr.num_rel(rel))


@tie_aware_form("AP")
def tie_ap(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[AP@k]."""
    return tie_average_precision(jr, cutoff, rel)


@tie_aware_form("GMAP")
def tie_gmap(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    """Per query E[AP]; the aggregate is the geometric mean of these expectations."""
    return tie_average_precision(jr, None, rel)


def tie_reciprocal_rank(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """E[RR@k] over the first level holding a relevant document."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    first = np.flatnonzero(ml.marked_before == 0)
    n, rg, T = ml.size[first], ml.marked[first], ml.before[first]
    J = n - rg + 1
    limit = jr.limit(cutoff)
    if limit is not None:
        J = np.minimum(J, limit - T)
    ok = J > 0
    first, n, rg, T, J = first[ok], n[ok], rg[ok], T[ok], J[ok]
    out = np.zeros(jr.num_queries)
    if len(first) == 0:
        return out
    seg = np.cumsum(J) - J
    j = np.arange(int(J.sum())) - np.repeat(seg, J) + 1
    nn, rr, TT = np.repeat(n, J), np.repeat(rg, J), np.repeat(T, J)
    p = np.exp(log_binom(nn - j, rr - 1) - log_binom(nn, rr))
    out[ml.query[first]] = np.add.reduceat(p / (TT + j).astype(np.float64), seg)
    return out


@tie_aware_form("RR")
def tie_rr(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[RR@k]."""
    return tie_reciprocal_rank(jr, cutoff, rel)


def _positional(
    jr: JudgedRankings,
    weights: np.ndarray,
    term: Callable[[np.ndarray, np.ndarray], np.ndarray],
    cutoff: int | None,
) -> np.ndarray:
    """``E[sum_{i <= k} term(w(d_i), i)]`` for ``term`` linear in the weight:
    ``sum_g sum_{i in level g, i <= k} term(W_g / n_g, i)`` (measures-notes sec. 2.4)."""
    rows = np.flatnonzero(weights != 0)
    ml = marked_levels(jr, rows, True)
    W = np.add.reduceat(weights[rows], ml.first_marked) if len(rows) else np.zeros(0)
    n, T = ml.size, ml.before
    limit = jr.limit(cutoff)
    m = n if limit is None else np.minimum(n, limit - T)
    idx = np.flatnonzero((W != 0) & (m > 0))
    contrib = np.zeros(len(idx))
    single = n[idx] == 1
    si = idx[single]
    contrib[single] = term(W[si], T[si] + 1)
    multi = idx[~single]
    if len(multi):
        lrows, seg = expand(ml.start[multi], m[multi])
        rank = lrows + np.repeat(T[multi] + 1 - ml.start[multi], m[multi])
        per = term(np.ones(len(rank)), rank)
        contrib[~single] = W[multi] / n[multi] * np.add.reduceat(per, seg)
    return segment_seqsum(ml.query[idx], contrib, jr.num_queries)


def tie_dcg(
    jr: JudgedRankings,
    cutoff: int | None,
    gains: dict | None,
    convention: str = "trec",
    base: float = 2.0,
) -> np.ndarray:
    """E[DCG@k] = sum_g (G_g / n_g) * (sum of the discounts of level g's positions <= k)."""

    def term(w: np.ndarray, rank: np.ndarray) -> np.ndarray:
        return discounted(w, rank, convention, base)

    return _positional(jr, gain_table(jr, gains).row_gain, term, cutoff)


@tie_aware_form("DCG")
def tie_dcg_measure(
    jr: JudgedRankings, *, cutoff: int | None, gains: dict | None, convention: str, base: float
) -> np.ndarray:
    """E[DCG@k]."""
    return tie_dcg(jr, cutoff, gains, convention, base)


@tie_aware_form("nDCG")
def tie_ndcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: dict | None, convention: str, base: float
) -> np.ndarray:
    """E[nDCG@k] = E[DCG@k] / IDCG@k."""
    idcg = dcg_parts(jr, cutoff, gains, convention, base)[1]
    return _ratio(tie_dcg(jr, cutoff, gains, convention, base), idcg)


@tie_aware_form("RelP")
def tie_relative_precision(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[RelP@k] = E[rel@k] / min(k, R)."""
    R = jr.num_rel(rel)
    return _ratio(expected_count_at(jr, jr.relevant(rel), cutoff), np.minimum(cutoff, R))


@tie_aware_form("Unjudged")
def tie_unjudged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Unjudged@k] = E[unjudged@k] / k."""
    return expected_count_at(jr, jr.grades < 0, cutoff) / float(cutoff)


@tie_aware_form("RBP")
def tie_rbp(jr: JudgedRankings, *, p: float, gains: dict | None) -> np.ndarray:
    """E[RBP] = (1 - p) sum_g (G_g / n_g) sum_{i in g} p^(i-1) (gains as RBP's)."""
    from .rbp import powers

    gt = gain_table(jr, gains, normalise=True)
    pw = powers(p, jr.max_rank)
    return (1.0 - p) * _positional(jr, gt.row_gain, lambda w, i: w * pw[i - 1], None)


@tie_aware_form("RBPResid")
def tie_rbp_resid(jr: JudgedRankings, *, p: float) -> np.ndarray:
    """E[RBPResid] = p^n + (1 - p) sum_g (U_g / n_g) sum_{i in g} p^(i-1), U_g unjudged."""
    from .rbp import powers

    pw = powers(p, jr.max_rank)
    unjudged = (jr.grades < 0).astype(np.float64)
    return pw[jr.num_ret] + (1 - p) * _positional(jr, unjudged, lambda w, i: w * pw[i - 1], None)


def _uniform_before(jr: JudgedRankings, ml, others: np.ndarray):
    """Per marked level: (a, u) = the ``others`` rows (sorted) of its query before the level,
    and in the level.  A given marked document has ``a + V`` of them above it, ``V`` uniform on
    ``0..u`` (its place among the level's u others is uniform)."""
    first = np.searchsorted(others, jr.offsets[ml.query])
    at = np.searchsorted(others, ml.start)
    end = np.searchsorted(others, ml.start + ml.size)
    return at - first, end - at


@tie_aware_form("BinG")
def tie_bin_g(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[BinG] = (1/R) sum_g r_g mean_{v=0..i_g} 1/log2(2 + j_g + v), j_g the non-relevant
    documents before level g, i_g those in it."""
    relv = jr.relevant(rel)
    ml = marked_levels(jr, np.flatnonzero(relv), True)
    j, i = _uniform_before(jr, ml, np.flatnonzero(~relv))
    log2 = jr.log2_table(int(jr.max_rank) + 2)
    contrib = np.zeros(len(ml.start))
    single = i == 0
    contrib[single] = ml.marked[single] / log2[j[single] + 2]
    multi = np.flatnonzero(~single)
    if len(multi):
        cnt = i[multi] + 1
        seg = np.cumsum(cnt) - cnt
        x = np.repeat(j[multi] - seg, cnt) + np.arange(int(cnt.sum()))
        mean = np.add.reduceat(1.0 / log2[x + 2], seg) / cnt
        contrib[multi] = ml.marked[multi] * mean
    cut, m = _cut_levels(jr, ml)
    if len(cut):  # only the first m positions of the level are retrieved
        jc = j[cut]
        contrib[cut] = ml.marked[cut] * retrieved_part_mean(
            ml.size[cut], m, i[cut], lambda g, v: 1.0 / log2[jc[g] + v + 2]
        )
    total = segment_seqsum(ml.query, contrib, jr.num_queries)
    R = jr.num_rel(rel)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=(R > 0) & (jr.count(relv) > 0))
    return out


def _cut_levels(jr: JudgedRankings, ml) -> tuple[np.ndarray, np.ndarray]:
    """The marked levels that a depth cut splits (see ``JudgedRankings.cut``), and how many of
    their positions are retrieved."""
    if not jr.cut:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    visible = jr.offsets[ml.query] + jr.num_ret[ml.query]
    cut = np.flatnonzero(ml.start + ml.size > visible)
    return cut, visible[cut] - ml.start[cut]


def tie_bpref(jr: JudgedRankings, rel: int) -> np.ndarray:
    """E[Bpref] = (1/R) sum_g r_g (1 - E[min(a_g + V, R)] / min(N, R)), V uniform on 0..u_g
    (a_g, u_g: judged non-relevant before / in level g; N: judged non-relevant in the qrels)."""
    L = max(rel, 0)
    relv = jr.relevant(rel)
    ml = marked_levels(jr, np.flatnonzero(relv), True)
    nonrel = np.flatnonzero((jr.grades >= 0) & (jr.grades < L))
    a, u = _uniform_before(jr, ml, nonrel)
    R = jr.num_rel(rel)
    D = np.minimum(jr.qrels_count((jr.qrels_grades >= 0) & (jr.qrels_grades < L)), R)
    Rg, Dg = R[ml.query], D[ml.query]
    # sum_{v=0..u} min(a + v, R): (t + 1) a + t (t + 1) / 2 + (u - t) R with t = min(u, R-a-1)
    t = np.minimum(u, Rg - a - 1)
    below = t >= 0
    total_min = np.where(below, (t + 1) * a + t * (t + 1) // 2 + (u - t) * Rg, (u + 1) * Rg)
    mean_min = total_min / (u + 1)
    term = np.ones(len(ml.start))
    some = Dg > 0
    term[some] = 1.0 - (mean_min[some] / Dg[some].astype(np.float64))
    contrib = np.where(ml.marked == 1, term, ml.marked * term)
    cut, m = _cut_levels(jr, ml)
    if len(cut):  # only the first m positions of the level are retrieved
        ac, Rc, Dc = a[cut], Rg[cut], Dg[cut].astype(np.float64)

        def value(g: np.ndarray, v: np.ndarray) -> np.ndarray:
            out = np.ones(len(g))
            some = Dc[g] > 0
            out[some] = 1.0 - np.minimum(ac[g] + v, Rc[g])[some] / Dc[g][some]
            return out

        contrib[cut] = ml.marked[cut] * retrieved_part_mean(ml.size[cut], m, u[cut], value)
    total = segment_seqsum(ml.query, contrib, jr.num_queries)
    return _ratio(total, R)


@tie_aware_form("Bpref")
def tie_bpref_measure(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Bpref]."""
    return tie_bpref(jr, rel)


@tie_aware_form("GMBpref")
def tie_gm_bpref(jr: JudgedRankings, *, rel: int, eps: float) -> np.ndarray:
    """Per query E[Bpref]; the aggregate is the geometric mean of these expectations."""
    return tie_bpref(jr, rel)


# Measures of the qrels alone, or of the number retrieved, are their own tie-aware form.
ORDER_INVARIANT = ("NumQ", "NumRet", "NumRel", "IDCG")
for _name in ORDER_INVARIANT:
    tie_aware_form(_name)(REGISTRY[_name].func)


def _retrieved_set_form(name: str) -> Callable[[Callable[..., np.ndarray]], Callable]:
    """Register the tie-aware form of a measure of the retrieved *set*: its own function (no
    order changes the set), except when a depth cut falls inside a tie group (see
    ``JudgedRankings.cut``); then which of the group's documents are retrieved is random, and
    the decorated function gives the expectation."""
    plain = REGISTRY[name].func

    def deco(cut_form: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        def form(jr: JudgedRankings, **params: object) -> np.ndarray:
            return cut_form(jr, **params) if jr.cut else plain(jr, **params)

        form.__doc__ = cut_form.__doc__
        tie_aware_form(name)(form)
        return cut_form

    return deco


def _expected_retrieved(jr: JudgedRankings, mask: np.ndarray) -> np.ndarray:
    """E[retrieved rows where ``mask`` holds]: the count at the ranking's length."""
    return expected_count_at(jr, mask, jr.num_ret)


@_retrieved_set_form("NumRelRet")
def cut_num_rel_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[RR] = S_g + m_g r_g / n_g for the level g the depth cut splits."""
    return _expected_retrieved(jr, jr.relevant(rel))


@_retrieved_set_form("NumNonRelJudgedRet")
def cut_num_nonrel_judged_ret(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[judged non-relevant retrieved]."""
    L = max(rel, 0)
    return _expected_retrieved(jr, (jr.grades >= 0) & (jr.grades < L))


@_retrieved_set_form("SetP")
def cut_set_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetP] = E[RR] / n."""
    return _ratio(_expected_retrieved(jr, jr.relevant(rel)), jr.num_ret)


@_retrieved_set_form("SetR")
def cut_set_recall(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetR] = E[RR] / R."""
    return _ratio(_expected_retrieved(jr, jr.relevant(rel)), jr.num_rel(rel))


@_retrieved_set_form("SetF")
def cut_set_f(jr: JudgedRankings, *, rel: int, beta: float) -> np.ndarray:
    """E[SetF] = (1 + b^2) E[RR] / (b^2 R + n): SetF is linear in RR when n is fixed."""
    b2 = beta * beta
    num = (1.0 + b2) * _expected_retrieved(jr, jr.relevant(rel))
    return _ratio(num, b2 * jr.num_rel(rel) + jr.num_ret)


@_retrieved_set_form("SetRelP")
def cut_set_relative_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetRelP] = E[RR] / min(n, R)."""
    den = np.minimum(jr.num_ret, jr.num_rel(rel))
    return _ratio(_expected_retrieved(jr, jr.relevant(rel)), den)


@_retrieved_set_form("SetAP")
def cut_set_average_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[SetAP] = E[RR^2] / (n R), E[RR^2] = E[RR]^2 + m p (1-p) (n_g - m) / (n_g - 1), the
    hypergeometric variance of the split level's part (p = r_g / n_g)."""
    relv = jr.relevant(rel)
    mean = _expected_retrieved(jr, relv)
    at = _AtK(jr, relv, jr.num_ret)
    var = np.zeros(jr.num_queries)
    part = at.n > at.m
    p = at.r[part] / at.n[part]
    m, n = at.m[part], at.n[part]
    var[at.q[part]] = m * p * (1.0 - p) * (n - m) / (n - 1.0)
    den = jr.num_ret.astype(np.float64) * jr.num_rel(rel).astype(np.float64)
    return _ratio(mean * mean + var, den)


@_retrieved_set_form("Utility")
def cut_utility(
    jr: JudgedRankings, *, a: float, b: float, c: float, d: float, N: int, rel: int
) -> np.ndarray:
    """E[Utility]: linear in RR when n is fixed."""
    rr = _expected_retrieved(jr, jr.relevant(rel))
    n = jr.num_ret
    R = jr.num_rel(rel)
    value = a * rr + b * (n - rr) + c * (R - rr) + d * (N + rr - n - R)
    return np.where(jr.in_run, value, 0.0)
