"""Every example in README.md and docs/*.md runs, so that a stale one fails the build.

The rules of a fenced block (they are stated in docs/index.md, "Examples that run"):

- ```` ```python ````: run, the page's Python blocks in order in one interpreter;
- ```` ```sh ```` (or no language): every line is a command for a POSIX shell (a line ending in
  ``\\`` continues); a block of ``$ command`` lines and their output is a transcript: each
  command runs and must print exactly the lines shown under it;
- ```` ```text ````, ```` ```json ````: not code (layouts, formats, shapes); not run;
- ``<!-- not run: REASON -->`` on the line before a fence: a block that cannot run here (it
  installs packages, needs the network, a Dask cluster, a SLURM queue); the reason is required.

The examples run in a folder holding the files they name: the Cranfield collection's qrels as
``qrels.txt`` (and ``qrels``), its BM25, TF-IDF and coordination-level runs under the names the
pages use (``run.txt``, ``a.run``, ``bm25.txt``, ``runs/*.txt``, ``runs/*.run``, and
``runs/*.txt.gz`` as the package ships them...), a preferences file, Raghavan's worked example
in ``raghavan/``, cranfield verify's ``expected.yaml`` (naming ``qrels.txt`` and
``runs/*.txt.gz``), and the judgment sets of docs/judgments.md and the README: ``human.qrels``
(the Cranfield qrels), ``perturbed.qrels`` and ``llm.qrels`` (the page's perturbed copy, seed
7), ``binary.qrels`` and ``strict.txt`` (grade >= 3 is 1), ``nine/`` (the three runs whole and
cut to ranks 5 and 20), ``pool5.txt`` (the judgments of the depth-5 pool of BM25 and TF-IDF)
``sampled.qrels`` (a stratified sample of their depth-20 pool, 5 columns),
``cranfield-suite/`` (docs/suites.md's suite, ``write_cranfield_suite``) and the nugget
assignments of docs/nuggets.md in ``nuggets/`` (the bundled ones), each made as
the page makes it, so that no block depends on another having run (the blocks may run in any
order, in separate sandboxes under ``-n``). ``cranfield`` on the PATH is this checkout's.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO
from cranfield import examples
from cranfield.examples.suite import write_cranfield_suite

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"<!--\s*not run:\s*(\S.*?)\s*-->")
FENCE = re.compile(r"^```(\S*)\s*$")
LANGUAGES = {"python": "python", "sh": "sh", "": "sh", "text": None, "json": None}

# the run files the pages name, and the Cranfield run each one is
RUN_NAMES = {
    "bm25": ["run.txt", "run", "run1.txt", "run1", "a.run", "a.txt", "bm25.txt", "bm25.run",
             "run_b.txt"],
    "tfidf": ["run2.txt", "run2", "b.run", "b.txt", "dense.txt", "dense.run"],
    "coordination": ["c.run", "hybrid.run"],
}  # fmt: skip


@dataclass
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    language: str | None
    text: str
    not_run: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        before = NOT_RUN.search(lines[i - 1]) if i else None
        language = m.group(1)
        assert language in LANGUAGES, f"{page.name}:{i + 1}: unknown language {language!r}"
        out.append(
            Block(page, i + 1, LANGUAGES[language], "\n".join(lines[i + 1 : end]) + "\n",
                  before.group(1) if before else None)
        )  # fmt: skip
        i = end + 1
    return out


ALL = [b for page in PAGES for b in blocks(page)]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The folder the examples run in, and the environment that finds this checkout."""
    root = tmp_path_factory.mktemp("docs")
    qrels = examples.cranfield_qrels()
    for name in ("qrels.txt", "qrels"):
        shutil.copy(qrels, root / name)
    runs = examples.cranfield_runs()
    (root / "runs").mkdir()
    for model, path in runs.items():
        text = gzip.decompress(path.read_bytes())
        for name in RUN_NAMES[model]:
            (root / name).write_bytes(text)
        for suffix in (".txt", ".run"):
            (root / "runs" / f"{model}{suffix}").write_bytes(text)
    shutil.copy(runs["bm25"], root / "run.txt.gz")
    for model, path in runs.items():  # as the package ships them
        shutil.copy(path, root / "runs" / f"{model}.txt.gz")
    _judgment_sets(root, qrels)
    _leaderboard_example(root)
    _pool5(root)
    _sampled(root)
    write_cranfield_suite(root / "cranfield-suite")  # docs/suites.md's suite
    prefs = [line.split() for line in qrels.read_text().splitlines()]
    (root / "prefs.txt").write_text(
        "".join(f"{q} 0 0 {d} {g}\n" for q, _, d, g in prefs if int(g) >= 0)
    )
    shutil.copytree(examples.path("papers/raghavan"), root / "raghavan")
    shutil.copy(examples.path("cranfield/expected.yaml"), root / "expected.yaml")  # verify.md
    shutil.copytree(examples.path("nuggets"), root / "nuggets")  # docs/nuggets.md's files
    bin_dir = root / ".bin"
    bin_dir.mkdir()
    script = bin_dir / "cranfield"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cranfield "$@"\n')
    script.chmod(0o755)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["PATH"] = f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["MPLBACKEND"] = "Agg"
    env.pop("COLUMNS", None)
    return root, env


def _perturbed(qrels: Path, out: Path) -> None:
    """docs/judgments.md's copy of the qrels: 30% of the grades moved one step (a negative
    grade, no judgment, stays), 5% of the lines lost, seed 7 (the page's script)."""
    import random

    rng = random.Random(7)
    with open(qrels) as f, open(out, "w") as w:
        for line in f:
            q, it, d, g = line.split()
            g = int(g)
            if g >= 0 and rng.random() < 0.3:
                g = max(1, min(4, g + rng.choice((-1, 1))))
            if rng.random() < 0.05:
                continue
            w.write(f"{q} {it} {d} {g}\n")


