"""The public names, pinned as httpx pins its own (issue 24): each public module's ``__all__``
listed exactly here, so adding or dropping a public name is a visible change to this file. Every
name resolves, every public class and function has a docstring, and the cranfield module shows
nothing public beyond ``__all__`` and its own submodules."""

from __future__ import annotations

import importlib
import inspect
import types

import pytest

PUBLIC = {
    "cranfield": [
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
    ],
    "cranfield.io": [
        "read_qrels",
        "read_run",
        "write_run",
    ],
    "cranfield.measures": [
        "Measure",
        "MeasureDef",
        "Param",
        "REGISTRY",
        "format_value",
        "lookup",
        "measure",
        "parse",
    ],
    "cranfield.curves": [
        "EXTRAPOLATIONS",
        "FALLOUT_COLUMNS",
        "GAIN_COLUMNS",
        "GAIN_CURVES",
        "INTERPOLATIONS",
        "PR_COLUMNS",
        "STANDARD_CUTOFFS",
        "STEP_CHOICES",
        "area",
        "fallout",
        "gain",
        "parse_cutoffs",
        "parse_levels",
        "plot",
        "precision_recall",
    ],
    "cranfield.compat.pytrec_eval": [
        "RelevanceEvaluator",
        "compute_aggregated_measure",
        "parse_qrel",
        "parse_run",
        "supported_measures",
        "supported_nicknames",
    ],
    "cranfield.compat.ir_measures": [
        "AP",
        "Accuracy",
        "BPM",
        "BPref",
        "Bpref",
        "CalcResults",
        "Compat",
        "DefaultPipeline",
        "ERR",
        "INSQ",
        "INST",
        "IPrec",
        "Judged",
        "MAP",
        "MRR",
        "Measure",
        "Metric",
        "NDCG",
        "NERR10",
        "NERR11",
        "NERR8",
        "NERR9",
        "NumQ",
        "NumRel",
        "NumRelRet",
        "NumRet",
        "P",
        "Precision",
        "Qrel",
        "R",
        "RBP",
        "RPrec",
        "RR",
        "Recall",
        "Rprec",
        "SDCG",
        "ScoredDoc",
        "SetAP",
        "SetF",
        "SetP",
        "SetR",
        "SetRelP",
        "Success",
        "accuracy",
        "calc",
        "calc_aggregate",
        "compat",
        "define",
        "define_byquery",
        "evaluator",
        "infAP",
        "iter_calc",
        "judged",
        "nDCG",
        "parse_measure",
        "parse_trec_measure",
        "providers",
        "pytrec_eval",
        "read_trec_qrels",
        "read_trec_run",
        "runtime",
    ],
    "cranfield.compat.ranx": [
        "Qrels",
        "Report",
        "Run",
        "compare",
        "evaluate",
        "numba_argsort",
        "parse_metric",
        "ranx_order",
    ],
    "cranfield.nuggets": [
        "ASSIGNMENTS",
        "IMPORTANCES",
        "NuggetAssignments",
        "NuggetScore",
        "SCORES",
        "ScoreDef",
        "read",
        "response_scores",
        "score",
    ],
    "cranfield.examples": [
        "CRANFIELD_RUNS",
        "Paper",
        "RUNS",
        "cranfield_qrels",
        "cranfield_runs",
        "has_cranfield",
        "paper",
        "papers",
        "path",
        "qrels",
        "runs",
    ],
    "cranfield.errors": [
        "ClusterError",
        "CranfieldError",
        "CranfieldWarning",
        "DataWarning",
        "InputError",
        "MeasureError",
        "MissingExtraError",
        "ParameterError",
        "UndefinedMeasureWarning",
        "warn",
    ],
    "cranfield.ties": [
        "TIE_POLICIES",
        "reorder_ties",
        "tie_range",
        "tie_ranges",
        "weak_curves",
    ],
    "cranfield.comparing": [
        "AgreementRow",
        "Anova",
        "AnovaRow",
        "CORRECTIONS",
        "Comparison",
        "GeneralitySplit",
        "KeenRow",
        "MagnitudeDifference",
        "PairResult",
        "PairedTestResult",
        "RequestCounts",
        "Sweep",
        "TESTS",
        "TukeyResult",
        "WestfallYoung",
        "adjust",
        "agreement_rows",
        "anova",
        "bootstrap_test",
        "compare",
        "differences",
        "keen_table",
        "kendall_tau",
        "magnitude_difference",
        "mean_ci",
        "pairwise_agreement",
        "parse_sweep",
        "randomization_test",
        "ranking",
        "request_counts",
        "sign_test",
        "split_by_relevant",
        "superiority",
        "t_test",
        "tau_ap",
        "tau_ap_b",
        "tukey_hsd",
        "westfall_young",
        "wilcoxon_test",
    ],
}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_all_is_pinned(module):
    assert sorted(importlib.import_module(module).__all__) == PUBLIC[module]


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_resolves_and_is_documented(module):
    mod = importlib.import_module(module)
    assert (mod.__doc__ or "").strip(), module
    undocumented = []
    for name in mod.__all__:
        value = getattr(mod, name)  # AttributeError if a listed name is missing
        documentable = inspect.isclass(value) or inspect.isfunction(value)
        if (documentable or inspect.ismodule(value)) and not (inspect.getdoc(value) or "").strip():
            undocumented.append(name)
    assert undocumented == []


def test_the_cranfield_module_shows_nothing_public_beyond_all():
    import cranfield

    extra = {
        name
        for name, value in vars(cranfield).items()
        if not name.startswith("_")
        and name not in cranfield.__all__
        and not (isinstance(value, types.ModuleType) and value.__name__.startswith("cranfield."))
    }
    assert extra == set()
    assert sorted(dir(cranfield)) == sorted(cranfield.__all__)
