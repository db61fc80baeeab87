"""A run evaluated block by block judges every block with the core's index of the qrels,
built once before the blocks; the qrels' vocabulary of document ids (the numpy join's, which
the core replaced) is not built."""

from __future__ import annotations

from cranfield import evaluate, read_qrels
from cranfield.io.trec import run_pieces
from cranfield.io.trec import text as text_io
from cranfield.judging.join import _INDEXES


def test_blocks_use_the_core_index_not_the_vocabulary(tmp_path, monkeypatch):
    (tmp_path / "q").write_text(
        "".join(f"q{q} 0 d{d} {d % 2}\n" for q in range(9) for d in range(5))
    )
    (tmp_path / "r").write_text(
        "".join(f"q{q} Q0 d{d} {d} {20 - d} t\n" for q in range(9) for d in range(12))
    )
    qrels = read_qrels(tmp_path / "q")
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(run_pieces, "PIECE_BYTES", 200)
    streamed = evaluate(qrels, tmp_path / "r", "P@5", jobs=1)
    assert "doc_index" not in qrels.__dict__  # a cached property never computed
    assert qrels in _INDEXES
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
    whole = evaluate(read_qrels(tmp_path / "q"), tmp_path / "r", "P@5", jobs=1)
    assert streamed.to_dict(per_query=True) == whole.to_dict(per_query=True)


def test_the_index_tables_are_made_before_the_blocks(tmp_path):
    """The index of qrels the core read makes its lookup tables at its first lookup (after
    the qrels' text is let go of); the blocks' preparation makes them before the blocks are
    judged, so that worker processes forked then share them instead of each making its own."""
    from cranfield.judging.join import qrels_index
    from cranfield.scale.streaming import _prepare

    (tmp_path / "q").write_text(
        "".join(f"q{q} 0 d{d} {d % 2}\n" for q in range(3) for d in range(4))
    )
    qrels = read_qrels(tmp_path / "q")
    index = qrels_index(qrels)
    assert not index.prepared
    _prepare(qrels)
    assert index.prepared
    again = qrels_index(read_qrels(tmp_path / "q"))
    assert not again.prepared
    index.prepare()  # made once: a second call keeps them
    assert index.prepared
