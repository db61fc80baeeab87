"""docs/peers.md lists every measure name ir_measures, ranx, trectools and cwl_eval list (read
from the installed packages), and its generated rows are still true."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from cranfield.measures import parse

PAGE = Path(__file__).resolve().parents[2] / "docs" / "peers.md"
REGENERATE = "regenerate it: PYTHONPATH=src python -m cranfield.render.peer_names docs"


def _text() -> str:
    return PAGE.read_text(encoding="utf-8")


def _section(title: str) -> str:
    return _text().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _first_cells(section: str) -> list[str]:
    rows = [r for r in section.splitlines() if r.startswith("| `")]
    return [re.findall(r"`([^`]*)`", r.split("|")[1])[0] for r in rows]


def _table_rows(block: str) -> list[str]:
    return [r for r in block.splitlines() if r.startswith("| `")]


def test_every_ir_measures_name_is_on_the_page_and_its_row_is_current():
    ir_measures = pytest.importorskip("ir_measures")
    from cranfield.render.peer_names import block, ir_measures_table

    listed = _first_cells(_section("ir_measures"))
    assert set(ir_measures.measures.registry) <= set(listed)
    assert _table_rows(block(_text(), "ir-measures-names")) == _table_rows(ir_measures_table()), (
        f"docs/peers.md's ir_measures table is out of date: {REGENERATE}"
    )


def test_every_ranx_name_is_on_the_page_and_mapped():
    pytest.importorskip("ranx")
    from cranfield.render.peer_names import RANX, block, ranx_names, ranx_table

    names = ranx_names()
    assert {"ndcg", "map", "mrr", "precision", "recall", "bpref", "rbp"} <= set(names)
    assert set(names) <= set(RANX), "a ranx metric without a mapping in peer_names.RANX"
    assert set(names) <= set(_first_cells(_section("ranx")))
    assert _table_rows(block(_text(), "ranx-names")) == _table_rows(ranx_table()), REGENERATE


def test_the_cranfield_forms_on_the_page_parse():
    """Every backticked cranfield form of the ranx, trectools and cwl_eval tables that is a
    measure string (not a note) is one, with the page's placeholders given values (``@k``,
    ``max_rel=M``, a parameter written ``T=T``); no form is promised as "being added"."""
    assert "being added" not in _text()  # a promise goes stale: the page says what is there
    checked = 0
    for title in ("ranx", "trectools", "cwl_eval"):
        for row in _section(title).splitlines():
            if not row.startswith("| `"):
                continue
            cell = row.split("|")[2]
            for form in re.findall(r"`([^`]*)`", cell):
                if "..." in form or form.startswith(("depth", "-M", "Run.")):
                    continue
                form = form.replace("@k", "@10").replace("[@10]", "@10").replace("p=theta", "p=0.5")
                form = form.replace("1/(1+rate)", "0.9").replace("@K", "@10")
                form = form.replace("max_rel=M", "max_rel=3")
                form = re.sub(r"\b(\w+)=\1\b", r"\1=0.5", form)  # T=T: cwl_eval's value
                parse(form)
                checked += 1
    assert checked >= 30


def test_every_cwl_eval_metric_is_on_the_page():
    pytest.importorskip("cwl")
    import cwl.ruler.measures as package

    names = set()
    for module in Path(package.__file__).parent.glob("cwl_*.py"):
        text = module.read_text(encoding="utf-8")
        names |= set(re.findall(r"^class (\w+CWLMetric)\(CWLMetric\)", text, re.M))
    assert len(names) >= 15
    section = _section("cwl_eval")
    missing = sorted(n for n in names if n not in section)
    assert not missing


def test_every_trectools_measure_is_on_the_page():
    trectools = pytest.importorskip("trectools")
    methods = [
        n for n, _ in inspect.getmembers(trectools.TrecEval, inspect.isfunction)
        if n.startswith("get_")
    ]  # fmt: skip
    assert len(methods) >= 15
    section = _section("trectools")
    assert [m for m in methods if f"`{m}" not in section] == []
