"""fallout(): recall-fallout ("operating characteristic") curves, and precision recovered from
recall, fallout and generality.

Keen ("Evaluation Parameters", SMART report ISR-13, sec. 3B, Fig. 7; sec. 6, Fig. 28 b) plots
fallout ``F = b / (b + d)``, the share of the collection's non-relevant documents retrieved,
against recall.  Raghavan, Jung & Bollmann ("A Critical Investigation of Recall and Precision as
Measures of Retrieval System Performance", ACM TOIS 7(3), 1989, sec. 3.5, after Robertson 1969)
define the recall-fallout graph of one query
by its points at full levels (ranks, or levels of tied documents with ``weak``), joined by
straight lines, so that at recall ``R`` (eq. 3.6)::

    F = j / (N - n) + (n R - t_r) i / ((N - n) r)

with ``n`` relevant documents, ``N`` documents in the collection and ``j, t_r, r, i`` as in
:mod:`.precall` for the level where ``n R`` relevant documents are reached (a level is read at
its first point, so on a vertical run of non-relevant documents the lowest fallout).  Relevant
documents the run does not rank are reached in one last level formed by the rest of the
collection (those values are marked extrapolated).  At recall 0 the fallout is 0 (nothing
retrieved).

Precision follows from recall, fallout and generality ``G = n / N`` (eq. 3.5)::

    P = G R / (G R + (1 - G) F)

which on this graph is PRECALL with intuitive interpolation (Raghavan et al. sec. 3.5).  The code
computes P both ways and checks that they agree; the ``precision`` column is the result (at
recall 0 its limit from the right: ``r / (r + i)`` for the first level if that level holds a
relevant document, else 0).  With ``generality`` (per thousand, Keen's G; Fig. 28 c) the
precision is instead "adjusted" to that generality: ``P = R G / (R G + F (1000 - G))``.

At document cut-offs (``cutoffs``; Keen's Fig. 7 is a Pseudo-Cranfield micro evaluation) each
query's point at cut-off ``k`` is ``(rel(k)/n, (k - rel(k))/(N - n))``; macro or micro averaged
(``sum rel / sum n``, ``sum nonrel / sum (N - n)``).  An averaged curve is read at recall levels
along the polyline from (0, 0) through the cut-offs to (1, 1), the whole collection retrieved.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.curves.average import check_average, column_statistic
from cranfield.curves.cutoffs import beyond, read_at_levels, relevant_at
from cranfield.curves.inputs import collection_sizes, judged_runs
from cranfield.curves.precall import WeakLevels
from cranfield.curves.recall_levels import ceil_count, parse_cutoffs, parse_levels
from cranfield.curves.steps import Steps
from cranfield.errors import DataWarning, ParameterError, warn
from cranfield.judging.options import JudgeOptions

__all__ = ["FALLOUT_COLUMNS", "fallout", "fallout_at_levels"]

FALLOUT_COLUMNS = ("run", "level", "value", "queries", "extrapolated", "precision")


def fallout_at_levels(
    steps: Steps,
    levels: tuple[Fraction, ...],
    N: np.ndarray,
    weak_levels: WeakLevels,
    generality: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries x levels: fallout (eq. 3.6), precision (eq. 3.5, checked against PRECALL) and
    whether the value lies in the unranked rest of the collection."""
    Q, L = steps.num_queries, len(levels)
    R, RR, n = steps.R, steps.RR, steps.n
    Rf = R.astype(np.float64)
    nonrel = (N - R).astype(np.float64)
    # the unranked rest of the collection as one last level
    j_rest = (n - RR).astype(np.float64)
    r_rest = (R - RR).astype(np.float64)
    i_rest = (N - n - (R - RR)).astype(np.float64)
    F = np.zeros((Q, L))
    P = np.zeros((Q, L))
    rest = np.zeros((Q, L), dtype=bool)
    has = RR > 0
    # precision limit at recall 0+: the first level holding a relevant document
    one = np.ones(Q, dtype=np.int64)
    first_j = np.where(has, steps.at(weak_levels.j.astype(np.float64), one), j_rest)
    first_r = np.where(has, steps.at(weak_levels.r.astype(np.float64), one), r_rest)
    first_i = np.where(has, steps.at(weak_levels.i.astype(np.float64), one), i_rest)
    with np.errstate(divide="ignore", invalid="ignore"):
        p0 = np.where((first_j == 0) & (first_r > 0), first_r / (first_r + first_i), 0.0)
    jf, tf, rf, i_f = (
        x.astype(np.float64) for x in (weak_levels.j, weak_levels.t, weak_levels.r, weak_levels.i)
    )
    for col, lev in enumerate(levels):
        c = ceil_count(lev, R)
        NR = lev.numerator * Rf / lev.denominator
        inside = has & (c >= 1) & (c <= RR)
        j = np.where(inside, steps.at(jf, c), j_rest)
        t = np.where(inside, steps.at(tf, c), RR)
        r = np.where(inside, steps.at(rf, c), r_rest)
        i = np.where(inside, steps.at(i_f, c), i_rest)
        s = NR - t
        with np.errstate(divide="ignore", invalid="ignore"):
            extra = np.where(r > 0, s * i / r, 0.0)
            f = np.where(nonrel > 0, (j + extra) / nonrel, 0.0)
            precall = np.where(NR > 0, NR / (NR + j + extra), p0)
        f = np.where(c == 0, 0.0, f)
        F[:, col] = f
        rest[:, col] = (c > RR) & (R > 0)
        r_level = float(lev)
        if generality is None:
            G = Rf / N
            with np.errstate(divide="ignore", invalid="ignore"):
                p35 = np.where(c == 0, p0, G * r_level / (G * r_level + (1 - G) * f))
            ok = (R == 0) | np.isclose(p35, precall, rtol=1e-9, atol=1e-12)
            if not ok.all():  # pragma: no cover - an internal invariant (Raghavan et al. sec. 3.5)
                raise AssertionError("eq. 3.5 and PRECALL disagree; please report this")
            P[:, col] = p35
        else:
            g = generality
            with np.errstate(divide="ignore", invalid="ignore"):
                padj = r_level * g / (r_level * g + f * (1000.0 - g))
            P[:, col] = np.where(c == 0, p0, np.nan_to_num(padj))
    return F, P, rest


