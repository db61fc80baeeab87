"""What a measure declaration is: the :class:`MeasureDef` that :func:`.registry.measure` builds
from a decorator's arguments, its parts (:class:`Undefined`, :class:`TrecEval`), the vocabulary
they are checked against (:data:`BETTER`, :data:`NEEDS`, ...), and the parameters many measures
share (:data:`CUTOFF`, :data:`REL`, ...).  :mod:`.registry` keeps the declarations and finds them
by name; a measure module imports all of these from there (the module docstring's recipe).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from cranfield.errors import MeasureError
from cranfield.measures.params import INT64_MAX, MAX_COUNT, REQUIRED, Param

__all__ = [
    "AGGREGATES",
    "BETTER",
    "CUTOFF",
    "CUTOFF_OPTIONAL",
    "GM_EPS",
    "JUDGED_ONLY",
    "NEEDS",
    "REL",
    "SAME",
    "TIE_FORMS",
    "TREC_KINDS",
    "TREC_PARAMS",
    "MeasureDef",
    "TrecEval",
    "Undefined",
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
            from cranfield.measures.registry import REGISTRY  # (which imports this module)

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
        from cranfield.measures.measure_object import format_value

        def shown(p: Param) -> str:
            if p.required:
                return "<required>"
            return "none" if p.default is None else format_value(p.default)

        inner = ",".join(f"{p.name}={shown(p)}" for p in self.params)
        s = self.name + (f"({inner})" if inner else "")
        if self.cutoff is not None:
            s += "@k" if self.cutoff.required else "[@k]"
        return s
