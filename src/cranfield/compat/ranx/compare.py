"""ranx's ``compare``: every run evaluated, every pair tested, wins/ties/losses per query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.compat.ranx.data import Run
from cranfield.compat.ranx.evaluate import evaluate
from cranfield.compat.ranx.report import STAT_TESTS, Report
from cranfield.errors import ParameterError


def _p_values(
    stat_test: str,
    names: list[str],
    scores: dict[str, dict[str, np.ndarray]],
    metrics: list[str],
    n_permutations: int,
    max_p: float,
    random_seed: int,
) -> dict[frozenset, dict[str, dict[str, Any]]]:
    """Every pair's p-value per metric: Student's paired t (cranfield's ``t_test_d``, as
    scipy's ``ttest_rel``), Fisher's randomization test (cranfield's, seeded: not ranx's
    stream), Tukey's HSD (scipy's ``tukey_hsd``, as ranx: the unpaired one-way test)."""
    out: dict[frozenset, dict[str, dict[str, Any]]] = {}
    if stat_test == "tukey":
        from scipy.stats import tukey_hsd

        for m in metrics:
            p = tukey_hsd(*[scores[n][m] for n in names]).pvalue
            for i, a in enumerate(names):
                for j, b in enumerate(names[i + 1 :], i + 1):
                    pv = float(p[i, j])
                    out.setdefault(frozenset((a, b)), {})[m] = {
                        "p_value": pv,
                        "significant": pv <= max_p,
                    }
        return out
    from cranfield.comparing.paired import t_test_d
    from cranfield.comparing.resampling import randomization_tests

    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pair = out.setdefault(frozenset((a, b)), {})
            for m in metrics:
                d = scores[b][m] - scores[a][m]
                if stat_test == "student":
                    pv = float(t_test_d(d).p_value)
                else:
                    pv = float(
                        randomization_tests(
                            d[:, None], permutations=n_permutations, seed=random_seed
                        )[0].p_value
                    )
                pair[m] = {"p_value": pv, "significant": pv <= max_p}
    return out


def compare(
    qrels: Any,
    runs: Sequence[Run],
    metrics: str | Sequence[str],
    stat_test: str = "student",
    n_permutations: int = 1000,
    max_p: float = 0.01,
    random_seed: int = 42,
    threads: int = 0,
    rounding_digits: int = 3,
    show_percentages: bool = False,
    make_comparable: bool = False,
) -> Report:
    """ranx's ``compare``: every run evaluated, every pair tested (``stat_test``: ``student``,
    ``fisher`` or ``tukey``), wins/ties/losses per query; a :class:`Report`."""
    if stat_test not in STAT_TESTS:
        raise ParameterError(
            f"unknown stat_test {stat_test!r}; choose " + ", ".join(repr(t) for t in STAT_TESTS)
        )
    metric_list = [metrics] if isinstance(metrics, str) else list(metrics)
    names: list[str] = []
    scores: dict[str, dict[str, np.ndarray]] = {}
    for i, run in enumerate(runs):
        given_name = getattr(run, "name", None)
        name: str = given_name if given_name is not None else f"run_{i + 1}"
        if name in scores:
            raise ParameterError(f"two runs are named {name!r}; give each run its own name")
        names.append(name)
        v = evaluate(qrels, run, metric_list, return_mean=False, make_comparable=make_comparable)
        scores[name] = {metric_list[0]: v} if len(metric_list) == 1 else v
    results = {n: {m: float(np.mean(scores[n][m])) for m in metric_list} for n in names}
    comparisons = _p_values(
        stat_test, names, scores, metric_list, n_permutations, max_p, random_seed
    )
    wtl = {
        (a, b): {
            m: {
                "W": int(np.sum(scores[a][m] > scores[b][m])),
                "T": int(np.sum(scores[a][m] == scores[b][m])),
                "L": int(np.sum(scores[a][m] < scores[b][m])),
            }
            for m in metric_list
        }
        for a in names
        for b in names
        if a != b
    }
    return Report(
        names,
        results,
        comparisons,
        metric_list,
        max_p,
        wtl,
        rounding_digits,
        show_percentages,
        stat_test,
    )
