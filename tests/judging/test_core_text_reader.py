"""A plain run file is read by the compiled core (``_core.TextReader``, fed by
``RunJudge.feed_next``: rust/src/text_reader.rs), everything else by ``run_pieces.texts``; the
judged batches are the same whichever reads the text, and a failed read is one clear error."""

from __future__ import annotations

import errno
import gzip
import os
import threading

import numpy as np
import pytest
from test_scale_streaming import qrels_text, run_text

from cranfield import _core
from cranfield.errors import InputError
from cranfield.io.ir_metadata import START
from cranfield.io.source import Stream
from cranfield.io.textcheck import BOM
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec.run_pieces import Fallback, NotGrouped, core_reader
from cranfield.io.trec.text import read_trec_qrels
from cranfield.judging import streamed_run
from cranfield.judging.join import qrels_index
from cranfield.scale.query_ranges import ByteRange

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the core reads files on POSIX only")


def test_a_plain_regular_file_is_read_by_the_core(tmp_path):
    path = tmp_path / "r"
    path.write_bytes(run_text("grouped"))
    reader = core_reader(Stream(path))
    assert reader is not None
    st = os.stat(path)
    assert (reader.device, reader.inode) == (st.st_dev, st.st_ino)


def test_what_the_core_does_not_read(tmp_path):
    text = run_text("grouped")
    (tmp_path / "gz").write_bytes(gzip.compress(text))
    (tmp_path / "meta").write_bytes(START + b"\n# x\n" + text)
    (tmp_path / "bom-meta").write_bytes(BOM + START + b"\n" + text)
    for name in ["gz", "meta", "bom-meta"]:
        assert core_reader(Stream(tmp_path / name)) is None, name
    # a named pipe is not even opened (it can be read once: by texts()), so this returns
    # though no writer ever opens it
    os.mkfifo(tmp_path / "fifo")
    got = []
    looking = threading.Thread(target=lambda: got.append(core_reader(Stream(tmp_path / "fifo"))))
    looking.start()
    looking.join(timeout=30)
    if looking.is_alive():  # it opened the pipe: let it go on, and fail
        os.close(os.open(tmp_path / "fifo", os.O_WRONLY | os.O_NONBLOCK))
        looking.join()
    assert got == [None]
    assert core_reader(Stream(tmp_path / "missing")) is None  # texts() words the error
    assert core_reader(Stream("-")) is None
    assert core_reader(Stream(tmp_path)) is None  # a directory: texts() words the error


def test_another_file_put_at_the_path_is_not_read_by_the_core(tmp_path, monkeypatch):
    """The core opens the path again: when the file there is no longer the one opened (and
    checked) first, the text is read by ``texts``, which opens it afresh."""
    (tmp_path / "r").write_bytes(run_text("grouped"))
    (tmp_path / "other").write_bytes(run_text("ties"))
    real = _core.TextReader

    def replaced_first(path, *args):
        os.replace(tmp_path / "other", path)
        return real(path, *args)

    monkeypatch.setattr(_core, "TextReader", replaced_first)
    assert core_reader(Stream(tmp_path / "r")) is None


def _judged(stream, qrels, *, grouped, rows):
    """What the batches hold, whatever their cut (which follows the pieces'): each query's
    grades, scores and tie groups (numbered from its first), the run's query ids, the last
    tag and line counts, the metadata."""
    queries, run_ids, batches = {}, [], 0
    for b in streamed_run.judged_batches(stream, qrels, "r", grouped=grouped, rows=rows):
        batches += 1
        run_ids += b.run_ids
        r = b.rankings
        for i, q in enumerate([] if r is None else r.query_ids):
            rows_of = slice(r.offsets[i], r.offsets[i + 1])
            ties = r.tie_ids[rows_of]
            queries[q] = (
                r.grades[rows_of].tolist(),
                r.scores[rows_of].tolist(),
                (ties - ties[:1]).tolist(),
            )
    return queries, run_ids, b.tag, b.counts, b.metadata, batches


def _variants():
    for layout in ["grouped", "ties", "messy", "crlf", "tabs", "shuffled"]:
        yield layout, run_text(layout, queries=30)
    text = run_text("messy", queries=30)
    yield "bom", BOM + text
    yield "no final line end", text.rstrip(b"\n")
    yield "blank lines only", b"\n \n\t\n"
    yield "empty", b""


