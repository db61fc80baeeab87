"""The declared ranges of the command's options (``Range``, ``N|FILE`` values and the numbers
in their files, number lists), also as property tests: a value in range or one usage error."""

from __future__ import annotations

import argparse

import pytest
from _cli_trust import (
    call,
    files_fixture,  # noqa: F401 - the fixture 'files'
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.base.limits import MAX_CUTOFF, MAX_DOCUMENTS
from cranfield.cli._args import CountOrFile, NumberList, Range
from cranfield.errors import InputError, ParameterError


def test_range_parses_ascii_integers_and_finite_floats():
    r = Range(int, 0, 17)
    assert [r(t) for t in ("0", "17", "+3", " 5 ", "007")] == [0, 17, 3, 5, 7]
    for bad in ("18", "-1", "1.0", "1e1", "1_0", "٣", "", "0x1", "9" * 5000):
        with pytest.raises(argparse.ArgumentTypeError):
            r(bad)
    f = Range(float, 0, 1, open=True)
    assert f("0.5") == 0.5 and f("1e-300") == 1e-300
    for bad in ("0", "1", "nan", "inf", "-inf", "1e400", "1_0", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            f(bad)
    assert str(Range(int, 1, 10**12)) == "1<=x<=10**12"
    assert str(Range(int, 0, 2**63 - 1)) == "0<=x<=2**63-1"
    assert str(Range(float, 1, open=True)) == "x>1"


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.integers().map(str) | st.floats().map(repr))
def test_every_text_is_a_value_in_range_or_a_usage_error(text):
    for kind in (
        Range(int, 1, MAX_DOCUMENTS),
        Range(float, 0, 1000, open=True),
        NumberList(Range(int, 1, MAX_CUTOFF), words=("all",)),
    ):
        try:
            value = kind(text)
        except argparse.ArgumentTypeError:
            continue
        values = value if isinstance(value, tuple) else (value,)
        rng = getattr(kind, "range", kind)
        assert value == "all" or all(rng.contains(v) for v in values)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_count_or_file_keeps_integers_in_range(n):
    kind = CountOrFile(Range(int, 1, MAX_DOCUMENTS))
    if 1 <= n <= MAX_DOCUMENTS:
        assert kind(str(n)) == n
    else:
        with pytest.raises(argparse.ArgumentTypeError, match="not in the range"):
            kind(str(n))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("9" * 60, "must be <= 1,000,000,000,000"),
        (str(2**63), "must be <= 1,000,000,000,000"),
        (str(MAX_DOCUMENTS + 1), "must be <= 1,000,000,000,000"),
        ("-" + "9" * 5000, "must be >= 1"),
        ("0", "must be >= 1"),
        ("1e400", "is not an integer"),
        ("nan", "is not an integer"),
    ],
)
def test_every_number_of_a_count_file_is_checked_with_its_line(files, tmp_path, value, problem):
    from cranfield import evaluate

    f = tmp_path / "sizes"
    f.write_text(f"# sizes\nq1 100\n\nq2 {value}\nq3 100\n")
    with pytest.raises(InputError) as info:
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=str(f))
    assert info.value.line == 4 and problem in info.value.problem
    with pytest.raises(InputError) as info:  # the same rule for --target files
        evaluate(files["qrels"], files["run"], ["RelativeRecall"], target=str(f))
    assert info.value.line == 4 and problem in info.value.problem


def test_count_file_lines_are_newline_lines(files, tmp_path):
    from cranfield import evaluate

    f = tmp_path / "sizes"
    f.write_bytes(b"q1 100\x0cq2 5\nq2 x\n")  # a form feed is not a line break
    with pytest.raises(InputError) as info:
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=str(f))
    assert info.value.line == 1


def test_library_counts_have_the_same_range(files):
    from cranfield import evaluate

    for size in (MAX_DOCUMENTS + 1, 10**20, 2**63):
        with pytest.raises(ParameterError, match="must be <= 1,000,000,000,000"):
            evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=size)
    with pytest.raises(InputError, match="must be <= 1,000,000,000,000"):
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size={"q1": 10**20})


@pytest.mark.filterwarnings("ignore::cranfield.errors.DataWarning")
def test_collection_size_at_the_maximum_is_exact(files):
    """Rnorm with N = 10**12 against a brute-force Rocchio computation in exact integers."""
    from fractions import Fraction

    from cranfield import evaluate

    N = MAX_DOCUMENTS
    res = evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=N).per_query()
    # q1: relevant d1 (rank 1), d3 (rank 2: tied with d2, docno descending), d7 (not
    # retrieved: rank N); q2: d5 (rank 1), d4 (rank 3: tied with d6, which goes first)
    for q, ranks in (("q1", [1, 2, N]), ("q2", [1, 3])):
        n = len(ranks)
        want = 1 - Fraction(sum(ranks) - n * (n + 1) // 2, n * (N - n))
        assert res.loc[q, "Rnorm"] == pytest.approx(float(want), rel=1e-12)


def test_gain_cutoffs_far_beyond_the_rankings_cost_nothing(files):
    """A cut-off of 10**9 reads the curves where they stop changing (the last rank of the
    longest ranking or qrels list): the values at rank 4 here, every gain being counted."""
    from cranfield.curves import gain

    far = gain(files["qrels"], files["run"], cutoffs=[4, MAX_CUTOFF])
    at = {(c, r): v for c, r, v in zip(far["curve"], far["rank"], far["value"], strict=True)}
    for curve in ("cg", "dcg", "icg", "idcg", "ncg", "ndcg"):
        assert at[curve, MAX_CUTOFF] == at[curve, 4]
    # q1: d1 1, d3 2; q2: d5 1, d4 1; q3 (judged, not in the run): 0
    assert at["cg", 4] == pytest.approx((3 + 2 + 0) / 3)
    with pytest.raises(ParameterError, match="must be <= 1,000,000,000"):
        gain(files["qrels"], files["run"], cutoffs=[MAX_CUTOFF + 1])


def test_option_ranges_are_in_the_help(capsys, monkeypatch):
    code, out, _ = call(["evaluate", "--help"], capsys, monkeypatch)
    assert code == 0
    text = " ".join(out.split())
    for note in ("[1<=x<=10**12]", "[0<=x<=2**64-1]", "[0<=x<=2**63-1]", "0<=x<=17"):
        assert note in text, note
