"""``cranfield compare`` end to end, and the chart files it writes."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from test_compare_api import make_collection

import cranfield
from cranfield.errors import DataWarning


def write_trec(tmp_path, qrels, runs, names):
    qpath = tmp_path / "qrels.txt"
    with open(qpath, "w") as f:
        for q, docs in qrels.items():
            for d, g in docs.items():
                f.write(f"{q} 0 {d} {g}\n")
    paths = []
    for name, run in zip(names, runs, strict=True):
        p = tmp_path / name
        with open(p, "w") as f:
            for q, docs in run.items():
                ranked = sorted(docs.items(), key=lambda t: -t[1])
                for r, (d, s) in enumerate(ranked, 1):
                    f.write(f"{q} Q0 {d} {r} {s:.6f} {name}\n")
        paths.append(str(p))
    return str(qpath), paths


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    qrels, runs = make_collection(20, seed=3)
    return write_trec(tmp_path_factory.mktemp("cmp"), qrels, runs, ["a.run", "b.run", "c.run"])


@pytest.mark.slow
def test_cli_table_json_and_latex(cli, files):
    qrels, runs = files
    args = ["compare", qrels, *runs, "-m", "AP", "-m", "P@10", "--test", "wilcoxon"]
    out = cli(*args, "--correction", "holm", "--baseline", "a.run")
    assert out.returncode == 0, out.stderr.decode()
    text = out.stdout.decode()
    assert "Wilcoxon signed-rank test" in text and "baseline a.run" in text
    assert "a.run" in text and "p_adj" in text
    js = cli(*args, "--format", "json")
    assert js.returncode == 0
    d = json.loads(js.stdout)
    pair = d["measures"]["AP"]["pairs"][0]
    assert (pair["a"], pair["b"]) == ("a.run", "b.run")
    assert set(d["measures"]["AP"]["means"]) == {"a.run", "b.run", "c.run"}
    # the same as the Python API
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api = cranfield.compare(qrels, runs, ["AP", "P@10"], test="wilcoxon")
    assert json.loads(api.table("json")) == d
    # deterministic bytes
    assert cli(*args, "--format", "json").stdout == js.stdout
    tex = cli(*args, "--format", "latex")
    assert b"\\begin{tabular}" in tex.stdout and b"\\toprule" in tex.stdout


def test_cli_errors_are_one_line(cli, files):
    qrels, runs = files
    out = cli("compare", qrels, *runs, "-m", "AP", "--baseline", "nope.run")
    assert out.returncode == 2
    err = out.stderr.decode().strip().splitlines()[-1]
    assert err.startswith("cranfield: error: baseline 'nope.run' is not one of the runs")
    out = cli("compare", qrels, runs[0], "-m", "AP")
    assert out.returncode == 2 and b"at least 2 runs" in out.stderr
    out = cli("compare", qrels, *runs, "-m", "AP", "--test", "tukey", "--correction", "holm")
    assert out.returncode == 2 and b"Tukey" in out.stderr


def test_cli_requests_generality_and_sweep(cli, files):
    qrels, runs = files
    out = cli(
        "compare", qrels, *runs[:2], "-m", "AP", "--requests", "--generality",
        "--sweep", "P@5,10,20",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    text = out.stdout.decode()
    assert "percentages adding equal cases to both options" in text
    assert "vs general" in text and "Sweep of P" in text


def _check_png(path):
    import matplotlib.image as mpimg

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = mpimg.imread(path)
    h, w = img.shape[:2]
    assert w >= 600 and h >= 200
    assert np.unique(img.reshape(-1, img.shape[-1]), axis=0).shape[0] > 20  # not blank


@pytest.mark.slow
def test_cli_plot_writes_every_chart(cli, files, tmp_path):
    qrels, runs = files
    out = cli(
        "compare", qrels, *runs[:2], "-m", "AP", "-m", "P@10", "--sweep", "P@5,10,20",
        "--plot", str(tmp_path / "figs"), "--plot-format", "png", "--plot-format", "svg",
        "--plot-format", "pdf",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    files_ = sorted(p.name for p in (tmp_path / "figs").iterdir())
    stems = {
        "agreement",
        "ranking-change",
        "sweeps",
        *(
            f"{kind}-{m}-{b}-vs-{a}"
            for kind in ("histogram", "magnitude")
            for m in ("AP", "P@10")
            for a, b in (("a.run", "b.run"),)
        ),
    }
    assert files_ == sorted(f"{s}.{e}" for s in stems for e in ("png", "svg", "pdf"))
    for name in files_:
        p = tmp_path / "figs" / name
        assert p.stat().st_size > 5000, name
        if name.endswith(".png"):
            _check_png(p)
        elif name.endswith(".pdf"):
            assert p.read_bytes().startswith(b"%PDF")
        else:
            assert b"<svg" in p.read_bytes()[:2000]


def test_plots_are_labelled_and_deterministic(tmp_path):
    from cranfield.render.compare_charts import (
        agreement_chart,
        magnitude_plot,
        precision_histogram,
        ranking_chart,
    )

    qrels, runs = make_collection(15, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        c = cranfield.compare(qrels, runs, ["AP", "RR"], names=["A", "B", "C"])
    fig = precision_histogram(c.differences("AP", "A", "C"), "AP", "A", "C")
    ax = fig.axes[0]
    assert ax.get_xlabel() == "query" and ax.get_ylabel() == "AP(C) − AP(A)"
    assert ax.get_legend() is not None and len(ax.patches) >= 15
    fig = magnitude_plot(c.magnitude("AP", "A", "C"), "AP")
    ax = fig.axes[0]
    assert "difference in AP" in ax.get_ylabel()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    p = c.pair("AP", "A", "C")
    assert texts[0].startswith(f"{p.wins} requests better on C")
    fig = agreement_chart(c)
    assert fig.legends and "% of 3 pairs of runs" in fig.axes[1].get_xlabel()
    fig = ranking_chart(c)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["AP", "RR"]
    one = c.plot(tmp_path / "one", formats=["png", "svg", "pdf"], pair_plots="none")
    two = c.plot(tmp_path / "two", formats=["png", "svg", "pdf"], pair_plots="none")
    assert [p.name for p in one] == [p.name for p in two]
    for x, y in zip(one, two, strict=True):
        assert x.read_bytes() == y.read_bytes(), x.name
