"""``cranfield trec_eval``: trec_eval 10.0's command, byte for byte on its documented behaviour.

Flow (trec_eval.c): parse options and mark measures (illegal measure: exit 1) -> help /
usage -> read the rel_info and results files (our readers: file:line errors, exit 2) ->
z-score file -> initialise the marked measures (bad parameters: exit 2) -> evaluate every
qrels topic that has results (all qrels topics with ``-c``) -> print per-topic blocks (``-q``)
and the summary.  Deliberate differences from 10.0's defects are listed in docs/trec_eval.md.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

import numpy as np

from cranfield.base.limits import MAX_DOCUMENTS
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
from cranfield.compat.trec_eval.cformat import fmt_double, fmt_value_line
from cranfield.compat.trec_eval.options import Options, UsageError, parse_argv
from cranfield.errors import ParameterError

if TYPE_CHECKING:
    from cranfield.data.tables import Qrels, Run
    from cranfield.io.trec.judgment_files import JudgmentGroups, Prefs

    RelInfo: TypeAlias = Qrels | Prefs | JudgmentGroups
    """A rel_info file as read for its format (qrels, prefs/qrels_prefs, qrels_jg)."""

__all__ = ["USAGE", "main"]

VERSION = "10.0"
REL_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")

USAGE = """\
Usage: trec_eval [-h] [-q] {-m measure}* trec_rel_file trec_top_file
   -h: Give full help information, including other options
   -q: In addition to summary evaluation, give evaluation for each query
   -m: calculate and print measures indicated by 'measure'
       ('-m all_qrels' prints all qrels measures, '-m official' is default)
"""


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


class BytesOut(Protocol):
    """Where the output goes: a binary file, or the CLI's checked standard output."""

    def write(self, data: bytes, /) -> int: ...
    def flush(self) -> None: ...


class TextOut(Protocol):
    """Where the messages go: a text file, or the CLI's standard error."""

    def write(self, text: str, /) -> int: ...


def main(argv: Sequence[str], out: BytesOut | None = None, err: TextOut | None = None) -> int:
    """Run the command; returns the exit status.  Input errors raise ``CranfieldError``."""
    if out is None:  # standard output, every byte checked
        from cranfield.cli._output import StdoutBytes

        out = StdoutBytes()
    err = err if err is not None else sys.stderr
    lines = _Output(out)
    try:
        status = _run(list(argv), lines, err)
    except Exit as stop:
        if stop.message:
            err.write(stop.message)
        status = stop.status
    lines.flush()
    return status


class _Output:
    """Output lines, written in pieces of about :data:`OUTPUT_BYTES` as they are made (the
    per-query output of a large run is never held whole)."""

    def __init__(self, out: BytesOut) -> None:
        self.out = out
        self.pending: list[str] = []
        self.size = 0
        self.wrote = False

    def append(self, line: str) -> None:
        self.pending.append(line)
        self.size += len(line)
        if self.size >= OUTPUT_BYTES:
            self._write()

    def extend(self, lines) -> None:
        for line in lines:
            self.append(line)

    def _write(self) -> None:
        self.out.write("".join(self.pending).encode("utf-8", "surrogateescape"))
        self.pending, self.size, self.wrote = [], 0, True

    def flush(self) -> None:
        if self.pending:
            self._write()
        if self.wrote:
            self.out.flush()


OUTPUT_BYTES = 1 << 20
"""Characters of output gathered before they are written."""
QUERY_CHUNK = 1000
"""Queries whose per-query lines are made at a time."""


# ------------------------------------------------------------------------------ measures
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


# ------------------------------------------------------------------------------ running
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


