"""The nugget scores are declared like measures (issue 30): each names the tests that check it,
and those tests exist; the docs table is generated from the declarations
(tests/measures/test_registry.py::test_generated_docs_tables_are_current checks it is current)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cranfield.nuggets.scores import SCORES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", list(SCORES))
def test_each_score_names_tests_that_exist(name):
    d = SCORES[name]
    assert d.checked_by, f"{name} names no test"
    for node in d.checked_by:
        path, _, function = node.partition("::")
        text = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(function)}\(", text, re.M), node


def test_the_docs_page_holds_every_declared_score():
    text = (ROOT / "docs" / "nuggets.md").read_text(encoding="utf-8")
    block = text[text.index("<!-- nugget-scores-table:begin -->") :]
    for name, d in SCORES.items():
        assert f"| `{name}` | {d.summary} |" in block
