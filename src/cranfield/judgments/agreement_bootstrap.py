"""The label-agreement statistics of :func:`cranfield.judges`, computed from sums over
queries: per query the confusion matrices, coincidences and agreement terms, and from them
each statistic (:mod:`cranfield.judgments.statistics`) on all queries and in every bootstrap
resample (queries drawn with replacement: one matrix product gives all resamples), with its
percentile interval; a statistic left undefined is one warning naming why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cranfield.judgments import statistics as S
from cranfield.judgments.agreement_result import Estimate, PairAgreement, QueryKappa

__all__ = ["Context", "all_sets", "pair", "resamples"]


def resamples(nq: int, bootstrap: int, seed: int) -> np.ndarray | None:
    """``(bootstrap, nq)`` multiplicities of the queries in each resample."""
    if not bootstrap or nq == 0:
        return None
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, nq, size=(bootstrap, nq))
    mult = np.zeros((bootstrap, nq), dtype=np.float64)
    np.add.at(mult, (np.repeat(np.arange(bootstrap), nq), drawn.reshape(-1)), 1.0)
    return mult


@dataclass
class Context:
    qcode: np.ndarray
    nq: int
    resample: np.ndarray | None
    alpha: float
    notes: list[str]

    def per_query(self, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Sum the units' arrays ``values`` (rows ``rows`` of the pairable units) by query
        (the units are in query order: one ``add.reduceat`` over each query's run)."""
        out = np.zeros((self.nq, *values.shape[1:]), dtype=np.float64)
        if len(rows) == 0:
            return out
        q = self.qcode[rows]
        starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
        out[q[starts]] = np.add.reduceat(np.asarray(values, dtype=np.float64), starts, axis=0)
        return out

    def resampled(self, per_query: np.ndarray) -> np.ndarray | None:
        """The sums of per-query arrays ``(nq, ...)`` in every bootstrap resample."""
        if self.resample is None:
            return None
        flat = per_query.reshape(self.nq, -1)
        return (self.resample @ flat).reshape(-1, *per_query.shape[1:])

    def interval(self, value: float, boot: np.ndarray | None) -> Estimate:
        """``value`` with the percentile interval of its bootstrap values (NaN ones left
        out)."""
        if boot is None:
            return Estimate(value, float("nan"), float("nan"))
        boot = np.asarray(boot, dtype=np.float64)
        boot = boot[~np.isnan(boot)]
        if len(boot) == 0:
            return Estimate(value, float("nan"), float("nan"))
        low, high = np.quantile(boot, [self.alpha, 1.0 - self.alpha])
        return Estimate(value, float(low), float(high))

    def estimate(self, per_query: list[np.ndarray], fn) -> Estimate:
        """The statistic ``fn(*sums)`` on all queries and its bootstrap interval."""
        value = float(fn(*[a.sum(axis=0) for a in per_query]))
        if self.resample is None:
            return self.interval(value, None)
        return self.interval(value, fn(*[self.resampled(a) for a in per_query]))


_WEIGHTS = {"kappa": None, "kappa_linear": "linear", "kappa_quadratic": "quadratic"}


def _why_undefined(values: np.ndarray) -> str:
    """Why a statistic of these (pairable) grades is undefined."""
    seen = np.unique(values[values >= 0])
    if len(seen) == 0:
        return "no pair is judged by the sets compared"
    if len(seen) == 1:
        return f"every judgment compared has grade {int(seen[0])} (expected disagreement 0)"
    return "expected disagreement is 0"


