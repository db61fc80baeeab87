"""Per-query inputs beyond the qrels and the run, and their validation.

- **Collection size** ``N`` (``--collection-size``, ``collection_size=``): one number for every
  query, a mapping ``{qid: N}``, or a file with one ``qid N`` line per query.  Needed by the
  measures that rank the whole collection (normalized recall and precision, rank recall, log
  precision, weighted normalized recall, fallout, generality).  Relevant documents that the run does
  not retrieve are placed at the bottom of the collection (Magdy & Jones, SIGIR 2010, sec. 4).
  ``N`` must be at least the number of documents known for the query: those ranked plus those judged
  but not ranked (else: an error naming the query).
- **Documents known to the user** (``--known``, ``known=``): a second qrels-format source; a
  document counts as known when its grade there is > 0.  Coverage and novelty (B. Chen, "Retrieval
  Evaluation - Measures", lecture slides; Baeza-Yates & Ribeiro-Neto, *Modern Information
  Retrieval*, 1999, sec. 3.2.2) use the known documents that the qrels also judge relevant.
- **Preferences** (``--prefs``, ``prefs=``) and **judgment groups** (``--judgment-groups``,
  ``judgment_groups=``): trec_eval's ``-R prefs`` and ``-R qrels_jg`` files
  (:mod:`cranfield.io.trec.judgment_files`), for the preference and ``*_avgjg`` measures.
- **Subtopic qrels** (``--subtopics``, ``subtopics=``): ``topic subtopic docno judgment`` lines
  as ndeval reads them (:mod:`cranfield.io.trec.subtopics`), for the diversity measures; each ranked
  document is matched with its judgments here, once per run.
- **Target** (``--target``, ``target=``): how many relevant documents the user wants, one number, a
  mapping or a ``qid N`` file, each >= 1 (relative recall, Keen, "Evaluation Parameters", SMART
  report ISR-13, sec. 7; recall effort, Chen's slides).

Per-query values: queries missing from a mapping or file are an error naming the query; extra
queries are ignored (as queries of the qrels that the run does not have).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cranfield.base.limits import MAX_DOCUMENTS
from cranfield.data.tables import MISSING, Qrels, Run
from cranfield.errors import DataWarning, InputError, ParameterError, warn

__all__ = [
    "KnownDocs",
    "PerQuery",
    "RankedPrefs",
    "RankedSubtopics",
    "per_query_counts",
    "side_fields",
]

PerQuery = int | Mapping[str, int] | str | os.PathLike[str]
_INT64_MAX = 2**63 - 1


@dataclass(frozen=True, eq=False)
class KnownDocs:
    """Documents known to the user, aligned with
    :class:`~cranfield.judging.rankings.JudgedRankings`.

    ``rows``: per ranked row, whether the document is known; ``offsets``/``grades``: per query
    (CSR), the qrels grade of every known document (-1 where the qrels do not list it).
    """

    rows: np.ndarray
    offsets: np.ndarray
    grades: np.ndarray
    source: str = "<known>"

    def num_known_relevant(self, rel: int) -> np.ndarray:
        """Per query: known documents that the qrels judge relevant (grade >= ``rel``)."""
        cs = np.concatenate(([0], np.cumsum(self.grades >= max(rel, 0), dtype=np.int64)))
        return cs[self.offsets[1:]] - cs[self.offsets[:-1]]


def _read_count_file(
    path: str | os.PathLike[str], what: str, minimum: int, maximum: int
) -> dict[str, int]:
    from cranfield.io.trec.text import read_text

    src = str(path)
    # read as every text input is: bounded chunks (a device such as /dev/zero fails on its
    # first chunk), decompressed, UTF-8 without NUL bytes; fields split as TREC files split them
    text = read_text(path)
    out: dict[str, int] = {}
    for lineno, raw in enumerate(text.split(b"\n"), 1):  # lines as the TREC readers count them
        fields = raw.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        parts = [f.decode("utf-8") for f in fields]
        if len(parts) != 2:
            raise InputError(src, f"expected 'qid {what}', got {len(parts)} fields", lineno)
        qid, value = parts
        shown = repr(value) if len(value) <= 30 else f"'{value[:25]}...' ({len(value)} characters)"
        if not re.fullmatch(r"[+-]?[0-9]+", value):
            raise InputError(src, f"{what} {shown} is not an integer", lineno)
        huge = len(value.lstrip("+-0")) > 40  # beyond any bound (and int()'s digit limit)
        number = (-1 if value[0] == "-" else 1) * 10**41 if huge else int(value)
        problem = _out_of_range(number, minimum, maximum)
        if problem:
            raise InputError(src, f"{what} of query {qid!r} {problem}, got {shown}", lineno)
        if qid in out:
            raise InputError(src, f"query {qid!r} is listed twice", lineno)
        out[qid] = int(value)
    if not out:
        raise InputError(src, f"no 'qid {what}' lines")
    return out


def _out_of_range(value: int, minimum: int, maximum: int) -> str | None:
    """``must be >= minimum`` / ``must be <= maximum`` when ``value`` is outside, else None."""
    if value < minimum:
        return f"must be >= {minimum}"
    if value > maximum:
        return f"must be <= {maximum:,}"
    return None


def per_query_counts(
    source: PerQuery,
    query_ids: Sequence[str],
    what: str,
    *,
    minimum: int,
    maximum: int = MAX_DOCUMENTS,
) -> np.ndarray:
    """One integer per query from a number, a ``{qid: n}`` mapping or a ``qid n`` file, each
    in ``[minimum, maximum]`` (an error names the file and line, or the query)."""
    if isinstance(source, bool):
        raise ParameterError(f"{what} must be an integer, a mapping or a file, got {source!r}")
    if isinstance(source, int | np.integer):
        problem = _out_of_range(int(source), minimum, maximum)
        if problem:
            raise ParameterError(f"{what} {problem}, got {int(source)}")
        return np.full(len(query_ids), int(source), dtype=np.int64)
    if isinstance(source, str | os.PathLike):
        where = str(source)
        from cranfield.io.source import ClientFile

        # a file named on the client is read as it is (it checks what it opens); ``-`` here
        # is a file of that name
        path = source if isinstance(source, ClientFile) else Path(source)
        values: Mapping[str, Any] = _read_count_file(path, what, minimum, maximum)
    elif isinstance(source, Mapping):
        where = f"the {what} mapping"
        values = {str(k): v for k, v in source.items()}
    else:
        raise ParameterError(
            f"{what} must be an integer, a {{qid: n}} mapping or a file of 'qid n' lines, "
            f"got a {type(source).__name__}"
        )
    out = np.zeros(len(query_ids), dtype=np.int64)
    for i, q in enumerate(query_ids):
        if q not in values:
            raise InputError(where, f"no {what} for query {q!r}")
        v = values[q]
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise InputError(where, f"{what} of query {q!r} must be an integer, got {v!r}")
        problem = _out_of_range(int(v), minimum, maximum)
        if problem:
            raise InputError(where, f"{what} of query {q!r} {problem}, got {int(v)}")
        out[i] = int(v)
    return out


def _check_collection_size(
    sizes: np.ndarray, query_ids: Sequence[str], known: np.ndarray, ranked: np.ndarray, src: str
) -> None:
    bad = np.flatnonzero(sizes < known)
    if len(bad):
        i = int(bad[0])
        more = f" (and {len(bad) - 1} more queries)" if len(bad) > 1 else ""
        raise ParameterError(
            f"collection size {int(sizes[i])} of query {query_ids[i]!r}{src} is smaller than "
            f"the {int(known[i])} documents known for it: {int(ranked[i])} ranked by the run and "
            f"{int(known[i] - ranked[i])} judged but not ranked{more}"
        )
    # the collection-wide measures sum ranks up to N for each known document: keep that in int64
    big = np.flatnonzero(sizes.astype(np.float64) * np.maximum(known, 1) >= 2.0**62)
    if len(big):
        i = int(big[0])
        raise ParameterError(
            f"collection size {int(sizes[i])} of query {query_ids[i]!r}{src} times its "
            f"{int(known[i])} known documents exceeds 2**62: the rank sums would overflow"
        )


def _known_docs(
    known: Any,
    qrels: Qrels,
    run: Run,
    evaluated: Sequence[str],
    rows: np.ndarray,
    offsets: np.ndarray,
) -> KnownDocs:
    from cranfield.io import read_qrels

    kq = read_qrels(known)
    seg_of_row = np.repeat(np.arange(len(evaluated)), np.diff(offsets))
    kidx = np.array([kq.query_index.get(q, -1) for q in evaluated], dtype=np.int64)
    if len(rows):
        codes = run.docs.lookup(kq.doc_vocabulary)[rows]
        kg = kq.grades_of(kidx[seg_of_row], codes)
        row_known = (kg != MISSING) & (kg > 0)
    else:
        row_known = np.zeros(0, dtype=bool)
    vocab = {d: i for i, d in enumerate(qrels.doc_vocabulary)}
    lengths, qi, codes_k = [], [], []
    for q, ki in zip(evaluated, kidx.tolist(), strict=True):
        n = 0
        if ki >= 0:
            a, b = int(kq.offsets[ki]), int(kq.offsets[ki + 1])
            for d, g in zip(kq.doc_ids[a:b], kq.grades[a:b].tolist(), strict=True):
                if g > 0:
                    qi.append(qrels.query_index[q])
                    codes_k.append(vocab.get(d, -1))
                    n += 1
        lengths.append(n)
    g = qrels.grades_of(np.array(qi, dtype=np.int64), np.array(codes_k, dtype=np.int64))
    g = np.where(g == MISSING, -1, g).astype(np.int64)
    not_rel = int(np.count_nonzero(g < 1))
    if not_rel:
        warn(
            DataWarning(
                f"{kq.source}: {not_rel} of the {len(g)} documents known to the user are not "
                "relevant in the qrels (grade < 1); coverage and novelty count only known "
                "documents that the qrels judge relevant"
            )
        )
    off = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    return KnownDocs(rows=row_known, offsets=off, grades=g, source=kq.source)


@dataclass(frozen=True, eq=False)
class RankedPrefs:
    """Preference judgments aligned with :class:`~cranfield.judging.rankings.JudgedRankings`:
    per evaluated query, its ``(jg, jsg, rel_level, docno)`` entries and the documents the
    ranking retrieves, in ranked order (the preference measures read only these)."""

    entries: tuple[list, ...]
    ranked: tuple[list[str], ...]
    source: str


def _ranked_prefs(
    prefs: Any,
    run: Run,
    evaluated: Sequence[str],
    rows: np.ndarray,
    offsets: np.ndarray,
    depth: int | None,
    ties: str,
) -> RankedPrefs:
    """The ranked documents of each query for the preference measures.  Under trec_eval's tie
    policy they are ranked as trec_eval's preference code ranks them (score descending, ties by
    document id *ascending*, then cut at ``depth``); under the others, as the judged rankings."""
    entries = tuple(prefs.topics.get(q, []) for q in evaluated)
    ranked: list[list[str]] = []
    if ties == "trec":
        code_of = {q: c for c, q in enumerate(run.query_ids)}
        order = np.argsort(run.qcodes, kind="stable")
        qc = run.qcodes[order]
        bounds = np.searchsorted(qc, np.arange(len(run.query_ids) + 1))
        for q in evaluated:
            c = code_of.get(q)
            if c is None:
                ranked.append([])
                continue
            sel = order[bounds[c] : bounds[c + 1]]
            docs = run.docs.take(sel)
            pairs = sorted(zip((-run.scores[sel]).tolist(), docs, strict=True))
            top = pairs if depth is None else pairs[:depth]
            ranked.append([d for _, d in top])
    else:
        docs = run.docs.take(rows)
        for i in range(len(evaluated)):
            ranked.append(docs[int(offsets[i]) : int(offsets[i + 1])])
    return RankedPrefs(entries, tuple(ranked), prefs.source)


@dataclass(frozen=True, eq=False)
class RankedSubtopics:
    """Subtopic judgments aligned with :class:`~cranfield.judging.rankings.JudgedRankings`.

    ``pair_of_row``: per ranked row, the id of its (topic, document) pair in
    ``subtopics.pairs`` (whose judgments are ``subtopics.entry_*``), -1 where the subtopic
    qrels do not list the document for the query; ``topic_of_query``: per evaluated query, its
    index in ``subtopics.pairs``, -1 where the file has no line for it.
    """

    subtopics: Any
    pair_of_row: np.ndarray
    topic_of_query: np.ndarray
    cache: dict = field(default_factory=dict, init=False, repr=False)
    """The views of the ranking the measures computed, per ``(rel, judged_only)``."""

    @property
    def source(self) -> str:
        return self.subtopics.source


def _ranked_subtopics(
    subtopics: Any, run: Run, evaluated: Sequence[str], rows: np.ndarray, offsets: np.ndarray
) -> RankedSubtopics:
    """Each ranked document's (topic, document) pair in the subtopic qrels: one lookup of the
    run's documents in their vocabulary, one join with the pairs of the evaluated queries."""
    pairs = subtopics.pairs
    topic = np.array([pairs.query_index.get(q, -1) for q in evaluated], dtype=np.int64)
    if len(rows):
        codes = run.docs.lookup(pairs.doc_index)[rows]
        seg_of_row = np.repeat(np.arange(len(evaluated)), np.diff(offsets))
        found = pairs.grades_of(topic[seg_of_row], codes)
        pair = np.where(found == MISSING, -1, found).astype(np.int64)
    else:
        pair = np.zeros(0, dtype=np.int64)
    return RankedSubtopics(subtopics, pair, topic)


