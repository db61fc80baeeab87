"""ranx's ``evaluate``: each metric computed by the registry's measure of the same definition,
the documents in ranx's order (``docs/coming-from.md``, "ranx")."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cranfield.compat.ranx.data import READ_QRELS, Qrels, Run, checked_dict, read_qrels_dict
from cranfield.compat.ranx.metrics import cranfield_measure, parse_metric
from cranfield.compat.ranx.ordering import ranx_order
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


def _ranked(run: Any) -> tuple[list[str], dict[str, list[tuple[str, float]]]]:
    """The run's query ids in ranx's order and each query's documents in ranx's ranking (an
    array form is already ranked: ranx reads it as given)."""
    if _is_arrays(run):
        rows = _array_rows(run, "<run arrays>")
        return [str(i) for i in range(len(rows))], {str(i): r for i, r in enumerate(rows)}
    if isinstance(run, Run):
        if not run.sorted:
            run.sort()
        return list(run.run), {q: list(d.items()) for q, d in run.run.items()}
    try:  # the values are checked by cranfield's reader of the ordered run
        out = {}
        for q, docs in run.items():
            items = [(str(d), s) for d, s in docs.items()]
            out[str(q)] = [items[i] for i in ranx_order([s for _, s in items], from_dict=True)]
    except (AttributeError, TypeError, ValueError):
        checked_dict(run, "run", "<run dict>")  # the clear error of what is wrong
        raise
    return list(out), out


def _rbp(judged: dict[str, int], ranking: list[tuple[str, float]], p: float, lvl: int) -> float:
    """ranx's RBP: (1 - p) sum_i grade(d_i) p^(i-1), grades below the level gain nothing."""
    if not any(g >= lvl for g in judged.values()):
        return 0.0
    total = 0.0
    for i, (doc, _) in enumerate(ranking):
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


def _bpref_nan(judged: dict[str, int], ranking: list[tuple[str, float]], lvl: int) -> bool:
    """ranx's bpref divides by min(R, N): 0/0, NaN, for a query with relevant documents
    retrieved and no judged non-relevant one."""
    if any(g < lvl for g in judged.values()):
        return False
    return any(judged.get(d, lvl - 1) >= lvl for d, _ in ranking)


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
    ranking: dict[str, list[tuple[str, float]]],
    labels: list[str],
) -> dict[str, np.ndarray]:
    """cranfield's values of ``labels`` over ``qids``, the documents in ranx's order (judged
    with the ``given`` tie policy); a query without judgments scores 0 (ranx's value of every
    measure there)."""
    import cranfield
    from cranfield.io.mapping import qrels_from_mapping
    from cranfield.results.tables import Results

    judged = {q: d for q, d in qrels.items() if d}
    if not judged:
        return {label: np.zeros(len(qids)) for label in labels}
    given = {q: dict(r) for q, r in ranking.items() if r and q in judged}
    if not given:  # every ranking empty: ranx's value of every measure is 0
        return {label: np.zeros(len(qids)) for label in labels}
    kept = READ_QRELS.get(id(qrels))
    reuse = kept is not None and kept[0] is qrels
    cf_qrels = kept[1] if kept is not None and reuse else qrels_from_mapping(judged, "<qrels>")
    with warnings.catch_warnings():  # ranx scores undefined cases 0 without a word
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", DataWarning)  # empty rankings: ranx's make_comparable
        # the public path on dicts: the documents in the given (ranx's) order
        res = cranfield.evaluate(
            cf_qrels, given, [_parsed(label) for label in labels], ties="given", complete=True
        )
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
    ranking: dict[str, list[tuple[str, float]]],
    metrics: list[str],
) -> dict[str, np.ndarray]:
    """Each metric's values over ``qids`` (ranx's query order)."""
    grades = {g for docs in qrels.values() for g in docs.values()} | {0}
    longest = max((len(r) for r in ranking.values()), default=0)
    parsed = {m: parse_metric(m) for m in metrics}
    labels = {
        m: cranfield_measure(n, int(k), lvl, grades, longest)
        for m, (n, k, lvl) in parsed.items()
        if n not in ("rbp", "bpref")
    }
    cf = _cranfield_values(qrels, qids, ranking, sorted(set(labels.values()))) if labels else {}
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


def _qrels_dict(qrels: Any) -> dict[str, dict[str, int]]:
    if isinstance(qrels, Qrels):
        kept = qrels._read
        if kept is not None and kept[0] == qrels.qrels:  # unchanged: read once, not per call
            out, cf = kept[1]
            READ_QRELS[id(out)] = (out, cf)
            return out
        out, cf = read_qrels_dict(qrels.to_dict(), "<ranx Qrels>")
        snapshot = {q: dict(docs) for q, docs in qrels.qrels.items()}  # == is exact (grades)
        qrels._read = (snapshot, (out, cf))
        READ_QRELS[id(out)] = (out, cf)
        return out
    if _is_arrays(qrels):  # a document listed twice counts once, as in ranx's hit lists
        rows = _array_rows(qrels, "<qrels arrays>")
        d = {str(i): {doc: g for doc, g in reversed(r)} for i, r in enumerate(rows)}
        return _registered(d, "<qrels arrays>")
    return _registered(qrels, "<qrels dict>")


def _registered(obj: Any, source: str) -> dict[str, dict[str, int]]:
    """The checked qrels dict, its cranfield Qrels kept in :data:`READ_QRELS` for this call."""
    if not isinstance(obj, Mapping):
        checked_dict(obj, "qrels", source)  # the one clear error
    out, cf = read_qrels_dict(obj, source)
    READ_QRELS[id(out)] = (out, cf)
    return out


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
    q = _qrels_dict(qrels)
    try:
        qids, ranking = _ranked(run)
        if set(q) != set(qids):
            raise ParameterError(
                "Qrels and Run query ids do not match. Pass `make_comparable=True` to add "
                "empty results for queries missing from the run and remove those not "
                "appearing in qrels."
            )
        scores = _per_query(q, qids, ranking, metric_list)
    finally:
        READ_QRELS.pop(id(q), None)
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
