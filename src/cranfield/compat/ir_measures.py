"""ir_measures' API on cranfield's measures: change ``import ir_measures`` to
``from cranfield.compat import ir_measures``.

The measure objects and their grammar (``AP``, ``nDCG@10``, ``P(rel=2)@5``,
:func:`parse_measure`, :func:`parse_trec_measure`), :func:`calc_aggregate`, :func:`iter_calc`
(yielding :class:`Metric`), :func:`evaluator`, :func:`read_trec_qrels` /
:func:`read_trec_run` and the :class:`Qrel` / :class:`ScoredDoc` records.  Qrels and runs may be
given in any form cranfield reads (dicts, DataFrames, records, paths).

The measures ir_measures' default pipeline gives to pytrec_eval (``AP``, ``P``, ``R``, ``RR``,
``nDCG``, ``Rprec``, ``Bpref``, ``infAP``, ``IPrec``, ``Success``, ``Set*``) are computed as that
provider computes them, by :mod:`cranfield.compat.pytrec_eval` (trec_eval 9.0.8's values, bit
for bit: single-precision scores, ``IPrec``'s recall levels, ``set_F``'s beta squared), one
evaluator per relevance level and ``judged_only`` as ir_measures makes them.  The others become
cranfield measures through the one mapping cranfield has for ir_measures' objects
(:func:`cranfield.measures.peer_measures.from_ir_measures`: its names, its defaults where they
differ from cranfield's, such as ``RBP``'s ``p=0.8``), aiming at their default providers:
``cwl_eval`` for ``BPM``, ``INST``, ``INSQ``, ``SDCG``, ``NERR*``, gdeval for ``ERR``, ir_measures'
own code for ``Judged`` and ``Compat``, trec_eval's counts for ``NumQ``, ``NumRel``, ``NumRet``
(docs/coming-from.md lists them).  As in ir_measures, every judged query is evaluated (one the
run lacks scores 0), queries without judgments are left out, and the aggregate is each
measure's (the mean; a sum for ``NumRet``, ``NumRel``...).
``Accuracy`` follows ir_measures' accuracy provider (cranfield's ``PairAccuracy``, the queries
it leaves out left out); :func:`define` and :func:`define_byquery` call the user's function on
pandas DataFrames as its runtime provider does (:mod:`.ir_measures_frames`).
The diversity measures (``alpha_nDCG``, ``*_IA``, ``NRBP``, ``StRecall``) need subtopic
judgments and are not offered here: use :func:`cranfield.evaluate` with ``subtopics=``.
``Compat`` and ``Judged`` are computed as their providers compute them; ``NumQ`` and
``NumRel`` are 0 for a judged query the run lacks, as in ir_measures.  Known differences:
docs/coming-from.md.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from cranfield.compat.ir_measures_frames import QREL_INPUTS, RUN_INPUTS
from cranfield.compat.ir_measures_names import (
    ALIASES,
    DECLARED,
    NUMBERS,
    TREC_NAMES,
    TREC_PARAM,
)
from cranfield.compat.ir_measures_names import NOT_PROVIDED as NOT_PROVIDED  # ir_measures' name
from cranfield.compat.ir_measures_plan import Plan, results
from cranfield.compat.ir_measures_records import (
    CalcResults,
    Metric,
    Qrel,
    ScoredDoc,
    read_trec_qrels,
    read_trec_run,
)
from cranfield.errors import MeasureError

__all__ = [
    "CalcResults",
    "DefaultPipeline",
    "Measure",
    "Metric",
    "Qrel",
    "ScoredDoc",
    "accuracy",
    "calc",
    "calc_aggregate",
    "compat",
    "define",
    "define_byquery",
    "evaluator",
    "iter_calc",
    "judged",
    "parse_measure",
    "parse_trec_measure",
    "providers",
    "pytrec_eval",
    "read_trec_qrels",
    "read_trec_run",
    "runtime",
]


class _Param(NamedTuple):
    default: Any


class Measure:
    """One ir_measures measure: ``nDCG``, ``nDCG@10``, ``P(rel=2)@5``.  Immutable; ``@k``
    and ``(name=value)`` make new ones.  Equal (and hashed) by name and parameters."""

    __slots__ = ("AT_PARAM", "NAME", "SUPPORTED_PARAMS", "__name__", "params")

    def __init__(self, name: str, params: Mapping[str, Any] | None = None, shown: str = ""):
        at, declared = DECLARED[name]
        self.NAME = name
        self.AT_PARAM = at
        self.SUPPORTED_PARAMS = {k: _Param(v) for k, v in declared.items()}
        self.params = dict(params or {})
        self.__name__ = shown or name
        for key in self.params:
            if key not in declared:
                raise MeasureError(
                    f"{self.__name__}: unknown parameter {key!r} (it takes "
                    f"{', '.join(declared) or 'none'})"
                )

    def __call__(self, **params: Any) -> Measure:
        return Measure(self.NAME, {**self.params, **params}, self.__name__)

    def __matmul__(self, at: Any) -> Measure:
        return self(**{self.AT_PARAM: at})

    def __repr__(self) -> str:
        """As ir_measures prints it: the parameters in the given order, those equal to their
        default left out, a dict's items sorted and those mapping a value to itself left out
        (so ``nDCG(gains={1: 2, 0: 1})`` prints ``nDCG(gains={0:1,1:2})``)."""
        rest = [
            f"{k}={_param_repr(v)}"
            for k, v in self.params.items()
            if k != self.AT_PARAM and v != self.SUPPORTED_PARAMS[k].default
        ]
        text = self.NAME  # ir_measures prints the measure, not the alias (MAP is AP)
        if rest:
            text += "(" + ",".join(rest) + ")"
        if self.AT_PARAM in self.params:
            text += f"@{self.params[self.AT_PARAM]}"
        return text

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:  # by what it prints, as ir_measures
        return isinstance(other, Measure) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def iter_calc(self, qrels: Any, run: Any) -> Iterator[Metric]:
        """This measure's :func:`iter_calc`."""
        return iter_calc([self], qrels, run)

    def calc_aggregate(self, qrels: Any, run: Any) -> float:
        """This measure's value over the queries (:func:`calc_aggregate`)."""
        return calc_aggregate([self], qrels, run)[self]

    def calc(self, qrels: Any, run: Any) -> CalcResults:
        """``(value over the queries, the per-query Metric records)`` (:func:`calc`)."""
        aggregated, per_query = calc([self], qrels, run)
        return CalcResults(aggregated[self], per_query)

    def evaluator(self, qrels: Any) -> _Evaluator:
        """An :func:`evaluator` of this measure."""
        return evaluator([self], qrels)

    def cranfield(self):
        """The cranfield :class:`~cranfield.measures.Measure` that computes this one."""
        from cranfield.measures.peer_measures import from_ir_measures

        return from_ir_measures(self)


