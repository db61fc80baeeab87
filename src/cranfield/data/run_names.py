"""The names of runs: one rule for every function that reads runs, and one rule to find a run
by name.

A run is named, first rule that applies:

1. by ``names=`` (one distinct name per run, in order);
2. by its key, when the runs are a dict ``{name: run}``;
3. by its own name, for a :class:`~cranfield.data.tables.Run` (and a ranx ``Run``'s name);
4. by the value of its ``run``/``name`` column, for a table (one value, else an error);
5. by its file name, for a path (``stdin`` for ``-``); files of the same name get the shortest
   path suffixes that tell them apart (``a/run.txt`` and ``b/run.txt``);
6. ``run1``, ``run2``... by position for other in-memory runs (``run`` when there is only one).

Names that are still equal (a file given twice, two Runs of one name) get ``#2``, ``#3``...
in order, as a last resort; the names of rules 1-3 and 5 are never changed by a table's
column value that happens to equal one of them.

:func:`find_run` finds a run by its name, by a path that ends with it, or by the end of it
(``--baseline run.txt`` finds ``a/run.txt``); several matches or none is an error that lists
them or the names.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Any

from cranfield.errors import ParameterError

__all__ = ["Namer", "find_run", "is_named_runs", "path_names", "unique"]

STDIN_NAME = "stdin"
"""The name of a run read from standard input (``-``)."""
IN_MEMORY = "run"
"""The name of the only in-memory run; ``run1``, ``run2``... when there are several."""


def is_path(source: Any) -> bool:
    return isinstance(source, str | os.PathLike)


def _is_table(source: Any) -> bool:
    return type(source).__module__.startswith(("pandas", "polars", "pyarrow"))


def _is_run_like(value: Any) -> bool:
    """A path, a table, a Run or another tool's run (:mod:`cranfield.io.peers`): never a
    value of a ``{qid: {docno: score}}`` run dict."""
    from cranfield.data.tables import Run

    if is_path(value) or _is_table(value) or isinstance(value, Run):
        return True
    from cranfield.io.peers import is_peer_run  # only for what is none of those

    return is_peer_run(value)


def _names_itself(source: Any) -> bool:
    """A run object that carries its own name (a ranx Run), known once it is read."""
    if is_path(source) or _is_table(source):
        return False
    from cranfield.io.peers import peer_run_name

    return peer_run_name(source) is not None


def is_named_runs(runs: Any) -> bool:
    """Whether ``runs`` is a dict ``{name: run}`` rather than one ``{qid: {docno: score}}`` run.

    Decided by its first value: a path, table or Run, or a mapping of mappings (a nested run
    dict one level down), make a dict of named runs."""
    if not isinstance(runs, Mapping) or not runs:
        return False
    first = next(iter(runs.values()))
    if _is_run_like(first):
        return True
    if isinstance(first, Mapping) and first:
        return isinstance(next(iter(first.values())), Mapping)
    return False


def _parts(path: str | os.PathLike[str]) -> tuple[str, ...]:
    text = os.fspath(path)
    if isinstance(text, bytes):  # pragma: no cover - bytes paths are not run sources
        text = os.fsdecode(text)
    return PurePath(os.path.normpath(text)).parts


def path_names(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """File names of ``paths``, made distinguishable: a path whose file name another path
    shares is named by its shortest suffix (in path components) that no other path of that
    name ends with; ``-`` is ``stdin``.  Equal paths (after normalisation: ``./a/r`` is
    ``a/r``) get equal names, left to :func:`unique`."""
    parts = [(STDIN_NAME,) if os.fspath(p) == "-" else _parts(p) or ("",) for p in paths]
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, mine in enumerate(parts):
        groups.setdefault(mine[-1:], []).append(i)
    size = [1] * len(parts)  # components in each name
    for members in groups.values():
        distinct = {parts[j] for j in members}  # the same path twice tells nothing apart
        pending, k = (members if len(distinct) > 1 else []), 1
        while pending:
            counts = Counter(p[-k:] for p in distinct)
            for i in pending:
                size[i] = k
            pending = [i for i in pending if counts[parts[i][-k:]] > 1 and k < len(parts[i])]
            k += 1
    return [str(PurePath(*mine[-k:])) for mine, k in zip(parts, size, strict=True)]


def unique(names: Iterable[str], taken: Iterable[str] = ()) -> list[str]:
    """``names`` with ``#2``, ``#3``... added to a name already used (by an earlier name or
    in ``taken``), the last resort of the naming rule."""
    used = set(taken)
    out = []
    for name in names:
        out.append(_free(name, used))
    return out


def _free(name: str, used: set[str]) -> str:
    """``name``, or ``name#k`` for the smallest k >= 2 not in ``used``; added to ``used``."""
    k, free = 2, name
    while free in used:
        free, k = f"{name}#{k}", k + 1
    used.add(free)
    return free


