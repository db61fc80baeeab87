"""The measure registry: every measure is a pure function plus one entry here.

A measure function takes a :class:`~cranfield.judged_rankings.JudgedRankings` and its parameters as
keywords (``cutoff`` for the ``@k`` part) and returns one float per query.  Its entry gives the
name, parameters with defaults, aggregation, one-line formula and source; the parser, the
``cranfield measures`` listing and the docs table all read the same entries.

Adding a measure::

    @measure("P", cutoff=CUTOFF, params=(REL,), family="precision",
             formula="P@k = rel(k) / k", source="Baeza-Yates & Ribeiro-Neto, sec. 3.2.1")
    def precision(jr, *, cutoff, rel):
        ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from ..errors import MeasureError
from .params import INT64_MAX, MAX_COUNT, REQUIRED, Param

__all__ = [
    "CUTOFF",
    "CUTOFF_OPTIONAL",
    "GM_EPS",
    "JUDGED_ONLY",
    "REGISTRY",
    "REL",
    "REQUIRED",
    "MeasureDef",
    "Param",
    "Undefined",
    "lookup",
    "measure",
    "tie_aware_form",
]


CUTOFF = Param(
    "cutoff", "int", REQUIRED, "rank cut-off k (the @k part)", at_least=1, at_most=MAX_COUNT
)
CUTOFF_OPTIONAL = Param(
    "cutoff",
    "int",
    None,
    "rank cut-off k (the @k part); none: whole ranking",
    at_least=1,
    at_most=MAX_COUNT,
)
REL = Param(
    "rel",
    "int",
    1,
    "minimum grade counted relevant (trec_eval -l)",
    at_least=0,
    at_most=INT64_MAX,
)
GM_EPS = Param(
    "eps",
    "float",
    1e-5,
    "floor of the per-query value before the logarithm (trec_eval MIN_GEO_MEAN)",
    above=0.0,
    at_most=1.0,
)
JUDGED_ONLY = Param("judged_only", "bool", False, "ignore unjudged documents (trec_eval -J)")


class Undefined(NamedTuple):
    """A case where a measure is undefined, the value declared for it, and how to find it."""

    when: str
    value: str
    mask: Callable[..., np.ndarray]


@dataclass(frozen=True)
class MeasureDef:
    """A registry entry."""

    name: str
    func: Callable[..., np.ndarray]
    params: tuple[Param, ...]
    cutoff: Param | None
    summary: str
    formula: str
    source: str
    family: str
    aggregate: str = "mean"
    integer: bool = False
    aliases: tuple[str, ...] = ()
    undefined: tuple[Undefined, ...] = ()
    trec: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict)
    micro: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None
    """``f(jr, **params) -> (num, den)`` per query, for micro averaging (sum num / sum den)."""
    tie_aware: Callable[..., np.ndarray] | None = None
    """Same signature as ``func``: the expectation over uniformly random tie-breaking, used
    under the ``weak`` tie policy (the tie groups of the judged rankings are the levels)."""
    check: Callable[[dict[str, Any]], str | None] | None = None
    """Checks the explicitly given parameters together (e.g. "exactly one of NR, recall");
    returns a problem description or ``None``."""

    def function(self, ties: str = "trec") -> Callable[..., np.ndarray]:
        """The function computing this measure under tie policy ``ties``."""
        if ties != "weak":
            return self.func
        if self.tie_aware is None:
            have = ", ".join(sorted(n for n, d in REGISTRY.items() if d.tie_aware is not None))
            raise MeasureError(
                f"measure {self.name} has no tie-aware form, so it cannot be computed with "
                f"ties=weak (--ties weak); use another tie policy, or one of: {have}"
            )
        return self.tie_aware

    def param(self, name: str) -> Param | None:
        if self.cutoff is not None and name == "cutoff":
            return self.cutoff
        return next((p for p in self.params if p.name == name), None)

    @property
    def all_params(self) -> tuple[Param, ...]:
        return ((self.cutoff,) if self.cutoff is not None else ()) + self.params

    def signature(self) -> str:
        """``P(rel=1,judged_only=false)@k`` style synopsis with defaults."""
        from .parse import format_value

        def shown(p: Param) -> str:
            if p.required:
                return "<required>"
            return "none" if p.default is None else format_value(p.default)

        inner = ",".join(f"{p.name}={shown(p)}" for p in self.params)
        s = self.name + (f"({inner})" if inner else "")
        if self.cutoff is not None:
            s += "@k" if self.cutoff.required else "[@k]"
        return s


REGISTRY: dict[str, MeasureDef] = {}
_ALIASES: dict[str, str] = {}

AGGREGATES = ("mean", "sum", "gmean", "count", "none")


def measure(
    name: str,
    *,
    summary: str,
    formula: str,
    source: str,
    family: str,
    cutoff: Param | None = None,
    params: tuple[Param, ...] = (),
    aggregate: str = "mean",
    integer: bool = False,
    aliases: tuple[str, ...] = (),
    undefined: tuple[Undefined, ...] = (),
    trec: str = "",
    notes: str = "",
    micro: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None,
    tie_aware: Callable[..., np.ndarray] | None = None,
    check: Callable[[dict[str, Any]], str | None] | None = None,
) -> Callable[[Callable[..., np.ndarray]], Callable[..., np.ndarray]]:
    """Register ``func`` as measure ``name`` (decorator)."""
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}")

    def deco(func: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        for n in (name, *aliases):
            if n in REGISTRY or n in _ALIASES:
                raise ValueError(f"measure name {n!r} registered twice")
        REGISTRY[name] = MeasureDef(
            name=name,
            func=func,
            params=params,
            cutoff=cutoff,
            summary=summary,
            formula=formula,
            source=source,
            family=family,
            aggregate=aggregate,
            integer=integer,
            aliases=aliases,
            undefined=undefined,
            trec=trec,
            notes=notes,
            micro=micro,
            tie_aware=tie_aware,
            check=check,
        )
        for a in aliases:
            _ALIASES[a] = name
        return func

    return deco


def set_micro(name: str, micro: Callable[..., tuple[np.ndarray, np.ndarray]]) -> None:
    """Declare the micro-average parts ``(num, den)`` of an already registered measure."""
    from dataclasses import replace

    REGISTRY[name] = replace(REGISTRY[name], micro=micro)


def tie_aware_form(
    name: str,
) -> Callable[[Callable[..., np.ndarray]], Callable[..., np.ndarray]]:
    """Register ``func`` as the tie-aware form of the already registered measure ``name``."""

    def deco(func: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        d = REGISTRY[name]
        if d.tie_aware is not None:
            raise ValueError(f"measure {name!r} has a tie-aware form already")
        REGISTRY[name] = replace(d, tie_aware=func)
        return func

    return deco


def lookup(name: str) -> MeasureDef | None:
    """The entry for a name or alias; a case-insensitive match if it is unique."""
    if name in REGISTRY:
        return REGISTRY[name]
    if name in _ALIASES:
        return REGISTRY[_ALIASES[name]]
    low = name.lower()
    hits = {
        canon
        for n, canon in [(k, k) for k in REGISTRY] + list(_ALIASES.items())
        if n.lower() == low
    }
    if len(hits) == 1:
        return REGISTRY[hits.pop()]
    return None


def all_names() -> list[str]:
    return sorted(set(REGISTRY) | set(_ALIASES))