def _param_repr(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{x}" for k, x in sorted(v.items()) if k != x) + "}"
    return repr(v)


def _measure(name: str) -> Measure:
    if name in ALIASES:
        base, params = ALIASES[name]
        return Measure(base, params, name)
    return Measure(name)


for _name in [*DECLARED, *ALIASES]:
    globals()[_name] = _measure(_name)
__all__ += list(DECLARED) + list(ALIASES)

_GRAMMAR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*(?:@\s*(\S+))?\s*$")


def parse_measure(text: Measure | str) -> Measure:
    """``AP``, ``nDCG@10``, ``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10`` as a measure object
    (parameter values are Python literals, as in ir_measures)."""
    if isinstance(text, Measure):
        return text
    m = _GRAMMAR.match(text) if isinstance(text, str) else None
    if m is None:
        raise MeasureError(f"{text!r} is not a measure such as 'nDCG@10' or 'P(rel=2)@5'")
    name, args, at = m.groups()
    if name not in DECLARED and name not in ALIASES:
        raise MeasureError(f"unknown measure {name!r} in {text!r}")
    measure = _measure(name)
    if args:
        try:
            call = ast.parse(f"f({args})", mode="eval").body
            kw = {k.arg: ast.literal_eval(k.value) for k in call.keywords}  # type: ignore[attr-defined]
        except (SyntaxError, ValueError) as exc:
            raise MeasureError(f"{text!r}: bad parameters ({exc})") from None
        if call.args or None in kw:  # type: ignore[attr-defined]
            raise MeasureError(f"{text!r}: parameters are written name=value")
        measure = measure(**kw)
    if at is not None:
        try:
            value = ast.literal_eval(at)
        except (SyntaxError, ValueError):
            raise MeasureError(f"{text!r}: {at!r} after '@' is not a number") from None
        measure = measure @ value
    return measure


