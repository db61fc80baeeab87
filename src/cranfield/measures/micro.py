"""Micro-average parts of measures registered elsewhere: per query ``(num, den)``.

Keen (seed 002) sec. 4A: the micro method sums, over all requests, the numbers of documents
retrieved and relevant, and computes one ratio: ``sum_q num_q / sum_q den_q``.  Measures of
this package's own modules declare their parts with ``@measure(..., micro=...)``; this module
adds them to measures defined in modules it does not own.
"""

from __future__ import annotations

import numpy as np

from ..judged_rankings import JudgedRankings
from .dcg import dcg_parts
from .registry import REGISTRY, set_micro


def _p(jr: JudgedRankings, *, cutoff: int, rel: int, **_: object):
    return jr.count_at(jr.relevant(rel), cutoff), np.full(jr.num_queries, float(cutoff))


def _r(jr: JudgedRankings, *, cutoff: int, rel: int, **_: object):
    return jr.count_at(jr.relevant(rel), cutoff), jr.num_rel(rel)


def _rprec(jr: JudgedRankings, *, rel: int, **_: object):
    R = jr.num_rel(rel)
    return jr.count_at(jr.relevant(rel), np.minimum(jr.num_ret, R)), R


def _set_p(jr: JudgedRankings, *, rel: int, **_: object):
    return jr.count(jr.relevant(rel)), jr.num_ret


def _set_r(jr: JudgedRankings, *, rel: int, **_: object):
    return jr.count(jr.relevant(rel)), jr.num_rel(rel)


def _judged(jr: JudgedRankings, *, cutoff: int, **_: object):
    return jr.count_at(jr.grades >= 0, cutoff), np.full(jr.num_queries, float(cutoff))


def _ndcg(
    jr: JudgedRankings,
    *,
    cutoff: int | None,
    gains: dict | None,
    convention: str = "trec",
    base: float = 2.0,
    **_: object,
):
    return dcg_parts(jr, cutoff, gains, convention, base)


_PARTS = {
    "P": _p,
    "R": _r,
    "Rprec": _rprec,
    "SetP": _set_p,
    "SetR": _set_r,
    "Judged": _judged,
    "nDCG": _ndcg,
}

for _name, _fn in _PARTS.items():
    if _name in REGISTRY and REGISTRY[_name].micro is None:
        set_micro(_name, _fn)
