"""Checks of the public functions' arguments: one rule per kind of argument, and one
:class:`~cranfield.errors.ParameterError` naming the argument and what it accepts.

- integers (``depth``, ``seed``, ``permutations``, ``rel``...): ``int`` or a numpy integer,
  never a boolean, a float or a string, within the argument's range and always within int64;
- flags (``judged_only``, ``complete``...): ``True`` or ``False`` (numpy booleans too);
- numbers (``alpha``, ``base``, ``generality``): finite real numbers, not booleans;
- choices (``ties``, ``test``...): one of the listed strings;
- ``names``: a list (or tuple) of distinct, non-empty strings without control characters, one
  per run;
- ``runs``: one run, a non-empty list (or tuple) of runs or a dict ``{name: run}`` (a list
  of ir_measures ``ScoredDoc`` records is one run); ``qrels`` cannot be ``None``;
- ``measures``: a measure string (one measure or several: ``'AP nDCG@10'``) or
  :class:`~cranfield.measures.Measure` (or ir_measures' measure object), or a non-empty list
  (any iterable) of them.

The checks run before any file is read, so a typo fails at once.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real
from typing import Any

import numpy as np

from cranfield.base.limits import INT64_MAX, MAX_DOCUMENTS, MAX_SEED
from cranfield.errors import ParameterError

__all__ = [
    "INT64_MAX",
    "choice",
    "flag",
    "integer",
    "measure_list",
    "number",
    "per_query",
    "qrels_given",
    "qrels_source",
    "random_seed",
    "run_list",
    "run_names",
]

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""Characters no run name may hold: controls, and lone surrogates (no UTF-8 text holds them,
so a table or file of the results could not)."""


def _show(value: Any) -> str:
    from cranfield.io.columns import show

    return show(value)


def _got(value: Any) -> str:
    """``'x' (a str)``: the value and, unless obvious from it, its type."""
    if value is None or isinstance(value, bool | int | float | str):
        return _show(value)
    return f"{_show(value)} (a {type(value).__name__})"


