"""MTEB's retrieval scores from cranfield: ``cranfield.compat.mteb.evaluate(qrels, results)``.

Returns the dictionary MTEB's retrieval evaluation builds (``make_score_dict`` in
``mteb/_evaluators/retrieval_metrics.py``, mteb 2.26.24) under its key names:
``ndcg_at_k``, ``map_at_k``, ``recall_at_k``, ``precision_at_k``, ``hit_rate_at_k`` (means
rounded to 5 decimals, as MTEB), ``mrr_at_k`` (not rounded), ``accuracy`` (``recall_at_1``);
with ``task_metrics`` also the task scores ``R_cap_at_k`` (the mean over the queries with
relevant documents), ``Hole_at_k`` and ``Accuracy_at_k``.  MTEB's ``nauc_*`` (abstention
curves over confidence functions) are not computed.

The values are the registry's measures (``nDCG@k``, ``AP@k``, ``R@k``, ``P@k``,
``Success@k``, ``RR@k``, ``R_cap@k``, ``Accuracy@k``, ``Hole@k``) under trec_eval's tie order,
which MTEB uses since mteb#5092 (score, then document id, descending); the means are over
the queries that have results and judgments (``complete=False``), as pytrec_eval, the
averaging MTEB does.  (``Hole@k``, the share of the top k that no query's qrels list,
reads the whole qrels' judged documents from the join.)
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from cranfield.errors import ParameterError, UndefinedMeasureWarning
from cranfield.results.tables import Results

__all__ = ["K_VALUES", "TASK_METRICS", "evaluate", "hole"]

K_VALUES = (1, 3, 5, 10, 20, 100, 1000)
"""MTEB's default cut-offs (``AbsTaskRetrieval.k_values``)."""
TASK_METRICS = ("R_cap", "Hole", "Accuracy")

_MAIN = (
    ("ndcg", "nDCG@{k}"),
    ("map", "AP@{k}"),
    ("recall", "R@{k}"),
    ("precision", "P@{k}"),
    ("mrr", "RR@{k}"),
    ("hit_rate", "Success@{k}"),
)


def hole(
    qrels: Mapping[str, Mapping[str, int]], results: Mapping[str, Mapping[str, float]], k: int
) -> dict[str, float]:
    """Per judged query of ``results``: the share of its top k that is absent from every
    query's qrels (MTEB's ``hole``, the registry's ``Hole@k``; divided by k even when fewer
    are ranked)."""
    from cranfield.evaluation import evaluate as cf_evaluate
    from cranfield.results.tables import Results

    label = f"Hole@{_k_values([k])[0]}"
    res = cf_evaluate(qrels, results, [label], ties="trec", complete=False)
    assert isinstance(res, Results)  # one run
    return dict(zip(res.query_ids, res.column(label).tolist(), strict=True))


def _k_values(k_values: Sequence[int]) -> list[int]:
    ks = list(k_values)
    if not ks or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in ks):
        raise ParameterError(f"k_values must be whole numbers >= 1, got {k_values!r}")
    return ks


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    results: Mapping[str, Mapping[str, float]],
    k_values: Sequence[int] = K_VALUES,
    *,
    task_metrics: Sequence[str] = (),
) -> dict[str, float]:
    """MTEB's retrieval score dictionary for ``results`` ``{qid: {doc: score}}`` against
    ``qrels`` ``{qid: {doc: grade}}`` (grade > 0 relevant)."""
    from cranfield.evaluation import evaluate as cf_evaluate

    ks = _k_values(k_values)
    unknown = [m for m in task_metrics if m not in TASK_METRICS]
    if unknown:
        raise ParameterError(
            f"unknown task metric {unknown[0]!r}; choose from " + ", ".join(TASK_METRICS)
        )
    measures = [f.format(k=k) for _, f in _MAIN for k in ks]
    if "R_cap" in task_metrics:
        measures += [f"R_cap@{k}" for k in ks] + ["NumRel"]
    if "Accuracy" in task_metrics:
        measures += [f"Accuracy@{k}" for k in ks]
    if "Hole" in task_metrics:
        measures += [f"Hole@{k}" for k in ks]
    with warnings.catch_warnings():  # MTEB scores these 0 (or leaves them out) silently
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        res = cf_evaluate(qrels, results, measures, ties="trec", complete=False)
    assert isinstance(res, Results)  # one run in, one Results out
    n = len(res.query_ids)

    def mean(label: str, digits: int | None = 5) -> float:
        v = float(sum(res.column(label).tolist()) / n) if n else float("nan")
        return round(v, digits) if digits is not None else v

    out: dict[str, float] = {}
    for key, f in _MAIN:
        for k in ks:
            out[f"{key}_at_{k}"] = mean(f.format(k=k), None if key == "mrr" else 5)
    if 1 in ks:
        out["accuracy"] = out["recall_at_1"]
    if "R_cap" in task_metrics:
        has_rel = res.column("NumRel") > 0
        for k in ks:
            valid = res.column(f"R_cap@{k}")[has_rel].tolist()
            out[f"R_cap_at_{k}"] = sum(valid) / len(valid) if valid else 0.0
    if "Hole" in task_metrics:
        for k in ks:  # MTEB's np.mean of the per-query shares
            per_query = res.column(f"Hole@{k}")
            out[f"Hole_at_{k}"] = float(np.mean(per_query)) if n else float("nan")
    if "Accuracy" in task_metrics:
        for k in ks:
            out[f"Accuracy_at_{k}"] = mean(f"Accuracy@{k}", None)
    return out
