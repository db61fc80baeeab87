"""Property tests of the Python API's inputs: random dicts and DataFrames built from good and
hostile keys and values give either a valid Qrels/Run, equal to what the TREC text reader
makes of the same data written as a file (the accepted values are decided by an oracle
written here), or a ``CranfieldError``."""

from __future__ import annotations

import math
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield import read_qrels, read_run
from cranfield.errors import CranfieldError

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")


# ------------------------------------------------ properties: valid result or CranfieldError

CONTROL = {chr(c) for c in [*range(0x21), *range(0x7F, 0xA0)]}


def oracle_id(key) -> str | None:
    """The id text of a key or cell, or None when the rules refuse it (written independently
    of the code: docs/input.md)."""
    if isinstance(key, bool | np.bool_):
        return None
    if isinstance(key, int | np.integer):
        text = str(int(key)) if abs(int(key)) < 10**4000 else None
    elif isinstance(key, str):
        text = key
    else:
        return None
    if not text or CONTROL & set(text):
        return None
    return text


def oracle_score(v) -> float | None:
    if isinstance(v, bool | np.bool_):
        return None
    if not isinstance(v, int | float | Fraction | Decimal | np.integer | np.floating):
        return None
    try:
        f = float(v)
    except (OverflowError, ValueError):
        return None
    return f if math.isfinite(f) else None


def oracle_grade(v) -> int | None:
    if isinstance(v, bool | np.bool_):
        return int(v)
    if isinstance(v, int | np.integer):
        n = int(v)
    elif isinstance(v, float | np.floating):
        if not np.isfinite(v) or v != np.floor(v):
            return None
        n = int(v)
    elif isinstance(v, Fraction):
        if v.denominator != 1:
            return None
        n = v.numerator
    elif isinstance(v, Decimal):
        if not v.is_finite() or v != v.to_integral_value() or v.adjusted() > 30:
            return None
        n = int(v)
    else:
        return None
    return n if -(2**63) <= n < 2**63 else None


HUGE = st.one_of(
    st.sampled_from([10**400, -(10**400), 2**63, 2**63 - 1, -(2**63), -(2**63) - 1, 2**64]),
    st.sampled_from([2**1024, 2**1024 - 1]),
    st.builds(lambda: 10**5000),  # built on draw: hypothesis cannot repr it in a strategy
)
ID_TEXT = st.text(
    alphabet=st.sampled_from([*"ab19#_", "é", "\u00a0", "𝄞", "\t", " ", "\x00", "\x85"]),
    max_size=3,
)
GOOD_KEYS = st.one_of(
    st.text(alphabet=st.sampled_from([*"abcxyz0189#_-", "é", "\u00a0", "𝄞"]), min_size=1),
    st.integers(-(2**70), 2**70),
)
HOSTILE_KEYS = st.one_of(
    ID_TEXT,
    HUGE,
    st.floats(allow_nan=True),
    st.sampled_from([None, True, False, b"x", Decimal(2), 1j, np.float64(7.0)]),
)
GOOD_NUMBERS = st.one_of(
    st.integers(-(2**62), 2**62),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -1e308, 5e-324, -0.0, 2.0**62, np.float32(0.1), np.int8(-2)]),
    st.fractions(max_denominator=4),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
)
HOSTILE_NUMBERS = st.one_of(
    HUGE,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2.0**63, 2.5, Fraction(10**400), Fraction(10**400, 7), Decimal("1e400")]),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([Decimal("sNaN"), Decimal("-1e-400"), Decimal("2.00")]),
    st.complex_numbers(max_magnitude=3),
    st.sampled_from([None, True, False, b"1", "1", "", np.float32("nan"), np.longdouble("1e400")]),
)
GOOD_GRADES = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-3, 3).map(float),
    st.integers(-3, 3).map(Fraction),
    st.integers(-3, 3).map(Decimal),
    st.booleans(),
    st.sampled_from([np.int8(-2), np.uint64(7), np.float32(2.0), -0.0, 2.0**62]),
)


def _either(good, hostile, hostile_too: bool):
    return st.one_of(good, hostile) if hostile_too else good


def dicts(good_values) -> st.SearchStrategy:
    """Half the examples draw good keys and values only (mostly valid: checked for equality),
    half mix in hostile ones."""

    def build(h: bool):
        keys = _either(GOOD_KEYS, HOSTILE_KEYS, h)
        inner = st.dictionaries(keys, _either(good_values, HOSTILE_NUMBERS, h), max_size=3)
        return st.dictionaries(keys, inner, max_size=3)

    return st.booleans().flatmap(build)


def rows(good_values) -> st.SearchStrategy:
    def build(h: bool):
        keys = _either(GOOD_KEYS, HOSTILE_KEYS, h)
        return st.lists(st.tuples(keys, keys, _either(good_values, HOSTILE_NUMBERS, h)), max_size=5)

    return st.booleans().flatmap(build)


