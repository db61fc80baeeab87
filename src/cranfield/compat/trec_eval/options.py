"""trec_eval's command line, parsed as its ``getopt_long`` does.

Option string ``hvqm:cl:nD:JN:M:R:T:oZ:`` plus the long names; values attached (``-M100``,
``-mP.5``) or separate, flags grouped (``-qc``), options after the file names (GNU
permutation), ``--`` ends the options, unambiguous prefixes of long names are accepted.
Numbers are read with C ``atol`` (``-M 2.7`` is 2, ``-M x`` is 0).
"""

from __future__ import annotations

import getopt
from dataclasses import dataclass, field

from cranfield.compat.trec_eval.cformat import atol
from cranfield.errors import ParameterError

__all__ = ["LONG_OPTIONS", "SHORT_OPTIONS", "Options", "UsageError", "parse_argv"]

SHORT_OPTIONS = "hvqm:cl:nD:JN:M:R:T:oZ:"
LONG_OPTIONS = {
    "help": "h",
    "version": "v",
    "query_eval_wanted": "q",
    "measure=": "m",
    "complete_rel_info_wanted": "c",
    "level_for_rel=": "l",
    "nosummary": "n",
    "Debug_level=": "D",
    "Judged_docs_only": "J",
    "Number_docs_in_coll=": "N",
    "Max_retrieved_per_topic=": "M",
    "Rel_info_format=": "R",
    "Results_format=": "T",
    "Output_old_results_format=": "o",
    "Zscore=": "Z",
}


class UsageError(ParameterError):
    """Bad command line: trec_eval prints its usage text and exits with status 1."""


@dataclass
class Options:
    help: bool = False
    version: bool = False
    query: bool = False
    measures: list[str] = field(default_factory=list)
    complete: bool = False
    level: int = 1
    summary: bool = True
    debug_level: int = 0
    debug_query: str | None = None
    judged_only: bool = False
    num_docs: int = 0
    max_docs: int | None = None
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    zscore_file: str | None = None
    files: list[str] = field(default_factory=list)


def parse_argv(argv: list[str]) -> Options:
    """Parse ``argv`` (without the program name).  Raises :class:`UsageError`.

    ``-v`` and ``-h`` are recorded, not acted on; the caller checks ``version`` first (trec_eval
    exits as soon as it sees ``-v``), then ``help``, then the number of file names.
    """
    long_names = {name.rstrip("="): short for name, short in LONG_OPTIONS.items()}
    try:
        pairs, files = getopt.gnu_getopt(argv, SHORT_OPTIONS, list(LONG_OPTIONS))
    except getopt.GetoptError as exc:
        raise UsageError(str(exc)) from None
    opts = Options(files=files)
    for flag, value in pairs:
        key = long_names[flag[2:]] if flag.startswith("--") else flag[1:]
        if key == "h":
            opts.help = True
        elif key == "v":
            opts.version = True
            break  # trec_eval exits at -v before reading further options
        elif key == "q":
            opts.query = True
        elif key == "m":
            opts.measures.append(value)
        elif key == "c":
            opts.complete = True
        elif key == "l":
            opts.level = atol(value)
        elif key == "n":
            opts.summary = False
        elif key == "D":
            level, dot, qid = value.partition(".")
            opts.debug_level = atol(level)
            opts.debug_query = qid if dot else None
        elif key == "J":
            opts.judged_only = True
        elif key == "N":
            opts.num_docs = atol(value)
        elif key == "M":
            opts.max_docs = atol(value)
        elif key == "R":
            opts.rel_format = value
        elif key == "T":
            opts.results_format = value
        elif key == "Z":
            opts.zscore_file = value
        # -o: obsolete, accepted and ignored
    return opts
