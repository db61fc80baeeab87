"""The Cranfield collection's qrels and runs (``src/cranfield/examples/cranfield``, made by
``scripts/make_cranfield_runs.py``): the facts an independent source states, the runs' shape
and order, sanity (BM25 beats coordination level; coordination level ties massively), a peer
tool's AP, byte-for-byte regeneration from the public collection, and that the package ships
them (a wheel holds them, and they are read from it)."""

from __future__ import annotations

import gzip
import importlib.util
from collections import Counter

import numpy as np
import pytest

import cranfield
from _cranfield_script import NO_DEV, NO_SOURCE, has_dev_extra, load, source
from cranfield import examples
from cranfield.io import read_qrels, read_run
from cranfield.ties.analysis import tie_ranges

# ir_datasets' metadata for its `cranfield` dataset (allenai/ir_datasets,
# ir_datasets/etc/metadata.json): 1400 documents, 225 queries, 1837 qrels, and the qrels'
# relevance values as it yields them, i.e. the raw cranqrel codes.
IR_DATASETS = {"docs": 1400, "queries": 225, "qrels": 1837}
IR_DATASETS_CODES = {"2": 387, "3": 734, "4": 363, "-1": 225, "1": 128}


def _grade(code: int) -> int:  # the documented rule: 5 - code for 1..4, -1 stays
    return -1 if code == -1 else 5 - code


def _lines(path) -> list[list[str]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="ascii") as fh:
        return [line.split() for line in fh]


def test_qrels_match_the_collection_facts():
    rows = _lines(examples.cranfield_qrels())
    assert len(rows) == IR_DATASETS["qrels"]
    assert all(len(r) == 4 and r[1] == "0" for r in rows)
    assert {r[0] for r in rows} == {str(i) for i in range(1, IR_DATASETS["queries"] + 1)}
    assert {int(r[2]) for r in rows} <= set(range(1, IR_DATASETS["docs"] + 1))
    grades = Counter(int(r[3]) for r in rows)
    assert grades == {_grade(int(c)): n for c, n in IR_DATASETS_CODES.items()}
    assert sum(n for g, n in grades.items() if g >= 1) == 1612
    # exactly one line per query has the code -1
    assert Counter(r[0] for r in rows if r[3] == "-1") == {str(i): 1 for i in range(1, 226)}
    assert len({(r[0], r[2]) for r in rows}) == len(rows)
    # sorted by query, then document number
    keys = [(int(r[0]), int(r[2])) for r in rows]
    assert keys == sorted(keys)
    q = read_qrels(examples.cranfield_qrels())
    assert q.num_queries == 225 and int((q.grades >= 1).sum()) == 1612


def test_qrels_are_cranqrel_under_the_rule():
    src = source()
    if src is None:
        pytest.skip(NO_SOURCE)
    cranqrel = load().read_source(src)["cranqrel"]
    want = sorted(
        (int(q), int(d), _grade(int(c))) for q, d, c in (x.split() for x in cranqrel.splitlines())
    )
    got = [(int(q), int(d), int(g)) for q, _, d, g in _lines(examples.cranfield_qrels())]
    assert got == want


@pytest.mark.parametrize("name", examples.CRANFIELD_RUNS)
def test_runs_shape_and_order(name):
    rows = _lines(examples.cranfield_runs()[name])
    by_query: dict[str, list[list[str]]] = {}
    for r in rows:
        assert len(r) == 6 and r[1] == "Q0" and r[5] == name
        by_query.setdefault(r[0], []).append(r)
    assert list(by_query) == [str(i) for i in range(1, 226)]
    for q, rs in by_query.items():
        assert [int(r[3]) for r in rs] == list(range(1, len(rs) + 1)), q
        docs = [int(r[2]) for r in rs]
        assert len(set(docs)) == len(docs) and min(docs) >= 1 and max(docs) <= 1400
        if name == "coordination":
            scores = [int(r[4]) for r in rs]
        else:
            assert all(len(r[4].split(".")[1]) == 6 for r in rs)
            scores = [float(r[4]) for r in rs]
        assert min(scores) > 0
        assert sorted(zip(scores, docs, strict=True), key=lambda x: (-x[0], x[1])) == list(
            zip(scores, docs, strict=True)
        )
        if name == "coordination":
            # 100 documents, plus the rest of the tie group at the cut: the documents above
            # the lowest score are fewer than 100, and the cut's group is not cut
            assert len(rs) >= 100 and sum(s > scores[-1] for s in scores) < 100, q
        else:
            assert len(rs) == 100, q


