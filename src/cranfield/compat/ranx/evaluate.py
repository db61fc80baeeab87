"""ranx's ``evaluate``: each metric computed by the registry's measure of the same definition,
the documents in ranx's order (``docs/coming-from.md``, "ranx")."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cranfield.compat.ranx.data import (
    Qrels,
    Run,
    checked_dict,
    plain_run,
    qrels_index,
    read_qrels_dict,
)
from cranfield.compat.ranx.metrics import cranfield_measure, parse_metric
from cranfield.compat.ranx.ordering import ranx_orders
from cranfield.errors import DataWarning, InputError, ParameterError, UndefinedMeasureWarning


def _is_arrays(obj: Any) -> bool:
    """ranx's low-level form: per query an array of ``[doc_id, value]`` rows (a 3-D numpy
    array or a list, numba's typed list included, of 2-D arrays), queries by position."""
    if isinstance(obj, np.ndarray):
        return True
    if isinstance(obj, (Mapping, str, bytes, Qrels, Run)):
        return False
    try:
        return all(isinstance(a, np.ndarray) for a in obj)
    except TypeError:
        return False


def _array_rows(obj: Any, source: str) -> list[list[tuple[str, float]]]:
    """Each query's ``(doc id, value)`` rows in the given order; ids written as ranx holds
    them (float64)."""
    out = []
    for i, a in enumerate(obj):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2 or (a.size and a.shape[1] != 2):
            raise InputError(
                source,
                f"query {i}: expected rows of [doc_id, value], got an array of shape {a.shape}",
            )
        if not np.isfinite(a).all():
            raise InputError(source, f"query {i}: a value is not a finite number")
        out.append([(repr(float(d)), float(v)) for d, v in a.tolist()])
    return out


def _ranked(run: Any) -> tuple[list[str], dict[str, Any]]:
    """The run's query ids in ranx's order and each query's document ids in ranx's ranking (an
    array form is already ranked: ranx reads it as given; a Run's dicts are in that order)."""
    if _is_arrays(run):
        rows = _array_rows(run, "<run arrays>")
        ranked = {str(i): [d for d, _ in r] for i, r in enumerate(rows)}
        return list(ranked), ranked
    if isinstance(run, Run):
        if not run.sorted:
            run.sort()
        return list(run.run), dict(run.run)
    if not plain_run(run):  # the one clear error of what is wrong, or the dict of floats
        run = checked_dict(run, "run", "<run dict>")
    orders = ranx_orders([list(docs.values()) for docs in run.values()], from_dict=True)
    out = {}
    for (q, docs), order in zip(run.items(), orders, strict=True):
        ids = list(docs)
        out[q] = [ids[i] for i in order]
    return list(out), out


def _rbp(judged: dict[str, int], ranking: list[str], p: float, lvl: int) -> float:
    """ranx's RBP: (1 - p) sum_i grade(d_i) p^(i-1), grades below the level gain nothing."""
    if not any(g >= lvl for g in judged.values()):
        return 0.0
    total = 0.0
    for i, doc in enumerate(ranking):
        g = judged.get(doc, 0)
        if g >= lvl:
            total += g * p**i
    return (1 - p) * total


def _bpref_qrels(qrels: dict[str, dict[str, int]], lvl: int) -> dict[str, dict[str, int]]:
    """ranx counts every judged grade below the level as judged non-relevant, negative ones
    too (cranfield, as trec_eval, reads a negative grade as not judged): raised to 0."""
    if lvl < 1:
        return qrels
    return {q: {d: max(g, 0) for d, g in docs.items()} for q, docs in qrels.items()}


def _bpref_nan(judged: dict[str, int], ranking: list[str], lvl: int) -> bool:
    """ranx's bpref divides by min(R, N): 0/0, NaN, for a query with relevant documents
    retrieved and no judged non-relevant one."""
    if any(g < lvl for g in judged.values()):
        return False
    return any(judged.get(d, lvl - 1) >= lvl for d in ranking)


_PARSED: dict[str, Any] = {}


def _parsed(label: str) -> Any:
    """The registry's Measure of ``label``, parsed once per process."""
    from cranfield.measures import parse

    m = _PARSED.get(label)
    if m is None:
        m = _PARSED[label] = parse(label)
    return m


def _cranfield_values(
    qrels: dict[str, dict[str, int]],
    qids: list[str],
    ranking: dict[str, Any],
    labels: list[str],
    index: Any = None,
) -> dict[str, np.ndarray]:
    """cranfield's values of ``labels`` over ``qids``, the documents in ranx's order; a query
    without judgments scores 0 (ranx's value of every measure there).  ``index``: the
    compiled core's index of ``qrels``, made already."""
    import cranfield
    from cranfield.results.core_dicts import evaluate_dicts
    from cranfield.results.tables import Results

    judged = {q: d for q, d in qrels.items() if d}
    if not judged:
        return {label: np.zeros(len(qids)) for label in labels}
    given = {q: r for q, r in ranking.items() if r and q in judged}
    if not given:  # every ranking empty: ranx's value of every measure is 0
        return {label: np.zeros(len(qids)) for label in labels}
    # each query's documents in ranx's order, as dicts (a Run's own), ranked as given (a
    # document listed twice keeps its first place)
    ordered = {q: r if type(r) is dict else dict.fromkeys(r, 0.0) for q, r in given.items()}
    if len(judged) != len(qrels):
        index = None  # the index holds the queries without judgments too
    with warnings.catch_warnings():  # ranx scores undefined cases 0 without a word
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", DataWarning)  # empty rankings: ranx's make_comparable
        measures = [_parsed(label) for label in labels]
        res: Any = None
        if index is not None:  # the core's path with the qrels' index made once
            res = evaluate_dicts(
                judged,
                ordered,
                measures,
                depth=None,
                judged_only=False,
                complete=True,
                rel=None,
                aggregate=None,
                ties="given",
                index=index,
            )
        if res is None:
            res = cranfield.evaluate(judged, ordered, measures, ties="given", complete=True)
    assert isinstance(res, Results)  # one run
    row = {q: i for i, q in enumerate(res.query_ids)}
    out = {}
    for j, label in enumerate(labels):
        col = res.values[:, j]
        out[label] = np.array([col[row[q]] if q in row else 0.0 for q in qids])
    return out


