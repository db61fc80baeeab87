"""pytrec_eval's API on cranfield's measures: change ``import pytrec_eval`` to
``from cranfield.compat import pytrec_eval``.

:class:`RelevanceEvaluator` takes the same arguments and returns the same
``{query: {measure: value}}`` under trec_eval's printed names (``P_5``, ``ndcg_cut_10``,
``map``, ``iprec_at_recall_0.10``), with pytrec_eval's expansion of family names (``'P'`` ->
every default cut-off, ``'P.5,10'`` or ``'P_5'`` -> those) and nicknames (``'official'``).

Values.  pytrec_eval (pytrec-eval-terrier 0.5.x) computes with trec_eval 9.0.8; ``cranfield
trec_eval`` follows trec_eval 10.0.  By default (``trec_eval="9.0.8"``) this module gives
pytrec_eval's values exactly; they differ from ``cranfield trec_eval`` in:

- ``iprec_at_recall`` and ``11pt_avg``: a recall level ``p`` needs ``(long) (p * R + 0.9)``
  relevant documents in 9.0.8, ``lround(p * R)`` in 10.0 (NIST changed it because the
  truncation was not platform-safe), so with R = 4, recall 0.1 needs 1 relevant document in
  9.0.8 and 0 in 10.0;
- scores: 9.0.8 keeps a run's scores in single precision (``float sim``), 10.0 in double, so
  scores that differ only beyond single precision (``1e-300`` and ``0.0``, ``0.1`` and
  ``0.1 + 1e-12``) tie in 9.0.8 and are then ordered by document id;
- the measures 9.0.8 does not have (``rbp``, ``rbp_resid``, ``unj``, ``yaap``, the
  preference and judgment-group measures) are not supported, as in pytrec_eval.

``trec_eval="10.0"`` gives ``cranfield trec_eval``'s values and names instead (and accepts
``rbp``, ``unj`` and ``yaap``).

Defects of pytrec_eval this module does not have: an evaluator can be reused any number of
times (pytrec_eval #38 gave wrong values on reuse before its workaround), empty qrels (``{}``
or a query with no judgments) never crash (#49, #57), and the iprec measures work under any
spelling (#41).  Bad arguments raise :class:`~cranfield.errors.ParameterError` (a
``ValueError``) naming the query and document, where pytrec_eval raises ``TypeError``.

Speed: plain dicts (``str`` ids, ``int`` grades, finite ``float``/``int`` scores) are indexed,
ordered and judged by the compiled core (``rust/src/dicts.rs``), which also computes the
measures that declare a ``core_kernel`` (map, ndcg_cut, P, recall, recip_rank, Rprec,
success, the counts); the other measures are the registry's, through trec_eval's catalogue,
on the judged rankings the core returns.  Other inputs take the Python path (the judged
rankings built straight from the dicts, no Run, Qrels or DataFrame), with the same values.
"""

from __future__ import annotations

import collections
import math
import re
from array import array
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import Any

import numpy as np

from cranfield.compat.trec_eval.catalogue import (
    BY_NAME,
    NICKNAMES,
    Context,
    ParamError,
    parse_params,
)
from cranfield.errors import ParameterError
from cranfield.judging.rankings import NOT_IN_QRELS, UNJUDGED, JudgedRankings

__all__ = [
    "RelevanceEvaluator",
    "compute_aggregated_measure",
    "parse_qrel",
    "parse_run",
    "supported_measures",
    "supported_nicknames",
]

_EXTRA_10 = {"rbp", "rbp_resid", "unj", "yaap"}
"""The qrels measures of trec_eval 10.0 that 9.0.8 lacks (``trec_eval="10.0"`` only)."""

supported_nicknames: dict[str, set[str]] = {k: set(v) - _EXTRA_10 for k, v in NICKNAMES.items()}
"""trec_eval 9.0.8's nicknames (10.0's without its new measures), as pytrec_eval's."""

supported_measures: set[str] = set(supported_nicknames["all_trec"])
"""trec_eval 9.0.8's ``all_trec`` measures: what pytrec_eval evaluates."""

VERSIONS = ("9.0.8", "10.0")
_ORDER = {name: i for i, name in enumerate(BY_NAME)}
"""trec_eval's table order, which pytrec_eval's per-query dicts follow."""
_RE_BASE = r"{}[\._]([0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)"


