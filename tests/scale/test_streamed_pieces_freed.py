"""``cranfield trec_eval`` on a run read in pieces judges each query as soon as its block of
lines has ended (the compiled core keeps only the open query and the batch at hand): batches
of judged queries are measured while the run is still being read, so memory is bounded by a
piece and a batch, not by the run, and the output is the whole file's."""

from __future__ import annotations

import io

import pytest

from cranfield.compat.trec_eval import engine
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io
from cranfield.judging import streamed_run

QUERIES = 40


def _files(tmp_path, flags: list[str]) -> tuple[str, list[str], io.BytesIO]:
    """A run of 40 queries of 30 results and its qrels written in ``tmp_path``: the run's
    text, the ``trec_eval`` arguments (``-q``, ``flags``) and the output on the whole file."""
    qrels = "".join(f"q{q} 0 d{q}-{d} {d % 3}\n" for q in range(QUERIES) for d in range(0, 60, 4))
    run = "".join(
        f"q{q} Q0 d{q}-{d} {d + 1} {100 - d}.5 t\n" for q in range(QUERIES) for d in range(30)
    )
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    argv = ["-q", *flags, str(tmp_path / "q"), str(tmp_path / "r")]
    whole = io.BytesIO()
    assert engine.main(argv, out=whole, err=io.StringIO()) == 0
    return run, argv, whole


@pytest.mark.slow
@pytest.mark.parametrize("by_core", [True, False], ids=["read by the core", "read by texts"])
def test_batches_are_measured_while_the_run_is_read(tmp_path, monkeypatch, by_core):
    """A plain file is read by the core (``_fed_by_core``); what it does not read (a
    compressed file, standard input, a pipe) by ``texts``."""
    run, argv, whole = _files(tmp_path, [])

    real_texts, real_fed, real_batch = (
        streamed_run.texts,
        streamed_run._fed_by_core,
        streamed_run._batch,
    )
    read: list[int] = []  # the pieces handed to the core so far (bytes; lines by the core)
    when: list[int] = []  # how many pieces were read when each batch came out

    def texts(*args, **kwargs):
        for piece in real_texts(*args, **kwargs):
            read.append(len(piece))
            yield piece

    def fed_by_core(judge, *args):
        lines = 0
        for stop in real_fed(judge, *args):
            read.append(judge.lines - lines)  # lines, not bytes: the core holds the piece
            lines = judge.lines
            yield stop

    def batch(*args):
        when.append(len(read))
        return real_batch(*args)

    monkeypatch.setattr(streamed_run, "texts", texts)
    monkeypatch.setattr(streamed_run, "_fed_by_core", fed_by_core)
    if not by_core:
        monkeypatch.setattr(streamed_run, "core_reader", lambda stream: None)
    monkeypatch.setattr(streamed_run, "_batch", batch)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 500)  # about 14 lines a piece
    monkeypatch.setattr(streamed_run, "BATCH_ROWS", 60)  # two queries a batch
    out = io.BytesIO()
    assert engine.main(argv, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == whole.getvalue()
    assert len(read) > 50 and sum(read) == (run.count("\n") if by_core else len(run))
    assert len(when) >= QUERIES // 2
    assert when == sorted(when) and when[0] < 10  # the first batch long before the end


def test_the_measures_a_batch_needs_are_computed_together_on_the_next(tmp_path, monkeypatch):
    """After the first batch, each batch's registry measures are computed in one call of the
    core's kernels (one pass over its rows), not one per trec_eval measure; the output is the
    same as the whole file's."""
    from cranfield import _core

    _, argv, whole = _files(tmp_path, ["-m", "all_trec"])

    calls: list[int] = []
    real = _core.kernel_values
    monkeypatch.setattr(_core, "kernel_values", lambda c, *a: calls.append(len(c)) or real(c, *a))
    batches: list[int] = []
    real_batch = streamed_run._batch
    monkeypatch.setattr(streamed_run, "_batch", lambda *a: batches.append(1) or real_batch(*a))
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 500)
    monkeypatch.setattr(streamed_run, "BATCH_ROWS", 60)
    out = io.BytesIO()
    assert engine.main(argv, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == whole.getvalue()
    first = len(calls) - (len(batches) - 1)
    assert len(batches) > 10 and first > 1  # the first batch: one call per trec_eval measure
    assert calls[first:] == [sum(calls[:first])] * (len(batches) - 1)  # then one, all of them
