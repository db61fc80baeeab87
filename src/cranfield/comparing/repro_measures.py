"""The measures of reproducibility of Breuer et al. (SIGIR 2020), as ``repro_eval`` 0.5.0
computes them: Kendall's tau Union and the truncated RBO of two rankings, RMSE and nRMSE of
per-topic scores, the effect ratio and delta relative improvement of an experiment, and the
t-test's p-value (:mod:`cranfield.comparing.repro` gives their conventions and applies them).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from cranfield.comparing.rbo import Rankings, persistence

__all__ = [
    "KTU_DEPTH",
    "delta_ri",
    "effect_ratio",
    "kendall_tau_union",
    "nrmse",
    "rmse",
    "t_test_p",
    "truncated_rbo",
]


KTU_DEPTH = 1000
"""KTU compares the first 1000 documents of each ranking (``repro_eval``'s ``RUN_LENGTH``)."""


def kendall_tau_union(orig: list[str], rep: list[str]) -> float:
    """KTU of two rankings of one topic (the paper's level "order of documents"; ``repro_eval``'s
    ``_KTU``): each ranking written as the positions of its documents in the sorted union of
    both, then Kendall's tau-b between the two (scipy), rounded to 14 digits.  NaN when the
    rankings differ in length (``repro_eval`` fails there) or tau is undefined."""
    if len(orig) != len(rep):
        return math.nan
    from scipy.stats import kendalltau

    union = {d: i for i, d in enumerate(sorted(set(orig) | set(rep)))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tau = kendalltau([union[d] for d in orig], [union[d] for d in rep]).statistic
    return float(round(float(tau), 14))


def truncated_rbo(orig: Rankings, rep: Rankings, p: float, depth: int) -> np.ndarray:
    """Per topic, RBO truncated at ``depth`` and normalised by the weights it sums (the
    paper's level "order of documents"; ``repro_eval``'s ``_rbo`` after Clarke et al.)::

        sum_{d=1}^{depth} p^(d-1) X_d / d  /  sum_{d=1}^{depth} p^(d-1)

    ``X_d`` the documents in both prefixes of length d.  The weights are multiplied out and
    the terms summed in rank order, as ``repro_eval`` does, so the values agree to the bit."""
    p = persistence(p)
    nq = len(orig.offsets) - 1
    weights = np.cumprod(np.concatenate([[1.0], np.full(depth - 1, p)]))
    norm = float(np.cumsum(weights)[-1])
    d = np.arange(1, depth + 1, dtype=np.float64)
    out = np.zeros(nq)
    for q in range(nq):
        a = orig.codes[orig.offsets[q] : orig.offsets[q + 1]]
        b = rep.codes[rep.offsets[q] : rep.offsets[q + 1]]
        _, ia, ib = np.intersect1d(a, b, assume_unique=False, return_indices=True)
        joined = np.maximum(ia, ib)  # 0-based depth from which the document is in both
        hits = np.bincount(joined[joined < depth], minlength=depth).astype(np.float64)
        x = np.cumsum(hits)
        out[q] = float(np.cumsum(weights * x / d)[-1]) / norm
    return out


def rmse(orig: np.ndarray, rep: np.ndarray) -> float:
    """Root mean square error of per-topic scores (the paper's level "effectiveness")."""
    diff = np.asarray(orig, dtype=np.float64) - np.asarray(rep, dtype=np.float64)
    return math.sqrt(sum(np.square(diff)) / len(diff))


def nrmse(orig: np.ndarray, rep: np.ndarray) -> float:
    """RMSE divided by the largest RMSE the original scores allow for a measure in [0, 1],
    ``sqrt(sum_j max(M_j, 1 - M_j)^2 / n)`` (``repro_eval``'s ``nRMSE``)."""
    o = np.asarray(orig, dtype=np.float64)
    most = math.sqrt(sum(np.square(np.maximum(o, 1.0 - o))) / len(o))
    return rmse(o, rep) / most if most else math.nan


def effect_ratio(ob: np.ndarray, oa: np.ndarray, rb: np.ndarray, ra: np.ndarray) -> float:
    """ER: the reproduced mean per-topic improvement over the original's (the paper's
    level "overall effects"): ``mean(ra - rb) / mean(oa - ob)``; NaN when the original shows
    none."""
    orig = float((np.asarray(oa) - np.asarray(ob)).mean())
    rep = float((np.asarray(ra) - np.asarray(rb)).mean())
    return rep / orig if orig else math.nan


def delta_ri(ob: np.ndarray, oa: np.ndarray, rb: np.ndarray, ra: np.ndarray) -> float:
    """DeltaRI = RI - RI', ``RI = (mean A - mean B) / mean B`` (the paper's level "overall
    effects"); NaN when a baseline's mean is 0."""

    def ri(b: np.ndarray, a: np.ndarray) -> float:
        mb = float(np.asarray(b).mean())
        return (float(np.asarray(a).mean()) - mb) / mb if mb else math.nan

    return ri(ob, oa) - ri(rb, ra)


def t_test_p(orig: np.ndarray, rep: np.ndarray, paired: bool, welch: bool) -> float:
    from scipy.stats import ttest_ind, ttest_rel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if paired:
            return float(ttest_rel(orig, rep).pvalue)
        return float(ttest_ind(orig, rep, equal_var=not welch).pvalue)
