"""Comparing runs: paired significance tests and corrections, agreement between measures, and
per-request analysis.  See ``docs/compare.md``.

::

    import cranfield
    cmp = cranfield.compare("qrels.txt", ["bm25.run", "dense.run"], ["AP", "nDCG@10"],
                            test="wilcoxon", correction="holm", baseline="bm25.run")
    print(cmp.table())          # means with significance letters, p-values, wins/losses/ties
    cmp.to_dict()               # the JSON shape of ``cranfield compare --format json``
    cmp.plot("figures/")        # precision histograms, magnitude differences, agreement, ...

``cranfield.compare`` is :func:`compare`; this package is ``cranfield.comparing``.
"""

from __future__ import annotations

from cranfield.comparing.agreement import (
    AgreementRow,
    agreement_rows,
    kendall_tau,
    pairwise_agreement,
    ranking,
    tau_ap,
    tau_ap_b,
)
from cranfield.comparing.anova_table import Anova, AnovaRow, anova
from cranfield.comparing.build import compare
from cranfield.comparing.corrections import CORRECTIONS, adjust
from cranfield.comparing.paired import (
    TESTS,
    PairedTestResult,
    bootstrap_test,
    differences,
    mean_ci,
    randomization_test,
    sign_test,
    t_test,
    wilcoxon_test,
)
from cranfield.comparing.requests import (
    GeneralitySplit,
    KeenRow,
    MagnitudeDifference,
    RequestCounts,
    keen_table,
    magnitude_difference,
    request_counts,
    split_by_relevant,
    superiority,
)
from cranfield.comparing.result import Comparison, PairResult, Sweep
from cranfield.comparing.sweep import parse_sweep
from cranfield.comparing.tukey import TukeyResult, tukey_hsd
from cranfield.comparing.westfall_young import WestfallYoung, westfall_young

__all__ = [
    "CORRECTIONS",
    "TESTS",
    "AgreementRow",
    "Anova",
    "AnovaRow",
    "Comparison",
    "GeneralitySplit",
    "KeenRow",
    "MagnitudeDifference",
    "PairResult",
    "PairedTestResult",
    "RequestCounts",
    "Sweep",
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
]