@pytest.mark.parametrize(("layout", "text"), list(_variants()), ids=[v[0] for v in _variants()])
@pytest.mark.parametrize("size", [1, 7, 300, 1 << 20])
def test_the_batches_are_the_same_read_by_the_core_or_by_texts(
    tmp_path, monkeypatch, layout, text, size
):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(text)
    qrels = read_trec_qrels(tmp_path / "q")
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", size)
    assert core_reader(Stream(tmp_path / "r")) is not None
    for grouped in [True, False]:
        got = {}
        for by_core in [True, False]:
            with monkeypatch.context() as m:
                if not by_core:
                    m.setattr(streamed_run, "core_reader", lambda stream: None)
                try:
                    stream = Stream(tmp_path / "r")
                    got[by_core] = _judged(stream, qrels, grouped=grouped, rows=50)
                except (NotGrouped, Fallback) as exc:
                    got[by_core] = (type(exc), str(exc))
        assert got[True] == got[False], (layout, grouped)
        if layout in ("grouped", "ties", "bom") and grouped:
            assert len(got[True][0]) == 10  # every query of the qrels judged
            assert got[True][-1] > 1 or size > len(text)  # in batches, as pieces were read


def test_a_failed_read_is_an_input_error(tmp_path, monkeypatch):
    """A read that fails (here: a directory, which opens but does not read) raises the
    ``OSError`` of its errno from the core, which the reader words as every failed read."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    qrels = read_trec_qrels(tmp_path / "q")
    judge = _core.RunJudge(qrels_index(qrels), None, False)
    reader = _core.TextReader(os.fspath(tmp_path), 100)
    with pytest.raises(IsADirectoryError) as caught:
        judge.feed_next(reader)
    assert caught.value.errno == errno.EISDIR
    assert caught.value.strerror == os.strerror(errno.EISDIR)

    (tmp_path / "r").write_bytes(run_text("grouped"))
    monkeypatch.setattr(
        streamed_run, "core_reader", lambda stream: _core.TextReader(os.fspath(tmp_path), 100)
    )
    with pytest.raises(InputError) as caught:
        list(streamed_run.judged_batches(Stream(tmp_path / "r"), qrels, "r"))
    assert str(caught.value) == f"{tmp_path / 'r'}: cannot read: {os.strerror(errno.EISDIR)}"


def test_a_text_that_has_ended_stays_ended(tmp_path):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(run_text("grouped"))
    qrels = read_trec_qrels(tmp_path / "q")
    judge = _core.RunJudge(qrels_index(qrels), None, False)
    reader = _core.TextReader(os.fspath(tmp_path / "r"), 64)
    fed = 0
    while (got := judge.feed_next(reader)) is True:
        fed += 1
    assert got is False and fed > 5
    assert judge.feed_next(reader) is False
    assert judge.lines == run_text("grouped").count(b"\n")
    batch = judge.take(True).batch()
    assert np.array_equal(np.diff(batch["offsets"]) > 0, np.ones(9, dtype=bool))


def test_a_byte_range_is_read_by_the_core_as_by_its_chunks(tmp_path, monkeypatch):
    """A range of a file (what ``evaluate -j`` gives a worker) is read by the core from its
    first byte to its last; a range that starts with a byte order mark, or that the file no
    longer reaches, is not evaluated alone."""
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    qrels = read_trec_qrels(tmp_path / "q")
    text = run_text("messy", queries=30)
    (tmp_path / "r").write_bytes(text)
    start = text.index(b"\n5 Q0") + 1
    stop = text.index(b"\n20 Q0") + 1
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 300)
    assert ByteRange(tmp_path / "r", start, stop).core_reader() is not None
    got = {}
    for by_core in [True, False]:
        with monkeypatch.context() as m:
            if not by_core:
                m.setattr(ByteRange, "core_reader", lambda self: None)
            got[by_core] = _judged(
                ByteRange(tmp_path / "r", start, stop), qrels, grouped=True, rows=50
            )
    assert got[True] == got[False]
    assert sorted(got[True][0], key=int) == [str(q) for q in range(5, 11)]  # 5-19 run, 1-10 judged
    assert got[True][1] == [str(q) for q in range(5, 20)]

    (tmp_path / "bom").write_bytes(text[:start] + BOM + text[start:])
    assert ByteRange(tmp_path / "bom", start, stop).core_reader() is None
    short = ByteRange(tmp_path / "r", start, len(text) + 10)
    with pytest.raises(InputError, match="shorter than when it was cut"):
        _judged(short, qrels, grouped=True, rows=50)