def parse_trec_measure(text: str) -> list[Measure]:
    """A trec_eval measure name (``P_5``, ``ndcg_cut.10,20``, ``map``) or nickname
    (``official``: the measures of its names, sorted, that ir_measures has) as measure
    objects."""
    from cranfield.compat.pytrec_eval import supported_nicknames

    if text in supported_nicknames:
        out = []
        for name in sorted(supported_nicknames[text]):
            try:
                out += parse_trec_measure(name)
            except MeasureError:  # gm_map, runid...: measures ir_measures does not have
                continue
        return out
    base, args = text, ""
    for name in sorted(TREC_NAMES, key=len, reverse=True):
        rest = text[len(name) + 1 :]
        sep = text[len(name) : len(name) + 1]
        if text.startswith(name) and sep in ("_", ".") and re.fullmatch(NUMBERS, rest):
            base, args = name, rest
            break
    if base not in TREC_NAMES:
        raise MeasureError(f"{text!r} is not a trec_eval measure ir_measures knows")
    measure = _measure(TREC_NAMES[base])
    if not args:
        from cranfield.compat.trec_eval.catalogue import BY_NAME

        te = BY_NAME[base]  # a family of cut-offs: trec_eval's default ones (P: 5, 10, ...)
        if te.params in ("long_cutoffs", "double_cutoffs") and base != "ndcg":
            return [measure @ v for v in te.default]
        return [measure]
    out = []
    param = TREC_PARAM.get(base, measure.AT_PARAM)
    for a in args.split(","):
        try:
            value = ast.literal_eval(a)
        except (SyntaxError, ValueError):
            raise MeasureError(f"{text!r}: {a!r} is not a number") from None
        out.append(measure(**{param: value}))
    return out


def _measures(measures: Iterable[Measure | str]) -> list[Measure]:
    """The measures parsed, each once (ir_measures takes them as a set: of two equal ones,
    such as two unnamed ``define_byquery`` lambdas, the first is computed)."""
    if isinstance(measures, Measure | str):
        measures = [measures]
    return list(dict.fromkeys(parse_measure(m) for m in measures))


# ---------------------------------------------------------- measures defined at run time
class DefinedMeasure(Measure):
    """A measure computed by a user's function (:func:`define`); ``@k`` cuts each query's
    ranking at k rows before the function sees it (when ``support_cutoff``)."""

    __slots__ = ("PRETTY_NAME", "QREL_INPUTS", "RUN_INPUTS", "SHORT_DESC", "impl")

    def __init__(
        self,
        impl: Callable[[Any, Any], Iterable[tuple[str, float]]],
        name: str | None,
        supported: dict[str, Any],
        params: dict[str, Any],
        inputs: tuple[list[str], list[str], str | None, str | None],
    ) -> None:
        self.impl = impl
        self.NAME = name  # type: ignore[assignment]
        self.__name__ = name  # type: ignore[assignment]
        self.AT_PARAM = "cutoff"
        self.SUPPORTED_PARAMS = supported
        self.RUN_INPUTS, self.QREL_INPUTS, self.PRETTY_NAME, self.SHORT_DESC = inputs
        self.params: dict[str, Any] = {}
        for key in params:
            if key not in supported:
                raise MeasureError(
                    f"{self!r}: unknown parameter {key!r} (it takes "
                    f"{', '.join(supported) or 'none'})"
                )
        self.params = dict(params)

    def __call__(self, **params: Any) -> DefinedMeasure:
        inputs = (self.RUN_INPUTS, self.QREL_INPUTS, self.PRETTY_NAME, self.SHORT_DESC)
        merged = {**self.params, **params}
        return DefinedMeasure(self.impl, self.NAME, self.SUPPORTED_PARAMS, merged, inputs)

    def __repr__(self) -> str:
        if self.NAME is None:  # as ir_measures: an unnamed measure is only itself
            return object.__repr__(self)
        return super().__repr__()

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Measure) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def cranfield(self) -> Any:
        raise MeasureError(f"{self!r} is the user's own function: it has no cranfield measure")

    def runtime_impl(self, qrels: Any, run: Any) -> Iterator[Metric]:
        """The function's ``(query, value)`` pairs on the frames (``ir_measures_frames``) as
        :class:`Metric` records."""
        cutoff = self.params.get("cutoff")
        if cutoff is not None:
            run = run.groupby("query_id").head(cutoff).reset_index(drop=True)
        for qid, score in self.impl(qrels, run):
            yield Metric(qid, self, score)


