"""Tie-aware forms of the intent-aware measures that average a measure over subtopics.

``P_IA@k``, ``StRecall@k`` and ``AP_IA`` are means over the ``S`` subtopics of a query of
``P@k``, ``Success@k`` and ``AP`` with "relevant" meaning "relevant to this subtopic"
(Agrawal et al., WSDM 2009; Zhai, Cohen & Lafferty, SIGIR 2003):

    P_IA@k = (1/S) sum_j P_j@k,   StRecall@k = (1/S) sum_j Success_j@k,   AP_IA = (1/S) sum_j AP_j.

An expectation over tie-breakings is linear, so each is the mean of the tie-aware forms of
``P`` (as the expected count in the top k, over k), ``Success`` and ``AP`` (McSherry & Najork,
ECIR 2008) on one ranking per (query, subtopic): the query's ranking, its tie groups and depth
cut kept, judged for that subtopic alone (``R`` = the documents relevant to it).
"""

from __future__ import annotations

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.subtopic_view import relevant_counts, view
from cranfield.ties.expected import expected_count_at, refuse_cut
from cranfield.ties.levels import expand

__all__ = ["subtopic_mean"]


def subtopic_mean(
    jr: JudgedRankings, measure: str, rel: int, judged_only: bool, name: str, scale: float = 1.0
) -> np.ndarray:
    """Per query, ``sum_j m_j / (scale S)`` for the tie-aware form of ``measure`` (a measure
    string of the registry, relevance ``rel=1``; ``count@k``: the expected relevant documents
    in the top k) on each subtopic's ranking; 0 where ``S = 0``.  Without ties every term is
    the plain one, added in the plain form's order: the same doubles."""
    from cranfield.measures.parse import parse

    if judged_only:
        refuse_cut(jr, name, "dropping unjudged documents changes which ones the cut keeps")
    rankings, query, S = per_subtopic(jr, rel, judged_only)
    out = np.zeros(jr.num_queries)
    if rankings.num_queries:
        if measure.startswith("count@"):
            k = int(measure.split("@")[1])
            values = expected_count_at(rankings, rankings.relevant(1), k)
        else:
            values = parse(measure).compute(rankings)
        total = segment_total(query, values, jr.num_queries)
        ok = S > 0
        out[ok] = total[ok] / (scale * S[ok])
    return out


def per_subtopic(
    jr: JudgedRankings, rel: int, judged_only: bool
) -> tuple[JudgedRankings, np.ndarray, np.ndarray]:
    """``(rankings, query, S)``: one ranking per (query, subtopic with a relevant document),
    in query then subtopic order, graded 1 (relevant to the subtopic) or 0; the query of each;
    and ``S`` per query."""
    v = view(jr, rel, judged_only)
    _, ks, kn, toff = relevant_counts(v.subtopics, rel)
    has = np.flatnonzero(v.S > 0)
    t = v.topic[has]
    eq = np.repeat(has, v.S[has])  # the query of each (query, subtopic)
    at = expand(toff[t], v.S[has])[0]
    ej, en = ks[at], kn[at]
    nrows = np.bincount(v.query, minlength=v.num_queries).astype(np.int64)
    voff = np.concatenate(([0], np.cumsum(nrows)))
    lengths = nrows[eq]
    vrows = expand(voff[eq], lengths)[0]  # rows of the view, each query's once per subtopic
    seg = np.repeat(np.arange(len(eq)), lengths)
    nsub = max(len(v.subtopics.subtopic_ids), 1)
    keys = v.pair_row * nsub + v.pair_sub  # ascending: pairs by row, then subtopic
    want = vrows * nsub + ej[seg]
    pos = np.minimum(np.searchsorted(keys, want), max(len(keys) - 1, 0))
    grades = (keys[pos] == want).astype(np.int64) if len(keys) else np.zeros(len(want), np.int64)
    rows = v.rows[vrows]
    tie = jr.tie_ids[rows]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = (seg[1:] != seg[:-1]) | (tie[1:] != tie[:-1])
    rankings = JudgedRankings(
        query_ids=tuple(f"{jr.query_ids[q]}\x1f{j}" for q, j in zip(eq, ej, strict=True)),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        grades=grades,
        scores=jr.scores[rows],
        tie_ids=np.cumsum(new) - 1,
        qrels_offsets=np.concatenate(([0], np.cumsum(en))).astype(np.int64),
        qrels_grades=np.ones(int(en.sum()), dtype=np.int64),
        in_run=jr.in_run[eq],
        run_name=jr.run_name,
        ties=jr.ties,
        depth=jr.depth,
        judged_only=jr.judged_only,
        cut=jr.cut,
    )
    return rankings, eq, v.S
