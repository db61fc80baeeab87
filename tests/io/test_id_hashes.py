"""The 64-bit id hashes (``cranfield.base.id_hashes``) against a plain-Python reading of the formula
in the module's docstring, on every Arrow string layout, and the large-run path without polars."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.base.arrow import strings_arrow
from cranfield.base.id_hashes import CHUNK, hash_arrow, hash_spans, hash_strings

M64 = (1 << 64) - 1
K = 0x9E3779B97F4A7C15


def fmix64(h: int) -> int:
    h ^= h >> 33
    h = h * 0xFF51AFD7ED558CCD & M64
    h ^= h >> 33
    h = h * 0xC4CEB9FE1A85EC53 & M64
    return h ^ (h >> 33)


def reference(s: bytes) -> int:
    """The docstring's formula with Python integers, one string at a time."""
    total = len(s) * K
    for j, at in enumerate(range(0, len(s), 8), start=1):
        word = s[at : at + 8]
        w = int.from_bytes(word.rjust(8, b"\0"), "little")  # zero bytes put before a short one
        total += fmix64(w ^ (j * K & M64))
    h = fmix64(total & M64)
    return h - (1 << 64) if h >> 63 else h  # as int64


def expected(values: list[str | None]) -> list[int]:
    return [reference(b"" if v is None else v.encode("utf-8")) for v in values]


IDS = st.lists(st.text(max_size=40), max_size=60)


@settings(max_examples=300, deadline=None)
@given(IDS)
def test_string_arrays_hash_as_the_formula_says(values):
    assert hash_arrow(strings_arrow(values)).tolist() == expected(values)


@settings(max_examples=150, deadline=None)
@given(IDS, st.data())
def test_every_layout_and_slice_hashes_alike(values, data):
    want = expected(values)
    for typ in (pa.string(), pa.large_string(), pa.string_view(), pa.binary()):
        arr = pa.array(values, type=typ)
        assert hash_arrow(arr).tolist() == want, typ
        lo = data.draw(st.integers(0, len(values)))
        hi = data.draw(st.integers(lo, len(values)))
        assert hash_arrow(arr.slice(lo, hi - lo)).tolist() == want[lo:hi], typ
    cut = data.draw(st.integers(0, len(values)))
    chunked = pa.chunked_array([values[:cut], values[cut:]], type=pa.string())
    assert hash_arrow(chunked).tolist() == want


def test_nulls_hash_as_the_empty_string():
    arr = pa.array(["abcdefghij", None, "x", None], type=pa.string())
    assert hash_arrow(arr).tolist() == expected(["abcdefghij", "", "x", ""])
    # Arrow lets a null's offsets span bytes ("junk" here): they are not part of any string
    valid = pa.py_buffer(np.packbits([1, 0, 1], bitorder="little").tobytes())
    offsets = pa.py_buffer(np.array([0, 3, 7, 8], dtype=np.int32).tobytes())
    arr = pa.Array.from_buffers(pa.string(), 3, [valid, offsets, pa.py_buffer(b"abcjunkx")])
    assert arr.to_pylist() == ["abc", None, "x"]
    assert hash_arrow(arr).tolist() == expected(["abc", "", "x"])


@pytest.mark.parametrize("k", range(17))
def test_empty_ids_where_the_bytes_end(k):
    """An empty id starts at the end of the data buffer: its word is read past the end."""
    for values in (["a" * k, ""], [*("b" * i for i in range(k)), "", ""], [""] * (k + 1)):
        assert hash_arrow(strings_arrow(values)).tolist() == expected(values)


def test_the_bytes_between_offsets_are_hashed():
    blob = b"GX000-00-0000000 \x00\x00a\xff"
    offsets = np.array([0, 16, 17, 17, 19, 21], dtype=np.int64)
    want = [reference(blob[a:b]) for a, b in itertools.pairwise(offsets)]
    buffers = [None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(blob)]  # not checked as UTF-8
    arr = pa.Array.from_buffers(pa.large_string(), len(offsets) - 1, buffers)
    assert hash_arrow(arr).tolist() == want


def test_long_ids_among_short_ones_across_chunks():
    values = [f"d{i}" for i in range(3 * CHUNK + 5)]
    values[CHUNK + 7] = "x" * 1_000_003  # 125,001 words: a chunk of its own
    values[CHUNK + 9] = "y" * (8 * CHUNK - 5)  # just under a chunk of words
    for i in range(2 * CHUNK, 2 * CHUNK + 300):
        values[i] = f"https://example.org/{i}/" + "p" * (i % 997)  # URLs as ids
    values[-1] = "tail-" * 9
    got = hash_arrow(strings_arrow(values))
    for lo, hi in ((0, 5), (CHUNK - 3, CHUNK + 12), (2 * CHUNK - 2, 2 * CHUNK + 302)):
        assert got[lo:hi].tolist() == expected(values[lo:hi]), (lo, hi)
    assert got[-3:].tolist() == expected(values[-3:])


