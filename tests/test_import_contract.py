"""The one direction of the data flow (docs/architecture.md), enforced on every import.

The stages are layers, lowest first; a module may import from its own stage and from the
stages below it.  An import of a higher stage is an *upward edge*: those of the layout when the
stage packages were made are listed in :data:`UPWARD`, a list that may only shrink (a new
upward edge fails here; an edge that is gone must be struck from the list).  Every import
counts, the ones inside functions too.  No private name (``_x``) is imported from another
stage: a name used across stages is public in its module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: the stages, lowest first (``cranfield`` is the package's ``__init__``, the public API)
LAYERS = (
    "_core",  # the compiled core (rust/): bytes in, arrays out, no imports of its own
    "errors",
    "base",
    "examples",
    "data",
    "io",
    "judging",
    "ties",
    "measures",
    "results",
    "scale",
    "evaluation",
    "curves",
    "comparing",
    "judgments",
    "nuggets",
    "render",
    "reporting",
    "cranfield",
    "compat",
    "cli",
    "__main__",
)

#: (importer, imported) upward edges allowed: only ever remove from this list
UPWARD = {
    ("cranfield.base.arguments", "cranfield.data.run_names"),
    ("cranfield.base.arguments", "cranfield.data.tables"),
    ("cranfield.base.arguments", "cranfield.io.columns"),
    ("cranfield.base.arguments", "cranfield.io.peers"),
    ("cranfield.base.arguments", "cranfield.measures"),
    ("cranfield.base.arguments", "cranfield.measures.lists"),
    ("cranfield.base.arguments", "cranfield.measures.peer_measures"),
    ("cranfield.comparing.meta", "cranfield.render.meta_charts"),
    ("cranfield.comparing.result", "cranfield.render.compare_charts"),
    ("cranfield.comparing.result", "cranfield.render.comparison_json"),
    ("cranfield.comparing.result", "cranfield.render.comparison_text"),
    ("cranfield.comparing.result", "cranfield.render.html"),
    ("cranfield.comparing.result", "cranfield.render.notebook"),
    ("cranfield.comparing.suites", "cranfield.render.charts"),
    ("cranfield.comparing.suites", "cranfield.render.delimited"),
    ("cranfield.comparing.suites", "cranfield.render.table"),
    ("cranfield.compat.trec_eval.engine", "cranfield.cli._output"),
    ("cranfield.curves", "cranfield.render.curve_charts"),
    ("cranfield.data.run_names", "cranfield.io.peers"),
    ("cranfield.data.tables", "cranfield.judging.join"),
    ("cranfield.evaluation.runs", "cranfield.comparing.checks"),
    ("cranfield.evaluation.runs", "cranfield.comparing.intervals"),
    ("cranfield.evaluation.runs", "cranfield.judgments.bounds"),
    ("cranfield.io.trec.run_pieces", "cranfield.judging.ordering"),
    ("cranfield.judging.runs", "cranfield.scale.processes"),
    ("cranfield.judgments.leaderboard", "cranfield.render.charts"),
    ("cranfield.judgments.leaderboard", "cranfield.render.delimited"),
    ("cranfield.judgments.leaderboard", "cranfield.render.table"),
    ("cranfield.nuggets.render", "cranfield.render.delimited"),
    ("cranfield.nuggets.render", "cranfield.render.markup"),
    ("cranfield.nuggets.render", "cranfield.render.table"),
    ("cranfield.render.measure_list", "cranfield.compat.trec_eval.catalogue"),
    ("cranfield.results.query_sets", "cranfield.render.table"),
    ("cranfield.results.tables", "cranfield.comparing.intervals"),
    ("cranfield.results.tables", "cranfield.render.html"),
    ("cranfield.results.tables", "cranfield.render.notebook"),
    ("cranfield.scale.streaming", "cranfield.evaluation.runs"),
    ("cranfield.ties.analysis", "cranfield.measures.parse"),
    ("cranfield.ties.analysis", "cranfield.results.aggregate"),
}


def _modules() -> dict[str, Path]:
    mods = {"cranfield._core": SRC.parent / "rust"}  # the extension module, built from rust/
    for path in (SRC / "cranfield").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = path
    return mods


def stage(module: str) -> str:
    parts = module.split(".")
    return "cranfield" if len(parts) == 1 else parts[1]


def imports(mods: dict[str, Path]) -> list[tuple[str, str, str]]:
    """(importer, imported module, name) for every import of cranfield, at any depth."""
    found = []
    for name, path in mods.items():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cranfield"):
                assert node.level == 0, f"{name}: relative import"
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.append((name, sub if sub in mods else node.module, alias.name))
            elif isinstance(node, ast.Import):
                found += [(name, a.name, "") for a in node.names if a.name.startswith("cranfield")]
    return found


MODS = _modules()
IMPORTS = imports(MODS)
RANK = {s: i for i, s in enumerate(LAYERS)}


def is_upward(importer: str, imported: str) -> bool:
    return RANK[stage(imported)] > RANK[stage(importer)]


def test_every_module_is_in_a_stage():
    assert sorted({stage(m) for m in MODS} - set(LAYERS)) == []


def upward_edges() -> set[tuple[str, str]]:
    return {(a, b) for a, b, _ in IMPORTS if is_upward(a, b)}


def test_no_new_upward_import():
    new = sorted(upward_edges() - UPWARD)
    assert new == [], "imports against the data flow (docs/architecture.md): " + repr(new)


def test_the_allowed_upward_imports_only_shrink():
    gone = sorted(UPWARD - upward_edges())
    assert gone == [], "strike these from UPWARD, they are gone: " + repr(gone)


def test_no_private_name_is_imported_from_another_stage():
    found = sorted(
        f"{a} imports {b}.{n}"
        for a, b, n in IMPORTS
        if n.startswith("_")
        and not n.startswith("__")
        and stage(a) != stage(b)
        and b != "cranfield._core"  # the compiled core, behind cranfield.io.trec.core
    )
    assert found == []


@pytest.mark.parametrize(
    ("importer", "imported", "upward"),
    [
        ("cranfield.measures.precision", "cranfield.render.table", True),
        ("cranfield.render.table", "cranfield.measures.registry", False),
        ("cranfield.io.trec.text", "cranfield.io.source", False),
        ("cranfield", "cranfield.cli", True),
    ],
)
def test_the_rule_itself(importer, imported, upward):
    """The layer rule on made-up edges, so that a broken rule cannot pass silently."""
    assert is_upward(importer, imported) is upward
