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

import numpy as np

from ..judged import JudgedRankings, segment_seqsum
from . import counts, precision
from .gain import dcg_parts, gain_of
from .levels import Levels, levels, log_binom
from .registry import tie_aware_form

__all__ = ["expected_count_at", "tie_average_precision", "tie_dcg", "tie_reciprocal_rank"]


def _level_at(jr: JudgedRankings, lv: Levels, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k capped at the ranking length, index of the level holding position k) per query.

    The level index is only meaningful where ``0 < k_capped``.
    """
    kq = np.minimum(np.asarray(k, dtype=np.int64), jr.num_ret)
    kq = np.maximum(kq, 0)
    width = int(jr.max_rank) + 2
    key = lv.query * width + lv.before
    qs = np.arange(jr.num_queries, dtype=np.int64)
    g = np.searchsorted(key, qs * width + kq - 1, side="right") - 1
    return kq, np.clip(g, 0, max(lv.num_levels - 1, 0))


def expected_count_at(jr: JudgedRankings, mask: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """Per query ``E[number of rows where mask holds among ranks 1..k]`` over tie-breakings."""
    lv = levels(jr, True)
    r = lv.count(mask)
    S = lv.count_before(r)
    kq, g = _level_at(jr, lv, np.broadcast_to(np.asarray(k, dtype=np.int64), jr.num_queries))
    out = np.zeros(jr.num_queries)
    ok = kq > 0
    if lv.num_levels and ok.any():
        gg = g[ok]
        m = kq[ok] - lv.before[gg]
        out[ok] = S[gg] + m * r[gg] / lv.size[gg]
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
def tie_r_precision(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Rprec] = E[rel@min(n, R)] / R."""
    R = jr.num_rel(rel)
    return _ratio(expected_count_at(jr, jr.relevant(rel), np.minimum(jr.num_ret, R)), R)


@tie_aware_form("Judged")
def tie_judged(jr: JudgedRankings, *, cutoff: int) -> np.ndarray:
    """E[Judged@k] = E[judged@k] / k."""
    return expected_count_at(jr, jr.grades >= 0, cutoff) / float(cutoff)


