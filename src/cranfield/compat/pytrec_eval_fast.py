"""The pytrec_eval work-alike's path through the compiled core: a plan per measure requests
(which measures the core's kernels compute, which the catalogue's functions), recorded slots
of the per-query dicts, and the rankings in trec_eval's order
(:class:`cranfield.compat.pytrec_eval.Evaluating`'s fast path)."""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from operator import itemgetter
from typing import Any, Protocol

import numpy as np

from cranfield import _core
from cranfield.compat.pytrec_eval_names import PLANNED, Request
from cranfield.compat.trec_eval.catalogue import (
    Context,
)
from cranfield.errors import ParameterError
from cranfield.measures.core_kernels import column_of, kernel_call
from cranfield.results.core_dicts import core_rankings


class Evaluating(Protocol):
    """What the plan reads of the :class:`~cranfield.compat.pytrec_eval.RelevanceEvaluator`
    it serves (a protocol: the evaluator's module imports this one)."""

    v9: bool
    relevance_level: int
    judged_docs_only_flag: bool
    _max_grade: Any

    def _compute(self, req: Request, ctx: Context) -> list[np.ndarray]: ...

    def _context(self, jr: Any) -> Context: ...


class _Slot:
    """What a measure's adapter gets for a value while a plan is recorded (:class:`_Recorder`):
    the measure, and whether its floored logarithm is asked for (``gm_map``, ``gm_bpref``)."""

    __slots__ = ("floored_log", "measure")

    def __init__(self, measure: Any, floored_log: bool = False) -> None:
        self.measure = measure
        self.floored_log = floored_log


class _Recorder:
    """A :class:`Context` stand-in that records the registry measures an adapter asks for:
    an adapter that returns what it was given is computed by the core's kernels."""

    def __init__(self, level: int, rounding: str) -> None:
        self.level = level
        self.rounding = rounding
        self.num_docs = 0
        self.complete = False

    def value(self, m: Any) -> _Slot:
        return _Slot(m)

    def values(self, ms: list[Any]) -> list[_Slot]:
        return [_Slot(m) for m in ms]

    def floored_log(self, m: Any) -> _Slot:
        return _Slot(m, floored_log=True)


ZERO = ("zero", -1, 0, 0.0, ())
"""The core's call of pytrec_eval's value of ``runid`` and ``relstring``: 0."""

FLOORED_LOG = {"ap": "gm_ap", "bpref": "gm_bpref"}
"""The kernels whose floored logarithm the core computes (trec_eval's per-query value of a
geometric mean), by the kernel's name."""


def _slot_call(slot: Any) -> Any:
    """The core's call of a recorded value (:class:`_Slot`), or None."""
    if not isinstance(slot, _Slot):
        return None
    call = kernel_call(slot.measure.definition, slot.measure.resolve(None))
    if call is None or not slot.floored_log:
        return call
    name = FLOORED_LOG.get(call[0])
    return None if name is None else (name, *call[1:])


class CorePlan:
    """The requests of an evaluator on the compiled core's path (``cranfield._core``'s
    ``dict_evaluate``, as :class:`cranfield.Evaluator`'s): plain dicts are judged in the
    core, with trec_eval 9.0.8's single-precision scores by default; the measures whose
    adapter only passes on a registry measure with a ``core_kernel`` are computed there,
    the others by :meth:`Evaluating._compute` on the judged rankings the core
    returns.  Any input that is not plain goes to :meth:`Evaluating._judge`."""

    def __init__(self, index: Any, calls: list, slots: list, extra: list, named: Any) -> None:
        self.index = index
        self.calls = calls
        self.slots = slots  # (name, call index) or (name, (extra request, column))
        self.extra = extra
        self.named = named
        """Without extra requests, the core's ``DictPlan.named``: ``named(index, scores)`` is
        :meth:`evaluate`'s dict, made in the core; else None."""

    def evaluate(
        self, scores: Mapping[str, Mapping[str, float]], ev: Evaluating
    ) -> dict[str, dict[str, float]] | None:
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
            jr = core_rankings(
                out[8], qids, "my_little_test_run", ev._max_grade, ev.judged_docs_only_flag
            )
            ctx = ev._context(jr)
            extra = [[c.tolist() for c in ev._compute(req, ctx)] for req in self.extra]
        by_query = {}
        for i, (qid, row) in enumerate(zip(qids, rows, strict=True)):
            by_query[qid] = {
                name: row[at] if type(at) is int else extra[at[0]][at[1]][i]
                for name, at in self.slots
            }
        return {q: by_query[q] for q in scores if q in by_query}  # in the order of scores


def core_plan(index: Any, requests: tuple[Request, ...], ev: Evaluating) -> CorePlan:
    """The core's plan of ``requests`` over ``index`` (``_core.dict_qrels`` of the qrels),
    made once per requests (the cached tuple of :func:`requests_of`) and options."""
    key = ("plan", id(requests), ev.v9, ev.relevance_level, ev.judged_docs_only_flag)
    planned = PLANNED.get(key)
    if planned is not None and planned[0] is requests:
        return CorePlan(index, *planned[1:])
    calls: list[Any] = []
    slots: list[tuple[str, Any]] = []
    extra: list[Request] = []
    recorder = _Recorder(ev.relevance_level, "trec9" if ev.v9 else "trec10")
    for req in requests:
        tm = req.tm
        got: Any = []
        kernel: list[Any] = []
        if tm.kind in ("runid", "relstring"):
            got = kernel = [ZERO]
        else:
            try:
                got = tm.compute(recorder, req.parsed.values)  # type: ignore[arg-type, misc]
            except Exception:  # an adapter that computes more than it asks for
                got = []
            kernel = [_slot_call(g) for g in got]
        if got and len(got) == len(req.names) and None not in kernel:
            for name, call in zip(req.names, kernel, strict=True):
                assert call is not None  # None not in kernel
                slots.append((name, column_of(calls, call)))
        else:
            extra.append(req)
            slots.extend((name, (len(extra) - 1, j)) for j, name in enumerate(req.names))
    named = None
    if not extra:  # every value a kernel's: the core makes the result dict
        plan = _core.dict_plan(
            calls, False, -1, ev.judged_docs_only_flag, 1, False, ev.v9, True, names=slots
        )
        named = None if plan is None else plan.named
    if len(PLANNED) > 256:
        PLANNED.clear()
    PLANNED[key] = (requests, calls, slots, extra, named)
    return CorePlan(index, calls, slots, extra, named)


def ranked(qid: str, docs: Mapping[str, float], v9: bool) -> list[tuple[str, float]]:
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


def offsets_of(lengths: list[int]) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out
