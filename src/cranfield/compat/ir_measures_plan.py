"""How :mod:`cranfield.compat.ir_measures` computes its measures: as ir_measures' default
providers do (:func:`pytrec_form`: the measures ir_measures gives to pytrec_eval, computed by
:mod:`cranfield.compat.pytrec_eval`; the others by cranfield's own measures), prepared once
per qrels (:class:`Plan`)."""

from __future__ import annotations

import operator
import warnings
from typing import Any, NamedTuple

from cranfield.compat.ir_measures_frames import qrels_frame, run_frame
from cranfield.compat.ir_measures_names import NOT_PROVIDED
from cranfield.compat.ir_measures_records import Metric, as_dict
from cranfield.errors import DataWarning, UndefinedMeasureWarning

__all__ = [
    "CWL_DEPTH",
    "CWL_MEASURES",
    "ID_ASCENDING_MEASURES",
    "PYTREC_RELS",
    "Plan",
    "in_provider_order",
    "provider_order",
    "pytrec_form",
    "results",
]


PYTREC_RELS = ("P", "RR", "Rprec", "AP", "R", "SetAP", "SetF", "SetP", "Success", "IPrec")
"""The measures ir_measures hands to pytrec_eval with their ``rel`` as the relevance level (the
others ignore it or are computed at level 1)."""


