"""The vectorised field splitter (cranfield.io.trec.fields) against plain Python: fields as
``bytes.split`` finds them, scores as ``float`` reads them (bit for bit), ranks and grades as
``int`` reads ``[+-]?[0-9]+``."""

from __future__ import annotations

import math
import re
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.io.trec.fields import split_fields

_INT = re.compile(r"[+-]?[0-9]{1,18}")


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def _column(tokens: list[str], k: int = 2) -> bytes:
    return "\n".join(f"q X {t} tag" if k == 2 else t for t in tokens).encode()


def _float_or_none(tokens: list[str]) -> list[float] | None:
    """What the exact parser accepts: ``float`` of the token's bytes (so ASCII digits only),
    without an underscore."""
    out = []
    for t in tokens:
        if "_" in t:
            return None
        try:
            out.append(float(t.encode()))
        except ValueError:
            return None
    return out


_DIGITS = st.text("0123456789", min_size=0, max_size=22)
_DECIMAL = st.builds(
    lambda sign, a, dot, b: sign + a + dot + b,
    st.sampled_from(["", "", "-", "+"]),
    _DIGITS,
    st.sampled_from(["", ".", "."]),
    _DIGITS,
)
_ODD = st.sampled_from(
    [
        "1e5",
        "-2E-3",
        ".5",
        "5.",
        ".",
        "-",
        "+",
        "",
        "1.2.3",
        "--1",
        "1-",
        "nan",
        "-inf",
        "Infinity",
        "1_0",
        "0x10",
        "1e",
        "e1",
        "١",
        "+-0",
        "-0",
        "-0.0",
        "0",
        "00",
        "9" * 40,
    ]
)
_TOKEN = st.one_of(_DECIMAL, _ODD, st.floats(allow_nan=False).map(repr))


@settings(max_examples=600, deadline=None)
@given(tokens=st.lists(_TOKEN.filter(lambda t: t and " " not in t), min_size=1, max_size=12))
def test_decimals_are_float_bit_for_bit(tokens):
    got = split_fields(_column(tokens)).decimals(2)
    expected = _float_or_none(tokens)
    if expected is None:
        assert got is None
        return
    assert got is not None and len(got) == len(expected)
    for g, e in zip(got.tolist(), expected, strict=True):
        assert _bits(g) == _bits(e) or (math.isnan(g) and math.isnan(e)), (tokens, g, e)


def test_decimals_take_clingers_fast_path_exactly():
    # 15 significant digits with every split point, both signs: one division, correctly
    # rounded, must equal the correctly rounded float() of the text
    rng = np.random.default_rng(3)
    tokens = []
    for _ in range(2000):
        digits = "".join(map(str, rng.integers(0, 10, rng.integers(1, 16))))
        point = int(rng.integers(0, len(digits) + 1))
        tokens.append(rng.choice(["", "-"]) + digits[:point] + "." + digits[point:])
    got = split_fields(_column(tokens)).decimals(2)
    assert [_bits(x) for x in got.tolist()] == [_bits(float(t)) for t in tokens]


@settings(max_examples=400, deadline=None)
@given(tokens=st.lists(_TOKEN.filter(lambda t: t and " " not in t), min_size=1, max_size=12))
def test_integers_are_int_of_signed_digit_strings(tokens):
    got = split_fields(_column(tokens)).integers(2)
    if all(_INT.fullmatch(t) for t in tokens):
        assert got is not None and got.tolist() == [int(t) for t in tokens]
    else:
        assert got is None  # the exact parser then decides (and names the line)


_PIECES = [
    b" ",
    b"\t",
    b"\r",
    b"\n",
    b"\x0b",
    b"\x0c",
    b"a",
    b"bc",
    b"#",
    "é".encode(),
    b"\r\n",
    b"7",
    b"-1.5",
]


