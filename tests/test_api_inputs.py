"""Hostile inputs to the Python API: every one is refused with cranfield's own error.

Tables of hostile values (scores, grades, ids) x sources (nested dicts, pandas, polars, Arrow)
x entry points (read_qrels / read_run, evaluate, compare, the curves, the tie analysis), and
hostile arguments x the functions that take them.  Each case must raise a ``CranfieldError``
(anything else fails the test) whose message names the problem and the place.  Property tests
build random dicts and DataFrames from hostile values: the result is either a valid
Qrels/Run, equal to what the TREC text reader makes of the same data written as a file (the
accepted values are decided by an oracle written here), or a ``CranfieldError``.
"""

from __future__ import annotations

import math
import re
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield import compare, evaluate, judge, read_qrels, read_run
from cranfield.curves import fallout, gain, precision_recall
from cranfield.errors import CranfieldError, InputError, ParameterError
from cranfield.io import ids as ids_mod
from cranfield.ties.analysis import tie_ranges, weak_curves

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1, "d4": 0}, "q3": {"d5": 1}}
RUN_A = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d1": 1.0, "d4": 2.0}, "q3": {"d5": 1.0}}
RUN_B = {"q1": {"d3": 3.0, "d2": 2.0, "d1": 1.0}, "q2": {"d4": 1.0, "d1": 2.0}, "q3": {"d6": 1.0}}


def _with_value(base: dict, value) -> dict:
    """``base`` with the value of query 'q2', document 'd4' replaced."""
    out = {q: dict(docs) for q, docs in base.items()}
    out["q2"]["d4"] = value
    return out


def _with_key(base: dict, role: str, key) -> dict:
    """``base`` with query 'q2' (role 'query') or its document 'd4' (role 'doc') renamed."""
    out = {}
    for q, docs in base.items():
        if q == "q2" and role == "query":
            out[key] = dict(docs)
        elif q == "q2":
            out[q] = {(key if d == "d4" else d): v for d, v in docs.items()}
        else:
            out[q] = dict(docs)
    return out


def _rows(obj: dict) -> list[tuple]:
    return [(q, d, v) for q, docs in obj.items() for d, v in docs.items()]


def _frame(obj: dict, value_column: str) -> pd.DataFrame:
    """The dict as a DataFrame (row 4 is query 'q2', document 'd4'); object columns, so that
    pandas keeps every hostile value as it is."""
    rows = _rows(obj)
    return pd.DataFrame(
        {
            "qid": pd.Series([r[0] for r in rows], dtype=object),
            "docno": pd.Series([r[1] for r in rows], dtype=object),
            value_column: pd.Series([r[2] for r in rows], dtype=object),
        }
    )


def run_source(form: str, obj: dict):
    return obj if form == "dict" else _frame(obj, "score")


def qrels_source(form: str, obj: dict):
    return obj if form == "dict" else _frame(obj, "label")


RUN_ENTRIES = {
    "read_run": lambda src: read_run(src),
    "evaluate": lambda src: evaluate(QRELS, src, ["AP"]),
    "compare": lambda src: compare(QRELS, [RUN_B, src], ["AP"]),
    "curves": lambda src: precision_recall(QRELS, src),
    "ties": lambda src: tie_ranges(QRELS, src),
}
QRELS_ENTRIES = {
    "read_qrels": lambda src: read_qrels(src),
    "evaluate": lambda src: evaluate(src, RUN_A, ["AP"]),
    "compare": lambda src: compare(src, [RUN_A, RUN_B], ["AP"]),
    "curves": lambda src: precision_recall(src, RUN_A),
    "ties": lambda src: tie_ranges(src, RUN_A),
}

