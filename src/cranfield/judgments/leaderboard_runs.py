"""Every run under every judgment set: the work of :func:`cranfield.leaderboards`.

Each run is read once, its documents looked up once in the union of the sets' documents, and
judged and evaluated against each set (:func:`run_task`, one task per run, on any executor);
then the significance verdict of every tested run pair under each set (:func:`verdicts`, the
rule of :func:`cranfield.compare`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from cranfield.errors import DataWarning, ParameterError

__all__ = ["Work", "documents", "name_sets", "note", "run_task", "verdicts"]


class Work(NamedTuple):
    """What every run's task needs: the judgment sets and the evaluation plan."""

    sets: tuple[Any, ...]
    plan: Any
    judged: frozenset[str]
    """The queries judged in some set (before the sets were cut to the common queries)."""
    documents: Any
    """The documents of every set (a :class:`~cranfield.data.id_column.Vocabulary`): a run's
    documents are looked up once in it, ..."""
    codes: tuple[np.ndarray, ...]
    """... and mapped to each set's own codes by ``codes[set][position]`` (-1: absent)."""
    names: tuple[str, ...]
    """The sets' names (for the warnings of each run under each)."""


def documents(sets: Sequence[Any]) -> tuple[Any, tuple[np.ndarray, ...]]:
    """The union of the sets' documents and, per set, each one's position in the set's own
    vocabulary (``Qrels.doc_index``), -1 where the set does not judge it."""
    from cranfield.data.id_column import Vocabulary

    union: dict[str, int] = {}
    for q in sets:
        for d in q.doc_vocabulary:
            union.setdefault(d, len(union))
    maps = []
    for q in sets:
        m = np.full(len(union) + 1, -1, dtype=np.int64)  # the last: absent from the union
        vocab = q.doc_vocabulary
        m[np.fromiter(map(union.__getitem__, vocab), dtype=np.int64, count=len(vocab))] = np.arange(
            len(vocab), dtype=np.int64
        )
        maps.append(m)
    return Vocabulary(list(union)), tuple(maps)


def run_task(shared: Any, task: Any) -> tuple[list[Any], list[str]]:
    """One run read once, judged against every set: its Results under each, and the
    queries of the run that no set judges (the judging's own notes would also name the
    queries left out of every set by ``queries="common"``, once per set)."""
    from dataclasses import replace

    from cranfield.data.tables import Run
    from cranfield.evaluation import evaluate_planned
    from cranfield.judging.join import judge

    plan = shared.work.plan._replace(options=shared.options)
    source = task.source
    if not isinstance(source, Run):
        from cranfield.io import read_run

        source = read_run(source)
        if source.name != task.name:
            source = replace(source, name=task.name)
    kw = plan.options.judge_keywords()
    first = task.index == 0
    work = shared.work
    found = source.docs.lookup(work.documents) if len(source) else np.zeros(0, dtype=np.int64)
    results = []
    for q, codes, set_name in zip(work.sets, work.codes, work.names, strict=True):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            jr = judge(q, source, _notes=False, _codes=codes[found], **kw)
            results.append(evaluate_planned(jr, q, task.name, plan, first))
        for w in caught:  # which set the warning is about
            warnings.warn(w.category(f"under {set_name}: {w.message}"), stacklevel=2)
    return results, [q for q in source.query_ids if q not in shared.work.judged]


def name_sets(sources: Sequence[Any], names: Sequence[str] | None) -> list[str]:
    from cranfield.data.run_names import path_names, unique

    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(sources):
            raise ParameterError(f"set_names: {len(names)} names for {len(sources)} judgment sets")
        if len(set(names)) != len(names):
            raise ParameterError(f"set_names must be distinct, got {', '.join(names)}")
        return names
    paths = [i for i, s in enumerate(sources) if isinstance(s, str | os.PathLike)]
    given = path_names([sources[i] for i in paths]) if paths else []
    out = [f"qrels{i + 1}" for i in range(len(sources))]
    for i, n in zip(paths, given, strict=True):
        out[i] = n
    return unique(out)


def note(notes: list[str], text: str) -> None:
    if text not in notes:
        notes.append(text)
        warnings.warn(DataWarning(f"leaderboards: {text}"), stacklevel=3)


def verdicts(
    per_run: Sequence[Sequence[Any]],
    sets: Sequence[str],
    labels: Sequence[str],
    settings: dict[str, Any],
    baseline: str | None,
    notes: list[str],
) -> tuple[dict[str, list[list[str]]], list[tuple[str, str]]]:
    """The significance verdict of every tested run pair under each set, by the rule of
    :func:`cranfield.compare` (its test of the pairs, its correction, ``a``/``b``/``=``), or
    ``({}, [])`` when they are undefined (fewer than 2 runs or queries).  Only the verdicts
    are computed (compare's intervals and effect sizes are not needed here: 11,175 pairs of
    150 runs under 42 sets)."""
    from cranfield.comparing.corrections import adjust
    from cranfield.comparing.pair_tests import test_pairs
    from cranfield.comparing.paired import differences, paired_tests
    from cranfield.comparing.result import direction
    from cranfield.data.run_names import find_run

    if len(per_run) < 2:
        return {}, []
    names = [r[0].run for r in per_run]
    if baseline is None:
        idx = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    else:
        b = names.index(find_run(baseline, names, "baseline"))
        idx = [(b, j) for j in range(len(names)) if j != b]
    out: dict[str, list[list[str]]] = {label: [] for label in labels}
    first = np.array([i for i, _ in idx], dtype=np.int64)
    second = np.array([j for _, j in idx], dtype=np.int64)
    for s, name in enumerate(sets):
        rs = [r[s] for r in per_run]
        common = set(rs[0].query_ids).intersection(*(r.query_ids for r in rs[1:]))
        for label in labels:
            m = rs[0].measures[rs[0].labels.index(label)]
            V = np.column_stack([r.column(label)[[q in common for q in r.query_ids]] for r in rs])
            V = V[np.isfinite(V).all(axis=1)]
            if len(V) < 2:
                note(
                    notes,
                    f"{label} under {name}: fewer than 2 queries to test, so no "
                    "significance verdicts: same_verdict is NaN",
                )
                return {}, []
            D = differences(V[:, first], V[:, second])
            if settings["test"] == "tukey":
                tests, _ = test_pairs(V, D, idx, "tukey", "two-sided", 1, None, "t", 0.5)
            else:
                tests = paired_tests(
                    D,
                    settings["test"],
                    alternative=settings["alternative"],
                    permutations=settings["permutations"],
                    seed=settings["seed"],
                )
            padj = adjust([t.p_value for t in tests], settings["correction"])
            sgn = direction(m)
            verdicts = []
            for t, pa in zip(tests, padj, strict=True):
                sign = sgn * t.direction
                sig = bool(pa < settings["alpha"])
                verdicts.append(("b" if sign > 0 else "a" if sign < 0 else "=") if sig else "=")
            out[label].append(verdicts)
    return out, [(names[i], names[j]) for i, j in idx]
