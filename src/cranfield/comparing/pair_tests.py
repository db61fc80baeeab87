"""The tests of a family of run pairs, as :func:`cranfield.compare` runs them: the settings
checked once (:func:`check_settings`), every pair's test and the interval of its mean
difference (:func:`test_pairs`: paired tests, Tukey's HSD and its randomised form, bootstrap
intervals; the resampling on an executor when one is given), the p-values adjusted for the
family (:func:`adjusted`, MaxT and MinP from the per-query values), and one warning when the
test fits the numbers of queries poorly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cranfield.base import arguments as A
from cranfield.comparing.corrections import CORRECTIONS, PERMUTATION_CORRECTIONS, adjust, canonical
from cranfield.comparing.paired import (
    ALTERNATIVES,
    TESTS,
    PairedTestResult,
    bootstrap_tests,
    mean_cis,
    paired_tests,
)
from cranfield.comparing.tukey import tukey_hsd
from cranfield.errors import CranfieldWarning, ParameterError
from cranfield.errors import warn as _warn

__all__ = ["CI_METHODS", "MAX_RESAMPLES", "adjusted", "check_settings", "test_pairs", "warn_fit"]


CI_METHODS = ("t", "bootstrap")


MAX_RESAMPLES = 100_000_000
"""The most ``permutations`` (resamples) a comparison takes: more would exhaust memory."""


def check_settings(
    test: str,
    correction: str | None,
    alternative: str,
    alpha: float,
    permutations: int,
    seed: int | None,
    ci: str | None,
) -> dict[str, Any]:
    """The checked settings of the tests (keywords of :func:`compare`), one
    :class:`~cranfield.errors.ParameterError` each; ``ci=None`` becomes the test's default."""
    test = A.choice(test, "test", tuple(TESTS))
    if correction is not None and not isinstance(correction, str):
        raise ParameterError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    correction = canonical(correction)
    if test in ("tukey", "rthsd") and correction != "none":
        what = "Tukey's HSD" if test == "tukey" else "The randomised Tukey HSD test"
        raise ParameterError(
            f"{what} already controls the family-wise error rate; use correction 'none'"
        )
    if correction in PERMUTATION_CORRECTIONS and alternative != "two-sided":
        raise ParameterError(f"the {correction} correction is two-sided only")
    alternative = A.choice(alternative, "alternative", ALTERNATIVES)
    if test in ("tukey", "rthsd") and alternative != "two-sided":
        raise ParameterError(f"{TESTS[test][0]} is two-sided only")
    alpha = A.number(alpha, "alpha")
    if not 0.0 < alpha < 1.0:
        raise ParameterError(f"alpha must be between 0 and 1, got {alpha}")
    permutations = A.integer(permutations, "permutations", minimum=1, maximum=MAX_RESAMPLES)
    seed = A.random_seed(seed)
    if ci is None:
        ci = "bootstrap" if test == "bootstrap" else "t"
    ci = A.choice(ci, "interval", CI_METHODS)
    return {
        "test": test,
        "correction": correction,
        "alternative": alternative,
        "alpha": alpha,
        "permutations": permutations,
        "seed": seed,
        "ci": ci,
    }


def warn_fit(test: str, counts: list[int]) -> None:
    """One warning when the test is a poor fit for the numbers of queries compared
    (:mod:`.advice`)."""
    from cranfield.comparing.advice import fit_warning

    for n in sorted(set(counts), reverse=test != "t"):
        message = fit_warning(test, n)
        if message:
            _warn(CranfieldWarning(message))
            return


def adjusted(
    V: np.ndarray,
    pair_idx: list[tuple[int, int]],
    results: list[PairedTestResult],
    correction: str,
    alpha: float,
    permutations: int,
    seed: int | None,
    notes: dict[str, Any],
    label: str,
) -> np.ndarray:
    """The adjusted p-values of one measure's pairs: from the p-values, or for MaxT and MinP
    from the per-query values (:mod:`.westfall_young`, with the test's resamples and seed)."""
    if correction not in PERMUTATION_CORRECTIONS:
        return adjust([t.p_value for t in results], correction, alpha=alpha)
    from cranfield.comparing.westfall_young import westfall_young

    wy = westfall_young(V, pair_idx, method=correction, permutations=permutations, seed=seed)
    notes["correction_resamples"] = wy.resamples
    if wy.exact:
        notes.setdefault("correction_exact", []).append(label)
    return wy.p_adjusted


