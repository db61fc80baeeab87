"""A run's :class:`~cranfield.results.tables.Results` from the judged rankings of blocks of its
queries.

A run read in query blocks (:mod:`cranfield.scale.streaming`) is judged and measured one block at a
time; :func:`measure_block` keeps what each block contributes (per-query values, counts, the
number of queries each measure is undefined for) and :func:`combine` puts the blocks together
into the Results that one judgment of the whole run gives, to the last bit: every measure is a
function of one query's ranking, the queries are put in ``strcmp`` order before anything is
summed, and the warnings are those of the whole run, in the same order.  A run judged whole is
one block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from cranfield.errors import DataWarning, InputError, UndefinedMeasureWarning, warn
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures import Measure
from cranfield.results.aggregate import aggregate_values, resolve_aggregation
from cranfield.results.tables import Results

__all__ = ["Block", "combine", "measure_block"]


class Block(NamedTuple):
    """What the judged rankings of some queries contribute to their run's Results (per query,
    in the judged order)."""

    query_ids: tuple[str, ...]
    values: np.ndarray  # queries x measures
    retrieved: np.ndarray
    relevant: np.ndarray
    relevant_retrieved: np.ndarray  # int64; float64 (expected counts) under ties="weak" + depth
    undefined: tuple[int, ...]  # queries each (measure, undefined case) is undefined for
    parts: dict[str, tuple[np.ndarray, np.ndarray]]  # micro averages' numerators, denominators


def measure_block(
    jr: JudgedRankings,
    measures: Sequence[tuple[str, Measure]],
    defaults: dict[str, Any] | None,
    micro: Sequence[str] = (),
) -> Block:
    """Compute ``measures`` (label, Measure) on ``jr``; ``micro``: the labels whose micro
    average was asked for (their per-query numerators and denominators are kept)."""
    cols: list[np.ndarray] = []
    undefined: list[int] = []
    from cranfield.measures.core_kernels import by_kernels

    by_kernel = by_kernels(jr, [m for _, m in measures], defaults)
    for j, (_, m) in enumerate(measures):
        if j in by_kernel:
            values, cases = by_kernel[j]
            cols.append(values)
            undefined.extend(int(c) for c in cases[: len(m.definition.undefined)])
            continue
        params = m.resolve(defaults)
        values = m.definition.function(jr.ties)(jr, **params)
        cols.append(np.asarray(values, dtype=np.float64))
        for u in m.definition.undefined:
            undefined.append(int(np.count_nonzero(u.mask(jr, **params))))
    rel = (defaults or {}).get("rel", 1)
    relevant = jr.relevant(rel)
    if jr.ties == "weak" and jr.depth is not None:
        from cranfield.ties.expected import expected_retrieved

        rel_ret = np.asarray(expected_retrieved(jr, relevant), dtype=np.float64)
    else:
        rel_ret = jr.count(relevant)
    parts = {}
    for j, (label, m) in enumerate(measures):
        if label in micro and m.definition.micro is not None:
            num, den = m.definition.micro(jr, **m.resolve(defaults))
            if jr.ties == "weak":  # micro denominators do not depend on the order (tested)
                num = cols[j] * np.asarray(den, dtype=np.float64)
            parts[label] = (np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    return Block(
        query_ids=tuple(jr.query_ids),
        values=np.column_stack(cols) if cols else np.zeros((jr.num_queries, 0)),
        retrieved=np.asarray(jr.num_ret, dtype=np.int64),
        relevant=np.asarray(jr.num_rel(rel), dtype=np.int64),
        relevant_retrieved=rel_ret,
        undefined=tuple(undefined),
        parts=parts,
    )


def micro_labels(
    measures: Sequence[tuple[str, Measure]],
    aggregate: str | Sequence[str] | Mapping[str, str] | None,
) -> list[str]:
    """The labels whose micro average is asked for (no warning)."""
    aggregation = resolve_aggregation(measures, aggregate, warn=False)
    return [label for label, how in aggregation.items() if how == "micro"]


def combine(
    blocks: Sequence[Block],
    measures: Sequence[tuple[str, Measure]],
    *,
    name: str,
    notes: dict[str, list[str]],
    complete: bool,
    qrels_source: str,
    aggregate: str | Mapping[str, str] | None = None,
    warn: bool = True,
    warn_agg: bool = True,
) -> Results:
    """The Results of a run from its blocks (any order); ``notes`` are the run's
    ``run_only_queries`` and ``missing_queries`` (evaluated as empty rankings when
    ``complete``, else skipped)."""
    aggregation = resolve_aggregation(measures, aggregate, warn=warn and warn_agg)
    qids = [q for b in blocks for q in b.query_ids]
    if not qids:
        raise InputError(name, f"no query of this run has judgments in {qrels_source}")
    if warn:
        _data_warnings(name, notes, complete)
        _undefined_warnings(name, blocks, measures, len(qids))
    order = sorted(range(len(qids)), key=qids.__getitem__)
    one = len(blocks) == 1

    def joined(arrays: list[np.ndarray]) -> np.ndarray:
        return (arrays[0] if one else np.concatenate(arrays))[order]

    values = joined([b.values for b in blocks])
    rel_ret = joined([b.relevant_retrieved for b in blocks])
    rr = aggregate_values(rel_ret, "sum")  # in query order, as NumRelRet's sum
    summary = {
        "queries": len(qids),
        "retrieved": int(joined([b.retrieved for b in blocks]).sum()),
        "relevant": int(joined([b.relevant for b in blocks]).sum()),
        # an expectation under weak ties and a depth: a fraction unless the sum is whole
        "relevant_retrieved": int(rr) if rr.is_integer() else rr,
    }
    parts = {
        label: (
            joined([b.parts[label][0] for b in blocks]),
            joined([b.parts[label][1] for b in blocks]),
        )
        for label in (blocks[0].parts if blocks else {})
    }
    return Results(
        run=name,
        query_ids=tuple(qids[i] for i in order),
        labels=tuple(label for label, _ in measures),
        measures=tuple(m for _, m in measures),
        values=values,
        summary=summary,
        notes=notes,
        aggregation=aggregation,
        parts=parts,
    )


def _undefined_warnings(
    name: str, blocks: Sequence[Block], measures: Sequence[tuple[str, Measure]], total: int
) -> None:
    k = 0
    for label, m in measures:
        for u in m.definition.undefined:
            count = sum(b.undefined[k] for b in blocks)
            k += 1
            if count:
                warn(
                    UndefinedMeasureWarning(
                        f"{name}: {label} is undefined for {count} of {total} "
                        f"queries ({u.when}); scored {u.value}"
                    )
                )


def _data_warnings(name: str, notes: dict[str, list[str]], complete: bool) -> None:
    if complete:
        what = "were scored as empty rankings (complete, as trec_eval -c)"
    else:
        what = (
            "were skipped (--no-complete, complete=False; by default they are scored as "
            "empty rankings)"
        )
    warn_query_notes(
        name, notes.get("run_only_queries", []), notes.get("missing_queries", []), what
    )


def warn_query_notes(name: str, run_only: list[str], missing: list[str], what: str) -> None:
    """One :class:`DataWarning` for the queries with results but no judgments and one for the
    judged queries without results (``what`` says what became of them); the wording of
    every command, ``cranfield trec_eval`` included."""
    if run_only:
        warn(
            DataWarning(
                f"{name}: {len(run_only)} queries have results but no judgments and were not "
                f"evaluated (first: {run_only[0]!r})"
            )
        )
    if missing:
        warn(
            DataWarning(
                f"{name}: {len(missing)} judged queries have no results and {what} "
                f"(first: {missing[0]!r})"
            )
        )