CWL_MEASURES = frozenset(
    {"RBP", "BPM", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11", "INST", "INSQ"}
)
"""The measures whose default provider in ir_measures is cwl_eval (``RBP`` when pytrec_eval
does not take it)."""
CWL_DEPTH = 1000
"""ir_measures' cwl_eval provider ranks at most this many documents per query (its
``RankingMaker(max_n=1000)``, cwl_eval's default)."""


ID_ASCENDING_MEASURES = frozenset({"Judged", "RR"})
"""The measures cranfield computes whose default provider in ir_measures sorts by score
descending, then document id ascending: judged, and msmarco for ``RR@k`` (``RR`` without a
cut-off goes to pytrec_eval); ``Compat``, whose ideal ranking keeps the qrels' order, is
computed as its provider computes it (:func:`compatibility`)."""


def provider_order(m: Any) -> str:
    """How the provider that computes ``m`` in ir_measures orders documents of equal score:
    ``cwl`` (a stable sort by score: ties in the run's order, at most :data:`CWL_DEPTH`),
    ``stable`` (the same without a depth: the accuracy provider), ``id_ascending`` (ties by
    document id ascending: :data:`ID_ASCENDING_MEASURES`), ``trec`` (trec_eval's: by document
    id descending; gdeval's too) for the rest."""
    if m.NAME in CWL_MEASURES:
        return "cwl"
    if m.NAME == "Accuracy":
        return "stable"
    return "id_ascending" if m.NAME in ID_ASCENDING_MEASURES else "trec"


def in_provider_order(run: dict[str, dict[str, Any]], order: str) -> dict[str, dict[str, Any]]:
    """Each query's documents of ``run`` in the provider's ranking (:func:`provider_order`),
    to be judged as given."""
    score = operator.itemgetter(1)
    out = {}
    for q, docs in run.items():
        items = list(docs.items())
        if order == "id_ascending":
            items.sort()
        items.sort(key=score, reverse=True)  # stable: equal scores keep their order
        out[q] = dict(items)
    return out


def params_of(m: Any) -> dict[str, Any]:
    """An ir_measures measure's parameters: its declared defaults, then those it was given."""
    return {**{k: v.default for k, v in m.SUPPORTED_PARAMS.items()}, **m.params}


def pytrec_form(m: Any, setf: int) -> tuple[tuple[int, bool, int], str, str] | None:
    """How ir_measures' pytrec_eval provider computes ``m`` (``providers/pytrec_eval_provider.py``,
    ``_build_invokers``, ir_measures 0.4.3): ``((relevance level, judged only, set_F slot),
    the trec_eval name asked for, the name of its value)``; ``None`` for a measure whose default
    provider is not pytrec_eval (and for the counts ``Num*``, computed by cranfield: see the
    module docstring).  ``setf``: the number of ``SetF`` measures before this one (pytrec_eval
    keeps the first ``set_F`` parameter of an evaluator, so ir_measures gives each its own)."""
    p = params_of(m)
    name, cutoff = m.NAME, p.get("cutoff", NOT_PROVIDED)
    rel, judged_only = p.get("rel", 1), bool(p.get("judged_only", False))
    if isinstance(rel, bool) or not isinstance(rel, int) or rel < 1:
        return None  # pytrec_eval takes a relevance level >= 1; cranfield computes the rest
    at = "" if cutoff is NOT_PROVIDED else f"_{cutoff}"
    slot = 0
    if name == "AP":
        text = "map" if cutoff is NOT_PROVIDED else f"map_cut{at}"
    elif name == "nDCG":
        if p["dcg"] != "log2" or p["gains"] is not NOT_PROVIDED:
            return None
        rel, text = 1, "ndcg" if cutoff is NOT_PROVIDED else f"ndcg_cut{at}"
    elif name == "RR" and cutoff is NOT_PROVIDED:
        text = "recip_rank"
    elif name in ("P", "R", "Success") and cutoff is not NOT_PROVIDED:
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


class Plan:
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

    def __init__(self, measures: list[Any], qrels: Any) -> None:
        import cranfield

        self.measures = measures
        self.runtime = [i for i, m in enumerate(measures) if hasattr(m, "runtime_impl")]
        self.runtime_qrels: Any = None
        every = len(self.runtime) == len(measures)  # a qrels DataFrame may hold other columns
        self.qrels = {} if every else _read(qrels, "read_qrels")  # (read once: an iterator)
        if self.runtime:  # the user's functions read the qrels as a DataFrame
            self.runtime_qrels = qrels_frame(qrels if every or _is_frame(qrels) else self.qrels)
        self.query_ids = sorted(self.qrels)
        setf = 0
        asked: dict[tuple[int, bool, int], dict[str, list[int]]] = {}
        rest: dict[tuple[bool, str], list[int]] = {}
        # computed as their providers compute them (``compatibility``, ``judged``)
        self.compat = [i for i, m in enumerate(measures) if m.NAME in ("Compat", "Judged")]
        for i, m in enumerate(measures):
            if i in self.runtime or i in self.compat or not self.qrels:
                continue  # (no judgments: nothing to evaluate)
            form = pytrec_form(m, setf)
            if form is None:
                group = (bool(m.params.get("judged_only")), provider_order(m))
                rest.setdefault(group, []).append(i)
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
        self.cranfield: list[tuple[Any, list[int], str]] = []
        for (judged_only, order), positions in sorted(rest.items()):
            ours = []
            for i in positions:
                m = measures[i]
                plain = type(m)(m.NAME, {k: v for k, v in m.params.items() if k != "judged_only"})
                ours.append(plain.cranfield())
            keywords: dict[str, Any] = {"complete": True, "judged_only": judged_only}
            if order != "trec":  # the run put in the provider's order first
                keywords["ties"] = "given"
            if order == "cwl":
                keywords["depth"] = CWL_DEPTH
            ev = cranfield.Evaluator(self.qrels, ours, **keywords)
            self.cranfield.append((ev, positions, order))

    def results(self, run: Any) -> Computed:
        """The values of the measures on ``run`` (:class:`Computed`)."""
        import numpy as np

        query_ids, n = self.query_ids, len(self.query_ids)
        values: list[Any] = [[0.0] * n for _ in self.measures]
        aggregates = [0.0] * len(self.measures)
        omitted: dict[int, set[str]] = {}
        every = len(self.runtime) == len(self.measures)
        run_d = None if every or _is_frame(run) else _read(run, "read_run")  # (read once)
        judged = query_ids
        if every and self.runtime_qrels is not None and "query_id" in self.runtime_qrels:
            judged = sorted(self.runtime_qrels["query_id"].unique())
        if isinstance(run, list | tuple) and not run and judged:  # ir_measures: each judged 0
            runtime = {i: [Metric(q, self.measures[i], 0.0) for q in judged] for i in self.runtime}
            return Computed(
                tuple(query_ids), np.zeros((n, len(self.measures))), aggregates, {}, runtime
            )
        runtime = self._runtime(run if run_d is None else run_d, aggregates)
        if every:
            return Computed(tuple(query_ids), np.zeros((n, 0)), aggregates, omitted, runtime)
        if run_d is None:
            run_d = _read(run, "read_run")
        if not query_ids:  # no judged query: no value, the sums 0 and the means NaN
            for i, m in enumerate(self.measures):
                if i not in self.runtime:
                    aggregates[i] = 0.0 if m.NAME.startswith("Num") else float("nan")
            return Computed((), np.zeros((0, len(self.measures))), aggregates, omitted, runtime)
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
        ordered: dict[str, Any] = {"trec": run_d}
        for ev, positions, order in self.cranfield:
            if order not in ordered:
                ordered[order] = in_provider_order(run_d, order)
            with warnings.catch_warnings():  # ir_measures says nothing of the queries it omits
                warnings.simplefilter("ignore", DataWarning)
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                res = ev.evaluate(ordered[order])
            row = {q: i for i, q in enumerate(res.query_ids)}
            for j, (i, label) in enumerate(zip(positions, res.labels, strict=True)):
                col = res.values[:, j].tolist()
                values[i] = [col[row[q]] if q in row else 0.0 for q in query_ids]
                aggregates[i] = res.aggregate_of(label)
                if self.measures[i].NAME == "Accuracy":
                    omitted[i] = self._accuracy_omitted(self.measures[i], ordered[order])
                    by_query = dict(zip(query_ids, values[i], strict=True))
                    aggregates[i] = _mean(  # over the reported queries, in the run's order
                        [
                            by_query[q]
                            for q in ordered[order]
                            if q in by_query and q not in omitted[i]
                        ]
                    )
        for i in self.compat:
            values[i], aggregates[i] = self._own_provider(self.measures[i], run_d)
        for i, m in enumerate(self.measures):
            if m.NAME in ("NumQ", "NumRel"):  # pytrec_eval's output lacks the query: 0
                values[i] = [
                    v if q in run_d else 0.0 for q, v in zip(query_ids, values[i], strict=True)
                ]
                aggregates[i] = sum(values[i])
        kept = [i for i in range(len(self.measures)) if i not in self.runtime]
        table = np.array([values[i] for i in kept], dtype=np.float64).T
        full = np.zeros((n, len(self.measures)))
        if kept:
            full[:, kept] = table.reshape(n, len(kept))
        return Computed(tuple(query_ids), full, aggregates, omitted, runtime)

    def _runtime(self, run: Any, aggregates: list[float]) -> dict[int, list[Any]]:
        """The metrics of the measures defined by the user's functions (ir_measures'
        runtime provider), their means into ``aggregates``."""
        if not self.runtime:
            return {}
        frame = run_frame(run)
        out = {}
        for i in self.runtime:
            metrics = list(self.measures[i].runtime_impl(self.runtime_qrels, frame))
            out[i] = metrics
            aggregates[i] = _mean([m.value for m in metrics])
        return out

    def _own_provider(self, m: Any, run: dict[str, dict[str, Any]]) -> tuple[list[float], float]:
        """``Compat`` or ``Judged`` as ir_measures' compat or judged provider computes it
        (per judged query of the run: :func:`compatibility`, :func:`judged`; 0 for a judged
        query the run lacks, as its evaluator fills in) and its mean (summed in the run's
        order, the zeros after)."""
        p = params_of(m)
        by_query = {}
        for q, docs in run.items():
            if q in self.qrels:
                if m.NAME == "Compat":
                    by_query[q] = compatibility(self.qrels[q], docs, p["p"], p["normalize"])
                else:
                    by_query[q] = judged(self.qrels[q], docs, p["cutoff"])
        column = [by_query.get(q, 0.0) for q in self.query_ids]
        filled = list(by_query.values()) + [0.0] * (len(self.query_ids) - len(by_query))
        return column, _mean(filled)

    def _accuracy_omitted(self, m: Any, ordered: dict[str, dict[str, Any]]) -> set[str]:
        """The queries ir_measures' accuracy provider leaves out: judged queries the run
        lacks, and those without a relevant document in the top k (ties in the run's order,
        as its stable sort)."""
        p = params_of(m)
        k = None if p["cutoff"] is NOT_PROVIDED else p["cutoff"]
        rel = p["rel"]
        out = set()
        for q in self.query_ids:
            grades = self.qrels[q]
            docs = list(ordered.get(q, {}))[:k]
            if not any(grades.get(d, 0) >= rel for d in docs):
                out.add(q)
        return out


def _rbo(ranking: list[str], ideal: list[str], p: float, depth: int) -> float:
    """Rank-biased overlap of ``ranking`` with ``ideal`` to ``depth``, summed as ir_measures'
    compat provider sums it (``providers/compat_provider.py``, ir_measures 0.4.3)."""
    ranking_set: set[str] = set()
    ideal_set: set[str] = set()
    score = normalizer = 0.0
    weight = 1.0
    for i in range(depth):
        if i < len(ranking):
            ranking_set.add(ranking[i])
        if i < len(ideal):
            ideal_set.add(ideal[i])
        score += weight * len(ideal_set.intersection(ranking_set)) / (i + 1)
        normalizer += weight
        weight *= p
    return score / normalizer


def compatibility(qrels: dict[str, int], run: dict[str, float], p: float, normalize: bool) -> float:
    """Compat of one query as ir_measures' compat provider computes it (Clarke, Vtyurina &
    Smucker, 'Assessing top-k preferences', ACM TOIS 39(3), 2021): the ranking by score, ties
    by document id ascending; the ideal ranking the relevant documents by grade, then by the
    run's score (0 when not retrieved), then in the qrels' order."""
    ranking = sorted(run)
    ranking.sort(key=lambda d: run[d], reverse=True)
    ideal = [d for d in qrels if qrels[d] > 0]
    ideal.sort(key=lambda d: run.get(d, 0.0), reverse=True)
    ideal.sort(key=lambda d: qrels[d], reverse=True)
    depth = max(len(ranking), len(ideal))
    score = _rbo(ranking, ideal, p, depth)
    if normalize:
        best = _rbo(ideal, ideal, p, depth)
        if best > 0.0:
            score = _rbo(ranking, ideal, p, depth) / best
    return score


def judged(qrels: dict[str, int], run: dict[str, float], cutoff: Any) -> float:
    """Judged@k of one query as ir_measures' judged provider computes it: the share of the
    top k (by score, ties by document id ascending) in the qrels, any grade, over k or the
    documents ranked when fewer (all of them without a cut-off)."""
    ranked = sorted(run.items(), key=lambda x: (-x[1], x[0]))
    k = len(ranked) if cutoff is NOT_PROVIDED else cutoff
    top = ranked[:k]
    return sum(d in qrels for d, _ in top) / min(k, len(top))


def _read(source: Any, reader: str) -> dict[str, dict[str, Any]]:
    """``{query: {document: value}}`` of ``source``; an empty list is no query (ir_measures
    takes one), not cranfield's error."""
    if isinstance(source, list | tuple) and not source:
        return {}
    return as_dict(source, reader)


def _is_frame(source: Any) -> bool:
    """Whether ``source`` is a pandas DataFrame (given on to a user's function as it is)."""
    return type(source).__name__ == "DataFrame" and type(source).__module__.startswith("pandas")


def _mean(values: list[float]) -> float:
    """ir_measures' ``MeanAgg``: a running sum in the given order over the count; NaN for
    none."""
    total = 0.0
    for v in values:
        total += v
    return total / len(values) if values else float("nan")


class Computed(NamedTuple):
    """A run's values: per judged query (``query_ids``) the value of every measure in
    ``table`` (queries x measures; 0 where a measure has none), the aggregates, per measure
    the queries its provider does not report (``omitted``: ``Accuracy``'s), and the
    metrics of the user's measures (``runtime``: ir_measures' ``define``), by position."""

    query_ids: tuple[str, ...]
    table: Any
    aggregates: list[float]
    omitted: dict[int, set[str]]
    runtime: dict[int, list[Any]]


def results(measures: list[Any], qrels: Any, run: Any) -> Computed:
    """The values of ``measures`` (:class:`Computed`); ``qrels`` may be an evaluator's plan."""
    return (qrels if isinstance(qrels, Plan) else Plan(measures, qrels)).results(run)
