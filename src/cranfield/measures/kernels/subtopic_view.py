"""The ranking as the diversity measures read it (ndeval 4.5's arithmetic, bit for bit).

Notation (Clarke et al., SIGIR 2008, sec. 4): ``J(d_i, j) = 1`` when the document at rank
``i`` is relevant to subtopic ``j`` (a judgment ``>= rel``, :mod:`cranfield.io.trec.subtopics`);
``c_j(i)`` is the number of documents above rank ``i`` relevant to ``j``; ``S`` is the number
of subtopics of the query that some document is relevant to.  The novelty-discounted gain of
rank ``i`` is

    G(i) = sum_j J(d_i, j) (1 - alpha)^{c_j(i)},

added in subtopic order (the file's, :mod:`cranfield.io.trec.subtopics`), each power a running
product, as ndeval adds and multiplies: the sums below are then the same doubles as ndeval's.

The ideal ranking the normalised measures divide by is ndeval's greedy approximation
(:mod:`cranfield.measures.kernels.subtopic_ideal`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.ties.levels import expand

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.io.trec.subtopics import Subtopics
    from cranfield.judging.side_inputs import RankedSubtopics

__all__ = [
    "DEPTH",
    "View",
    "discounts",
    "ideal_ideal",
    "leading_sum",
    "relevant_counts",
    "require",
    "view",
]

DEPTH = 20
"""ndeval's ``DEPTH``: the cut-offs it computes.  Up to it the normalised measures are
computed in ndeval's form (each cumulated gain divided by the ideal-ideal one before their
ratio); beyond it, as the plain ratio (the same value to the last bit or two)."""


def require(jr: JudgedRankings) -> RankedSubtopics:
    """The ranked subtopic judgments of ``jr``, or a :class:`ParameterError` saying how to
    give them."""
    if jr.subtopics is None:
        raise ParameterError(
            "the diversity measures need subtopic judgments: give --subtopics FILE on the "
            "command line (ndeval's qrels: 'topic subtopic docno judgment' lines), or "
            "subtopics= in Python"
        )
    return jr.subtopics


@dataclass(frozen=True, eq=False)
class View:
    """The rows the measures read for one ``(rel, judged_only)``, and their relevant
    (document, subtopic) pairs.

    Rows (``rows`` of the judged rankings, ``query``, ``rank``) are in rank order per query;
    ``pair_row`` (ascending) and ``pair_sub`` (ascending within a row) list every relevant
    pair of a ranked document, and ``pair_seen`` the documents above it relevant to the same
    subtopic (``c_j(i)``); ``by_subtopic`` orders the pairs by (query, subtopic, rank) and
    ``pair_nrel`` gives the relevant documents of each pair's subtopic.  ``S``: per query,
    the subtopics with a relevant document; ``topic``: per query, its topic in the subtopic
    file (-1: none).
    """

    num_queries: int
    rows: np.ndarray
    query: np.ndarray
    rank: np.ndarray
    pair_row: np.ndarray
    pair_sub: np.ndarray
    pair_seen: np.ndarray
    pair_nrel: np.ndarray
    by_subtopic: np.ndarray
    S: np.ndarray
    topic: np.ndarray
    rel: int
    subtopics: Subtopics
    cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

    def gains(self, alpha: float) -> np.ndarray:
        """``G(i)`` of every row."""
        key = ("gains", alpha)
        if key not in self.cache:
            table = _powers(
                1.0 - alpha, int(self.pair_seen.max()) + 1 if len(self.pair_seen) else 1
            )
            self.cache[key] = segment_total(self.pair_row, table[self.pair_seen], len(self.rank))
        # (the cache holds what the lines above stored under key)
        found: np.ndarray = self.cache[key]
        return found

    def ideal(self, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(query, rank, G)`` of the ideal rankings' documents of positive gain."""
        from cranfield.measures.kernels.subtopic_ideal import ideal_gains

        key = ("ideal", alpha)
        if key not in self.cache:
            per_topic = ideal_gains(self.subtopics, self.rel, alpha, self.topic[self.topic >= 0])
            lists = [per_topic[int(t)] if t >= 0 else _EMPTY for t in self.topic]
            lengths = np.array([len(x) for x in lists], dtype=np.int64)
            query = np.repeat(np.arange(self.num_queries), lengths)
            rank = np.arange(1, len(query) + 1) - np.repeat(np.cumsum(lengths) - lengths, lengths)
            gains = np.concatenate(lists) if lists else _EMPTY
            self.cache[key] = (query, rank, gains)
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = self.cache[
            key
        ]  # (what the lines above stored under key)
        return found


_EMPTY = np.zeros(0, dtype=np.float64)


