"""Tie-aware forms of the literature measures (PRES, normalized recall and precision, the
contingency, user-oriented and cumulated-gain measures): exact expectations over uniformly
random tie-breaking, where a closed form exists.  Notation as :mod:`.levels`.

- sums of relevant ranks: a relevant document of level g sits at ``T_g + (n_g+1)/2`` on average,
  so ``E[sum r_i] = sum_g r_g (T_g + (n_g+1)/2)`` (Rnorm), ``E[sum w_i r_i]`` likewise (WRnorm),
  ``E[sum ln r_i] = sum_g (r_g/n_g) sum_{j<=n_g} ln(T_g+j)`` (Pnorm);
- PRES (measures-notes sec. 1.4): eq. 4 is quadratic in the number ``nR`` of relevant documents
  found in the top N_max, so ``E[nR^2] = Var[nR] + E[nR]^2``, with the hypergeometric variance
  ``m p (1-p) (n_g-m)/(n_g-1)`` of the level straddling N_max (``m = N_max - T_g``,
  ``p = r_g/n_g``);
- the rank of the s-th relevant document of level g: ``T_g + s (n_g+1)/(r_g+1)`` (RelRank; its
  search length is Cooper's ``j + i s/(r+1)``);
- counts at k (F, E, Fallout, SlidingRatio, Coverage, RelativeRecall(cap=false), CG): linear,
  as P@k; RelativeRecall with its cap sums ``min(S + Y, t)`` over the hypergeometric law of the
  relevant documents Y the straddling level puts in the top k;
- RecallEffort ``t / r_t`` is the expected precision EP(NR=t) of Raghavan et al.

Not tie-aware (no closed form; refused under ``weak``): RankRecall and LogPrecision (ratios of
rank sums), Fprime and AdjP (nonlinear combinations), Novelty (a ratio of two counts at k),
ERR (the cascade's products).
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings, segment_seqsum
from ..ties.levels import expand, log_binom, marked_levels, refuse_cut
from .cg import gain_parts
from .gains import gain_table
from .normalized import _lgamma, collection_size, log_falling
from .registry import REGISTRY, tie_aware_form
from .relrank import _nth_rank
from .tie_aware import _AtK, _positional, _ratio, expected_count_at
from .user import _known, _target
from .weak_order import SPLIT, _Final, expected_precision_at_nr

__all__ = ["expected_rank_parts"]


def expected_rank_parts(
    jr: JudgedRankings, rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per query: n (relevant in the qrels), found (relevant retrieved), E[sum of their ranks],
    E[sum of their natural logs] (tie-aware :func:`.normalized.relevant_rank_parts`).

    Without a depth cut inside a tie group (``jr.cut``); see :func:`_cut_rank_parts`."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n, T, r = ml.size, ml.before, ml.marked
    single = n == 1
    rank_sum = np.where(single, (T + 1).astype(np.float64), r * (T + (n + 1) / 2.0))
    logs = np.zeros(len(ml.start))
    logs[single] = np.log((T[single] + 1).astype(np.float64))
    multi = np.flatnonzero(~single)
    if len(multi):
        rows, seg = expand(ml.start[multi], n[multi])
        rank = rows + np.repeat(T[multi] + 1 - ml.start[multi], n[multi])
        logs[multi] = r[multi] / n[multi] * np.add.reduceat(np.log(rank.astype(np.float64)), seg)
    nq = jr.num_queries
    return (
        jr.num_rel(rel).astype(np.int64),
        np.bincount(ml.query, weights=r, minlength=nq).astype(np.int64),
        np.bincount(ml.query, weights=rank_sum, minlength=nq),
        segment_seqsum(ml.query, logs, nq),
    )


# ---------------------------------------------------------------------- normalized measures
def _cut_rank_parts(
    jr: JudgedRankings, rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per query: n, E[found], E[sum of the found ranks] and Var[found], when a depth cut keeps
    only the first m positions of a level: its retrieved part is a uniformly random m-subset,
    so its relevant documents are hypergeometric (mean m p, variance
    m p (1-p) (n_g-m)/(n_g-1), p = r_g/n_g) at ranks T_g+1..T_g+m (mean sum p (m T_g +
    m (m+1)/2)), as in PRES (measures-notes sec. 1.4)."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n_g, T, r = ml.size, ml.before, ml.marked
    m = np.minimum(n_g, jr.limit(None) - T) if jr.cut else n_g
    keep = m > 0
    q, n_g, T, r, m = ml.query[keep], n_g[keep], T[keep], r[keep], m[keep]
    p = r / n_g
    found_g = np.where(m == n_g, r.astype(np.float64), m * p)
    rank_g = np.where(m == n_g, r * (T + (n_g + 1) / 2.0), p * (m * T + m * (m + 1) / 2.0))
    var_g = np.zeros(len(q))
    part = m < n_g
    var_g[part] = (m * p * (1 - p) * (n_g - m) / (n_g - 1))[part]
    nq = jr.num_queries
    return (
        jr.num_rel(rel).astype(np.int64),
        np.bincount(q, weights=found_g, minlength=nq),
        np.bincount(q, weights=rank_g, minlength=nq),
        np.bincount(q, weights=var_g, minlength=nq),
    )


@tie_aware_form("Rnorm")
def tie_rnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Rnorm]: Rnorm is linear in the sum of the relevant ranks (and, through the relevant
    documents a depth cut leaves out, quadratic in their number: E[k^2] = Var + E[k]^2)."""
    N = collection_size(jr, "Rnorm")
    if jr.cut:
        n, found, rank_sum, var = _cut_rank_parts(jr, rel)
        k = n - found
        total = rank_sum + k * N.astype(np.float64) - (var + k * k - k) / 2
    else:
        n, found, rank_sum, _ = expected_rank_parts(jr, rel)
        k = n - found
        total = rank_sum + k * N.astype(np.float64) - k * (k - 1) // 2
    num = total - n * (n + 1) // 2
    den = n * (N.astype(np.float64) - n)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, num / np.maximum(den, 1), out=out, where=den > 0)
    return out


