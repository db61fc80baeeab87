"""``cranfield trec_eval``: trec_eval 10.0's command, byte for byte on its documented behaviour.

Flow (trec_eval.c): parse options and mark measures (illegal measure: exit 1) -> help /
usage -> read the rel_info and results files (our readers: file:line errors, exit 2) ->
z-score file -> initialise the marked measures (bad parameters: exit 2) -> evaluate every
qrels topic that has results (all qrels topics with ``-c``) -> print per-topic blocks (``-q``)
and the summary.  Deliberate differences from 10.0's defects are listed in docs/trec_eval.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from cranfield.base.limits import MAX_DOCUMENTS
from cranfield.compat.trec_eval.measuring import (
    Exit,
    TrecEvaluation,
    check_formats,
    evaluate_dummies,
    evaluate_qrels,
    finish,
    init_measures,
    judge_qrels,
    mark_measures,
    merge_topics,
    skipped_queries,
)
from cranfield.compat.trec_eval.options import Options, UsageError, parse_argv
from cranfield.compat.trec_eval.printing import print_evaluation
from cranfield.errors import ParameterError

if TYPE_CHECKING:
    from cranfield.compat.trec_eval.measuring import RelInfo

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
    from cranfield.base.warning_lines import warnings_as_lines

    try:
        with warnings_as_lines(lambda line: err.write(line + "\n")):
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
    skipped = skipped_queries(rel_info.query_ids, run, opts)
    zscores = None
    if opts.zscore_file is not None:
        from cranfield.compat.trec_eval.zscores import read_zscores

        zscores = read_zscores(opts.zscore_file)
    measures = init_measures(marked, params)

    check_formats(measures, opts.rel_format)
    # the queries the judgments cover
    qrels = rel_info if isinstance(rel_info, Qrels) else rel_info.as_qrels()
    parts = [evaluate_qrels(judge_qrels(qrels, run, opts, side), opts, measures)]
    if opts.complete:
        in_run = set(run.query_ids)
        missing = [q for q in _topics(qrels, opts) if q not in in_run]
        if missing:
            parts.append(evaluate_dummies(qrels, missing, run.name, opts, measures, side))
    del run  # the judged rankings hold what the measures need: free the run's columns
    qids, values, relstrings = merge_topics(parts)
    return finish(opts, measures, qids, values, relstrings, skipped, zscores, tag, rel_info)


def _topics(qrels, opts: Options) -> list[str]:
    """The judged topics trec_eval evaluates (only the one of ``-D level.qid``)."""
    if opts.debug_query is not None:
        return [q for q in qrels.query_ids if q == opts.debug_query]
    return list(qrels.query_ids)


def _run(argv: list[str], lines: _Output, err: TextOut) -> int:
    result = evaluate_argv(argv)
    if isinstance(result, str):
        lines.append(result)
        return 0
    print_evaluation(lines, result)
    return 0


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
