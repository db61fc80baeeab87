"""Plain dicts evaluated by the compiled core (``_core.dict_evaluate``), and the caches that
make a small call cheap: measure strings parsed once, judging options made once, the core's
plan made once per measures and options (issue 25's small in-memory calls).

:func:`evaluate_dicts` is :func:`cranfield.evaluate`'s path for one run dict,
:class:`cranfield.Evaluator` keeps a :class:`FastPlan` and the core's qrels index; where the
core does not apply (another tie policy, side inputs, micro averages, a run that is not a plain
dict) they return ``None`` and the general path evaluates, with its wording of any problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from cranfield.base.arguments import measure_list
from cranfield.errors import CranfieldError
from cranfield.judging.options import JudgeOptions
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures import Measure, parse
from cranfield.results.aggregate import resolve_aggregation
from cranfield.results.tables import Results

DEFAULT_MEASURES = ("AP", "nDCG@10", "P@10", "RR", "R@1000")


def measure_specs(
    measures: str | Measure | Sequence[str | Measure] | None,
) -> list[tuple[str, Measure]]:
    out: list[tuple[str, Measure]] = []
    seen: set[str] = set()
    for m in measure_list(measures, DEFAULT_MEASURES):
        label = m if isinstance(m, str) else str(m)
        if label in seen:
            continue
        seen.add(label)
        out.append((label, parse(m)))
    return out


_CACHE_LIMIT = 256
_MEASURES: dict[Any, Measured] = {}
_OPTIONS: dict[Any, JudgeOptions] = {}
_PLANS: dict[Any, Any] = {}


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


class Measured(NamedTuple):
    """The measures of a call: as given (:func:`measure_list`) and parsed
    (:func:`measure_specs`)."""

    measures: tuple[Any, ...]
    specs: tuple[tuple[str, Measure], ...]


def cached_measures(measures: str | Measure | Sequence[str | Measure] | None) -> Measured:
    """The measures listed and parsed, once per measure strings (a string, or a list or
    tuple of strings)."""
    key: Any = None
    given: Any = measures
    if given is None or type(given) is str:
        key = (type(given), given)
    elif type(given) in (list, tuple) and all(type(m) is str for m in given):
        key = (type(given), tuple(given))
    got = _MEASURES.get(key) if key is not None else None
    if got is None:
        listed = tuple(measure_list(measures, DEFAULT_MEASURES))
        got = Measured(listed, tuple(measure_specs(list(listed))))
        if key is not None:
            _remember(_MEASURES, key, got)
    return got


def cached_specs(
    measures: str | Measure | Sequence[str | Measure] | None,
) -> tuple[tuple[str, Measure], ...]:
    """:func:`measure_specs`, parsed once per measure strings."""
    return cached_measures(measures).specs


def cached_options(keywords: Mapping[str, Any], **fixed: Any) -> JudgeOptions:
    """``JudgeOptions.from_keywords(keywords)`` with ``fixed`` changes, made once per plain
    keywords (None, booleans, integers, strings)."""
    items = (*keywords.items(), *fixed.items())
    plain = all(x is None or type(x) in (bool, int, str) for _, x in items)
    key = tuple((k, type(x), x) for k, x in items) if plain else None
    got = _OPTIONS.get(key) if key is not None else None
    if got is None:
        got = JudgeOptions.from_keywords(keywords)
        if fixed:
            got = got.replace(**fixed)
        if key is not None:
            _remember(_OPTIONS, key, got)
    return got


def cached_plan(
    specs: tuple[tuple[str, Measure], ...], options: JudgeOptions, aggregate: Any
) -> FastPlan | None:
    """:func:`fast_plan`, made once per parsed measures, options and plain ``aggregate``."""
    if not (aggregate is None or type(aggregate) is str):
        return fast_plan(specs, options, aggregate)
    key = (id(specs), id(options), aggregate)
    got = _PLANS.get(key)
    if got is None or got[0] is not specs or got[1] is not options:
        got = _remember(_PLANS, key, (specs, options, fast_plan(specs, options, aggregate)))
    return got[2]


class FastPlan(NamedTuple):
    """What the compiled core computes for some measures under some judging options."""

    specs: tuple[tuple[str, Measure], ...]
    params: tuple[dict[str, Any], ...]
    calls: list[tuple[str, int, int, float, tuple[float, ...]]]
    """The core's kernel calls (``cranfield.measures.core_kernels``), each once."""
    column: tuple[int | None, ...]
    """Per measure, its kernel call, or None: computed by its function."""
    arrays: bool
    rel: int
    depth: int
    judged_only: bool
    complete: bool
    options: JudgeOptions
    direct: bool
    """Every measure has a kernel, each its own, in order, and ``aggregate`` is None: with
    nothing to warn about, the core's values are the Results' (:func:`dict_results`)."""
    labels: tuple[str, ...]
    measures: tuple[Measure, ...]
    core: Any
    """The core's ``DictPlan.evaluate`` (``dict_evaluate`` with this plan's arguments,
    converted once): ``core(index, run)``."""


