"""``cranfield report`` and ``cranfield.report``: the page's numbers against the peer commands
(``compare``, ``ties``, ``curve pr`` with ``--format json``), its provenance against hashlib,
its escaping of hostile names, determinism, and the checks made before any input is read.
The page in a real browser: test_report_browser.py."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shlex
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield
from _report_pages import parse_page, script_data, table
from conftest import REPO
from cranfield import examples
from cranfield.errors import ParameterError
from cranfield.render.html_model import decimals, script_json

QRELS = str(examples.qrels())
RUNS = [str(examples.runs()[n]) for n in ("bm25", "good", "boolean")]
NAMES = ["bm25.txt.gz", "good.txt.gz", "boolean.txt.gz"]
MEASURES = ["-m", "AP", "-m", "nDCG@10", "-m", "P@10"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The report of three bundled runs against bm25 (command line), and its path."""
    from conftest import run_cli

    out = tmp_path_factory.mktemp("report") / "r.html"
    args = ["report", QRELS, *RUNS, *MEASURES, "--baseline", "bm25.txt.gz", "-o", str(out)]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr.decode()
    return out.read_text(encoding="utf-8"), out, args


def _json(cli, *args: str) -> dict:
    done = cli(*args, "--format", "json")
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_summary_and_tests_equal_compare_json(cli, page):
    html, _, _ = page
    want = _json(cli, "compare", QRELS, *RUNS, *MEASURES, "--baseline", "bm25.txt.gz")
    rows = table(html, "summary-table")
    labels = ["AP", "nDCG@10", "P@10"]
    assert rows[0][2:] == [f"{m} ↑" for m in labels]
    for row in rows[1:]:
        run = row[1]
        for label, cell in zip(labels, row[2:], strict=True):
            assert cell.split()[0] == f"{want['measures'][label]['means'][run]:.4f}"
    # the pairwise tables: difference, p-value and wins/losses/ties of each pair
    tables = [rows for tid, rows in parse_page(html).tables if tid is None]
    pair_tables = [t for t in tables if t[0][:3] == ["a", "b", "diff"]]
    assert len(pair_tables) == 3
    for label, t in zip(labels, pair_tables, strict=True):
        for row, p in zip(t[1:], want["measures"][label]["pairs"], strict=True):
            assert (row[0], row[1]) == (p["a"], p["b"])
            assert row[2] == f"{p['mean_diff']:+.4f}"
            assert row[7] == f"{p['wins']}/{p['losses']}/{p['ties']}"


def test_best_and_marks_follow_the_tests(cli, page):
    html, _, _ = page
    want = _json(cli, "compare", QRELS, *RUNS, "-m", "AP", "--baseline", "bm25.txt.gz")
    pairs = {p["b"]: p for p in want["measures"]["AP"]["pairs"]}
    for row in table(html, "summary-table")[1:]:
        cell = row[2]
        if row[1] == "bm25.txt.gz":
            continue
        p = pairs[row[1]]
        mark = "▲" if p["significant"] and p["mean_diff"] > 0 else "▼" if p["significant"] else ""
        assert cell.endswith(mark) if mark else cell[-1] == "]"
    best = max(want["measures"]["AP"]["means"].items(), key=lambda t: t[1])[0]
    assert f'title="{best}">{best}</td><td class="best">' in html


