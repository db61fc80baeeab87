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
The diversity measures (``alpha_nDCG``, ``*_IA``, ``NRBP``, ``StRecall``) need subtopic
judgments and are not offered here: use :func:`cranfield.evaluate` with ``subtopics=``.
Known differences (docs/coming-from.md): ``Judged@k`` divides by k, ``NumQ`` and ``NumRel``
count every judged query (ir_measures gives 0 for one the run lacks).
"""

from __future__ import annotations

import ast
import itertools
import operator
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from cranfield.errors import DataWarning, MeasureError, UndefinedMeasureWarning

__all__ = [
    "CalcResults",
    "Measure",
    "Metric",
    "Qrel",
    "ScoredDoc",
    "calc",
    "calc_aggregate",
    "evaluator",
    "iter_calc",
    "parse_measure",
    "parse_trec_measure",
    "providers",
    "pytrec_eval",
    "read_trec_qrels",
    "read_trec_run",
]


class Qrel(NamedTuple):
    query_id: str
    doc_id: str
    relevance: int
    iteration: str = "0"


class ScoredDoc(NamedTuple):
    query_id: str
    doc_id: str
    score: float


class Metric(NamedTuple):
    query_id: str
    measure: Measure
    value: float


class CalcResults(NamedTuple):
    aggregated: Any
    per_query: list[Metric]


class _Param(NamedTuple):
    default: Any


NOT_PROVIDED = object()
"""A parameter without a default (ir_measures' sentinel is also a bare ``object()``)."""

_N = NOT_PROVIDED
# NAME -> (AT parameter, {parameter: default}); ir_measures 0.4's declarations, checked
# against the installed package by tests/compat/test_compat_ir_measures.py
_DECLARED: dict[str, tuple[str, dict[str, Any]]] = {
    "AP": ("cutoff", {"cutoff": _N, "rel": 1, "judged_only": False}),
    "BPM": ("cutoff", {"cutoff": _N, "T": 1.0, "min_rel": 0, "max_rel": _N}),
    "Bpref": ("cutoff", {"rel": 1}),
    "Compat": ("cutoff", {"p": 0.95, "normalize": True}),
    "ERR": ("cutoff", {"cutoff": _N}),
    "INSQ": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": _N}),
    "INST": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": _N}),
    "IPrec": ("recall", {"recall": _N, "rel": 1, "judged_only": False}),
    "Judged": ("cutoff", {"cutoff": _N}),
    "NERR10": ("cutoff", {"p": 0.9, "min_rel": 0, "max_rel": _N}),
    "NERR11": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": _N}),
    "NERR8": ("cutoff", {"cutoff": _N, "min_rel": 0, "max_rel": _N}),
    "NERR9": ("cutoff", {"cutoff": _N, "min_rel": 0, "max_rel": _N}),
    "NumQ": ("cutoff", {}),
    "NumRel": ("cutoff", {"rel": 1}),
    "NumRet": ("cutoff", {"rel": _N}),
    "P": ("cutoff", {"cutoff": _N, "rel": 1, "judged_only": False}),
    "R": ("cutoff", {"cutoff": _N, "rel": 1, "judged_only": False}),
    "RBP": ("cutoff", {"cutoff": _N, "p": 0.8, "rel": _N}),
    "RR": ("cutoff", {"cutoff": _N, "rel": 1, "judged_only": False}),
    "Rprec": ("cutoff", {"rel": 1, "judged_only": False}),
    "SDCG": ("cutoff", {"cutoff": _N, "dcg": "log2", "min_rel": 0, "max_rel": _N}),
    "SetAP": ("cutoff", {"rel": 1, "judged_only": False}),
    "SetF": ("cutoff", {"rel": 1, "beta": 1.0, "judged_only": False}),
    "SetP": ("cutoff", {"rel": 1, "relative": False, "judged_only": False}),
    "SetR": ("cutoff", {"rel": 1}),
    "Success": ("cutoff", {"cutoff": _N, "rel": 1, "judged_only": False}),
    "infAP": ("cutoff", {"rel": 1}),
    "nDCG": ("cutoff", {"cutoff": _N, "dcg": "log2", "gains": _N, "judged_only": False}),
}
_ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "MAP": ("AP", {}),
    "BPref": ("Bpref", {}),
    "MRR": ("RR", {}),
    "NDCG": ("nDCG", {}),
    "NumRelRet": ("NumRet", {"rel": 1}),
    "Precision": ("P", {}),
    "Recall": ("R", {}),
    "RPrec": ("Rprec", {}),
    "SetRelP": ("SetP", {"relative": True}),
}
"""ir_measures' other names: the measure they are, with the parameters they set."""


