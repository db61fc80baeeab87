"""``cranfield trec_eval`` on a large run (qrels format): judged by the compiled core as it is
read (:mod:`cranfield.judging.streamed_run`) and measured batch by batch, as ``cranfield
evaluate`` does (:mod:`cranfield.scale.streaming`), so that memory is bounded by a piece, a
batch and the per-topic values, not by the run.

The values of each batch are those trec_eval prints for its topics (every measure is a
function of one topic's ranking); the batches' values are put in topic order before anything
is summed or printed.  trec_eval's order of failures is kept: a problem in the run file comes
before a bad z-score file or measure parameter, so when one of those fails the run is read
first and its error, if it has one, is the one raised.  A run that is not grouped by topic is
read again and collected by the core; anything the core's pass does not settle (a line that
does not parse, a bad id, a duplicate, a judging error) hands the run, read whole, back to the
engine, whose error is the reference one.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from cranfield.data.tables import Qrels, Run
from cranfield.errors import CranfieldError, DataWarning

__all__ = ["evaluate_streamed"]


class _RunIds:
    """What the engine's skipped-topics note reads of a run."""

    def __init__(self, name: str, query_ids: list[str]) -> None:
        self.name = name
        self.query_ids = query_ids


def evaluate_streamed(opts, rel_info: Qrels, path: Any, marked, params) -> Any:
    """The evaluation of the run ``path`` (a ``TrecEvaluation``); the run read whole (a
    :class:`~cranfield.data.tables.Run`) when the engine must evaluate it whole; ``None`` when the
    run is not read in pieces (a small file: the engine reads it)."""
    from cranfield.compat.trec_eval.measuring import Exit, check_formats, init_measures
    from cranfield.io import is_trec_text_path
    from cranfield.io.source import Stream
    from cranfield.io.textcheck import TextCheck
    from cranfield.io.trec.run_pieces import Fallback, NotGrouped
    from cranfield.io.trec.text import in_pieces, read_run_stream

    if not is_trec_text_path(path) or not in_pieces(path):
        return None
    source = "<stdin>" if path == "-" else str(path)
    name = "stdin" if path == "-" else _file_name(path)
    stream = Stream(path, lambda: TextCheck(source))

    def read_whole(parts=None) -> Run:
        with warnings.catch_warnings():  # trec_eval says nothing of extra columns
            warnings.simplefilter("ignore", DataWarning)
            return read_run_stream(stream, name, parts)

    try:
        try:
            zscores = None
            if opts.zscore_file is not None:
                from cranfield.compat.trec_eval.zscores import read_zscores

                zscores = read_zscores(opts.zscore_file)
            measures = init_measures(marked, params)
            check_formats(measures, opts.rel_format)
        except (Exit, CranfieldError):
            read_whole()  # the run's error comes first, as in trec_eval
            raise
        qrels = rel_info
        if opts.debug_query is not None:
            qrels = qrels.restrict([opts.debug_query])
        keywords = {"depth": opts.max_docs, "judged_only": opts.judged_only}
        judged = (stream, qrels, rel_info, name, measures, zscores)
        try:
            return _evaluate_judged(opts, *judged, grouped=True, **keywords)
        except NotGrouped:
            pass
        except (Fallback, CranfieldError):
            return read_whole()
        try:  # not grouped by query: the core collects each query's results, then judges
            return _evaluate_judged(opts, *judged, grouped=False, **keywords)
        except (Fallback, CranfieldError):
            return read_whole()
    finally:
        stream.close()


def _file_name(path: Any) -> str:
    from pathlib import Path

    return Path(path).name


def _evaluate_judged(opts, stream, qrels, rel_info, name, measures, zscores, **keywords):
    """Measure each batch of a run judged as it is read (``judged_batches``; ``keywords``:
    its options), while the core judges the next piece."""
    from cranfield.compat.trec_eval.measuring import evaluate_qrels
    from cranfield.judging.streamed_run import judged_batches

    run_ids: list[str] = []
    topics = Topics(len(qrels.query_ids))
    tag = ""
    together: list = []  # the measures the first batch needed, computed together after it

    def measure(rankings) -> None:
        topics.add(evaluate_qrels(rankings, opts, measures, together=together))

    for batch in judged_batches(stream, qrels, name, measure=measure, **keywords):
        run_ids.extend(batch.run_ids)
        tag = batch.tag
    return _finish(opts, qrels, rel_info, [topics.part()], run_ids, name, measures, zscores, tag)


class Topics:
    """The per-topic values of a run's batches, gathered into one array per value as they
    come (room for ``expected`` topics made at the first batch, grown if ever needed): each
    value held once, in large arrays, not a few dozen topics' arrays per batch (whose objects
    would weigh as much as the values: about 30 MB at 100,000 topics) joined at the end (a
    second copy)."""

    def __init__(self, expected: int) -> None:
        self.expected = max(expected, 1)
        self.ids: list[str] = []
        self.values: dict[str, list[np.ndarray]] = {}
        self.relstrings: list[str] | None = None

    def add(self, part: tuple) -> None:
        """Append one batch's ``(topics, values, relstrings)``."""
        ids, values, relstrings = part
        n, new = len(self.ids), len(ids)
        if not self.ids:
            self.values = {
                k: [np.empty(max(self.expected, new), np.asarray(c).dtype) for c in cols]
                for k, cols in values.items()
            }
            self.relstrings = None if relstrings is None else []
        for k, cols in values.items():
            held = self.values[k]
            for i, c in enumerate(map(np.asarray, cols)):
                a = held[i]
                if a.dtype != np.result_type(a.dtype, c.dtype):
                    a = held[i] = a.astype(np.result_type(a.dtype, c.dtype))
                if n + new > len(a):
                    a = held[i] = np.concatenate(
                        (a, np.empty(max(n + new, 2 * len(a)) - len(a), a.dtype))
                    )
                a[n : n + new] = c
        self.ids.extend(ids)
        if self.relstrings is not None:
            self.relstrings.extend(relstrings)

    def part(self) -> tuple:
        """All the topics' ``(topics, values, relstrings)``, in topic order (a value's array
        put in order at a time, its unordered copy let go of before the next)."""
        from cranfield.compat.trec_eval.measuring import topic_order

        n = len(self.ids)
        order = topic_order(self.ids)
        for cols in self.values.values():
            for i, a in enumerate(cols):
                cols[i] = a[:n][order]
                del a
        rel = None if self.relstrings is None else [self.relstrings[i] for i in order]
        return [self.ids[i] for i in order], self.values, rel


def _finish(opts, qrels, rel_info, parts, run_ids, name, measures, zscores, tag):
    """The evaluation of the whole run from its parts' values: trec_eval's ``-c`` queries,
    the topics in order, the skipped-topics note."""
    from cranfield.compat.trec_eval.measuring import (
        evaluate_dummies,
        finish,
        merge_topics,
        skipped_queries,
    )

    in_run = set(run_ids)
    missing = [q for q in qrels.query_ids if q not in in_run]
    if opts.complete and missing:
        parts.append(evaluate_dummies(qrels, missing, name, opts, measures, None))
    topics, values, relstrings = merge_topics(parts)
    skipped = skipped_queries(rel_info.query_ids, _RunIds(name, run_ids), opts)
    return finish(opts, measures, topics, values, relstrings, skipped, zscores, tag, rel_info)
