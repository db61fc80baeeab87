"""Graded measures: discounted cumulated gain, its normalisations, and trec_eval's G family.

Järvelin & Kekäläinen (2002), as presented in Chen (seed 004) "CG/DCG/ideal vectors";
trec_eval 10.0 ``m_ndcg.c`` (ndcg, dcg, ideal_dcg), ``m_ndcg_cut.c``, ``m_ndcg_rel.c``,
``m_Rndcg.c``, ``m_G.c``, ``m_binG.c``, ``gain_init.c`` (gains and the ideal list, see
:mod:`cranfield.measures.gains`).  Discount ``1/log2(i+1)`` at rank ``i`` with the C
library's ``log2``; sums are added in rank order, as trec_eval does.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .counting import (
    c_log2,
    memo,
    num_rel,
    rel_position,
    rel_ret,
    relevant_rows,
    segment_cumsum,
    segment_last,
    segment_total,
    seqsum,
)
from .discount import BASE, CONVENTION, discounted
from .gains import GainTable, gain_pairs, gain_table
from .params import MAX_WEIGHT
from .precision import NO_REL
from .registry import CUTOFF_OPTIONAL, REL, Param, Undefined, measure

JK = "Järvelin & Kekäläinen (2002) 'Cumulated gain-based evaluation of IR techniques'"


GAINS = Param(
    "gains",
    "gains",
    None,
    "gain of each grade, as {grade:gain}; unlisted grades gain their grade (trec_eval)",
    at_least=-MAX_WEIGHT,
    at_most=MAX_WEIGHT,
)


def _discount(jr: JudgedRankings, ranks: np.ndarray) -> np.ndarray:
    """``log2(rank + 1)`` from the C library."""
    top = int(ranks.max()) + 1 if len(ranks) else 1
    return jr.log2_table(top)[ranks + 1]


def _discounted(jr: JudgedRankings, gains, ranks, convention: str, base: float) -> np.ndarray:
    """``gains / discount(ranks)``: trec_eval's C ``log2(rank + 1)`` for the default
    convention, else :func:`cranfield.measures.discount.discounted` (trec|jk, any base)."""
    if convention == "trec" and base == 2.0:
        return gains / _discount(jr, ranks)
    return discounted(gains, ranks, convention, base)


def _conv(convention: str, base: float) -> tuple:
    """Memo-key suffix of a non-default discount convention."""
    return () if (convention, base) == ("trec", 2.0) else (convention, float(base))


def _table(jr: JudgedRankings, gains, normalise: bool = False) -> GainTable:
    key = ("gain_table", gain_pairs(gains), normalise)
    return memo(jr, key, lambda: gain_table(jr, gains, normalise=normalise))


def _dcg_running(jr: JudgedRankings, gains, convention: str = "trec", base: float = 2.0):
    """(rows, DCG terms, running DCG) over the ranked rows with non-zero gain, rank order."""

    def build():
        gt = _table(jr, gains)
        rows = np.flatnonzero(gt.row_gain != 0)
        terms = _discounted(jr, gt.row_gain[rows], jr.rank[rows], convention, base)
        return rows, terms, segment_cumsum(jr.row_query[rows], terms)

    return memo(jr, ("dcg_running", gain_pairs(gains), *_conv(convention, base)), build)


def _ideal_prefix(
    jr: JudgedRankings, gains, convention: str = "trec", base: float = 2.0
) -> np.ndarray:
    """Running ideal DCG at every ideal position (sequential, as trec_eval)."""

    def build():
        gt = _table(jr, gains)
        terms = _discounted(jr, gt.ideal_gain, gt.ideal_position, convention, base)
        return segment_cumsum(gt.ideal_query, terms)

    return memo(jr, ("ideal_prefix", gain_pairs(gains), *_conv(convention, base)), build)


def _ideal_at(gt: GainTable, prefix: np.ndarray, k: np.ndarray) -> np.ndarray:
    """IDCG over the first ``k`` ideal positions of each query (``k`` per query, >= 0)."""
    m = gt.ideal_size
    kk = np.minimum(k, m)
    out = np.zeros(len(m))
    ok = kk > 0
    out[ok] = prefix[gt.ideal_offsets[:-1][ok] + kk[ok] - 1]
    return out


def dcg_parts(
    jr: JudgedRankings, cutoff: int | None, gains, convention: str = "trec", base: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    """(DCG@k, IDCG@k) per query (k = None: whole ranking and whole ideal list), in the given
    discount convention (:mod:`cranfield.measures.discount`)."""
    gt = _table(jr, gains)
    nq = jr.num_queries
    r = jr.num_ret if cutoff is None else np.minimum(jr.num_ret, cutoff)
    dcg = _dcg_at(jr, gains, np.arange(nq), r, convention, base)
    k = gt.ideal_size if cutoff is None else np.full(nq, cutoff)
    return dcg, _ideal_at(gt, _ideal_prefix(jr, gains, convention, base), k)


def _no_ideal(jr, gains=None, cutoff=None, convention="trec", base=2.0, **_):
    return dcg_parts(jr, cutoff, gains, convention, base)[1] <= 0


NO_IDEAL = Undefined(
    "no judged document has a positive gain (ideal DCG = 0)", "0 (as trec_eval)", _no_ideal
)
GAIN_NOTES = (
    "Gains follow trec_eval's gain table: gains={g:v} overrides grade g, other judged grades "
    "gain their grade, unjudged documents gain 0; -l is ignored. "
)
CONVENTION_NOTES = (
    " convention=jk is Järvelin & Kekäläinen's discount as in Chen (seed 004): g_i for ranks "
    "i < base, g_i / log_base(i) from rank base on; convention=trec (default) divides by "
    "log_base(i+1); base defaults to 2 (trec_eval's numbers)."
)


@measure(
    "nDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE),
    aliases=("NDCG",),
    summary="normalised discounted cumulated gain (gain = grade unless gains= given)",
    formula="nDCG@k = DCG@k / IDCG@k, DCG@k = sum_{i<=k} g(d_i) / log_b(i+1) (trec; see DCG)",
    source=JK + "; Chen (seed 004) NDCG; trec_eval m_ndcg.c (ndcg), m_ndcg_cut.c (ndcg_cut_k)",
    family="gain",
    undefined=(NO_IDEAL,),
    trec="ndcg / ndcg_cut_k",
    notes=GAIN_NOTES + "Without @k the ideal list is all judged documents (not cut at the "
    "ranking's length). trec_eval's ndcg_cut takes no custom gains; nDCG(gains=...)@k uses the "
    "same gain table cut at k. Fractional gains less than 1 apart may be ordered as in "
    "trec_eval's table (its comparator truncates the difference), so nDCG can exceed 1."
    + CONVENTION_NOTES,
)
def ndcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: dict | None, convention: str, base: float
) -> np.ndarray:
    dcg, idcg = dcg_parts(jr, cutoff, gains, convention, base)
    out = np.zeros(jr.num_queries)
    np.divide(dcg, idcg, out=out, where=idcg > 0)
    return out


@measure(
    "DCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE),
    summary="discounted cumulated gain (trec_eval's discount; convention=jk: Järvelin & "
    "Kekäläinen's)",
    formula="DCG@k = sum_{i<=k} g(d_i) / log_b(i+1); jk: g(d_i) for i < b, / log_b(i) from b",
    source=JK + "; Chen (seed 004) DCG; trec_eval 10.0 m_ndcg.c (dcg)",
    family="gain",
    trec="dcg",
    notes=GAIN_NOTES + CONVENTION_NOTES,
)
def dcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: dict | None, convention: str, base: float
) -> np.ndarray:
    return dcg_parts(jr, cutoff, gains, convention, base)[0]


@measure(
    "IDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS, CONVENTION, BASE),
    summary="ideal DCG: DCG of the judged documents sorted by decreasing gain",
    formula="IDCG@k = sum_{j<=min(k,m)} I_j / log2(j+1), I = positive gains, descending",
    source=JK + "; trec_eval 10.0 m_ndcg.c (ideal_dcg)",
    family="gain",
    trec="ideal_dcg",
    notes=GAIN_NOTES
    + "Independent of the run (except for which queries are evaluated)."
    + CONVENTION_NOTES,
)
def idcg(
    jr: JudgedRankings, *, cutoff: int | None, gains: dict | None, convention: str, base: float
) -> np.ndarray:
    return dcg_parts(jr, cutoff, gains, convention, base)[1]


@measure(
    "nDCGRel",
    params=(GAINS,),
    summary="nDCG averaged over the relevant (positive-gain) documents",
    formula="(sum_{g(d_i)>0} DCG_i/IDCG_min(i,m) + (m-k) DCG_n/IDCG_m) / m, "
    "k = #retrieved with g > 0, m = #judged with g > 0",
    source="trec_eval 10.0 m_ndcg_rel.c (experimental, Buckley)",
    family="gain",
    undefined=(NO_IDEAL,),
    trec="ndcg_rel",
    notes=GAIN_NOTES + "0 when the sum is not positive.",
)
def ndcg_rel(jr: JudgedRankings, *, gains: dict | None) -> np.ndarray:
    gt = _table(jr, gains)
    nq = jr.num_queries
    rows, _terms, running = _dcg_running(jr, gains)
    dq = jr.row_query[rows]
    dcg_n = segment_last(dq, running, nq)
    prefix = _ideal_prefix(jr, gains)
    m = gt.ideal_size
    pos = gt.row_gain[rows] > 0
    pr, pq = rows[pos], dq[pos]
    idcg_i = _ideal_at_rows(gt, prefix, pq, np.minimum(jr.rank[pr], m[pq]))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = segment_total(pq, running[pos] / idcg_i, nq)
        k = np.bincount(pq, minlength=nq)
        idcg_m = _ideal_at(gt, prefix, m)
        s = s + (m - k).astype(np.float64) * dcg_n / idcg_m
        out = np.zeros(nq)
        np.divide(s, m, out=out, where=s > 0)
    return out


def _ideal_at_rows(gt: GainTable, prefix: np.ndarray, q: np.ndarray, k: np.ndarray):
    """IDCG over the first ``k[i]`` ideal positions of query ``q[i]`` (0 where k = 0)."""
    out = np.zeros(len(q))
    ok = k > 0
    out[ok] = prefix[gt.ideal_offsets[q[ok]] + k[ok] - 1]
    return out


@measure(
    "RnDCG",
    params=(REL, GAINS),
    summary="nDCG averaged at the ranks where the ideal gain changes (R levels)",
    formula="mean of nDCG@b over the boundaries b of the ideal gain levels, plus DCG_n/IDCG_m "
    "if n >= m + 2",
    source="trec_eval 10.0 m_Rndcg.c (experimental, Buckley)",
    family="gain",
    undefined=(
        NO_REL,
        Undefined(
            "relevant documents (R > 0 at rel) but none with a positive gain: no ideal DCG",
            "NaN (as trec_eval)",
            lambda jr, rel=1, gains=None, **_: (
                (num_rel(jr, rel) > 0) & (_table(jr, gains).ideal_size == 0)
            ),
        ),
    ),
    trec="Rndcg",
    notes=GAIN_NOTES + "rel only decides R = 0 -> 0. The end-of-ranking point is added only "
    "when n >= m + 2 (trec_eval).",
)
def rndcg(jr: JudgedRankings, *, rel: int, gains: dict | None) -> np.ndarray:
    gt = _table(jr, gains)
    nq = jr.num_queries
    prefix = _ideal_prefix(jr, gains)
    m = gt.ideal_size
    n = jr.num_ret
    # ideal gain at positions 1..m+1 (m+1: the value that ended the list: <= 0) and the
    # initial "old" value: the gain of the table's top entry
    iq, ig = gt.ideal_query, gt.ideal_gain
    first = np.concatenate(([True], iq[1:] != iq[:-1])) if len(iq) else np.zeros(0, bool)
    prev = np.empty(len(ig))
    prev[1:] = ig[:-1]
    prev[first] = ig[first]  # the top entry (position 1 never counts anyway)
    pos = gt.ideal_position
    change = (ig != prev) & (pos >= 2)
    cq, cp = iq[change], pos[change]
    # the boundary after the last ideal position (gain falls to <= 0)
    has_m = m > 0
    bq = np.concatenate((cq, np.flatnonzero(has_m)))
    bp = np.concatenate((cp, m[has_m] + 1))
    o = np.lexsort((bp, bq))
    bq, bp = bq[o], bp[o]
    # DCG over ranks 1..min(b-1, n) and IDCG over ideal 1..b-1
    d_at = _dcg_at(jr, gains, bq, np.minimum(bp - 1, n[bq]))
    i_at = _ideal_at_rows(gt, prefix, bq, bp - 1)
    # extra point at the end of the ranking when n >= m + 2
    extra = has_m & (n >= m + 2)
    eq = np.flatnonzero(extra)
    d_end = _dcg_at(jr, gains, eq, n[eq])
    i_end = _ideal_at(gt, prefix, m)[eq]
    allq = np.concatenate((bq, eq))
    allv = np.concatenate((d_at / i_at, d_end / i_end))
    o = np.argsort(allq, kind="stable")
    total = segment_total(allq[o], allv[o], nq)
    count = np.bincount(allq, minlength=nq).astype(np.float64)
    R = num_rel(jr, rel)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(R > 0, total / count, 0.0)
    return out


def _dcg_at(
    jr: JudgedRankings,
    gains,
    q: np.ndarray,
    r: np.ndarray,
    convention: str = "trec",
    base: float = 2.0,
) -> np.ndarray:
    """DCG over ranks ``1..r[i]`` of query ``q[i]`` (a prefix of the running sums)."""
    rows, _terms, running = _dcg_running(jr, gains, convention, base)
    out = np.zeros(len(q))
    if len(rows) == 0 or len(q) == 0:
        return out
    big = int(jr.max_rank) + 2
    keys = memo(
        jr, ("dcg_keys", gain_pairs(gains)), lambda: jr.row_query[rows] * big + jr.rank[rows]
    )
    idx = np.searchsorted(keys, q * big + r, side="right") - 1
    ok = idx >= 0
    ok[ok] = jr.row_query[rows[idx[ok]]] == q[ok]
    out[ok] = running[idx[ok]]
    return out


@measure(
    "G",
    params=(GAINS,),
    summary="trec_eval's normalised gain G: DCG-like with a discount by the gain deficit",
    formula="G = sum_{g(d_i)!=0} g(d_i) / log2(2 + C_i - S_i) / sum_j I_j, "
    "S_i = sum_{j<=i} g(d_j), C_i = sum_{j<=i} max(I_j, 1)",
    source="trec_eval 10.0 m_G.c (experimental, Buckley 2008)",
    family="gain",
    undefined=(NO_IDEAL,),
    trec="G",
    notes=GAIN_NOTES,
)
def g_measure(jr: JudgedRankings, *, gains: dict | None) -> np.ndarray:
    gt = _table(jr, gains)
    nq = jr.num_queries
    rows, _terms, _running = _dcg_running(jr, gains)  # the ranked rows with non-zero gain
    q = jr.row_query[rows]
    g = gt.row_gain[rows]
    rank = jr.rank[rows]
    s = segment_cumsum(q, g)  # S_i: zero gains add nothing
    c = _cost_prefix(jr, gt, q, rank)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = g / c_log2(2 + c - s)
        total = segment_total(q, terms, nq)
        sum_ideal = segment_total(gt.ideal_query, gt.ideal_gain, nq)
        out = np.zeros(nq)
        np.divide(total, sum_ideal, out=out, where=sum_ideal > 0)
    return out


def _cost_prefix(jr: JudgedRankings, gt: GainTable, q: np.ndarray, rank: np.ndarray):
    """G's running cost ``C_i = sum_{j<=i} max(I_j, 1)`` (1 beyond the ideal list) at the
    given (query, rank) pairs, added one position at a time as trec_eval does."""
    m = gt.ideal_size
    ideal_cost = np.where(gt.ideal_gain >= 1.0, gt.ideal_gain, 1.0)
    prefix = segment_cumsum(gt.ideal_query, ideal_cost)
    c_m = np.zeros(len(m))
    has = m > 0
    c_m[has] = prefix[gt.ideal_offsets[1:][has] - 1]
    inside = rank <= m[q]
    out = np.empty(len(rank))
    out[inside] = prefix[gt.ideal_offsets[q[inside]] + rank[inside] - 1]
    beyond = ~inside
    # adding 1.0 (rank - m) times is exact when C_m is an integer below 2^52
    exact = np.equal(np.mod(c_m, 1.0), 0.0) & (c_m + jr.num_ret < 2.0**52)
    fast = beyond & exact[q]
    out[fast] = c_m[q[fast]] + (rank[fast] - m[q[fast]])
    for qi in np.unique(q[beyond & ~fast]).tolist():  # fractional C_m: add step by step
        steps = np.ones(int(jr.num_ret[qi] - m[qi]) + 1)
        steps[0] = c_m[qi]
        run = np.add.accumulate(steps)
        sel = np.flatnonzero(beyond & (q == qi))
        out[sel] = run[rank[sel] - m[qi]]
    return out


@measure(
    "BinG",
    params=(REL,),
    summary="binary G: mean over relevant documents of 1/log2(2 + non-relevant above)",
    formula="BinG = (1/R) sum_{d_i relevant} 1 / log2(2 + |{j < i : d_j not relevant}|)",
    source="trec_eval 10.0 m_binG.c (experimental, Buckley 2008)",
    family="gain",
    undefined=(NO_REL,),
    trec="binG",
    notes="Unjudged documents count as non-relevant.",
)
def bin_g(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    rows, _q, rank = relevant_rows(jr, rel)
    _first, pos = rel_position(jr, rel)
    nonrel_above = rank - pos
    terms = 1.0 / jr.log2_table(int(nonrel_above.max()) + 2 if len(rows) else 2)[nonrel_above + 2]
    total = seqsum(jr, rows, terms)
    R = num_rel(jr, rel)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=(R > 0) & (rel_ret(jr, rel) > 0))
    return out
