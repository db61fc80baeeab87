"""Charts that survive: 80-character run names and 25 runs, every text inside the figure,
legends off the data, distinct run styles, an ``ax=`` to draw on, the same bytes every time.

Drawn for real with matplotlib's Agg renderer."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import cranfield

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text

from conftest import REPO
from cranfield.render import compare_charts as cc
from cranfield.render.charts import legend_labels, run_styles, shorten
from cranfield.render.curve_charts import plot_curves

RUNS = 25
NAMES = [f"experiment-{i:02d}-" + "xyz" * 17 + f"-bm25-k1.2-b0.75-run{i}" for i in range(RUNS)]


def _collection(nq: int = 12, nd: int = 30):
    rng = np.random.default_rng(7)
    qrels = {f"q{q}": {f"d{d}": int(rng.random() < 0.3) for d in range(nd)} for q in range(nq)}

    def run(seed: int):
        r = np.random.default_rng(seed)
        return {
            q: {d: float(r.random() + 0.5 * g * (seed % 5)) for d, g in docs.items()}
            for q, docs in qrels.items()
        }

    return qrels, [run(i) for i in range(RUNS)]


@pytest.fixture(scope="module")
def many():
    qrels, runs = _collection()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # equal pairs and queries: not what is tested here
        c = cranfield.compare(qrels, runs, ["AP", "P@10"], names=NAMES, sweep=["P@5,10,20"])
    pr = cranfield.curves.precision_recall(qrels, runs, names=NAMES)
    gain = cranfield.curves.gain(qrels, runs, names=NAMES)
    return c, pr, gain


def _charts(c, pr, gain):
    a, b = NAMES[0], NAMES[1]
    return {
        "histogram": cc.precision_histogram(c.differences("AP", a, b), "AP", a, b),
        "magnitude": cc.magnitude_plot(c.magnitude("AP", a, b), "AP"),
        "agreement": cc.agreement_chart(c),
        "ranking": cc.ranking_chart(c),
        "sweeps": cc.sweep_chart(c.sweeps),
        "pr": plot_curves(pr),
        "gain": plot_curves(gain),
    }


def _drawn(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _texts(fig):
    """The texts a draw shows (not the labels of ticks outside the view, kept but not drawn)."""
    undrawn = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                loc = tick.get_loc()
                if loc is None or not lo - 1e-9 <= loc <= hi + 1e-9:
                    undrawn |= {tick.label1, tick.label2}
    texts = fig.findobj(Text)
    return [t for t in texts if t.get_visible() and t.get_text().strip() and t not in undrawn]


@pytest.mark.slow
def test_long_names_and_many_runs_survive(many):
    for kind, fig in _charts(*many).items():
        renderer = _drawn(fig)
        frame = fig.bbox
        tight = fig.get_tightbbox(renderer)  # inches
        width, height = fig.get_size_inches()
        assert tight.x0 >= -0.01 and tight.y0 >= -0.01, kind
        assert tight.x1 <= width + 0.01 and tight.y1 <= height + 0.01, kind
        for t in _texts(fig):  # nothing clipped: every text inside the figure
            box = t.get_window_extent(renderer)
            assert box.x0 >= frame.x0 - 1 and box.x1 <= frame.x1 + 1, (kind, t.get_text())
            assert box.y0 >= frame.y0 - 1 and box.y1 <= frame.y1 + 1, (kind, t.get_text())
        legends = [a.get_legend() for a in fig.axes if a.get_legend()] + list(fig.legends)
        labels = [t for t in _texts(fig) if type(t).__name__ == "Annotation"]
        assert legends or kind == "ranking", kind  # the ranking names its lines at both ends
        assert len(labels) == (2 * RUNS if kind == "ranking" else 0), kind
        for leg in legends + labels:  # legends and line labels stand off every data area
            box = leg.get_window_extent(renderer)
            for ax in fig.axes:
                assert not box.overlaps(ax.get_window_extent(renderer)), kind
        for t in _texts(fig):  # long names were shortened or wrapped
            assert all(len(line) <= 75 for line in t.get_text().split("\n")), (kind, t)


@pytest.mark.slow
def test_many_runs_get_distinct_styles(many):
    charts = _charts(*many)
    for kind in ("ranking", "sweeps", "pr", "gain"):
        for ax in charts[kind].axes:
            runs = [ln for ln in ax.get_lines() if not str(ln.get_label()).startswith("_")]
            runs = [ln for ln in runs if ln.get_label() not in ("ideal", "theoretical best")]
            if not runs:
                continue
            triples = {(to_hex(ln.get_color()), ln.get_linestyle(), ln.get_marker()) for ln in runs}
            assert len(runs) == RUNS and len(triples) == RUNS, kind
    # and by the rule itself, far past 25
    styles = run_styles(140)
    assert len({tuple(s.values()) for s in styles}) == 140


def test_names_are_shortened_in_the_middle_or_wrapped():
    assert shorten("abcdefghij", 7) == "abc…hij" and shorten("short", 7) == "short"
    assert legend_labels(NAMES[:3]) == [shorten(n) for n in NAMES[:3]]
    assert all(len(x) == 40 for x in legend_labels(NAMES[:3]))
    # names alike at both ends: shortening would merge them, so they are wrapped whole
    alike = ["run-" + "a" * 30 + f"-{k}-" + "b" * 30 for k in range(3)]
    wrapped = legend_labels(alike)
    assert [w.replace("\n", "") for w in wrapped] == alike
    assert all(len(line) <= 40 for w in wrapped for line in w.split("\n"))


def test_every_chart_draws_on_a_given_ax_and_returns_its_figure():
    qrels, runs = _collection(nq=8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = cranfield.compare(
            qrels, runs[:3], ["AP", "RR"], names=["A", "B", "C"], sweep=["P@5,10"]
        )
    pr = cranfield.curves.precision_recall(qrels, runs[:3])
    gain = cranfield.curves.gain(qrels, runs[:3])
    calls = {
        "histogram": lambda ax: cc.precision_histogram(
            c.differences("AP", "A", "B"), "AP", "A", "B", ax=ax
        ),
        "magnitude": lambda ax: cc.magnitude_plot(c.magnitude("AP", "A", "B"), "AP", ax=ax),
        "agreement": lambda ax: cc.agreement_chart(c, ax=ax),
        "ranking": lambda ax: cc.ranking_chart(c, ax=ax),
        "sweeps": lambda ax: cc.sweep_chart(c.sweeps, ax=ax),
        "pr": lambda ax: plot_curves(pr, ax=ax),
        "gain": lambda ax: plot_curves(gain, ax=ax),
    }
    for kind, call in calls.items():
        fig = Figure(figsize=(12, 4))
        ax, other = fig.subplots(1, 2)
        other.plot([0, 1], [0, 1], label="mine")
        assert call(ax) is fig, kind
        assert tuple(fig.get_size_inches()) == (12, 4), kind  # the caller's size stays
        drawn = [ax, *ax.child_axes]
        assert any(a.lines or a.patches or a.collections for a in drawn), kind
        assert len(other.lines) == 1 and other.get_title() == "", kind  # left alone
        _drawn(fig)


def test_plot_curves_on_an_ax_saves_the_whole_figure(tmp_path):
    qrels, runs = _collection(nq=5)
    pr = cranfield.curves.precision_recall(qrels, runs[:2])
    fig = Figure(figsize=(8, 3))
    ax = fig.subplots(1, 2)[1]
    assert plot_curves(pr, tmp_path / "pr.svg", ax=ax) is fig
    assert b"<svg" in (tmp_path / "pr.svg").read_bytes()[:500]


SCRIPT = """
import sys, warnings
sys.path.insert(0, sys.argv[1])
import numpy as np, cranfield
from cranfield.render.curve_charts import plot_curves
rng = np.random.default_rng(3)
qrels = {f"q{q}": {f"d{d}": int(rng.random() < .3) for d in range(20)} for q in range(6)}
runs = [{q: {d: float(rng.random()) for d in ds} for q, ds in qrels.items()} for _ in range(12)]
names = ["$x$ run " + "n" * 70 + str(i) for i in range(12)]
table = cranfield.curves.precision_recall(qrels, runs, names=names)
for suffix in ("svg", "png", "pdf"):
    plot_curves(table, f"{sys.argv[2]}.{suffix}")
