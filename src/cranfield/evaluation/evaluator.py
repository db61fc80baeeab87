"""``cranfield.Evaluator``: qrels and measures prepared once, for many evaluations (runs, or
single queries in a loop), with the values of :func:`cranfield.evaluate`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from cranfield.base import arguments as A
from cranfield.data.tables import Qrels
from cranfield.errors import ParameterError
from cranfield.evaluation.runs import evaluate_runs
from cranfield.io import QrelsSource, RunSource
from cranfield.judging.options import JudgeOptions
from cranfield.judging.runs import JudgedRuns, judge_many
from cranfield.measures import Measure
from cranfield.results.aggregate import resolve_aggregation
from cranfield.results.core_dicts import (
    cached_measures,
    cached_options,
    cached_plan,
    cached_specs,
    dict_index,
    quiet,
    results_of,
)
from cranfield.results.tables import Results

__all__ = ["Evaluator"]


class Evaluator:
    """Qrels and measures prepared once, for many evaluations (``cranfield.Evaluator``).

    ``Evaluator(qrels, measures, **options)`` reads and checks the qrels once, parses the
    measures once and checks the judging options (the keywords of :func:`evaluate`: ``ties``,
    ``depth``, ``judged_only``, ``complete``, ``rel``...) and ``aggregate`` once; then
    :meth:`evaluate` takes a run (path, DataFrame, ``{qid: {doc: score}}`` or
    :class:`~cranfield.data.tables.Run`) and returns the :class:`Results` that
    ``evaluate(qrels, run, measures, **options)`` returns, bit for bit, and
    :meth:`evaluate_query` one query's ``{label: value}``.  Nothing of one call is kept for
    the next.  Plain qrels and run dicts are judged and measured by the compiled core
    (:func:`~cranfield.results.core_dicts.dict_results`), everything else by the general
    path, with the same values.
    """

    def __init__(
        self,
        qrels: QrelsSource,
        measures: str | Measure | Sequence[str | Measure] | None = None,
        *,
        aggregate: str | Sequence[str] | Mapping[str, str] | None = None,
        **options: Any,
    ) -> None:
        self.options = cached_options(options)
        measured = cached_measures(measures)
        self.measures = measured.measures
        self.specs = list(measured.specs)
        for _, m in self.specs:
            m.definition.function(self.options.ties)  # no tie-aware form under "weak"
        resolve_aggregation(self.specs, aggregate, warn=False)
        self.aggregate = aggregate
        A.qrels_given(qrels)
        self._qrels_source = qrels
        self._prepare(measured.specs, cached_options(options, complete=False))

    def _prepare(self, specs: tuple[tuple[str, Measure], ...], query: JudgeOptions) -> None:
        """Plain qrels dicts indexed by the compiled core, with the plans of
        :meth:`evaluate` and of :meth:`evaluate_query` (options ``query``); otherwise the
        qrels read and checked now."""
        qrels = self._qrels_source
        self._index = dict_index(qrels) if type(qrels) is dict else None
        self._plan = self._query_plan = None
        if self._index is not None:
            self._plan = cached_plan(specs, self.options, self.aggregate)
            self._query_plan = cached_plan(specs, query, self.aggregate)
        if self._plan is None or self._query_plan is None:
            self._index = self._plan = self._query_plan = None
            _ = self.qrels  # read and checked now

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the core's index and plans (made again when unpickled)."""
        state = dict(self.__dict__)
        for name in ("_index", "_plan", "_query_plan"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        specs = cached_specs(list(self.measures))
        self._prepare(specs, self.options.replace(complete=False))

    @cached_property
    def qrels(self) -> Qrels:
        """The qrels, read and checked (on first use when they are plain dicts, which the
        compiled core has indexed and checked already)."""
        return JudgedRuns(self._qrels_source, [], None, self.options, False).qrels

    def evaluate(self, run: RunSource, *, name: str | None = None) -> Results:
        """The :class:`Results` of one run, as :func:`evaluate` gives them."""
        plan = self._plan
        if plan is not None and name is None:  # the core's index and plan (see _prepare)
            out = plan.core(self._index, run)
            if out is not None:
                return results_of(out, self._index, plan, "run", self.aggregate)
        judged = judge_many(
            self.qrels, run, names=None if name is None else [name], options=self.options
        )
        if judged.many:
            raise ParameterError("Evaluator.evaluate takes one run, not a list or dict of runs")
        return evaluate_runs(judged, None, aggregate=self.aggregate, jobs=1, specs=self.specs)[0]

    def evaluate_query(self, qid: str, ranking: Mapping[str, float]) -> dict[str, float]:
        """One query's values, ``{label: value}``, for a ranking ``{doc: score}``."""
        qid = str(qid)
        plan = self._query_plan
        if plan is not None:  # the core's index and plan (see _prepare)
            out = plan.core(self._index, {qid: ranking})
            if out is not None:  # the one query has judgments
                # the qrels' other queries were not asked for: not "judged queries without
                # results" (the core lists them as missing, index 7 of its output)
                out = (*out[:7], [], *out[8:])
                if quiet(plan, out):
                    return dict(zip(plan.labels, out[1].tolist(), strict=True))
                values = results_of(out, self._index, plan, "run", self.aggregate).values
                return dict(zip(plan.labels, values[0].tolist(), strict=True))
        judged = judge_many(
            self.qrels, {qid: ranking}, names=["run"], options=self.options.replace(complete=False)
        )
        res = evaluate_runs(judged, None, aggregate=self.aggregate, jobs=1, specs=self.specs)[0]
        table = res.per_query()
        if qid not in table.index:
            return {}
        row = table.loc[qid]
        return {label: float(row[label]) for label, _ in self.specs}


# ------------------------------------------------------------------ small in-memory calls
# Plain dicts ({qid: {doc: value}} of str ids, int grades, finite float or int scores) are
# judged and measured by the compiled core (rust/src/dicts.rs) in one pass, without a Run,
# a Qrels or pandas: the measures that declare a ``core_kernel`` are computed per query in
# the core, the others by their functions on the judged rankings the core returns.  Anything
# else (another tie policy, side inputs, micro averages, other value types, any problem in
# the input) takes the general path, which words every error: the results are the same.