@pytest.mark.parametrize("longest", [8, 9, 64, 65, 200])
def test_both_passes_agree_with_the_formula_at_every_length(longest):
    """Ids of at most 64 bytes are hashed a word position at a time, longer ones all words at
    once: at the boundary, with empty ids among them, both give the formula's value."""
    values = ["é" * (n // 2) + "z" * (n % 2) for n in range(longest + 1)] + [""]  # n bytes
    values = values[::-1] + values
    assert hash_arrow(strings_arrow(values)).tolist() == expected(values)


def test_strings_that_differ_in_one_byte_or_a_trailing_nul_differ():
    base = "GX711-55-2398017"
    values = [base, base[:-1], base + "\0", "\0" + base, "", "\0", "\0\0"]
    values += [base[:i] + chr(ord(base[i]) ^ 1) + base[i + 1 :] for i in range(len(base))]
    h = hash_arrow(strings_arrow(values)).tolist()
    assert len(set(h)) == len(values)


@pytest.mark.parametrize(
    "make",
    [
        lambda i: str(i * 7919 % 8_841_823),  # MS MARCO passage ids
        lambda i: f"GX{i % 273:03d}-{i // 273 % 100:02d}-{i * 31 % 10_000_000:07d}",  # GOV2
        lambda i: f"clueweb12-{i % 1000:04d}wb-{i // 1000 % 100:02d}-{i % 99_991:05d}",
        lambda i: f"{i % 550:08d}{i // 550:08d}",  # word-aligned pairs: sums must not cancel
    ],
)
def test_no_collisions_among_300000_distinct_realistic_ids(make):
    values = list(dict.fromkeys(make(i) for i in range(300_000)))
    h = hash_arrow(strings_arrow(values))
    # 300,000 uniform 64-bit values collide with probability about 2.4e-9
    assert len(np.unique(h)) == len(values)
    low = np.unique(h.view(np.uint64) & np.uint64((1 << 20) - 1))  # low bits spread too
    assert len(low) > 0.99 * (1 - np.exp(-len(values) / 2**20)) * 2**20


def test_a_large_trec_run_is_read_and_judged_without_polars(tmp_path):
    qrels = tmp_path / "qrels"
    run = tmp_path / "run"
    qrels.write_text("".join(f"{q} 0 d{q}-{d} {d % 3}\n" for q in range(5) for d in range(9)))
    run.write_text(
        "".join(f"{q} Q0 d{q}-{d} {d + 1} {100 - d} t\n" for q in range(5) for d in range(20))
    )
    code = f"""
import sys
import cranfield.io.trec.core as trec_core
trec_core.ARROW_IDS_ROWS = 0
from cranfield import evaluate, read_qrels, read_run
run = read_run({str(run)!r})
assert run.docs.is_arrow
r = evaluate(read_qrels({str(qrels)!r}), run, ["AP", "P@10"])
print("pyarrow" in sys.modules, "polars" in sys.modules)
print(r.values.mean(axis=0).round(12).tolist())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported, means = out.stdout.splitlines()
    assert imported == "True False"  # Arrow read the run, polars was never imported
    # each query: d0..d8 judged with grades d % 3 (6 relevant: d = 1,2,4,5,7,8) ranked 1..9
    ap = sum((k + 1) / r for k, r in enumerate([2, 3, 5, 6, 8, 9])) / 6
    assert json.loads(means) == pytest.approx([ap, 0.6], abs=1e-12)


# ------------------------------------------------ Python strings and spans of a text
@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=90), max_size=60))
def test_python_strings_hash_as_the_formula_says(values):
    """``hash_strings`` (the strings joined by LF, encoded once) gives the formula's hashes,
    LFs inside the strings, long ones (several words) and empty ones included."""
    assert hash_strings(values).tolist() == expected(values)


def test_a_lone_surrogate_hashes_as_its_three_bytes():
    values = ["a\ud800", "\udfff", "b"]
    want = [reference(v.encode("utf-8", "surrogatepass")) for v in values]
    assert hash_strings(values).tolist() == want
    assert hash_strings(["x\ny", "\n", ""]).tolist() == expected(["x\ny", "\n", ""])


_TOKEN = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), max_size=70)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKEN.filter(bool), max_size=40), st.lists(st.sampled_from([" ", "\t", "\n"])))
def test_spans_of_a_text_hash_as_the_strings_they_hold(tokens, seps):
    """``hash_spans`` reads the tokens in place, whatever follows each (the next token, a
    separator, the end of the text), and ``Fields.hashes`` gives the hashes of the strings
    ``Fields.strings`` gives."""
    from cranfield.io.trec.fields import split_fields

    parts, starts, lengths, at = [], [], [], 0
    for i, t in enumerate(tokens):
        b = t.encode()
        sep = (seps[i % len(seps)] if seps else " ").encode()
        starts.append(at)
        lengths.append(len(b))
        parts += [b, sep]
        at += len(b) + len(sep)
    data = np.frombuffer(b"".join(parts), dtype=np.uint8)
    got = hash_spans(data, np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int32))
    assert got.tolist() == expected(tokens)
    lines = [" ".join(tokens[i : i + 3]) for i in range(0, len(tokens) - 2, 3)]
    f = split_fields("\n".join(lines).encode())
    for k in range(3 if lines else 0):
        assert f.hashes(k).tolist() == expected(f.strings(k))


def test_spans_across_chunks_and_of_long_ids():
    tokens = [f"d{i}" for i in range(CHUNK + 5)] + ["u" * 300, "", "v" * 65]
    text = "\n".join(tokens).encode()
    lengths = np.array([len(t) for t in tokens], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths[:-1] + 1)))
    data = np.frombuffer(text, dtype=np.uint8)
    assert hash_spans(data, starts, lengths).tolist() == expected(tokens)
    assert hash_strings(tokens).tolist() == expected(tokens)
