"""``cranfield trec_eval`` on a run read in pieces keeps only the pieces of the block at hand:
a piece whose queries were judged and measured is freed (memory bounded by a block, not by
the run), and the output is the whole file's."""

from __future__ import annotations

import gc
import io
import weakref

import pytest

from cranfield.compat.trec_eval import engine
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io


@pytest.mark.slow
def test_pieces_already_evaluated_are_freed(tmp_path, monkeypatch):
    queries, depth = 40, 30
    qrels = "".join(f"q{q} 0 d{q}-{d} {d % 3}\n" for q in range(queries) for d in range(0, 60, 4))
    run = "".join(
        f"q{q} Q0 d{q}-{d} {d + 1} {100 - d}.5 t\n" for q in range(queries) for d in range(depth)
    )
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    argv = ["-q", str(tmp_path / "q"), str(tmp_path / "r")]
    whole = io.BytesIO()
    assert engine.main(argv, out=whole, err=io.StringIO()) == 0

    real = pieces_mod.pieces
    alive: list[int] = []  # pieces still alive when each piece is handed out
    refs: list[weakref.ref] = []

    def watched(*args, **kwargs):
        for piece in real(*args, **kwargs):
            gc.collect()
            alive.append(sum(r() is not None for r in refs[:-2]))  # all but the last two
            if piece.run is not None:
                refs.append(weakref.ref(piece.run))
            yield piece

    monkeypatch.setattr(pieces_mod, "pieces", watched)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 500)  # about 14 lines a piece
    out = io.BytesIO()
    assert engine.main(argv, out=out, err=io.StringIO()) == 0
    assert out.getvalue() == whole.getvalue()
    assert len(refs) > 50
    assert max(alive) == 0