class Measure:
    """One ir_measures measure: ``nDCG``, ``nDCG@10``, ``P(rel=2)@5``.  Immutable; ``@k``
    and ``(name=value)`` make new ones.  Equal (and hashed) by name and parameters."""

    __slots__ = ("AT_PARAM", "NAME", "SUPPORTED_PARAMS", "__name__", "params")

    def __init__(self, name: str, params: Mapping[str, Any] | None = None, shown: str = ""):
        at, declared = _DECLARED[name]
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
    if name in _ALIASES:
        base, params = _ALIASES[name]
        return Measure(base, params, name)
    return Measure(name)


for _name in [*_DECLARED, *_ALIASES]:
    globals()[_name] = _measure(_name)
__all__ += list(_DECLARED) + list(_ALIASES)

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
    if name not in _DECLARED and name not in _ALIASES:
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


_TREC = {
    "map": "AP",
    "P": "P",
    "recall": "R",
    "ndcg": "nDCG",
    "ndcg_cut": "nDCG",
    "recip_rank": "RR",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "infAP": "infAP",
    "success": "Success",
    "iprec_at_recall": "IPrec",
    "num_q": "NumQ",
    "num_rel": "NumRel",
    "num_ret": "NumRet",
    "num_rel_ret": "NumRelRet",
    "set_P": "SetP",
    "set_recall": "SetR",
    "set_map": "SetAP",
    "set_F": "SetF",
    "set_relative_P": "SetRelP",
    "map_cut": "AP",
    "rbp": "RBP",
}


_NUMBERS = r"[0-9.]+(,[0-9.]+)*"


_TREC_PARAM = {"set_F": "beta", "iprec_at_recall": "recall"}
"""The trec_eval names whose parameter is not the cut-off (ir_measures' ``TREC_NAME_MAP``)."""


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
    for name in sorted(_TREC, key=len, reverse=True):
        rest = text[len(name) + 1 :]
        sep = text[len(name) : len(name) + 1]
        if text.startswith(name) and sep in ("_", ".") and re.fullmatch(_NUMBERS, rest):
            base, args = name, rest
            break
    if base not in _TREC:
        raise MeasureError(f"{text!r} is not a trec_eval measure ir_measures knows")
    measure = _measure(_TREC[base])
    if not args:
        from cranfield.compat.trec_eval.catalogue import BY_NAME

        te = BY_NAME[base]  # a family of cut-offs: trec_eval's default ones (P: 5, 10, ...)
        if te.params in ("long_cutoffs", "double_cutoffs") and base != "ndcg":
            return [measure @ v for v in te.default]
        return [measure]
    out = []
    param = _TREC_PARAM.get(base, measure.AT_PARAM)
    for a in args.split(","):
        try:
            value = ast.literal_eval(a)
        except (SyntaxError, ValueError):
            raise MeasureError(f"{text!r}: {a!r} is not a number") from None
        out.append(measure(**{param: value}))
    return out


def _measures(measures: Iterable[Measure | str]) -> list[Measure]:
    if isinstance(measures, Measure | str):
        measures = [measures]
    return [parse_measure(m) for m in measures]


_PYTREC_RELS = ("P", "RR", "Rprec", "AP", "R", "SetAP", "SetF", "SetP", "Success", "IPrec")
"""The measures ir_measures hands to pytrec_eval with their ``rel`` as the relevance level (the
others ignore it or are computed at level 1)."""