def test_per_query_data_equals_evaluate_and_compare(cli, page):
    html, _, _ = page
    data = script_data(html)
    per_query = _json(cli, "evaluate", QRELS, *RUNS, *MEASURES, "-q", "-c")
    values = {r["name"]: r["per_query"] for r in per_query["runs"]}
    pairs = _json(cli, "compare", QRELS, *RUNS, *MEASURES, "--baseline", "bm25.txt.gz")
    assert data["runs"] == NAMES and data["reference"] == 0 and data["baseline"] is True
    assert set(data["queries"]) == set(values["bm25.txt.gz"])
    for m in data["measures"]:
        label = m["label"]
        for j, run in enumerate(NAMES):
            col = [values[run][q][label] for q in data["queries"]]
            assert m["values"][j] == [float(f"{v:.4f}") for v in col]
            if j == 0:
                assert m["diffs"][j] is None
                continue
            base = [values["bm25.txt.gz"][q][label] for q in data["queries"]]
            d = [
                0.0 if abs(b - a) <= 1e-12 * max(1.0, abs(a), abs(b)) else b - a
                for a, b in zip(base, col, strict=True)
            ]
            shown = [float(f"{x:.4f}") + 0.0 for x in d]
            shown = [
                float(f"{x:.1e}") if s == 0 and x != 0 else s for s, x in zip(shown, d, strict=True)
            ]
            assert m["diffs"][j] == shown
            p = next(p for p in pairs["measures"][label]["pairs"] if p["b"] == run)
            wins = sum(x > 0 for x in d)
            losses = sum(x < 0 for x in d)
            assert (
                m["wlt"][j]
                == [p["wins"], p["losses"], p["ties"]]
                == [
                    wins,
                    losses,
                    len(d) - wins - losses,
                ]
            )


def test_ties_table_equals_the_ties_command(cli, page):
    html, _, _ = page
    want = _json(cli, "ties", QRELS, *RUNS, *MEASURES, "-c")
    rows = table(html, "ties-table")
    assert rows[0] == [
        "run",
        "measure",
        "queries",
        "tied",
        "rel_tied",
        "changed",
        "worst",
        "trec",
        "expected",
        "best",
        "range",
    ]
    expected = [
        [r["name"], s["measure"], *(str(s[k]) for k in ("queries", "tied", "rel_tied", "changed"))]
        + [f"{s[k]:.4f}" for k in ("worst", "trec", "expected", "best", "range")]
        for r in want["runs"]
        for s in r["summary"]
    ]
    assert rows[1:] == expected


def test_precision_recall_values_equal_the_curve_command(cli, page):
    html, _, _ = page
    want = _json(cli, "curve", "pr", QRELS, *RUNS, "-c")
    tables = [rows for tid, rows in parse_page(html).tables if tid is None]
    pr = next(t for t in tables if t[0][:2] == ["run", "0"])
    by_run = {}
    for r in want["rows"]:
        by_run.setdefault(r["run"], []).append(f"{r['value']:.4f}")
    assert [row[1:] for row in pr[1:]] == [by_run[n] for n in NAMES]
    assert script_data(html)["pr"]["values"][1] == [float(x) for x in by_run["good.txt.gz"]]


def test_the_page_loads_nothing_and_says_how_it_was_made(page):
    html, _, args = page
    assert html.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    for needle in ("<link", "@import", "url(", 'src="', 'href="http', "<iframe"):
        assert needle not in html, needle
    # the command and the inputs as typed, but no absolute path: relative to the working
    # directory (the page is shared; the report ran in this process's directory)
    shown = [os.path.relpath(a) if os.path.isabs(a) else a for a in args]
    assert shlex.join(["cranfield", *shown]) in html.replace("&#39;", "'")
    assert QRELS not in html and os.path.isabs(QRELS)
    rows = [
        r for tid, r in parse_page(html).tables if tid is None and r[0][:2] == ["input", "name"]
    ]
    inputs = rows[0][1:]
    assert [r[0] for r in inputs] == ["qrels", "run", "run", "run"]
    for row, path in zip(inputs, [QRELS, *RUNS], strict=True):
        with open(path, "rb") as fh:
            data = fh.read()
        assert row[1:] == [os.path.relpath(path), str(len(data)), hashlib.sha256(data).hexdigest()]
    assert f"cranfield {cranfield.__version__}" in html


@pytest.mark.slow
def test_same_inputs_same_bytes_and_time_only_when_asked(cli, tmp_path):
    args = ["report", QRELS, *RUNS[:2], "-m", "AP"]
    first, second = cli(*args), cli(*args)
    assert first.returncode == 0 and first.stdout == second.stdout
    assert b"UTC" not in first.stdout
    stamped = cli(*args, "--timestamp")
    assert stamped.returncode == 0 and b" UTC with</p>" in stamped.stdout