def evaluate_argv(argv: Sequence[str]) -> TrecEvaluation | str:
    """Run trec_eval's command line up to (not including) printing.

    Returns the evaluation, or the help text for ``-h``.  Raises :class:`Exit` for trec_eval's
    own exits and :class:`~cranfield.errors.CranfieldError` for bad input.
    """
    try:
        opts = parse_argv(list(argv))
    except UsageError as exc:
        raise Exit(1, f"trec_eval: {exc}\n{USAGE}") from None
    marked, params = mark_measures(opts.measures)
    if opts.version:
        from cranfield.base.version import __version__

        raise Exit(0, f"trec_eval version {VERSION} (cranfield {__version__})\n")
    if opts.help:
        from cranfield.compat.trec_eval.help import help_text

        return help_text(marked, opts)
    if len(opts.files) != 2:
        raise Exit(1, USAGE)
    if not opts.measures:
        marked, _ = mark_measures(["official"])
    if opts.rel_format not in REL_FORMATS:
        raise Exit(2, f"trec_eval: Illegal rel_format '{opts.rel_format}'\n")
    if opts.level < 0:
        raise ParameterError(
            f"-l {opts.level}: the relevance level must be >= 0 (trec_eval would count "
            "unjudged documents as relevant in some measures and not in others)"
        )
    if opts.max_docs is not None and opts.max_docs < 0:
        raise ParameterError(f"-M {opts.max_docs}: the number of documents must be >= 0")
    if not 0 <= opts.num_docs <= MAX_DOCUMENTS:
        raise ParameterError(
            f"-N {opts.num_docs}: the number of documents in the collection must be in "
            f"[0, {MAX_DOCUMENTS:,}]"
        )

    rel_file, results_file = opts.files
    if rel_file == results_file == "-":
        raise ParameterError("only one input can be '-' (standard input)")
    rel_info, side = _read_rel_info(rel_file, opts.rel_format)
    if opts.results_format != "trec_results":
        raise Exit(2, f"trec_eval: Illegal retrieval results format '{opts.results_format}'\n")
    from cranfield.data.tables import Qrels

    run = None
    if isinstance(rel_info, Qrels):  # (-R qrels) a large run: evaluated a query block at a time
        from cranfield.compat.trec_eval.streamed import evaluate_streamed

        got = evaluate_streamed(opts, rel_info, results_file, marked, params)
        if isinstance(got, TrecEvaluation):
            return got
        run = got  # None, or the run read whole (the blocks could not be evaluated alone)
    if run is None:
        run = _read_results(results_file)
    tag = run.tag
    skipped = _skipped_queries(rel_info.query_ids, run, opts)
    zscores = None
    if opts.zscore_file is not None:
        from cranfield.compat.trec_eval.zscores import read_zscores

        zscores = read_zscores(opts.zscore_file)
    measures = init_measures(marked, params)

    _check_formats(measures, opts.rel_format)
    # the queries the judgments cover
    qrels = rel_info if isinstance(rel_info, Qrels) else rel_info.as_qrels()
    parts = [_evaluate_qrels(_judge_qrels(qrels, run, opts, side), opts, measures)]
    if opts.complete:
        in_run = set(run.query_ids)
        missing = [q for q in _topics(qrels, opts) if q not in in_run]
        if missing:
            parts.append(evaluate_dummies(qrels, missing, run.name, opts, measures, side))
    del run  # the judged rankings hold what the measures need: free the run's columns
    qids, values, relstrings = merge_topics(parts)
    return finish(opts, measures, qids, values, relstrings, skipped, zscores, tag, rel_info)


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
    jr = _judge_qrels(qrels.restrict(missing), dummy_run(name, missing), opts, side)
    return _evaluate_qrels(jr, opts, measures, dummy=True)


def merge_topics(parts: list[tuple]) -> tuple[list[str], dict, list[str] | None]:
    """The ``(topics, values, relstrings)`` of topics evaluated apart (blocks of a run, the
    dummy rankings of ``-c``), joined in topic order."""
    parts = [p for p in parts if p[0]]
    if len(parts) == 1:
        return parts[0]
    qids = [q for p in parts for q in p[0]]
    order = sorted(range(len(qids)), key=qids.__getitem__)
    values = {
        k: [np.concatenate(cols)[order] for cols in zip(*(p[1][k] for p in parts), strict=True)]
        for k in (parts[0][1] if parts else {})
    }
    relstrings = None
    if parts and parts[0][2] is not None:
        flat = [r for p in parts for r in p[2]]
        relstrings = [flat[i] for i in order]
    return [qids[i] for i in order], values, relstrings


def _topics(qrels, opts: Options) -> list[str]:
    """The judged topics trec_eval evaluates (only the one of ``-D level.qid``)."""
    if opts.debug_query is not None:
        return [q for q in qrels.query_ids if q == opts.debug_query]
    return list(qrels.query_ids)


def finish(opts, measures, qids, values, relstrings, skipped, zscores, tag, rel_info):
    """The evaluation from the per-topic values of the measures."""
    if not qids:
        raise Exit(7, "trec_eval: No queries with both results and relevance info\n")
    _warn_skipped(*skipped)
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


def _run(argv: list[str], lines: _Output, err: TextOut) -> int:
    result = evaluate_argv(argv)
    if isinstance(result, str):
        lines.append(result)
        return 0
    _print(lines, result)
    return 0


def _skipped_queries(
    rel_ids: Sequence[str], run, opts: Options
) -> tuple[str, list[str], list[str]]:
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


def _warn_skipped(name: str, run_only: list[str], missing: list[str]) -> None:
    """The notes of ``cranfield evaluate``, worded the same way, with trec_eval's flag."""
    from cranfield.results.blocks import warn_query_notes

    what = "were skipped (use -c to score them as empty rankings)"
    warn_query_notes(name, run_only, missing, what)


