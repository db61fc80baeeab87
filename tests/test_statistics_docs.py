"""The worked example of docs/statistics.md, run: every ``$ cranfield ...`` block on the page
is the command's output, byte for byte, on the Cranfield collection of the reference data."""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys

import pytest

from conftest import DATA, REPO, need, run_cli

RUNS = "cran/runs/bm25.txt.gz cran/runs/tfidf.txt.gz cran/runs/coordination.txt.gz"


def _blocks() -> list[tuple[str, str]]:
    text = (REPO / "docs" / "statistics.md").read_text(encoding="utf-8")
    out = []
    for body in re.findall(r"```\n(\$ cranfield .*?)```\n", text, flags=re.S):
        command, _, output = body.partition("\n")
        out.append((command[len("$ cranfield ") :], output))
    return out


def test_the_page_has_its_worked_example():
    commands = [c.split()[0] for c, _ in _blocks()]
    assert commands == ["evaluate", "anova", "compare", "compare", "design", "meta"]


@pytest.mark.slow
def test_worked_example_outputs_are_what_the_commands_print(tmp_path):
    need(DATA / "cran")
    for module in ("bm25s", "Stemmer"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"the worked example's runs need {module} (pip install -e '.[dev]')")
    made = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_cranfield_runs.py"), str(DATA / "cran"),
         "--out", str(tmp_path / "cran")],
        capture_output=True,
        timeout=600,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr.decode()
    for command, expected in _blocks():
        args = shlex.split(command.replace("$RUNS", RUNS))
        out = run_cli(*args, cwd=tmp_path)
        assert out.returncode == 0, out.stderr.decode()
        assert out.stdout.decode() == expected, command