def test_pairs(
    V: np.ndarray,
    D: np.ndarray,
    pair_idx: list[tuple[int, int]],
    test: str,
    alternative: str,
    permutations: int,
    seed: int | None,
    ci: str,
    confidence: float,
    executor: Any = None,
) -> tuple[list[PairedTestResult], list[tuple[float, float]]]:
    """The test of every pair and the intervals of the mean differences; the randomization
    and bootstrap tests on ``executor`` when one is given (the same p-values)."""
    resampled = test in ("randomization", "bootstrap") or ci == "bootstrap"
    # the tests of all runs at once (Tukey's HSD, its randomised form) run here
    if executor is not None and test not in ("tukey", "rthsd") and resampled:
        return _resampled_pairs(D, test, alternative, permutations, seed, ci, confidence, executor)
    if test == "rthsd":
        from cranfield.comparing.rthsd import randomised_tukey_hsd

        hsd = randomised_tukey_hsd(V, permutations=permutations, seed=seed)
        results = []
        for i, j in pair_idx:
            diff = hsd.means[j] - hsd.means[i]
            sign = 0 if hsd.diff[i, j] == 0 else (1 if diff > 0 else -1)
            results.append(
                PairedTestResult(
                    "rthsd",
                    float(hsd.diff[i, j]),
                    float(hsd.p[i, j]),
                    sign,
                    len(V),
                    hsd.resamples,
                    hsd.exact,
                )
            )
    elif test == "tukey":
        tk = tukey_hsd(V)
        results = []
        for i, j in pair_idx:
            diff = tk.means[j] - tk.means[i]
            sign = 0 if tk.q[i, j] == 0 else (1 if diff > 0 else -1)
            results.append(
                PairedTestResult("tukey", float(tk.q[i, j]), float(tk.p[i, j]), sign, len(V))
            )
    elif test == "bootstrap" and ci == "bootstrap":
        results, interval = bootstrap_tests(
            D, samples=permutations, seed=seed, alternative=alternative, confidence=confidence
        )
        assert interval is not None
        return results, [(float(lo), float(hi)) for lo, hi in interval.T]
    else:
        results = paired_tests(
            D, test, alternative=alternative, permutations=permutations, seed=seed
        )
    if ci == "bootstrap":
        _, interval = bootstrap_tests(
            D, samples=permutations, seed=seed, alternative=alternative, confidence=confidence
        )
        assert interval is not None
        cis = [(float(lo), float(hi)) for lo, hi in interval.T]
    else:
        cis = mean_cis(D, confidence)
    return results, cis


def _resampled_pairs(
    D: np.ndarray,
    test: str,
    alternative: str,
    permutations: int,
    seed: int | None,
    ci: str,
    confidence: float,
    executor: Any,
) -> tuple[list[PairedTestResult], list[tuple[float, float]]]:
    """:func:`test_pairs` with the resampling on ``executor``
    (:mod:`cranfield.comparing.resampling_tasks`)."""
    from cranfield.comparing.resampling_tasks import Resampling, resampling_on

    interval = None
    if test in ("randomization", "bootstrap"):
        wanted = confidence if test == "bootstrap" and ci == "bootstrap" else None
        settings = Resampling(test, alternative, permutations, seed, wanted)
        results, interval = resampling_on(executor, D, settings)
    else:
        results = paired_tests(
            D, test, alternative=alternative, permutations=permutations, seed=seed
        )
    if ci != "bootstrap":
        return results, mean_cis(D, confidence)
    if interval is None:
        settings = Resampling("bootstrap", alternative, permutations, seed, confidence)
        _, interval = resampling_on(executor, D, settings)
    assert interval is not None
    return results, [(float(lo), float(hi)) for lo, hi in interval.T]
