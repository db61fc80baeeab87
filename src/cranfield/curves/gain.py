"""gain(): cumulated gain curves (Järvelin & Kekäläinen 2002, as presented in B. Chen's lecture
slides "Retrieval Evaluation - Measures", National Taiwan Normal University).

Per query, the gain vector ``G`` holds the grade of the document at each rank (its gain:
the grade, or ``gains[grade]``; unjudged and non-relevant documents gain 0) and the ideal
vector ``IG`` the query's judged gains sorted in decreasing order.  Then, for ``i = 1, 2, ...``:

- ``CG[i] = G[1] + ... + G[i]``;
- ``DCG[i] = sum_{k <= i} G[k] / disc(k)``, ``disc(k) = 1`` for ``k < b`` and ``log_b k``
  otherwise (``b = 2``: the slides' ``DCG[1] = G[1]``, ``DCG[i] = G[i] / log2 i + DCG[i-1]``;
  ``convention="trec"`` uses ``log_b(k + 1)`` instead, trec_eval's ndcg discount);
- ``ICG``, ``IDCG``: the same for ``IG``.

Averaged over queries (mean or median at each rank), and normalized two ways:

- ``--average micro`` (the slides): the ratio of the averaged curves,
  ``NCG[i] = mean CG[i] / mean ICG[i]`` and ``NDCG[i] = mean DCG[i] / mean IDCG[i]``;
- ``--average macro``: the average of the per-query ratios ``CG_j[i] / ICG_j[i]`` (a query
  without relevant documents has ratio 0, with a warning).

:func:`area` gives the area under each curve over ranks ``1..L`` divided by ``L`` (the mean of
the step curve's heights; "the area under the NCG and NDCG curves represent the quality of the
ranking algorithm", Chen's slides).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.curves.average import check_average
from cranfield.curves.inputs import judged_runs
from cranfield.curves.recall_levels import parse_cutoffs
from cranfield.errors import ParameterError, UndefinedMeasureWarning, warn
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings

__all__ = ["GAIN_COLUMNS", "GAIN_CURVES", "area", "gain", "gain_matrices", "gains_from_text"]

GAIN_CURVES = ("cg", "dcg", "icg", "idcg", "ncg", "ndcg")
GAIN_COLUMNS = ("run", "curve", "rank", "value", "queries")


def _gain(grades: np.ndarray, gains: dict[int, float] | None) -> np.ndarray:
    out = np.where(grades > 0, grades, 0).astype(np.float64)
    if gains:
        for g, v in gains.items():
            out[grades == g] = float(v)
        out[grades < 0] = 0.0
    return out


def _check_gains(gains: Any) -> dict[int, float] | None:
    """``None`` or ``{grade: gain}`` with integer grades and finite gains, from a mapping or
    from text in the measure grammar's syntax (``"{1:1,2:5}"``, as ``nDCG(gains=...)``)."""
    if gains is None:
        return None
    if isinstance(gains, str):
        return gains_from_text(gains)
    if not isinstance(gains, Mapping):
        raise ParameterError(f"gains must be a {{grade: gain}} mapping, got {gains!r}")
    from cranfield.measures.dcg import GAINS  # the gains of nDCG: one syntax, one range

    out = {}
    for g, v in gains.items():
        grade = A.integer(g, "a grade of gains", minimum=-(2**63))
        gain = A.number(v, f"the gain of grade {g}")
        if not GAINS.in_bounds(gain):
            raise ParameterError(f"the gain of grade {g} must be {GAINS.wanted()}, got {gain}")
        out[grade] = gain
    return out


def gains_from_text(text: str) -> dict[int, float]:
    """A ``{grade:gain}`` map written as in measure strings (``"{1:1,2:5}"``), parsed by the
    grammar's code; the former ``1=1,2=5`` is an error that shows the new form."""
    from cranfield.measures.dcg import GAINS  # the gains of nDCG: one syntax, one range
    from cranfield.measures.parse import parse_value

    body = text.strip()
    if "{" not in body and "=" in body:  # the curve command's former grade=gain syntax
        pairs = ",".join(
            ":".join(p.strip() for p in part.split("=", 1)) for part in body.split(",")
        )
        raise ParameterError(
            f"gains {text!r}: write the map as measure strings do, '{{{pairs}}}' "
            "(grade:gain pairs in braces, as in nDCG(gains=...)); the grade=gain form is gone"
        )
    if not body.startswith("{"):
        raise ParameterError(
            f"gains {text!r}: write the map in braces, as in '{{1:1,2:5}}' (on the command "
            "line, quote it: unquoted, the shell expands {1:1,2:5} into 1:1 2:5)"
        )
    gains = parse_value(text, GAINS, "the gain curve")
    return {int(g): float(v) for g, v in gains.items()}


