"""``jobs`` on one large run (issue 25: one run on two cores): the run is cut into query ranges
evaluated by this process's own forked workers (``scale/query_ranges.py``,
``split_locally``), and gives bit for bit what one process gives - values, warnings, the
first error - or, when it cannot be cut (not grouped by query, compressed), is evaluated whole
with the same result."""

from __future__ import annotations

import warnings

import pytest
from test_scale_streaming import qrels_text, run_text

import cranfield.io.trec.text as text_io
import cranfield.scale.processes as processes
import cranfield.scale.query_ranges as query_ranges
from cranfield import evaluate
from cranfield.errors import InputError
from cranfield.results.tables import Results

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*judged queries have no results:cranfield.errors.DataWarning"
)

MEASURES = ["AP", "P@10", "nDCG@10", "RR", "Bpref", "num_ret"]


@pytest.fixture
def pool_for_one_run(monkeypatch):
    """Any run worth a pool; returns the pools started (their worker counts), the cut points
    made and the numbers of ranges asked for."""
    monkeypatch.setattr(processes, "POOL_FROM_BYTES", 0)
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    started: list[int] = []
    real_pool = processes.process_pool
    monkeypatch.setattr(
        processes, "process_pool", lambda n, s: started.append(n) or real_pool(n, s)
    )
    cuts: list[list[int]] = []
    asked: list[int] = []
    real_cut = query_ranges.cut_points
    monkeypatch.setattr(
        query_ranges,
        "cut_points",
        lambda p, n: asked.append(n) or cuts.append(real_cut(p, n)) or cuts[-1],
    )
    return started, cuts, asked


def _evaluate(*args, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = evaluate(*args, **kw)
    return res, [(type(w.message).__name__, str(w.message)) for w in caught]


def _same(a, b) -> None:
    (x, wa), (y, wb) = a, b
    assert isinstance(x, Results) and isinstance(y, Results)
    assert x.run == y.run and x.query_ids == y.query_ids and x.labels == y.labels
    assert x.values.tobytes() == y.values.tobytes()
    assert x.summary == y.summary and x.notes == y.notes
    assert x.aggregate() == y.aggregate()
    assert wa == wb


def _starts_of_queries(data: bytes, cut: int) -> bool:
    """Whether ``cut`` starts a line whose query differs from the data line before it."""
    prev = next(
        line.split()[0]
        for line in reversed(data[:cut].splitlines())
        if line.split() and not line.strip().startswith(b"#")
    )
    return data[cut - 1 : cut] == b"\n" and data[cut:].split()[0] != prev


@pytest.mark.parametrize("layout", ["grouped", "messy", "crlf", "tabs", "ties", "gov2"])
@pytest.mark.parametrize("small_ranges", [False, True])
def test_one_run_on_two_workers_gives_the_one_process_results(
    tmp_path, monkeypatch, pool_for_one_run, layout, small_ranges
):
    started, cuts, asked = pool_for_one_run
    if small_ranges:
        monkeypatch.setattr(query_ranges, "RANGE_BYTES", 700)
    (tmp_path / "q").write_bytes(qrels_text("gov2" if layout == "gov2" else "grouped"))
    run = tmp_path / f"r.{layout}"
    run.write_bytes(run_text(layout, queries=40))
    for kw in ({}, {"complete": True}, {"aggregate": "micro"}):
        one = _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1, **kw)
        _same(one, _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=2, **kw))
    assert started == [2, 2, 2]  # a pool for the one run, each time
    data = run.read_bytes()
    # a multiple of the workers asked for (cut_points may find fewer query starts)
    assert all(n % 2 == 0 for n in asked)
    for made in cuts:
        assert len(made) - 1 > 2 if small_ranges else len(made) - 1 == 2
        assert all(_starts_of_queries(data, c) for c in made[1:-1])


@pytest.mark.parametrize("layout", ["late", "shuffled"])
def test_a_run_not_grouped_by_query_is_evaluated_whole(tmp_path, pool_for_one_run, layout):
    """``late``: the first query again in the last range; ``shuffled``: queries come back
    inside a range.  The parts are thrown away and the run evaluated whole by one worker."""
    started, cuts, _ = pool_for_one_run
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / f"r.{layout}"
    run.write_bytes(run_text(layout, queries=40))
    one = _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1)
    _same(one, _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=2))
    assert started == [2] and len(cuts) == 1 and len(cuts[0]) > 2


@pytest.mark.parametrize(
    "bad",
    [
        b"20 Q0 D1 1 not-a-score t\n",
        b"20 Q0 D\x00 1 1 t\n",
        b"20 Q0 D\xff 1 1 t\n",
        b"# \xef\xbb\xbf\n",
    ],
)
def test_a_bad_line_in_the_second_range_gives_the_one_process_error(
    tmp_path, pool_for_one_run, bad
):
    """A line that does not parse, or text the check rejects (which the core checks in a
    range's pass)."""
    started, cuts, _ = pool_for_one_run
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "r"
    lines = run_text("grouped", queries=200).splitlines(keepends=True)  # beyond the head read
    lines[3 * len(lines) // 4] = bad
    run.write_bytes(b"".join(lines))
    with pytest.raises(InputError) as one:
        evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1)
    with pytest.raises(InputError) as two:
        evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=2)
    assert str(two.value) == str(one.value)
    assert f"line {3 * len(lines) // 4 + 1}:" in str(one.value)
    assert started == [2] and len(cuts) == 1


def test_a_gzip_run_is_not_cut(tmp_path, pool_for_one_run):
    started, cuts, asked = pool_for_one_run  # a pool, and the run done whole by one worker
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "r.gz"
    run.write_bytes(run_text("gzip", queries=40))
    _same(
        _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=1),
        _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=2),
    )
    assert started == [2] and cuts == [] and asked == []


def test_a_small_run_starts_no_pool(tmp_path, monkeypatch):
    """Below POOL_FROM_BYTES one run is done here, by this process."""
    started: list[int] = []
    monkeypatch.setattr(processes, "process_pool", lambda n, s: started.append(n))
    (tmp_path / "q").write_bytes(qrels_text("grouped"))
    run = tmp_path / "r"
    run.write_bytes(run_text("grouped", queries=40))
    _evaluate(str(tmp_path / "q"), str(run), MEASURES, jobs=2)
    assert started == []


def test_workers_for_one_run(monkeypatch):
    """One path is worth ``jobs`` workers only when the work can be split; two paths at most
    two; jobs=1 none."""
    monkeypatch.setattr(processes, "POOL_FROM_BYTES", 0)
    path = __file__  # any file that exists
    assert processes.workers(4, [path], split=True) == 4
    assert processes.workers(4, [path]) == 0
    assert processes.workers(4, [path, path], split=True) == 2
    assert processes.workers(1, [path], split=True) == 0
    assert processes.workers(4, ["-"], split=True) == 0
