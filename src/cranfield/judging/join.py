"""Run x Qrels -> JudgedRankings: one ordering and one join for all queries at once.

Which queries are evaluated (trec_eval's rules, with its documented intent where 10.0 errs):

- a query in both the qrels and the run is evaluated, including one whose qrels have no
  relevant document (it scores 0 on most measures, as in trec_eval);
- a query in the run but not in the qrels is never evaluated (reported in ``notes``);
- a query in the qrels but not in the run is skipped by default (trec_eval 9.x and the help
  text of 10.0; 10.0 itself aborts), or with ``complete=True`` (trec_eval ``-c``) evaluated as
  an empty ranking.

Queries are in ``strcmp`` (byte) order of their ids, trec_eval's order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.data.tables import Qrels, Run
from cranfield.errors import ParameterError
from cranfield.io.trec.core import QRELS_INDEXES, core_array, core_ids
from cranfield.judging.options import JudgeOptions
from cranfield.judging.ordering import order_run
from cranfield.judging.rankings import JudgedRankings

if TYPE_CHECKING:
    from cranfield.judging.side_inputs import PerQuery

__all__ = ["judge", "qrels_index"]

_INDEXES = QRELS_INDEXES  # the registry's former name here (tests/scale)


def judge(
    qrels: Qrels,
    run: Run,
    *,
    ties: str = "trec",
    seed: int | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
    collection_size: PerQuery | None = None,
    known: Any = None,
    target: PerQuery | None = None,
    prefs: Any = None,
    judgment_groups: Any = None,
    subtopics: Any = None,
    _notes: bool = True,
) -> JudgedRankings:
    """Judge ``run`` against ``qrels``.

    Parameters
    ----------
    ties
        Tie policy (see :mod:`cranfield.judging.ordering`).
    seed
        Seed of the ``random`` tie policy (default 0, so results are reproducible).
    depth
        Keep only the first ``depth`` documents of each ranking, after ordering (``-M``).
        Under ``weak``, a tie group that straddles the cut is kept whole and marked (see
        :attr:`JudgedRankings.cut`): the tie-aware measures take the expectation over which
        of its documents the cut keeps, instead of letting the document ids decide.
    judged_only
        Drop documents without a judgment (grade >= 0) after the depth cut (``-J``).
    complete
        Evaluate qrels queries absent from the run as empty rankings (``-c``).
    collection_size, known, target
        Collection size N, documents known to the user (qrels-format source) and the number of
        relevant documents the user wants, per query; see :mod:`cranfield.judging.side_inputs`.
    prefs, judgment_groups
        Preference judgments and judgments by judgment group (trec_eval's ``-R prefs`` and
        ``-R qrels_jg`` files, :mod:`cranfield.io.trec.judgment_files`) for the preference and
        ``*_avgjg`` measures.
    subtopics
        Subtopic judgments (``topic subtopic docno judgment``, ndeval's qrels; a path or
        :mod:`cranfield.io.trec.subtopics`' ``Subtopics``) for the diversity measures.

    (``_notes=False``, for a block of a run judged alone, leaves out the ``notes``, whose
    judged queries without results take time in proportion to the qrels' queries.)
    """
    if not isinstance(qrels, Qrels) or not isinstance(run, Run):
        bad, what = ("qrels", "Qrels") if not isinstance(qrels, Qrels) else ("run", "Run")
        raise ParameterError(
            f"judge() takes a {what} as {bad} (read it with cranfield.read_{bad}), "
            f"got a {type(qrels if bad == 'qrels' else run).__name__}"
        )
    opts = JudgeOptions.of(locals())
    ties, seed, depth, judged_only = opts.ties, opts.seed, opts.depth, opts.judged_only
    run_queries = set(run.query_ids)
    if opts.complete:
        evaluated = list(qrels.query_ids)
    elif 8 * len(run_queries) < qrels.num_queries:  # a block of a run: look its queries up
        index = qrels.query_index
        evaluated = [
            qrels.query_ids[i] for i in sorted(index[q] for q in run_queries if q in index)
        ]
    else:
        evaluated = [q for q in qrels.query_ids if q in run_queries]
    seg_index = {q: i for i, q in enumerate(evaluated)}
    segment_of_query = np.array([seg_index.get(q, -1) for q in run.query_ids], dtype=np.int64)

    core = _core()
    docs = core_ids(run.docs)
    if ties == "trec":  # the core orders (score desc, docno desc) and finds the tie groups
        o = core.order_trec(
            segment_of_query,
            len(evaluated),
            core_array(run.qcodes, np.int32),
            core_array(run.scores, np.float64),
            docs,
        )
        rows, lengths, tie_ids, identity = o["rows"], o["lengths"], o["tie_ids"], o["identity"]
    else:
        ordering = order_run(
            run, segment_of_query, len(evaluated), ties=ties, seed=0 if seed is None else seed
        )
        rows, lengths, tie_ids = ordering.rows, ordering.lengths, ordering.tie_ids
        identity = ordering.identity
    num_ranked = len(rows)
    offsets = _offsets(lengths)

    cut = False
    if depth is not None:
        rows, tie_ids, lengths, cut = _cut_at_depth(rows, tie_ids, lengths, offsets, depth, ties)
        if len(rows) != num_ranked:
            identity = False
            offsets = _offsets(lengths)
    if cut and judged_only:
        raise ParameterError(
            f"with ties='weak' (--ties weak), a depth of {depth} that falls inside a tie group "
            "cannot be combined with judged_only (-J): the expectation over tie-breakings has "
            "no closed form there (which documents of the group survive the cut decides how "
            "many judged ones remain); drop one of the two options or choose another depth"
        )

    qrels_qidx_of_segment = np.array([qrels.query_index[q] for q in evaluated], dtype=np.int64)
    grades = core.judge_grades(
        qrels_index(qrels),
        qrels_qidx_of_segment,
        offsets,
        core_array(rows, np.int64),
        docs,
        len(run),
    )

    if judged_only:
        keep = grades >= 0
        if not keep.all():
            seg_of_row = np.repeat(np.arange(len(evaluated)), lengths)[keep]
            rows, tie_ids, grades, identity = rows[keep], tie_ids[keep], grades[keep], False
            lengths = np.bincount(seg_of_row, minlength=len(evaluated)).astype(np.int64)
            offsets = _offsets(lengths)

    qoff, qgrades = _qrels_grades(qrels, qrels_qidx_of_segment)
    side: dict[str, Any] = {}
    wanted = (collection_size, known, target, opts.prefs, opts.subtopics)
    if any(x is not None for x in wanted):  # their module only then
        from cranfield.judging.side_inputs import side_fields

        side = side_fields(
            qrels,
            run,
            evaluated,
            rows,
            offsets,
            grades,
            qoff,
            collection_size=collection_size,
            known=known,
            target=target,
            prefs=opts.prefs,
            subtopics=opts.subtopics,
            depth=depth,
            ties=ties,
        )
    if opts.judgment_groups is not None:
        side["judgment_groups"] = _judge_groups(opts, run, evaluated)
    return JudgedRankings(
        query_ids=tuple(evaluated),
        offsets=offsets,
        grades=grades.astype(np.int64, copy=False),
        scores=run.scores if identity else run.scores[rows],
        tie_ids=tie_ids,
        qrels_offsets=qoff,
        qrels_grades=qgrades,
        in_run=np.array([q in run_queries for q in evaluated], dtype=bool),
        run_name=run.name,
        ties=ties,
        qrels_max_grade=qrels.max_grade,
        depth=depth,
        judged_only=judged_only,
        cut=cut,
        notes=_notes_of(qrels, run, run_queries) if _notes else {},
        annotation=_annotation(qrels, run, None if identity else rows),
        **side,
    )


def _notes_of(qrels: Qrels, run: Run, run_queries: set[str]) -> dict[str, list[str]]:
    """The queries of the run without judgments, and the judged queries without results."""
    return {
        "run_only_queries": [q for q in run.query_ids if q not in qrels.query_index],
        "missing_queries": [q for q in qrels.query_ids if q not in run_queries],
    }


def _cut_at_depth(
    rows: np.ndarray,
    tie_ids: np.ndarray,
    lengths: np.ndarray,
    offsets: np.ndarray,
    depth: int,
    ties: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Keep the first ``depth`` rows of each query (trec_eval's ``-M``).

    Under ``weak`` the order within a tie group is not a fact of the run, so a cut that falls
    inside a group must not choose its members: the whole group is kept, and ``cut`` (returned
    True) tells the measures that only ``depth`` positions are retrieved.  Each tie-aware form
    then computes the expectation over tie-breakings of the measure of the truncated ranking,
    in which the group's retrieved part is a uniformly random subset of it (docs/ties.md).
    """
    rank0 = np.arange(len(rows)) - np.repeat(offsets[:-1], lengths)
    keep = rank0 < depth
    if keep.all():
        return rows, tie_ids, lengths, False
    cut = False
    if ties == "weak" and depth > 0:
        over = np.flatnonzero(lengths > depth)  # queries whose ranking is longer than depth
        last = tie_ids[offsets[over] + depth - 1]  # the group at position depth
        after = tie_ids[offsets[over] + depth]
        straddle = over[last == after]
        if len(straddle):
            cut = True
            seg = np.repeat(np.arange(len(lengths)), lengths)
            group_of = np.full(len(lengths), -1, dtype=np.int64)
            group_of[straddle] = tie_ids[offsets[straddle] + depth - 1]
            keep |= tie_ids == group_of[seg]  # tie ids are unique across queries
    lengths = np.bincount(
        np.repeat(np.arange(len(lengths)), lengths)[keep], minlength=len(lengths)
    ).astype(np.int64)
    return rows[keep], tie_ids[keep], lengths, cut


def _judge_groups(opts: JudgeOptions, run: Run, evaluated: list[str]) -> tuple:
    """Per judgment group (ids in ``strcmp`` order): the run judged against the group's qrels
    with the same options, and where its queries sit among ``evaluated``."""
    index = {q: i for i, q in enumerate(evaluated)}
    out = []
    plain = opts.judge_keywords()
    for name in ("collection_size", "known", "target", "prefs", "judgment_groups", "subtopics"):
        plain[name] = None
    for qrels in opts.judgment_groups.groups.values():
        qrels = qrels.restrict(evaluated)
        if qrels.num_queries == 0:
            continue
        group = judge(qrels, run, **plain)
        if group.num_queries == 0:
            continue
        out.append((group, np.array([index[q] for q in group.query_ids], dtype=np.int64)))
    return tuple(out)


def _core() -> Any:
    from cranfield import _core

    return _core


def qrels_index(qrels: Qrels) -> Any:
    """The compiled core's index of ``qrels`` (``_core.QrelsIndex``: each query's judgments by
    document, and its query ids by position), built once per
    :class:`~cranfield.data.tables.Qrels` (by the reader, from the file's bytes, for qrels the
    core read)."""
    index = QRELS_INDEXES.get(qrels)
    if index is None:
        index = _core().QrelsIndex(
            core_array(qrels.offsets, np.int64),
            qrels.doc_ids if isinstance(qrels.doc_ids, list) else list(qrels.doc_ids),
            core_array(qrels.grades, np.int64),
            list(qrels.query_ids),
        )
        QRELS_INDEXES[qrels] = index
    return index


def _annotation(qrels: Qrels, run: Run, rows: np.ndarray | None) -> Callable[[], np.ndarray]:
    """Per ranked row (``rows`` of the run; ``None``: all, in file order), whether its document
    is judged for some query of the whole qrels (MTEB's ``Hole@k``), looked up on first use."""

    def found() -> np.ndarray:
        code = run.docs.lookup(qrels.doc_index) if len(run) else np.zeros(0, dtype=np.int64)
        mask = code >= 0 if rows is None else code[rows] >= 0
        mask.flags.writeable = False
        return mask

    return functools.cache(found)


def _offsets(lengths: np.ndarray) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


def _qrels_grades(qrels: Qrels, qidx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grades of the given qrels queries, each query's sorted descending, as CSR; those of
    all the queries, in order (every run judged with ``complete``), made once per Qrels."""
    if len(qidx) == qrels.num_queries and (qidx == np.arange(len(qidx))).all():
        return qrels.sorted_grades
    return sorted_grades(qrels, qidx)


def sorted_grades(qrels: Qrels, qidx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    starts, ends = qrels.offsets[qidx], qrels.offsets[qidx + 1]
    lengths = ends - starts
    off = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    if len(qidx) == 0 or off[-1] == 0:
        return off, np.zeros(0, dtype=np.int64)
    seg = np.repeat(np.arange(len(qidx)), lengths)
    if int(qidx[-1]) - int(qidx[0]) == len(qidx) - 1 and (np.diff(qidx) == 1).all():
        g = qrels.grades[starts[0] : ends[-1]]  # consecutive queries (a run's batch): a slice
    else:
        g = qrels.grades[np.arange(off[-1]) - off[seg] + starts[seg]]
    low, high = int(g.min()), int(g.max())
    levels = high - low + 1  # a Python int: no overflow
    if levels * len(qidx) <= 4 * len(g) + 1024:
        # few grade levels (the usual scales): count each query's judgments per level, then
        # write each level's grade that many times, highest first (no sort)
        counts = np.bincount(seg * levels + (high - g), minlength=levels * len(qidx))
        grades = np.tile(np.arange(high, low - 1, -1, dtype=np.int64), len(qidx))
        return off, np.repeat(grades, counts)
    o = np.lexsort((~g, seg))  # ~g = -g - 1: descending grades, no overflow at -2**63
    return off, g[o]
