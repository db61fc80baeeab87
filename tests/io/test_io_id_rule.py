"""The id rule on the Python API: integer ids are their decimal text in every source, two
keys naming the same id are refused, and the vectorised id check (Arrow arrays, lists) equals
the rule applied string by string."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from cranfield import read_qrels, read_run
from cranfield.errors import InputError
from cranfield.io import ids as ids_mod

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")


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
