"""The declarations of the statistics (cranfield.comparing.registry): complete, tested, the
one source of the options' choices, and in the generated docs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cranfield.comparing.registry import KINDS, STATISTICS, aliases, declared, lookup

ROOT = Path(__file__).resolve().parents[2]


def _defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("stat", STATISTICS, ids=lambda s: f"{s.kind}-{s.name}")
def test_every_declaration_is_complete_and_checked(stat):
    assert stat.kind in KINDS
    assert stat.title and stat.formula and stat.better and stat.degenerate
    if stat.name != "none":
        assert stat.source and stat.peer
    assert stat.checked_by
    for ref in stat.checked_by:
        file, _, func = ref.partition("::")
        path = ROOT / file
        assert path.is_file(), f"{stat.name}: {ref}: no such test file"
        assert func in _defined_tests(path), f"{stat.name}: {ref}: no such test"


def test_names_and_aliases_are_unique_per_kind():
    for kind in KINDS:
        names = [s.name for s in declared(kind)]
        assert len(names) == len(set(names)), kind
        al = aliases(kind)
        assert not set(al) & set(names), kind
        for a, name in al.items():
            assert lookup(kind, a).name == name


def test_the_options_offer_exactly_the_declared_choices():
    from cranfield.cli import compare as cli_compare
    from cranfield.comparing.corrections import CORRECTIONS
    from cranfield.comparing.differences import TESTS

    assert tuple(TESTS) == tuple(s.name for s in declared("test"))
    assert tuple(CORRECTIONS) == tuple(s.name for s in declared("correction"))
    assert tuple(TESTS) == cli_compare.TESTS
    assert tuple(CORRECTIONS) == cli_compare.CORRECTIONS


def test_every_statistic_is_in_the_generated_docs():
    from cranfield.render.generated_docs import blocks, current

    assert current(ROOT / "docs") == blocks(), (
        "a generated docs table is out of date: run "
        "`PYTHONPATH=src python -m cranfield.render.generated_docs docs`"
    )
    text = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    for s in STATISTICS:
        assert f"`{s.name}`" in text
