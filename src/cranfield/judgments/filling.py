"""Filling holes: the qrels completed from other judgment sets or from a labeler, with the
source of every judgment kept and counted.

``fill_holes(qrels, [second_qrels, labeler, ...], runs)`` takes the holes of ``runs`` (their
unjudged (query, document) pairs, each run's first ``depth`` documents; see
:mod:`cranfield.judgments.holes`) and asks each source in turn for the pairs still open:

- a judgment set (any qrels source: path, DataFrame, dict, Qrels) gives its grade of a pair
  if it has one;
- a callable ``labeler(query_id, doc_ids) -> grades`` is called once per query with the
  query's open documents, in rank order of first appearance, and returns one integer grade
  per document (``None`` leaves that document open).

Without ``runs``, the judgment sets fill every pair they judge that ``qrels`` does not (a
labeler needs the runs, to know what to label).  The given qrels are never changed: a pair
they judge keeps its grade, and its source is ``qrels``.  Sources are named ``qrels`` for the
given judgments and by ``names`` (default: a path's file name, a callable's ``__name__``,
else ``fill1``, ``fill2``...).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cranfield.errors import ParameterError

__all__ = ["Filled", "fill_holes"]

BASE = "qrels"


@dataclass(frozen=True)
class Filled:
    """The completed judgments (``qrels``, a :class:`~cranfield.data.tables.Qrels`) and the source
    of
    each: ``origin[(query, doc)]`` for the filled pairs (every other judgment is ``qrels``');
    ``sources``: ``qrels`` then the fills, in order; ``open``: the holes no source filled."""

    qrels: Any
    origin: dict[tuple[str, str], str]
    sources: tuple[str, ...]
    open: list[tuple[str, str]]

    def source_of(self, query: str, doc: str) -> str | None:
        """The source of the judgment of (query, doc), or None if it has none."""
        if (query, doc) in self.origin:
            return self.origin[(query, doc)]
        i = self.qrels.query_index.get(query)
        if i is None:
            return None
        docs = self.qrels.doc_ids[int(self.qrels.offsets[i]) : int(self.qrels.offsets[i + 1])]
        return BASE if doc in docs else None

    def counts(self) -> dict[str, int]:
        """Judgments per source (``qrels``: the given ones), and the holes left (``open``)."""
        out = dict.fromkeys(self.sources, 0)
        for s in self.origin.values():
            out[s] += 1
        out[BASE] = len(self.qrels) - len(self.origin)
        out["open"] = len(self.open)
        return out

    def evaluate(self, runs: Any, measures: Any = None, **keywords: Any) -> Any:
        """:func:`cranfield.evaluate` on the completed qrels; each run's ``summary`` counts
        the judgments of its evaluated documents by source (``judged_by:<source>``) and its
        documents still unjudged (``judged_by:none``)."""
        from dataclasses import replace

        from cranfield.evaluation import evaluate
        from cranfield.io import read_run
        from cranfield.results.tables import Results, ResultsSet

        out = evaluate(self.qrels, runs, measures, **keywords)
        results = [out] if isinstance(out, Results) else list(out)
        sources = _sources_list(runs)
        done = []
        for res, source in zip(results, sources, strict=True):
            run = source if not isinstance(source, str | os.PathLike) else read_run(source)
            counts = self._judged_by(run, res.query_ids, keywords.get("depth"))
            summary = {**res.summary, **{f"judged_by:{k}": v for k, v in counts.items()}}
            done.append(replace(res, summary=summary))
        return done[0] if isinstance(out, Results) else ResultsSet(tuple(done))

    def _judged_by(self, run: Any, queries: Sequence[str], depth: int | None) -> dict:
        from cranfield.comparing.rbo import ranked_documents

        run = _as_run(run)
        vocabulary: dict[str, int] = {}
        rk = ranked_documents(run, list(queries), vocabulary, ties="trec", seed=None)
        names = list(vocabulary)
        counts = dict.fromkeys([*self.sources, "none"], 0)
        for i, q in enumerate(queries):
            for c in rk.codes[rk.offsets[i] : rk.offsets[i + 1]][:depth].tolist():
                counts[self.source_of(q, names[c]) or "none"] += 1
        return counts


def fill_holes(
    qrels: Any,
    fills: Sequence[Any],
    runs: Any = None,
    *,
    depth: int | None = None,
    names: Sequence[str] | None = None,
) -> Filled:
    """``qrels`` completed from ``fills`` (judgment sets and labelers, in order of
    preference) on the holes of ``runs`` (see the module docstring)."""
    from cranfield.data.tables import Qrels
    from cranfield.io import read_qrels

    if not isinstance(fills, list | tuple) or not fills:
        raise ParameterError("fills must be a non-empty list of judgment sets or labelers")
    labels = _names(fills, names)
    base = read_qrels(qrels)
    judged = base.to_dict()
    if runs is not None:
        from cranfield.judgments.holes import holes

        h = holes(base, runs, depth=depth)
        wanted = list(dict.fromkeys(p for pairs in h.run_holes.values() for p in pairs))
    else:
        if any(callable(f) and not _is_qrels(f) for f in fills):
            raise ParameterError("a labeler needs the runs whose holes it fills: give runs=")
        wanted = None
    origin: dict[tuple[str, str], str] = {}
    open_pairs = wanted
    for fill, label in zip(fills, labels, strict=True):
        if callable(fill) and not _is_qrels(fill):
            open_pairs = _label(fill, label, open_pairs or [], judged, origin)
            continue
        other = read_qrels(fill).to_dict()
        if open_pairs is None:
            candidates = [(q, d) for q, docs in other.items() for d in docs]
        else:
            candidates = open_pairs
        left = []
        for q, d in candidates:
            if d in judged.get(q, {}):
                continue
            g = other.get(q, {}).get(d)
            if g is None:
                left.append((q, d))
            else:
                judged.setdefault(q, {})[d] = g
                origin[(q, d)] = label
        open_pairs = left if wanted is not None else None
    rows = [(q, d, g) for q, docs in judged.items() for d, g in docs.items()]
    filled = Qrels.from_rows(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], source=base.source
    )
    return Filled(filled, origin, (BASE, *labels), list(open_pairs or []))


def _label(
    labeler: Callable[..., Any],
    label: str,
    pairs: list[tuple[str, str]],
    judged: dict[str, dict[str, int]],
    origin: dict[tuple[str, str], str],
) -> list[tuple[str, str]]:
    by_query: dict[str, list[str]] = {}
    for q, d in pairs:
        if d not in judged.get(q, {}):
            by_query.setdefault(q, []).append(d)
    left = []
    for q, docs in by_query.items():
        grades = list(labeler(q, list(docs)))
        if len(grades) != len(docs):
            raise ParameterError(
                f"labeler {label}: {len(grades)} grades for {len(docs)} documents of query {q!r}"
            )
        for d, g in zip(docs, grades, strict=True):
            if g is None:
                left.append((q, d))
                continue
            if isinstance(g, bool) or not isinstance(g, int):
                try:
                    ok = float(g).is_integer()
                except (TypeError, ValueError):
                    ok = False
                if not ok or isinstance(g, bool):
                    raise ParameterError(
                        f"labeler {label}: grade {g!r} of query {q!r}, document {d!r} is not "
                        "an integer"
                    )
            judged.setdefault(q, {})[d] = int(g)
            origin[(q, d)] = label
    return left


def _is_qrels(x: Any) -> bool:
    from cranfield.data.tables import Qrels

    return isinstance(x, Qrels | str | os.PathLike | dict) or hasattr(x, "columns")


def _names(fills: Sequence[Any], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        if len(names) != len(fills) or len(set(names)) != len(names):
            raise ParameterError("names: one distinct name per fill")
        if BASE in names or "open" in names or "none" in names:
            raise ParameterError("names: 'qrels', 'open' and 'none' are taken")
        return list(names)
    out = []
    for i, f in enumerate(fills, start=1):
        if isinstance(f, str | os.PathLike):
            n = os.path.basename(os.fspath(f))
        elif callable(f) and not _is_qrels(f):
            n = getattr(f, "__name__", "") or f"fill{i}"
        else:
            n = f"fill{i}"
        while n in out or n in (BASE, "open", "none"):
            n = f"{n}_{i}"
        out.append(n)
    return out


def _sources_list(runs: Any) -> list[Any]:
    from cranfield.base import arguments as A

    sources, _, _ = A.run_list(runs)
    return sources


def _as_run(run: Any) -> Any:
    from cranfield.data.tables import Run
    from cranfield.io import read_run

    return run if isinstance(run, Run) else read_run(run)
