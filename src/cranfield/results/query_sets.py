"""Which queries a mean is over: the one rule of every table, and the note printed with it.

The rule (the same in ``evaluate``, ``compare``, ``curve``, ``ties``, ``report`` and their
Python functions): a mean is over the **judged queries of the qrels**.  A judged query that a
run has no results for is scored as an empty ranking (0 for AP, P@10, nDCG@10 ...), as
trec_eval ``-c`` does: a run that skips a hard query is not rewarded for it, and every run of
a table is averaged over the same queries.  Queries with results but no judgments are never
evaluated (no tool can score them).

``complete=False`` (``--no-complete``) is trec_eval's default instead: each run is averaged
over the judged queries it has results for.  Runs missing different queries are then averaged
over different query sets, which :func:`warn_if_mixed` reports; ``compare`` (whose paired
tests need one set of queries) then keeps the queries every run has, with a warning.

:func:`note` says, under every table, which queries its means are over and what became of
the judged queries without results ("Means over 76 queries ... cisi_bm25.txt: 2 judged
queries without results ('1', '10') scored 0").
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from cranfield.errors import DataWarning, warn

if TYPE_CHECKING:
    from cranfield.results.tables import Results

__all__ = ["RULE", "note", "query_sets_differ", "warn_if_mixed", "worth_noting"]

RULE = (
    "means are over the judged queries of the qrels; a judged query without results scores "
    "as an empty ranking (trec_eval -c)"
)
SHOWN = 3
"""Query ids named in a note (then '...')."""


class _Noted(Protocol):
    """What :func:`note` reads of a run's table: Results, or the judged rankings of a curve
    or a tie range (its name, its queries, and the judging notes)."""

    @property
    def run(self) -> str: ...
    @property
    def query_ids(self) -> Sequence[str]: ...
    @property
    def notes(self) -> Mapping[str, Any]: ...


def _ids(queries: Sequence[str]) -> str:
    shown = ", ".join(repr(q) for q in queries[:SHOWN])
    return f"({shown}{', ...' if len(queries) > SHOWN else ''})"


def _missing(r: _Noted) -> tuple[list[str], list[str]]:
    """The judged queries ``r`` has no results for: (scored as empty rankings, left out)."""
    missing = list(r.notes.get("missing_queries", ()))
    evaluated = set(r.query_ids)
    return [q for q in missing if q in evaluated], [q for q in missing if q not in evaluated]


def _scored(r: _Noted, queries: Sequence[str]) -> str:
    """``, scored 0`` when every measure of the empty rankings is 0 (counts such as NumRel,
    which an empty ranking does not change, aside), else nothing."""
    from cranfield.results.tables import Results

    if not isinstance(r, Results):  # a tie range or a curve's rankings: no values at hand
        return ""
    wanted = set(queries)
    rows = [i for i, q in enumerate(r.query_ids) if q in wanted]
    cols = [j for j, m in enumerate(r.measures) if not m.definition.integer]
    values = r.values[np.ix_(rows, cols)]
    return ", scored 0" if values.size and np.all(values == 0) else ""


def _queries(n: int) -> str:
    from cranfield.render.table import counted

    return counted(n, "query")


def query_sets_differ(runs: Sequence[_Noted]) -> bool:
    """Whether the runs' means are over different sets of queries."""
    sets = {frozenset(r.query_ids) for r in runs}
    return len(sets) > 1


def worth_noting(runs: Sequence[Results]) -> bool:
    """Whether some run has no results for judged queries, or the runs' query sets differ: what
    the short forms (``repr``, notebook HTML) add the note for."""
    return any(r.notes.get("missing_queries") for r in runs) or query_sets_differ(runs)


def note(runs: Sequence[_Noted], common: Sequence[str] | None = None, *, width: int = 100) -> str:
    """The sentence printed with a table of ``runs`` (Results, or anything with ``run``,
    ``query_ids`` and the judging ``notes``: the tie ranges): which queries its means are over.

    ``common``: the queries a comparison keeps (every run's means over them); ``None``: each
    run's means over its own queries (``evaluate``).  Lines of at most ``width`` characters
    (0: one line)."""
    if not runs:
        return ""
    missing = {r.run: _missing(r) for r in runs}
    scored = [(r, missing[r.run][0]) for r in runs if missing[r.run][0]]
    skipped = [(r, missing[r.run][1]) for r in runs if missing[r.run][1]]
    parts: list[str] = []
    if common is not None and skipped:
        parts.append(
            f"Means over the {_queries(len(common))} every run has results for "
            "(--no-complete, complete=False): left out of every run's mean, "
            + "; ".join(
                f"the {len(q)} judged queries {r.run} has no results for {_ids(q)}"
                for r, q in skipped
            )
            + "."
        )
    elif skipped:
        parts.append(
            "Means over each run's judged queries with results (--no-complete, "
            "complete=False): "
            + ", ".join(
                f"{r.run} {len(r.query_ids)}"
                + (
                    f" ({len(missing[r.run][1])} left out {_ids(missing[r.run][1])})"
                    if missing[r.run][1]
                    else ""
                )
                for r in runs
            )
            + "."
        )
        if query_sets_differ(runs):
            parts.append("Runs averaged over different queries are not comparable.")
    else:
        sizes = sorted({len(r.query_ids) for r in runs} if common is None else {len(common)})
        what = _queries(sizes[0]) if len(sizes) == 1 else "each run's queries"
        # the rule of the runs' queries: the judged queries, unless the results say otherwise
        # (nugget scores: the queries of the runs' responses)
        rules = {r.notes.get("query_rule", "every judged query of the qrels") for r in runs}
        parts.append(f"Means over {what}, {' / '.join(sorted(rules))}.")
    if scored:
        parts.append(
            "Judged queries without results are scored as empty rankings (trec_eval -c): "
            + "; ".join(f"{r.run} {len(q)} {_ids(q)}{_scored(r, q)}" for r, q in scored)
            + "."
        )
    text = " ".join(parts)
    if width <= 0:
        return text
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False))


def warn_if_mixed(runs: Sequence[Results]) -> None:
    """A :class:`~cranfield.errors.DataWarning` when the runs' means are over different sets of
    queries (runs evaluated with ``complete=False`` that miss different judged queries)."""
    if not query_sets_differ(runs):
        return
    sizes = ", ".join(f"{r.run} {len(r.query_ids)}" for r in runs)
    warn(
        DataWarning(
            f"the runs' means are over different sets of queries ({sizes} queries): they are "
            "not comparable; evaluate with complete=True (the default, --complete) to average "
            "every run over the judged queries"
        )
    )