def fast_plan(
    specs: Sequence[tuple[str, Measure]], options: JudgeOptions, aggregate: Any
) -> FastPlan | None:
    """The plan of the compiled core's path, or ``None`` where it does not apply (a tie
    policy other than trec and given - given only where every measure has a kernel - side
    inputs, micro averages)."""
    from cranfield import _core
    from cranfield.measures.core_kernels import column_of, kernel_call
    from cranfield.measures.mteb import READS_ANNOTATION
    from cranfield.measures.params import INT64_MAX, INT64_MIN
    from cranfield.results.blocks import micro_labels

    side = (options.collection_size, options.known, options.target, options.prefs)
    if options.ties not in ("trec", "given") or any(x is not None for x in side):
        return None
    if options.judgment_groups is not None or options.subtopics is not None:
        return None
    if any(m.definition.needs for _, m in specs) or micro_labels(specs, aggregate):
        return None
    if any(m.definition.name in READS_ANNOTATION for _, m in specs):
        return None
    defaults = options.defaults
    rel = (defaults or {}).get("rel", 1)
    if not INT64_MIN <= rel <= INT64_MAX:
        return None
    params = tuple(m.resolve(defaults) for _, m in specs)
    calls: list[tuple[str, int, int, float, tuple[float, ...]]] = []
    column: list[int | None] = []
    for (_, m), p in zip(specs, params, strict=True):
        call = kernel_call(m.definition, p)
        column.append(None if call is None else column_of(calls, call))
    given = options.ties == "given"
    if given and None in column:
        return None  # the judged arrays' tie groups are made under trec's order
    depth = -1 if options.depth is None else max(0, min(options.depth, INT64_MAX))
    return FastPlan(
        tuple(specs),
        params,
        calls,
        tuple(column),
        None in column,
        rel,
        depth,
        options.judged_only,
        options.complete,
        options,
        aggregate is None and column == list(range(len(specs))) and len(calls) == len(specs),
        tuple(label for label, _ in specs),
        tuple(m for _, m in specs),
        _core.dict_plan(
            calls, options.complete, depth, options.judged_only, rel, None in column, given=given
        ).evaluate,
    )


def dict_index(qrels: Any) -> Any:
    """The compiled core's index of plain qrels dicts, or ``None``."""
    from cranfield import _core

    return _core.dict_qrels(qrels)


def dict_call(index: Any, plan: FastPlan, run: Any) -> tuple[Any, ...] | None:
    """The compiled core's ``dict_evaluate`` of the run dict ``run`` (None: not a plain dict,
    or no query evaluated)."""
    return plan.core(index, run)  # type: ignore[no-any-return]


def quiet(plan: FastPlan, out: tuple[Any, ...]) -> bool:
    """Whether the core's values are the Results' values as they are and nothing is to be
    warned about (no query left out, no measure undefined)."""
    return plan.direct and not (out[6] or out[7] or any(out[2]))


def dict_results(index: Any, plan: FastPlan, run: Any, name: str, aggregate: Any) -> Results | None:
    """The Results of the run dict ``run`` by the compiled core's path, or ``None`` when the
    run is not a plain dict (or evaluates no query): the general path's to read."""
    out = dict_call(index, plan, run)
    return None if out is None else results_of(out, index, plan, name, aggregate)


def made_results(
    run: str,
    query_ids: tuple[str, ...],
    labels: tuple[str, ...],
    measures: tuple[Measure, ...],
    values: np.ndarray,
    summary: dict[str, Any],
    notes: dict[str, Any],
) -> Results:
    """``Results(run, query_ids, labels, measures, values, summary, notes)`` for ``values``
    that are queries x labels already (the core's, reshaped so): made without the frozen
    dataclass's ``__init__``, whose check and eleven ``object.__setattr__`` calls were a
    fifth of a one-query evaluation; every other field its default (a new dict, or None)."""
    made = object.__new__(Results)
    made.__dict__.update(
        run=run,
        query_ids=query_ids,
        labels=labels,
        measures=measures,
        values=values,
        summary=summary,
        notes=notes,
        aggregation={},
        parts={},
        intervals=None,
        metadata=None,
    )
    return made


