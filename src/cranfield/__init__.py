"""cranfield: evaluate information retrieval runs in the Cranfield tradition.

Exact (agrees with trec_eval 10.0 to the last digit), complete (PRES, normalized recall and
precision, tie-aware measures, the SMART curve methods) and fast.  The public API::

    import cranfield
    res = cranfield.evaluate("qrels.txt", "run.txt", ["AP", "nDCG@10"])
    res.aggregate()      # {"AP": 0.31, "nDCG@10": 0.52}
    res.per_query()      # pandas DataFrame, one row per query
    cranfield.report("qrels.txt", ["a.txt", "b.txt"], ["AP"], output="report.html")

Heavy modules load on first use, so ``import cranfield`` stays fast.
"""

from __future__ import annotations as _annotations

import importlib as _importlib
import typing as _typing

from cranfield.base import moved_paths as _moved_paths
from cranfield.base.version import __version__

__all__ = [
    "CranfieldError",
    "CranfieldWarning",
    "DataWarning",
    "Evaluator",
    "InputError",
    "JudgeOptions",
    "JudgedRankings",
    "Measure",
    "MeasureError",
    "MissingExtraError",
    "ParameterError",
    "Qrels",
    "Results",
    "ResultsSet",
    "Run",
    "UndefinedMeasureWarning",
    "__version__",
    "compare",
    "curves",
    "evaluate",
    "judge",
    "judge_many",
    "judges",
    "leaderboards",
    "measures",
    "nuggets",
    "parse_measure",
    "rank_biased_overlap",
    "read_qrels",
    "read_run",
    "report",
    "repro",
    "suite",
    "verify",
]

_LAZY = {
    "evaluate": ("cranfield.evaluation", "evaluate"),
    "Evaluator": ("cranfield.evaluation", "Evaluator"),
    "compare": ("cranfield.comparing", "compare"),
    "rank_biased_overlap": ("cranfield.comparing.rbo", "rank_biased_overlap"),
    "judge": ("cranfield.judging.join", "judge"),
    "judge_many": ("cranfield.judging.runs", "judge_many"),
    "repro": ("cranfield.comparing.repro", "repro"),
    "judges": ("cranfield.judgments.agreement", "judges"),
    "suite": ("cranfield.comparing.suites", "suite"),
    "leaderboards": ("cranfield.judgments.leaderboard_runs", "leaderboards"),
    "JudgeOptions": ("cranfield.judging.options", "JudgeOptions"),
    "read_qrels": ("cranfield.io", "read_qrels"),
    "read_run": ("cranfield.io", "read_run"),
    "Qrels": ("cranfield.data.tables", "Qrels"),
    "Run": ("cranfield.data.tables", "Run"),
    "JudgedRankings": ("cranfield.judging.rankings", "JudgedRankings"),
    "Results": ("cranfield.results.tables", "Results"),
    "ResultsSet": ("cranfield.results.tables", "ResultsSet"),
    "Measure": ("cranfield.measures", "Measure"),
    "parse_measure": ("cranfield.measures", "parse"),
    "measures": ("cranfield.measures", None),
    "curves": ("cranfield.curves", None),
    "nuggets": ("cranfield.nuggets", None),
    "report": ("cranfield.reporting", "report"),
    "verify": ("cranfield.comparing.verification", "verify"),
    "CranfieldError": ("cranfield.errors", "CranfieldError"),
    "CranfieldWarning": ("cranfield.errors", "CranfieldWarning"),
    "DataWarning": ("cranfield.errors", "DataWarning"),
    "InputError": ("cranfield.errors", "InputError"),
    "MeasureError": ("cranfield.errors", "MeasureError"),
    "MissingExtraError": ("cranfield.errors", "MissingExtraError"),
    "ParameterError": ("cranfield.errors", "ParameterError"),
    "UndefinedMeasureWarning": ("cranfield.errors", "UndefinedMeasureWarning"),
}


_moved_paths.install()  # the paths of the layout before the stage packages, for one release


def __getattr__(name: str) -> _typing.Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cranfield' has no attribute {name!r}") from None
    mod = _importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if _typing.TYPE_CHECKING:  # pragma: no cover
    from cranfield import curves, measures, nuggets
    from cranfield.comparing import compare
    from cranfield.comparing.repro import repro
    from cranfield.comparing.suites import suite
    from cranfield.comparing.verification import verify
    from cranfield.data.tables import Qrels, Run
    from cranfield.errors import (
        CranfieldError,
        CranfieldWarning,
        DataWarning,
        InputError,
        MeasureError,
        MissingExtraError,
        ParameterError,
        UndefinedMeasureWarning,
    )
    from cranfield.evaluation import evaluate
    from cranfield.io import read_qrels, read_run
    from cranfield.judging.join import judge
    from cranfield.judging.options import JudgeOptions
    from cranfield.judging.rankings import JudgedRankings
    from cranfield.judging.runs import judge_many
    from cranfield.judgments.agreement import judges
    from cranfield.judgments.leaderboard_runs import leaderboards
    from cranfield.measures import Measure
    from cranfield.measures import parse as parse_measure
    from cranfield.reporting import report
    from cranfield.results.tables import Results, ResultsSet