def define(
    impl: Callable[[Any, Any], Iterable[tuple[str, float]]],
    name: str | None = None,
    support_cutoff: bool = True,
    *,
    run_inputs: list[str] | None = None,
    qrel_inputs: list[str] | None = None,
    pretty_name: str | None = None,
    short_desc: str | None = None,
) -> DefinedMeasure:
    """A measure computed by ``impl(qrels, run)`` (two pandas DataFrames) yielding ``(query,
    value)`` pairs for all queries at once (ir_measures' ``define``)."""
    if not callable(impl):
        raise MeasureError(f"define: impl must be a function (qrels, run) -> pairs, got {impl!r}")
    supported = {"cutoff": _Param(NOT_PROVIDED)} if support_cutoff else {}
    inputs = (
        list(RUN_INPUTS if run_inputs is None else run_inputs),
        list(QREL_INPUTS if qrel_inputs is None else qrel_inputs),
        pretty_name,
        short_desc,
    )
    return DefinedMeasure(impl, name, supported, {}, inputs)


def define_byquery(
    impl: Callable[[Any, Any], float],
    name: str | None = None,
    support_cutoff: bool = True,
    *,
    run_inputs: list[str] | None = None,
    qrel_inputs: list[str] | None = None,
    pretty_name: str | None = None,
    short_desc: str | None = None,
) -> DefinedMeasure:
    """A measure computed by ``impl(qrels, run)`` once per query of the run, on that query's
    rows (ir_measures' ``define_byquery``; its name defaults to the function's)."""
    if not callable(impl):
        raise MeasureError(f"define_byquery: impl must be a function, got {impl!r}")
    if name is None:
        name = getattr(impl, "__name__", None) or repr(impl)

    def by_query(qrels: Any, run: Any) -> Iterator[tuple[str, float]]:
        for qid, rows in run.groupby("query_id"):
            yield qid, impl(qrels[qrels["query_id"] == qid], rows)

    return define(
        by_query,
        name,
        support_cutoff,
        run_inputs=run_inputs,
        qrel_inputs=qrel_inputs,
        pretty_name=pretty_name,
        short_desc=short_desc,
    )


def _metrics(measures: list[Measure], computed: Any) -> list[Metric]:
    """Per judged query, per measure, a :class:`Metric` (those a provider leaves out left
    out: ``Accuracy``'s), then the metrics of the user's measures (``define``)."""
    omitted, runtime = computed.omitted, computed.runtime
    out = [
        Metric(qid, m, value)
        for qid, row in zip(computed.query_ids, computed.table.tolist(), strict=True)
        for i, (m, value) in enumerate(zip(measures, row, strict=True))
        if i not in runtime and qid not in omitted.get(i, ())
    ]
    for i in sorted(runtime):
        out.extend(runtime[i])
    return out


def iter_calc(measures: Iterable[Measure | str], qrels: Any, run: Any) -> Iterator[Metric]:
    """Per judged query, per measure, a :class:`Metric` (a judged query the run lacks is
    measured on an empty ranking, as ir_measures' pytrec_eval provider does)."""
    measures = _measures(measures)
    return iter(_metrics(measures, results(measures, qrels, run)))


def calc(measures: Iterable[Measure | str], qrels: Any, run: Any) -> CalcResults:
    """``({measure: value over the queries}, [Metric per query and measure])``, computed once."""
    measures = _measures(measures)
    computed = results(measures, qrels, run)
    aggregated = dict(zip(measures, computed.aggregates, strict=True))
    return CalcResults(aggregated, _metrics(measures, computed))


def calc_aggregate(measures: Iterable[Measure | str], qrels: Any, run: Any) -> dict:
    """``{measure: value over the queries}``."""
    measures = _measures(measures)
    return dict(zip(measures, results(measures, qrels, run).aggregates, strict=True))