def test_hostile_names_and_ids_are_text(tmp_path):
    evil = "</script><script>alert(1)</script>"
    qrels = {"<b>q1</b>": {"d1": 1, "d2": 0}, "q&2": {"d1": 1, "d3": 1}}
    runs = {
        evil: {"<b>q1</b>": {"d1": 2.0, "d2": 1.0}, "q&2": {"d3": 1.0, "d1": 0.5}},
        "a\u2028b<!--": {"<b>q1</b>": {"d2": 2.0, "d1": 1.0}, "q&2": {"d1": 1.0}},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = cranfield.report(qrels, runs, ["AP", "P@2"], title="<i>T</i>")
    html = rep.html
    assert "<script>alert" not in html and "<b>q1" not in html and "<i>T" not in html
    assert html.count("<script") == 2  # the data block and the page's script
    data = script_data(html)
    assert data["runs"] == [evil, "a\u2028b<!--"]
    assert sorted(data["queries"]) == ["<b>q1</b>", "q&2"]
    assert "\u2028" not in parse_page(html).scripts["cranfield-data"]
    assert "In memory: no checksum".lower() in html.lower()


@settings(derandomize=True, max_examples=400, deadline=None)
@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=30),
    st.integers(0, 17),
)
def test_decimals_are_the_formatted_values(xs, digits):
    got = decimals(np.array(xs, dtype=np.float64), digits)
    spec = f".{digits}f"
    for x, g in zip(xs, got, strict=True):
        if not math.isfinite(x):
            assert g is None
            continue
        want = float(format(x, spec)) + 0.0
        if want == 0.0 and x != 0.0:  # a tiny value keeps its sign (2 significant digits)
            want = float(f"{x:.1e}")
        assert g == want and math.copysign(1, g) == math.copysign(1, want)
        # what the page shows (toFixed of the number read back) is Python's text; -0.0 is 0
        assert format(g, spec) == format(x, spec) or x == 0.0


