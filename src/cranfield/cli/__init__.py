"""The ``cranfield`` command: one module per subcommand, imported only when it runs.

Each subcommand module has ``run(argv)``: it parses its arguments (argparse, see ``_args``) and
does the work.  ``main`` turns errors into one line on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

# name -> (module, one-line help).  The help is here so that `cranfield --help` imports nothing.
COMMANDS: dict[str, tuple[str, str]] = {
    "evaluate": ("cranfield.cli.evaluate", "Evaluate runs against qrels and print measures."),
    "trec_eval": ("cranfield.cli.trec_eval", "Drop-in trec_eval 10.0 (same flags, same bytes)."),
    "compare": ("cranfield.cli.compare", "Compare runs: significance tests, agreement, per query."),
    "measures": ("cranfield.cli.measures", "List every measure: parameters, formula, source."),
    "demo": ("cranfield.cli.demo", "Evaluate the bundled example runs (works offline)."),
    "curve": ("cranfield.cli.curve", "Precision-recall, gain and recall-fallout curves and plots."),
    "ties": ("cranfield.cli.ties", "How far tie-breaking can move each run's scores."),
    "report": ("cranfield.cli.report", "One HTML file: means, tests, per query, curves, ties."),
    "anova": ("cranfield.cli.anova", "ANOVA of the runs: table, margins of error, effect sizes."),
    "design": ("cranfield.cli.design", "Topics a test collection needs: power, interval width."),
    "meta": ("cranfield.cli.meta", "Judge the measures: discriminative power, swaps, stability."),
    "holes": ("cranfield.cli.holes", "Unjudged documents of runs and pools: a judgment request."),
    "inferred": ("cranfield.cli.inferred", "xinfAP, infAP, infNDCG from sampled judgments."),
    "leaderboard": (
        "cranfield.cli.leaderboard",
        "Do judgment sets rank the runs alike? tau_b, tau_AP_b, top-k, verdicts.",
    ),
    "judges": ("cranfield.cli.judges", "Agreement between judgment sets: kappa, alpha, AC1."),
    "verify": ("cranfield.cli.verify", "Check scores against EXPECTED.yaml: OK, OKish, FAIL."),
    "suite": ("cranfield.cli.suite", "Systems over many collections: means, wins, meta-analysis."),
    "nuggets": ("cranfield.cli.nuggets", "RAG answers' nugget scores (AutoNuggetizer), compared."),
    "repro": ("cranfield.cli.repro", "Was an experiment reproduced? KTU, RBO, RMSE, ER, DeltaRI."),
    "docs": ("cranfield.cli.docs", "The documentation pages, offline: list them or show one."),
}


def _version() -> str:
    """The installed version (importlib.metadata is imported for ``--version`` only)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cranfield")
    except PackageNotFoundError:
        from cranfield import __version__

        return __version__


def run(argv: Sequence[str]) -> None:
    """Evaluate information retrieval runs: exact, complete, fast.

    \b
    cranfield demo
    cranfield evaluate qrels.txt run1.txt run2.txt -m AP -m P@10 -m nDCG@10
    cranfield trec_eval -q -m all_trec qrels.txt run.txt
    """
    from importlib import import_module

    if argv and argv[0] in COMMANDS:  # trec_eval never needs argparse
        name, rest = argv[0], list(argv[1:])
    else:  # help, version or a usage error
        from cranfield.cli._args import dispatch

        helps = {name: help_ for name, (_, help_) in COMMANDS.items()}
        name, rest = dispatch("cranfield", run.__doc__, helps, argv, version=_version)
    import_module(COMMANDS[name][0]).run(rest)


def entry() -> None:
    """The ``cranfield`` command as a process (the console script and ``python -m
    cranfield``): :func:`main`, then an end without CPython's last garbage collection.

    At exit CPython walks every object it tracks for cycles, numpy's and cranfield's modules
    included (7 ms after a 50,000-line run, about a tenth of the command's own time).  The
    process is ending and the system takes its memory back, so the objects are frozen out of
    that walk (``gc.freeze``); output is flushed and ``atexit`` handlers run as before.  Calls
    of :func:`main` inside a longer process (tests, notebooks) leave the collector alone.

    The collector also runs less often while the command works: a young-generation
    collection after 100,000 new objects instead of CPython's 700 (the older generations'
    thresholds as they are; mypy tunes its own process the same way).  Importing numpy and
    cranfield, and building a run's lists of ids, set off about 40 collections that free
    nothing and walk the 50,000-id lists again and again: 4-5 ms of a 50,000-line run's
    115 ms (``bench/``).  Cycles are still collected, after at most 100,000 objects."""
    import gc

    if 0 < gc.get_threshold()[0] < YOUNG_COLLECTION_AFTER:  # 0: off, and it stays off
        gc.set_threshold(YOUNG_COLLECTION_AFTER)  # the older generations' stay as they are
    try:
        main()
    finally:
        gc.freeze()


YOUNG_COLLECTION_AFTER = 100_000
"""New container objects between two young-generation collections in the command's process
(:func:`entry`)."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: errors become one line on stderr and exit status 2, never a traceback.

    Output that cannot be written (standard output closed or full) is such an error too; a
    closed pipe (``cranfield ... | head``) ends quietly with status 0."""
    # one BLAS thread unless the user says otherwise: nothing here multiplies large matrices,
    # and starting OpenBLAS's thread pool is a tenth of numpy's import time
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from cranfield.scale.malloc_tuning import warm_malloc

    warm_malloc()
    from cranfield.cli._output import discard_stdout, flush_stdout, prepare_streams, say
    from cranfield.errors import CranfieldError

    prepare_streams()
    from cranfield.base.warning_lines import warnings_as_lines

    try:
        with warnings_as_lines(say):
            run(sys.argv[1:] if argv is None else argv)
        flush_stdout()
    except CranfieldError as exc:
        say(f"cranfield: error: {exc}")
        discard_stdout()
        sys.exit(2)
    except BrokenPipeError:
        discard_stdout()
        sys.exit(0)
    except KeyboardInterrupt:
        say("cranfield: interrupted")
        sys.exit(130)
