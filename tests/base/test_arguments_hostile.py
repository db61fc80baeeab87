"""Hostile arguments x the public functions that take them (evaluate, compare, the curves,
the tie analysis, judge, read_run): each one is refused with one ``ParameterError`` (or an
``InputError`` for an input) whose message names the argument and the rule; numpy scalars and
tuples are accepted where Python ints and lists are."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from _hostile_inputs import QRELS, RUN_A, RUN_B, _pid

from cranfield import compare, evaluate, judge, read_qrels, read_run
from cranfield.curves import fallout, gain, precision_recall
from cranfield.errors import InputError, ParameterError
from cranfield.ties.analysis import tie_ranges, weak_curves

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")


# ------------------------------------------------------------------------------- arguments

RUNS = [RUN_A, RUN_B]
CALLS = {
    "evaluate": lambda **kw: evaluate(QRELS, RUNS, ["AP"], **kw),
    "compare": lambda **kw: compare(QRELS, RUNS, ["AP"], **kw),
    "precision_recall": lambda **kw: precision_recall(QRELS, RUNS, **kw),
    "gain": lambda **kw: gain(QRELS, RUNS, **kw),
    "fallout": lambda **kw: fallout(QRELS, RUNS, **{"collection_size": 100, **kw}),
    "tie_ranges": lambda **kw: tie_ranges(QRELS, RUNS, **kw),
    "weak_curves": lambda **kw: weak_curves(QRELS, RUNS, **kw),
}
JUDGING = list(CALLS)
WITH_TIES = ["evaluate", "compare", "precision_recall", "gain", "fallout"]
WITH_SIZE = ["evaluate", "compare", "precision_recall", "fallout", "tie_ranges", "weak_curves"]
WITH_SIDE = ["evaluate", "compare", "tie_ranges", "weak_curves"]
WITH_REL = ["evaluate", "compare", "tie_ranges", "precision_recall", "fallout", "weak_curves"]
CURVES = ["precision_recall", "gain", "fallout"]

HOSTILE_ARGUMENTS = [
    (JUDGING, "depth", "10", "depth must be an integer, got '10'"),
    (JUDGING, "depth", True, "depth must be an integer, got True"),
    (JUDGING, "depth", 2.0, "depth must be an integer, got 2.0"),
    (JUDGING, "depth", -1, "depth must be >= 0, got -1"),
    (JUDGING, "depth", 10**30, "depth must be <= 9,223,372,036,854,775,807"),
    (JUDGING, "depth", 2**63, "depth must be <= 9,223,372,036,854,775,807"),
    (JUDGING, "seed", "x", "seed must be an integer, got 'x'"),
    (JUDGING, "seed", -1, "seed must be >= 0"),
    (JUDGING, "seed", 10**30, "seed must be <="),
    (JUDGING, "seed", 1.5, "seed must be an integer"),
    (JUDGING, "judged_only", "yes", "judged_only must be True or False, got 'yes'"),
    (JUDGING, "judged_only", 1, "judged_only must be True or False, got 1"),
    (JUDGING, "complete", None, "complete must be True or False, got None"),
    (WITH_TIES, "ties", None, "unknown tie policy None; choose one of trec, given"),
    (WITH_TIES, "ties", 5, "unknown tie policy 5"),
    (WITH_TIES, "ties", "TREC", "unknown tie policy 'TREC'"),
    (JUDGING, "names", "ab", "names must be a list of strings, one per run, got 'ab'"),
    (JUDGING, "names", ["a"], "1 names given for 2 runs"),
    (JUDGING, "names", ["a", "a"], "run name 'a' is given twice"),
    (JUDGING, "names", ["a", ""], "run names cannot be empty or blank"),
    (JUDGING, "names", [" ", "b"], "run names cannot be empty or blank"),
    (JUDGING, "names", [1, 2], "run names must be strings, got 1"),
    (JUDGING, "names", ["a\tb", "c"], r"control character U\+0009"),
    (WITH_SIZE, "collection_size", -1, "collection size must be >= 1, got -1"),
    (WITH_SIZE, "collection_size", 0, "collection size must be >= 1, got 0"),
    (WITH_SIZE, "collection_size", 10**30, "collection size must be <= 1,000,000,000,000"),
    (WITH_SIZE, "collection_size", 2.5, "collection size must be an integer, a .qid: n. mapping"),
    (WITH_SIZE, "collection_size", True, "collection size must be an integer"),
    (WITH_SIZE, "collection_size", [100, 100], "collection size must be an integer"),
    (WITH_SIDE, "target", 0, "target must be >= 1"),
    (WITH_SIDE, "target", 10**30, "target must be <="),
    (WITH_SIDE, "known", 5, "known must be qrels: a path, a DataFrame"),
    (WITH_REL, "rel", -1, "rel must be >= 0"),
    (WITH_REL, "rel", "2", "rel must be an integer, got '2'"),
    (WITH_REL, "rel", True, "rel must be an integer, got True"),
    (["evaluate"], "aggregate", 5, "aggregate must be one of mean, gmean, median, micro"),
    (["evaluate"], "aggregate", "foo", "unknown aggregation 'foo' for AP"),
    (["evaluate"], "aggregate", {"nDCG": "mean"}, "aggregate names 'nDCG', which is not one"),
    (["compare"], "alpha", "x", "alpha must be a number, got 'x'"),
    (["compare"], "alpha", None, "alpha must be a number, got None"),
    (["compare"], "alpha", True, "alpha must be a number, got True"),
    (["compare"], "alpha", float("nan"), "alpha must be a finite number"),
    (["compare"], "alpha", 1, "alpha must be between 0 and 1"),
    (["compare"], "alpha", 0.0, "alpha must be between 0 and 1"),
    (["compare"], "permutations", "10", "permutations must be an integer, got '10'"),
    (["compare"], "permutations", 2.5, "permutations must be an integer, got 2.5"),
    (["compare"], "permutations", 0, "permutations must be >= 1"),
    (["compare"], "permutations", 10**30, "permutations must be <= 100,000,000"),
    (["compare"], "test", None, "unknown test None; choose one of t, wilcoxon"),
    (["compare"], "correction", 5, "unknown correction 5; choose one of none"),
    (["compare"], "correction", "holmes", "unknown correction 'holmes'"),
    (["compare"], "baseline", 5, "baseline must be a run name, got 5"),
    (["compare"], "baseline", "nope", "baseline 'nope' is not one of the runs"),
    (["compare"], "sweep", 5, "sweep must be a spec such as 'P@5,10,20'"),
    (["compare"], "sweep", [5], "sweep must be a spec"),
    (["compare"], "ci", 5, "unknown interval 5"),
    (["compare"], "missing", None, "missing must be 'intersect' or 'error'"),
    (["compare"], "alternative", None, "unknown alternative None"),
    (CURVES, "per_query", "no", "per_query must be True or False"),
    (["precision_recall", "fallout"], "rel", "x", "rel must be an integer, got 'x'"),
    (["precision_recall", "fallout"], "rel", -1, "rel must be >= 0"),
    (["precision_recall", "fallout"], "weak", 1, "weak must be True or False"),
    (["precision_recall", "fallout"], "levels", 5.5, "recall levels 5.5: expected 11, 21"),
    (["precision_recall", "fallout"], "levels", [2], "recall level 2 is outside .0, 1."),
    (["precision_recall", "fallout"], "levels", [10**400], "recall level .* is outside"),
    (CURVES, "cutoffs", 5.5, "document cut-offs 5.5: expected 'all', 'standard'"),
    (CURVES, "cutoffs", [0], "document cut-off 0 must be >= 1"),
    (CURVES, "cutoffs", [True], "document cut-off True is not an integer"),
    (CURVES, "cutoffs", [10**30], "document cut-off 1000.* must be <= 1,000,000,000"),
    (["precision_recall"], "best", "yes", "best must be True or False"),
    (["gain"], "base", "x", "base must be a number, got 'x'"),
    (["gain"], "base", float("inf"), "base must be a finite number"),
    (["gain"], "base", 1, "discount base must be > 1"),
    (["gain"], "gains", 5, "gains must be a .grade: gain. mapping, got 5"),
    (["gain"], "gains", {1.5: 1.0}, "a grade of gains must be an integer, got 1.5"),
    (["gain"], "gains", {1: "x"}, "the gain of grade 1 must be a number, got 'x'"),
    (["fallout"], "generality", "x", "generality must be a number, got 'x'"),
    (["fallout"], "generality", 0, "generality must be in .0, 1000."),
    (["weak_curves"], "recall", 5, "recall levels must be a list of numbers, got 5"),
    (["weak_curves"], "recall", [2], "recall levels must be between 0 and 1, got 2.0"),
    (["weak_curves"], "recall", ["x"], "a recall level must be a number, got 'x'"),
    (["weak_curves"], "nd", [0], "an ND value must be >= 1, got 0"),
    (["weak_curves"], "nd", ["x"], "an ND value must be an integer, got 'x'"),
    (["weak_curves"], "rel", "x", "rel must be an integer"),
    (["tie_ranges", "weak_curves"], "ties", "trec", "unknown option 'ties'"),
    (["tie_ranges", "weak_curves"], "bogus", 1, "unknown option 'bogus'; the judging options"),
    (["tie_ranges"], "measures", 5, "measures must be a measure string such as 'AP'"),
    (["tie_ranges"], "measures", [], "no measures given"),
]


@pytest.mark.parametrize(
    ("call", "name", "value", "message"),
    [
        pytest.param(call, name, value, message, id=f"{call}-{name}={_pid(value)}")
        for calls, name, value, message in HOSTILE_ARGUMENTS
        for call in calls
    ],
)
def test_hostile_arguments(call, name, value, message):
    with pytest.raises(ParameterError) as exc:  # anything else fails the test
        CALLS[call](**{name: value})
    assert re.search(message, str(exc.value)), str(exc.value)


@pytest.mark.parametrize(
    ("call", "message", "error"),
    [
        (lambda: evaluate(QRELS, []), "no runs given", ParameterError),
        (lambda: evaluate(QRELS, ()), "no runs given", ParameterError),
        (lambda: evaluate(QRELS, None), "no runs given", ParameterError),
        (lambda: evaluate(None, RUN_A), "no qrels given", ParameterError),
        (lambda: evaluate(QRELS, RUN_A, 5), "measures must be a measure string", ParameterError),
        (lambda: evaluate(QRELS, RUN_A, []), "no measures given", ParameterError),
        (
            lambda: evaluate(QRELS, RUN_A, [5]),
            "measures must be strings such as 'AP', got 5",
            ParameterError,
        ),
        (lambda: evaluate(QRELS, 5), "cannot read a run from a int", InputError),
        (lambda: evaluate({}, RUN_A), "<qrels dict>: no grades .the mapping is empty", InputError),
        (lambda: evaluate({"q": {}}, RUN_A), "every query maps to an empty mapping", InputError),
        (lambda: evaluate(QRELS, {}), "<run dict>: no scores", InputError),
        (
            lambda: evaluate(pd.DataFrame({"qid": [], "docno": [], "label": []}), RUN_A),
            "<DataFrame>: no judgments .the DataFrame has no rows",
            InputError,
        ),
        (
            lambda: compare(QRELS, [RUN_A], ["AP"]),
            "comparing needs at least 2 runs, got 1",
            ParameterError,
        ),
        (
            lambda: compare(QRELS, RUN_A, ["AP"]),
            "comparing needs at least 2 runs, got 1",
            ParameterError,
        ),
        (lambda: compare(QRELS, [], ["AP"]), "no runs given", ParameterError),
        (lambda: compare(None, RUNS, ["AP"]), "no qrels given", ParameterError),
        (lambda: compare(QRELS, RUNS, 5), "measures must be a measure string", ParameterError),
        (lambda: precision_recall(QRELS, []), "no runs given", ParameterError),
        (lambda: precision_recall(None, RUN_A), "no qrels given", ParameterError),
        (lambda: gain(QRELS, []), "no runs given", ParameterError),
        (lambda: tie_ranges(QRELS, []), "no runs given", ParameterError),
        (lambda: tie_ranges(None, RUN_A), "no qrels given", ParameterError),
        (lambda: weak_curves(QRELS, []), "no runs given", ParameterError),
        (lambda: read_run(RUN_A, name=5), "run names must be strings, got 5", ParameterError),
        (lambda: read_run(RUN_A, name="a\nb"), r"U\+000A", ParameterError),
        (lambda: judge(QRELS, read_run(RUN_A)), "judge.. takes a Qrels as qrels", ParameterError),
        (lambda: judge(read_qrels(QRELS), RUN_A), "judge.. takes a Run as run", ParameterError),
        (
            lambda: judge(read_qrels(QRELS), read_run(RUN_A), depth="3"),
            "depth must be an integer",
            ParameterError,
        ),
    ],
)
def test_missing_and_empty_inputs(call, message, error):
    with pytest.raises(error, match=message):
        call()


def test_hostile_collection_size_mappings_and_files(tmp_path):
    for size, message in [
        ({"q1": 10**30, "q2": 10, "q3": 10}, "collection size of query 'q1' must be <="),
        ({"q1": 2.5, "q2": 10, "q3": 10}, "collection size of query 'q1' must be an integer"),
        ({"q2": 10, "q3": 10}, "no collection size for query 'q1'"),
    ]:
        with pytest.raises(InputError, match=message):
            evaluate(QRELS, RUN_A, ["Rnorm"], collection_size=size)
    path = tmp_path / "sizes"
    for text, message in [
        ("q1 99999999999999999999\n", "line 1: collection size of query 'q1' must be <= 1,0"),
        ("q1 " + "9" * 5000 + "\n", "line 1: collection size of query 'q1' must be <= .*'9999"),
    ]:
        path.write_text(text)
        with pytest.raises(InputError, match=message):
            evaluate(QRELS, RUN_A, ["Rnorm"], collection_size=str(path))
    path.write_text("q1 " + "0" * 30 + "12\nq2 12\nq3 12\n")  # leading zeros are fine
    from_file = evaluate(QRELS, RUN_A, ["Rnorm"], collection_size=str(path))
    assert (
        from_file.values.tolist()
        == evaluate(QRELS, RUN_A, ["Rnorm"], collection_size=12).values.tolist()
    )


def test_numpy_integers_and_tuples_are_accepted_arguments():
    plain = evaluate(QRELS, RUNS, ["AP", "P@2"], depth=2, seed=3, ties="random")
    numpy = evaluate(
        QRELS, tuple(RUNS), ["AP", "P@2"], depth=np.int64(2), seed=np.uint8(3), ties="random"
    )
    assert [r.values.tolist() for r in plain] == [r.values.tolist() for r in numpy]
    res = evaluate(QRELS, RUN_A, "AP", judged_only=np.bool_(True), collection_size=np.int32(9))
    assert res.labels == ("AP",)


def test_names_name_every_kind_of_run():
    """names= applies to Run objects too (it was ignored for them)."""
    runs = [read_run(RUN_A, name="x"), RUN_B]
    res = evaluate(QRELS, runs, ["AP"], names=["first", "second"])
    assert [r.run for r in res] == ["first", "second"]
    cmp = compare(QRELS, runs, ["AP"], names=["first", "second"])
    assert cmp.runs == ("first", "second")
    pr = precision_recall(QRELS, runs, names=["first", "second"])
    assert sorted(set(pr["run"])) == ["first", "second"]
