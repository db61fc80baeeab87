"""From user inputs to judged rankings: qrels + runs, or JudgedRankings directly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import arguments as A
from ..errors import DataWarning, ParameterError
from ..judged_rankings import UNJUDGED, JudgedRankings

__all__ = ["collection_sizes", "ideal", "judged_runs", "resolve_reference"]


def _is_judged(x: Any) -> bool:
    return isinstance(x, JudgedRankings)


def judged_runs(
    qrels: Any,
    runs: Any,
    *,
    names: Sequence[str] | None = None,
    collection_size: Any = None,
    **judge_options: Any,
) -> list[JudgedRankings]:
    """``qrels`` + one run or a list of runs (paths, DataFrames, dicts, Run), or a
    JudgedRankings / list of them as ``qrels`` with ``runs=None``.

    ``collection_size`` (one integer, ``{qid: N}`` or a file of ``qid N`` lines) is passed to
    :func:`cranfield.judge`, or set on given JudgedRankings."""
    opts = A.judge_options(**judge_options)
    if runs is None:
        items = qrels if isinstance(qrels, list | tuple) else [qrels]
        if not items or not all(_is_judged(j) for j in items):
            raise ParameterError("give qrels and runs, or JudgedRankings (from cranfield.judge)")
        out = list(items)
        if names is not None:
            given = A.run_names(names, len(out))
            out = [_with(jr, run_name=n) for jr, n in zip(out, given, strict=True)]
        if collection_size is not None:
            out = [_with(jr, collection_size=_sizes(jr, collection_size)) for jr in out]
    else:
        from ..data import Run
        from ..io import read_qrels, read_run
        from ..judging import judge

        A.qrels_given(qrels)
        sources, _ = A.run_list(runs)
        names = A.run_names(names, len(sources))
        A.per_query(collection_size, "collection size")
        q = read_qrels(qrels)
        out = []
        for i, src in enumerate(sources):
            default = names[i] if names is not None else None
            in_memory = not isinstance(src, str | Run) and not hasattr(src, "__fspath__")
            if default is None and in_memory:
                default = f"run{i + 1}" if len(sources) > 1 else "run"
            run = read_run(src, name=default)
            jr = judge(q, run, collection_size=collection_size, **opts)
            if jr.cut:
                n = int(np.count_nonzero(jr.num_rows > jr.num_ret))
                split = "1 query" if n == 1 else f"{n} queries"
                raise ParameterError(
                    f"{jr.run_name}: the depth cut ({jr.depth}) falls inside a tie group in "
                    f"{split}, and a curve reads whole levels (weak orderings) or "
                    "single positions: with tied scores as levels (weak), which documents of "
                    "a split level are retrieved is undefined; use no depth, a depth that "
                    "does not split a tie group, or the trec tie policy without weak levels"
                )
            out.append(jr if names is None else _with(jr, run_name=names[i]))
    seen: dict[str, int] = {}
    renamed = []
    for jr in out:
        name = jr.run_name
        if name in seen:
            seen[name] += 1
            name = f"{name}#{seen[name]}"
        else:
            seen[name] = 1
        renamed.append(jr if name == jr.run_name else _with(jr, run_name=name))
    return renamed


def _sizes(jr: JudgedRankings, collection_size: Any) -> np.ndarray:
    from ..measure_inputs import per_query_counts

    if isinstance(collection_size, Sequence | np.ndarray) and not isinstance(collection_size, str):
        if np.ndim(collection_size) != 1 or len(collection_size) != jr.num_queries:
            raise ParameterError(
                f"collection size: {len(collection_size)} values for {jr.num_queries} queries"
            )
        values = [A.integer(n, "collection size", minimum=1) for n in collection_size]
        return np.asarray(values, dtype=np.int64)
    return per_query_counts(collection_size, jr.query_ids, "collection size", minimum=1)


def _with(jr: JudgedRankings, **changes: Any) -> JudgedRankings:
    import dataclasses

    return dataclasses.replace(jr, **changes)


def collection_sizes(jr: JudgedRankings, rel: int) -> np.ndarray | None:
    """Per-query collection size ``N`` of the judged rankings (``None`` if not given).

    ``N`` must leave room for every ranked document and every relevant one not ranked."""
    if jr.collection_size is None:
        return None
    N = np.asarray(jr.collection_size, dtype=np.int64)
    need = jr.num_ret + jr.num_rel(rel) - jr.count(jr.relevant(rel))
    bad = np.flatnonzero(need > N)
    if len(bad):
        i = int(bad[0])
        raise ParameterError(
            f"collection size {int(N[i])} for query {jr.query_ids[i]!r} is smaller than the "
            f"{int(need[i])} documents ranked or relevant"
        )
    return N


def ideal(jr: JudgedRankings, name: str = "best") -> JudgedRankings:
    """The perfect ranking of each query: all its judged documents, best grade first."""
    g = np.where(jr.qrels_grades >= 0, jr.qrels_grades, UNJUDGED).astype(np.int64)
    n = len(g)
    return JudgedRankings(
        query_ids=jr.query_ids,
        offsets=jr.qrels_offsets.copy(),
        grades=g,
        scores=-np.arange(n, dtype=np.float64),
        tie_ids=np.arange(n, dtype=np.int64),
        qrels_offsets=jr.qrels_offsets,
        qrels_grades=jr.qrels_grades,
        in_run=np.ones(jr.num_queries, dtype=bool),
        run_name=name,
        collection_size=jr.collection_size,
    )


def resolve_reference(reference: Any, qrels: Any, judge_options: dict[str, Any]) -> JudgedRankings:
    """The reference (full search) run, judged like the others."""
    if _is_judged(reference):
        return reference
    if qrels is None or _is_judged(qrels) or isinstance(qrels, list | tuple):
        raise ParameterError("a reference run given as a file needs qrels (not JudgedRankings)")
    return judged_runs(qrels, reference, names=["reference"], **judge_options)[0]


def align(values: np.ndarray, from_ids: Sequence[str], to_ids: Sequence[str], what: str):
    """Per-query ``values`` re-indexed from one query list to another (missing -> 0, warned)."""
    import warnings

    index = {q: i for i, q in enumerate(from_ids)}
    out = np.zeros(len(to_ids))
    missing = 0
    for k, q in enumerate(to_ids):
        i = index.get(q)
        if i is None:
            missing += 1
        else:
            out[k] = values[i]
    if missing:
        warnings.warn(
            f"{missing} queries are not in the {what}; their {what} value is taken as 0",
            DataWarning,
            stacklevel=3,
        )
    return out
