"""trec_eval's evaluation, topic by topic: the measures the ``-m`` arguments mark and their
parameters (:func:`mark_measures`, :func:`init_measures`, :func:`check_formats`), a run judged
as trec_eval judges it and measured per topic (:func:`judge_qrels`, :func:`evaluate_qrels`,
``-c``'s dummy rankings), the topics evaluated apart joined (:func:`merge_topics`) and the
result before printing (:class:`TrecEvaluation`).  Used by the command (:mod:`.engine`) and by
the evaluation of a large run a block at a time (:mod:`.streamed`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from cranfield.compat.trec_eval.catalogue import (
    BY_NAME,
    CATALOGUE,
    NICKNAMES,
    Context,
    ParamError,
    Parsed,
    cleared_on_dummy,
    parse_params,
)
from cranfield.compat.trec_eval.options import Options

if TYPE_CHECKING:
    from cranfield.data.tables import Qrels, Run
    from cranfield.io.trec.judgment_files import JudgmentGroups, Prefs

    RelInfo: TypeAlias = Qrels | Prefs | JudgmentGroups
    """A rel_info file as read for its format (qrels, prefs/qrels_prefs, qrels_jg)."""


class Exit(Exception):
    """Stop with an exit status after writing ``message`` to stderr."""

    def __init__(self, status: int, message: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Slot:
    """One printed value per topic (``P_5``) of one measure."""

    name: str
    values: np.ndarray


@dataclass
class TrecEvaluation:
    """Everything ``trec_eval`` would print, before formatting (full precision)."""

    opts: Options
    qids: list[str]
    measures: list[tuple]  # (TrecMeasure, [Slot, ...]) in print order
    relstrings: list[str] | None
    runid: str | None
    rel_info: RelInfo

    def slots(self) -> dict[str, np.ndarray]:
        """``{printed name: per-topic values}`` of every numeric value."""
        return {s.name: s.values for _tm, slots in self.measures for s in slots}


def mark_measures(requests: Sequence[str]) -> tuple[set[str], list[tuple[str, str]]]:
    """Measures marked by the ``-m`` arguments and their (name, params) in order."""
    marked: set[str] = set()
    params: list[tuple[str, str]] = []
    for arg in requests:
        name, dot, text = arg.partition(".")
        if dot:
            if not text:
                raise Exit(
                    1,
                    f"trec_eval: improper measure in parameter '{name}'\n"
                    f"trec_eval: illegal measure '{name}'\n",
                )
            params.append((name, text))
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in BY_NAME:
            marked.add(name)
        else:
            raise Exit(1, f"trec_eval: illegal measure '{name}'\n")
    return marked, params


def init_measures(marked: set[str], params: list[tuple[str, str]]) -> list[tuple]:
    """(TrecMeasure, Parsed) of the marked measures in print order; bad params exit 2."""
    out = []
    for tm in CATALOGUE:
        if tm.name not in marked:
            continue
        text = next((t for n, t in params if n == tm.name), None)  # the first one wins
        try:
            out.append((tm, parse_params(tm, text)))
        except ParamError as exc:
            raise Exit(2, f"{exc}\ntrec_eval: Cannot initialize measure '{tm.name}'\n") from None
    return out


def check_formats(measures: list[tuple], rel_format: str) -> None:
    """A measure on the wrong rel_info format fails at its first topic, as in trec_eval."""
    for tm, _ in measures:
        if tm.kind in ("runid", "num_q"):
            continue
        wanted = ("prefs", "qrels_prefs") if tm.rel_format == "prefs" else (tm.rel_format,)
        if rel_format not in wanted:
            if tm.rel_format == "qrels":
                what = (
                    "trec_eval.form_res_qrels: rel_info format not qrels or results format "
                    "not trec_results"
                )
            elif tm.rel_format == "qrels_jg":
                what = (
                    "trec_eval.form_res_rels_jg: rel_info format not qrels_jg or results "
                    "format not trec_results"
                )
            else:
                what = (
                    "trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) "
                    "or results format not trec_results"
                )
            raise Exit(4, f"{what}\ntrec_eval: Can't calculate measure '{tm.name}'\n")
        if tm.name == "utility" and len(_parsed_of(measures, tm).values) != 4:
            raise Exit(
                4,
                "trec_eval.calc_utility: improper number of coefficients\n"
                "trec_eval: Can't calculate measure 'utility'\n",
            )


def _parsed_of(measures: list[tuple], tm) -> Parsed:
    return next(p for t, p in measures if t is tm)


DUMMY_DOCNO = "ceci_nest_pas_un_docno"
"""The one document of trec_eval -c's ranking of a judged topic missing from the results."""


