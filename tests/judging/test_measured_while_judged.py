"""A run judged as it is read is measured batch by batch while the core judges the next piece
(``judged_batches(measure=...)``, ``RunJudge.feed_next(reader, during)``): each batch's value
is its own, in order, the same whichever reads the text, and what the measure raises is raised
as it is, before the read's own failure."""

from __future__ import annotations

import errno
import os

import numpy as np
import pytest
from test_scale_streaming import qrels_text, run_text

from cranfield import _core
from cranfield.io.source import Stream
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec.text import read_trec_qrels
from cranfield.judging import streamed_run
from cranfield.judging.join import qrels_index

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the core reads files on POSIX only")


def _files(tmp_path, layout="grouped"):
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    (tmp_path / "r").write_bytes(run_text(layout, queries=40))
    return read_trec_qrels(tmp_path / "q"), Stream(tmp_path / "r")


def _value(rankings):
    """An independent summary of one batch's rankings."""
    return (
        tuple(rankings.query_ids),
        rankings.grades.tolist(),
        rankings.scores.tolist(),
        np.diff(rankings.offsets).tolist(),
    )


@pytest.fixture(params=[True, False], ids=["core reader", "texts"])
def by_core(request, monkeypatch):
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 400)
    if not request.param:
        monkeypatch.setattr(streamed_run, "core_reader", lambda stream: None)
    return request.param


def test_each_batch_is_given_its_own_measure_in_order(tmp_path, by_core):
    qrels, stream = _files(tmp_path)
    calls = []

    def measure(rankings):
        calls.append(_value(rankings))
        return len(calls)

    batches = list(streamed_run.judged_batches(stream, qrels, "r", rows=30, measure=measure))
    plain = list(streamed_run.judged_batches(Stream(stream.path), qrels, "r", rows=30))
    assert len(batches) == len(plain) >= 4
    with_rankings = [b for b in batches if b.rankings is not None]
    assert [b.measured for b in with_rankings] == list(range(1, len(calls) + 1))
    assert calls == [_value(b.rankings) for b in with_rankings]
    assert calls == [_value(b.rankings) for b in plain if b.rankings is not None]
    assert all(b.measured is None for b in batches if b.rankings is None)
    assert [b.run_ids for b in batches] == [b.run_ids for b in plain]


def test_the_core_measures_while_it_judges_the_next_piece(tmp_path, by_core, monkeypatch):
    """Measured inside ``feed_next`` (the pass is busy: it cannot even say how many lines it
    read) for a file the core reads; between pieces for the others."""
    qrels, stream = _files(tmp_path)
    judges = []
    real = _core.RunJudge

    def recorded(*args):
        judges.append(real(*args))
        return judges[-1]

    monkeypatch.setattr(_core, "RunJudge", recorded)
    busy = []

    def measure(rankings):
        try:
            _ = judges[0].lines  # raises while the pass is busy
            busy.append(False)
        except RuntimeError as exc:
            assert "borrowed" in str(exc)
            busy.append(True)

    list(streamed_run.judged_batches(stream, qrels, "r", rows=30, measure=measure))
    assert len(busy) >= 4
    if by_core:  # every batch but those taken at the end of the text
        assert busy[:-1] == [True] * (len(busy) - 1), busy
    else:
        assert not any(busy)


@pytest.mark.parametrize("error", [ValueError("a bad value"), OSError(errno.EIO, "no")])
def test_what_the_measure_raises_is_raised_as_it_is(tmp_path, by_core, error):
    """Not worded as a failed read of the run (which a ValueError or an OSError raised while
    the core reads would be)."""
    qrels, stream = _files(tmp_path)

    def measure(rankings):
        raise error

    with pytest.raises(type(error)) as caught:
        list(streamed_run.judged_batches(stream, qrels, "r", rows=30, measure=measure))
    assert caught.value is error


def test_during_is_called_and_its_error_comes_first(tmp_path):
    """``feed_next``'s ``during`` runs with every piece, at the end of the text, and before a
    read that fails; what it raises is what the call raises."""
    qrels, _ = _files(tmp_path)
    calls = []
    judge = _core.RunJudge(qrels_index(qrels), None, False)
    reader = _core.TextReader(os.fspath(tmp_path / "r"), 300)
    fed = 0
    while judge.feed_next(reader, lambda: calls.append(len(calls))) is True:
        fed += 1
    assert fed > 5 and calls == list(range(fed + 1))  # with each piece, and at the end
    assert judge.feed_next(reader, lambda: calls.append("end")) is False
    assert calls[-1] == "end"

    def failing():
        raise ValueError("measured wrong")

    with pytest.raises(ValueError, match="measured wrong"):
        judge.feed_next(_core.TextReader(os.fspath(tmp_path / "r"), 300), failing)
    with pytest.raises(ValueError, match="measured wrong"):
        judge.feed_next(_core.TextReader(os.fspath(tmp_path), 100), failing)
    with pytest.raises(IsADirectoryError):  # the read's own failure, without one
        judge.feed_next(_core.TextReader(os.fspath(tmp_path), 100), lambda: None)
