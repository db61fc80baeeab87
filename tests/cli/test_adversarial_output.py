"""Every command whose output goes to standard output, against standard outputs that fail: the
adversarial suite of the output side (``test_adversarial_commands`` is the input side).

Each command writes to a real subprocess's standard output, which is a regular file under a
file size limit (``RLIMIT_FSIZE`` with SIGXFSZ ignored, as ``ulimit -f`` in a shell leaves it:
writes past the limit fail with EFBIG, and the write that crosses it is cut short), ``/dev/full``
(ENOSPC), a small file system that fills up midway (ENOSPC after a short write; where user
namespaces allow mounting one: conftest's ``mount_namespace``), a closed pipe (EPIPE) or a pipe
left non-blocking by another program (EAGAIN).  The limits cut the output in the middle and in
its last byte, with Python's standard output unbuffered (``PYTHONUNBUFFERED``, ``python -u``: a
short write's count was dropped by the text stream, and a cut output ended with status 0) and
buffered.

Whatever fails, the command ends with status 2 and one ``cranfield: error:`` line, and what
reached the file is a prefix of the whole output; a closed pipe ends quietly with status 0; a
slow non-blocking pipe gets every byte.  The table of commands must name every command of the
CLI and every ``evaluate --format``, so that a new one is tried too.
"""

from __future__ import annotations

import ast
import errno
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

# ------------------------------------------------------------------------------ inputs
QUERIES, JUDGED, RANKED = 12, 8, 40
BIG_QUERIES = 400  # trec_eval -q -m all_trec: about 1.5 MiB of output, two pieces


def _collection(queries: int, seed: int) -> tuple[str, str, str]:
    """qrels and two runs in which every query is judged and ranked (no warnings)."""
    rng = random.Random(seed)
    qrels, run, other = [], [], []
    for q in range(1, queries + 1):
        docs = [f"d{n}" for n in rng.sample(range(1000), RANKED)]
        for d in rng.sample(docs, JUDGED):
            qrels.append(f"q{q} 0 {d} {rng.randint(0, 2)}\n")
        for rank, d in enumerate(docs, 1):
            run.append(f"q{q} Q0 {d} {rank} {RANKED - rank}.5 a\n")
        for rank, d in enumerate(reversed(docs), 1):
            other.append(f"q{q} Q0 {d} {rank} {RANKED - rank}.25 b\n")
    return "".join(qrels), "".join(run), "".join(other)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("outputs")
    paths = {}
    for suffix, queries, seed in (("", QUERIES, 1), ("_big", BIG_QUERIES, 2)):
        for name, text in zip(("qrels", "run", "other"), _collection(queries, seed), strict=True):
            path = d / f"{name}{suffix}.txt"
            path.write_text(text)
            paths[f"{name}{suffix}"] = str(path)
    sampled = d / "sampled.txt"  # the qrels as one stratum, every pair sampled
    judged = Path(paths["qrels"]).read_text().splitlines()
    sampled.write_text("".join(f"{q} {i} {doc} 1 {g}\n" for q, i, doc, g in map(str.split, judged)))
    paths["sampled"] = str(sampled)
    perturbed = d / "perturbed.txt"  # a second judgment set: every third grade moved by one
    perturbed.write_text(
        "".join(
            f"{q} {i} {doc} {(int(g) + 1) % 3 if n % 3 == 0 else g}\n"
            for n, (q, i, doc, g) in enumerate(map(str.split, judged))
        )
    )
    paths["perturbed"] = str(perturbed)
    expected = d / "expected.yaml"  # every check OK: AP and P@10 are within 1 of 0.5
    expected.write_text(
        "qrels: qrels.txt\ntolerance: 1\nokish: 1\nruns:\n"
        + "".join(
            f"  - run: {r}.txt\n    expected: {{AP: 0.5, P@10: 0.5}}\n" for r in ("run", "other")
        )
    )
    paths["expected"] = str(expected)
    suite = d / "suite.yaml"  # two datasets of the same collection, run and other as systems
    suite.write_text(
        "measure: P@10\ndatasets:\n"
        + "".join(
            f"  {n}:\n    qrels: qrels.txt\n    runs: {{a: run.txt, b: other.txt}}\n"
            for n in ("one", "two")
        )
    )
    paths["suite"] = str(suite)
    nuggets = d / "nuggets.jsonl"  # two runs' nugget assignments, every label on every query
    labels = [(i, s) for i in ("vital", "okay") for s in ("support", "partial_support", "no")]
    nuggets.write_text(
        "".join(
            f'{{"qid": "q{q}", "run_id": "{run}", "nuggets": ['
            + ", ".join(
                f'{{"importance": "{i}", "assignment": "{s if s != "no" else "not_support"}"}}'
                for i, s in labels[: 1 + (q * k) % len(labels)]
            )
            + "]}\n"
            for q in range(1, QUERIES + 1)
            for k, run in enumerate(("a", "b"), 2)
        )
    )
    paths["nuggets"] = str(nuggets)
    paths["dir"] = str(d)
    return paths