def dummy_run(name: str, topics: Sequence[str]) -> Run:
    """trec_eval.c's ``bogus_ranking`` for each of ``topics``: :data:`DUMMY_DOCNO`, score 1.0
    (judged as any document: not in the qrels, unless they list it)."""
    from cranfield.data.id_column import IdColumn
    from cranfield.data.tables import Run

    n = len(topics)
    return Run(
        name=name,
        query_ids=tuple(topics),
        qcodes=np.arange(n, dtype=np.int32),
        docs=IdColumn([DUMMY_DOCNO] * n),
        scores=np.ones(n),
        ranks=np.ones(n, dtype=np.int64),
    )


def evaluate_dummies(qrels, missing: Sequence[str], name: str, opts: Options, measures, side):
    """``-c``: the judged topics ``missing`` from the results, each measured on trec_eval's
    dummy ranking (:func:`dummy_run`), with the values trec_eval.c then blanks blanked."""
    jr = judge_qrels(qrels.restrict(missing), dummy_run(name, missing), opts, side)
    return evaluate_qrels(jr, opts, measures, dummy=True)


def merge_topics(parts: list[tuple]) -> tuple[list[str], dict, list[str] | None]:
    """The ``(topics, values, relstrings)`` of topics evaluated apart (blocks of a run, the
    dummy rankings of ``-c``), joined in topic order.  The parts' values are handed over,
    measure by measure (their dicts are emptied), so that they are not held twice."""
    parts = [p for p in parts if p[0]]
    if len(parts) == 1:
        return parts[0]
    qids = [q for p in parts for q in p[0]]
    order = topic_order(qids)
    values = {}
    for k in list(parts[0][1]) if parts else []:
        slots = zip(*(p[1].pop(k) for p in parts), strict=True)
        values[k] = [np.concatenate(cols)[order] for cols in slots]
    relstrings = None
    if parts and parts[0][2] is not None:
        flat = [r for p in parts for r in p[2]]
        relstrings = [flat[i] for i in order]
    return [qids[i] for i in order], values, relstrings


def topic_order(qids: list[str]) -> np.ndarray:
    """The positions of ``qids`` in topic order (``strcmp``: Python's order of ``str``)."""
    return np.array(sorted(range(len(qids)), key=qids.__getitem__), dtype=np.intp)


def finish(opts, measures, qids, values, relstrings, skipped, zscores, tag, rel_info):
    """The evaluation from the per-topic values of the measures."""
    if not qids:
        raise Exit(7, "trec_eval: No queries with both results and relevance info\n")
    warn_skipped(*skipped)
    per_measure = []
    for tm, parsed in measures:
        if tm.kind == "runid":
            per_measure.append((tm, []))
            continue
        cols = [np.ones(len(qids))] if tm.kind == "num_q" else values[tm.name]
        names = tm.slot_names(parsed)
        per_measure.append((tm, [Slot(n, v) for n, v in zip(names, cols, strict=True)]))
    if zscores is not None:
        for _tm, slot_list in per_measure:
            for s in slot_list:
                s.values = zscores.convert(qids, s.name, s.values)
    return TrecEvaluation(opts, qids, per_measure, relstrings, tag, rel_info)