PROPS = settings(
    derandomize=True,
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _trec_text(rows: list[tuple[str, str, object]], kind: str) -> str:
    if kind == "run":
        return "".join(f"{q} Q0 {d} {i + 1} {s!r} tag\n" for i, (q, d, s) in enumerate(rows))
    return "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows)


def _expected_dict(obj: dict, value_rule) -> list[tuple] | None:
    """The rows the rules accept, or None when some key or value must be refused."""
    rows: list[tuple] = []
    qtexts: set[str] = set()
    for q, docs in obj.items():
        qt = oracle_id(q)
        if qt is None or qt in qtexts:
            return None
        qtexts.add(qt)
        dtexts: set[str] = set()
        for d, v in docs.items():
            dt, value = oracle_id(d), value_rule(v)
            if dt is None or dt in dtexts or value is None:
                return None
            dtexts.add(dt)
            rows.append((qt, dt, value))
    return rows or None


def _same_run(run, rows, tmp_path) -> None:
    """The run holds exactly the expected rows, and so does the TREC file of those rows."""
    assert run.query_ids == tuple(dict.fromkeys(q for q, _, _ in rows))
    assert sorted(zip(run.qcodes.tolist(), run.docs.to_list(), strict=True)) == sorted(
        (run.query_ids.index(q), d) for q, d, _ in rows
    )
    expected = {(q, d): s for q, d, s in rows}
    got = [
        expected[run.query_ids[c], d] for c, d in zip(run.qcodes, run.docs.to_list(), strict=True)
    ]
    assert np.array(got).view(np.uint64).tolist() == run.scores.view(np.uint64).tolist()
    if any(q.startswith("#") for q, _, _ in rows):
        return  # a TREC line starting with '#' is a comment: such query ids cannot be written
    path = tmp_path / "same.run"
    path.write_text(_trec_text(rows, "run"), encoding="utf-8")
    text_run = read_run(str(path))
    assert run.query_ids == text_run.query_ids
    assert run.docs.to_list() == text_run.docs.to_list()
    assert run.scores.view(np.uint64).tolist() == text_run.scores.view(np.uint64).tolist()


def _same_qrels(qrels, rows, tmp_path) -> None:
    expected: dict[str, dict[str, int]] = {}
    for q, d, g in rows:
        expected.setdefault(q, {})[d] = g
    assert qrels.to_dict() == expected
    if any(q.startswith("#") for q, _, _ in rows):
        return
    path = tmp_path / "same.qrels"
    path.write_text(_trec_text(rows, "qrels"), encoding="utf-8")
    assert qrels.to_dict() == read_qrels(str(path)).to_dict()


def _safe(obj) -> str:
    try:
        return repr(obj)
    except ValueError:  # an int beyond Python's digit limit
        return f"<{type(obj).__name__} holding a huge int>"


def _outcome(fn, src):
    try:
        return fn(src), None
    except CranfieldError as exc:
        return None, exc


@PROPS
@given(dicts(GOOD_NUMBERS))
def test_property_run_dicts(tmp_path_factory, obj):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = _expected_dict(obj, oracle_score)
        run, error = _outcome(read_run, obj)
    assert (run is None) == (expected is None), (_safe(obj), error)
    if run is not None:
        _same_run(run, expected, tmp_path_factory.mktemp("p"))


@PROPS
@given(dicts(GOOD_GRADES))
def test_property_qrels_dicts(tmp_path_factory, obj):
    expected = _expected_dict(obj, oracle_grade)
    qrels, error = _outcome(read_qrels, obj)
    assert (qrels is None) == (expected is None), (_safe(obj), error)
    if qrels is not None:
        _same_qrels(qrels, expected, tmp_path_factory.mktemp("p"))


def _expected_rows(rows, value_rule) -> list[tuple] | None:
    out, pairs = [], set()
    for q, d, v in rows:
        qt, dt, value = oracle_id(q), oracle_id(d), value_rule(v)
        if qt is None or dt is None or value is None or (qt, dt) in pairs:
            return None
        pairs.add((qt, dt))
        out.append((qt, dt, value))
    return out or None


def _object_frame(rows, value_column: str) -> pd.DataFrame:
    cols = list(zip(*rows, strict=True)) if rows else [(), (), ()]
    return pd.DataFrame(
        {
            "qid": pd.Series(cols[0], dtype=object),
            "docno": pd.Series(cols[1], dtype=object),
            value_column: pd.Series(cols[2], dtype=object),
        }
    )


@PROPS
@given(rows(GOOD_NUMBERS))
def test_property_run_frames(tmp_path_factory, rows):
    expected = _expected_rows(rows, oracle_score)
    run, error = _outcome(read_run, _object_frame(rows, "score"))
    assert (run is None) == (expected is None), (_safe(rows), error)
    if run is not None:
        _same_run(run, expected, tmp_path_factory.mktemp("p"))


@PROPS
@given(rows(GOOD_GRADES))
def test_property_qrels_frames(tmp_path_factory, rows):
    expected = _expected_rows(rows, oracle_grade)
    qrels, error = _outcome(read_qrels, _object_frame(rows, "label"))
    assert (qrels is None) == (expected is None), (_safe(rows), error)
    if qrels is not None:
        _same_qrels(qrels, expected, tmp_path_factory.mktemp("p"))
