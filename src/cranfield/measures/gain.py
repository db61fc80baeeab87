"""Graded measures: discounted cumulated gain and its normalisation.

Järvelin & Kekäläinen (2002), as presented in Chen (seed 004) "CG/DCG/ideal vectors";
trec_eval 10.0 ``m_ndcg.c``, ``m_ndcg_cut.c``, ``gain_init.c`` (gains and the ideal list).
"""

from __future__ import annotations

import numpy as np

from ..judged import JudgedRankings, segment_seqsum
from .registry import CUTOFF_OPTIONAL, Param, Undefined, measure


def _check_gains(g: dict) -> str | None:
    for k in g:
        if not isinstance(k, int):
            return f"has a non-integer grade {k!r}"
    return None


GAINS = Param(
    "gains",
    "gains",
    None,
    "gain of each grade, as {grade:gain}; unlisted grades gain their grade (trec_eval)",
    check=_check_gains,
)


def gain_of(grades: np.ndarray, gains: dict | None) -> np.ndarray:
    """Gain of each grade: ``gains[g]`` if given, else ``g`` for judged grades, else 0."""
    base = np.where(grades >= 0, grades, 0).astype(np.float64)
    if not gains:
        return base
    out = base.copy()
    for g, v in gains.items():
        out[grades == g] = float(v)
    return out


def ideal_gains(jr: JudgedRankings, gains: dict | None) -> tuple[np.ndarray, np.ndarray]:
    """(query index, gain) of every positive ideal gain, per query in descending gain order."""
    judged = jr.qrels_grades >= 0
    q = jr.qrels_query[judged]
    g = gain_of(jr.qrels_grades[judged], gains)
    pos = g > 0
    q, g = q[pos], g[pos]
    o = np.lexsort((-g, q))
    return q[o], g[o]


def dcg_parts(
    jr: JudgedRankings, cutoff: int | None, gains: dict | None
) -> tuple[np.ndarray, np.ndarray]:
    """(DCG@k, IDCG@k) per query with discount 1/log2(i+1), summed in rank order."""
    g = gain_of(jr.grades, gains)
    take = g != 0
    if cutoff is not None:
        take &= jr.rank <= cutoff
    rows = np.flatnonzero(take)
    log2 = jr.log2_table(max(jr.max_rank, 1) + 1)
    dcg = jr.seqsum(rows, g[rows] / log2[jr.rank[rows] + 1])
    iq, ig = ideal_gains(jr, gains)
    if len(iq):
        starts = np.flatnonzero(np.concatenate(([True], iq[1:] != iq[:-1])))
        pos = np.arange(len(iq)) - np.repeat(starts, np.diff(np.append(starts, len(iq)))) + 1
        if cutoff is not None:
            keep = pos <= cutoff
            iq, ig, pos = iq[keep], ig[keep], pos[keep]
        log2 = jr.log2_table(int(pos.max()) + 1 if len(pos) else 2)
        idcg = segment_seqsum(iq, ig / log2[pos + 1], jr.num_queries)
    else:
        idcg = np.zeros(jr.num_queries)
    return dcg, idcg


@measure(
    "nDCG",
    cutoff=CUTOFF_OPTIONAL,
    params=(GAINS,),
    aliases=("NDCG",),
    summary="normalised discounted cumulated gain (gain = grade unless gains= given)",
    formula="nDCG@k = DCG@k / IDCG@k, DCG@k = sum_{i<=k} g(d_i) / log2(i+1)",
    source="Järvelin & Kekäläinen (2002); Chen (seed 004) NDCG; trec_eval m_ndcg.c, m_ndcg_cut.c",
    family="gain",
    undefined=(
        Undefined(
            "no judged document has a positive gain (IDCG = 0)",
            "0 (as trec_eval)",
            lambda jr, gains=None, cutoff=None, **_: dcg_parts(jr, cutoff, gains)[1] == 0,
        ),
    ),
    trec="ndcg / ndcg_cut_k",
)
def ndcg(jr: JudgedRankings, *, cutoff: int | None, gains: dict | None) -> np.ndarray:
    dcg, idcg = dcg_parts(jr, cutoff, gains)
    out = np.zeros(jr.num_queries)
    np.divide(dcg, idcg, out=out, where=idcg > 0)
    return out