def pair(ctx: Context, grid, rel, i, j, names, lo, hi, qnames, only) -> PairAgreement:
    a_name, b_name = names[i], names[j]
    in_a, in_b = grid[:, i] >= 0, grid[:, j] >= 0
    rows = np.flatnonzero(in_a & in_b)
    k = hi - lo + 1
    a, b = grid[rows, i] - lo, grid[rows, j] - lo
    # per-query confusion matrices by one bincount over (query, grade a, grade b)
    codes = (ctx.qcode[rows] * k + a) * k + b
    conf_q = np.bincount(codes, minlength=ctx.nq * k * k).astype(np.float64)
    conf_q = conf_q.reshape(ctx.nq, k, k)
    label = f"{a_name} and {b_name}"
    n = len(rows)
    if n == 0:
        ctx.notes.append(
            f"{label} judge no (query, document) pair in common: their statistics are "
            "undefined (NaN)"
        )
    confusion = conf_q.sum(axis=0)
    boot = ctx.resampled(conf_q)
    # binarised: grade >= rel is 1; the 2 x 2 matrices are sums of blocks of the graded ones
    to_binary = np.zeros((k, 2))
    to_binary[np.arange(k), (np.arange(k) + lo >= rel).astype(np.int64)] = 1.0
    bconfusion = to_binary.T @ confusion @ to_binary
    bboot = None if boot is None else np.einsum("ki,bkl,lj->bij", to_binary, boot, to_binary)
    stats: dict[str, Estimate] = {}
    bstats: dict[str, Estimate] = {}
    undefined: dict[tuple[str, str], list[str]] = {}
    for name, w in _WEIGHTS.items():
        for out, c, cb, values, how in (
            (stats, confusion, boot, np.concatenate([a, b]) + lo, ""),
            (bstats, bconfusion, bboot, np.concatenate([a, b]) + lo >= rel, " after binarising"),
        ):
            est = ctx.interval(
                float(S.cohen_kappa(c, w)), None if cb is None else S.cohen_kappa(cb, w)
            )
            if est.value != est.value and n:
                reason = _why_undefined(values.astype(np.int64))
                undefined.setdefault((f" of {label}{how}", reason), []).append(name)
            out[name] = est
    _undefined_notes(ctx, undefined)
    rows_sum, cols_sum = confusion.sum(axis=1), confusion.sum(axis=0)
    per_grade = {}
    for g in range(k):
        den = rows_sum[g] + cols_sum[g]
        per_grade[g + lo] = float(2 * confusion[g, g] / den) if den else float("nan")

    diff = (b - a).astype(np.float64)
    per_query = []
    kq = S.cohen_kappa(conf_q)
    count_q = conf_q.sum(axis=(1, 2))
    agree_q = np.trace(conf_q, axis1=1, axis2=2)
    for qi in np.flatnonzero(count_q):
        per_query.append(
            QueryKappa(
                str(qnames[qi]), int(count_q[qi]), float(agree_q[qi] / count_q[qi]), float(kq[qi])
            )
        )
    # most disagreement first: lowest kappa (undefined last), then lowest raw agreement
    per_query.sort(key=lambda r: (r.kappa != r.kappa, r.kappa, r.agreement, r.query))
    return PairAgreement(
        a=a_name,
        b=b_name,
        both=n,
        only_a=only[0],
        only_b=only[1],
        grades=tuple(range(lo, hi + 1)),
        confusion=confusion,
        observed=float(np.trace(confusion) / n) if n else float("nan"),
        statistics=stats,
        per_grade=per_grade,
        binary_confusion=bconfusion,
        binary_statistics=bstats,
        mean_difference=float(diff.mean()) if n else float("nan"),
        b_higher=float((diff > 0).mean()) if n else float("nan"),
        a_higher=float((diff < 0).mean()) if n else float("nan"),
        per_query=per_query,
    )


def all_sets(ctx: Context, grid, lo, hi, suffix, m, singles) -> dict[str, Estimate]:
    """Krippendorff's alpha, Fleiss' kappa and Gwet's AC1/AC2 over every set at once
    (``singles``: query code and grade of the pairs judged by one set, for Gwet's pi_k)."""
    k = hi - lo + 1
    judged = grid >= 0
    counts = np.zeros((len(grid), k))
    for s in range(m):
        rows = np.flatnonzero(judged[:, s])
        np.add.at(counts, (rows, grid[rows, s] - lo), 1.0)
    every = np.arange(len(grid))
    out: dict[str, Estimate] = {}
    coinc = S.coincidences(np.where(judged, grid - lo, -1), ctx.qcode, ctx.nq, k)
    for level in ("nominal", "ordinal", "interval"):
        out[f"alpha_{level}"] = ctx.estimate(
            [coinc], lambda o, lv=level: S.krippendorff_alpha(o, lv)
        )
    full = np.flatnonzero(judged.all(axis=1))
    p_i, n_ij = S.fleiss_terms(counts[full])
    out["fleiss_kappa"] = ctx.estimate(
        [
            ctx.per_query(p_i, full),
            ctx.per_query(np.ones(len(full)), full),
            ctx.per_query(n_ij, full),
        ],
        S.fleiss_kappa,
    )
    ones = ctx.per_query(np.ones(len(grid)), every)
    s_code, s_grade = singles
    s_units = np.bincount(s_code, minlength=ctx.nq).astype(np.float64)
    s_pi = np.bincount(s_code * k + (s_grade - lo), minlength=ctx.nq * k).astype(np.float64)
    for name, weighted in (("ac1", False), ("ac2", True)):
        pa, pi = S.gwet_terms(counts, weighted)
        out[name] = ctx.estimate(
            [
                ctx.per_query(pa, every),
                ones,
                ctx.per_query(pi, every) + s_pi.reshape(ctx.nq, k),
                ones + s_units,
            ],
            lambda sa, u, sp, up, w=weighted: S.gwet_ac(sa, u, sp, up, w),
        )
    undefined: dict[tuple[str, str], list[str]] = {}
    for name, est in out.items():
        if est.value != est.value:
            reason = (
                "no pair is judged by every set"
                if name == "fleiss_kappa" and len(full) == 0 and len(grid)
                else _why_undefined(grid)
            )
            if name in ("ac1", "ac2") and k == 1 and len(grid):
                reason = f"a single category (every judgment has grade {lo})"
            undefined.setdefault((f"{suffix} over all sets", reason), []).append(name)
    _undefined_notes(ctx, undefined)
    return out


def _undefined_notes(ctx: Context, undefined: dict[tuple[str, str], list[str]]) -> None:
    """One warning per subject and reason, naming every statistic it leaves undefined."""
    for (subject, reason), names in undefined.items():
        verb = "is" if len(names) == 1 else "are"
        ctx.notes.append(f"{', '.join(names)}{subject} {verb} undefined (NaN): {reason}")
