"""``cranfield trec_eval``: a drop-in for trec_eval 10.0 (its options, its output bytes).

The arguments are handed to the compat engine untouched (getopt_long rules, ``-h`` and ``--``
included); they are parsed here only to read a qrels file ahead.
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
    """The compiled core's read of a qrels file started while the engine is imported
    (:mod:`cranfield.base.core_ahead`); the engine's reader takes its result."""
    from cranfield.compat.trec_eval.options import parse_argv

    try:
        opts = parse_argv(list(argv))
    except Exception:  # the engine parses them again, and words the error
        return
    if opts.help or opts.version or len(opts.files) != 2 or opts.rel_format != "qrels":
        return
    if opts.files[0] != "-":
        from cranfield.base import core_ahead

        core_ahead.start(opts.files[0], "read_qrels", False)