def _read_results(path: str):
    """The run ("-": standard input, as for every reader), always TREC text as trec_eval reads
    it (no MS MARCO or CSV detection).  Fields after the 6th are ignored without the
    DataWarning the other commands give: trec_eval prints nothing."""
    import warnings

    from cranfield.errors import DataWarning
    from cranfield.io import read_run

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return read_run(path, format="trec")


def _check_formats(measures: list[tuple], rel_format: str) -> None:
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


def _read_rel_info(path: str, rel_format: str) -> tuple[RelInfo, dict]:
    """The rel_info file, and the side input it is for the preference (``prefs``,
    ``qrels_prefs``) and judgment-group (``qrels_jg``) formats (``{}`` for qrels)."""
    if rel_format == "qrels":
        from cranfield.io import read_qrels

        return read_qrels(path, format="trec"), {}
    if rel_format == "qrels_jg":
        from cranfield.io.trec.judgment_files import read_judgment_groups

        groups = read_judgment_groups(path)
        return groups, {"judgment_groups": groups}
    from cranfield.io.trec.judgment_files import read_prefs

    prefs = read_prefs(path, qrels_format=rel_format == "qrels_prefs")
    return prefs, {"prefs": prefs}


def _judge_qrels(qrels, run, opts: Options, side: dict | None = None):
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


def _evaluate_qrels(jr, opts: Options, measures: list[tuple], dummy: bool = False):
    """``(topics, values, relstrings)`` of the judged rankings; ``dummy``: they are -c's dummy
    rankings, whose values trec_eval.c blanks by name (:func:`cleared_on_dummy`)."""
    ctx = Context(jr=jr, level=opts.level, num_docs=opts.num_docs, complete=opts.complete)
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


# ------------------------------------------------------------------------------ printing
def _print(lines: _Output, ev: TrecEvaluation) -> None:
    opts, qids, z = ev.opts, ev.qids, ev.opts.zscore_file is not None
    if opts.query:
        for a in range(0, len(qids), QUERY_CHUNK):
            lines.extend(_query_lines(ev, a, min(a + QUERY_CHUNK, len(qids)), z))
    if not opts.summary:
        return
    nq = len(qids)
    for tm, slots in ev.measures:
        if tm.kind == "relstring":
            continue
        if tm.kind == "runid":
            lines.append(f"{'runid':<22}\tall\t{ev.runid}\n")
            continue
        if tm.kind == "num_q":
            lines.append(fmt_value_line("num_q", "all", fmt_double(nq) if z else str(nq), z))
            continue
        for s in slots:
            lines.append(fmt_value_line(s.name, "all", _fmt(tm, summary(tm, s, ev), z), z))


def _query_lines(ev: TrecEvaluation, a: int, b: int, z: bool) -> list[str]:
    """The per-query blocks of queries ``a:b``: one column of finished lines per printed
    value, interleaved topic by topic."""
    qids = ev.qids[a:b]
    cols: list[list[str]] = []
    for tm, slots in ev.measures:
        if tm.kind in ("runid", "num_q", "gm"):
            continue
        if tm.kind == "relstring":
            assert ev.relstrings is not None  # (kept when relstring is printed)
            head = f"{slots[0].name:<22}\t"
            cols.append(
                [f"{head}{q}\t'{r}'\n" for q, r in zip(qids, ev.relstrings[a:b], strict=True)]
            )
            continue
        for s in slots:
            head = f"{'Z' if z else ''}{s.name:<22}\t"
            values = _fmt_column(tm, s.values[a:b], z)
            cols.append([f"{head}{q}\t{v}\n" for q, v in zip(qids, values, strict=True)])
    return list(map("".join, zip(*cols, strict=True)))


def summary(tm, slot: Slot, ev: TrecEvaluation) -> float:
    """The ``all`` value of one slot: mean, sum (counts) or geometric mean (gm_*)."""
    nq = len(ev.qids)
    total = float(np.cumsum(slot.values)[-1]) if nq else 0.0
    if tm.kind == "gm":
        return math.exp(total / nq) if nq else 0.0
    if tm.kind == "long":
        if tm.name == "num_rel" and ev.opts.complete:
            return float(_count_positive(ev.rel_info))
        return total
    return total / nq if nq else 0.0


def _count_positive(rel_info) -> int:
    grades = getattr(rel_info, "grades", None)
    return int(np.count_nonzero(grades > 0)) if grades is not None else 0


def _fmt_column(tm, values: np.ndarray, z: bool) -> list[str]:
    """``_fmt`` of every value (one list comprehension: this is the hot loop of -q)."""
    if tm.kind == "long" and not z:
        return [str(int(v)) for v in values.tolist()]
    if np.isnan(values).any():
        return [fmt_double(v) for v in values.tolist()]
    return ["%6.4f" % v for v in values.tolist()]  # noqa: UP031  (faster than f-strings)


def _fmt(tm, value: float, z: bool) -> str:
    if tm.kind == "long" and not z:
        return str(int(value))
    return fmt_double(float(value))
