"""``cranfield trec_eval``: a drop-in for trec_eval 10.0 (its options, its output bytes).

The arguments are handed to the compat engine untouched (getopt_long rules, ``-h`` and ``--``
included); they are parsed here only to read the qrels file and judge the run ahead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run(argv: Sequence[str]) -> None:
    """trec_eval [-h] [-q] [-m measure[.params]] [-c] [-n] [-l num] [-M num] [-J] ... qrels run"""
    from cranfield.cli._output import StderrText, StdoutBytes

    _qrels_ahead(argv)
    from cranfield.compat.trec_eval.engine import main

    status = main(list(argv), out=StdoutBytes(), err=StderrText())
    if status:
        sys.exit(status)


def _qrels_ahead(argv: Sequence[str]) -> None:
    """The compiled core's read of a qrels file, then its judging of the run's first pieces,
    started while the engine is imported (:mod:`cranfield.base.core_ahead`); the engine's
    reader and judging pass take what they made."""
    from cranfield.compat.trec_eval.options import parse_argv

    try:
        opts = parse_argv(list(argv))
    except Exception:  # the engine parses them again, and words the error
        return
    if opts.help or opts.version or len(opts.files) != 2 or opts.rel_format != "qrels":
        return
    qrels, run = opts.files
    if qrels == "-":
        return
    from cranfield.base import core_ahead, pieces

    then = None
    if run != "-" and opts.debug_query is None:  # -D judges against one query's qrels
        then = core_ahead.judge_run(
            run,
            depth=opts.max_docs,
            judged_only=opts.judged_only,
            rows=pieces.BATCH_ROWS,
            piece_bytes=pieces.PIECE_BYTES,
        )
    core_ahead.start(qrels, "ReadQrels", then=then)