def test_bm25_beats_coordination_level_and_the_models_agree_with_pytrec_eval():
    runs = examples.cranfield_runs()
    res = cranfield.evaluate(examples.cranfield_qrels(), list(runs.values()), ["AP"])
    ap = {name: r.aggregate()["AP"] for name, r in zip(runs, res, strict=True)}
    assert ap["bm25"] > ap["coordination"] and ap["tfidf"] > ap["coordination"]
    if importlib.util.find_spec("pytrec_eval") is None:
        pytest.skip("pytrec_eval (test extra) is not installed: AP not cross-checked")
    import pytrec_eval

    qrels: dict[str, dict[str, int]] = {}
    for q, _, d, g in _lines(examples.cranfield_qrels()):
        qrels.setdefault(q, {})[d] = int(g)
    for name, path in runs.items():
        run: dict[str, dict[str, float]] = {}
        for q, _, d, _, s, _ in _lines(path):
            run.setdefault(q, {})[d] = float(s)
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
        peer = np.mean([v["map"] for v in per_query.values()])
        assert ap[name] == pytest.approx(peer, abs=1e-12), name


def test_coordination_level_ties_massively_and_bm25_hardly():
    runs = examples.cranfield_runs()
    coord = read_run(runs["coordination"])
    sizes = np.unique(np.column_stack([coord.qcodes, coord.scores]), axis=0, return_counts=True)
    assert np.median(sizes[1]) >= 10 and sizes[1].max() >= 200
    coordination, bm25 = tie_ranges(
        examples.cranfield_qrels(), [runs["coordination"], runs["bm25"]], ["AP"]
    )
    c, b = coordination.summary()[0], bm25.summary()[0]
    assert c["tied"] == 225 and c["rel_tied"] >= 200
    assert c["worst"] < c["expected"] < c["best"] and c["range"] > 0.1
    assert b["range"] < 1e-3


@pytest.mark.slow
def test_the_script_regenerates_the_files_byte_for_byte(tmp_path):
    if not has_dev_extra():
        pytest.skip(NO_DEV)
    src = source()
    if src is None:
        pytest.skip(NO_SOURCE)
    written = load().make(src, tmp_path)
    rel = sorted(str(p.relative_to(tmp_path)) for p in written)
    folder = examples.path("cranfield")
    shipped = sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".txt", ".gz")
    )
    assert rel == shipped
    for r in rel:
        new, old = (tmp_path / r).read_bytes(), (folder / r).read_bytes()
        if r.endswith(".gz"):  # zlib builds may differ in the compressed bytes, not the text
            assert new[4:8] == b"\0\0\0\0" and new[3] & 0x08 == 0  # no time stamp, no name
            new, old = gzip.decompress(new), gzip.decompress(old)
        assert new == old, r


def test_the_shipped_files_are_small():
    folder = examples.path("cranfield")
    files = [folder / "qrels.txt", *examples.cranfield_runs().values()]
    assert sum(p.stat().st_size for p in files) < 2**20  # compressed runs: 590 KB in all
    assert (folder / "README.md").is_file()  # the provenance travels with the files


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel built from this checkout's sources (once for the module's tests)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("maturin", reason="building the wheel needs maturin (the test extra)")
    if shutil.which("cargo") is None:
        pytest.skip("building the wheel needs the Rust toolchain (cargo)")
    repo = Path(__file__).resolve().parents[2]
    tmp_path = tmp_path_factory.mktemp("wheel")
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "_core*.so", "_core*.pyd", "target")
    shutil.copytree(repo / "src", tree / "src", ignore=ignore)
    shutil.copytree(repo / "rust", tree / "rust", ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(repo / name, tree / name)
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(tmp_path / "dist"), str(tree)],
        capture_output=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr.decode()[-2000:]
    (built,) = (tmp_path / "dist").glob("cranfield-*.whl")
    return built


