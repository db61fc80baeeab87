"""Results in Python and notebooks: short reprs (no query id, bounded size), tidy DataFrames
(``to_frame``) and HTML fragments (``to_html``, ``_repr_html_``); and the progress bars."""

from __future__ import annotations

import io
import json
import math
import warnings

import numpy as np
import pytest

import cranfield
from _report_pages import parse_page
from cranfield import examples
from cranfield.base import progress
from cranfield.errors import ParameterError

QRELS = str(examples.qrels())
RUNS = {n: str(examples.runs()[n]) for n in ("bm25", "good", "boolean")}


@pytest.fixture(scope="module")
def evaluated():
    return cranfield.evaluate(QRELS, RUNS, ["AP", "P@10", "NumRet"], complete=True)


def _many(queries: int, runs: int, measures: int):
    """Evaluated results of many runs on many queries (values drawn at random)."""
    rng = np.random.default_rng(5)
    qrels = {
        f"query-{q:05d}": {f"d{d}": int(rng.random() < 0.5) for d in range(4)}
        for q in range(queries)
    }
    run = {
        f"system-{k:02d}": {q: {f"d{d}": float(rng.random()) for d in range(4)} for q in qrels}
        for k in range(runs)
    }
    labels = [f"P@{k}" for k in range(1, measures + 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(qrels, run, labels)


def test_reprs_are_short_and_show_the_means(evaluated):
    r = evaluated["good"]
    pq = r.per_query()
    means = {label: math.fsum(pq[label]) / len(pq) for label in ("AP", "P@10")}
    text = repr(r)
    assert text == (
        f"<Results 'good': 50 queries x 3 measures; AP {means['AP']:.4f}, "
        f"P@10 {means['P@10']:.4f}, NumRet {int(pq['NumRet'].sum())}>"
    )
    text = repr(evaluated)
    assert text.startswith("<ResultsSet: 3 runs x 3 measures, 50 queries\n")
    assert f"{means['AP']:.4f}" in text and text.count("\n") == 4


def test_reprs_stay_short_with_many_queries_runs_and_measures():
    rs = _many(2000, 14, 11)
    text = repr(rs)
    assert len(text) < 1500 and "query-" not in text
    assert "14 runs x 11 measures, 2000 queries (+3 more measures)" in text
    assert "... 4 more runs>" in text
    assert len(repr(rs[0])) < 300 and "query-" not in repr(rs[0])
    c = cranfield.compare(rs, ["P@1", "P@2"])
    text = repr(c)
    assert len(text) < 1500 and "query-" not in text and "... 4 more runs" in text


def test_comparison_repr_frames_and_html_agree_with_its_json(evaluated):
    c = cranfield.compare(evaluated, ["AP", "P@10"], baseline="bm25")
    want = json.loads(c.table("json"))
    text = repr(c)
    assert "3 runs x 2 measures, 50 queries; paired Student's t-test, correction none" in text
    assert f"{want['measures']['AP']['means']['good']:.4f}" in text
    pairs = c.to_frame()
    assert len(pairs) == 4 and list(pairs.columns[:3]) == ["measure", "a", "b"]
    for row, p in zip(
        pairs.itertuples(),
        [*want["measures"]["AP"]["pairs"], *want["measures"]["P@10"]["pairs"]],
        strict=True,
    ):
        assert (row.a, row.b, row.wins, row.losses) == (p["a"], p["b"], p["wins"], p["losses"])
        assert row.p_value == pytest.approx(p["p_value"], rel=0, abs=0)
    means = c.to_frame("means")
    assert list(means.columns) == ["measure", "run", "mean", "queries", "better_than"]
    assert means.set_index(["measure", "run"])["mean"].to_dict() == {
        (m, r): v for m, d in want["measures"].items() for r, v in d["means"].items()
    }
    with pytest.raises(ParameterError, match="pairs, means"):
        c.to_frame("nope")
    html = c._repr_html_()
    tables = parse_page(html).tables
    summary = tables[0][1]
    assert summary[0][1:] == ["run", "AP ↑", "P@10 ↑"]
    assert [r[1] for r in summary[1:]] == ["bm25", "good", "boolean"]
    assert summary[2][2] == f"{want['measures']['AP']['means']['good']:.4f}▲"  # beats bm25
    assert "<script" not in html


def test_results_frames_and_html(evaluated):
    frame = evaluated.to_frame()
    assert list(frame.columns) == ["run", "measure", "aggregation", "value", "queries"]
    assert len(frame) == 9
    as_dict = evaluated.to_dict()
    for row in frame.itertuples():
        run = next(r for r in as_dict["runs"] if r["name"] == row.run)
        assert row.value == run["aggregate"][row.measure]
        assert row.aggregation == run["aggregation"][row.measure]
    one = evaluated["bm25"].to_frame()
    assert one["run"].tolist() == ["bm25"] * 3
    rows = parse_page(evaluated._repr_html_()).tables[0][1]
    assert rows[0] == ["run", "queries", "AP", "P@10", "NumRet"]
    ap = as_dict["runs"][1]["aggregate"]["AP"]
    assert rows[2][:3] == ["good", "50", f"{ap:.4f}"]
    assert rows[2][4] == str(as_dict["runs"][1]["aggregate"]["NumRet"])


def test_names_in_fragments_are_escaped():
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    runs = {
        "<img src=x onerror=alert(1)>": {"q1": {"d1": 1.0}, "q2": {"d1": 1.0}},
        "b": {"q1": {"d2": 1.0}, "q2": {"d2": 1.0}},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rs = cranfield.evaluate(qrels, runs, ["P@1"])
        c = cranfield.compare(rs, ["P@1"])
    for html in (rs.to_html(), c.to_html(), rs[0].to_html()):
        assert "<img" not in html and "&lt;img src=x" in html


# ------------------------------------------------------------------------------ progress
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):
    """Standard error as a terminal (a text buffer that says it is one) and no delay; the
    stream is replaced in the test itself, since pytest sets its own for the test call."""
    out = _Terminal()
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.delenv("CRANFIELD_PROGRESS", raising=False)
    progress.set_enabled(None)

    def use() -> _Terminal:
        monkeypatch.setattr("sys.stderr", out)
        return out

    yield use
    progress.set_enabled(None)


def _work(n: int = 3) -> list[int]:
    import time

    out = []
    for i in progress.track(list(range(n)), "runs [bold]x[/bold]\x1b"):
        time.sleep(0.02)
        out.append(i)
    return out


def test_progress_draws_on_a_terminal_and_leaves_results_alone(terminal):
    terminal = terminal()
    assert _work() == [0, 1, 2]
    text = terminal.getvalue()
    assert "runs [bold]x[/bold]\\x1b" in text  # names are shown as text, not markup
    assert "/3" in text  # done / total
    assert text.endswith("\x1b[?25h\r")  # erased at the end, the cursor shown again


def test_progress_is_silent_when_off_piped_or_asked(terminal, monkeypatch):
    terminal = terminal()
    progress.set_enabled(False)
    assert _work() == [0, 1, 2] and terminal.getvalue() == ""
    progress.set_enabled(None)
    monkeypatch.setenv("CRANFIELD_PROGRESS", "0")
    assert _work() == [0, 1, 2] and terminal.getvalue() == ""
    monkeypatch.delenv("CRANFIELD_PROGRESS")
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    assert _work() == [0, 1, 2]
    assert not progress.enabled()


def test_quiet_option_switches_progress_off():
    from cranfield.cli.report import parser

    try:
        parser().parse([QRELS, RUNS["bm25"], "--quiet"])
        assert progress._setting is False
    finally:
        progress.set_enabled(None)


def test_commands_print_no_progress_when_piped(cli):
    done = cli("compare", QRELS, *RUNS.values(), "-m", "AP", "--test", "randomization")
    assert done.returncode == 0 and done.stderr == b""