# (value, what the message says); "A|B": the dict says A, an object column B (pandas reads a
# NaN in an object column as missing)
TOO_LARGE = "too large for a 64-bit float"
HOSTILE_SCORES = [
    (10**400, TOO_LARGE),
    (-(10**400), TOO_LARGE),
    (2**1024, TOO_LARGE),
    (2**1024 - 1, TOO_LARGE),  # rounds to 2**1024: no double holds it
    (Fraction(10**400, 3), TOO_LARGE),
    (Decimal("1e400"), TOO_LARGE),
    (Decimal("-1e309"), TOO_LARGE),
    (np.longdouble("1e400"), TOO_LARGE),
    (float("nan"), "score is NaN|missing score"),
    (np.float32("nan"), "score is NaN|missing score"),
    (float("inf"), "score is infinite"),
    (-float("inf"), "score is infinite"),
    (Decimal("NaN"), "score is NaN"),
    (Decimal("sNaN"), "score is NaN"),
    (Decimal("-Infinity"), "score is infinite"),
    (1 + 2j, r"score \(1\+2j\) is not a number \(a complex number\)"),
    (True, "score True is not a number"),
    (np.bool_(False), "score .*False.* is not a number"),
    ("1.5", "score '1.5' is not a number"),
    (b"1", "score b'1' is not a number"),
    (None, "missing score"),
    ([1.0], r"score \[1.0\] is not a number"),
]
OUT_OF_RANGE = "out of range .grades are 64-bit integers"
HOSTILE_GRADES = [
    (10**30, OUT_OF_RANGE),
    (2**63, OUT_OF_RANGE),
    (-(2**63) - 1, OUT_OF_RANGE),
    (np.uint64(2**64 - 1), OUT_OF_RANGE),
    (Fraction(10**400), OUT_OF_RANGE),
    (Decimal("1e999999999"), OUT_OF_RANGE),  # must not build a billion-digit int
    (1e300, OUT_OF_RANGE),
    (2.5, "grade 2.5 is not an integer"),
    (Fraction(5, 2), r"grade Fraction\(5, 2\) is not an integer"),
    (Decimal("2.5"), r"grade Decimal\('2.5'\) is not an integer"),
    (float("nan"), "grade nan is not an integer|missing relevance grade"),
    (float("inf"), "grade inf is not an integer"),
    (Decimal("NaN"), "is not an integer"),
    (Decimal("sNaN"), "is not an integer"),
    (1 + 2j, "is not an integer .a complex number"),
    ("1", "grade '1' is not an integer"),
    (b"1", "grade b'1' is not an integer"),
    (None, "missing relevance grade"),
]
WHY = "ids cannot hold whitespace, control characters or lone surrogates"
HOSTILE_IDS = [
    ("", "empty {what}"),
    ("a\tb", f"contains a tab at position 1; {WHY}"),
    ("a\nb", "contains a newline at position 1"),
    ("a\rb", "contains a carriage return"),
    ("a b", "contains a space"),
    ("\x00", r"control character U\+0000 at position 0"),
    ("a\x0bb", r"U\+000B"),
    ("a\x0cb", r"U\+000C"),
    ("ab\x7f", r"U\+007F at position 2"),
    ("a\x85", r"U\+0085"),
    ("é\x9f", r"U\+009F"),
    ("q\ud800", r"the lone surrogate U\+D800 .not a character: no UTF-8 text holds it. at p"),
    ("\udcff", r"the lone surrogate U\+DCFF"),
    (7.0, "{what} 7.0 is a floating-point number .ids must be strings or integers: write 7"),
    (np.float64(2.5), "is a floating-point number"),
    (None, "missing {what}"),
    (float("nan"), "missing {what}"),
    (b"x", "{what} b'x' is bytes .decode"),
    (True, "{what} True is a boolean"),
    (Decimal(3), r"{what} Decimal\('3'\) is a Decimal"),
    (1j, "is a complex number"),
    (10**5000, "is an integer too long to write as text"),
]


def _pid(value) -> str:
    """A short test id (repr fails on ints beyond Python's digit limit)."""
    try:
        return repr(value)[:24]
    except ValueError:
        return f"int{value.bit_length()}bits"