def side_fields(
    qrels: Qrels,
    run: Run,
    evaluated: Sequence[str],
    rows: np.ndarray,
    offsets: np.ndarray,
    grades: np.ndarray,
    qrels_offsets: np.ndarray,
    *,
    collection_size: PerQuery | None,
    known: Any,
    target: PerQuery | None,
    prefs: Any = None,
    subtopics: Any = None,
    depth: int | None = None,
    ties: str = "trec",
) -> dict[str, Any]:
    """The optional :class:`~cranfield.judging.rankings.JudgedRankings` fields, validated."""
    out: dict[str, Any] = {}
    if collection_size is not None:
        sizes = per_query_counts(collection_size, evaluated, "collection size", minimum=1)
        ranked = np.diff(offsets)
        cs = np.concatenate(([0], np.cumsum(grades != -1, dtype=np.int64)))
        in_qrels_ranked = cs[offsets[1:]] - cs[offsets[:-1]]
        known_docs = ranked + np.diff(qrels_offsets) - in_qrels_ranked
        src = f" (in {collection_size})" if isinstance(collection_size, str | os.PathLike) else ""
        _check_collection_size(sizes, evaluated, known_docs, ranked, src)
        out["collection_size"] = sizes
    if known is not None:
        out["known"] = _known_docs(known, qrels, run, evaluated, rows, offsets)
    if target is not None:
        out["target"] = per_query_counts(target, evaluated, "target", minimum=1)
    if prefs is not None:
        out["prefs"] = _ranked_prefs(prefs, run, evaluated, rows, offsets, depth, ties)
    if subtopics is not None:
        out["subtopics"] = _ranked_subtopics(subtopics, run, evaluated, rows, offsets)
    return out
