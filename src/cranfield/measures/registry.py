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
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from cranfield.errors import MeasureError
from cranfield.measures.params import INT64_MAX, MAX_COUNT, REQUIRED, Param

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

BETTER = ("higher", "lower", "none")
"""Directions: a higher value is better, a lower one, or neither (counts, diagnostics)."""
SAME = "same"
"""``ties=SAME``: the measure does not depend on the order of the ranking (a count of the
qrels, the number retrieved), so it is its own tie-aware form."""
TIE_FORMS = ("expectation", "definition")
"""What a declared tie-aware form is (``MeasureDef.tie_form``)."""
AGGREGATES = ("mean", "sum", "gmean")
"""Default statistics over queries: the mean, the sum (counts), the geometric mean (GMAP)."""
NEEDS = ("collection_size", "known", "target", "prefs", "judgment_groups", "subtopics")
"""Side inputs a measure may need beyond the qrels and the run
(``cranfield.judging.side_inputs``)."""
TREC_KINDS = ("double", "long", "gm", "num_q")
"""How trec_eval prints and summarises a value: ``%6.4f`` mean, integer sum, geometric mean, or
the number of queries (printed for any rel_info format)."""
TREC_PARAMS = ("none", "long_cutoffs", "double_cutoffs", "doubles", "pairs")
"""trec_eval's parameter syntaxes (``-m P.5,10``, ``-m iprec_at_recall..1,.5``, ``-m
utility.1,-1,0,0``, ``-m ndcg.1=2,2=5``)."""


class Undefined(NamedTuple):
    """A case where a measure is undefined, the value declared for it, and how to find it."""

    when: str
    value: str
    mask: Callable[..., np.ndarray]


@dataclass(frozen=True)
class TrecEval:
    """How trec_eval 10.0 names a measure and prints it (docs/trec_eval.md).

    ``name``: the name of ``-m`` (``P``, ``map_cut``); ``kind``: ``double``, ``long`` or ``gm``
    (:data:`TREC_KINDS`); ``params``: the parameter syntax (:data:`TREC_PARAMS`) and
    ``default`` the parameters trec_eval uses without any; ``compute``: the name of the
    adapter in ``cranfield.compat.adapters`` that turns trec_eval's parameters into this
    measure's (``single``, ``per_cutoff``, ``gained``, or one of its own); ``printed``: the
    printed name as the docs show it (``P_k``).
    """

    name: str
    kind: str = "double"
    params: str = "none"
    default: tuple[Any, ...] = ()
    compute: str = "single"
    printed: str = ""
    rel_format: str = "qrels"
    """trec_eval's ``-R`` format the measure needs: ``qrels``, ``prefs`` or ``qrels_jg``."""

    def __post_init__(self) -> None:
        if self.kind not in TREC_KINDS or self.params not in TREC_PARAMS:
            raise ValueError(f"trec_eval {self.name}: bad kind {self.kind} or params {self.params}")

    @property
    def shown(self) -> str:
        return self.printed or self.name