def skipped_queries(rel_ids: Sequence[str], run, opts: Options) -> tuple[str, list[str], list[str]]:
    """(run name, queries of the run without judgments, judged queries without results that
    are not evaluated): trec_eval skips both without a word; cranfield says so on stderr."""
    if opts.debug_query is not None:  # -D level.qid: the other queries are left out on request
        rel_ids = [q for q in rel_ids if q == opts.debug_query]
    judged = set(rel_ids)
    run_ids = run.query_ids
    if opts.debug_query is not None:
        run_ids = [q for q in run_ids if q == opts.debug_query]
    run_only = [q for q in run_ids if q not in judged]
    in_run = set(run_ids)
    missing = [] if opts.complete else [q for q in rel_ids if q not in in_run]
    return run.name, run_only, missing


def warn_skipped(name: str, run_only: list[str], missing: list[str]) -> None:
    """The notes of ``cranfield evaluate``, worded the same way, with trec_eval's flag."""
    from cranfield.results.blocks import warn_query_notes

    what = "were skipped (use -c to score them as empty rankings)"
    warn_query_notes(name, run_only, missing, what)


def judge_qrels(qrels, run, opts: Options, side: dict | None = None):
    """The run judged as trec_eval does; the queries evaluated are those of ``qrels`` (for the
    preference and judgment-group formats: the queries they judge)."""
    from cranfield.judging.join import judge

    if opts.debug_query is not None:
        qrels = qrels.restrict([opts.debug_query])
    return judge(
        qrels,
        run,
        ties="trec",
        depth=opts.max_docs,
        judged_only=opts.judged_only,
        **(side or {}),
    )


def evaluate_qrels(
    jr, opts: Options, measures: list[tuple], dummy: bool = False, together: list | None = None
):
    """``(topics, values, relstrings)`` of the judged rankings; ``dummy``: they are -c's dummy
    rankings, whose values trec_eval.c blanks by name (:func:`cleared_on_dummy`).
    ``together``: for the batches of one run, a list kept from batch to batch: empty, it is
    filled with the registry measures this batch needs; filled, they are computed together
    first (one pass of the core's kernels over the rows for all of them, not one per
    trec_eval measure)."""
    ctx = Context(
        jr=jr,
        level=opts.level,
        num_docs=opts.num_docs,
        complete=opts.complete,
        asked=[] if together is not None and not together else None,
    )
    if together:
        ctx.values(together)
    values: dict[str, list[np.ndarray]] = {}
    relstrings = None
    for tm, parsed in measures:
        cleared = [dummy and cleared_on_dummy(name) for name in tm.slot_names(parsed)]
        if tm.kind == "relstring":
            relstrings = _relstrings(jr, parsed.values[0])
            if cleared[0]:
                relstrings = [""] * len(relstrings)
        if tm.compute is not None:
            cols = tm.compute(ctx, parsed.values)
            values[tm.name] = [
                np.zeros(jr.num_queries) if c else col for c, col in zip(cleared, cols, strict=True)
            ]
    if ctx.asked and together is not None:
        together.extend(ctx.asked)
    return list(jr.query_ids), values, relstrings


_REL_CHARS = np.array(list("<.-0123456789>"))


def _relstrings(jr, length: float) -> list[str]:
    """trec_eval's relstring: the first ``(long) length`` judgements as characters.

    A length outside C's ``long`` (or NaN) converts to ``LONG_MIN`` on x86-64, hence 0."""
    k = int(length) if -(2.0**63) <= length < 2.0**63 else 0  # False for NaN too
    k = max(k, 0)
    keep = jr.rank <= k
    g = jr.grades[keep]
    code = np.where(
        g > 9, 13, np.where(g >= 0, g + 3, np.where(g == -1, 2, np.where(g == -2, 1, 0)))
    )
    chars = _REL_CHARS[code]
    counts = np.minimum(jr.num_ret, k)
    text = "".join(chars.tolist())
    bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
    return [text[a:b] for a, b in itertools.pairwise(bounds)]