def test_script_json_cannot_end_the_script():
    text = script_json({"x": "</script><!-- \u2028 & >"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"x": "</script><!-- \u2028 & >"}


def test_bad_arguments_fail_before_any_input_is_read(cli, tmp_path):
    missing = str(tmp_path / "nothing.txt")
    with pytest.raises(ParameterError, match="at least 2, got 1"):
        cranfield.report(missing, missing)
    for kw, match in (
        ({"test": "nope"}, "unknown test"),
        ({"correction": "nope"}, "unknown correction"),
        ({"alpha": 2.0}, "alpha"),
        ({"interpolation": "none"}, "interpolation"),
        ({"gain_ranks": 0}, "gain_ranks"),
        ({"digits": 40}, "digits"),
        ({"measures": ["NumRet"]}, "no direction"),
        ({"measures": ["Nope@3"]}, "unknown measure"),
        ({"output": str(tmp_path / "no" / "dir.html")}, "dir"),
    ):
        with pytest.raises(ParameterError, match=match):
            cranfield.report(missing, [missing], **kw)
    done = cli("report", missing, missing, "--test", "nope")
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    done = cli("report", missing, missing, missing)
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1
    assert "nothing.txt: no such file" in done.stderr.decode()


def test_report_is_callable_and_the_package_stays_reachable():
    import cranfield.render.table as table_module

    assert callable(cranfield.report) and cranfield.render.table is table_module
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = cranfield.report(QRELS, {"x": RUNS[0], "y": RUNS[1]}, "AP", permutations=50)
    assert rep.data.comparison.runs == ("x", "y")
    assert "cranfield.report(" in rep.html and "permutations=50" in rep.html
    frame = rep._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "<script>" not in frame


def test_importing_cranfield_loads_nothing_heavy_and_report_is_the_function():
    code = (
        "import sys, cranfield; "
        "print(sorted({'numpy', 'jinja2', 'pandas', 'rich'} & set(sys.modules))); "
        "import cranfield.reporting as r; print(cranfield.report is r.report)"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]", "True"]


def test_file_names_that_are_not_utf8_are_shown_as_escapes(cli, tmp_path):
    odd = os.fsdecode(b"run\xff.gz")
    with open(RUNS[0], "rb") as src, open(tmp_path / odd, "wb") as dst:
        dst.write(src.read())
    out = tmp_path / "r.html"
    done = cli("report", QRELS, str(tmp_path / odd), RUNS[1], "-m", "AP", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    html = out.read_bytes().decode("utf-8")  # valid UTF-8 all through
    assert script_data(html)["runs"] == ["run\\xff.gz", "good.txt.gz"]
    assert table(html, "summary-table")[1][1] == "run\\xff.gz"


@pytest.mark.parametrize("rel", [0, 2])
def test_rel_sets_what_counts_as_relevant_everywhere(cli, rel):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = cranfield.report(QRELS, RUNS[:2], ["P@10"], rel=rel)
    with open(QRELS) as fh:
        grades = [int(line.split()[3]) for line in fh if line.strip()]
    assert rep.data.collection.relevant == sum(g >= rel for g in grades)
    want = _json(cli, "curve", "pr", QRELS, *RUNS[:2], "-c", "-l", str(rel))
    values = [float(f"{r['value']:.4f}") for r in want["rows"] if r["run"] == "good.txt.gz"]
    assert script_data(rep.html)["pr"]["values"][1] == values
    means = _json(cli, "compare", QRELS, *RUNS[:2], "-m", "P@10", "-l", str(rel))
    assert rep.data.comparison.means["P@10"] == means["measures"]["P@10"]["means"]


def test_a_pipe_is_read_once_by_the_reader_not_by_the_checksum(cli, tmp_path):
    import gzip
    import threading

    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    with open(RUNS[1], "rb") as fh:
        data = gzip.decompress(fh.read())

    def feed() -> None:
        with open(fifo, "wb") as w:
            w.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out = tmp_path / "r.html"
    done = cli("report", QRELS, RUNS[0], str(fifo), "-m", "AP", "-o", str(out))
    writer.join(timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    html = out.read_text()
    assert "not a regular file (a pipe?): no checksum" in html
    want = _json(cli, "compare", QRELS, RUNS[0], RUNS[1], "-m", "AP")
    assert (
        script_data(html)["measures"][0]["values"][1]
        == script_data(cranfield.report(QRELS, RUNS[:2], "AP").html)["measures"][0]["values"][1]
    )
    assert table(html, "summary-table")[2][2].split()[0] == (
        f"{want['measures']['AP']['means']['good.txt.gz']:.4f}"
    )


def test_every_public_name_resolves():
    assert "report" in cranfield.__all__ and sorted(dir(cranfield)) == sorted(cranfield.__all__)
    for name in cranfield.__all__:
        assert getattr(cranfield, name) is not None, name


@pytest.mark.filterwarnings(
    "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
)
def test_judgment_files_reach_the_report(cli, tmp_path):
    """--subtopics (and the other judgment files) work as in compare: the page's means of a
    diversity measure equal compare's; the measure is kept out of the ties table (its best
    and worst orders are not decided by grades) and the page says so."""
    (tmp_path / "sub.txt").write_text("q1 s1 d1 1\nq1 s2 d2 1\nq1 s2 d3 1\nq2 s1 e1 1\n")
    (tmp_path / "a").write_text("q1 Q0 d2 1 3 r\nq1 Q0 d3 2 2 r\nq1 Q0 d1 3 1 r\nq2 Q0 e1 1 1 r\n")
    (tmp_path / "b").write_text("q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 x 3 1 r\nq2 Q0 e9 1 1 r\n")
    ms = ["-m", "alpha_nDCG@2", "-m", "AP"]
    out = tmp_path / "r.html"
    done = cli("report", "sub.txt", "a", "b", *ms, "--subtopics", "sub.txt", "-o", str(out),
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    html = out.read_text(encoding="utf-8")
    want = cli("compare", "sub.txt", "a", "b", *ms, "--subtopics", "sub.txt", "--format",
               "json", cwd=tmp_path)  # fmt: skip
    assert want.returncode == 0, want.stderr.decode()
    means = json.loads(want.stdout)["measures"]["alpha_nDCG@2"]["means"]
    assert len(set(means.values())) == 2  # the two runs differ on it
    rows = table(html, "summary-table")
    for row in rows[1:]:
        assert row[2].split()[0] == f"{means[row[1]]:.4f}"
    ties = table(html, "ties-table")
    assert {row[1] for row in ties[1:]} == {"AP"}
    note = html.split("Not ranged (no tie-aware form, or judgments besides the grades", 1)[1]
    assert "alpha_nDCG@2" in note.split("</p>", 1)[0]
    r = cranfield.report(
        str(tmp_path / "sub.txt"), [str(tmp_path / "a"), str(tmp_path / "b")],
        ["alpha_nDCG@2"], subtopics=str(tmp_path / "sub.txt"),
    )  # fmt: skip
    assert "alpha_nDCG@2" in r.html
    with pytest.raises(ParameterError, match="--subtopics FILE"):
        cranfield.report(str(tmp_path / "sub.txt"), [str(tmp_path / "a"), str(tmp_path / "b")],
                         ["alpha_nDCG@2"])  # fmt: skip


def test_run_labels_keep_the_part_that_differs():
    from cranfield.render.charts import distinct_labels

    prefix = "uogTr_bm25_porter_stopwords_rm3_fb10_terms20_qe"
    names = [f"{prefix}_run{k}" for k in range(1, 13)]
    assert distinct_labels(names, 24) == [f"…run{k}" for k in range(1, 13)]
    # short names are shown whole, even when they share a part
    assert distinct_labels(["a/run.txt", "b/run.txt"], 24) == ["a/run.txt", "b/run.txt"]
    # a common prefix is cut at a separator, not inside a number; a common suffix may be cut
    # at a dot
    assert distinct_labels(["exp-2024-01-bm25-k1.2-b0.75", "exp-2024-01-bm25-k1.2-b0.5"], 24) == [
        "…b0.75",
        "…b0.5",
    ]
    assert distinct_labels(["baseline_bm25_run.txt.gz", "baseline_dense_run.txt.gz"], 12) == [
        "…bm25…",
        "…dense…",
    ]
    # nothing in common: shortened in the middle, as the charts' legends are
    long = ["short", "a_very_long_run_name_that_is_long_v1", "a_very_long_run_name_that_is_long_v2"]
    assert distinct_labels(long, 24) == [
        "short",
        "a_very_long…t_is_long_v1",
        "a_very_long…t_is_long_v2",
    ]


@pytest.mark.filterwarnings(
    "ignore:.*every query has the same value, so the interval:cranfield.errors.CranfieldWarning"
)
@pytest.mark.filterwarnings(
    "ignore:compare. for 2 pair.s. every query is equal:cranfield.errors.CranfieldWarning"
)
@pytest.mark.filterwarnings(
    "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
)
def test_the_page_shows_labels_and_keeps_the_full_names(tmp_path):
    prefix = "experiment_2024_bm25_porter_stopwords_rm3"
    runs = {f"{prefix}_run{k}": {"q1": {"d1": float(k), "d2": 1.0}, "q2": {"d1": 1.0}}
            for k in (1, 2, 3)}  # fmt: skip
    rep = cranfield.report({"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 1}}, runs, ["AP", "P@1"])
    html = rep.html
    for k in (1, 2, 3):
        assert f'title="{prefix}_run{k}">…run{k}</span>' in html  # ties, pairs, curves' table
        assert f'<td class="l run" title="{prefix}_run{k}">…run{k}</td>' in html  # summary
        assert f'<td class="l">{prefix}_run{k}</td><td class="l">…run{k}</td>' in html
    assert script_data(html)["labels"] == ["…run1", "…run2", "…run3"]