def _per_query(
    qrels: dict[str, dict[str, int]],
    qids: list[str],
    ranking: dict[str, Any],
    metrics: list[str],
    index: Any = None,
) -> dict[str, np.ndarray]:
    """Each metric's values over ``qids`` (ranx's query order); ``index``: the compiled
    core's index of ``qrels``, made already."""
    grades = {g for docs in qrels.values() for g in docs.values()} | {0}
    longest = max((len(r) for r in ranking.values()), default=0)
    parsed = {m: parse_metric(m) for m in metrics}
    labels = {
        m: cranfield_measure(n, int(k), lvl, grades, longest)
        for m, (n, k, lvl) in parsed.items()
        if n not in ("rbp", "bpref")
    }
    asked = sorted(set(labels.values()))
    cf = _cranfield_values(qrels, qids, ranking, asked, index) if labels else {}
    values: dict[str, np.ndarray] = {}
    for m, (n, k, lvl) in parsed.items():
        if n == "rbp":
            values[m] = np.array([_rbp(qrels.get(q, {}), ranking[q], k, lvl) for q in qids])
        elif n == "bpref":
            label = f"Bpref(rel={lvl})"
            v = _cranfield_values(_bpref_qrels(qrels, lvl), qids, ranking, [label])[label]
            nan = [_bpref_nan(qrels.get(q, {}), ranking[q], lvl) for q in qids]
            values[m] = np.where(nan, np.nan, v)
        else:
            v = cf[labels[m]]
            values[m] = np.rint(v * k) if n == "hits" and k else v
    return values


def _qrels_dict(qrels: Any) -> tuple[dict[str, dict[str, int]], Any]:
    """The qrels as a checked dict, and the compiled core's index of it (``None`` when it
    is not plain)."""
    if isinstance(qrels, Qrels):
        kept = qrels._read
        if kept is not None and kept[0] == qrels.qrels:  # unchanged: read once, not per call
            return kept[1]  # type: ignore[no-any-return]
        out = read_qrels_dict(qrels.to_dict(), "<ranx Qrels>")
        snapshot = {q: dict(docs) for q, docs in qrels.qrels.items()}  # == is exact (grades)
        qrels._read = (snapshot, (out, qrels_index(out)))
        return qrels._read[1]  # type: ignore[no-any-return]
    if _is_arrays(qrels):  # a document listed twice counts once, as in ranx's hit lists
        rows = _array_rows(qrels, "<qrels arrays>")
        d = {str(i): {doc: g for doc, g in reversed(r)} for i, r in enumerate(rows)}
        return _checked_qrels(d, "<qrels arrays>")
    return _checked_qrels(qrels, "<qrels dict>")


def _checked_qrels(obj: Any, source: str) -> tuple[dict[str, dict[str, int]], Any]:
    """The qrels dict checked, with the core's index: as it is when plain
    (:func:`~cranfield.compat.ranx.data.plain_qrels`), else read by cranfield's dict rules
    (one clear error naming the key)."""
    index = qrels_index(obj)
    if index is not None:
        return obj, index
    if not isinstance(obj, Mapping):
        checked_dict(obj, "qrels", source)  # the one clear error
    return read_qrels_dict(obj, source), None


def evaluate(
    qrels: Any,
    run: Any,
    metrics: str | Sequence[str],
    return_mean: bool = True,
    return_std: bool = False,
    threads: int = 0,
    save_results_in_run: bool = True,
    make_comparable: bool = False,
) -> Any:
    """ranx's ``evaluate``: the mean of one metric (a float), ``{metric: mean}`` for several,
    the per-query values (numpy arrays, in the run's query order) with ``return_mean=False``,
    ``{"mean": ..., "std": ...}`` with ``return_std=True``.  A ``Run`` keeps its per-query
    ``scores`` and ``mean_scores`` (``save_results_in_run``).  ``threads`` is accepted and
    unused (no compilation, no thread pool)."""
    if not return_mean:
        return_std = False
    if make_comparable and isinstance(qrels, Qrels) and isinstance(run, Run):
        run = run.make_comparable(qrels)
    metric_list = [metrics] if isinstance(metrics, str) else list(metrics)
    if not metric_list:
        raise ParameterError("no metric given")
    q, index = _qrels_dict(qrels)
    qids, ranking = _ranked(run)
    if set(q) != set(qids):
        raise ParameterError(
            "Qrels and Run query ids do not match. Pass `make_comparable=True` to add "
            "empty results for queries missing from the run and remove those not "
            "appearing in qrels."
        )
    scores = _per_query(q, qids, ranking, metric_list, index)
    if isinstance(run, Run) and save_results_in_run:
        for m, v in scores.items():
            run.mean_scores[m] = float(np.mean(v)) if len(v) else float("nan")
            if return_std:
                run.std_scores[m] = float(np.std(v))
            run.scores[m] = dict(zip(qids, v.tolist(), strict=True))
    out: dict[str, Any] = dict(scores)
    if return_mean:
        for m, v in scores.items():
            mean = np.mean(v) if len(v) else np.float64("nan")
            out[m] = {"mean": mean, "std": np.std(v)} if return_std else mean
    return out[metric_list[-1]] if len(metric_list) == 1 else out