def _pytrec_form(m: Measure, setf: int) -> tuple[tuple[int, bool, int], str, str] | None:
    """How ir_measures' pytrec_eval provider computes ``m`` (``providers/pytrec_eval_provider.py``,
    ``_build_invokers``, ir_measures 0.4.3): ``((relevance level, judged only, set_F slot),
    the trec_eval name asked for, the name of its value)``; ``None`` for a measure whose default
    provider is not pytrec_eval (and for the counts ``Num*``, computed by cranfield: see the
    module docstring).  ``setf``: the number of ``SetF`` measures before this one (pytrec_eval
    keeps the first ``set_F`` parameter of an evaluator, so ir_measures gives each its own)."""
    p = {k: v.default for k, v in m.SUPPORTED_PARAMS.items()}
    p.update(m.params)
    name, cutoff = m.NAME, p.get("cutoff", _N)
    rel, judged_only = p.get("rel", 1), bool(p.get("judged_only", False))
    if isinstance(rel, bool) or not isinstance(rel, int) or rel < 1:
        return None  # pytrec_eval takes a relevance level >= 1; cranfield computes the rest
    at = "" if cutoff is _N else f"_{cutoff}"
    slot = 0
    if name == "AP":
        text = "map" if cutoff is _N else f"map_cut{at}"
    elif name == "nDCG":
        if p["dcg"] != "log2" or p["gains"] is not _N:
            return None
        rel, text = 1, "ndcg" if cutoff is _N else f"ndcg_cut{at}"
    elif name == "RR" and cutoff is _N:
        text = "recip_rank"
    elif name in ("P", "R", "Success") and cutoff is not _N:
        text = {"P": "P", "R": "recall", "Success": "success"}[name] + at
    elif name in ("Rprec", "Bpref", "infAP", "SetAP", "SetR"):
        text = {"Bpref": "bpref", "SetAP": "set_map", "SetR": "set_recall"}.get(name, name)
        judged_only = judged_only and name in ("Rprec", "SetAP")
    elif name == "SetP":
        text = "set_relative_P" if p["relative"] else "set_P"
    elif name == "SetF":
        beta = p["beta"]
        if isinstance(beta, bool) or not isinstance(beta, int | float) or beta < 0:
            return None  # cranfield's mapping names the bad value
        slot = setf + 1
        text = "set_F" if beta == 1.0 else f"set_F_{beta}"
        return (rel, judged_only, slot), text, "set_F"
    elif name == "IPrec" and isinstance(p["recall"], int | float):
        text = f"iprec_at_recall_{p['recall']:.2f}"
    else:
        return None
    return (rel, judged_only, slot), text, text


def _as_dict(source: Any, reader: str) -> dict[str, dict[str, Any]]:
    """``{query: {document: value}}``: a dict as given, anything else read by cranfield."""
    if isinstance(source, Mapping) and all(isinstance(d, Mapping) for d in source.values()):
        return {q: d for q, d in source.items() if d}
    if isinstance(source, _TrecRecords):
        table = source.take()
        if table is not None:
            return table.to_dict()
    if not isinstance(source, str | bytes | os.PathLike | Mapping) and isinstance(source, Iterable):
        source = iter(source)
        first = next(source, None)
        records = _records_dict(first, source, "relevance" if reader == "read_qrels" else "score")
        if records is not None:
            return records
        source = [] if first is None else itertools.chain([first], source)
    import cranfield

    return getattr(cranfield, reader)(source).to_dict()


def _records_dict(first: Any, rest: Iterator[Any], value: str) -> dict[str, dict[str, Any]] | None:
    """``{query: {document: value}}`` of ir_measures' records (``Qrel``, ``ScoredDoc``, theirs,
    ours or ir_datasets'; anything with ``query_id``, ``doc_id`` and ``value``), the last of a
    repeated document kept, as ir_measures' providers do; ``None`` (nothing taken but
    ``first``) for other rows, which cranfield's reader takes.  Python's loop: 7M records in
    3 s, against 26 s through cranfield's reader of records (bench/ir_measures_files.py)."""
    if first is None or not all(hasattr(first, f) for f in ("query_id", "doc_id", value)):
        return None
    out: dict[str, dict[str, Any]] = {}
    get = operator.attrgetter("query_id", "doc_id", value)
    for qid, doc, v in map(get, itertools.chain([first], rest)):
        docs = out.get(qid)
        if docs is None:
            docs = out[qid] = {}
        docs[doc] = v
    return out