def _place(form: str, bad_key=None, role: str = "") -> str:
    if form == "frame":
        return "row 3: " if role == "query" else "row 4: "  # q2 starts at row 3
    if role == "query":
        huge = isinstance(bad_key, int) and bad_key.bit_length() > 1000
        return "query " + ("<an integer" if huge else repr(bad_key))
    if role == "doc":
        return "query 'q2', document "
    return "query 'q2', document 'd4': "


def _raises(fn, src, pattern: str, place: str) -> CranfieldError:
    with pytest.raises(CranfieldError) as exc:  # anything else fails the test
        fn(src)
    text = str(exc.value)
    assert re.search(pattern, text), text
    assert place in text, text
    assert "\n" not in text  # one line for the command line
    return exc.value


@pytest.mark.parametrize("entry", RUN_ENTRIES)
@pytest.mark.parametrize("form", ["dict", "frame"])
@pytest.mark.parametrize(("value", "pattern"), HOSTILE_SCORES, ids=_pid)
def test_hostile_scores(entry, form, value, pattern):
    src = run_source(form, _with_value(RUN_A, value))
    err = _raises(RUN_ENTRIES[entry], src, pattern, _place(form))
    assert isinstance(err, InputError)
    assert err.source == ("<run dict>" if form == "dict" else "<DataFrame>")


@pytest.mark.parametrize("entry", QRELS_ENTRIES)
@pytest.mark.parametrize("form", ["dict", "frame"])
@pytest.mark.parametrize(("value", "pattern"), HOSTILE_GRADES, ids=_pid)
def test_hostile_grades(entry, form, value, pattern):
    src = qrels_source(form, _with_value(QRELS, value))
    err = _raises(QRELS_ENTRIES[entry], src, pattern, _place(form))
    assert isinstance(err, InputError)


@pytest.mark.parametrize("role", ["query", "doc"])
@pytest.mark.parametrize("entry", ["read", "evaluate", "compare", "curves", "ties"])
@pytest.mark.parametrize("form", ["dict", "frame"])
@pytest.mark.parametrize(("key", "pattern"), HOSTILE_IDS, ids=_pid)
def test_hostile_ids(role, entry, form, key, pattern):
    what = "query id" if role == "query" else "document id"
    pattern = pattern.format(what=what)
    for kind in ("run", "qrels"):
        if kind == "run":
            src = run_source(form, _with_key(RUN_A, role, key))
            fn = RUN_ENTRIES["read_run" if entry == "read" else entry]
        else:
            src = qrels_source(form, _with_key(QRELS, role, key))
            fn = QRELS_ENTRIES["read_qrels" if entry == "read" else entry]
        err = _raises(fn, src, pattern, _place(form, key, role))
        assert isinstance(err, InputError)


STRING_IDS = [k for k, _ in HOSTILE_IDS if isinstance(k, str)]


@pytest.mark.parametrize("library", ["pandas", "polars", "arrow", "arrow-large", "arrow-view"])
@pytest.mark.parametrize("column", ["qid", "docno"])
@pytest.mark.parametrize("bad", STRING_IDS, ids=repr)
def test_string_columns_are_checked_by_the_id_rule(library, column, bad):
    if re.search("[\ud800-\udfff]", bad):
        return  # no string column can hold a lone surrogate (test_hostile_ids: object columns)
    values = {"qid": ["q1", "q1", "q2", "q2"], "docno": ["d1", "d2", "d1", "d3"]}
    values[column] = [*values[column][:3], bad]
    data = {**values, "score": [4.0, 3.0, 2.0, 1.0]}
    if library == "pandas":
        src = pd.DataFrame(data)
    elif library == "polars":
        src = pl.DataFrame(data)
    else:
        kind = {"arrow": pa.string(), "arrow-large": pa.large_string()}.get(library)
        kind = kind or pa.string_view()
        src = pa.table({**data, column: pa.array(values[column], kind)})
    with pytest.raises(InputError) as exc:
        read_run(src)
    assert "row 3: " in str(exc.value) and f"(column '{column}')" in str(exc.value)
    assert ("empty" if bad == "" else "contains") in str(exc.value)


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