def fallout(
    qrels: Any,
    runs: Any = None,
    *,
    collection_size: Any = None,
    levels: Any = None,
    average: str = "macro",
    statistic: str = "mean",
    cutoffs: Any = None,
    weak: bool = False,
    generality: float | None = None,
    rel: int = 1,
    per_query: bool = False,
    names: list[str] | None = None,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = True,
) -> Any:
    """Averaged recall-fallout curves as a tidy DataFrame: ``run, level`` (recall), ``value``
    (fallout), ``queries, extrapolated, precision`` (and ``cutoff`` at document cut-offs).

    ``collection_size`` (``N``: one integer, ``{qid: N}`` or a file of ``qid N`` lines, as for
    :func:`cranfield.judge`) is required unless the judged rankings carry it.  ``levels``,
    ``average``, ``statistic``, ``cutoffs`` as for :func:`~cranfield.curves.precision_recall`
    (micro-averaging pools counts at document cut-offs); ``weak``: tied scores form one level
    (Raghavan, Jung & Bollmann 1989); ``generality``: adjust the precision column to this generality
    number (relevant per thousand, Keen Fig. 28 c).
    """
    check_average(average, statistic)
    rel = A.integer(rel, "rel")
    weak, per_query = A.flag(weak, "weak"), A.flag(per_query, "per_query")
    if generality is not None:
        generality = A.number(generality, "generality")
    cut = parse_cutoffs(cutoffs)
    by_cutoff = cut is not None or average == "micro"
    if by_cutoff and weak:
        raise ParameterError("weak orderings apply to averaging at recall levels only")
    read = levels is not None or (by_cutoff and cut is None) or not by_cutoff
    lev = parse_levels(levels) if read else None
    if generality is not None and not 0 < float(generality) < 1000:
        raise ParameterError(f"generality must be in (0, 1000) per thousand, got {generality}")
    if weak:  # levels are tie groups: a depth cut must not pick members of one
        ties = "weak"
    options = JudgeOptions(
        ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete
    )
    jrs, _ = judged_runs(qrels, runs, names=names, options=options, collection_size=collection_size)
    tables, pqs = [], []
    for jr in jrs:
        N = collection_sizes(jr, rel)
        if N is None:
            raise ParameterError(
                "recall-fallout curves need the collection size N: give collection_size= "
                "(--collection-size)"
            )
        steps = Steps.of(jr, rel)
        keep = steps.R > 0
        if not keep.all():
            warn(
                f"run {jr.run_name!r}: {int((~keep).sum())} queries without relevant documents "
                "have no recall-fallout curve and are left out",
                DataWarning,
            )
        if by_cutoff:
            t, p = _by_cutoffs(
                jr, steps, N, keep, cut or "all", lev, average, statistic, generality, per_query
            )
        else:
            assert lev is not None
            t, p = _by_levels(jr, steps, N, keep, lev, statistic, weak, rel, generality, per_query)
        tables.append(t)
        pqs.append(p)
    from cranfield.curves.table import curve_frames

    return curve_frames(tables, pqs, jrs, keep=per_query, curve="fallout")