@dataclass(frozen=True)
class MeasureDef:
    """A registry entry: everything a measure is (see the module docstring)."""

    name: str
    func: Callable[..., np.ndarray]
    params: tuple[Param, ...]
    cutoff: Param | None
    summary: str
    formula: str
    source: str
    better: str
    aggregate: str
    undefined: tuple[Undefined, ...]
    tie_aware: Callable[..., np.ndarray] | None
    """Same signature as ``func``: the expectation over uniformly random tie-breaking, used
    under the ``weak`` tie policy (the tie groups of the judged rankings are the levels)."""
    no_tie_aware: str
    """Why there is no tie-aware form (empty when there is one)."""
    checked_by: tuple[str, ...]
    """``tests/file.py::test_name`` of the tests that check the measure."""
    order_invariant: bool = False
    """Declared ``ties="same"``: no order of the ranking changes the value, so the plain form
    is its own tie-aware form."""
    needs: tuple[str, ...] = ()
    trec_eval: tuple[TrecEval, ...] = ()
    integer: bool = False
    aliases: tuple[str, ...] = ()
    notes: str = ""
    micro: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None
    """``f(jr, **params) -> (num, den)`` per query, for micro averaging (sum num / sum den)."""
    tie_form: str = "expectation"
    """What the tie-aware form is: ``"expectation"``, the plain value's expectation over
    uniformly random tie-breaking (checked against brute force for every declaration,
    tests/ties/test_ties_generated.py), or ``"definition"``, the source's own definition on weak
    orderings (PRR: P(rel | retr), not an expected precision), checked by the tests the
    declaration names."""
    declared_family: str | None = None
    """``family=`` of a measure declared outside the package (a test's, a user's own)."""
    check: Callable[[dict[str, Any]], str | None] | None = None
    """Checks the explicitly given parameters together (e.g. "exactly one of NR, recall");
    returns a problem description or ``None``."""
    better_by: Callable[[dict[str, Any]], str] | None = None
    """The direction for given (resolved) parameters, when a parameter changes what the value
    is (a C/W/L measure's ``of=EC`` is a cost, not a utility); ``better`` is the default's."""
    core_kernel: str | None = None
    """The per-query kernel of the compiled core that computes this measure in small
    in-memory evaluations (:mod:`cranfield.measures.core_kernels`), bit for bit as ``func``
    (the generated test tests/measures/test_core_kernels.py holds every one to it)."""

    def better_for(self, params: dict[str, Any]) -> str:
        """``better`` for these resolved parameters (see :attr:`better_by`)."""
        return self.better if self.better_by is None else self.better_by(params)

    def function(self, ties: str = "trec") -> Callable[..., np.ndarray]:
        """The function computing this measure under tie policy ``ties``."""
        if ties != "weak":
            return self.func
        if self.tie_aware is None:
            raise MeasureError(
                f"measure {self.name} has no tie-aware form ({self.no_tie_aware}), so it cannot "
                "be computed with ties=weak (--ties weak); use another tie policy, or one of: "
                + ", ".join(sorted(n for n, d in REGISTRY.items() if d.tie_aware is not None))
            )
        return self.tie_aware

    @property
    def aggregations(self) -> tuple[str, ...]:
        """The statistics over queries a user may ask for, the default first: counts are summed
        or averaged; other measures averaged (arithmetic or geometric, or the median), and
        micro-averaged when they declare their per-query parts."""
        if self.aggregate == "sum":
            return ("sum", "mean", "median")
        rest = [a for a in ("mean", "gmean", "median") if a != self.aggregate]
        return (self.aggregate, *rest, *(("micro",) if self.micro is not None else ()))

    @property
    def trec(self) -> str:
        """trec_eval's printed names, for listings (``map / map_cut_k``)."""
        return " / ".join(t.shown for t in self.trec_eval)

    def param(self, name: str) -> Param | None:
        if self.cutoff is not None and name == "cutoff":
            return self.cutoff
        return next((p for p in self.params if p.name == name), None)

    @property
    def family(self) -> str:
        """The family: the label of the declaring module (``measures/families.py``, LABELS),
        never a free label; a measure declared outside the package is of the family it names,
        or of its module."""
        package, _, module = (self.func.__module__ or "").rpartition(".")
        if package != __package__:
            return self.declared_family or module
        from cranfield.measures.families import LABELS

        return LABELS[module]

    @property
    def all_params(self) -> tuple[Param, ...]:
        return ((self.cutoff,) if self.cutoff is not None else ()) + self.params

    def signature(self) -> str:
        """``P(rel=1,judged_only=false)@k`` style synopsis with defaults."""
        from cranfield.measures.parse import format_value

        def shown(p: Param) -> str:
            if p.required:
                return "<required>"
            return "none" if p.default is None else format_value(p.default)

        inner = ",".join(f"{p.name}={shown(p)}" for p in self.params)
        s = self.name + (f"({inner})" if inner else "")
        if self.cutoff is not None:
            s += "@k" if self.cutoff.required else "[@k]"
        return s


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