"""


@pytest.mark.slow
def test_the_same_chart_gives_the_same_bytes_across_processes(tmp_path):
    outs = []
    for k, epoch in enumerate(("0", "1700000000")):  # a build date must not leak in either
        env = dict(os.environ, SOURCE_DATE_EPOCH=epoch)
        cmd = [sys.executable, "-c", SCRIPT, str(REPO / "src"), str(tmp_path / str(k))]
        subprocess.run(cmd, check=True, env=env, capture_output=True)
        outs.append([(tmp_path / f"{k}.{s}").read_bytes() for s in ("svg", "png", "pdf")])
    assert outs[0] == outs[1]
    svg = outs[0][0].decode()
    assert "<dc:date>" not in svg and "<!-- $x$ run n" in svg  # no date; "$x$" as written


@pytest.mark.slow
def test_hundreds_of_runs_spread_the_legend_over_columns():
    from cranfield.render.charts import fit, legend_outside, new_figure

    fig = new_figure(6.4, 5.0)
    ax = fig.add_subplot()
    for i, style in enumerate(run_styles(200)):
        ax.plot([0, 1], [i, i], label=f"run-{i:03d}-" + "n" * 60, **style)
    legend_outside(ax)
    fit(fig, (4.8, 3.8))
    width, height = fig.get_size_inches()
    # 40 entries a column: 5 columns about 8 inches high, not one column 40 inches high
    assert height < 12 and width < 40
    renderer = _drawn(fig)
    assert not ax.get_legend().get_window_extent(renderer).overlaps(ax.get_window_extent(renderer))
    assert all(fig.bbox.contains(*t.get_window_extent(renderer).min) for t in _texts(fig))