@tie_aware_form("Success")
def tie_success(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """P(rel@k > 0) = 1 - [S_g = 0] C(n_g - r_g, m) / C(n_g, m), m = k - T_g."""
    lv = levels(jr, True)
    r = lv.count(jr.relevant(rel))
    S = lv.count_before(r)
    kq, g = _level_at(jr, lv, np.full(jr.num_queries, cutoff, dtype=np.int64))
    out = np.zeros(jr.num_queries)
    ok = kq > 0
    if lv.num_levels and ok.any():
        gg = g[ok]
        n, rg, m = lv.size[gg], r[gg], kq[ok] - lv.before[gg]
        i = n - rg
        none = np.zeros(len(gg))
        possible = (S[gg] == 0) & (m <= i)
        mi = np.where(possible, m, 0)
        none[possible] = np.exp(log_binom(i, mi) - log_binom(n, mi))[possible]
        out[ok] = 1.0 - none
    return out


def tie_average_precision(jr: JudgedRankings, cutoff: int | None, rel: int) -> np.ndarray:
    """Expected AP (AP@k with ``cutoff``), normalised by R as trec_eval."""
    lv = levels(jr, True)
    relv = jr.relevant(rel)
    r = lv.count(relv)
    S = lv.count_before(r)
    n, T = lv.size, lv.before
    m = n if cutoff is None else np.minimum(n, cutoff - T)
    keep = (r > 0) & (m > 0)
    idx = np.flatnonzero(keep)
    contrib = np.zeros(len(idx))
    single = n[idx] == 1
    si = idx[single]
    contrib[single] = (S[si] + 1).astype(np.float64) / (T[si] + 1).astype(np.float64)
    multi = idx[~single]
    if len(multi):
        h = _partial_harmonic(jr, lv, multi, m[multi])
        nm, rm, Tm, Sm, mm = n[multi], r[multi], T[multi], S[multi], m[multi]
        c = (rm - 1) / (nm - 1)
        inner = (Sm + 1) * h + c * (mm - (Tm + 1) * h)
        contrib[~single] = rm / nm * inner
    total = segment_seqsum(lv.query[idx], contrib, jr.num_queries)
    return _ratio(total, jr.num_rel(rel))


def _partial_harmonic(jr: JudgedRankings, lv: Levels, idx: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``sum_{j=1}^{m} 1/(T_g + j)`` for the levels ``idx`` (summed over their rows)."""
    start = lv.start[idx]
    lens = m.astype(np.int64)
    seg_start = np.cumsum(lens) - lens
    rows = np.repeat(start - seg_start, lens) + np.arange(int(lens.sum()))
    inv = 1.0 / jr.rank[rows].astype(np.float64)
    return np.add.reduceat(inv, seg_start)


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
    lv = levels(jr, True)
    r = lv.count(jr.relevant(rel))
    out = np.zeros(jr.num_queries)
    cand = np.flatnonzero(r > 0)
    if len(cand) == 0:
        return out
    q = lv.query[cand]
    first = cand[np.concatenate(([True], q[1:] != q[:-1]))]
    n, rg, T = lv.size[first], r[first], lv.before[first]
    J = n - rg + 1
    if cutoff is not None:
        J = np.minimum(J, cutoff - T)
    ok = J > 0
    first, n, rg, T, J = first[ok], n[ok], rg[ok], T[ok], J[ok]
    if len(first) == 0:
        return out
    seg_start = np.cumsum(J) - J
    j = np.arange(int(J.sum())) - np.repeat(seg_start, J) + 1
    nn, rr, TT = np.repeat(n, J), np.repeat(rg, J), np.repeat(T, J)
    p = np.exp(log_binom(nn - j, rr - 1) - log_binom(nn, rr))
    vals = np.add.reduceat(p / (TT + j).astype(np.float64), seg_start)
    out[lv.query[first]] = vals
    return out


@tie_aware_form("RR")
def tie_rr(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[RR@k]."""
    return tie_reciprocal_rank(jr, cutoff, rel)


def tie_dcg(jr: JudgedRankings, cutoff: int | None, gains: dict | None) -> np.ndarray:
    """E[DCG@k] = sum_g (G_g / n_g) * (sum of the discounts of level g's positions <= k)."""
    lv = levels(jr, True)
    g = gain_of(jr.grades, gains)
    G = lv.sum_rows(g)
    n, T = lv.size, lv.before
    m = n if cutoff is None else np.minimum(n, cutoff - T)
    idx = np.flatnonzero((G != 0) & (m > 0))
    log2 = jr.log2_table(max(jr.max_rank, 1) + 1)
    contrib = np.zeros(len(idx))
    single = n[idx] == 1
    si = idx[single]
    contrib[single] = G[si] / log2[T[si] + 2]
    multi = idx[~single]
    if len(multi):
        lens = m[multi].astype(np.int64)
        seg_start = np.cumsum(lens) - lens
        rows = np.repeat(lv.start[multi] - seg_start, lens) + np.arange(int(lens.sum()))
        disc = np.add.reduceat(1.0 / log2[jr.rank[rows] + 1], seg_start)
        contrib[~single] = G[multi] / n[multi] * disc
    return segment_seqsum(lv.query[idx], contrib, jr.num_queries)


@tie_aware_form("nDCG")
def tie_ndcg(jr: JudgedRankings, *, cutoff: int | None, gains: dict | None) -> np.ndarray:
    """E[nDCG@k] = E[DCG@k] / IDCG@k."""
    idcg = dcg_parts(jr, cutoff, gains)[1]
    return _ratio(tie_dcg(jr, cutoff, gains), idcg)


# Order-invariant measures are their own tie-aware form.
for _name, _func in (
    ("NumQ", counts.num_q),
    ("NumRet", counts.num_ret),
    ("NumRel", counts.num_rel),
    ("NumRelRet", counts.num_rel_ret),
    ("SetP", precision.set_precision),
    ("SetR", precision.set_recall),
    ("SetF", precision.set_f),
):
    tie_aware_form(_name)(_func)
