"""The measure registry: a measure is one function and one declaration.

A measure function takes a :class:`~cranfield.judging.rankings.JudgedRankings` and its
parameters as keywords (``cutoff`` for the ``@k`` part) and returns one float per query.  The
:func:`measure` decorator above it states everything else, and the rest of the package reads
only that: the grammar of measure strings, ``cranfield measures`` (text, ``--short``,
``--format json``), the tables of ``docs/measures.md``, ``docs/trec_eval.md`` and
``docs/ties.md``, the trec_eval front end's catalogue, the command line's help for side
inputs, and the direction ``compare`` ranks by.  One test
(``tests/measures/test_registry.py``) walks the registry and fails for an entry that lacks a piece.

Adding a measure (this runs: ``tests/measures/test_registry.py`` executes it)::

    import numpy as np
    from cranfield.measures.registry import CUTOFF, REL, measure
    from cranfield.measures.kernels.counting import rel_count_at

    @measure(
        "Hits",
        cutoff=CUTOFF,
        params=(REL,),
        summary="relevant documents in the top k",
        formula="Hits@k = rel(k)",
        source="Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999, sec. 3.2.1",
        better="higher",
        undefined=(),
        ties=None,
        no_ties="not derived yet",
        checked_by=("tests/measures/test_registry.py::test_the_recipe_runs",),
    )
    def hits(jr, *, cutoff, rel):
        return rel_count_at(jr, rel, cutoff).astype(np.float64)

The declaration's parts: ``better`` (``higher``, ``lower``, or ``none`` for counts and
diagnostics, which ``compare`` does not rank; ``better_by`` when a parameter changes it);
``aggregate`` (the default statistic over queries; ``micro=`` adds Keen's micro average);
``ties`` (the tie-aware form, the expectation over random tie-breaking used under ``--ties
weak``, defined next to the plain one; ``SAME`` when no order changes the value) or
``no_ties`` (why it has none); ``needs`` (side inputs: ``collection_size``, ``known``,
``target``, ``prefs``, ``judgment_groups``, ``subtopics``); ``trec_eval`` (its trec_eval
name(s), parameter syntax and output format, see :class:`TrecEval`); ``undefined`` (the cases
where it is undefined and the value declared for them); ``core_kernel`` (the compiled
core's per-query kernel of it, for small in-memory evaluations); ``source`` (paper, section,
equation); ``checked_by`` (the tests that check it against a worked example or an
independent oracle).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import numpy as np

from cranfield.measures.declaration import (  # the declaration's vocabulary, imported from here
    AGGREGATES,
    BETTER,
    CUTOFF,
    CUTOFF_OPTIONAL,
    GM_EPS,
    JUDGED_ONLY,
    NEEDS,
    REL,
    SAME,
    TIE_FORMS,
    MeasureDef,
    TrecEval,
    Undefined,
)
from cranfield.measures.params import REQUIRED, Param

__all__ = [
    "BETTER",
    "CUTOFF",
    "CUTOFF_OPTIONAL",
    "GM_EPS",
    "JUDGED_ONLY",
    "NEEDS",
    "REGISTRY",
    "REL",
    "REQUIRED",
    "SAME",
    "MeasureDef",
    "Param",
    "TrecEval",
    "Undefined",
    "lookup",
    "measure",
]


class Registry(MutableMapping[str, MeasureDef]):
    """Measure name -> :class:`MeasureDef`.  Family modules declare their measures on import;
    a name is looked up in the generated index (:mod:`.index`) and only its module imported,
    so evaluating AP does not import the diversity measures.  Listing the registry imports
    every family (:mod:`.families`) and lists the measures in the families' order, each
    family's in the order of its declarations, whatever was asked for first."""

    def __init__(self) -> None:
        self._defs: dict[str, MeasureDef] = {}
        self._seq: dict[str, int] = {}

    def declare(self, d: MeasureDef) -> None:
        self._defs[d.name] = d
        self._seq[d.name] = len(self._seq)

    def __getitem__(self, name: str) -> MeasureDef:
        d = self._defs.get(name)
        if d is None and _import_family_of(name):
            d = self._defs.get(name)
        if d is None:
            from cranfield.measures.families import load_all

            if load_all():
                d = self._defs.get(name)
        if d is None:
            raise KeyError(name)
        return d

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._defs or name in _index().MEASURES)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ordered())

    def __len__(self) -> int:
        return len(self._ordered())

    def __setitem__(self, name: str, d: MeasureDef) -> None:
        if name != d.name:
            raise ValueError(f"measure {d.name!r} registered as {name!r}")
        self.declare(d)

    def __delitem__(self, name: str) -> None:
        del self._defs[name]
        del self._seq[name]

    def _ordered(self) -> list[str]:
        from cranfield.measures.families import FAMILIES, load_all

        load_all()
        where = _index().MEASURES
        rank = {f: i for i, f in enumerate(FAMILIES)}
        last = len(FAMILIES)  # measures registered outside the families: after them
        return sorted(self._defs, key=lambda n: (rank.get(where.get(n, ""), last), self._seq[n]))


def _index() -> Any:
    from cranfield.measures import index

    return index


def _import_family_of(name: str) -> bool:
    """Import the family module that the index says declares ``name`` (a measure or an
    alias); whether there is one."""
    import importlib

    ix = _index()
    family = ix.MEASURES.get(ix.ALIASES.get(name, name))
    if family is None:
        return False
    importlib.import_module(f"{__package__}.{family}")
    return True