# ------------------------------------------------------------------ accepted non-string ids


def test_integer_ids_are_decimal_text_in_every_source():
    """Today's rule (docs/input.md): integer ids become their decimal text; same data as the
    TREC file with those ids."""
    big = 2**70
    d = {7: {big: 1.5, np.int64(-3): 0.5}, "007": {np.uint64(2**64 - 1): 1.0}}
    run = read_run(d)
    assert run.query_ids == ("7", "007")
    assert run.docs.to_list() == [str(big), "-3", str(2**64 - 1)]
    df = pd.DataFrame({"qid": [7, 7, 7], "docno": pd.Series([1, big, 3], dtype=object)})
    df["score"] = [3.0, 2.0, 1.0]
    assert read_run(df).docs.to_list() == ["1", str(big), "3"]


def test_keys_naming_the_same_id_are_refused_even_without_data():
    with pytest.raises(InputError, match="keys ('1' and 1|1 and '1') both name query '1'"):
        read_run({1: {}, "1": {"a": 1.0}})
    with pytest.raises(InputError, match="query 'a\\\\tb': query id 'a\\\\tb' contains a tab"):
        read_qrels({"a\tb": {}, "q": {"d": 1}})


# ------------------------------------------------------------------ the vectorised id check


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 18])
def test_arrow_id_check_equals_the_rule_on_each_string(monkeypatch, chunk):
    """Brute force (one regex per string) against the chunked byte scan, on sliced arrays and
    with C1 lead bytes at chunk seams."""
    monkeypatch.setattr(ids_mod, "_CHUNK", chunk)
    rng = np.random.default_rng(7)
    alphabet = ["a", "é", "\u00a0", "\u0080", "\u009f", "\u00a0", "\t", " ", "\x7f", "€", "𝄞"]
    bad = re.compile("[\x00-\x20\x7f-\x9f]")
    for _ in range(200):
        n = int(rng.integers(1, 8))
        strings = [
            "".join(rng.choice(alphabet, size=int(rng.integers(0, 4))))
            if rng.random() < 0.3
            else "x" * int(rng.integers(1, 4))
            for _ in range(n)
        ]
        start = int(rng.integers(0, n))
        arr = pa.array(strings).slice(start)
        expected = next(
            (i for i, s in enumerate(strings[start:]) if s == "" or bad.search(s)), None
        )
        assert ids_mod.bad_id_in_arrow(arr) == expected, strings[start:]
        assert ids_mod.bad_id_in_list(strings[start:]) == expected


def test_list_id_check_equals_the_rule_on_every_ascii_character():
    """Pure ASCII lists take the byte check: each of the 128 characters, alone and inside an
    id, at every position of a list, against the rule applied string by string."""
    bad = re.compile("[\x00-\x20\x7f-\x9f]")
    for code in range(128):
        ch = chr(code)
        for strings in (["ab", "c" + ch + "d", "ef"], [ch], ["x", "y", ch], ["", "x"], []):
            expected = next((i for i, s in enumerate(strings) if s == "" or bad.search(s)), None)
            assert ids_mod.bad_id_in_list(strings) == expected, (code, strings)


def test_200000_queries_bad_id_in_the_last_row():
    n = 200_000
    qids = [f"q{i}" for i in range(n)]
    qids[-1] = "q\x1b"
    df = pd.DataFrame({"qid": qids, "docno": "d", "score": 1.0})
    with pytest.raises(InputError, match=rf"row {n - 1}: query id 'q\\x1b' \(column 'qid'\)"):
        read_run(df)
    d = {q: {"d": 1} for q in qids}
    with pytest.raises(InputError, match=r"query 'q\\x1b', document 'd': query id 'q\\x1b'"):
        read_qrels(d)


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
