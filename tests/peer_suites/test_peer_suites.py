"""The peers' own test suites run against cranfield's work-alikes.

Give the path of a checkout (kept outside this repository, never committed) in an environment
variable; each test is skipped, with the reason, when it is not given:

- ``CRANFIELD_PYTREC_EVAL_SUITE``: pytrec_eval's repository (``tests/pytrec_eval_tests.py``
  and ``trec_eval/test``, trec_eval 9.0.8's test files, from its submodule);
- ``CRANFIELD_IR_MEASURES_SUITE``: ir_measures' repository (``tests/``).

Their tests run in a subprocess whose ``import pytrec_eval`` / ``import ir_measures`` is the
work-alike (the packages under ``shim/``).  The outcome is compared with the one recorded in
docs/coming-from.md: the same tests pass, and the same (explained) ones fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"


def _suite(variable: str, needed: str) -> Path:
    given = os.environ.get(variable)
    if not given:
        pytest.skip(f"set {variable} to a checkout of the peer's repository to run its tests")
    root = Path(given)
    if not (root / needed).exists():
        pytest.fail(f"{variable}={given}: no {needed} there")
    return root


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE / "shim"), str(SRC)])}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_pytrec_evals_own_tests_pass_on_the_work_alike():
    root = _suite("CRANFIELD_PYTREC_EVAL_SUITE", "tests/pytrec_eval_tests.py")
    _suite("CRANFIELD_PYTREC_EVAL_SUITE", "trec_eval/test/out.test")
    check = _run(
        ["-c", "import pytrec_eval; print(pytrec_eval.RelevanceEvaluator.__module__)"], root
    )
    assert check.stdout.strip() == "cranfield.compat.pytrec_eval"
    # run as its authors do (unittest main adds the trec_eval comparisons)
    done = _run(["tests/pytrec_eval_tests.py", "-v"], root)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Ran 7 tests" in done.stderr and "OK" in done.stderr


IR_MEASURES_TESTS = [
    "tests/test_pytrec_eval.py",
    "tests/test_aggregate.py",
    "tests/test_measures.py::TestMeasures::test_P",
    "tests/test_util.py::TestUtil::test_parse_measure",
    "tests/test_util.py::TestUtil::test_parse_trec_measure",
    "tests/test_runtime.py",  # define, define_byquery
    "tests/test_accuracy.py",  # ir_measures.accuracy
    "tests/test_judged.py",  # ir_measures.judged
    "tests/test_compat.py",  # ir_measures.compat
]
IR_MEASURES_FAILING: set[str] = set()  # test_SetF passes since SetF is pytrec_eval's set_F


def test_ir_measures_own_tests_of_its_api_on_the_work_alike():
    root = _suite("CRANFIELD_IR_MEASURES_SUITE", "tests/test_pytrec_eval.py")
    check = _run(["-P", "-c", "import ir_measures; print(ir_measures.iter_calc.__module__)"], root)
    assert check.stdout.strip() == "cranfield.compat.ir_measures", check.stderr[-2000:]
    done = _run(
        [
            "-P",  # not the checkout's own ir_measures package (the work-alike is wanted)
            "-m",
            "pytest",
            "--import-mode=importlib",  # its tests/__init__.py would put the checkout first
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-rA",
            "-q",
            *IR_MEASURES_TESTS,
        ],
        root,
    )
    lines = done.stdout.splitlines()
    failed = {ln.split()[1] for ln in lines if ln.startswith(("FAILED ", "ERROR "))}
    passed = {ln.split()[1] for ln in lines if ln.startswith("PASSED ")}
    assert failed == IR_MEASURES_FAILING, done.stdout[-3000:]
    assert len(passed) == 24, done.stdout[-3000:]
    assert "SUBFAILED" not in done.stdout, done.stdout[-3000:]
