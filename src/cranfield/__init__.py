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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "CranfieldError",
    "CranfieldWarning",
    "DataWarning",
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
    "parse_measure",
    "rank_biased_overlap",
    "read_qrels",
    "read_run",
    "report",
    "repro",
]

_LAZY = {
    "evaluate": ("cranfield.evaluation", "evaluate"),
    "compare": ("cranfield.comparing", "compare"),
    "rank_biased_overlap": ("cranfield.comparing.rbo", "rank_biased_overlap"),
    "judge": ("cranfield.judging", "judge"),
    "repro": ("cranfield.comparing.repro", "repro"),
    "judge_many": ("cranfield.judged_runs", "judge_many"),
    "judges": ("cranfield.judgments.agreement", "judges"),
    "leaderboards": ("cranfield.judgments.leaderboard", "leaderboards"),
    "JudgeOptions": ("cranfield.judging_options", "JudgeOptions"),
    "read_qrels": ("cranfield.io", "read_qrels"),
    "read_run": ("cranfield.io", "read_run"),
    "Qrels": ("cranfield.data", "Qrels"),
    "Run": ("cranfield.data", "Run"),
    "JudgedRankings": ("cranfield.judged_rankings", "JudgedRankings"),
    "Results": ("cranfield.results", "Results"),
    "ResultsSet": ("cranfield.results", "ResultsSet"),
    "Measure": ("cranfield.measures", "Measure"),
    "parse_measure": ("cranfield.measures", "parse"),
    "measures": ("cranfield.measures", None),
    "curves": ("cranfield.curves", None),
    "report": ("cranfield.report", None),  # the package, callable: cranfield.reporting.report
    "CranfieldError": ("cranfield.errors", "CranfieldError"),
    "CranfieldWarning": ("cranfield.errors", "CranfieldWarning"),
    "DataWarning": ("cranfield.errors", "DataWarning"),
    "InputError": ("cranfield.errors", "InputError"),
    "MeasureError": ("cranfield.errors", "MeasureError"),
    "MissingExtraError": ("cranfield.errors", "MissingExtraError"),
    "ParameterError": ("cranfield.errors", "ParameterError"),
    "UndefinedMeasureWarning": ("cranfield.errors", "UndefinedMeasureWarning"),
}


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cranfield' has no attribute {name!r}") from None
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # pragma: no cover
    from . import curves, measures, report
    from .comparing import compare
    from .comparing.repro import repro
    from .data import Qrels, Run
    from .errors import (
        CranfieldError,
        CranfieldWarning,
        DataWarning,
        InputError,
        MeasureError,
        MissingExtraError,
        ParameterError,
        UndefinedMeasureWarning,
    )
    from .evaluation import evaluate
    from .io import read_qrels, read_run
    from .judged_rankings import JudgedRankings
    from .judged_runs import judge_many
    from .judging import judge
    from .judging_options import JudgeOptions
    from .judgments.agreement import judges
    from .judgments.leaderboard import leaderboards
    from .measures import Measure
    from .measures import parse as parse_measure
    from .results import Results, ResultsSet