def parse_run(f_run: Iterable[str]) -> dict[str, dict[str, float]]:
    """A TREC run file's lines as ``{query: {document: score}}`` (pytrec_eval's reader).

    Unlike pytrec_eval's, a bad line is one :class:`ParameterError` naming its number."""
    run: dict[str, dict[str, float]] = collections.defaultdict(dict)
    for number, line in enumerate(f_run, 1):
        fields = line.split()
        if len(fields) != 6:
            raise ParameterError(
                f"run line {number}: expected 6 fields (query Q0 document rank score tag), "
                f"got {len(fields)}"
            )
        qid, _, doc, _, score, _ = fields
        if doc in run[qid]:
            raise ParameterError(f"run line {number}: document {doc!r} repeated in query {qid!r}")
        try:
            run[qid][doc] = float(score)
        except ValueError:
            raise ParameterError(f"run line {number}: score {score!r} is not a number") from None
    return run


def parse_qrel(f_qrel: Iterable[str]) -> dict[str, dict[str, int]]:
    """A TREC qrels file's lines as ``{query: {document: grade}}`` (pytrec_eval's reader).

    Unlike pytrec_eval's, a bad line is one :class:`ParameterError` naming its number."""
    qrel: dict[str, dict[str, int]] = collections.defaultdict(dict)
    for number, line in enumerate(f_qrel, 1):
        fields = line.split()
        if len(fields) != 4:
            raise ParameterError(
                f"qrels line {number}: expected 4 fields (query iteration document grade), "
                f"got {len(fields)}"
            )
        qid, _, doc, grade = fields
        if doc in qrel[qid]:
            raise ParameterError(f"qrels line {number}: document {doc!r} repeated in query {qid!r}")
        try:
            qrel[qid][doc] = int(grade)
        except ValueError:
            raise ParameterError(
                f"qrels line {number}: grade {grade!r} is not an integer"
            ) from None
    return qrel


def compute_aggregated_measure(measure: str, values: Iterable[float]) -> float:
    """The summary of per-query values as pytrec_eval computes it: a sum for ``num_*``, the
    exponential of the mean for ``gm_*`` (their per-query values are logarithms), else the
    mean (summed in order, as trec_eval does)."""
    values = [float(v) for v in values]
    total = float(np.cumsum(values)[-1]) if values else 0.0
    if measure.startswith("num_"):
        return total
    if not values:
        return math.nan
    if measure.startswith("gm_"):
        return math.exp(total / len(values))
    return total / len(values)


