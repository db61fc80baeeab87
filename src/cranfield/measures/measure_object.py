"""A measure with its parameters (:class:`Measure`, ``P(rel=2)@10``): built in Python or by
:func:`.parse.parse` from a measure string, checked against its declaration once, when it is
made; its canonical text (:func:`format_value`); and the "did you mean" of an unknown name
(:func:`suggest`).  :mod:`.parse` holds the grammar of measure strings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.errors import MeasureError
from cranfield.measures.params import check_values, missing, shown
from cranfield.measures.registry import REGISTRY, MeasureDef, all_names, lookup

__all__ = ["Measure", "format_value", "quoted", "suggest"]


def format_value(v: Any) -> str:
    """Canonical text of a parameter value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | np.integer):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return "{" + ",".join(f"{format_value(k)}:{format_value(g)}" for k, g in v.items()) + "}"
    return str(v)


@dataclass(frozen=True, repr=False, init=False)  # __init__ and __repr__ below
class Measure:
    """A measure with its parameters, e.g. ``P(rel=2)@10``.

    Only explicitly given parameters are stored; :meth:`resolve` fills in defaults.  Every
    value is checked against the registry's declaration when the object is made, exactly as
    the measure-string grammar checks it (one routine, :func:`.params.check_values`): unknown
    names, wrong types and values outside the declared ranges are :class:`MeasureError`.  A
    measure may be built without its required values (``Measure("P")``, to compose with
    ``@`` and ``(...)`` as in ``Measure("P")(rel=2) @ 10``); computing it needs them.
    """

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    cutoff: int | float | None = None

    def __init__(
        self,
        name: str | None = None,
        params: Mapping[str, Any] | tuple[tuple[str, Any], ...] = (),
        cutoff: int | float | None = None,
    ) -> None:
        if name is None:  # Measure(): cranfield's error, not the TypeError of a missing argument
            raise MeasureError(
                "Measure() needs a measure name, e.g. Measure('AP'), Measure('P', cutoff=10) "
                "or Measure('nDCG') @ 10 (`cranfield measures` lists them)"
            )
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "cutoff", cutoff)
        self.__post_init__()

    def __post_init__(self) -> None:
        d = _definition(self.name)
        given = _pairs(self.params, d.name)
        try:
            ordered, cutoff = check_values(d, given, self.cutoff, repr(d.name))
        except MeasureError:  # again, to name the whole measure in the message
            check_values(d, given, self.cutoff, _describe(d.name, given, self.cutoff))
            raise
        object.__setattr__(self, "name", d.name)
        object.__setattr__(self, "params", ordered)
        object.__setattr__(self, "cutoff", cutoff)

    @classmethod
    def unchecked(
        cls, name: str, params: tuple[tuple[str, Any], ...] = (), cutoff: Any = None
    ) -> Measure:
        """A measure whose values are *not* checked against the declared ranges.

        For front ends with another tool's parameter rules (``cranfield trec_eval`` takes C
        ``long`` cut-offs and any ``double``); the measure functions accept such values
        without an exception foreign to cranfield and without allocating by a value.
        """
        m = object.__new__(cls)
        object.__setattr__(m, "name", name)
        object.__setattr__(m, "params", tuple(params))
        object.__setattr__(m, "cutoff", cutoff)
        object.__setattr__(m, "_unchecked", True)
        return m

    @property
    def definition(self) -> MeasureDef:
        return REGISTRY[self.name]

    def __str__(self) -> str:
        s = self.name
        if self.params:
            s += "(" + ",".join(f"{k}={format_value(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            s += "@" + format_value(self.cutoff)
        return s

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    def __matmul__(self, k: int | float) -> Measure:
        return Measure(self.name, self.params, k)

    def __call__(self, **params: Any) -> Measure:
        return Measure(self.name, {**dict(self.params), **params}, self.cutoff)

    def resolve(self, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
        """All parameters as keywords for the measure function (``cutoff`` included).

        A measure lacking a required value (``Measure("P")`` without ``@k``) is a
        :class:`MeasureError` here."""
        d = self.definition
        if not getattr(self, "_unchecked", False):
            problem = missing(d, dict(self.params), self.cutoff, repr(str(self)))
            if problem:
                raise MeasureError(problem)
        out: dict[str, Any] = {}
        given = dict(self.params)
        for p in d.params:
            if p.name in given:
                out[p.name] = given[p.name]
            elif defaults and p.name in defaults:
                out[p.name] = defaults[p.name]
            else:
                out[p.name] = p.default
        if d.cutoff is not None:
            out["cutoff"] = self.cutoff
        return out

    def compute(self, jr: Any, defaults: dict[str, Any] | None = None) -> np.ndarray:
        """Per-query values on judged rankings ``jr`` (tie-aware if ``jr.ties == "weak"``)."""
        func = self.definition.function(getattr(jr, "ties", "trec"))
        values = func(jr, **self.resolve(defaults))
        return np.asarray(values, dtype=np.float64)


def _definition(name: Any) -> MeasureDef:
    if not isinstance(name, str):
        raise MeasureError(f"a measure name must be a string like 'P', got {shown(name)}")
    d = lookup(name)
    if d is None:
        raise MeasureError(f"unknown measure {quoted(name)}: {suggest(name)}")
    return d


def _pairs(params: Any, name: str) -> dict[str, Any]:
    """Explicit parameters given as a mapping or as (name, value) pairs, as a dict."""
    items: list[tuple[Any, ...]] | None
    if isinstance(params, Mapping):
        items = list(params.items())
    else:
        try:
            items = [tuple(item) for item in params]
        except TypeError:
            items = None
    if items is None or any(len(item) != 2 for item in items):  # a mapping's items are pairs
        raise MeasureError(
            f"measure {name}: parameters must be a mapping or (name, value) pairs, "
            f"got {shown(params)}"
        )
    out: dict[str, Any] = {}
    for key, value in items:
        if not isinstance(key, str):
            raise MeasureError(f"measure {name}: parameter names are strings, got {shown(key)}")
        if key in out:
            raise MeasureError(f"measure {name}: parameter {key} given twice")
        out[key] = value
    return out


def _describe(name: str, params: Mapping[str, Any], cutoff: Any) -> str:
    """A measure as text for messages, whatever its values."""

    def text(v: Any) -> str:
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
            return shown(v)
        if isinstance(v, str):
            return v if len(v) <= 40 else v[:30] + "..."
        if isinstance(v, bool | int | float):
            return format_value(v)
        if isinstance(v, dict) and all(isinstance(x, int | float) for x in (*v, *v.values())):
            return "{" + ",".join(f"{text(k)}:{text(g)}" for k, g in v.items()) + "}"
        return shown(v)

    s = name
    if params:
        s += "(" + ",".join(f"{k}={text(v)}" for k, v in params.items()) + ")"
    if cutoff is not None:
        s += "@" + text(cutoff)
    return repr(s)


def quoted(text: str) -> str:
    """A measure string quoted for a message (a long one shortened)."""
    return repr(text if len(text) <= 120 else text[:100] + "...")


def _missing_at(name: str) -> str | None:
    """``nDCG@10`` for ``nDCG10`` (or ``nDCG-10``): a measure name that takes a cut-off,
    followed by a number without the ``@``; None otherwise."""
    m = re.fullmatch(r"(.*?[A-Za-z])[-_]?([0-9]+)", name)
    if m is None:
        return None
    d = lookup(m[1])
    return None if d is None or d.cutoff is None else f"{d.name}@{int(m[2])}"


def suggest(name: str, text: str = "") -> str:
    """The nearest measure names, cranfield's and trec_eval's printed ones (error path)."""
    from cranfield.measures.trec_names import dotted_hint, printed_examples

    names = all_names() + printed_examples()
    lowered = {n.lower(): n for n in reversed(names)}  # a cranfield name wins over trec_eval's
    import difflib

    close = [lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), 4, 0.5)]
    at = _missing_at(name)
    if at is not None:  # nDCG10: the cut-off without its '@' comes first
        close = [at, *(c for c in close if c != at)][:4]
    hint = dotted_hint(text or name)
    if close:
        return "did you mean " + ", ".join(close) + "?" + hint
    return "run 'cranfield measures' for the list" + hint
