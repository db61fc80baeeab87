"""Rules of the test suite itself: no assertion on wall-clock time (a loaded machine must not
fail a test), and the reference data found only where README.md says."""

from __future__ import annotations

import ast
from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic", "monotonic_ns",
          "process_time", "process_time_ns"}  # fmt: skip
TIMEIT = {"timeit", "repeat", "default_timer"}
BENCHMARK = "benchmark"  # pytest-benchmark's fixture: its .stats are timings


def _is_clock(node: ast.AST) -> bool:
    """``time.perf_counter()``, ``time.time()``... (the module's clocks, however imported)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
    if owner == "timeit" or (owner == "" and name in TIMEIT):
        return name in TIMEIT  # timeit.timeit(...), timeit.repeat(...), timeit.default_timer()
    return name in CLOCKS and owner in ("time", "")


def _key(node: ast.AST) -> str:
    """A name, or an attribute by its name alone (``self.seconds`` set, ``o.seconds`` read)."""
    return f".{node.attr}" if isinstance(node, ast.Attribute) else ast.unparse(node)


def clock_assertions(source: str) -> list[int]:
    """Lines of ``assert`` statements that read a clock, directly or through a name (or
    attribute) assigned from an expression that reads one."""
    tree = ast.parse(source)
    timed: set[str] = set()
    for node in ast.walk(tree):
        assigns = isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value
        if assigns and any(_is_clock(n) for n in ast.walk(node.value)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            timed |= {_key(t) for t in targets}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert)
        and (
            any(_is_clock(n) for n in ast.walk(node.test))
            or any(
                isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id == BENCHMARK
                for n in ast.walk(node.test)
            )
            or any(
                _key(n) in timed
                for n in ast.walk(node.test)
                if isinstance(n, ast.Name | ast.Attribute)
            )
        )
    ]


def test_the_check_finds_clock_assertions():
    assert clock_assertions(
        "import time\nt = time.perf_counter()\nassert time.perf_counter() - t < 2\n"
    ) == [3]
    assert clock_assertions("s = time.monotonic()\nassert s < 1\n") == [2]
    # an attribute, whatever object holds it
    assert clock_assertions("self.seconds = time.time() - x\nassert o.seconds < 10\n") == [2]
    assert clock_assertions("self.seconds = time.time() - x\nassert self.seconds < 10\n") == [2]
    assert clock_assertions("d = time.monotonic() + 30\nwhile time.monotonic() < d: pass\n") == []
    # timeit, however imported, and pytest-benchmark's timings
    assert clock_assertions("import timeit\nassert timeit.timeit(f, number=9) < 1\n") == [2]
    assert clock_assertions("t = timeit.default_timer()\nassert t - s < 1\n") == [2]
    assert clock_assertions("from timeit import repeat\nassert min(repeat(f)) < 1\n") == [2]
    assert clock_assertions("benchmark(f)\nassert benchmark.stats['mean'] < 0.1\n") == [2]
    assert clock_assertions("assert benchmark(f) == 3\n") == []  # its result, not a time


def test_no_test_asserts_on_wall_clock_time():
    found = {
        p.name: lines
        for p in sorted(TESTS.rglob("*.py"))
        if (lines := clock_assertions(p.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_reference_data_is_looked_for_beside_the_checkout_only(tmp_path, monkeypatch):
    # an unrelated shared/ folder higher up is not the reference data
    (tmp_path / "shared" / "conformance").mkdir(parents=True)
    repo = tmp_path / "projects" / "cranfield"
    repo.mkdir(parents=True)
    monkeypatch.setattr(conftest, "REPO", repo)
    monkeypatch.delenv("CRANFIELD_SHARED", raising=False)
    assert conftest._find_shared() == tmp_path / "projects" / "shared"
    monkeypatch.setenv("CRANFIELD_SHARED", str(tmp_path / "elsewhere"))
    assert conftest._find_shared() == tmp_path / "elsewhere"


def _pytest_lines(script: str) -> list[str]:
    """The lines of a shell script that run pytest."""
    return [line for line in script.splitlines() if "pytest" in line and not line.startswith("#")]


def _deselects_slow(ci_lines: list[str], addopts: str) -> list[str]:
    """The pytest invocations (CI's, and pyproject's addopts) that select tests by marker or
    keyword: the slow tests are marked to be found, never to be skipped."""
    found = []
    for line in [*ci_lines, "pytest " + addopts]:
        words = line.split()
        options = words[words.index("pytest") + 1 :] if "pytest" in words else words
        if any(w in ("-m", "-k") or w.startswith(("-m=", "-k=")) for w in options):
            found.append(line)
    return found


def test_the_check_finds_deselected_slow_tests():
    assert _deselects_slow(["python -m pytest -n 2"], "-ra") == []
    assert _deselects_slow(["python -m pytest -n 2 -m 'not slow'"], "-ra") != []
    assert _deselects_slow(["python -m pytest -m=fast"], "-ra") != []
    assert _deselects_slow(["python -m pytest"], "-ra -m 'not slow'") != []
    assert _deselects_slow(["python -m pytest -k 'not slow'"], "") != []


def test_ci_runs_the_slow_tests():
    import tomllib

    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_config = config["tool"]["pytest"]["ini_options"]
    ci = _pytest_lines((TESTS.parent / ".ci" / "run").read_text(encoding="utf-8"))
    assert ci, "no pytest in .ci/run"
    assert _deselects_slow(ci, pytest_config.get("addopts", "")) == []
    assert "slow" in " ".join(pytest_config["markers"])
