"""Whole DataFrame and Arrow columns of an unusable type are refused with one error naming
the column (and the row where a value decides); columns of an odd type that hold good values
(float128, sparse, Decimal, Fraction) are read as their nearest doubles and integers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from _hostile_inputs import TOO_LARGE

from cranfield import read_qrels, read_run
from cranfield.errors import InputError

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")


# ----------------------------------------------------- whole columns of an unusable type

BASE = {"qid": ["q1", "q1", "q2"], "docno": ["d1", "d2", "d1"], "score": [3.0, 2.0, 1.0]}


@pytest.mark.parametrize(
    ("column", "values", "pattern"),
    [
        ("score", np.array([1 + 1j, 2, 3]), "column 'score': scores cannot be complex"),
        ("qid", np.array([1j, 2j, 3j]), "column 'qid': query ids cannot be complex"),
        ("score", [True, False, True], "column 'score': scores must be numbers, not booleans"),
        ("qid", [True, True, False], "query ids must be strings or integers, not booleans"),
        ("qid", [1.0, 1.0, 2.0], "not floating-point numbers .convert them"),
        ("score", pd.date_range("2000", periods=3), "scores must be numbers, not values of type"),
        ("score", pd.to_timedelta([1, 2, 3], unit="s"), "scores must be numbers"),
        ("qid", pd.period_range("2000", periods=3), "query ids must be strings or integers"),
        ("score", [[1], [2], [3]], r"row 0: score \[1\] is not a number \(a list\)"),
        ("score", [{"a": 1}] * 3, "score .*is not a number"),
        ("qid", [b"a", b"a", b"b"], "row 0: query id b'a' is bytes .decode ids to strings"),
        ("score", pd.Series([1.0, np.nan, 2.0]), "row 1: score is NaN"),
        ("score", pd.array([1.0, None, 2.0], dtype="Float64"), "row 1: missing score"),
        ("qid", pd.array(["a", None, "b"], dtype="string"), "row 1: missing query id"),
        ("score", pd.Series([1.0, True, 2.0], dtype=object), "row 1: score True is not a number"),
        ("score", pd.Categorical([1.0, "x", 2.0]), "row 1: score 'x' is not a number"),
        ("qid", pd.Categorical(["a", "b c", "a"]), "row 1: query id 'b c'"),
        ("score", pd.arrays.SparseArray([1.0, np.inf, 0.0]), "row 1: score is infinite"),
    ],
    ids=repr,
)
def test_unusable_pandas_columns(column, values, pattern):
    df = pd.DataFrame(BASE)
    df[column] = values
    with pytest.raises(InputError, match=pattern):
        read_run(df)


def test_float128_complex_and_sparse_columns_that_hold_good_values_are_read():
    df = pd.DataFrame(BASE)
    df["score"] = np.array([3.0, 2.0, 1.0], dtype=np.longdouble)
    assert read_run(df).scores.tolist() == [3.0, 2.0, 1.0]
    df["score"] = pd.arrays.SparseArray([3.0, 0.0, 1.0])
    assert read_run(df).scores.tolist() == [3.0, 0.0, 1.0]
    q = pd.DataFrame({**BASE, "label": np.array([2, 0, 1], dtype=np.longdouble)})
    assert read_qrels(q).to_dict() == {"q1": {"d1": 2, "d2": 0}, "q2": {"d1": 1}}
    q["label"] = pd.arrays.SparseArray([2, 0, 1])
    assert read_qrels(q).to_dict() == {"q1": {"d1": 2, "d2": 0}, "q2": {"d1": 1}}
    q["label"] = pd.Series([Fraction(4, 2), Decimal("0.0"), 1.0], dtype=object)
    assert read_qrels(q).to_dict() == {"q1": {"d1": 2, "d2": 0}, "q2": {"d1": 1}}


def test_float128_values_beyond_a_double_are_named():
    df = pd.DataFrame(BASE)
    df["score"] = np.array([3.0, np.longdouble("1e400"), 1.0], dtype=np.longdouble)
    with pytest.raises(InputError, match=f"row 1: score .* is {TOO_LARGE}"):
        read_run(df)
    q = pd.DataFrame({**BASE, "label": np.array([1, 2.5, 0], dtype=np.longdouble)})
    with pytest.raises(InputError, match="row 1: grade .*2.5.* is not an integer"):
        read_qrels(q)


def test_decimal_scores_are_the_nearest_double():
    """float(Decimal) is correctly rounded; Arrow's decimal cast is not (it is bypassed)."""
    values = [Decimal("0.1000000000000000055511151231257827"), Decimal("7.3e-5"), Decimal(3)]
    for src in (
        {"q": {f"d{i}": v for i, v in enumerate(values)}},
        pd.DataFrame({"qid": "q", "docno": ["d0", "d1", "d2"], "score": values}),
        pa.table({"qid": ["q"] * 3, "docno": ["d0", "d1", "d2"], "score": pa.array(values)}),
    ):
        assert read_run(src).scores.tolist() == [float(v) for v in values]


def test_polars_and_arrow_columns():
    base = pl.DataFrame(BASE)
    bad = base.with_columns(pl.Series("score", [1.0, "x", 2.0], dtype=pl.Object))
    with pytest.raises(InputError, match="row 1: score 'x' is not a number"):
        read_run(bad)
    table = pa.table({**BASE, "qid": pa.array([b"a", b"a", b"b"])})
    with pytest.raises(InputError, match="column 'qid': .* not bytes .decode them to strings"):
        read_run(table)
    lazy = base.lazy().with_columns(pl.col("qid").cast(pl.Int64))  # fails when collected
    with pytest.raises(InputError, match="cannot collect the LazyFrame: .*") as exc:
        read_run(lazy)
    assert "\n" not in str(exc.value)