class _Plan:
    """The measures and qrels prepared once (an :func:`evaluator` keeps it for every run).

    The measures ir_measures' default pipeline gives to pytrec_eval are computed as that
    provider computes them: by :mod:`cranfield.compat.pytrec_eval` (trec_eval 9.0.8's values:
    single-precision scores, ``IPrec``'s recall levels, ``set_F``'s beta squared), one evaluator
    per relevance level and ``judged_only`` as ir_measures makes them; a judged query the run
    lacks scores 0 there, as in ir_measures.  The others go through the mapping of
    :func:`cranfield.measures.peer_measures.from_ir_measures` and :class:`cranfield.Evaluator`:
    the measures with ``judged_only=True`` on the run without its unjudged documents
    (cranfield's ``judged_only=``), the counts ``NumQ``, ``NumRel``, ``NumRet`` on the run as
    it is, whatever else is asked (ir_measures' defect: ``NumRet`` joins an arbitrary
    evaluator, a ``judged_only`` one under half of the hash seeds)."""

    def __init__(self, measures: list[Measure], qrels: Any) -> None:
        import cranfield

        self.measures = measures
        self.qrels = _as_dict(qrels, "read_qrels")
        self.query_ids = sorted(self.qrels)
        setf = 0
        asked: dict[tuple[int, bool, int], dict[str, list[int]]] = {}
        rest: dict[bool, list[int]] = {}
        for i, m in enumerate(measures):
            form = _pytrec_form(m, setf)
            if form is None:
                rest.setdefault(bool(m.params.get("judged_only")), []).append(i)
                continue
            key, trec_name, _ = form
            setf = max(setf, key[2])
            asked.setdefault(key, {}).setdefault(trec_name, []).append(i)
        self.pytrec: list[tuple[Any, dict[str, list[int]]]] = []
        if asked:
            from cranfield.compat.pytrec_eval import RelevanceEvaluator

            for (rel, judged_only, _), names in asked.items():
                ev = RelevanceEvaluator(
                    self.qrels, set(names), relevance_level=rel, judged_docs_only_flag=judged_only
                )
                self.pytrec.append((ev, names))
        self.cranfield: list[tuple[Any, list[int]]] = []
        for judged_only, positions in sorted(rest.items()):
            ours = []
            for i in positions:
                m = measures[i]
                plain = Measure(m.NAME, {k: v for k, v in m.params.items() if k != "judged_only"})
                ours.append(plain.cranfield())
            ev = cranfield.Evaluator(self.qrels, ours, complete=True, judged_only=judged_only)
            self.cranfield.append((ev, positions))

    def results(self, run: Any) -> tuple[tuple[str, ...], Any, list[float]]:
        """``(query ids, per query the values of the measures, the aggregates)``."""
        import numpy as np

        run_d = _as_dict(run, "read_run")
        query_ids, n = self.query_ids, len(self.query_ids)
        values: list[Any] = [None] * len(self.measures)
        aggregates = [0.0] * len(self.measures)
        for ev, names in self.pytrec:
            per_query = ev.evaluate(run_d)
            for text, positions in names.items():
                name = "set_F" if text.startswith("set_F") else text
                column = [per_query[q][name] if q in per_query else 0.0 for q in query_ids]
                total = 0.0  # ir_measures' MeanAgg: a running sum in pytrec_eval's order
                for v in per_query.values():
                    total += v[name]
                for i in positions:
                    values[i] = column
                    aggregates[i] = total / n if n else float("nan")
        for ev, positions in self.cranfield:
            with warnings.catch_warnings():  # ir_measures says nothing of the queries it omits
                warnings.simplefilter("ignore", DataWarning)
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                res = ev.evaluate(run_d)
            row = {q: i for i, q in enumerate(res.query_ids)}
            for j, (i, label) in enumerate(zip(positions, res.labels, strict=True)):
                col = res.values[:, j].tolist()
                values[i] = [col[row[q]] if q in row else 0.0 for q in query_ids]
                aggregates[i] = res.aggregate_of(label)
        table = np.array(values, dtype=np.float64).T if values else np.zeros((0, 0))
        return tuple(query_ids), table.reshape(n, len(self.measures)), aggregates


def _results(measures: list[Measure], qrels: Any, run: Any):
    """``(query ids, per query the values of measures, the aggregates)``; ``qrels`` may be an
    evaluator's plan."""
    return (qrels if isinstance(qrels, _Plan) else _Plan(measures, qrels)).results(run)


def iter_calc(measures: Iterable[Measure | str], qrels: Any, run: Any) -> Iterator[Metric]:
    """Per judged query, per measure, a :class:`Metric` (a judged query the run lacks is
    measured on an empty ranking, as ir_measures' pytrec_eval provider does)."""
    measures = _measures(measures)
    query_ids, table, _ = _results(measures, qrels, run)
    for qid, row in zip(query_ids, table.tolist(), strict=True):
        for m, value in zip(measures, row, strict=True):
            yield Metric(qid, m, value)


def calc(measures: Iterable[Measure | str], qrels: Any, run: Any) -> CalcResults:
    """``({measure: value over the queries}, [Metric per query and measure])``, computed once."""
    measures = _measures(measures)
    query_ids, table, aggregates = _results(measures, qrels, run)
    per_query = [
        Metric(qid, m, value)
        for qid, row in zip(query_ids, table.tolist(), strict=True)
        for m, value in zip(measures, row, strict=True)
    ]
    return CalcResults(dict(zip(measures, aggregates, strict=True)), per_query)


