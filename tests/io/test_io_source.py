"""Where the bytes come from (cranfield.io.source, cranfield.io.textcheck): compression found
by its magic number, corrupt or truncated data, decompression bombs and endless devices failing
on their first chunk, standard input, and the text checks giving the same answer whatever the
chunk size."""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import lzma
import os
import sys
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield.io.decompress as decompress_mod
import cranfield.io.source as source_mod
import cranfield.io.textcheck as textcheck_mod
from cranfield.errors import InputError, MissingExtraError
from cranfield.io import read_qrels, read_run
from cranfield.io.decompress import sniff
from cranfield.io.source import read_source
from cranfield.io.textcheck import TextCheck

RUN = b"".join(b"q%d Q0 d%d %d %d.5 tag\n" % (i % 5, i, i // 5 + 1, 1000 - i) for i in range(400))
QRELS = b"".join(b"q%d 0 d%d %d\n" % (i % 5, i, i % 3) for i in range(100))


def _zstd(data: bytes) -> bytes:
    """Zstandard-compressed; only the tests that need it skip without the ``zstd`` extra."""
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


COMPRESSORS = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lzma.compress,
    "Zstandard": _zstd,
}


def write(tmp_path, name, content: bytes):
    p = tmp_path / name
    p.write_bytes(content)
    return p


def _rows(run):
    return list(zip(run.qcodes.tolist(), run.docs.to_list(), run.scores.tolist(), strict=True))


# ------------------------------------------------------------------------------ formats


@pytest.mark.parametrize("fmt", COMPRESSORS)
def test_every_format_is_read_by_its_magic_number_not_its_name(tmp_path, fmt):
    plain = read_run(write(tmp_path, "plain.txt", RUN))
    packed = COMPRESSORS[fmt](RUN)
    for name in ("r.txt", f"r.{fmt}"):  # the name says nothing
        r = read_run(write(tmp_path, name, packed), name="plain.txt")
        assert _rows(r) == _rows(plain) and r.tag == "tag"
    q = read_qrels(write(tmp_path, "q", COMPRESSORS[fmt](QRELS)))
    assert q.to_dict() == read_qrels(write(tmp_path, "q.txt", QRELS)).to_dict()


@pytest.mark.parametrize("fmt", COMPRESSORS)
def test_concatenated_streams_and_nul_padding(tmp_path, fmt):
    pack = COMPRESSORS[fmt]
    half = RUN.index(b"\n", len(RUN) // 2) + 1
    joined = pack(RUN[:half]) + b"\0" * 8 + pack(RUN[half:]) + b"\0" * 4
    r = read_run(write(tmp_path, "r", joined), name="r")
    assert len(r) == 400 and r.line_of(399) == 400


@pytest.mark.parametrize("fmt", COMPRESSORS)
@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        ("truncate", "ends early"),
        ("last byte", None),
        ("junk after", "unexpected data after the end of the compressed stream"),
        ("flip middle", None),
    ],
)
def test_corrupt_data_is_one_clear_error(tmp_path, fmt, damage, problem):
    packed = COMPRESSORS[fmt](RUN * 20)
    if damage == "truncate":
        packed = packed[: len(packed) // 2]
    elif damage == "last byte":
        packed = packed[:-1]
    elif damage == "junk after":
        packed = packed + b"junk"
    else:
        mid = bytearray(packed)
        for i in range(len(mid) // 2, len(mid) // 2 + 16):
            mid[i] ^= 0x5A
        packed = bytes(mid)
    p = write(tmp_path, "r.txt", packed)
    with pytest.raises(InputError) as exc:
        read_run(p)
    assert exc.value.source == str(p)
    message = str(exc.value)
    if problem is not None:
        assert f"corrupt {fmt} data" in message and problem in message
    else:  # corrupt data may also decode into bytes that are not text
        assert f"corrupt {fmt} data" in message or exc.value.line is not None


def test_corrupt_gzip_never_lets_zlib_error_escape(tmp_path):
    """Every single-byte change of a small gzip file: a result, or an InputError."""
    packed = gzip.compress(RUN[:300], mtime=0)
    outcomes = set()
    for i in range(len(packed)):
        for flip in (0x01, 0x80, 0xFF):
            damaged = bytearray(packed)
            damaged[i] ^= flip
            p = write(tmp_path, "r.gz", bytes(damaged))
            try:
                read_run(p)
                outcomes.add("read")
            except InputError as exc:
                assert exc.source == str(p)
                outcomes.add("error")
    assert "error" in outcomes


def test_bzip2_magic_needs_its_block_magic(tmp_path):
    """A text file may start with 'BZh9': only the block magic after it means bzip2."""
    r = read_run(write(tmp_path, "r.txt", b"BZh9 Q0 d1 1 1.0 t\n"))
    assert r.query_ids == ("BZh9",)
    assert sniff(bz2.compress(b"x")) == "bzip2" and sniff(bz2.compress(b"")) == "bzip2"
    assert sniff(b"BZh91AY&SY") == "bzip2" and sniff(b"BZh9 Q0") is None


def test_zstandard_without_its_extra(tmp_path, monkeypatch):
    p = write(tmp_path, "r.txt.zst", _zstd(RUN))
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails
    with pytest.raises(MissingExtraError, match=r"cranfield\[zstd\]"):
        read_run(p)


def test_parquet_through_every_compression(tmp_path):
    import pandas as pd

    df = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
    df.to_parquet(tmp_path / "r.parquet")
    raw = (tmp_path / "r.parquet").read_bytes()
    for suffix, pack in zip(("gz", "bz2", "xz", "zst"), COMPRESSORS.values(), strict=True):
        r = read_run(write(tmp_path, f"r.parquet.{suffix}", pack(raw)))
        assert r.to_dict() == {"1": {"a": 2.0, "b": 1.0}}, suffix


def test_not_parquet_fails_on_the_first_bytes(tmp_path):
    with pytest.raises(InputError, match="does not start with 'PAR1'"):
        read_run(write(tmp_path, "r.parquet.gz", gzip.compress(b"\0" * (1 << 20))))
    with pytest.raises(InputError, match="not a readable Parquet file"):
        read_run(write(tmp_path, "r.parquet", b"PA"))


# ------------------------------------------------------------------------ bounded reads


class _Counting(TextCheck):
    fed: ClassVar[list[int]] = []

    def feed(self, chunk: bytes) -> None:
        _Counting.fed.append(len(chunk))
        super().feed(chunk)


@pytest.fixture
def counting(monkeypatch):
    import cranfield.io.trec.text as text_io

    _Counting.fed = []
    monkeypatch.setattr(text_io, "TextCheck", _Counting)
    return _Counting.fed


@pytest.mark.parametrize("fmt", COMPRESSORS)
def test_decompression_bomb_fails_on_its_first_chunk(tmp_path, fmt, counting):
    """64 MiB of zeros, compressed: refused after one chunk (16 MiB) was inflated."""
    bomb = COMPRESSORS[fmt](bytes(64 << 20))
    assert len(bomb) < (2 << 20)
    with pytest.raises(InputError, match="NUL byte") as exc:
        read_run(write(tmp_path, "r.txt", bomb))
    assert exc.value.line == 1
    assert len(counting) == 1 and counting[0] <= 64 << 20


def test_gzip_bomb_after_valid_text_stops_at_its_chunk(tmp_path, counting, monkeypatch):
    monkeypatch.setattr(source_mod, "CHUNK_BYTES", 1 << 16)
    bomb = gzip.compress(RUN + bytes(64 << 20))
    with pytest.raises(InputError, match="NUL byte") as exc:
        read_run(write(tmp_path, "r.gz", bomb))
    assert exc.value.line == 401
    assert sum(counting) <= len(RUN) + (2 << 16)


@pytest.mark.parametrize(("device", "problem"), [("/dev/zero", "NUL byte"), ("/dev/urandom", None)])
def test_endless_devices_fail_on_their_first_chunk(device, problem, counting):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(InputError, match=problem) as exc:
        read_run(device)
    assert exc.value.source == device and exc.value.line is not None
    assert len(counting) == 1


def test_regular_file_garbage_fails_before_the_rest_is_read(tmp_path, counting, monkeypatch):
    monkeypatch.setattr(source_mod, "HEAD_BYTES", 1 << 10)
    monkeypatch.setattr(source_mod, "CHUNK_BYTES", 1 << 12)  # larger files: head first
    p = write(tmp_path, "r.txt", b"\xff" + RUN * 10)
    with pytest.raises(InputError, match="undecodable byte 0xff at column 1"):
        read_run(p)
    assert counting == [1 << 10]


def test_fifo_is_read_as_a_stream(tmp_path):
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as fh:
            fh.write(gzip.compress(RUN))

    t = threading.Thread(target=writer)
    t.start()
    try:
        r = read_run(fifo, name="fifo")
    finally:
        t.join()
    assert len(r) == 400


# ---------------------------------------------------------------------------- stdin


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize("fmt", [None, *COMPRESSORS])
def test_dash_reads_standard_input(monkeypatch, fmt):
    data = RUN if fmt is None else COMPRESSORS[fmt](RUN)
    monkeypatch.setattr(sys, "stdin", _Stdin(data))
    r = read_run("-")
    assert len(r) == 400 and r.name == "stdin" and r.source == "<stdin>"
    monkeypatch.setattr(sys, "stdin", _Stdin(data if fmt is None else COMPRESSORS[fmt](QRELS)))
    if fmt is not None:
        assert read_qrels("-").source == "<stdin>"


def test_stdin_errors_name_stdin_and_a_second_read_is_refused(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin(RUN + b"q1 Q0 dx 1 high t\n"))
    with pytest.raises(InputError, match=r"^<stdin>: line 401: score 'high' is not a number"):
        read_run("-")
    with pytest.raises(InputError, match="only one input can be '-'"):
        read_qrels("-")
    monkeypatch.setattr(sys, "stdin", _Stdin(b""))
    with pytest.raises(InputError, match="^<stdin>: file is empty"):
        read_run("-")
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="standard input is not available"):
        read_run("-")


def test_unreadable_names_and_streams(tmp_path, monkeypatch):
    with pytest.raises(InputError, match="cannot open"):
        read_run("a\0b")
    with pytest.raises(InputError, match="is a directory"):
        read_run(tmp_path)
    closed = _Stdin(b"")
    closed.buffer.close()
    monkeypatch.setattr(sys, "stdin", closed)
    with pytest.raises(InputError, match="^<stdin>: cannot read"):
        read_run("-")


def test_a_file_named_dash_is_reached_by_a_path(tmp_path, monkeypatch):
    write(tmp_path, "-", RUN)
    monkeypatch.chdir(tmp_path)
    assert len(read_run("./-")) == 400


# ----------------------------------------------------------------------- text checks


def _first_problem(data: bytes) -> tuple[int, str] | None:
    """Brute force: the first NUL byte, undecodable byte or inner BOM."""
    found = []
    if b"\0" in data:
        found.append((data.index(b"\0"), "NUL"))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found.append((exc.start, "undecodable"))
    bom = data.find(b"\xef\xbb\xbf", 1)
    if bom >= 0:
        found.append((bom, "byte order mark"))
    return min(found) if found else None


_VALID = [b"a", b" ", b"\n", b"\0", b"\xef\xbb\xbf", "é".encode(), "€".encode(), "𝄞".encode()]
_BROKEN = [b"\xe2", b"\x82", b"\xac", b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]
_PIECES = st.sampled_from(_VALID + _BROKEN)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    data=st.lists(_PIECES, max_size=25).map(b"".join),
    cuts=st.lists(st.integers(0, 60), max_size=6),
)
def test_chunked_check_finds_the_first_problem_whatever_the_cuts(data, cuts):
    expected = _first_problem(data)
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    check = TextCheck("f")
    try:
        for a, b in itertools.pairwise(bounds):
            check.feed(data[a:b])
        check.close()
    except InputError as exc:
        assert expected is not None, exc
        pos, what = expected
        assert what in str(exc)
        assert exc.line == data.count(b"\n", 0, pos) + 1
        if what == "undecodable":
            col = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
            assert f"0x{data[pos]:02x} at column {col}" in str(exc)
        return
    assert expected is None


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_streams_read_in_tiny_chunks_give_the_same_run(monkeypatch, chunk, tmp_path):
    text = "".join(f"q{i % 3} Q0 dé{i}𝄞 {i} {i}.25 t\n" for i in range(50)).encode()
    expected = _rows(read_run(write(tmp_path, "r.txt", text)))
    monkeypatch.setattr(source_mod, "CHUNK_BYTES", chunk)
    monkeypatch.setattr(decompress_mod, "INPUT_BYTES", chunk)
    monkeypatch.setattr(decompress_mod, "ZSTD_PIECE", chunk)
    monkeypatch.setattr(source_mod, "HEAD_BYTES", chunk)
    for pack in (lambda b: b, *COMPRESSORS.values()):
        monkeypatch.setattr(sys, "stdin", _Stdin(pack(text)))
        assert _rows(read_run("-")) == expected
        assert _rows(read_run(write(tmp_path, "r.txt", pack(text)))) == expected
    bad = text.replace("é".encode(), b"\xe9", 1)
    with pytest.raises(InputError, match="line 1: undecodable byte 0xe9 at column 8"):
        read_run(write(tmp_path, "r.txt", gzip.compress(bad)))