def view(jr: JudgedRankings, rel: int, judged_only: bool = False) -> View:
    """The :class:`View` of ``jr`` (computed once per ``(rel, judged_only)``)."""
    ranked = require(jr)
    key = (int(rel), bool(judged_only))
    if key not in ranked.cache:
        ranked.cache[key] = _make_view(jr, ranked, *key)
    # (the cache holds what the lines above stored under key)
    found: View = ranked.cache[key]
    return found


def _make_view(jr: JudgedRankings, ranked: RankedSubtopics, rel: int, judged_only: bool) -> View:
    sub = ranked.subtopics
    pair = ranked.pair_of_row
    query = jr.row_query
    rows = np.arange(len(pair))
    if judged_only:
        rows = np.flatnonzero(pair >= 0)
        pair, query = pair[rows], query[rows]
    lengths = np.bincount(query, minlength=jr.num_queries).astype(np.int64)
    rank = np.arange(1, len(query) + 1) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    # the judgments of every ranked document, those >= rel kept
    known = np.flatnonzero(pair >= 0)
    p = pair[known]
    count = np.diff(sub.entry_offsets)[p]
    entries = expand(sub.entry_offsets[p], count)[0]
    row_of = np.repeat(known, count)
    relevant = sub.entry_grade[entries] >= rel
    pair_row, pair_sub = row_of[relevant], sub.entry_subtopic[entries][relevant]
    # c_j(i): the pair's place among the pairs of its (query, subtopic), in rank order
    pq = query[pair_row]
    order = np.lexsort((pair_row, pair_sub, pq))
    new = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        new[1:] = (pq[order][1:] != pq[order][:-1]) | (pair_sub[order][1:] != pair_sub[order][:-1])
    starts = np.flatnonzero(new)
    first = np.repeat(starts, np.diff(np.append(starts, len(order))))
    seen = np.empty(len(order), dtype=np.int64)
    seen[order] = np.arange(len(order)) - first
    # S and the relevant documents of each subtopic, from the whole subtopic qrels
    key_topic, key_sub, key_nrel, topic_offsets = relevant_counts(sub, rel)
    topic = ranked.topic_of_query
    has = topic >= 0
    S = np.zeros(jr.num_queries, dtype=np.int64)
    S[has] = np.diff(topic_offsets)[topic[has]]
    nsub = max(len(sub.subtopic_ids), 1)
    keys = key_topic * nsub + key_sub
    at = np.searchsorted(keys, topic[pq] * nsub + pair_sub)
    return View(
        num_queries=jr.num_queries,
        rows=rows,
        query=query,
        rank=rank,
        pair_row=pair_row,
        pair_sub=pair_sub,
        pair_seen=seen,
        pair_nrel=key_nrel[at] if len(at) else np.zeros(0, dtype=np.int64),
        by_subtopic=order,
        S=S,
        topic=topic,
        rel=rel,
        subtopics=sub,
    )


def relevant_counts(
    sub: Subtopics, rel: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (topic, subtopic) with a relevant document, sorted: topic, subtopic, relevant
    documents; and the CSR offsets of each topic's entries (so ``S`` = their number)."""
    key = ("relevant", rel)
    if key not in sub.cache:
        pairs = sub.pairs
        topic_of_pair = np.empty(len(pairs), dtype=np.int64)
        topic_of_pair[pairs.grades] = np.repeat(
            np.arange(pairs.num_queries, dtype=np.int64), np.diff(pairs.offsets)
        )
        entry_pair = np.repeat(np.arange(len(pairs)), np.diff(sub.entry_offsets))
        ok = sub.entry_grade >= rel
        t, s = topic_of_pair[entry_pair[ok]], sub.entry_subtopic[ok]
        nsub = max(len(sub.subtopic_ids), 1)
        uniq, counts = np.unique(t * nsub + s, return_counts=True)
        kt, ks = uniq // nsub, uniq % nsub
        offsets = np.zeros(pairs.num_queries + 1, dtype=np.int64)
        np.cumsum(np.bincount(kt, minlength=pairs.num_queries), out=offsets[1:])
        sub.cache[key] = (kt, ks, counts.astype(np.int64), offsets)
    found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] = sub.cache[
        key
    ]  # (what the lines above stored under key)
    return found


# ------------------------------------------------------------------------ the arithmetic
def _powers(r: float, n: int) -> np.ndarray:
    """``1, r, r*r, ...`` (``n`` values) as running products, as ndeval multiplies."""
    steps = np.full(max(n, 1), r)
    steps[0] = 1.0
    return np.multiply.accumulate(steps)


_DISCOUNT: list[float] = []


