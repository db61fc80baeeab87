"""docs/judgments.md: its table of statistics is the registry's, and its worked example is
what the command prints today (on the Cranfield qrels shipped with the package, as qrels.txt)."""

from __future__ import annotations

import re
import shutil

from conftest import REPO
from cranfield import examples
from cranfield.judgments.statistics import markdown_table

DOC = REPO / "docs" / "judgments.md"


def test_statistics_table_is_current():
    text = DOC.read_text()
    start = text.index("<!-- generated: cranfield.judgments.statistics.markdown_table() -->\n")
    body = text[text.index("\n", start) + 1 : text.index("<!-- end generated -->")]
    assert body == markdown_table(), "regenerate the table of docs/judgments.md"


def test_worked_example_is_what_the_command_prints(cli, tmp_path, monkeypatch):
    text = DOC.read_text()
    script = re.search(r"```python\n(import random\n.*?)```", text, re.S).group(1)
    block = re.search(r"```\n\$ cranfield (judges [^\n]*)\n(.*?)```", text, re.S)
    work = tmp_path
    shutil.copy(examples.cranfield_qrels(), work / "qrels.txt")
    monkeypatch.chdir(work)
    exec(compile(script, "docs/judgments.md", "exec"), {})
    out = cli(*block.group(1).split(), cwd=work)
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode() == block.group(2)
    assert (work / "cran.png").read_bytes()[:4] == b"\x89PNG"