@tie_aware_form("Pnorm")
def tie_pnorm(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[Pnorm]: Pnorm is linear in the sum of the logs of the relevant ranks."""
    refuse_cut(
        jr,
        "Pnorm",
        "the logarithm of the ranks it gives the relevant documents the cut "
        "leaves out is not linear in their number",
    )
    N = collection_size(jr, "Pnorm")
    n, found, _, log_sum = expected_rank_parts(jr, rel)
    k = n - found
    log_total = log_sum + log_falling(N, k)
    best = _lgamma(n + 1)
    worst = log_falling(N, n) - _lgamma(n + 1)
    ok = (n > 0) & (n < N)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, (log_total - best) / np.where(ok, worst, 1.0), out=out, where=ok)
    return out


@tie_aware_form("WRnorm")
def tie_wrnorm(jr: JudgedRankings, *, rel: int, gains: dict | None) -> np.ndarray:
    """E[WRnorm]: linear in the weighted sum of the relevant ranks."""
    from .normalized import _weights

    refuse_cut(
        jr,
        "WRnorm",
        "the ranks it gives the relevant documents the cut leaves out "
        "depend on which of them it leaves out (their weights differ)",
    )
    N = collection_size(jr, "WRnorm")
    relv = jr.relevant(rel)
    rows = np.flatnonzero(relv)
    ml = marked_levels(jr, rows, True)
    w_rows = _weights(jr.grades[rows], gains)
    W = np.add.reduceat(w_rows, ml.first_marked) if len(rows) else np.zeros(0)
    n_g, T = ml.size, ml.before
    single = n_g == 1
    terms = np.where(single, W * (T + 1), W * (T + (n_g + 1) / 2.0))
    found_w = segment_seqsum(ml.query, terms, jr.num_queries)
    found_wsum = jr.seqsum(rows, w_rows)
    found = jr.count(relv)
    qrel = jr.qrels_grades >= max(rel, 0)
    q = jr.qrels_query[qrel]
    w = _weights(jr.qrels_grades[qrel], gains)
    o = np.lexsort((-w, q))
    q, w = q[o], w[o]
    n = jr.num_rel(rel).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(n)))[:-1]
    pos = np.arange(len(q)) - starts[q] + 1
    ideal = np.zeros(jr.num_queries)
    np.add.at(ideal, q, w * pos)
    total_w = np.zeros(jr.num_queries)
    np.add.at(total_w, q, w)
    k = n - found
    missing = (total_w - found_wsum) * (N - (k - 1) / 2.0)
    den = n * (N.astype(np.float64) - n)
    out = np.where(n > 0, 1.0, 0.0)
    np.subtract(1.0, (found_w + missing - ideal) / np.maximum(den, 1), out=out, where=den > 0)
    return out


def _tie_pres(jr: JudgedRankings, cutoff: int, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """E[PRES@N_max] (measures-notes sec. 1.4) and n."""
    ml = marked_levels(jr, np.flatnonzero(jr.relevant(rel)), True)
    n_g, T, r = ml.size, ml.before, ml.marked
    m = np.minimum(n_g, jr.limit(cutoff) - T)
    keep = m > 0
    q, n_g, T, r, m = ml.query[keep], n_g[keep], T[keep], r[keep], m[keep]
    p = r / n_g
    found_g = np.where(m == n_g, r.astype(np.float64), m * p)
    rank_g = np.where(m == n_g, r * (T + (n_g + 1) / 2.0), p * (m * T + m * (m + 1) / 2.0))
    var_g = np.zeros(len(q))
    part = m < n_g
    var_g[part] = (m * p * (1 - p) * (n_g - m) / (n_g - 1))[part]
    nq = jr.num_queries
    found = np.bincount(q, weights=found_g, minlength=nq)
    rank_sum = np.bincount(q, weights=rank_g, minlength=nq)
    var = np.bincount(q, weights=var_g, minlength=nq)
    n = jr.num_rel(rel).astype(np.int64)
    k = n - found
    k2 = var + k * k
    num = rank_sum + k * (cutoff + n) - (k2 - k) / 2 - n * (n + 1) // 2
    out = np.zeros(nq)
    np.subtract(1.0, num / np.maximum(n * cutoff, 1), out=out, where=n > 0)
    return out, n


@tie_aware_form("PRES")
def tie_pres(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[PRES@N_max]."""
    return _tie_pres(jr, cutoff, rel)[0]


@tie_aware_form("PRESest")
def tie_pres_est(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[PRESest@N_max] = E[PRES] / R_max."""
    value, n = _tie_pres(jr, cutoff, rel)
    return value * np.maximum(1.0, n / float(cutoff))


# ---------------------------------------------------------------------- rank of the n-th
def _tie_nth_rank(jr: JudgedRankings, n: object, rel: int) -> tuple[np.ndarray, np.ndarray]:
    """E[rank of the wanted relevant document] where it is retrieved; elsewhere as RelRank."""
    refuse_cut(
        jr,
        "RelRank and SearchLength",
        "whether the wanted relevant document is "
        "retrieved, or placed after the ranking, depends on which documents the cut keeps",
    )
    out, want = _nth_rank(jr, n, rel)  # declared values and collection-size placements
    fin = _Final(jr, True, want.astype(np.float64), rel)
    ok = fin.ok & (want >= 1)
    T = fin.tr + fin.j
    size = fin.r + fin.i
    out[ok] = (T + fin.s * (size + 1) / (fin.r + 1))[ok]
    return out, want


@tie_aware_form("RelRank")
def tie_rel_rank(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    """E[rank of the n-th relevant document] = T + s (n_g + 1) / (r_g + 1)."""
    return _tie_nth_rank(jr, n, rel)[0]


@tie_aware_form("SearchLength")
def tie_search_length(jr: JudgedRankings, *, rel: int, n: object) -> np.ndarray:
    """E[search length] = E[rank] - n (Cooper's j + i s / (r + 1))."""
    rank, want = _tie_nth_rank(jr, n, rel)
    return rank - want


# ---------------------------------------------------------------------- contingency at k
@tie_aware_form("F")
def tie_f(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    """E[F@k] = (1 + b^2) E[rel@k] / (b^2 R + k)."""
    b2 = beta * beta
    num = (1.0 + b2) * expected_count_at(jr, jr.relevant(rel), cutoff)
    return _ratio(num, b2 * jr.num_rel(rel) + float(cutoff))


@tie_aware_form("E")
def tie_e(jr: JudgedRankings, *, cutoff: int, rel: int, beta: float) -> np.ndarray:
    """E[E@k] = 1 - E[F@k]."""
    return 1.0 - tie_f(jr, cutoff=cutoff, rel=rel, beta=beta)


@tie_aware_form("Fallout")
def tie_fallout(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[Fallout@k] = (min(n, k) - E[rel@k]) / (N - R)."""
    N = collection_size(jr, "Fallout")
    nonrel = np.minimum(jr.num_ret, cutoff) - expected_count_at(jr, jr.relevant(rel), cutoff)
    return _ratio(nonrel, (N - jr.num_rel(rel)).astype(np.float64))


@tie_aware_form("SlidingRatio")
def tie_sliding_ratio(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    """E[SlidingRatio@k] = E[rel@k] / min(k, R)."""
    den = np.minimum(jr.num_rel(rel), cutoff)
    return _ratio(expected_count_at(jr, jr.relevant(rel), cutoff), den)


# ---------------------------------------------------------------------- user-oriented
@tie_aware_form("Coverage")
def tie_coverage(jr: JudgedRankings, *, cutoff: int | None, rel: int) -> np.ndarray:
    """E[Coverage@k] = E[known relevant in the top k] / |U|."""
    if cutoff is None:
        if not jr.cut:
            return REGISTRY["Coverage"].func(jr, cutoff=None, rel=rel)
        cutoff = jr.num_ret  # the retrieved set: its part of the split level is random
    known = _known(jr, "Coverage")
    found = expected_count_at(jr, known.rows & jr.relevant(rel), cutoff)
    return _ratio(found, known.num_known_relevant(rel))


@tie_aware_form("RelativeRecall")
def tie_relative_recall(
    jr: JudgedRankings, *, cutoff: int | None, rel: int, cap: bool
) -> np.ndarray:
    """E[min(rel@k, t)] / t (or E[rel@k] / t): a sum over the hypergeometric law of the
    relevant documents that the level straddling k puts in the top k."""
    if cutoff is None:
        if not jr.cut:
            return REGISTRY["RelativeRecall"].func(jr, cutoff=None, rel=rel, cap=cap)
        cutoff = jr.num_ret  # the retrieved set: its part of the split level is random
    t = _target(jr, "RelativeRecall")
    if not cap:
        return _ratio(expected_count_at(jr, jr.relevant(rel), cutoff), t)
    at = _AtK(jr, jr.relevant(rel), cutoff)
    out = np.zeros(jr.num_queries)
    if len(at.q):
        n, r, m, S = at.n, at.r, at.m, at.S
        cnt = np.minimum(m, r) + 1
        seg = np.cumsum(cnt) - cnt
        y = np.arange(int(cnt.sum())) - np.repeat(seg, cnt)
        nn, rr, mm, SS, tt = (np.repeat(a, cnt) for a in (n, r, m, S, t[at.q]))
        ok = mm - y <= nn - rr  # P(Y = y) = C(r, y) C(n-r, m-y) / C(n, m)
        yy = np.where(ok, y, 0)
        logp = log_binom(rr, yy) + log_binom(nn - rr, mm - yy) - log_binom(nn, mm)
        terms = np.where(ok, np.exp(logp), 0.0) * np.minimum(SS + y, tt)
        out[at.q] = np.add.reduceat(terms, seg)
    return _ratio(out, t)


@tie_aware_form("RecallEffort")
def tie_recall_effort(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[t / r_t] = EP(NR=t) (Raghavan, Jung & Bollmann 1989)."""
    refuse_cut(jr, "RecallEffort", SPLIT)
    t = _target(jr, "RecallEffort")
    return expected_precision_at_nr(jr, True, t, rel)


# ---------------------------------------------------------------------- cumulated gain
def _tie_cg(jr: JudgedRankings, cutoff: int | None, gains: dict | None) -> np.ndarray:
    return _positional(jr, gain_table(jr, gains).row_gain, lambda w, i: w * 1.0, cutoff)


@tie_aware_form("CG")
def tie_cg(jr: JudgedRankings, *, cutoff: int | None, gains: dict | None) -> np.ndarray:
    """E[CG@k] = sum_g (G_g / n_g) m_g, m_g the level's positions <= k."""
    return _tie_cg(jr, cutoff, gains)


@tie_aware_form("nCG")
def tie_ncg(jr: JudgedRankings, *, cutoff: int | None, gains: dict | None) -> np.ndarray:
    """E[nCG@k] = E[CG@k] / ICG@k."""
    ideal = gain_parts(jr, cutoff, gains, discount=False)[1]
    out = np.zeros(jr.num_queries)
    np.divide(_tie_cg(jr, cutoff, gains), ideal, out=out, where=ideal > 0)
    return out


tie_aware_form("Generality")(REGISTRY["Generality"].func)  # order-invariant