@settings(max_examples=600, deadline=None)
@given(data=st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join))
def test_fields_are_the_line_parsers_fields(data):
    """Every data line (not blank, first field not starting with #) with its line number and
    its fields, as ``bytes.split`` finds them."""
    expected = []
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if f and f[0][:1] != b"#":
            expected.append((lineno, f))
    fields = split_fields(data)
    assert fields.lines.tolist() == [n for n, _ in expected]
    assert fields.count.tolist() == [len(f) for _, f in expected]
    for k in range(3):
        rows = [i for i, (_, f) in enumerate(expected) if len(f) > k]
        if len(rows) == len(expected) and expected:
            assert fields.strings(k) == [f[k].decode() for _, f in expected]
    if expected:
        assert fields.last_string(0) == expected[-1][1][0].decode()
        firsts = [f[0] for _, f in expected]
        changed = [True] + [a != b for a, b in zip(firsts[1:], firsts[:-1], strict=True)]
        assert fields.changes(0).tolist() == changed


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(
        st.builds(lambda a, n: a * n, st.sampled_from(["x", "y", "é"]), st.integers(1, 40)),
        min_size=1,
        max_size=10,
    )
)
def test_changes_compare_whole_ids_of_any_length(ids):
    """Ids longer than the matrix width are compared on all their bytes."""
    fields = split_fields("".join(f"{q} Q0 d 1 1 t\n" for q in ids).encode())
    changed = [True] + [a != b for a, b in zip(ids[1:], ids[:-1], strict=True)]
    assert fields.changes(0).tolist() == changed
    blocks = [i for i, c in enumerate(changed) if c]
    assert fields.strings(0, blocks) == [ids[i] for i in blocks]


def test_empty_and_comment_only_texts_have_no_data_lines():
    for data in (b"", b"\n\n", b"# a\n  # b c\n", b" \t\r\n"):
        f = split_fields(data)
        assert len(f) == 0 and f.strings(0) == [] and f.last_string(0) is None
        assert f.decimals(4).size == 0 and f.integers(3).size == 0


@settings(max_examples=300, deadline=None)
@given(
    data=st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join),
    block=st.integers(1, 9),
)
def test_blocks_of_the_whitespace_scan_do_not_change_the_fields(data, block):
    """The scan works block by block (``_BLOCK`` bytes, 64 KiB); a field or a CR LF cut by a
    block's edge is found all the same: every block size gives the line parser's fields."""
    import cranfield.io.trec.fields as fields_module

    expected = [
        (lineno, f)
        for lineno, raw in enumerate(data.split(b"\n"), 1)
        if (f := raw.split()) and f[0][:1] != b"#"
    ]
    saved = fields_module._BLOCK
    fields_module._BLOCK = block
    try:
        got = split_fields(data)
    finally:
        fields_module._BLOCK = saved
    assert got.lines.tolist() == [n for n, _ in expected]
    tokens = [got.line_tokens(int(i), int(c)) for i, c in zip(got.first, got.count, strict=True)]
    assert tokens == [f for _, f in expected]


def test_a_text_of_many_blocks_splits_as_the_line_parser_does():
    """Real sizes: 200,000 lines (several 64 KiB blocks) of mixed widths and separators."""
    rng = np.random.default_rng(7)
    seps = [b" ", b"\t", b"  ", b" \t "]
    lines = []
    for i in range(200_000):
        sep = seps[int(rng.integers(0, 4))]
        doc = b"d" * int(rng.integers(1, 40))
        lines.append(sep.join([b"q%d" % (i // 1000), b"Q0", doc, b"%d" % i, b"1.5", b"t"]))
    data = b"\n".join(lines) + b"\n"
    f = split_fields(data)
    assert f.count.tolist() == [6] * len(lines)
    assert f.strings(2) == [raw.split()[2].decode() for raw in lines]
    assert f.integers(3).tolist() == list(range(len(lines)))
    assert f.starts.dtype == np.int32  # half the memory of positions in int64


@pytest.mark.parametrize("last", ["7", "x" * 31, "x" * 32, "y" * 33, "é" * 20])
@pytest.mark.parametrize("end", ["", "\n", " ", "\r\n"])
def test_the_text_is_read_in_place_at_both_ends(last, end):
    """The text is not copied with padding: tokens at its very start (shorter than the widest
    token of their column) and a token that ends the text without a separator read as the
    line parser reads them, whatever their width."""
    text = f"a 1 {last}\nbb 22 c\n{last} -3 {last}{end}".encode()
    expected = [raw.split() for raw in text.split(b"\n") if raw.split()]
    f = split_fields(text)
    for k in range(3):
        assert f.strings(k) == [line[k].decode() for line in expected]
    assert f.integers(1).tolist() == [1, 22, -3]
    assert f.changes(2).tolist() == [True, True, True]
    assert f.last_string(2) == last
    assert f.nlines == 3