def core_rankings(
    arrays: tuple[Any, ...],
    query_ids: tuple[str, ...],
    run_name: str,
    max_grade: Any,
    judged_only: bool,
    *,
    depth: int | None = None,
    notes: dict[str, Any] | None = None,
) -> JudgedRankings:
    """The :class:`JudgedRankings` of the core's judged arrays (``dict_evaluate(arrays=True)``:
    offsets, grades, scores, tie ids, qrels offsets, qrels grades, in_run), for the measures
    without a kernel."""
    offsets, grades, scores, tie_ids, qoffsets, qgrades, in_run = arrays
    return JudgedRankings(
        query_ids=query_ids,
        offsets=offsets,
        grades=grades,
        scores=scores,
        tie_ids=tie_ids,
        qrels_offsets=qoffsets,
        qrels_grades=qgrades,
        in_run=in_run,
        run_name=run_name,
        qrels_max_grade=max_grade,
        depth=depth,
        judged_only=judged_only,
        notes={} if notes is None else notes,
    )


def results_of(
    out: tuple[Any, ...], index: Any, plan: FastPlan, name: str, aggregate: Any
) -> Results:
    """The Results of the core's ``dict_evaluate`` output ``out`` (:func:`dict_call`)."""
    qids, values, undefined, retrieved, relevant, rel_ret, run_only, missing, arrays, totals = out
    nq, specs = len(qids), plan.specs
    notes = {"run_only_queries": run_only, "missing_queries": missing}
    computed = values.reshape(nq, len(plan.calls))
    if plan.direct and not (run_only or missing or any(undefined)):  # quiet(plan, out)
        # the queries are in strcmp order already: what combine() makes
        retrieved_all, relevant_all, rel_ret_all = totals
        summary = {
            "queries": nq,
            "retrieved": retrieved_all,
            "relevant": relevant_all,
            "relevant_retrieved": rel_ret_all,
        }
        return made_results(name, qids, plan.labels, plan.measures, computed, summary, notes)
    from cranfield import _core
    from cranfield.results.blocks import Block, combine

    jr = None
    if plan.arrays:
        jr = core_rankings(
            arrays,
            qids,
            name,
            index.max_grade,
            plan.judged_only,
            depth=plan.options.depth,
            notes=notes,
        )
    cols = np.empty((nq, len(specs)))
    counts: list[int] = []
    for j, (_, m) in enumerate(specs):
        c = plan.column[j]
        d = m.definition
        if c is not None:
            cols[:, j] = computed[:, c]
            # the kernel's count of each undefined case (UNDEFINED_CASES slots a kernel)
            cases = _core.UNDEFINED_CASES
            counts.extend(undefined[c * cases + i] for i in range(len(d.undefined)))
            continue
        p = plan.params[j]
        cols[:, j] = np.asarray(d.func(jr, **p), dtype=np.float64)
        counts.extend(int(np.count_nonzero(u.mask(jr, **p))) for u in d.undefined)
    block = Block(qids, cols, retrieved, relevant, rel_ret, tuple(counts), {})
    return combine(
        [block],
        specs,
        name=name,
        notes=notes,
        complete=bool(plan.complete and missing),
        qrels_source="<qrels dict>",
        aggregate=aggregate,
    )


def evaluate_dicts(
    qrels: dict[Any, Any],
    run: dict[Any, Any],
    measures: Any,
    depth: Any,
    judged_only: Any,
    complete: Any,
    rel: Any,
    aggregate: Any,
    ties: str = "trec",
    index: Any = None,
) -> Results | None:
    """:func:`evaluate` of one run dict by the compiled core's path, or ``None``: the
    general path's to do (and to word any problem); ``ties``: ``trec`` or ``given``;
    ``index``: the core's index of ``qrels`` (:func:`dict_index`), made already."""
    plain = (type(judged_only) is bool and type(complete) is bool) and all(
        x is None or type(x) is int for x in (depth, rel)
    )
    if not plain or not (aggregate is None or type(aggregate) is str):
        return None
    try:
        specs = cached_specs(measures)
        key: tuple[Any, ...] = (id(specs), type(depth), depth, judged_only, complete)
        key += (type(rel), rel, aggregate, ties)
        got = _PLANS.get(key)
        if got is None or got[0] is not specs:
            keywords = {"depth": depth, "judged_only": judged_only, "complete": complete}
            options = cached_options({**keywords, "rel": rel, "ties": ties})
            for _, m in specs:
                m.definition.function(ties)
            resolve_aggregation(specs, aggregate, warn=False)
            got = _remember(_PLANS, key, (specs, options, cached_plan(specs, options, aggregate)))
        plan = got[2]
    except CranfieldError:
        return None  # the general path raises it, in its order
    if plan is None:
        return None
    if index is None:
        index = dict_index(qrels)
        if index is None:
            return None
    return dict_results(index, plan, run, "run", aggregate)
