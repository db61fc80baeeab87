"""The options several commands share, declared once (:data:`COMMON`: flags and keywords,
each command may override one), the groups of their destinations (outputs, judging, side
inputs, judgment files), the keyword arguments they become (:func:`values`) and the Dask
cluster of ``--dask`` (:func:`cluster`).

Standard library only (the start-up budget).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cranfield.base.limits import INT64_MAX, MAX_DOCUMENTS, MAX_RESAMPLES, MAX_SEED
from cranfield.cli._types import (
    CountOrFile,
    Range,
    Switch,
    file_path,
    name_list,
    output_file,
)

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.cli._args import Parser

__all__ = [
    "COMMON",
    "JUDGING",
    "JUDGMENT_FILES",
    "OUTPUTS",
    "SIDE_INPUTS",
    "cluster",
    "needed_by",
    "values",
]


# ------------------------------------------------------------------------------ options
# the options several commands share: name (= dest) -> (flags, add_argument keywords);
# a command may override any keyword (its own help text, choices, default)
COMMON: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "measures": (("-m", "--measure"), {"action": "append", "default": [], "metavar": "MEASURE"}),
    "per_query": (("-q", "--per-query"), {"action": "store_true"}),
    "fmt": (("-f", "--format"), {"default": "table", "show_default": True}),
    "ties": (("--ties",), {"default": "trec", "show_default": True}),
    "alpha": (
        ("--alpha",),
        {
            "type": Range(float, 0, 1, open=True),
            "default": 0.05,
            "show_default": True,
            "help": "Significance level.",
        },
    ),
    "alternative": (
        ("--alternative",),
        {
            "choices": ("two-sided", "greater", "less"),
            "default": "two-sided",
            "show_default": True,
            "help": "greater: mean(b) > mean(a), with b the later run of a pair.",
        },
    ),
    "permutations": (
        ("--permutations",),
        {
            "type": Range(int, 1, MAX_RESAMPLES),
            "default": 10_000,
            "show_default": True,
            "help": "Permutations of the randomization test / samples of the bootstrap.",
        },
    ),
    "seed": (
        ("--seed",),
        {"type": Range(int, 0, MAX_SEED), "metavar": "N", "help": "Seed of --ties random."},
    ),
    "depth": (
        ("-M", "--depth"),
        {
            "type": Range(int, 0, INT64_MAX),
            "metavar": "N",
            "help": "Keep only the first N documents of each ranking (trec_eval -M).",
        },
    ),
    "bounds": (
        ("--bounds",),
        {
            "action": "store_true",
            "help": "Also each measure's bounds over the run's unjudged documents: MEASURE:lo "
            "(judged non-relevant) and MEASURE:hi (judged with the query's top grade; R grows "
            "by them). See 'cranfield docs judgments'.",
        },
    ),
    "judged_only": (
        ("-J", "--judged-only"),
        {
            "action": "store_true",
            "help": "Drop unjudged documents before measuring (trec_eval -J).",
        },
    ),
    "complete": (
        ("-c", "--complete", "--no-complete"),
        {
            "action": Switch,
            "default": True,
            "show_default": True,
            "help": "Which queries a mean is over: every judged query of the qrels, a judged "
            "query a run has no results for scored as an empty ranking (trec_eval -c); "
            "--no-complete: each run's judged queries with results (trec_eval's default).",
        },
    ),
    "collection_size": (
        ("--collection-size",),
        {
            "type": CountOrFile(Range(int, 1, MAX_DOCUMENTS)),
            "metavar": "N|FILE",
            "help": "Documents in the collection: one number, or a file of 'qid N' lines "
            "(needed by {needed_by}).",
        },
    ),
    "known": (
        ("--known",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Documents known to the user, qrels format, grade > 0 = known "
            "(needed by {needed_by}).",
        },
    ),
    "target": (
        ("--target",),
        {
            "type": CountOrFile(Range(int, 1, MAX_DOCUMENTS)),
            "metavar": "N|FILE",
            "help": "Relevant documents the user wants: one number, or a file of 'qid N' lines "
            "(needed by {needed_by}).",
        },
    ),
    "prefs": (
        ("--prefs",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Preference judgments, trec_eval's -R prefs format 'qid jg jsg docno "
            "rel_level' (needed by {needed_by}).",
        },
    ),
    "prefs_format": (
        ("--prefs-format",),
        {
            "choices": ("prefs", "qrels"),
            "default": "prefs",
            "show_default": True,
            "help": "Format of --prefs: 'prefs' (5 columns) or 'qrels' (a qrels file whose "
            "second column is the judgment group: trec_eval's -R qrels_prefs).",
        },
    ),
    "judgment_groups": (
        ("--judgment-groups",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Judgments by judgment group: a qrels file whose second column names the "
            "group, trec_eval's -R qrels_jg (needed by {needed_by}).",
        },
    ),
    "subtopics": (
        ("--subtopics",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Subtopic judgments, ndeval's qrels 'topic subtopic docno judgment' (needed "
            "by {needed_by}); QRELS may name the same file.",
        },
    ),
    "names": (
        ("--names",),
        {
            "type": name_list,
            "action": "extend",
            "metavar": "NAME,...",
            "help": "Names of the runs, in order: a comma list, or the option repeated "
            "(default: the file names, with enough of the path to tell apart equal ones).",
        },
    ),
    "rel": (
        ("-l", "--rel"),
        {
            "type": Range(int, 0, INT64_MAX),
            "metavar": "N",
            "help": "Minimum grade counted relevant (trec_eval -l) by every measure whose "
            "string does not set rel= itself (default 1).",
        },
    ),
    "jobs": (
        ("-j", "--jobs"),
        {
            "type": Range(int, 1, 1024),
            "metavar": "N",
            "help": "Cores to use: runs evaluated at once in worker processes, or a large "
            "run read in one thread and measured in another (default: the number of cores; "
            "run files under 64 MiB together use one process). The output is the same "
            "whatever N.",
        },
    ),
    "dask": (
        ("--dask",),
        {
            "metavar": "ADDRESS",
            "help": "Work on the Dask cluster whose scheduler is at ADDRESS "
            "(tcp://host:8786): one task per run file or per query range of a large TREC "
            "text run (each worker gets the qrels once and reads its files from storage it "
            "sees), and compare's randomization/bootstrap tests. The output is the same "
            "bytes as without it. Needs the dask extra; not with -j.",
        },
    ),
    "digits": (
        ("--digits",),
        {
            "type": Range(int, 0, 17),
            "default": 4,
            "show_default": True,
            "metavar": "N",
            "help": "Decimals in table output.",
        },
    ),
    "output": (
        ("-o", "--output"),
        {
            "type": output_file,
            "metavar": "FILE",
            "help": "Write to this file instead of standard output (replaced only once the "
            "output is complete).",
        },
    ),
}


OUTPUTS = ("output", "plot_path")
"""Destinations of the options that name a file to write."""


JUDGING = ("ties", "seed", "depth", "judged_only", "complete")
"""The options that say how rankings are read and judged, named as the library's keywords."""


