"""The data the tests of hostile inputs to the Python API share: qrels and runs as nested
dicts (one value or key replaced at a time), as object-column DataFrames, the entry points
that read them, and the tables of hostile scores, grades and ids with what each message says."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

from cranfield import compare, evaluate, read_qrels, read_run
from cranfield.curves import precision_recall
from cranfield.ties.analysis import tie_ranges

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