def test_read_source_without_check_returns_the_bytes(tmp_path):
    data = bytes(range(256)) * 10
    assert read_source(write(tmp_path, "b", gzip.compress(data))) == data
    assert read_source(write(tmp_path, "b", data)) == data


def test_chunks_unchecked_are_the_bytes_and_read_still_checks(tmp_path):
    """``Stream.chunks(checked=False)`` hands out the bytes as they are (the core's pass
    checks them itself); the same stream's ``read`` still raises the check's error."""
    data = b"1 Q0 d 1 1 t\n" * 1000 + b"2 Q0 \x00 1 1 t\n\xff\n"
    path = write(tmp_path, "r.gz", gzip.compress(data))
    stream = source_mod.Stream(path, lambda: TextCheck(str(path)))
    assert b"".join(stream.chunks(1 << 10, checked=False)) == data
    with pytest.raises(InputError, match="line 1001: NUL byte"):
        b"".join(stream.chunks(1 << 10))
    with pytest.raises(InputError, match="line 1001: NUL byte"):
        stream.read()


def test_bom_only_at_the_very_start(tmp_path, text_parser):
    bom = textcheck_mod.BOM
    r = read_run(write(tmp_path, "r.txt", bom + RUN))
    assert r.query_ids[0] == "q0"
    joined = bom + RUN + bom + RUN.replace(b" tag", b" tag2")
    with pytest.raises(InputError, match="byte order mark inside the file") as exc:
        read_run(write(tmp_path, "r.txt", joined))
    assert exc.value.line == 401


