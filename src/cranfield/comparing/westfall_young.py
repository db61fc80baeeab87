"""Westfall & Young's permutation step-down corrections, MaxT and MinP.

The family is a set of pairs of runs (every pair, or every run against a baseline), each
tested by the paired t-statistic ``t = mean(d) / (sd(d)/sqrt(n))`` of its differences.  Under
the complete null hypothesis the runs are exchangeable on every query, so the null
distribution of all the statistics *jointly* comes from permuting each query's values across
the runs (:mod:`.arrangements`), which keeps the dependence between the pairs (they share
runs and queries).  Westfall & Young (*Resampling-Based Multiple Testing*, 1993), with
Boytsov, Belova & Westfall (SIGIR 2013) for IR:

- **MaxT**: order the pairs by ``|t|``, largest first; for each arrangement take the
  successive maxima ``u_i = max_{l >= i} |t*_(l)|``;
  ``p~_(i) = max_{j <= i} #{u_j >= |t_(j)|} / N``;
- **MinP**: the same with each pair's permutation p-value ``p*`` (the share of arrangements
  whose ``|t*|`` for that pair is at least as large) in place of ``|t*|``, and successive
  minima: ``p~_(i) = max_{j <= i} #{min_{l >= j} p*_(l) <= p_(j)} / N``.

Exact enumeration counts over all ``N = (k!)^n`` arrangements (the observed one among them);
sampling counts over the observed table and ``B`` random arrangements, ``N = B + 1``, so a
p-value is never 0.  Both control the family-wise error rate under any dependence between
the pairs, given subset pivotality (Westfall & Young 1993).  A resampled ``|t*|``
within a relative 1e-10 of the one it is compared with counts as reaching it, so exact ties
of the permutation distribution are not lost to rounding.  Two-sided only.

MinP keeps every statistic of every arrangement (N x pairs numbers); MaxT only a block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cranfield.comparing.arrangements import (
    MAX_EXACT_ARRANGEMENTS,
    arrangement_blocks,
    arrangement_count,
    exact_arrangements,
    rearranged,
)
from cranfield.comparing.checks import check_count, check_seed, runs_table, unit_exponents
from cranfield.comparing.resampling import _studentized
from cranfield.errors import ParameterError

__all__ = ["MAX_MINP_ELEMENTS", "WestfallYoung", "westfall_young"]

_TOLERANCE = 1e-10
_PAIR_ELEMENTS = 2_000_000
MAX_MINP_ELEMENTS = 50_000_000
"""The most statistics MinP keeps (arrangements x pairs, 8 bytes each): 400 MB."""


@dataclass(frozen=True)
class WestfallYoung:
    """``statistic``: each pair's paired t; ``p_raw``: its own permutation p-value (the share of
    arrangements with ``|t*| >= |t|``); ``p_adjusted``: the step-down MaxT or MinP value;
    ``resamples``: N, the arrangements counted (observed included); ``exact``: enumerated."""

    method: str
    statistic: np.ndarray
    p_raw: np.ndarray
    p_adjusted: np.ndarray
    resamples: int
    exact: bool


def _t_stats(Z: np.ndarray, I: np.ndarray, J: np.ndarray) -> np.ndarray:
    """Paired t of columns J against I for tables Z (rows, n, k), as (rows, pairs)."""
    rows, n, _ = Z.shape
    out = np.empty((rows, len(I)))
    step = max(1, _PAIR_ELEMENTS // max(1, rows * n))
    for lo in range(0, len(I), step):
        sl = slice(lo, lo + step)
        d = Z[:, :, J[sl]] - Z[:, :, I[sl]]
        mean = d.sum(axis=1) / n
        c = d - mean[:, None, :]
        out[:, sl] = _studentized(mean, (c * c).sum(axis=1), n)
    return np.abs(out)


def _reach(values: np.ndarray, target: np.ndarray) -> np.ndarray:
    """``values >= target`` with the relative tolerance (infinite targets need infinity)."""
    tol = np.where(np.isinf(target), 0.0, _TOLERANCE * np.maximum(np.abs(target), 1.0))
    return values >= target - tol


def westfall_young(
    Y,
    pairs,
    *,
    method: str = "maxt",
    permutations: int = 10_000,
    seed: int | None = 0,
    exact: bool | None = None,
) -> WestfallYoung:
    """MaxT or MinP adjusted p-values of the pairs ``(i, j)`` (run j against run i) of the
    queries x runs table ``Y``.  ``exact=None`` enumerates when
    :func:`~cranfield.comparing.arrangements.exact_arrangements`."""
    if method not in ("maxt", "minp"):
        raise ParameterError(f"unknown method {method!r}; choose maxt or minp")
    permutations = check_count(permutations, "permutations")
    seed = check_seed(seed)
    Y = runs_table(Y, "MaxT / MinP need", queries=2)
    n, k = Y.shape
    try:
        I = np.array([int(i) for i, _ in pairs], dtype=np.intp)
        J = np.array([int(j) for _, j in pairs], dtype=np.intp)
    except (TypeError, ValueError):
        raise ParameterError("pairs must be (i, j) column indices") from None
    m = len(I)
    if m == 0 or (np.concatenate([I, J]) < 0).any() or (np.concatenate([I, J]) >= k).any():
        raise ParameterError(f"pairs must be (i, j) column indices below {k}")
    if exact is None:
        use_exact = exact_arrangements(n, k, permutations)
    else:
        use_exact = bool(exact)
        if use_exact and arrangement_count(n, k) > MAX_EXACT_ARRANGEMENTS:
            raise ParameterError(
                f"exact enumeration of ({k}!)^{n} arrangements is too large (at most "
                f"{MAX_EXACT_ARRANGEMENTS:,}); use exact=False"
            )
    total = arrangement_count(n, k) if use_exact else permutations + 1
    if method == "minp" and total * m > MAX_MINP_ELEMENTS:
        raise ParameterError(
            f"MinP keeps every statistic of every arrangement: {total:,} arrangements x {m:,} "
            f"pairs is more than {MAX_MINP_ELEMENTS:,}; use fewer permutations or maxt"
        )
    top = float(np.abs(Y).max())
    S = np.ldexp(Y, -int(unit_exponents(top)))  # exact; t is scale-free
    observed = _t_stats(S[None], I, J)[0]
    order = np.argsort(-observed, kind="stable")
    blocks = arrangement_blocks(
        n, k, exact=use_exact, permutations=permutations, seed=seed, what=method
    )
    if method == "maxt":
        raw = np.zeros(m, dtype=np.int64)
        count = np.zeros(m, dtype=np.int64)
        if not use_exact:  # the observed table is one of the N counted
            raw += 1
            count += 1
        target = observed[order]
        for arr in blocks:
            T = _t_stats(rearranged(S, arr), I, J)
            raw += _reach(T, observed).sum(axis=0)
            U = np.maximum.accumulate(T[:, order][:, ::-1], axis=1)[:, ::-1]
            count += _reach(U, target).sum(axis=0)
        stepped = count / total
    else:
        parts = [] if use_exact else [observed[None]]
        parts += [_t_stats(rearranged(S, arr), I, J) for arr in blocks]
        T = np.concatenate(parts)  # row 0 is the observed table
        C = np.empty(T.shape, dtype=np.int64)  # C[b, j] = N p*_j of arrangement b
        for j in range(m):
            col = np.sort(T[:, j])
            v = T[:, j]
            tol = np.where(np.isinf(v), 0.0, _TOLERANCE * np.maximum(v, 1.0))
            C[:, j] = total - np.searchsorted(col, v - tol, side="left")
        raw = C[0].copy()
        order = np.lexsort((-observed, raw))
        M = np.minimum.accumulate(C[:, order][:, ::-1], axis=1)[:, ::-1]
        count = (raw[order][None, :] >= M).sum(axis=0)
        stepped = count / total
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(np.maximum.accumulate(stepped), 1.0)
    p_raw = np.minimum(raw / total, 1.0)
    signed = _t_stats_signed(S, I, J)
    return WestfallYoung(method, signed, p_raw, adjusted, int(total), use_exact)


def _t_stats_signed(S: np.ndarray, I: np.ndarray, J: np.ndarray) -> np.ndarray:
    n = S.shape[0]
    d = S[:, J] - S[:, I]
    mean = d.sum(axis=0) / n
    c = d - mean
    return _studentized(mean, (c * c).sum(axis=0), n)