def _judgment_sets(root: Path, qrels: Path) -> None:
    """Judgment sets of docs/judgments.md and the README: human.qrels (Cranfield's qrels),
    llm.qrels and perturbed.qrels (its perturbed copy), binary.qrels (grade >= 3 is 1)."""
    shutil.copy(qrels, root / "human.qrels")
    _perturbed(qrels, root / "perturbed.qrels")
    shutil.copy(root / "perturbed.qrels", root / "llm.qrels")
    rows = [line.split() for line in qrels.read_text().splitlines()]
    (root / "binary.qrels").write_text(
        "".join(f"{q} {it} {d} {int(int(g) >= 3)}\n" for q, it, d, g in rows)
    )


def _leaderboard_example(root: Path) -> None:
    """docs/judgments.md's leaderboard example: strict.txt (grade >= 3 is 1, as its awk) and
    nine/: the three runs whole and cut to their first 5 and 20 ranks (as its loop)."""
    rows = [line.split() for line in (root / "qrels.txt").read_text().splitlines()]
    (root / "strict.txt").write_text(
        "".join(f"{q} {it} {d} {int(int(g) >= 3)}\n" for q, it, d, g in rows)
    )
    (root / "nine").mkdir()
    for model in examples.CRANFIELD_RUNS:
        gz = root / "runs" / f"{model}.txt.gz"
        shutil.copy(gz, root / "nine" / gz.name)
        lines = gzip.decompress(gz.read_bytes()).decode().splitlines(keepends=True)
        for k in (5, 20):
            (root / "nine" / f"{model}-top{k}.txt").write_text(
                "".join(x for x in lines if int(x.split()[3]) <= k)
            )


def _pool5(root: Path) -> None:
    """docs/judgments.md's pool5.txt: the qrels of the documents BM25 or TF-IDF rank in their
    first 5 (its Python block)."""
    from cranfield import read_qrels
    from cranfield.judgments.holes import holes

    pool = holes(root / "qrels.txt", [root / "runs/bm25.txt.gz", root / "runs/tfidf.txt.gz"],
                 depth=5).pool  # fmt: skip
    full = read_qrels(root / "qrels.txt").to_dict()
    (root / "pool5.txt").write_text(
        "".join(
            f"{q} 0 {d} {g}\n"
            for q, docs in full.items()
            for d, g in docs.items()
            if d in pool.get(q, ())
        )
    )


def _sampled(root: Path) -> None:
    """docs/judgments.md's sampled.qrels (qid iter docno stratum grade): the first 20 documents
    of BM25 and TF-IDF; stratum 1 (their first 5) judged whole, 30% of stratum 2 sampled (seed
    0), grade -1 where not sampled, 0 for a sampled document the qrels do not list (its Python
    block)."""
    import random

    from cranfield import read_qrels
    from cranfield.judgments.holes import holes

    runs = [root / "runs/bm25.txt.gz", root / "runs/tfidf.txt.gz"]
    full = read_qrels(root / "qrels.txt").to_dict()
    top5 = holes(root / "qrels.txt", runs, depth=5).pool
    top20 = holes(root / "qrels.txt", runs, depth=20).pool
    rng = random.Random(0)
    lines = []
    for q in sorted(top20, key=int):
        for d in sorted(top20[q], key=int):
            stratum = 1 if d in top5.get(q, ()) else 2
            sampled = stratum == 1 or rng.random() < 0.3
            g = max(full.get(q, {}).get(d, 0), 0) if sampled else -1
            lines.append(f"{q} 0 {d} {stratum} {g}\n")
    (root / "sampled.qrels").write_text("".join(lines))


def _commands(text: str) -> list[str]:
    """The shell commands of a block (continued lines joined)."""
    out, current = [], ""
    for line in text.splitlines():
        current += line[:-1] + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            if current.strip():
                out.append(current)
            current = ""
    return out


def _run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", command], cwd=cwd, env=env, capture_output=True, timeout=600)


def test_the_pages_have_examples_and_every_skip_says_why():
    assert len(ALL) >= 25
    for b in ALL:
        if b.not_run is not None:
            assert len(b.not_run) >= 10, f"{b.where}: say why the block is not run"


RUNNABLE = [b for b in ALL if b.language is not None and b.not_run is None]


@pytest.mark.slow
@pytest.mark.parametrize(
    "block", [b for b in RUNNABLE if b.language == "sh"], ids=lambda b: b.where
)
def test_shell_examples_run(block, sandbox):
    root, env = sandbox
    lines = block.text.splitlines()
    if any(line.startswith("$ ") for line in lines):  # a transcript: commands and output
        i = 0
        while i < len(lines):
            assert lines[i].startswith("$ "), f"{block.where}: output before a command"
            command = lines[i][2:]
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ "):
                j += 1
            done = _run(command, root, env)
            assert done.returncode == 0, (block.where, command, done.stderr.decode())
            assert done.stdout.decode().splitlines() == lines[i + 1 : j], (block.where, command)
            i = j
        return
    for command in _commands(block.text):
        done = _run(command, root, env)
        assert done.returncode == 0, (block.where, command, done.stderr.decode()[-2000:])
        assert b"Traceback" not in done.stderr, (block.where, command)


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    sorted({b.page for b in RUNNABLE if b.language == "python"}),
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_python_examples_run(page, sandbox, tmp_path):
    root, env = sandbox
    code = [b for b in RUNNABLE if b.page == page and b.language == "python"]
    program = "\n".join(
        f"# --- {b.where}\nexec(compile({b.text!r}, {b.where!r}, 'exec'))" for b in code
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=root, env=env, capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