def discounts(n: int) -> np.ndarray:
    """ndeval's discounts of ranks ``1..n``: ``1`` at rank 1, ``log(2)/log(i+1)`` after
    (natural logarithms of the C library, as ndeval takes them)."""
    global _DISCOUNT
    if len(_DISCOUNT) < n:
        log2 = math.log(2.0)
        _DISCOUNT = [1.0] + [log2 / math.log(i + 2.0) for i in range(1, max(n, 2 * len(_DISCOUNT)))]
    return np.asarray(_DISCOUNT[:n])


def leading_sum(
    query: np.ndarray, rank: np.ndarray, values: np.ndarray, k: int | None, nq: int
) -> np.ndarray:
    """Per query, the sum of ``values`` over ranks ``<= k`` (all: ``None``), added in rank
    order."""
    sel = slice(None) if k is None else rank <= k
    return segment_total(query[sel], values[sel], nq)


EXACT_TERMS = 1 << 16
"""Terms of the ideal-ideal normaliser added one by one (ndeval's arithmetic); beyond them
its tail is an integral (:func:`_tail`)."""


def ideal_ideal(subtopics: np.ndarray, k: int, alpha: float, form: str) -> np.ndarray:
    """Per query, ndeval's "ideal ideal" normaliser at cut-off ``k >= 2``: the cumulated gain of
    a ranking whose every document is relevant to all ``S`` subtopics, ``sum_{i<=k} S
    (1-alpha)^{i-1} w(i)`` with ``w`` the DCG discount (``form="dcg"``) or ``1/i`` (``"err"``);
    1 where ``S = 0`` (nothing to normalise)."""
    out = np.ones(len(subtopics))
    for size in np.unique(subtopics[subtopics > 0]).tolist():
        out[subtopics == size] = _ideal_ideal(float(size), int(k), float(alpha), form)
    return out


@functools.lru_cache(maxsize=256)
def _ideal_ideal(size: float, k: int, alpha: float, form: str) -> float:
    n = min(k, EXACT_TERMS)
    steps = np.full(n, 1.0 - alpha)
    steps[0] = size
    g = np.multiply.accumulate(steps)  # idealIdealGain *= (1 - alpha), as ndeval
    terms = g * discounts(n) if form == "dcg" else g / np.arange(1.0, n + 1.0)
    total = float(np.add.accumulate(terms)[-1])
    if k == n or terms[-1] == 0.0:
        return total
    return total + _tail(size, n, k, 1.0 - alpha, form, math.ulp(total) / 2)


def _tail(size: float, n: int, k: int, r: float, form: str, negligible: float) -> float:
    """``sum_{i=n}^{k-1} h(i)``, ``h(x) = size r^x w(x)`` (``w(x) = log 2 / log(x+2)`` or
    ``1/(x+1)``) by Euler-Maclaurin: the integral, half the end terms, and the first
    derivative correction (the next is below 1e-16 of the sum from x = 2**16 on); 0 when
    even the first term would not change the sum (so every later one, smaller, would not)."""
    from scipy.special import exp1, expi

    c = -math.log(r)  # r in (0, 1]
    log2 = math.log(2.0)

    def h(x: float) -> float:
        w = log2 / math.log(x + 2.0) if form == "dcg" else 1.0 / (x + 1.0)
        return size * math.exp(-c * x) * w

    def dh(x: float) -> float:
        dw = -1.0 / ((x + 2.0) * math.log(x + 2.0)) if form == "dcg" else -1.0 / (x + 1.0)
        return h(x) * (dw - c)

    if h(n) < negligible:
        return 0.0
    a, b = float(n), float(k - 1)
    if form == "err":  # int e^{-cx}/(x+1) dx = e^c (E1(c(a+1)) - E1(c(b+1))); c = 0: logs
        if c == 0.0:
            integral = math.log((b + 1.0) / (a + 1.0))
        else:
            integral = math.exp(c) * (exp1(c * (a + 1.0)) - exp1(c * (b + 1.0)))
    elif c == 0.0:  # int dx / ln(x+2) = li(b+2) - li(a+2), li(y) = Ei(ln y)
        integral = log2 * (expi(math.log(b + 2.0)) - expi(math.log(a + 2.0)))
    else:
        from scipy.integrate import quad

        top = min(b, a + 800.0 / c)  # beyond it e^{-cx} is below e^{-800} of the first term
        integral, _ = quad(
            lambda x: math.exp(-c * (x - a)) * log2 / math.log(x + 2.0),
            a,
            top,
            epsabs=0.0,
            epsrel=2e-14,
            limit=500,
        )
        integral *= math.exp(-c * a)
    integral *= size
    return integral + (h(a) + h(b)) / 2.0 + (dh(b) - dh(a)) / 12.0