def integer(value: Any, name: str, *, minimum: int = 0, maximum: int = INT64_MAX) -> int:
    """``value`` as an ``int`` in ``[minimum, maximum]``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ParameterError(f"{name} must be an integer, got {_got(value)}")
    v = int(value)
    if v < minimum:
        raise ParameterError(f"{name} must be >= {minimum}, got {v}")
    if v > maximum:
        raise ParameterError(f"{name} must be <= {maximum:,}, got {_show(v)}")
    return v


def random_seed(value: Any, name: str = "seed") -> int | None:
    """``None`` or a non-negative int64 (numpy's ``default_rng`` refuses negative seeds)."""
    return None if value is None else integer(value, name, maximum=MAX_SEED)


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ParameterError(f"{name} must be True or False, got {_got(value)}")
    return bool(value)


def number(value: Any, name: str) -> float:
    """A finite real number (not a boolean) as a float."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, Real):
        raise ParameterError(f"{name} must be a number, got {_got(value)}")
    try:
        v = float(value)
    except (OverflowError, ValueError, ArithmeticError):
        v = math.inf
    if not math.isfinite(v):
        raise ParameterError(f"{name} must be a finite number, got {_show(value)}")
    return v


def choice(value: Any, what: str, choices: Sequence[str]) -> str:
    """One of ``choices``: ``unknown <what> 'x'; choose one of a, b, c`` otherwise."""
    if not isinstance(value, str) or value not in choices:
        raise ParameterError(f"unknown {what} {_got(value)}; choose one of {', '.join(choices)}")
    return str(value)


def qrels_given(qrels: Any) -> None:
    if qrels is None:
        raise ParameterError(
            "no qrels given: pass a path, a DataFrame, a {qid: {docno: grade}} dict or a Qrels"
        )


def qrels_source(value: Any, what: str) -> None:
    """``None`` or something the qrels readers take: a path, a table, a dict or a Qrels."""
    from cranfield.data.tables import Qrels

    if value is None or isinstance(value, str | os.PathLike | Mapping | Qrels):
        return
    from cranfield.io.peers import is_peer_qrels

    if is_peer_qrels(value):
        return
    if not type(value).__module__.startswith(("pandas", "polars", "pyarrow")):
        raise ParameterError(
            f"{what} must be qrels: a path, a DataFrame, a {{qid: {{docno: grade}}}} dict or a "
            f"Qrels, got {_got(value)}"
        )


def run_list(runs: Any) -> tuple[list[Any], list[str] | None, bool]:
    """``(sources, keys, many)``: a list or tuple of runs, or a dict ``{name: run}`` (its
    ``keys``, checked as names), make ``many``; anything else is one run."""
    from cranfield.data.run_names import is_named_runs

    if runs is None:
        raise ParameterError("no runs given")
    if isinstance(runs, list | tuple) and all(isinstance(r, str | os.PathLike) for r in runs):
        if not runs:
            raise ParameterError("no runs given (the list of runs is empty)")
        return list(runs), None, True  # paths (the command line's case): no record to test
    from cranfield.io.peers import SCORED_FIELDS, is_record

    if is_record(runs, SCORED_FIELDS):
        raise ParameterError(
            f"one result {_show(runs)} is not a run: give an iterable of them (a list of "
            "ScoredDoc records is one run)"
        )
    if isinstance(runs, list | tuple) and runs and is_record(runs[0], SCORED_FIELDS):
        return [runs], None, False  # ir_measures' ScoredDoc records: one run
    if isinstance(runs, list | tuple):
        if not runs:
            raise ParameterError("no runs given (the list of runs is empty)")
        return list(runs), None, True
    if is_named_runs(runs):
        keys = list(runs)
        for k in keys:
            if not isinstance(k, str):
                raise ParameterError(
                    f"a dict of runs maps run names (strings) to runs, got {_got(k)}"
                )
        return list(runs.values()), run_names(keys, len(keys)), True
    return [runs], None, False


def run_names(names: Any, count: int) -> list[str] | None:
    """``None``, or one distinct, non-empty name per run."""
    if names is None:
        return None
    if not isinstance(names, list | tuple):
        raise ParameterError(f"names must be a list of strings, one per run, got {_got(names)}")
    if len(names) != count:
        raise ParameterError(f"{len(names)} names given for {count} runs")
    seen: set[str] = set()
    for n in names:
        if not isinstance(n, str):
            raise ParameterError(f"run names must be strings, got {_got(n)}")
        if not n.strip():
            raise ParameterError(f"run names cannot be empty or blank, got {n!r}")
        m = _CONTROL.search(n)
        if m:
            what = "lone surrogate" if "\ud800" <= m.group() <= "\udfff" else "control character"
            raise ParameterError(f"run name {_show(n)} contains the {what} U+{ord(m.group()):04X}")
        if n in seen:
            raise ParameterError(f"run name {n!r} is given twice; names must be distinct")
        seen.add(n)
    return list(names)


def measure_list(measures: Any, default: Sequence[Any]) -> list[Any]:
    """A list of measure strings or Measures (``default`` for ``None``).

    A string may hold several measures (``'AP nDCG@10'``, ``'AP,nDCG@10'``:
    :func:`cranfield.measures.lists.split_measures`); ir_measures' measure objects
    (``ir_measures.nDCG@10``) become the cranfield Measure computing them
    (:mod:`cranfield.measures.peer_measures`)."""
    from cranfield.measures import Measure
    from cranfield.measures.lists import split_measures
    from cranfield.measures.peer_measures import from_peer, is_ir_measures_measure

    if measures is None:
        measures = default
    if isinstance(measures, str | Measure) or is_ir_measures_measure(measures):
        measures = [measures]
    elif isinstance(measures, Iterable) and not isinstance(measures, bytes | Mapping):
        measures = list(measures)  # a list, tuple, generator, Series of measure strings...
    else:
        raise ParameterError(
            f"measures must be a measure string such as 'AP' or a list of them, got "
            f"{_got(measures)}"
        )
    out: list[Any] = []
    for m in measures:
        if isinstance(m, str):
            out += split_measures(m)
        elif isinstance(m, Measure):
            out.append(m)
        elif is_ir_measures_measure(m):
            out.append(from_peer(m))
        else:
            raise ParameterError(f"measures must be strings such as 'AP', got {_got(m)}")
    if not out:
        raise ParameterError("no measures given")
    return out


def per_query(value: Any, what: str) -> None:
    """``None``, an integer >= 1, a ``{qid: n}`` mapping or a file path (values are checked
    when the queries are known, by :func:`cranfield.judging.side_inputs.per_query_counts`)."""
    if value is None or isinstance(value, Mapping | str | os.PathLike):
        return
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        integer(value, what, minimum=1, maximum=MAX_DOCUMENTS)
        return
    if isinstance(value, bool | np.bool_):
        raise ParameterError(f"{what} must be an integer, a mapping or a file, got {value!r}")
    raise ParameterError(
        f"{what} must be an integer, a {{qid: n}} mapping or a file of 'qid n' lines, "
        f"got a {type(value).__name__}"
    )