# ------------------------------------------------------------------------------ commands
EVALUATE = ["evaluate", "{qrels}", "{run}", "{other}", "-q", "-m", "AP", "-m", "nDCG@10"]
FORMATS = ("table", "trec", "json", "csv", "tsv", "markdown", "latex")
CASES: dict[str, list[str]] = {
    **{f"evaluate -f {f}": [*EVALUATE, "-f", f] for f in FORMATS},
    "evaluate -o -": [*EVALUATE, "-f", "json", "-o", "-"],
    "evaluate 400 queries": ["evaluate", "{qrels_big}", "{run_big}", "{other_big}", "-qf", "json"],
    "evaluate weak": [*EVALUATE, "--ties", "weak"],
    "compare": ["compare", "{qrels}", "{run}", "{other}", "-m", "AP", "--test", "t"],
    "compare -f json": ["compare", "{qrels}", "{run}", "{other}", "-m", "AP", "-f", "json"],
    "curve pr": ["curve", "pr", "{qrels}", "{run}", "{other}", "--per-query"],
    "curve gain": ["curve", "gain", "{qrels}", "{run}", "-f", "csv"],
    "curve fallout": ["curve", "fallout", "{qrels}", "{run}", "--collection-size", "1000"],
    "ties": ["ties", "{qrels}", "{run}", "{other}", "--per-query", "-f", "json"],
    "report": ["report", "{qrels}", "{run}", "{other}", "-m", "AP"],
    "report -o -": ["report", "{qrels}", "{run}", "{other}", "-m", "AP", "-o", "-"],
    "trec_eval": ["trec_eval", "-q", "-m", "all_trec", "{qrels}", "{run}"],
    "trec_eval over 1 MiB": ["trec_eval", "-q", "-m", "all_trec", "{qrels_big}", "{run_big}"],
    "anova": ["anova", "{qrels}", "{run}", "{other}", "-m", "AP", "-m", "nDCG@10"],
    "design": ["design", "{qrels}", "{run}", "{other}", "-m", "AP", "--min-diff", "0.05"],
    "meta": ["meta", "{qrels}", "{run}", "{other}", "-m", "AP", "--samples", "200"],
    "holes": ["holes", "{qrels}", "{run}", "{other}", "--depth", "10"],
    "inferred": ["inferred", "{sampled}", "{run}", "{other}", "-q"],
    "leaderboard": ["leaderboard", "{qrels}", "{qrels}", "-r", "{run}", "{other}", "-m", "AP"],
    "judges": ["judges", "{qrels}", "{perturbed}", "-l", "1"],
    "verify": ["verify", "{expected}"],
    "suite": ["suite", "{suite}"],
    "nuggets": ["nuggets", "{nuggets}", "-q"],
    "nuggets --compare": ["nuggets", "{nuggets}", "--compare", "-f", "json"],
    "nuggets --report -": ["nuggets", "{nuggets}", "--report", "-"],
    "repro": [
        "repro",
        "--orig-baseline",
        "{run}",
        "--orig-advanced",
        "{other}",
        "--rep-baseline",
        "{other}",
        "--rep-advanced",
        "{run}",
        "{qrels}",
        "-m",
        "AP",
    ],
    "measures": ["measures"],
    "measures --short": ["measures", "--short"],
    "measures json": ["measures", "--format", "json"],
    "demo": ["demo"],
    "docs": ["docs"],
    "docs scale": ["docs", "scale"],
    "--help": ["--help"],
    "evaluate --help": ["evaluate", "--help"],
    "--version": ["--version"],
}
NAMES = list(CASES)
LARGE = ["evaluate 400 queries", "measures json", "trec_eval over 1 MiB"]  # over 64 KiB