SIDE_INPUTS = ("collection_size", "known", "target")
"""The options of the measures' side inputs (:mod:`cranfield.judging.side_inputs`)."""


JUDGMENT_FILES = ("prefs", "judgment_groups", "subtopics")
"""The other judgment files, for the preference, judgment-group and diversity measures
(evaluate and compare; ``--prefs-format`` says how ``--prefs`` is read)."""


@contextlib.contextmanager
def cluster(parser: Parser, args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--dask`` (its client closed at the end), or ``None``; ``-j`` with
    ``--dask`` is a usage error.  Its waits are watched (a scheduler silent or a cluster
    without workers for a minute is an error: :class:`~cranfield.scale.dask_executor.DaskExecutor`)
    and Dask's own log messages are not shown: a failure of the cluster is one error."""
    address = getattr(args, "dask", None)
    if address is None:
        yield None
        return
    if getattr(args, "jobs", None) is not None:
        parser.error(
            "argument --dask: not allowed with -j/--jobs (the cluster's workers run the work)"
        )
    from cranfield.scale.dask_executor import CLOSE_SECONDS, DaskExecutor, connect

    client = connect(address, quiet=True)
    try:
        yield DaskExecutor(client, watch=True)
    finally:
        with contextlib.suppress(Exception):  # a cluster gone meanwhile: nothing to close
            client.close(timeout=CLOSE_SECONDS)


def values(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The parsed ``names`` as keyword arguments (``prefs`` read in its ``--prefs-format``)."""
    out = {name: getattr(args, name) for name in names}
    if out.get("prefs") is not None and getattr(args, "prefs_format", "prefs") == "qrels":
        from cranfield.io.trec.judgment_files import read_prefs

        out["prefs"] = read_prefs(out["prefs"], qrels_format=True)
    return out


def needed_by(side_input: str) -> str:
    """The measures whose declarations need ``side_input`` (``needs=``), for the help text:
    from the index of the declarations, without importing every family."""
    from cranfield.measures.index import NEEDS

    names = NEEDS.get(side_input, [])
    if len(names) > 8:
        prefix = names[0].split("_")[0] + "_"
        if all(n.startswith(prefix) for n in names):
            return f"the {len(names)} {prefix}* measures"
    return ", ".join(names) or "no measure"
