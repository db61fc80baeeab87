"""Qrels read by the compiled core keep their document ids as the text's bytes until something
reads ``doc_ids`` (``cranfield.data.tables.TextQrels``): judging a run never makes them, and
when they are made they are the ids of the text, in the order of ``Qrels``."""

from __future__ import annotations

import pickle

import pytest

from cranfield.data.tables import Qrels, TextQrels
from cranfield.errors import InputError
from cranfield.io import read_qrels
from cranfield.io.source import Stream
from cranfield.io.textcheck import TextCheck
from cranfield.judging.streamed_run import judged_batches

TEXT = (
    "10 0 b 1\n"
    "2 0 é 2\n"  # non-ASCII: ids decoded as UTF-8
    "10 0 a 0\n"
    "2 0 z -1\n"
    "2 0 a 1\n"
    "10 0 ab 3\n"
)


def _expected() -> tuple[tuple[str, ...], list[str]]:
    """Queries and documents sorted by bytes, the plain way."""
    rows = [line.split() for line in TEXT.splitlines()]
    rows.sort(key=lambda r: (r[0].encode(), r[2].encode()))
    return tuple(dict.fromkeys(r[0] for r in rows)), [r[2] for r in rows]


def test_document_ids_are_made_when_first_read(tmp_path):
    (tmp_path / "q").write_text(TEXT)
    q = read_qrels(tmp_path / "q")
    assert isinstance(q, TextQrels) and "doc_ids" not in q.__dict__
    assert len(q) == 6 and "doc_ids" not in q.__dict__
    queries, docs = _expected()
    assert q.query_ids == queries
    assert q.doc_ids == docs and "doc_ids" in q.__dict__
    assert q.doc_ids is q.doc_ids  # made once
    assert q.to_dict() == {"10": {"a": 0, "ab": 3, "b": 1}, "2": {"a": 1, "z": -1, "é": 2}}


def test_judging_a_run_does_not_make_them(tmp_path):
    (tmp_path / "q").write_text(TEXT)
    (tmp_path / "r").write_text("2 Q0 a 1 3 t\n2 Q0 é 2 2 t\n10 Q0 ab 1 5 t\n")
    q = read_qrels(tmp_path / "q")
    stream = Stream(tmp_path / "r", lambda: TextCheck("r"))
    (batch,) = list(judged_batches(stream, q, "r"))
    assert batch.rankings is not None
    assert batch.rankings.grades.tolist() == [3, 1, 2]  # queries in qrels order: 10, then 2
    assert "doc_ids" not in q.__dict__


def test_pickled_as_plain_qrels(tmp_path):
    (tmp_path / "q").write_text(TEXT)
    q = read_qrels(tmp_path / "q")
    back = pickle.loads(pickle.dumps(q))
    assert type(back) is Qrels
    assert back.doc_ids == _expected()[1] and back.query_ids == q.query_ids
    assert back.grades.tolist() == q.grades.tolist() and back.lines.tolist() == q.lines.tolist()


@pytest.mark.parametrize("bad", ["d\x7f", "d\x85", "d\x01"])
def test_a_control_character_in_an_id_is_still_named(tmp_path, bad):
    (tmp_path / "q").write_text(TEXT + f"3 0 {bad} 1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"document id .* control character"):
        read_qrels(tmp_path / "q")