class _Evaluator:
    def __init__(self, measures: list[Measure], qrels: Any) -> None:
        self.measures = measures
        self.plan = Plan(measures, qrels)  # qrels read, evaluators made: once

    def iter_calc(self, run: Any) -> Iterator[Metric]:
        return iter_calc(self.measures, self.plan, run)

    def calc_aggregate(self, run: Any) -> dict:
        return calc_aggregate(self.measures, self.plan, run)

    def calc(self, run: Any) -> CalcResults:
        return calc(self.measures, self.plan, run)


def evaluator(measures: Iterable[Measure | str], qrels: Any) -> _Evaluator:
    """Qrels read once, for several runs: ``.iter_calc(run)``, ``.calc_aggregate(run)``."""
    return _Evaluator(_measures(measures), qrels)


OWN_PROVIDERS = frozenset({"Accuracy", "Compat", "Judged"})
"""The measures the work-alike computes as their ir_measures provider does, not through a
cranfield measure (docs/coming-from.md)."""


class _Provider:
    """ir_measures' provider interface (``providers.PytrecEvalProvider()``): here every
    provider is cranfield, whose values follow each measure's default provider; a provider
    named for some measures (``ir_measures.judged``: ``Judged``) takes only those."""

    def __init__(self, name: str = "cranfield", only: frozenset[str] | None = None) -> None:
        self.NAME = name
        self.only = only

    def supports(self, measure: Any) -> bool:
        """Whether this provider computes ``measure`` (a measure object or string)."""
        try:
            m = parse_measure(measure)
            if self.only is not None:
                return m.NAME in self.only or ("runtime" in self.only and _defined(m))
            if not _defined(m) and m.NAME not in OWN_PROVIDERS:
                m.cranfield()
        except MeasureError:
            return False
        return True

    def _checked(self, measures: Any) -> Any:
        if self.only is not None:
            for m in _measures(measures):
                if not self.supports(m):
                    raise MeasureError(f"the {self.NAME} provider: unsupported measure {m}")
        return measures

    def iter_calc(self, measures, qrels, run) -> Iterator[Metric]:
        return iter_calc(self._checked(measures), qrels, run)

    def calc_aggregate(self, measures, qrels, run) -> dict:
        return calc_aggregate(self._checked(measures), qrels, run)

    def evaluator(self, measures, qrels) -> _Evaluator:
        return evaluator(self._checked(measures), qrels)

    def run_inputs(self, measures: Iterable[Any]) -> list[str]:
        """The run columns the measures read: a user's measure its ``run_inputs``, any other
        ``query_id``, ``doc_id``, ``score``."""
        return _inputs(measures, "RUN_INPUTS", ["query_id", "doc_id", "score"])

    def qrel_inputs(self, measures: Iterable[Any]) -> list[str]:
        """The qrels columns the measures read (see :meth:`run_inputs`)."""
        return _inputs(measures, "QREL_INPUTS", ["query_id", "doc_id", "relevance"])


def _inputs(measures: Iterable[Any], attribute: str, default: list[str]) -> list[str]:
    out: set[str] = set()
    for m in measures:
        out.update(getattr(m, attribute, default))
    return sorted(out)


def _defined(m: Any) -> bool:
    return hasattr(m, "runtime_impl")


class providers:  # ir_measures' module of providers
    """ir_measures' ``providers`` module: each provider is cranfield."""

    @staticmethod
    def PytrecEvalProvider() -> _Provider:
        return _Provider("pytrec_eval")

    @staticmethod
    def RuntimeProvider() -> _Provider:
        return runtime

    @staticmethod
    def AccuracyProvider() -> _Provider:
        return accuracy


pytrec_eval = _Provider("pytrec_eval")
"""ir_measures' ``ir_measures.pytrec_eval`` provider."""
accuracy = _Provider("accuracy", frozenset({"Accuracy"}))
"""ir_measures' ``ir_measures.accuracy`` provider (``Accuracy``)."""
compat = _Provider("compat", frozenset({"Compat"}))
"""ir_measures' ``ir_measures.compat`` provider (``Compat``)."""
judged = _Provider("judged", frozenset({"Judged"}))
"""ir_measures' ``ir_measures.judged`` provider (``Judged``)."""
runtime = _Provider("runtime", frozenset({"runtime"}))
"""ir_measures' ``ir_measures.runtime`` provider (the measures of ``define``)."""
DefaultPipeline = _Provider("default")
"""ir_measures' ``DefaultPipeline``: every measure's default provider."""
