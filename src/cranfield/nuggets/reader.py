"""Nugget-assignment files: AutoNuggetizer's JSON lines, read and checked.

One line is one response (a run's answer to a query) with its nuggets, as nuggetizer's
``assign`` writes them (``scripts/assign_nuggets.py``, the answers mode)::

    {"query": "...", "qid": "q1", "answer_text": "...", "response_length": 42,
     "run_id": "run-a", "nuggets": [
        {"text": "...", "importance": "vital", "assignment": "support"},
        {"text": "...", "importance": "okay", "assignment": "partial_support"}]}

Read are ``qid`` (a string or a JSON integer, by the id rule of :mod:`cranfield.io.ids`),
``run_id`` (a string, the same rule) and ``nuggets`` (a list of objects, each with
``importance``: ``vital`` or ``okay``, and ``assignment``: ``support``, ``partial_support`` or
``not_support``); other keys (``query``, ``answer_text``, a nugget's ``text``, ``reasoning``,
``trace``) are allowed and ignored.  A line that is not such an object, a missing key, an
unknown label (nuggetizer's ``failed``, the mark of an LLM call it could not parse, included),
or a (query, run) pair given twice, in one file or across files, is one
:class:`~cranfield.errors.InputError` naming the file, the line and the problem.  Blank lines
are counted, every other line is one response.  The text goes through the checks of every
JSON read (:func:`cranfield.io.strict_json.json_text`: UTF-8, line ends, nesting bounded before
parsing) and each line through :func:`cranfield.io.strict_json.json_line` (invalid JSON, a key
given twice).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.data.tables import LineCounts
from cranfield.errors import InputError, ParameterError
from cranfield.io.ids import id_message, id_problem
from cranfield.io.number_text import JsonNumber

__all__ = ["ASSIGNMENTS", "IMPORTANCES", "NuggetAssignments", "read"]

IMPORTANCES = ("vital", "okay")
"""A nugget's importance, as nuggetizer's scorer labels it."""
ASSIGNMENTS = ("support", "partial_support", "not_support")
"""How far a response supports a nugget, as nuggetizer's assigner labels it (its two-grade
mode writes ``support`` and ``not_support`` only)."""
_FAILED = (
    "; 'failed' is nuggetizer's mark of an LLM reply it could not parse: assign that "
    "response's nuggets again"
)


@dataclass(frozen=True, eq=False)
class NuggetAssignments:
    """The responses of nugget-assignment files: response ``i`` is run ``runs[i]``'s answer to
    query ``query_ids[i]``, read from ``sources[i]`` line ``lines[i]``; per response, the
    number of its vital nuggets and of all its nuggets, and how many of each are supported
    (``support``) and partly supported (``partial_support``).  ``counts``: per file, how its
    lines were read."""

    query_ids: tuple[str, ...]
    runs: tuple[str, ...]
    sources: tuple[str, ...]
    lines: np.ndarray
    vital: np.ndarray
    vital_support: np.ndarray
    vital_partial: np.ndarray
    total: np.ndarray
    support: np.ndarray
    partial: np.ndarray
    counts: dict[str, LineCounts]

    def __len__(self) -> int:
        return len(self.query_ids)

    @property
    def run_names(self) -> list[str]:
        """The runs in the order they first appear."""
        return list(dict.fromkeys(self.runs))


def read(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> NuggetAssignments:
    """The responses of one or more nugget-assignment files (JSON lines; ``-`` is standard
    input; compressed files are read as every input is).  See the module docstring for the
    shape and the errors."""
    from cranfield.io.source import source_name

    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not isinstance(paths, Sequence) or not paths:
        raise ParameterError(f"read needs one or more nugget-assignment files, got {paths!r}")
    rows: list[tuple[Any, ...]] = []
    seen: dict[tuple[str, str], tuple[str, int]] = {}
    counts: dict[str, LineCounts] = {}
    for path in paths:
        if not isinstance(path, str | os.PathLike):
            raise ParameterError(f"a nugget-assignment file must be a path, got {path!r}")
        source = source_name(path)
        if source in counts:
            raise ParameterError(f"{source} is given twice")
        counts[source] = _read_file(path, source, rows, seen)
    cols = list(zip(*rows, strict=True))
    ints = [np.asarray(c, dtype=np.int64) for c in cols[3:]]
    return NuggetAssignments(
        query_ids=tuple(cols[0]),
        runs=tuple(cols[1]),
        sources=tuple(cols[2]),
        lines=ints[0],
        vital=ints[1],
        vital_support=ints[2],
        vital_partial=ints[3],
        total=ints[4],
        support=ints[5],
        partial=ints[6],
        counts=counts,
    )


def _read_file(
    path: str | os.PathLike[str],
    source: str,
    rows: list[tuple[Any, ...]],
    seen: dict[tuple[str, str], tuple[str, int]],
) -> LineCounts:
    from cranfield.io.strict_json import json_line, json_text

    data = json_text(path, lines=True)
    pieces = data.split(b"\n")
    nlines = len(pieces) - (data[-1:] == b"\n")
    blank = 0
    for lineno, raw in enumerate(pieces[:nlines], 1):
        text = raw.strip()  # ASCII whitespace around a line is no part of it
        if not text:
            blank += 1
            continue
        obj = json_line(raw, text, source, lineno)
        qid, run, tally = _response(obj, source, lineno)
        first = seen.get((qid, run))
        if first is not None:
            where = f"line {first[1]}" + ("" if first[0] == source else f" of {first[0]}")
            raise InputError(
                source,
                f"query {qid!r} of run {run!r} again (first at {where}); each response, a "
                "(qid, run_id) pair, is one line",
                line=lineno,
            )
        seen[(qid, run)] = (source, lineno)
        rows.append((qid, run, source, lineno, *tally))
    return LineCounts(lines=nlines, data=nlines - blank, blank=blank)


def _response(obj: Any, source: str, line: int) -> tuple[str, str, tuple[int, ...]]:
    """(query id, run, counts) of one line's object, or the error naming its problem."""

    def bad(problem: str) -> InputError:
        return InputError(source, problem, line=line)

    if not isinstance(obj, dict):
        raise bad(
            f"expected a JSON object (one response with its nuggets: qid, run_id, nuggets), "
            f"got {_json_type(obj)}"
        )
    for key in ("qid", "run_id", "nuggets"):
        if key not in obj:
            hint = (
                "; this looks like nuggetizer's assignments to retrieved passages (qid, docid), "
                "which score passages, not a run's answers"
                if key == "run_id" and "docid" in obj
                else ""
            )
            raise bad(f"no {key!r} key (a response needs qid, run_id and nuggets){hint}")
    qid = _id(obj["qid"], "query id", "qid", bad, numbers=True)
    run = _id(obj["run_id"], "run id", "run_id", bad, numbers=False)
    nuggets = obj["nuggets"]
    if not isinstance(nuggets, list):
        raise bad(f"'nuggets' must be a list of nuggets, got {_json_type(nuggets)}")
    vital = vital_support = vital_partial = support = partial = 0
    for k, nugget in enumerate(nuggets, 1):
        if not isinstance(nugget, dict):
            raise bad(f"nugget {k} must be a JSON object, got {_json_type(nugget)}")
        for key in ("importance", "assignment"):
            if key not in nugget:
                raise bad(f"nugget {k} has no {key!r} key")
        importance = _label(nugget["importance"], IMPORTANCES, "importance", k, bad)
        assignment = _label(nugget["assignment"], ASSIGNMENTS, "assignment", k, bad)
        full, half = assignment == "support", assignment == "partial_support"
        support += full
        partial += half
        if importance == "vital":
            vital += 1
            vital_support += full
            vital_partial += half
    return qid, run, (vital, vital_support, vital_partial, len(nuggets), support, partial)


def _id(value: Any, what: str, key: str, bad: Any, *, numbers: bool) -> str:
    if numbers and isinstance(value, JsonNumber) and value.is_integer:
        value = value.text  # a JSON integer is its decimal text, as in every JSON read
    if not isinstance(value, str):
        kinds = "a string or an integer" if numbers else "a string"
        raise bad(f"{key!r} must be {kinds}, got {_json_type(value)}")
    if id_problem(value) is not None:
        raise bad(id_message(what, value, f" (key {key!r})"))
    return value


def _label(value: Any, allowed: tuple[str, ...], key: str, k: int, bad: Any) -> str:
    if isinstance(value, str) and value in allowed:
        return value
    shown = repr(value) if isinstance(value, str) else _json_type(value)
    hint = _FAILED if value == "failed" else ""
    raise bad(f"nugget {k}: unknown {key} {shown}; expected one of {', '.join(allowed)}{hint}")


def _json_type(value: Any) -> str:
    if isinstance(value, JsonNumber):
        return f"the number {value.text}"
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), type(value).__name__)