class Namer:
    """Names the runs of one call: planned before any is read (``planned``: ``None`` where
    the name is the table's column value, known once the table is read), final by
    :meth:`name` as each run is read."""

    def __init__(self, sources: Sequence[Any], names: Sequence[str] | None) -> None:
        from cranfield.data.tables import Run

        self.count = len(sources)
        planned: list[str | None] = [None] * len(sources)
        if names is not None:
            planned = list(names)
        else:
            paths = [i for i, s in enumerate(sources) if is_path(s)]
            for i, n in zip(paths, path_names([sources[i] for i in paths]), strict=True):
                planned[i] = n
            for i, s in enumerate(sources):
                if isinstance(s, Run):
                    planned[i] = s.name
                elif planned[i] is None and not _is_table(s) and not _names_itself(s):
                    planned[i] = self._in_memory(i)
        fixed = unique(n for n in planned if n is not None)
        it = iter(fixed)
        self.planned = [next(it) if n is not None else None for n in planned]
        self._used = set(fixed)

    def _in_memory(self, i: int) -> str:
        return f"{IN_MEMORY}{i + 1}" if self.count > 1 else IN_MEMORY

    def name(self, i: int, read_name: str) -> str:
        """The final name of run ``i``, read with the name ``read_name`` (a table's column
        value, or ``run`` when it has no such column)."""
        planned = self.planned[i]
        if planned is not None:
            return planned
        wanted = read_name if read_name != IN_MEMORY else self._in_memory(i)
        return _free(wanted, self._used)


def find_run(wanted: Any, names: Sequence[str], what: str = "run") -> str:
    """The one name of ``names`` that ``wanted`` designates: the name itself, or a path whose
    last components are the name (``/data/a/run.txt`` finds ``a/run.txt``), or the last
    components of a name (``run.txt`` finds ``a/run.txt``).  Several matches or none are a
    :class:`~cranfield.errors.ParameterError` listing them, or the names."""
    if not isinstance(wanted, str | os.PathLike):
        raise ParameterError(f"{what} must be a run name, got {wanted!r}")
    text = os.fspath(wanted)
    if text in names:
        return text
    mine = _parts(text) if text else ()
    matches = []
    for name in names:
        theirs = _parts(name) if name else ()
        k = min(len(mine), len(theirs))
        if k and mine[-k:] == theirs[-k:]:
            matches.append(name)
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ParameterError(
            f"{what} {text!r} matches {len(matches)} runs ({_listed(matches)}); "
            "give the name of one"
        )
    import difflib  # the error path only

    close = difflib.get_close_matches(text, list(names), n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    raise ParameterError(f"{what} {text!r} is not one of the runs ({_listed(names)}){hint}")


def _listed(names: Sequence[str], most: int = 10) -> str:
    shown = ", ".join(names[:most])
    return shown + (f", ... ({len(names)} runs)" if len(names) > most else "")
