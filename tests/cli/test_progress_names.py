"""Progress names its work (issue 27, item 7): a large run read in pieces counts its lines,
in this process or in worker processes (whose counts the parent shows while it waits), and
the resampling tests of a comparison name the measure and the test.  Recorded from the
bars' own calls (no terminal needed); nothing here changes a result."""

from __future__ import annotations

import warnings

import pytest

import cranfield
import cranfield.io.trec.run_pieces as pieces_mod
import cranfield.io.trec.text as text_io
from cranfield.base import progress
from cranfield.scale import processes as parallel

QRELS = "".join(f"q{q} 0 d{d} {int(d % 3 == 0)}\n" for q in range(40) for d in range(30))


def _run_text(seed: int, per_query: int) -> str:
    return "".join(
        f"q{q} Q0 d{(d * 7 + seed) % (per_query + 5)}x{d} {d + 1} {per_query - d} r{seed}\n"
        for q in range(40)
        for d in range(per_query)
    )


@pytest.fixture
def bars(monkeypatch):
    """Every bar opened, as (description, total, [amounts advanced]), drawing nothing."""
    log: dict[str, list] = {}

    class Recorded(progress.Task):
        def __init__(self, description, total):
            super().__init__(description, total)
            log.setdefault(description, [total, []])

        def advance(self, amount=1):
            log[self.description][1].append(amount)
            super().advance(amount)

    monkeypatch.setattr(progress, "Task", Recorded)
    monkeypatch.setattr(progress, "enabled", lambda: True)
    monkeypatch.setattr(progress, "_show", lambda: None)
    return log


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def test_the_resampling_bars_name_the_measure_and_the_test(bars, tmp_path):
    (tmp_path / "q").write_text(QRELS)
    runs = []
    for k in range(3):
        (tmp_path / f"r{k}").write_text(_run_text(k, 12))
        runs.append(str(tmp_path / f"r{k}"))
    _quiet(cranfield.compare, str(tmp_path / "q"), runs, ["AP", "P@10"],
           test="randomization", permutations=5000)  # fmt: skip
    for label in ("AP", "P@10"):
        total, amounts = bars[f"{label}: randomization test"]
        assert total == sum(amounts) > 0
    assert "randomization test" not in bars  # a bar without its measure (it restarted)
    _quiet(cranfield.compare, str(tmp_path / "q"), runs, ["AP"], test="bootstrap",
           permutations=3000)  # fmt: skip
    assert "AP: bootstrap" in bars


def test_a_run_read_in_pieces_counts_its_lines(bars, tmp_path, monkeypatch):
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)  # read in pieces ...
    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 4096)  # ... of 4 KiB
    (tmp_path / "q").write_text(QRELS)
    text = _run_text(1, 25)
    (tmp_path / "run").write_text(text)
    _quiet(cranfield.evaluate, str(tmp_path / "q"), str(tmp_path / "run"), ["AP"], jobs=1)
    total, amounts = bars[f"lines of {tmp_path / 'run'} read"]
    assert total is None and sum(amounts) == text.count("\n") and len(amounts) >= 5


@pytest.mark.slow
def test_worker_processes_report_the_lines_they_read(bars, tmp_path, monkeypatch):
    """Two runs of 4.7 MB (read in pieces in the workers, whatever their start method) in two
    worker processes: the parent's bar counts every line of both."""
    monkeypatch.setattr(parallel, "POOL_FROM_BYTES", 0)
    monkeypatch.setattr(parallel, "last_start_method", None)
    (tmp_path / "q").write_text(QRELS)
    lines = 0
    runs = []
    for k in range(2):
        text = _run_text(k, 4000)
        assert len(text) >= text_io.PIECES_FROM_BYTES
        (tmp_path / f"big{k}").write_text(text)
        runs.append(str(tmp_path / f"big{k}"))
        lines += text.count("\n")
    _quiet(cranfield.evaluate, str(tmp_path / "q"), runs, ["AP"], jobs=2)
    assert parallel.last_start_method in ("fork", "forkserver")  # the runs went to workers
    _, amounts = bars["lines of runs read in worker processes"]
    assert sum(amounts) == lines
    assert not any(d.startswith("lines of ") and d.endswith(" read") and "big" in d
                   for d in bars)  # the workers drew no bar of their own  # fmt: skip