def calc_aggregate(measures: Iterable[Measure | str], qrels: Any, run: Any) -> dict:
    """``{measure: value over the queries}``."""
    measures = _measures(measures)
    _, _, aggregates = _results(measures, qrels, run)
    return dict(zip(measures, aggregates, strict=True))


class _Evaluator:
    def __init__(self, measures: list[Measure], qrels: Any) -> None:
        self.measures = measures
        self.plan = _Plan(measures, qrels)  # qrels read, evaluators made: once

    def iter_calc(self, run: Any) -> Iterator[Metric]:
        return iter_calc(self.measures, self.plan, run)

    def calc_aggregate(self, run: Any) -> dict:
        return calc_aggregate(self.measures, self.plan, run)

    def calc(self, run: Any) -> CalcResults:
        return calc(self.measures, self.plan, run)


def evaluator(measures: Iterable[Measure | str], qrels: Any) -> _Evaluator:
    """Qrels read once, for several runs: ``.iter_calc(run)``, ``.calc_aggregate(run)``."""
    return _Evaluator(_measures(measures), qrels)


def _read(source: Any, reader: str):
    """A TREC file read by cranfield's reader (file:line errors); ``source`` may be the text
    itself (a string with a line break), as ir_measures allows."""
    import tempfile

    import cranfield

    read = getattr(cranfield, reader)
    if not (isinstance(source, str) and "\n" in source):
        return read(source, format="trec")
    fd, path = tempfile.mkstemp(suffix=".txt", prefix="cranfield-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source.lstrip("\n"))
        return read(path, format="trec")
    finally:
        os.unlink(path)


class _TrecRecords(Iterator[Any]):
    """The records of a TREC file, read when first needed (a generator in ir_measures).

    Handed unstarted to :func:`calc_aggregate`, :func:`iter_calc` or an evaluator, the file
    read by cranfield's reader goes to the measures as it is, without becoming one Python
    record per line and back (``_as_dict``); iterated, the records come from the reader's
    columns.  On a run of 7,000 queries x 1,000 documents (bench/ir_measures_files.py):
    ``calc_aggregate`` 37 s -> 10 s (ir_measures 27 s), iterating 18 s -> 9 s (15 s)."""

    __slots__ = ("_reader", "_rows", "_source")

    def __init__(self, source: Any, reader: str) -> None:
        self._source = source
        self._reader = reader
        self._rows: Iterator[Any] | None = None

    def take(self) -> Any | None:
        """The table read (cranfield's Qrels or Run), the records used up; ``None`` when the
        iteration has begun (the rest is then read record by record)."""
        if self._rows is not None:
            return None
        self._rows = iter(())
        return _read(self._source, self._reader)

    def __next__(self) -> Any:
        if self._rows is None:
            self._rows = self._records(_read(self._source, self._reader))
        return next(self._rows)

    def _records(self, table: Any) -> Iterator[Any]:
        if self._reader == "read_qrels":
            counts = (table.offsets[1:] - table.offsets[:-1]).tolist()
            qids = [q for q, n in zip(table.query_ids, counts, strict=True) for _ in range(n)]
            return map(Qrel, qids, table.doc_ids, table.grades.tolist())
        run_qids = map(table.query_ids.__getitem__, table.qcodes.tolist())
        return map(ScoredDoc, run_qids, table.docs.to_list(), table.scores.tolist())


def read_trec_qrels(source: Any) -> Iterator[Qrel]:
    """The judgments of a TREC qrels file (a path, or its text) as :class:`Qrel` records."""
    return _TrecRecords(source, "read_qrels")


def read_trec_run(source: Any) -> Iterator[ScoredDoc]:
    """The rows of a TREC run file (a path, or its text) as :class:`ScoredDoc` records."""
    return _TrecRecords(source, "read_run")


class _Provider:
    """ir_measures' provider interface (``providers.PytrecEvalProvider()``): here every
    provider is cranfield, whose values follow each measure's default provider."""

    NAME = "cranfield"

    def iter_calc(self, measures, qrels, run) -> Iterator[Metric]:
        return iter_calc(measures, qrels, run)

    def calc_aggregate(self, measures, qrels, run) -> dict:
        return calc_aggregate(measures, qrels, run)

    def evaluator(self, measures, qrels) -> _Evaluator:
        return evaluator(measures, qrels)


class providers:  # ir_measures' module of providers
    """ir_measures' ``providers`` module: ``providers.PytrecEvalProvider()`` is cranfield."""

    PytrecEvalProvider = _Provider


pytrec_eval = _Provider()
"""ir_measures' ``ir_measures.pytrec_eval`` provider."""
