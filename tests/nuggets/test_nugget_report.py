"""``cranfield nuggets --report`` and ``cranfield.reporting.nugget_report``: the HTML page of
nugget scores.  Its numbers against ``cranfield nuggets --compare --format json`` (the
comparison), ``cranfield nuggets --per-query --format json`` (each response) and a
computation of the scores from the assignment labels written here (nuggetizer's definitions,
docs/nuggets.md); its intervals against scipy's t quantile; the sections that need qrels
and rankings left out; the same bytes for the same inputs; bad inputs and outputs one error
with status 2.  The page in a real browser: test_nugget_report_browser.py."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _report_pages import parse_page, script_data, table
from conftest import REPO, run_cli
from cranfield.errors import DataWarning

SCORES = ["strict_vital", "strict_all", "vital", "all"]
RUNS = ["bm25-rag", "dense-rag", "hybrid-rag"]
QUERIES = [f"2024-{n}" for n in range(101, 117)]
LABELS = [(i, a) for i in ("vital", "okay") for a in ("support", "partial_support", "not_support")]


def _records(run: str, seed: int) -> list[dict]:
    """One run's responses: random labels; the first question has no nugget, the second no
    vital one; hybrid-rag did not answer the last question."""
    rng = random.Random(seed)
    out = []
    for k, q in enumerate(QUERIES):
        if run == "hybrid-rag" and q == QUERIES[-1]:
            continue
        n = 0 if k == 0 else rng.randint(1, 8)
        labels = [rng.choice(LABELS[3:] if k == 1 else LABELS) for _ in range(n)]
        nuggets = [{"text": f"n{j}", "importance": i, "assignment": a} for j, (i, a) in
                   enumerate(labels)]  # fmt: skip
        out.append({"qid": q, "run_id": run, "answer_text": "...", "nuggets": nuggets})
    return out


def _oracle(record: dict) -> dict[str, float]:
    """The four scores of one response from its labels (docs/nuggets.md, "The scores")."""
    ns = record["nuggets"]
    vital = [n for n in ns if n["importance"] == "vital"]

    def share(group: list[dict], partial: float) -> float:
        if not group:
            return 0.0
        got = sum(
            1.0 if n["assignment"] == "support" else partial
            for n in group
            if n["assignment"] != "not_support"
        )
        return got / len(group)

    return {
        "strict_vital": share(vital, 0.0),
        "strict_all": share(ns, 0.0),
        "vital": share(vital, 0.5),
        "all": share(ns, 0.5),
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, dict[str, list[dict]]]:
    folder = tmp_path_factory.mktemp("nugget-report")
    records = {}
    for seed, run in enumerate(RUNS):
        records[run] = _records(run, seed)
        text = "".join(json.dumps(r) + "\n" for r in records[run])
        (folder / f"{run}.jsonl").write_text(text, encoding="utf-8")
    return folder, records


def _paths(folder: Path) -> list[str]:
    return [f"{run}.jsonl" for run in RUNS]  # relative: the commands run in the folder


@pytest.fixture(scope="module")
def page(files) -> str:
    folder, _ = files
    args = ["nuggets", *_paths(folder), "--report", "page.html", "--mean-ci", "t"]
    done = run_cli(*args, "--baseline", "bm25-rag", cwd=folder)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.decode().splitlines()[-1] == "cranfield: wrote page.html"
    return (folder / "page.html").read_text(encoding="utf-8")


def _json(folder: Path, *args: str) -> dict:
    done = run_cli("nuggets", *_paths(folder), *args, "--format", "json", cwd=folder)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_means_and_tests_equal_nuggets_compare_json(files, page):
    folder, records = files
    want = _json(folder, "--compare", "--baseline", "bm25-rag")
    compared = [q for q in QUERIES if all(any(r["qid"] == q for r in records[x]) for x in RUNS)]
    assert want["queries"] == len(compared) == len(QUERIES) - 1
    rows = table(page, "summary-table")
    assert rows[0][2:] == [f"{s} ↑" for s in SCORES]
    assert [row[1] for row in rows[1:]] == RUNS
    for row in rows[1:]:
        run = row[1]
        by_query = {r["qid"]: _oracle(r) for r in records[run]}
        for score, cell in zip(SCORES, row[2:], strict=True):
            mean = want["measures"][score]["means"][run]
            assert cell.split()[0] == f"{mean:.4f}"
            # the mean over the compared questions, from the labels
            assert mean == pytest.approx(
                sum(by_query[q][score] for q in compared) / len(compared), abs=1e-15
            )
    # the pairwise tables: difference, its interval, p, adjusted p, W/L/T of each pair
    tables = [t for tid, t in parse_page(page).tables if tid is None]
    pair_tables = [t for t in tables if t[0][:3] == ["a", "b", "diff"]]
    assert len(pair_tables) == len(SCORES)
    for score, t in zip(SCORES, pair_tables, strict=True):
        pairs = want["measures"][score]["pairs"]
        assert len(t) - 1 == len(pairs) == len(RUNS) - 1  # against the baseline
        for row, p in zip(t[1:], pairs, strict=True):
            assert (row[0], row[1]) == (p["a"], p["b"]) and p["a"] == "bm25-rag"
            assert row[2] == f"{p['mean_diff']:+.4f}"
            assert row[3] == f"[{p['ci'][0]:+.4f}, {p['ci'][1]:+.4f}]"
            assert (row[4], row[5]) == (f"{p['p_value']:.4f}", f"{p['p_adjusted']:.4f}")
            assert row[7] == f"{p['wins']}/{p['losses']}/{p['ties']}"


def test_the_means_intervals_are_student_t_over_the_compared_questions(files, page):
    from scipy import stats

    folder, records = files
    compared = QUERIES[:-1]
    data = script_data(page)
    assert data["ci"] == {"method": "t", "confidence": 0.95}
    rows = {row[1]: row[2:] for row in table(page, "summary-table")[1:]}
    want = _json(folder, "--compare", "--baseline", "bm25-rag")
    marks = set()
    for j, run in enumerate(RUNS):
        by_query = {r["qid"]: _oracle(r) for r in records[run]}
        for score, cell, m in zip(SCORES, rows[run], data["measures"], strict=True):
            x = [by_query[q][score] for q in compared]
            n, mean = len(x), sum(x) / len(x)
            sd = math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1))
            half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
            low, high = m["ci"][j]
            assert (low, high) == pytest.approx((mean - half, mean + half), abs=1e-12)
            # then the mark of a significant difference to the baseline (compare's verdict)
            p = [p for p in want["measures"][score]["pairs"] if p["b"] == run]
            mark = "" if not p or not p[0]["significant"] else "▲▼"[p[0]["mean_diff"] < 0]
            assert cell == f"{mean:.4f} [{low:.4f}, {high:.4f}]{mark}"
            marks.add(mark)
    assert marks == {"", "▼"}  # the data has a significant difference to show


def test_per_query_data_equals_each_responses_scores(files, page):
    folder, records = files
    per_query = {r["name"]: r["per_query"] for r in _json(folder, "--per-query")["runs"]}
    pairs = _json(folder, "--compare", "--baseline", "bm25-rag")
    data = script_data(page)
    assert data["runs"] == RUNS and data["reference"] == 0 and data["baseline"] is True
    assert data["queries"] == QUERIES[:-1]  # the compared questions
    assert data["relevant"] is None and data["pr"] is None and data["gain"] is None
    assert [m["label"] for m in data["measures"]] == SCORES
    for m in data["measures"]:
        score = m["label"]
        assert m["better"] == 1
        for j, run in enumerate(RUNS):
            oracle = {r["qid"]: _oracle(r)[score] for r in records[run]}
            col = [per_query[run][q][score] for q in data["queries"]]
            assert col == [oracle[q] for q in data["queries"]]
            assert m["values"][j] == [float(f"{v:.4f}") for v in col]
            if j == 0:
                assert m["diffs"][j] is None and m["wlt"][j] is None
                continue
            base = [per_query["bm25-rag"][q][score] for q in data["queries"]]
            d = [b - a for a, b in zip(base, col, strict=True)]
            p = next(p for p in pairs["measures"][score]["pairs"] if p["b"] == run)
            wins, losses = sum(x > 0 for x in d), sum(x < 0 for x in d)
            assert m["wlt"][j] == [p["wins"], p["losses"], p["ties"]]
            assert m["wlt"][j] == [wins, losses, len(d) - wins - losses]


def test_the_runs_table_counts_each_runs_responses_and_nuggets(files, page):
    _, records = files
    rows = table(page, "runs-table")
    assert rows[0] == ["run", "responses", "nuggets", "vital nuggets"]
    assert rows[1:] == [
        [
            run,
            str(len(records[run])),
            str(sum(len(r["nuggets"]) for r in records[run])),
            str(sum(n["importance"] == "vital" for r in records[run] for n in r["nuggets"])),
        ]
        for run in RUNS
    ]


def test_the_sections_of_qrels_and_rankings_are_left_out(page):
    ids = set(re.findall(r'<section id="([^"]+)"', page))
    assert ids >= {"runs", "summary", "per-query", "agreement", "pairs", "notes"}
    assert not ids & {"collection", "curves", "ties"}
    toc = re.search(r'<nav class="toc".*?</nav>', page, re.S).group(0)
    assert '"#collection"' not in toc and '"#curves"' not in toc and '"#ties"' not in toc
    for box in ("pr-chart", "gain-chart", "ties-table", "gain-curve"):
        assert f'id="{box}"' not in page, box
    # the settings name no tie policy, depth or relevance level: nothing was judged
    tables = [t for _, t in parse_page(page).tables if t]
    settings = dict(next(t for t in tables if t[0] == ["setting", "value"])[1:])
    assert settings["interval of the means"] == "t" and settings["baseline"] == "bm25-rag"
    assert not {"tie policy", "depth", "relevance level"} & set(settings)
    assert "The tables of means, tests and agreement need none." in page  # no ties
    # the one warning of the work (a question hybrid-rag did not answer) is among the notes
    assert QUERIES[-1] in page.split('id="notes"')[1]


def test_provenance_names_each_file_with_its_checksum(files, page):
    folder, _ = files
    rows = next(t for _, t in parse_page(page).tables if t and t[0][:2] == ["input", "name"])
    assert len(rows) - 1 == len(RUNS)
    for row, name in zip(rows[1:], _paths(folder), strict=True):
        data = (folder / name).read_bytes()
        assert row == ["nugget assignments", name, str(len(data)), hashlib.sha256(data).hexdigest()]
    command = "cranfield nuggets " + " ".join(_paths(folder))
    assert command + " --report page.html --mean-ci t --baseline bm25-rag" in page
    assert str(folder) not in page  # no absolute path


@pytest.mark.parametrize(
    "options",
    [[], ["--test", "randomization", "--mean-ci", "bca", "--permutations", "500", "--seed", "3"]],
    ids=["t", "resampled"],
)
def test_same_inputs_same_bytes(files, options):
    folder, _ = files
    args = ["nuggets", *_paths(folder), "--report", "-", *options]
    first, second = run_cli(*args, cwd=folder), run_cli(*args, cwd=folder)
    assert first.returncode == 0, first.stderr.decode()
    assert first.stdout == second.stdout and first.stdout.startswith(b"<!DOCTYPE html>")
    assert b"UTC" not in first.stdout
    tables = [t for _, t in parse_page(first.stdout.decode()).tables if t]
    settings = dict(next(t for t in tables if t[0] == ["setting", "value"])[1:])
    assert settings["interval of the means"] == ("bca" if options else "none")
    # the library's page is the command's but for the line that says how it was made
    from cranfield.reporting import nugget_report

    kw = dict(zip(options[::2], options[1::2], strict=True))
    call = {k.lstrip("-").replace("-", "_"): v for k, v in kw.items()}
    for k in ("permutations", "seed"):
        if k in call:
            call[k] = int(call[k])
    with pytest.warns(DataWarning, match="1 queries are not in every run"):
        lib = nugget_report([folder / p for p in _paths(folder)], **call).html

    def shown(html: str) -> tuple:  # the data and every table but the inputs' names
        tables = [t for _, t in parse_page(html).tables if not t or t[0][:2] != ["input", "name"]]
        return script_data(html), tables

    assert shown(lib) == shown(first.stdout.decode())
    assert "cranfield.reporting.nugget_report(" in lib


def test_the_library_writes_the_page_atomically(files, tmp_path):
    from cranfield.reporting import nugget_report

    folder, _ = files
    out = tmp_path / "page.html"
    out.write_text("old")
    with pytest.warns(DataWarning, match="1 queries are not in every run"):
        rep = nugget_report([folder / p for p in _paths(folder)], "vital", output=out, title="RT")
    assert out.read_text(encoding="utf-8") == rep.html and "<h1>RT</h1>" in rep.html
    assert sorted(os.listdir(tmp_path)) == ["page.html"]  # no temporary file left
    assert [m["label"] for m in script_data(rep.html)["measures"]] == ["vital"]


# ------------------------------------------------------------------------------ bad input
def _one_error(done: subprocess.CompletedProcess, *needles: str) -> str:
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1, err
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])
    return errors[0]


def test_an_unknown_label_names_the_file_and_line(files, tmp_path):
    folder, records = files
    bad = [dict(r) for r in records["dense-rag"]]
    bad[4] = dict(bad[4], nuggets=[{"importance": "vital", "assignment": "failed"}])
    (tmp_path / "dense-rag.jsonl").write_text("".join(json.dumps(r) + "\n" for r in bad))
    (tmp_path / "bm25-rag.jsonl").write_bytes((folder / "bm25-rag.jsonl").read_bytes())
    done = run_cli(
        "nuggets", "bm25-rag.jsonl", "dense-rag.jsonl", "--report", "out.html", cwd=tmp_path
    )
    _one_error(done, "dense-rag.jsonl: line 5:", "unknown assignment 'failed'")
    bad[4] = dict(bad[4], nuggets=[{"importance": "crucial", "assignment": "support"}])
    (tmp_path / "dense-rag.jsonl").write_text("".join(json.dumps(r) + "\n" for r in bad))
    done = run_cli(
        "nuggets", "bm25-rag.jsonl", "dense-rag.jsonl", "--report", "out.html", cwd=tmp_path
    )
    _one_error(done, "dense-rag.jsonl: line 5:", "'crucial'")
    assert not (tmp_path / "out.html").exists()


def test_a_missing_file_and_one_run_are_errors(files, tmp_path):
    folder, _ = files
    done = run_cli("nuggets", "bm25-rag.jsonl", "gone.jsonl", "--report", str(tmp_path / "o.html"),
                   cwd=folder)  # fmt: skip
    _one_error(done, "gone.jsonl", "no such file")
    done = run_cli("nuggets", "bm25-rag.jsonl", "--report", str(tmp_path / "o.html"), cwd=folder)
    _one_error(done, "needs at least 2")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("where", "problem"),
    [
        ("{tmp}", "is a directory"),
        ("{tmp}/missing/o.html", "does not exist"),
        ("{tmp}/file/o.html", "is not a directory"),
        ("/dev/full", "/dev/full: cannot write: " + os.strerror(28)),
    ],
    ids=["directory", "missing directory", "inside a file", "full device"],
)
def test_an_output_that_cannot_be_written_is_one_error(files, tmp_path, where, problem):
    folder, _ = files
    if where == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    (tmp_path / "file").write_text("x")
    out = where.format(tmp=tmp_path)
    done = run_cli("nuggets", *_paths(folder), "--report", out, cwd=folder)
    _one_error(done, problem)
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_a_read_only_file_system_keeps_the_old_page(files, tmp_path, mount_namespace):
    folder, _ = files
    fs = tmp_path / "fs"
    fs.mkdir()
    (fs / "page.html").write_text("old page")
    command = " ".join(
        [sys.executable, "-m", "cranfield", "nuggets", *(str(folder / p) for p in _paths(folder)),
         "--report", f"{fs}/page.html"]
    )  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    remount = f"mount -t tmpfs tmpfs {fs} && echo 'old page' > {fs}/page.html && "
    remount += f"mount -o remount,ro {fs} && "
    done = mount_namespace(f"{remount}{command}; echo $? >&2; cat {fs}/page.html >&2", env)
    *err, status, kept = done.stderr.decode().splitlines()
    assert int(status) == 2 and kept == "old page"
    errors = [line for line in err if "error:" in line]
    assert len(errors) == 1 and "Traceback" not in "\n".join(err), err
    assert errors[0].endswith(f" {fs}/page.html: cannot write: {os.strerror(30)}")


@pytest.mark.parametrize(
    ("option", "what"),
    [
        (["--compare"], "--compare"),
        (["--per-query"], "--per-query"),
        (["--format", "json"], "--format"),
        (["-o", "x.txt"], "-o/--output"),
        (["--confidence", "0.9"], "--confidence (give --alpha)"),
        (["--samples", "100"], "--samples (give --permutations)"),
    ],
)
def test_options_of_the_other_outputs_are_refused_before_reading(tmp_path, option, what):
    # the files do not exist: the options are checked first
    done = run_cli("nuggets", "a.jsonl", "b.jsonl", "--report", "o.html", *option, cwd=tmp_path)
    _one_error(done, f"--report writes the page: {what} is not an option of it")
    done = run_cli("nuggets", "a.jsonl", "--title", "T", cwd=tmp_path)
    _one_error(done, "--title is the title of the --report page")
    assert os.listdir(tmp_path) == []
