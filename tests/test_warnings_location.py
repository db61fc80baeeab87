"""Every warning cranfield raises in Python points at the user's line (the first frame
outside the package: ``cranfield.errors.warn``), not at a line of cranfield's own, whatever
path raised it: a run judged whole, read in pieces, in worker processes, a comparison, a
curve, a tie analysis.  Issue 27 found them at ``evaluation.py:213``."""

from __future__ import annotations

import warnings

import pytest

import cranfield
import cranfield.io.trec.run_pieces as pieces_mod
import cranfield.io.trec.text as text_io
from cranfield.curves import precision_recall
from cranfield.errors import CranfieldWarning
from cranfield.ties.analysis import tie_ranges, weak_curves

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 0\nq3 0 d4 1\nq4 0 d1 1\n"  # q2: nothing relevant
RUN = "q1 Q0 d1 1 2.0 a x\nq1 Q0 d2 2 1.0 a\nq2 Q0 d1 1 1.0 a\nq4 Q0 d1 1 1.0 a\nq9 Q0 d1 1 1.0 a\n"
OTHER = {"q1": {"d1": 1.0}, "q2": {"d2": 1.0}}  # no q4
# extra column on line 1; q3 judged without results; q9 results without judgments


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def _caught(call) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    line = call.__code__.co_firstlineno  # the user's line: where the lambda calls cranfield
    found = [w for w in caught if issubclass(w.category, CranfieldWarning)]
    assert found, "no warning raised"
    for w in found:
        assert (w.filename, w.lineno) == (__file__, line), (w.filename, w.lineno, w.message)
    return found


def test_evaluate_whole_in_pieces_and_in_workers(files, monkeypatch):
    q, r = files
    texts = {str(w.message) for w in _caught(lambda: cranfield.evaluate(q, r, ["AP", "R@5"]))}
    assert any("more than 6 columns" in t for t in texts)  # the reader
    assert any("have results but no judgments" in t for t in texts)  # the judging notes
    assert any("is undefined for" in t for t in texts)  # R@5 of q2
    _caught(lambda: cranfield.evaluate(q, [r, r], ["AP"], names=["a", "b"], jobs=2))
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)  # read and judged block by block
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 32)
    _caught(lambda: cranfield.evaluate(q, r, ["AP", "R@5"]))


def test_compare_curves_ties_and_the_query_sets(files):
    q, r = files
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        partial = cranfield.evaluate(q, {"a": r, "b": OTHER}, ["AP"], complete=False)
    texts = {str(w.message) for w in _caught(lambda: cranfield.compare(partial))}
    assert any("not in every run" in t for t in texts)
    texts = {
        str(w.message)
        for w in _caught(lambda: cranfield.evaluate(q, {"a": r, "b": OTHER}, complete=False))
    }
    assert any("different sets of queries" in t for t in texts)
    _caught(lambda: precision_recall(q, r))
    _caught(lambda: tie_ranges(q, r, ["AP"]))


def test_the_aggregation_and_the_weak_curves(files):
    q, r = files
    texts = {
        str(w.message) for w in _caught(lambda: cranfield.evaluate(q, r, "AP", aggregate="micro"))
    }
    assert any("micro averaging is not defined for AP" in t for t in texts)
    texts = {str(w.message) for w in _caught(lambda: weak_curves(q, r, recall=[1.0], nd=[1]))}
    assert any("too few relevant documents" in t for t in texts)