def _discounted(G: np.ndarray, convention: str, base: float) -> np.ndarray:
    """Each gain over its rank's discount (:func:`cranfield.measures.kernels.discount.discounted`,
    the
    DCG measures' own function, so that curve and measure agree to the bit)."""
    from cranfield.measures.kernels.discount import discounted

    out = np.zeros_like(G)
    q, i = np.nonzero(G)
    out[q, i] = discounted(G[q, i], i + 1, convention, base)
    return out


def gain_matrices(
    jr: JudgedRankings,
    depth: int,
    *,
    gains: dict[int, float] | None = None,
    convention: str = "jk",
    base: float = 2,
    queries: slice = slice(None),
) -> dict[str, np.ndarray]:
    """Queries x ranks ``1..depth`` matrices ``cg, dcg, icg, idcg`` of one run (of the queries
    in ``queries``, a slice)."""
    lo, hi, _ = queries.indices(jr.num_queries)
    Q = hi - lo
    G = np.zeros((Q, depth))
    rows = slice(jr.offsets[lo], jr.offsets[hi])
    rank = jr.rank[rows]
    keep = rank <= depth
    G[jr.row_query[rows][keep] - lo, rank[keep] - 1] = _gain(jr.grades[rows][keep], gains)
    IG = np.zeros((Q, depth))
    qrows = slice(jr.qrels_offsets[lo], jr.qrels_offsets[hi])
    ig = _gain(jr.qrels_grades[qrows], gains)
    qq = jr.qrels_query[qrows]
    order = np.lexsort((-ig, qq))
    q_sorted = qq[order]
    pos = np.arange(len(order)) + jr.qrels_offsets[lo] - jr.qrels_offsets[q_sorted]
    ok = pos < depth
    IG[q_sorted[ok] - lo, pos[ok]] = ig[order][ok]
    return {
        "cg": np.cumsum(G, axis=1),
        "dcg": np.cumsum(_discounted(G, convention, base), axis=1),
        "icg": np.cumsum(IG, axis=1),
        "idcg": np.cumsum(_discounted(IG, convention, base), axis=1),
    }


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def gain(
    qrels: Any,
    runs: Any = None,
    *,
    cutoffs: Any = None,
    average: str = "micro",
    statistic: str = "mean",
    gains: dict[int, float] | None = None,
    convention: str = "jk",
    base: float = 2,
    per_query: bool = False,
    names: list[str] | None = None,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = True,
) -> Any:
    """Averaged CG, DCG, ideal and normalized curves as a tidy DataFrame
    (``run, curve, rank, value, queries``).

    ``cutoffs``: the ranks to report (default every rank of the longest ranking);
    ``average``: ``micro`` (default, the slides: ratio of the averaged curves) or ``macro``
    (average of per-query ratios); ``statistic``: ``mean`` or ``median``; ``gains``:
    ``{grade: gain}``, or the same map as text in the measure grammar (``"{1:1,2:5}"``);
    ``convention``: the discount, ``jk`` (default, the slides: ranks below
    ``b`` not discounted, then ``1/log_b i``) or ``trec`` (``1/log_b(i+1)``, trec_eval's
    ndcg), as the DCG measures' ``convention=``; ``base``: ``b``.  With ``per_query`` returns
    ``(curves, per_query)``.
    """
    check_average(average, statistic)
    base = A.number(base, "base")
    per_query = A.flag(per_query, "per_query")
    gains = _check_gains(gains)
    if not base > 1:
        raise ParameterError(f"discount base must be > 1, got {base}")
    if convention not in ("jk", "trec"):
        raise ParameterError(f"discount convention must be jk or trec, got {convention!r}")
    cut = parse_cutoffs(cutoffs)
    options = JudgeOptions(
        ties=ties, seed=seed, depth=depth, judged_only=judged_only, complete=complete
    )
    jrs, _ = judged_runs(qrels, runs, names=names, options=options)
    tables, pqs = [], []
    for jr in jrs:
        if cut is None or cut == "all":
            ks = np.arange(1, max(jr.max_rank, 1) + 1, dtype=np.int64)
        else:
            ks = np.asarray(cut, dtype=np.int64)
        t, p = _one(jr, ks, average, statistic, gains, convention, base, per_query)
        tables.append(t)
        pqs.append(p)
    from cranfield.curves.table import curve_frames

    return curve_frames(tables, pqs, jrs, keep=per_query, curve="gain")


