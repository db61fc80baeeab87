"""The closed forms the tie-aware measures share: expectations over uniformly random
tie-breaking within the levels of a weak ordering (McSherry & Najork, 'Computing information
retrieval performance measures efficiently in the presence of tied scores', ECIR 2008;
Raghavan, Jung & Bollmann, ACM TOIS 7(3), 1989, sec. 3.1 for the notation of
:mod:`cranfield.ties.levels`).

- :class:`AtK` and :func:`expected_count_at`: the level holding position k, and
  ``E[c@k] = S_g + (k - T_g) r_g / n_g`` (counts at k);
- :func:`positional_sum`: ``E[sum_{i <= k} term(w(d_i), i)]`` for a term linear in a row's
  weight (DCG, RBP, CG): ``sum_g sum_{i in level g, i <= k} term(W_g / n_g, i)``;
- :func:`uniform_before`: the documents of one kind above a given document of a level (its
  place among them is uniform: Bpref, BinG);
- a depth cut inside a level (``JudgedRankings.cut``): :func:`cut_levels`,
  :func:`retrieved_part_mean` and :func:`refuse_cut` for the measures without a closed form.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cranfield.base.segments import segment_total
from cranfield.errors import MeasureError
from cranfield.judging.rankings import JudgedRankings
from cranfield.ties.levels import expand, level_bounds, log_binom, marked_levels

__all__ = [
    "AtK",
    "cut_levels",
    "expected_count_at",
    "expected_retrieved",
    "positional_sum",
    "refuse_cut",
    "retrieved_part_mean",
    "retrieved_variance",
    "uniform_before",
]


class AtK:
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
    at = AtK(jr, mask, k)
    out = np.zeros(jr.num_queries)
    out[at.q] = at.S + at.m * at.r / at.n
    return out


def positional_sum(
    jr: JudgedRankings,
    weights: np.ndarray,
    term: Callable[[np.ndarray, np.ndarray], np.ndarray],
    cutoff: int | None,
) -> np.ndarray:
    """``E[sum_{i <= k} term(w(d_i), i)]`` for ``term`` linear in the weight:
    ``sum_g sum_{i in level g, i <= k} term(W_g / n_g, i)`` (McSherry & Najork sec. 2.4)."""
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
    return segment_total(ml.query[idx], contrib, jr.num_queries)


def uniform_before(jr: JudgedRankings, ml, others: np.ndarray):
    """Per marked level: (a, u) = the ``others`` rows (sorted) of its query before the level,
    and in the level.  A given marked document has ``a + V`` of them above it, ``V`` uniform on
    ``0..u`` (its place among the level's u others is uniform)."""
    first = np.searchsorted(others, jr.offsets[ml.query])
    at = np.searchsorted(others, ml.start)
    end = np.searchsorted(others, ml.start + ml.size)
    return at - first, end - at


def cut_levels(jr: JudgedRankings, ml) -> tuple[np.ndarray, np.ndarray]:
    """The marked levels that a depth cut splits (see ``JudgedRankings.cut``), and how many of
    their positions are retrieved."""
    if not jr.cut:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    visible = jr.offsets[ml.query] + jr.num_ret[ml.query]
    cut = np.flatnonzero(ml.start + ml.size > visible)
    return cut, visible[cut] - ml.start[cut]


def refuse_cut(jr: JudgedRankings, name: str, why: str) -> None:
    """Raise a :class:`MeasureError` if a depth cut fell inside a tie group of ``jr`` (see
    :attr:`JudgedRankings.cut`) and measure ``name`` has no closed form for that case."""
    if not jr.cut:
        return
    split = np.flatnonzero(jr.num_rows > jr.num_ret)
    queries = "1 query" if len(split) == 1 else f"{len(split)} queries"
    raise MeasureError(
        f"{name} has no closed form for the expectation over tie-breakings when the depth "
        f"cut ({jr.depth}) falls inside a tie group, as it does for {queries} "
        f"(first: {jr.query_ids[int(split[0])]!r}): {why}. Use a depth that does not split a "
        "tie group, no depth, or another tie policy (see 'cranfield docs ties')"
    )


def retrieved_part_mean(
    n: np.ndarray, m: np.ndarray, u: np.ndarray, f: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Per level: ``(1/n) sum_{p=1..m} E[f(V_p)]``, for levels of which a depth cut retrieves
    only the first ``m`` of ``n`` positions.

    A given marked document of the level is at a uniformly random position ``p`` (retrieved if
    ``p <= m``); ``V_p``, the level's ``u`` "other" documents placed above it, is then
    hypergeometric: ``p - 1`` draws from the level's ``n - 1`` other documents, ``u`` of them
    others.  ``f(level, v)`` (vectorised; ``level`` indexes the given arrays) is the document's
    contribution with ``v`` others above it in the level.  Cost: ``sum m (min(u, m) + 1)``.
    """
    n, m, u = (np.asarray(a, dtype=np.int64) for a in (n, m, u))
    out = np.zeros(len(n))
    if not len(n):
        return out
    # the grid of (level, p, v): p = 1..m, v = max(0, p-1-(n-1-u)) .. min(u, p-1)
    level = np.repeat(np.arange(len(n)), m)
    p = expand(np.ones(len(n), dtype=np.int64), m)[0]  # 1..m per level
    lo = np.maximum(0, p - 1 - (n[level] - 1 - u[level]))
    hi = np.minimum(u[level], p - 1)
    cnt = hi - lo + 1
    cell_level = np.repeat(level, cnt)
    cell_p = np.repeat(p, cnt)
    v = expand(lo, cnt)[0]
    nn, uu = n[cell_level], u[cell_level]
    logp = log_binom(uu, v) + log_binom(nn - 1 - uu, cell_p - 1 - v) - log_binom(nn - 1, cell_p - 1)
    weight = np.exp(logp)
    np.add.at(out, cell_level, weight * f(cell_level, v))
    return out / n


def expected_retrieved(jr: JudgedRankings, mask: np.ndarray) -> np.ndarray:
    """E[retrieved rows where ``mask`` holds]: the count at the ranking's length, whose
    expectation differs from the count only where a depth cut splits a level."""
    return expected_count_at(jr, mask, jr.num_ret)


def retrieved_variance(jr: JudgedRankings, mask: np.ndarray) -> np.ndarray:
    """Var[retrieved rows where ``mask`` holds]: the hypergeometric variance
    ``m p (1-p) (n_g - m) / (n_g - 1)`` (``p = r_g / n_g``) of the part ``m`` of the level a
    depth cut splits; 0 elsewhere."""
    at = AtK(jr, mask, jr.num_ret)
    var = np.zeros(jr.num_queries)
    part = at.n > at.m
    p = at.r[part] / at.n[part]
    m, n = at.m[part], at.n[part]
    var[at.q[part]] = m * p * (1.0 - p) * (n - m) / (n - 1.0)
    return var
