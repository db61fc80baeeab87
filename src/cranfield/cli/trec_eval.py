"""``cranfield trec_eval``: a drop-in for trec_eval 10.0 (its options, its output bytes).

The arguments are handed to the compat engine untouched (getopt_long rules, ``-h`` and ``--``
included): nothing is parsed here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run(argv: Sequence[str]) -> None:
    """trec_eval [-h] [-q] [-m measure[.params]] [-c] [-n] [-l num] [-M num] [-J] ... qrels run"""
    from cranfield.cli._output import StderrText, StdoutBytes
    from cranfield.compat.trec_eval.engine import main

    status = main(list(argv), out=StdoutBytes(), err=StderrText())
    if status:
        sys.exit(status)