REGISTRY = Registry()
_ALIASES: dict[str, str] = {}


def measure(
    name: str,
    *,
    summary: str,
    formula: str,
    source: str,
    better: str,
    undefined: tuple[Undefined, ...],
    ties: Callable[..., np.ndarray] | str | None,
    checked_by: tuple[str, ...],
    no_ties: str = "",
    cutoff: Param | None = None,
    params: tuple[Param, ...] = (),
    aggregate: str = "mean",
    needs: tuple[str, ...] = (),
    trec_eval: TrecEval | tuple[TrecEval, ...] = (),
    integer: bool = False,
    aliases: tuple[str, ...] = (),
    notes: str = "",
    micro: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None,
    check: Callable[[dict[str, Any]], str | None] | None = None,
    better_by: Callable[[dict[str, Any]], str] | None = None,
    family: str | None = None,
    tie_form: str = "expectation",
    core_kernel: str | None = None,
) -> Callable[[Callable[..., np.ndarray]], Callable[..., np.ndarray]]:
    """Register the decorated function as measure ``name``: see the module docstring.

    ``better``, ``undefined``, ``ties`` and ``checked_by`` have no default: each declaration
    says them (``undefined=()`` when the measure is defined everywhere, ``ties=None`` with
    ``no_ties=`` the reason when it has no tie-aware form).
    """
    if better not in BETTER:
        raise ValueError(f"measure {name}: better must be one of {BETTER}")
    if aggregate not in AGGREGATES:
        raise ValueError(f"measure {name}: aggregate must be one of {AGGREGATES}")
    if isinstance(ties, str) and ties != SAME:
        raise ValueError(f"measure {name}: ties= is a function, {SAME!r} or None")
    if (ties is None) == (not no_ties):
        raise ValueError(f"measure {name}: give ties= (a tie-aware form) or no_ties= (why none)")
    if tie_form not in TIE_FORMS:
        raise ValueError(f"measure {name}: tie_form must be one of {TIE_FORMS}")
    if not checked_by or not source:
        raise ValueError(f"measure {name}: source= and checked_by= are required")
    unknown = set(needs) - set(NEEDS)
    if unknown:
        raise ValueError(f"measure {name}: unknown side input {sorted(unknown)}; one of {NEEDS}")
    trec = (trec_eval,) if isinstance(trec_eval, TrecEval) else tuple(trec_eval)

    def deco(func: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        if family is not None and func.__module__.startswith(f"{__package__}."):
            raise ValueError(
                f"measure {name}: family= is for measures declared outside the package; a "
                "family module's label is in measures/families.py (LABELS)"
            )
        for n in (name, *aliases):
            if n not in REGISTRY._defs and n not in _ALIASES:
                _import_family_of(n)  # a family's name: the family first, so a clash shows now
            if n in REGISTRY._defs or n in _ALIASES:
                raise ValueError(f"measure name {n!r} registered twice")
        REGISTRY.declare(
            MeasureDef(
                name=name,
                func=func,
                params=params,
                cutoff=cutoff,
                summary=summary,
                formula=formula,
                source=source,
                declared_family=family,
                tie_form=tie_form,
                better=better,
                aggregate=aggregate,
                undefined=tuple(undefined),
                tie_aware=func if ties == SAME else ties,  # type: ignore[arg-type]
                order_invariant=ties == SAME,
                no_tie_aware=no_ties,
                checked_by=tuple(checked_by),
                needs=tuple(needs),
                trec_eval=trec,
                integer=integer,
                aliases=aliases,
                notes=notes,
                micro=micro,
                check=check,
                better_by=better_by,
                core_kernel=core_kernel,
            )
        )
        for a in aliases:
            _ALIASES[a] = name
        return func

    return deco


def unregister(name: str) -> None:
    """Remove measure ``name`` and its aliases (tests that register a measure clean up)."""
    d = REGISTRY._defs[name]
    del REGISTRY[name]
    for a in d.aliases:
        _ALIASES.pop(a, None)


def lookup(name: str) -> MeasureDef | None:
    """The entry for a name or alias; a case-insensitive match if it is unique.  A name the
    index does not know imports every family (an index older than a declaration is slow,
    never wrong)."""
    d = _find(name)
    if d is None:
        from cranfield.measures.families import load_all

        if load_all():
            d = _find(name)
    return d


def _find(name: str) -> MeasureDef | None:
    d = _exact(name)
    if d is None and (other := _case_insensitive(name)) is not None:
        d = _exact(other)
    return d


def _exact(n: str) -> MeasureDef | None:
    if n not in REGISTRY._defs and n not in _ALIASES:
        _import_family_of(n)
    if n in REGISTRY._defs:
        return REGISTRY._defs[n]
    if n in _ALIASES:
        return REGISTRY._defs[_ALIASES[n]]
    return None


def _case_insensitive(name: str) -> str | None:
    """The one name or alias equal to ``name`` but for case (``None``: none, or several
    measures)."""
    ix = _index()
    low = name.lower()
    canon = {**{n: n for n in ix.MEASURES}, **ix.ALIASES, **{n: n for n in REGISTRY._defs}}
    canon.update(_ALIASES)
    hits: dict[str, str] = {n: c for n, c in canon.items() if n.lower() == low}
    if len(set(hits.values())) != 1 or name in hits:
        return None
    return min(hits)


def all_names() -> list[str]:
    ix = _index()
    return sorted(set(ix.MEASURES) | set(ix.ALIASES) | set(REGISTRY._defs) | set(_ALIASES))