def _one(jr, ks, average, statistic, gains, convention, base, per_query):
    Q, K = jr.num_queries, len(ks)
    # beyond the longest ranking and the largest qrels every curve is flat: the matrices stop
    # there, whatever the cut-offs asked (memory by the input, not by a cut-off's value)
    longest = int(np.diff(jr.qrels_offsets).max(initial=0))
    depth = min(int(ks.max()), max(jr.max_rank, longest, 1))
    cols = np.minimum(ks, depth) - 1
    keep_all = per_query or statistic == "median"
    block = max(1, 4_000_000 // depth)
    sums = {c: np.zeros(K) for c in GAIN_CURVES}
    parts: dict[str, list[np.ndarray]] = {c: [np.zeros((0, K))] for c in GAIN_CURVES}
    no_rel = 0
    for lo in range(0, Q, block):
        full = gain_matrices(
            jr, depth, gains=gains, convention=convention, base=base, queries=slice(lo, lo + block)
        )
        m = {c: v[:, cols] for c, v in full.items()}
        no_rel += int((full["icg"][:, -1] == 0).sum())
        m["ncg"] = _ratio(m["cg"], m["icg"])
        m["ndcg"] = _ratio(m["dcg"], m["idcg"])
        for c in GAIN_CURVES:
            sums[c] += m[c].sum(axis=0)
            if keep_all:
                parts[c].append(m[c])
    if Q == 0:
        avg = {c: np.full(K, math.nan) for c in GAIN_CURVES}
    elif statistic == "median":
        avg = {c: np.median(np.concatenate(parts[c]), axis=0) for c in GAIN_CURVES}
    else:
        avg = {c: sums[c] / Q for c in GAIN_CURVES}
    if average == "micro":
        avg["ncg"] = _ratio(avg["cg"], avg["icg"])
        avg["ndcg"] = _ratio(avg["dcg"], avg["idcg"])
        if Q and (avg["icg"] == 0).any():
            warn(
                f"run {jr.run_name!r}: the averaged ideal curve is 0 at some ranks; NCG and "
                "NDCG are taken as 0 there",
                UndefinedMeasureWarning,
            )
    elif no_rel:
        warn(
            f"run {jr.run_name!r}: {no_rel} queries have no relevant document; their NCG and "
            "NDCG are taken as 0",
            UndefinedMeasureWarning,
        )
    table = {
        "run": [jr.run_name] * (len(GAIN_CURVES) * K),
        "curve": np.repeat(np.array(GAIN_CURVES, dtype=object), K),
        "rank": np.tile(ks, len(GAIN_CURVES)),
        "value": np.concatenate([avg[c] for c in GAIN_CURVES]),
        "queries": np.full(len(GAIN_CURVES) * K, Q, dtype=np.int64),
    }
    if not per_query:
        return table, {}
    C = len(GAIN_CURVES)
    values = np.stack([np.concatenate(parts[c]) for c in GAIN_CURVES], axis=1)  # Q x C x K
    pq = {
        "run": [jr.run_name] * (Q * C * K),
        "query_id": np.repeat(np.array(jr.query_ids, dtype=object), C * K),
        "curve": np.tile(np.repeat(np.array(GAIN_CURVES, dtype=object), K), Q),
        "rank": np.tile(ks, Q * C),
        "value": values.ravel(),
    }
    return table, pq


def area(table: Any) -> Any:
    """Area under each averaged curve: the mean of its values over the reported ranks
    (``run, curve, area``).  For every rank ``1..L`` this is the area under the step curve
    divided by ``L``."""
    import pandas as pd

    if table.attrs.get("curve") != "gain":
        raise ParameterError("area() takes the DataFrame returned by gain()")
    g = table.groupby(["run", "curve"], sort=False)["value"].mean().reset_index()
    return pd.DataFrame({"run": g["run"], "curve": g["curve"], "area": g["value"]})
