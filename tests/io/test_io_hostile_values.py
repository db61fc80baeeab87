"""Hostile values to the Python API: every one is refused with cranfield's own error.

Tables of hostile values (scores, grades, ids) x sources (nested dicts, pandas, polars, Arrow)
x entry points (read_qrels / read_run, evaluate, compare, the curves, the tie analysis).  Each
case must raise a ``CranfieldError`` (anything else fails the test) whose message names the
problem and the place."""

from __future__ import annotations

import re

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from _hostile_inputs import (
    HOSTILE_GRADES,
    HOSTILE_IDS,
    HOSTILE_SCORES,
    QRELS,
    QRELS_ENTRIES,
    RUN_A,
    RUN_ENTRIES,
    _pid,
    _with_key,
    _with_value,
    qrels_source,
    run_source,
)

from cranfield import read_run
from cranfield.errors import CranfieldError, InputError

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")


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