@pytest.mark.slow
def test_a_wheel_ships_the_collection_and_the_demo_reads_it(tmp_path, wheel):
    """Unpack the wheel, and run the demo and the accessors from it, with nothing of the
    checkout on the path."""
    import os
    import subprocess
    import sys
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    for want in ("qrels.txt", "README.md", *(f"runs/{n}.txt.gz" for n in examples.CRANFIELD_RUNS)):
        assert f"cranfield/examples/cranfield/{want}" in names, want
    for want in ("py.typed", "render/templates/report.html.j2", "render/assets/report.css"):
        assert f"cranfield/{want}" in names, want
    assert any(n.startswith("cranfield/_core.") for n in names), "the compiled core"
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    code = (
        "import cranfield, cranfield.examples as e\n"
        f"assert cranfield.__file__.startswith({str(site)!r}), cranfield.__file__\n"
        "q, runs = e.cranfield_qrels(), e.cranfield_runs()\n"
        f"assert str(q).startswith({str(site)!r})\n"
        "print(round(cranfield.evaluate(q, runs['bm25'], ['AP']).aggregate()['AP'], 4))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr.decode()
    want = cranfield.evaluate(examples.cranfield_qrels(), examples.cranfield_runs()["bm25"], "AP")
    assert proc.stdout.decode().strip() == str(round(want.aggregate()["AP"], 4))
    demo = subprocess.run(
        [sys.executable, "-m", "cranfield", "demo"], cwd=tmp_path, env=env, capture_output=True,
        timeout=600,
    )  # fmt: skip
    assert demo.returncode == 0 and demo.stderr == b"", demo.stderr.decode()
    rows = [line.split() for line in demo.stdout.decode().splitlines()]
    assert [r[0] for r in rows if r and r[0] in examples.CRANFIELD_RUNS] == list(
        examples.CRANFIELD_RUNS
    )
    assert all(r[1] == "225" for r in rows if r and r[0] in examples.CRANFIELD_RUNS)


@pytest.mark.slow
def test_a_wheel_ships_the_docs_and_cranfield_docs_reads_them(tmp_path, wheel):
    """The help texts' ``cranfield docs X`` works for an installed wheel: install it in a fresh
    virtual environment (the dependencies from the system's site-packages), then ``cranfield
    docs`` lists every page of the checkout's docs/ and ``cranfield docs scale`` prints
    docs/scale.md byte for byte, read from the installed package."""
    import os
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    pages = sorted(p.name for p in (repo / "docs").glob("*.md"))
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n in names if n.startswith("docs/")] == []  # nothing at site-packages' top
    assert sorted(n.split("/")[-1] for n in names if n.startswith("cranfield/docs/")) == pages
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True, timeout=600,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr.decode()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CRANFIELD_SHARED")}
    where = subprocess.run(
        [python, "-c", "import cranfield; print(cranfield.__file__)"],
        cwd=tmp_path, env=env, capture_output=True, check=True,
    )  # fmt: skip
    assert where.stdout.decode().startswith(str(venv)), where.stdout
    cli = venv / "bin" / "cranfield"
    shown = subprocess.run([cli, "docs", "scale"], cwd=tmp_path, env=env, capture_output=True)
    assert (shown.returncode, shown.stderr) == (0, b""), shown.stderr.decode()
    assert shown.stdout == (repo / "docs" / "scale.md").read_bytes()
    listed = subprocess.run([cli, "docs"], cwd=tmp_path, env=env, capture_output=True)
    assert listed.returncode == 0, listed.stderr.decode()
    assert [x.split()[0] for x in listed.stdout.decode().splitlines()[: len(pages)]] == [
        p.removesuffix(".md") for p in pages
    ]