def _by_levels(jr, steps, N, keep, lev, statistic, weak, rel, generality, per_query):
    wl = WeakLevels.of(jr, rel=rel, weak=weak)
    F, P, rest = fallout_at_levels(steps, lev, N, wl, generality)
    entered = np.repeat(keep[:, None], len(lev), axis=1)
    value, queries = column_statistic(F, entered, statistic)
    precision, _ = column_statistic(P, entered, statistic)
    levels = np.array([float(x) for x in lev])
    table = {
        "run": [jr.run_name] * len(levels),
        "level": levels,
        "value": value,
        "queries": queries,
        "extrapolated": (rest & entered).sum(axis=0).astype(np.int64),
        "precision": precision,
    }
    if not per_query:
        return table, {}
    F, P, rest = F[keep], P[keep], rest[keep]
    Q, L = F.shape
    pq = {
        "run": [jr.run_name] * (Q * L),
        "query_id": np.repeat(np.array(jr.query_ids, dtype=object)[keep], L),
        "level": np.tile(levels, Q),
        "value": F.ravel(),
        "precision": P.ravel(),
        "extrapolated": rest.ravel(),
    }
    return table, pq


def _by_cutoffs(jr, steps, N, keep, cut, lev, average, statistic, generality, per_query):
    if cut == "all":
        ks = np.arange(1, max(int(steps.n.max(initial=0)), 1) + 1, dtype=np.int64)
    else:
        ks = np.asarray(cut, dtype=np.int64)
    relk = relevant_at(steps, ks)[keep]
    R = steps.R[keep].astype(np.float64)[:, None]
    nonrel_total = (N[keep] - steps.R[keep]).astype(np.float64)[:, None]
    k = ks[None, :].astype(np.float64)
    nonrel = np.minimum(k - relk, nonrel_total)
    recall = relk / R
    with np.errstate(divide="ignore", invalid="ignore"):
        fall = np.where(nonrel_total > 0, nonrel / nonrel_total, 0.0)
    prec = relk / k
    Q = int(keep.sum())
    if average == "micro":
        x = relk.sum(0) / R.sum() if Q else np.zeros(len(ks))
        y = nonrel.sum(0) / nonrel_total.sum() if Q and nonrel_total.sum() else np.zeros(len(ks))
        pr = relk.sum(0) / (Q * ks) if Q else np.zeros(len(ks))
        gen = R.sum() / N[keep].sum() if Q else 0.0
    else:
        ones = np.ones(recall.shape, dtype=bool)
        x = column_statistic(recall, ones, statistic)[0]
        y = column_statistic(fall, ones, statistic)[0]
        pr = column_statistic(prec, ones, statistic)[0]
        gen = float(np.mean(R[:, 0] / N[keep])) if Q else 0.0
    if generality is not None:
        gen = generality / 1000.0
    if Q == 0:  # no query has a recall-fallout curve
        x = y = pr = np.full(len(ks), np.nan)
    name = jr.run_name
    if lev is not None:
        xs = np.concatenate(([0.0], x, [1.0]))
        ys = np.concatenate(([0.0], y, [1.0]))
        f_at, _ = read_at_levels(xs, ys, lev)
        if Q == 0:
            f_at = np.full(len(lev), np.nan)
        levels = np.array([float(v) for v in lev])
        with np.errstate(divide="ignore", invalid="ignore"):
            p = gen * levels / (gen * levels + (1 - gen) * f_at)
        table = {
            "run": [name] * len(levels),
            "level": levels,
            "value": f_at,
            "queries": np.full(len(levels), Q, dtype=np.int64),
            "extrapolated": np.where(beyond(levels, x[-1]), Q, 0).astype(np.int64),
            "precision": np.nan_to_num(p),
        }
    else:
        table = {
            "run": [name] * len(ks),
            "level": x,
            "value": y,
            "queries": np.full(len(ks), Q, dtype=np.int64),
            "extrapolated": np.zeros(len(ks), dtype=np.int64),
            "precision": pr,
            "cutoff": ks,
        }
    if not per_query:
        return table, {}
    K = len(ks)
    ids = np.array(jr.query_ids, dtype=object)[keep]
    pq = {
        "run": [name] * (Q * K),
        "query_id": np.repeat(ids, K),
        "cutoff": np.tile(ks, Q),
        "level": recall.ravel(),
        "value": fall.ravel(),
        "precision": prec.ravel(),
    }
    return table, pq