def _expand_nicknames(measures: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for m in measures:
        if m in supported_nicknames:
            out.update(supported_nicknames[m])
        else:
            out.add(m)
    return out


def _combine_measures(measures: set[str], known: set[str]) -> dict[str, set[str]]:
    """pytrec_eval's grouping: ``meas``, ``meas.p1,p2`` or ``meas_p1,p2`` -> ``{meas: params}``
    (the parameters of every spelling of one measure united; a bare name adds none)."""
    params: dict[str, set[str]] = collections.defaultdict(set)
    for m in sorted(measures):
        if not isinstance(m, str):
            raise ParameterError(f"a measure must be a string like 'P_5', got {m!r}")
        if m in known:
            params.setdefault(m, set())
            continue
        for base in sorted(known):
            match = re.match(_RE_BASE.format(re.escape(base)), m)
            if match is not None:
                params[base].update(match.group(1).split(","))
                break
        else:
            raise ParameterError(f"unsupported measure {m!r}")
    return params


class _Request:
    """One measure to compute: its catalogue entry, parsed parameters and output names."""

    __slots__ = ("names", "parsed", "tm")

    def __init__(self, name: str, args: set[str]) -> None:
        self.tm = BY_NAME[name]
        # trec_eval sorts numeric cut-offs itself; the text only keeps pytrec_eval's order
        text = ",".join(sorted(args)) if args else None
        try:
            self.parsed = parse_params(self.tm, text)
        except ParamError as exc:
            raise ParameterError(
                f"measure {name!r}: {str(exc).removeprefix('trec_eval: ')}"
            ) from None
        if self.tm.params in ("long_cutoffs", "double_cutoffs"):
            self.names = self.tm.slot_names(self.parsed)
        else:
            self.names = [name]  # pytrec_eval keys every other measure by its bare name
        if self.tm.name == "utility" and len(self.parsed.values) != 4:
            raise ParameterError(
                "measure 'utility': give its four coefficients, as 'utility.a,b,c,d'"
            )


_REQUESTS: dict[tuple[str, frozenset[str]], _Request] = {}


def _request(name: str, args: set[str]) -> _Request:
    """The parsed request, made once per spelling (it is never changed after)."""
    key = (name, frozenset(args))
    req = _REQUESTS.get(key)
    if req is None:
        req = _REQUESTS[key] = _Request(name, args)
    return req


_PLANNED: dict[tuple[Any, ...], Any] = {}
"""Measure names -> requests, and requests -> the core's plan: each made once (bounded)."""


def _requests_of(measures: list[Any], v9: bool) -> list[_Request]:
    """The requests of the measure names (pytrec_eval's expansion and grouping), in
    trec_eval's order; made once per set of names."""
    key = (frozenset(measures), v9) if all(type(m) is str for m in measures) else None
    got = _PLANNED.get(key) if key is not None else None
    if got is None:
        known = supported_measures if v9 else supported_measures | _EXTRA_10
        combined = _combine_measures(_expand_nicknames(measures), known)
        got = [_request(n, combined[n]) for n in sorted(combined, key=_ORDER.__getitem__)]
        if key is not None:
            if len(_PLANNED) > 256:
                _PLANNED.clear()
            _PLANNED[key] = got
    return list(got)


class RelevanceEvaluator:
    """Evaluate runs against judgments given as ``{query: {document: grade}}``.

    ``measures``: an iterable of trec_eval measure names, parameterised names (``'P_5'``,
    ``'ndcg_cut.10,20'``) and nicknames.  ``relevance_level``: the lowest relevant grade
    (trec_eval's ``-l``).  ``judged_docs_only_flag``: drop unjudged documents first (``-J``).
    ``trec_eval``: ``"9.0.8"`` (pytrec_eval's values) or ``"10.0"`` (``cranfield
    trec_eval``'s); see the module docstring.
    """

    def __init__(
        self,
        query_relevance: Mapping[str, Mapping[str, int]],
        measures: Iterable[str],
        relevance_level: int = 1,
        judged_docs_only_flag: bool = False,
        *,
        trec_eval: str = "9.0.8",
    ) -> None:
        if trec_eval not in VERSIONS:
            raise ParameterError(f"trec_eval={trec_eval!r}: choose one of {', '.join(VERSIONS)}")
        if isinstance(measures, str):
            raise ParameterError(
                f"measures must be a set of names, got the string {measures!r} "
                f"(write {{{measures!r}}})"
            )
        if (
            isinstance(relevance_level, bool)
            or not isinstance(relevance_level, int)
            or relevance_level < 1
        ):
            raise ParameterError(
                f"relevance_level must be an integer >= 1, got {relevance_level!r}"
            )
        if not isinstance(query_relevance, Mapping):
            raise ParameterError(
                "query_relevance must be a dict {query: {document: grade}}, got a "
                f"{type(query_relevance).__name__}"
            )
        self.v9 = trec_eval == "9.0.8"
        self._requests = _requests_of(list(measures), self.v9)
        self.relevance_level = relevance_level
        self.judged_docs_only_flag = bool(judged_docs_only_flag)
        self._qrels = {}
        top = None
        for qid, docs in query_relevance.items():
            if not isinstance(qid, str) or not isinstance(docs, Mapping):
                raise ParameterError(
                    f"query_relevance: query {qid!r} must be a string mapped to a dict "
                    "{document: grade}"
                )
            if not docs:  # a query without judgments is not evaluated (pytrec_eval #57)
                continue
            for doc, grade in docs.items():
                if not isinstance(doc, str) or not isinstance(grade, int | np.integer):
                    raise ParameterError(
                        f"query_relevance: query {qid!r}, document {doc!r}: the grade must be "
                        f"an integer, got {grade!r}"
                    )
            grades = dict(docs)
            ordered = sorted(grades.values(), reverse=True)
            top = ordered[0] if top is None else max(top, ordered[0])
            self._qrels[qid] = (grades, ordered)
        self._max_grade = top
        self._fast = _fast_plan(query_relevance, self._requests, self)

    # ------------------------------------------------------------------ evaluating
    def evaluate(self, scores: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
        """``{query: {measure: value}}`` for every query of ``scores`` that has judgments."""
        if not isinstance(scores, Mapping):
            raise ParameterError(
                "scores must be a dict {query: {document: score}}, got a "
                f"{type(scores).__name__}"
            )
        if self._fast is not None:
            got = self._fast.evaluate(scores, self)
            if got is not None:
                return got
        jr = self._judge(scores)
        if jr is None:
            return {}
        ctx = Context(jr=jr, level=self.relevance_level, num_docs=0, complete=False)
        columns: list[tuple[str, list[float]]] = []
        for req in self._requests:
            for name, col in zip(req.names, self._compute(req, ctx), strict=True):
                columns.append((name, col.tolist()))
        return {qid: {name: col[i] for name, col in columns} for i, qid in enumerate(jr.query_ids)}

    def _compute(self, req: _Request, ctx: Context) -> list[np.ndarray]:
        tm = req.tm
        if tm.kind in ("runid", "relstring"):
            return [np.zeros(ctx.jr.num_queries)]  # what pytrec_eval returns for them
        if self.v9 and tm.name in ("iprec_at_recall", "11pt_avg"):
            from cranfield.measures.interpolated import eleven_point_average, iprec_at_recall

            points = req.parsed.values
            if tm.name == "11pt_avg":
                return [eleven_point_average(ctx.jr, points, ctx.level, rounding="trec9")]
            table = iprec_at_recall(ctx.jr, points, ctx.level, rounding="trec9")
            return [table[:, i] for i in range(len(points))]
        assert tm.compute is not None  # every kind but runid and relstring has one
        return tm.compute(ctx, req.parsed.values)

    def _judge(self, scores: Mapping[str, Mapping[str, float]]) -> JudgedRankings | None:
        """The judged rankings of the queries of ``scores`` that have judgments, in the order
        of ``scores``: each ranking in trec_eval's order (score descending, then document id
        descending), built from the dicts directly."""
        qids: list[str] = []
        grades: list[int] = []
        values: list[float] = []
        lengths: list[int] = []
        qgrades: list[int] = []
        qlengths: list[int] = []
        judged_only = self.judged_docs_only_flag
        for qid, docs in scores.items():
            if not isinstance(qid, str) or not isinstance(docs, Mapping):
                raise ParameterError(
                    f"scores: query {qid!r} must be a string mapped to a dict {{document: score}}"
                )
            judged = self._qrels.get(qid)
            if judged is None:
                continue  # no judgments: not evaluated, as in trec_eval
            rel, ordered = judged
            items = _ranked(qid, docs, self.v9)
            n = 0
            for doc, score in items:
                g = rel.get(doc)
                if g is None:
                    if judged_only:
                        continue
                    g = NOT_IN_QRELS
                elif g < 0:
                    if judged_only:
                        continue
                    g = UNJUDGED
                grades.append(g)
                values.append(score)
                n += 1
            qids.append(qid)
            lengths.append(n)
            qgrades.extend(ordered)
            qlengths.append(len(ordered))
        if not qids:
            return None
        s = np.array(values, dtype=np.float64)
        offsets = _offsets(lengths)
        boundary = np.ones(len(s), dtype=bool)
        if len(s) > 1:
            boundary[1:] = s[1:] != s[:-1]
            starts = offsets[1:-1]
            boundary[starts[starts < len(s)]] = True  # a query's first row starts a group
        return JudgedRankings(
            query_ids=tuple(qids),
            offsets=offsets,
            grades=np.array(grades, dtype=np.int64),
            scores=s,
            tie_ids=np.cumsum(boundary, dtype=np.int64) - 1,
            qrels_offsets=_offsets(qlengths),
            qrels_grades=np.array(qgrades, dtype=np.int64),
            in_run=np.ones(len(qids), dtype=bool),
            run_name="my_little_test_run",
            qrels_max_grade=self._max_grade,
            judged_only=judged_only,
        )


class _Slot:
    """What a measure's adapter gets for a value while a plan is recorded (:class:`_Recorder`)."""

    __slots__ = ("measure",)

    def __init__(self, measure: Any) -> None:
        self.measure = measure


class _Recorder:
    """A :class:`Context` stand-in that records the registry measures an adapter asks for:
    an adapter that returns what it was given is computed by the core's kernels."""

    def __init__(self, level: int) -> None:
        self.level = level
        self.num_docs = 0
        self.complete = False

    def value(self, m: Any) -> _Slot:
        return _Slot(m)


class _FastPlan:
    """The requests of an evaluator on the compiled core's path (``cranfield._core``'s
    ``dict_evaluate``, as :class:`cranfield.Evaluator`'s): plain dicts are judged in the
    core, with trec_eval 9.0.8's single-precision scores by default; the measures whose
    adapter only passes on a registry measure with a ``core_kernel`` are computed there,
    the others by :meth:`RelevanceEvaluator._compute` on the judged rankings the core
    returns.  Any input that is not plain goes to :meth:`RelevanceEvaluator._judge`."""

    def __init__(self, index: Any, calls: list, slots: list, extra: list) -> None:
        self.index = index
        self.calls = calls
        self.slots = slots  # (name, call index) or (name, (extra request, column))
        self.extra = extra

    def evaluate(
        self, scores: Mapping[str, Mapping[str, float]], ev: RelevanceEvaluator
    ) -> dict[str, dict[str, float]] | None:
        from cranfield import _core

        out = _core.dict_evaluate(
            self.index,
            scores,
            self.calls,
            False,
            -1,
            ev.judged_docs_only_flag,
            1,
            bool(self.extra),
            ev.v9,
            True,
        )
        if out is None:
            return None
        qids, values = out[0], out[1]
        rows = values.reshape(len(qids), len(self.calls)).tolist()
        extra: list[list[list[float]]] = []
        if self.extra:
            offsets, grades, fscores, tie_ids, qoffsets, qgrades, in_run = out[8]
            jr = JudgedRankings(
                query_ids=qids,
                offsets=offsets,
                grades=grades,
                scores=fscores,
                tie_ids=tie_ids,
                qrels_offsets=qoffsets,
                qrels_grades=qgrades,
                in_run=in_run,
                run_name="my_little_test_run",
                qrels_max_grade=ev._max_grade,
                judged_only=ev.judged_docs_only_flag,
            )
            ctx = Context(jr=jr, level=ev.relevance_level, num_docs=0, complete=False)
            extra = [[c.tolist() for c in ev._compute(req, ctx)] for req in self.extra]
        by_query = {}
        for i, (qid, row) in enumerate(zip(qids, rows, strict=True)):
            by_query[qid] = {
                name: row[at] if type(at) is int else extra[at[0]][at[1]][i]
                for name, at in self.slots
            }
        return {q: by_query[q] for q in scores if q in by_query}  # in the order of scores


def _fast_plan(
    qrels: Mapping[str, Mapping[str, int]], requests: list[_Request], ev: RelevanceEvaluator
) -> _FastPlan | None:
    """The core's plan of ``requests``, or ``None`` when the qrels are not plain dicts."""
    from cranfield import _core
    from cranfield.measures.core_kernels import kernel_call

    index = _core.dict_qrels(qrels)
    if index is None:
        return None
    key = ("plan", tuple(id(r) for r in requests), ev.v9, ev.relevance_level)
    planned = _PLANNED.get(key)
    if planned is not None and all(a is b for a, b in zip(planned[0], requests, strict=True)):
        return _FastPlan(index, *planned[1:])
    calls: list[Any] = []
    slots: list[tuple[str, Any]] = []
    extra: list[_Request] = []
    recorder = _Recorder(ev.relevance_level)
    for req in requests:
        tm = req.tm
        got: Any = []
        special = tm.kind in ("runid", "relstring") or (
            ev.v9 and tm.name in ("iprec_at_recall", "11pt_avg")
        )
        if not special:
            try:
                got = tm.compute(recorder, req.parsed.values)  # type: ignore[arg-type, misc]
            except Exception:  # an adapter that computes more than it asks for
                got = []
        kernel = [
            kernel_call(g.measure.definition, g.measure.resolve(None))
            if isinstance(g, _Slot)
            else None
            for g in got
        ]
        if got and len(got) == len(req.names) and None not in kernel:
            for name, call in zip(req.names, kernel, strict=True):
                if call not in calls:
                    calls.append(call)
                slots.append((name, calls.index(call)))
        else:
            extra.append(req)
            slots.extend((name, (len(extra) - 1, j)) for j, name in enumerate(req.names))
    if len(_PLANNED) > 256:
        _PLANNED.clear()
    _PLANNED[key] = (tuple(requests), calls, slots, extra)
    return _FastPlan(index, calls, slots, extra)


def _ranked(qid: str, docs: Mapping[str, float], v9: bool) -> list[tuple[str, float]]:
    """The (document, score) pairs in trec_eval's order: score descending, then document id
    descending (``strcmp``: code points, as Python compares strings).  ``v9``: the scores
    rounded to single precision first, as trec_eval 9.0.8 stores them (``float sim``)."""
    items = []
    for doc, score in docs.items():
        if not isinstance(doc, str) or isinstance(score, bool):
            raise ParameterError(
                f"scores: query {qid!r}, document {doc!r}: expected a document id mapped to a "
                f"number, got {score!r}"
            )
        try:
            items.append((doc, float(score)))
        except (TypeError, ValueError):
            raise ParameterError(
                f"scores: query {qid!r}, document {doc!r}: the score must be a number, "
                f"got {score!r}"
            ) from None
    if v9 and items:  # array("f") rounds to single precision (beyond it: infinity, as C)
        single = array("f", [x for _, x in items]).tolist()
        items = list(zip([d for d, _ in items], single, strict=True))
    items.sort(key=itemgetter(0), reverse=True)
    items.sort(key=itemgetter(1), reverse=True)
    return items


def _offsets(lengths: list[int]) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out
