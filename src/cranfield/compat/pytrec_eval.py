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
measures that declare a ``core_kernel`` (map, gm_map, ndcg_cut, P, recall, recip_rank,
Rprec, success, bpref, gm_bpref, iprec_at_recall, 11pt_avg, the counts: all of
``'official'``; infAP, utility, binG, G, ndcg_rel, Rndcg, relative_P and the set_ measures
too: all of ``'all_trec'``); the other measures are the registry's, through trec_eval's
catalogue, on the judged rankings the core returns.  Other inputs take the Python path (the judged
rankings built straight from the dicts, no Run, Qrels or DataFrame), with the same values.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Iterable, Mapping

import numpy as np

from cranfield import _core
from cranfield.compat.pytrec_eval_fast import core_plan, offsets_of, ranked
from cranfield.compat.pytrec_eval_names import (
    VERSIONS,
    Request,
    requests_of,
    supported_measures,
    supported_nicknames,
)
from cranfield.compat.trec_eval.catalogue import (
    Context,
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


def _checked_qrels(
    query_relevance: Mapping[str, Mapping[str, int]],
) -> tuple[dict[str, tuple[dict[str, int], list[int]]], int | None]:
    """The judged queries' ``{document: grade}`` and sorted grades, and the highest grade;
    one :class:`ParameterError` for the first query or grade of the wrong type."""
    judgments = {}
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
                    f"query_relevance: query {qid!r}, document {doc!r}: the grade "
                    f"must be an integer, got {grade!r}"
                )
        grades = dict(docs)
        ordered = sorted(grades.values(), reverse=True)
        top = ordered[0] if top is None else max(top, ordered[0])
        judgments[qid] = (grades, ordered)
    return judgments, top


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
        self._requests = requests_of(measures, self.v9)
        self.relevance_level = relevance_level
        self.judged_docs_only_flag = bool(judged_docs_only_flag)
        # the core indexes plain dicts only (exact str ids, int grades): every check of
        # _checked_qrels then passes, and the general path's structures are made only if
        # that path is taken (from the index: what the qrels were when given)
        index = _core.dict_qrels(query_relevance)
        self._index = index
        self._judgments: dict[str, tuple[dict[str, int], list[int]]] | None = None
        if index is None:
            self._judgments, self._max_grade = _checked_qrels(query_relevance)
            self._fast = None
        else:
            self._max_grade = index.max_grade
            self._fast = core_plan(index, self._requests, self)

    @property
    def _qrels(self) -> dict[str, tuple[dict[str, int], list[int]]]:
        """Per judged query, its ``{document: grade}`` and its grades sorted descending."""
        if self._judgments is None:
            self._judgments = _checked_qrels(self._index.judgments())[0]
        return self._judgments

    # ------------------------------------------------------------------ evaluating
    def evaluate(self, scores: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
        """``{query: {measure: value}}`` for every query of ``scores`` that has judgments."""
        fast = self._fast
        if type(scores) is not dict and not isinstance(scores, Mapping):
            raise ParameterError(
                "scores must be a dict {query: {document: score}}, got a "
                f"{type(scores).__name__}"
            )
        if fast is not None:
            if fast.named is not None:  # the core makes the whole dict
                got = fast.named(fast.index, scores)
            else:
                got = fast.evaluate(scores, self)
            if got is not None:
                return got
        jr = self._judge(scores)
        if jr is None:
            return {}
        ctx = self._context(jr)
        columns: list[tuple[str, list[float]]] = []
        for req in self._requests:
            for name, col in zip(req.names, self._compute(req, ctx), strict=True):
                columns.append((name, col.tolist()))
        return {qid: {name: col[i] for name, col in columns} for i, qid in enumerate(jr.query_ids)}

    def _context(self, jr: JudgedRankings) -> Context:
        """The measures' context of ``jr``: trec_eval 9.0.8 rounds recall levels its way."""
        rounding = "trec9" if self.v9 else "trec10"
        return Context(
            jr=jr, level=self.relevance_level, num_docs=0, complete=False, rounding=rounding
        )

    def _compute(self, req: Request, ctx: Context) -> list[np.ndarray]:
        tm = req.tm
        if tm.kind in ("runid", "relstring"):
            return [np.zeros(ctx.jr.num_queries)]  # what pytrec_eval returns for them
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
            items = ranked(qid, docs, self.v9)
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
        offsets = offsets_of(lengths)
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
            qrels_offsets=offsets_of(qlengths),
            qrels_grades=np.array(qgrades, dtype=np.int64),
            in_run=np.ones(len(qids), dtype=bool),
            run_name="my_little_test_run",
            qrels_max_grade=self._max_grade,
            judged_only=judged_only,
        )
