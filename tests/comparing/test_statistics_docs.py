"""The worked example of docs/statistics.md, run: every ``$ cranfield ...`` block on the page
is the command's output, byte for byte, on the Cranfield collection shipped with the package
(its qrels as qrels.txt, its runs under runs/, as the page copies them)."""

from __future__ import annotations

import re
import shlex
import shutil

import pytest

from conftest import REPO, run_cli
from cranfield import examples


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
    shutil.copy(examples.cranfield_qrels(), tmp_path / "qrels.txt")
    shutil.copytree(examples.path("cranfield/runs"), tmp_path / "runs")
    for command, expected in _blocks():
        args = shlex.split(command)
        out = run_cli(*args, cwd=tmp_path)
        assert out.returncode == 0, out.stderr.decode()
        assert out.stdout.decode() == expected, command
