"""Every measure of the registry, not a hand-kept list: a query's value does not depend on which
other queries are evaluated with it.  So a run read in pieces and judged one block of queries
at a time gives the whole file's values bit for bit, and a run cut down to some of its queries
gives those queries the values they have in the whole run.

Grades differ in range from query to query (0-1 in some, 0-3 in others, none relevant in some),
so that a default read off "the highest grade" of the queries at hand (ERR's g_max was one)
changes with the block and fails here.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from cranfield import evaluate
from cranfield.errors import DataWarning, MeasureError
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io
from cranfield.measures import REGISTRY, Measure


def _measures() -> list[str]:
    """Every measure that needs no side input, with its defaults (a cut-off of 5 where one
    is required)."""
    out = []
    for name, d in sorted(REGISTRY.items()):
        if d.needs:
            continue
        for cutoff in (None, 5):
            try:
                m = Measure(name, cutoff=cutoff)
                m.resolve()
            except MeasureError:
                continue
            out.append(str(m))
            break
    return out


MEASURES = _measures()


def _collection(tmp_path, seed: int = 3) -> tuple[str, str]:
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(1, 25):
        top = q % 4  # the query's own grade range: 0..top
        docs = rng.choice(60, size=30, replace=False).tolist()
        for d in docs[:15]:
            qrels.append(f"{q} 0 D{d} {int(rng.integers(0, top + 1))}\n")
        for r, d in enumerate(docs[5:], 1):
            run.append(f"{q} Q0 D{d} {r} {100 - r} t\n")
    (tmp_path / "q").write_text("".join(qrels))
    (tmp_path / "r").write_text("".join(run))
    return str(tmp_path / "q"), str(tmp_path / "r")


def _values(qrels, run, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(qrels, run, MEASURES, **kw)


def test_the_registry_gives_the_measures():
    assert len(MEASURES) > 40 and "ERR" in MEASURES and "P@5" in MEASURES


@pytest.mark.parametrize("piece", [40, 300])
def test_blocks_of_queries_give_the_whole_files_values(tmp_path, monkeypatch, piece):
    qrels, run = _collection(tmp_path)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
    whole = _values(qrels, run)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", piece)
    blocks = _values(qrels, run)
    assert whole.query_ids == blocks.query_ids
    for j, label in enumerate(whole.labels):
        assert whole.values[:, j].tobytes() == blocks.values[:, j].tobytes(), label


def test_a_query_keeps_its_value_whatever_queries_come_with_it(tmp_path):
    qrels, run = _collection(tmp_path)
    whole = _values(qrels, run, complete=False)
    lines = Path(run).read_text().splitlines(keepends=True)
    for keep in ({"1", "5"}, {"3"}, {"2", "4", "8"}):
        part = tmp_path / "part"
        part.write_text("".join(line for line in lines if line.split()[0] in keep))
        some = _values(qrels, str(part), complete=False)
        rows = [whole.query_ids.index(q) for q in some.query_ids]
        for j, label in enumerate(whole.labels):
            if label in ("NumQ",):  # a count over the evaluated queries, by definition
                continue
            assert whole.values[rows, j].tobytes() == some.values[:, j].tobytes(), (label, keep)


def test_err_takes_g_max_from_the_whole_qrels(tmp_path):
    """Chapelle et al. 2009, eq. 4: R = (2^g - 1) / 2^g_max.  Query 1's only document has grade
    1 and is ranked first; the qrels' top grade is 3 (query 2's), so ERR = (2 - 1) / 8 = 0.125,
    whether or not query 2 is in the run."""
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 3\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 t\n")
    with pytest.warns(DataWarning, match="1 judged queries have no results"):
        res = evaluate(str(tmp_path / "q"), str(tmp_path / "r"), ["ERR"], complete=False)
    assert res.values[:, 0].tolist() == [0.125]