def test_the_table_names_every_command_and_format():
    from cranfield.cli import COMMANDS
    from cranfield.render.results_text import FORMATS as EVALUATE_FORMATS

    named = {argv[0] for argv in CASES.values()}
    assert set(COMMANDS) <= named, set(COMMANDS) - named
    assert set(FORMATS) == set(EVALUATE_FORMATS)


def _argv(name: str, inputs: dict[str, str]) -> list[str]:
    return [sys.executable, "-m", "cranfield", *(a.format(**inputs) for a in CASES[name])]


def _env(unbuffered: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _limit_file_size(limit: int):
    def setup() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return setup


def _run_to_file(argv, path: Path, *, unbuffered=True, limit=None) -> tuple[int, str]:
    """Run with standard output a new regular file ``path``: (status, stderr)."""
    with open(path, "wb") as out:
        proc = subprocess.run(
            argv,
            env=_env(unbuffered),
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=None if limit is None else _limit_file_size(limit),
            timeout=600,
        )
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


_WHOLE: dict[str, bytes] = {}


def _whole(name: str, inputs, tmp_path) -> bytes:
    """The command's whole output, written to a file without a limit (once per command)."""
    if name not in _WHOLE:
        path = tmp_path / "whole.out"
        code, err = _run_to_file(_argv(name, inputs), path)
        assert (code, err) == (0, ""), err
        _WHOLE[name] = path.read_bytes()
        assert len(_WHOLE[name]) >= 2  # room for a cut
    return _WHOLE[name]


def _one_error(err: str, reason: str) -> None:
    assert err.splitlines() == [f"cranfield: error: cannot write to standard output: {reason}"]


# ------------------------------------------------------------------------------ limits
@pytest.mark.parametrize(
    ("cut", "unbuffered"),
    [("middle", True), ("last byte", True), ("last byte", False)],
    ids=["middle-unbuffered", "last byte-unbuffered", "last byte-buffered"],
)
@pytest.mark.parametrize("name", NAMES)
def test_a_file_size_limit_never_ends_with_status_0(inputs, tmp_path, name, cut, unbuffered):
    """``(ulimit -f N; cranfield ... > out)``: status 2, one error line, and the file holds the
    first N bytes of the output.  The last byte's cut falls in the last write (trec_eval's
    last 1 MiB piece), the one whose short count nothing else would notice."""
    whole = _whole(name, inputs, tmp_path)
    limit = len(whole) // 2 if cut == "middle" else len(whole) - 1
    out = tmp_path / "cut.out"
    code, err = _run_to_file(_argv(name, inputs), out, unbuffered=unbuffered, limit=limit)
    assert code == 2, (code, err)
    _one_error(err, os.strerror(errno.EFBIG))
    assert out.read_bytes() == whole[:limit]


def test_trec_eval_output_is_written_in_pieces_and_the_big_one_has_two(inputs, tmp_path):
    """The cases above cut trec_eval's output in its only piece and in the last of two."""
    from cranfield.compat.trec_eval.engine import OUTPUT_BYTES

    assert len(_whole("trec_eval", inputs, tmp_path)) < OUTPUT_BYTES
    assert OUTPUT_BYTES < len(_whole("trec_eval over 1 MiB", inputs, tmp_path)) < 2 * OUTPUT_BYTES


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("name", NAMES)
def test_a_full_device_is_an_error(inputs, name):
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            _argv(name, inputs), env=_env(True), stdout=full, stderr=subprocess.PIPE, timeout=600
        )
    assert proc.returncode == 2
    _one_error(proc.stderr.decode(), os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("name", NAMES)
def test_a_closed_pipe_ends_quietly(inputs, name):
    """EPIPE (``cranfield ... | head`` after head has gone): status 0, nothing on stderr, as
    docs/cli.md says; the reader is gone before anything is written."""
    proc = subprocess.Popen(
        _argv(name, inputs), env=_env(True), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=600) == 0, err
    assert err == ""


@pytest.mark.parametrize("name", LARGE)
def test_a_non_blocking_pipe_gets_every_byte(inputs, tmp_path, name):
    """A pipe another program left non-blocking (O_NONBLOCK is shared by every process that
    holds the pipe): a write that finds it full fails with EAGAIN, which an unbuffered stream
    dropped.  The output is longer than the pipe holds, so the writer meets a full pipe
    whatever the reader's speed; every byte must arrive, with status 0."""
    whole = _whole(name, inputs, tmp_path)
    assert len(whole) > 1 << 16  # more than a Linux pipe holds
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        proc = subprocess.Popen(_argv(name, inputs), env=_env(True), stdout=w)
    finally:
        os.close(w)
    with os.fdopen(r, "rb") as reader:
        got = reader.read()
    assert proc.wait(timeout=600) == 0
    assert got == whole


# ------------------------------------------------------------------------------ a full disk
@pytest.mark.parametrize("name", LARGE)
def test_a_file_system_that_fills_up_midway_is_an_error(inputs, tmp_path, mount_namespace, name):
    """ENOSPC after a short write (a real disk filling up, not /dev/full, which refuses the
    first byte)."""
    import shlex

    whole = _whole(name, inputs, tmp_path)
    small = tmp_path / "small"
    small.mkdir()
    out = small / "out"
    command = f"{shlex.join(_argv(name, inputs))} > {out}; echo $? >&2; wc -c < {out} >&2"
    mount = f"mount -t tmpfs -o size=16k cranfield-test {small}"
    proc = mount_namespace(f"{mount} && {command}", _env(True))
    *err, status, size = proc.stderr.decode().splitlines()
    assert int(status) == 2 and 0 < int(size) < len(whole), (status, size)
    _one_error("\n".join(err), os.strerror(errno.ENOSPC))


# ------------------------------------------------------------------------------ one writer
ALLOWED = {
    "cli/_output.py": "the one checked writer",
    # the developers' scripts (python -m cranfield.measures.families, ...)
    "examples/generate.py": "writes the example collection, says which files",
    "measures/families.py": "writes the measures' index, says where",
    "render/generated_docs.py": "rewrites the docs tables, says which",
    "render/peer_names.py": "rewrites docs/peers.md, says so",
}


def test_nothing_writes_to_standard_output_but_the_checked_writer():
    """``print`` and ``sys.stdout`` anywhere else in the package would write past the checks
    (a short write dropped, a failure with status 0); only the developers' scripts may."""
    src = REPO / "src" / "cranfield"
    found = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel in ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                found.append(f"{rel}:{node.lineno}: print")
            stream = isinstance(node, ast.Attribute) and node.attr in ("stdout", "__stdout__")
            if stream and getattr(node.value, "id", None) == "sys":
                found.append(f"{rel}:{node.lineno}: sys.{node.attr}")
    assert found == []
