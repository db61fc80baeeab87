"""trec_eval's experimental graded measures (Buckley): nDCG averaged over the relevant
documents, R-normalised nDCG, G and binary G.

trec_eval 10.0 ``m_ndcg_rel.c``, ``m_Rndcg.c``, ``m_G.c``, ``m_binG.c`` (described in its
``measures.c`` as experimental); gains and the ideal list as for nDCG (:mod:`.dcg`,
:mod:`.gains`).
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_cumsum, segment_last, segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.dcg import (
    GAIN_NOTES,
    GAINS,
    NO_IDEAL,
    dcg_at,
    dcg_running,
    ideal_at,
    ideal_prefix,
    table_of,
)
from cranfield.measures.kernels.counting import (
    c_log2,
    num_rel,
    rel_position,
    rel_ret,
    relevant_rows,
    seqsum,
)
from cranfield.measures.kernels.gains import Gains, GainTable
from cranfield.measures.precision import NO_REL
from cranfield.measures.registry import REL, TrecEval, Undefined, measure
from cranfield.ties.expected import cut_levels, retrieved_part_mean, uniform_before
from cranfield.ties.levels import marked_levels


@measure(
    "nDCGRel",
    params=(GAINS,),
    summary="nDCG averaged over the relevant (positive-gain) documents",
    formula="(sum_{g(d_i)>0} DCG_i/IDCG_min(i,m) + (m-k) DCG_n/IDCG_m) / m, "
    "k = #retrieved with g > 0, m = #judged with g > 0",
    source="trec_eval 10.0 m_ndcg_rel.c (experimental, Buckley)",
    better="higher",
    undefined=(NO_IDEAL,),
    ties=None,
    no_ties="no closed form: the ranking's running DCG divided at every relevant document",
    core_kernel="ndcg_rel",
    trec_eval=TrecEval("ndcg_rel", params="pairs", compute="gained"),
    checked_by=("tests/measures/test_measures_trec.py::test_ndcg_rel_against_its_definition",),
    notes=GAIN_NOTES + "0 when the sum is not positive.",
)
def ndcg_rel(jr: JudgedRankings, *, gains: Gains | None) -> np.ndarray:
    gt = table_of(jr, gains)
    nq = jr.num_queries
    rows, _terms, running = dcg_running(jr, gains)
    dq = jr.row_query[rows]
    dcg_n = segment_last(dq, running, nq)
    prefix = ideal_prefix(jr, gains)
    m = gt.ideal_size
    pos = gt.row_gain[rows] > 0
    pr, pq = rows[pos], dq[pos]
    idcg_i = _ideal_at_rows(gt, prefix, pq, np.minimum(jr.rank[pr], m[pq]))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = segment_total(pq, running[pos] / idcg_i, nq)
        k = np.bincount(pq, minlength=nq)
        idcg_m = ideal_at(gt, prefix, m)
        s = s + (m - k).astype(np.float64) * dcg_n / idcg_m
        out = np.zeros(nq)
        np.divide(s, m, out=out, where=s > 0)
    return out


def _ideal_at_rows(gt: GainTable, prefix: np.ndarray, q: np.ndarray, k: np.ndarray) -> np.ndarray:
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
    undefined=(
        NO_REL,
        Undefined(
            "relevant documents (R > 0 at rel) but none with a positive gain: no ideal DCG",
            "NaN (as trec_eval)",
            lambda jr, rel=1, gains=None, **_: (
                (num_rel(jr, rel) > 0) & (table_of(jr, gains).ideal_size == 0)
            ),
        ),
    ),
    better="higher",
    ties=None,
    no_ties="linear in DCG at cut-offs the ideal list fixes, so a closed form exists, but it "
    "is not derived yet",
    core_kernel="rndcg",
    trec_eval=TrecEval("Rndcg", params="pairs", compute="gained_rel"),
    checked_by=(
        "tests/measures/test_measures_trec.py::test_rndcg_examples_from_the_reference",
        "tests/measures/test_measures_trec.py::test_rndcg_levels_example",
    ),
    notes=GAIN_NOTES + "rel only decides R = 0 -> 0. The end-of-ranking point is added only "
    "when n >= m + 2 (trec_eval).",
)
def rndcg(jr: JudgedRankings, *, rel: int, gains: Gains | None) -> np.ndarray:
    gt = table_of(jr, gains)
    nq = jr.num_queries
    prefix = ideal_prefix(jr, gains)
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
    d_at = dcg_at(jr, gains, bq, np.minimum(bp - 1, n[bq]))
    i_at = _ideal_at_rows(gt, prefix, bq, bp - 1)
    # extra point at the end of the ranking when n >= m + 2
    extra = has_m & (n >= m + 2)
    eq = np.flatnonzero(extra)
    d_end = dcg_at(jr, gains, eq, n[eq])
    i_end = ideal_at(gt, prefix, m)[eq]
    allq = np.concatenate((bq, eq))
    allv = np.concatenate((d_at / i_at, d_end / i_end))
    o = np.argsort(allq, kind="stable")
    total = segment_total(allq[o], allv[o], nq)
    count = np.bincount(allq, minlength=nq).astype(np.float64)
    R = num_rel(jr, rel)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(R > 0, total / count, 0.0)
    return out


@measure(
    "G",
    params=(GAINS,),
    summary="trec_eval's normalised gain G: DCG-like with a discount by the gain deficit",
    formula="G = sum_{g(d_i)!=0} g(d_i) / log2(2 + C_i - S_i) / sum_j I_j, "
    "S_i = sum_{j<=i} g(d_j), C_i = sum_{j<=i} max(I_j, 1)",
    source="trec_eval 10.0 m_G.c (experimental, Buckley 2008)",
    better="higher",
    undefined=(NO_IDEAL,),
    ties=None,
    no_ties="no closed form: a product of the ranking with its own running gain sums",
    core_kernel="g",
    trec_eval=TrecEval("G", params="pairs", compute="gained"),
    checked_by=("tests/measures/test_measures_trec.py::test_yaap_bing_and_g",),
    notes=GAIN_NOTES,
)
def g_measure(jr: JudgedRankings, *, gains: Gains | None) -> np.ndarray:
    gt = table_of(jr, gains)
    nq = jr.num_queries
    rows, _terms, _running = dcg_running(jr, gains)  # the ranked rows with non-zero gain
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


def _cost_prefix(jr: JudgedRankings, gt: GainTable, q: np.ndarray, rank: np.ndarray) -> np.ndarray:
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


def _tie_bin_g(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    """E[BinG] = (1/R) sum_g r_g mean_{v=0..i_g} 1/log2(2 + j_g + v), j_g the non-relevant
    documents before level g, i_g those in it."""
    relv = jr.relevant(rel)
    ml = marked_levels(jr, np.flatnonzero(relv), True)
    j, i = uniform_before(jr, ml, np.flatnonzero(~relv))
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
    cut, m = cut_levels(jr, ml)
    if len(cut):  # only the first m positions of the level are retrieved
        jc = j[cut]
        contrib[cut] = ml.marked[cut] * retrieved_part_mean(
            ml.size[cut], m, i[cut], lambda g, v: 1.0 / log2[jc[g] + v + 2]
        )
    total = segment_total(ml.query, contrib, jr.num_queries)
    R = jr.num_rel(rel)
    out = np.zeros(jr.num_queries)
    np.divide(total, R, out=out, where=(R > 0) & (jr.count(relv) > 0))
    return out


@measure(
    "BinG",
    params=(REL,),
    summary="binary G: mean over relevant documents of 1/log2(2 + non-relevant above)",
    formula="BinG = (1/R) sum_{d_i relevant} 1 / log2(2 + |{j < i : d_j not relevant}|)",
    source="trec_eval 10.0 m_binG.c (experimental, Buckley 2008)",
    better="higher",
    undefined=(NO_REL,),
    ties=_tie_bin_g,
    core_kernel="bin_g",
    trec_eval=TrecEval("binG"),
    checked_by=(
        "tests/measures/test_measures_trec.py::test_yaap_bing_and_g",
        "tests/ties/test_ties_enumeration_standard.py::"
        "test_standard_measures_equal_the_average_over_all_tie_breakings",
        "tests/ties/test_ties_enumeration_depth_cut.py::"
        "test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking",
    ),
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