def test_large_and_small_files_agree_on_an_inner_bom(tmp_path, monkeypatch):
    """Arrow strips a BOM at the start of each block it reads: the check runs before it."""
    bom = textcheck_mod.BOM
    lines = [b"q1 Q0 d%d %d 1.0 t\n" % (i, i) for i in range(1, 2000)]
    lines[1000] = bom + lines[1000]
    data = b"".join(lines)
    outcomes = set()
    for parser in ("exact", "fields", "arrow"):
        from conftest import use_text_parser

        use_text_parser(monkeypatch, parser)
        with pytest.raises(InputError) as exc:
            read_run(write(tmp_path, "r.txt", data))
        outcomes.add(str(exc.value))
    assert len(outcomes) == 1 and "line 1001: byte order mark" in outcomes.pop()


def test_no_line_is_lost_in_a_big_stream(tmp_path, monkeypatch):
    monkeypatch.setattr(source_mod, "CHUNK_BYTES", 4096)
    rng = np.random.default_rng(3)
    n = 20_000
    text = b"".join(b"q%d Q0 d%d %d %.6f r\n" % (i % 97, i, i, rng.random()) for i in range(n))
    monkeypatch.setattr(sys, "stdin", _Stdin(lzma.compress(text)))
    r = read_run("-")
    assert len(r) == n and r.line_counts.lines == n


# ------------------------------------------------------------ counting LFs, block by block
@settings(max_examples=300, deadline=None)
@given(
    chunks=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"x", b"\n")), max_size=6),
    block=st.integers(1, 9),
)
def test_lfs_are_counted_in_blocks_as_bytes_count_counts_them(chunks, block):
    """Every chunk (through one scratch kept from chunk to chunk, shorter and longer chunks
    in turn) counts the LFs ``bytes.count`` counts, at any block size."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(textcheck_mod, "_LF_BLOCK", block)
        scratch: list = []
        for chunk in chunks:
            assert textcheck_mod._count_lf(chunk, scratch) == chunk.count(b"\n")


def test_lfs_at_the_edges_of_real_blocks_are_counted_once():
    block = textcheck_mod._LF_BLOCK
    data = bytearray(b"a" * (3 * block + 5))
    for at in (0, block - 1, block, block + 1, 2 * block, 3 * block + 4):
        data[at] = 10
    scratch: list = []
    assert textcheck_mod._count_lf(bytes(data), scratch) == 6
    assert textcheck_mod._count_lf(bytes(data[: block + 1]), scratch) == 3
    assert textcheck_mod._count_lf(b"\n" * (block - 1), scratch) == block - 1
