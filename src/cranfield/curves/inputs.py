"""From user inputs to judged rankings: qrels + runs, or JudgedRankings directly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.base.text import undecoded_as_text
from cranfield.data.run_names import unique
from cranfield.errors import DataWarning, ParameterError, warn
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import UNJUDGED, JudgedRankings

__all__ = ["align", "collection_sizes", "ideal", "judged_runs"]


def _is_judged(x: Any) -> bool:
    return isinstance(x, JudgedRankings)


def judged_runs(
    qrels: Any,
    runs: Any,
    *,
    names: Sequence[str] | None = None,
    options: JudgeOptions,
    collection_size: Any = None,
    reference: Any = None,
) -> tuple[list[JudgedRankings], JudgedRankings | None]:
    """The judged runs of a curve and its reference run (``None`` if not given).

    ``qrels`` + one run, a list or a dict of runs, judged with ``options`` and
    ``collection_size`` (:func:`cranfield.judging.runs.judge_many`); or a JudgedRankings /
    list of them as ``qrels`` with ``runs=None``: then ``names`` renames them and
    ``collection_size`` (one integer, ``{qid: N}``, a file of ``qid N`` lines, or one value
    per query in their order) is set on them.  Names are text in the curve tables: bytes of a
    file name that are not UTF-8 become ``\\xNN``."""
    if runs is None:
        items = qrels if isinstance(qrels, list | tuple) else [qrels]
        if not items or not all(_is_judged(j) for j in items):
            raise ParameterError("give qrels and runs, or JudgedRankings (from cranfield.judge)")
        out = list(items)
        given = A.run_names(names, len(out))
        run_names = unique(given if given is not None else [jr.run_name for jr in out])
        if collection_size is not None:
            out = [_with(jr, collection_size=_sizes(jr, collection_size)) for jr in out]
        ref = None
        if reference is not None:
            if not _is_judged(reference):
                raise ParameterError(
                    "a reference run given as a file needs qrels (not JudgedRankings)"
                )
            ref = reference
    else:
        from cranfield.judging.runs import judge_many

        options = options.replace(collection_size=collection_size)
        judged = judge_many(qrels, runs, names=names, options=options)
        run_names, out = [], []
        for name, jr in judged:
            _check_cut(jr)
            run_names.append(name)
            out.append(jr)
        ref = None
        if reference is not None:
            ref = reference
            if not _is_judged(reference):
                only = judge_many(judged.qrels, reference, names=["reference"], options=options)
                ref = _check_cut(next(iter(only))[1])
    shown = [_text(n) for n in run_names]
    out = [
        jr if n == jr.run_name else _with(jr, run_name=n) for jr, n in zip(out, shown, strict=True)
    ]
    return out, ref


def _check_cut(jr: JudgedRankings) -> JudgedRankings:
    """``jr``, unless a depth cut splits a tie group (a curve reads whole levels or single
    positions, so which documents of the group are retrieved would be undefined)."""
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
    return jr


def _text(name: str) -> str:
    """``name`` as the curve tables hold it: text only (:func:`undecoded_as_text`)."""
    return undecoded_as_text(name)


def _sizes(jr: JudgedRankings, collection_size: Any) -> np.ndarray:
    from cranfield.judging.side_inputs import per_query_counts

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


def align(values: np.ndarray, from_ids: Sequence[str], to_ids: Sequence[str], what: str):
    """Per-query ``values`` re-indexed from one query list to another (missing -> 0, warned)."""

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
        warn(
            f"{missing} queries are not in the {what}; their {what} value is taken as 0",
            DataWarning,
        )
    return out
