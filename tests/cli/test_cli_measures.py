"""``cranfield measures`` is easy to scan (issue 27, item 6): by family, the common measures
first, after an index; ``--short`` in the terminal's width; ``--find WORD``."""

from __future__ import annotations

import os

import pytest
from rich.cells import cell_len

from conftest import run_cli
from cranfield.measures import REGISTRY
from cranfield.measures.families import load_all

load_all()
NAMES = {d.name for d in REGISTRY.values()}


def _out(*args: str, columns: int | None = None) -> str:
    env_columns = os.environ.get("COLUMNS")
    try:
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = str(columns)
        done = run_cli("measures", *args)
    finally:
        if env_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = env_columns
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def _listed(text: str) -> list[str]:
    """The measure names in the order the text listing declares them (lines 'NAME(...'
    at the start of a line, after the index)."""
    body = "== " + text.split("\n== ", 1)[1]
    names = []
    for line in body.splitlines():
        if line and not line.startswith((" ", "==")):
            head = line.split("(")[0].split("@")[0].split()[0]
            names.append(head)
    return names


def test_the_listing_starts_with_the_common_measures_and_groups_families():
    text = _out()
    first = text.splitlines()[0]
    assert first.startswith(f"{len(NAMES)} measures in ") and "--find WORD" in first
    names = _listed(text)
    assert sorted(names) == sorted(NAMES)  # each once
    assert names[:3] == ["AP", "RR", "GMAP"]  # was AdjP first, AP the 81st of 104
    assert names.index("nDCG") < 25 and names.index("P") < 10 and names.index("Bpref") < 30
    # one block per family, in the order of the index at the top
    headings = [line[3:-3] for line in text.splitlines() if line.startswith("== ")]
    index = [line.split(":")[0].strip() for line in text.split("\n\n")[0].splitlines()[1:]
             if line.startswith("  ") and not line.startswith("    ")]  # fmt: skip
    assert headings == index and len(set(headings)) == len(headings)
    families = [REGISTRY[n].family for n in names]
    assert [f for i, f in enumerate(families) if i == 0 or families[i - 1] != f] == headings


@pytest.mark.parametrize("columns", [40, 60, 80, 132, 250])
def test_short_fits_the_terminal_width(columns):
    text = _out("--short", columns=columns)
    lines = text.splitlines()
    assert max(cell_len(x) for x in lines) <= columns
    joined = "".join(x.strip() for x in lines)  # signatures broken after commas join again
    for d in REGISTRY.values():
        assert d.signature() in joined, d.name
    assert lines[0] == "[ranking]" and lines[1].startswith("AP(rel=1)[@k] ")


def test_short_was_220_columns():
    # without COLUMNS and not on a terminal: 80 columns (shutil's fallback)
    assert max(cell_len(x) for x in _out("--short").splitlines()) <= 80


def test_find_searches_names_summaries_and_formulas():
    text = _out("--find", "recall")
    found = {line.split("(")[0].split("@")[0].strip() for line in text.splitlines()
             if line and not line.startswith((" ", "["))}  # fmt: skip
    assert {"R", "SetR", "Rnorm", "RankRecall", "RelativeRecall", "RecallEffort", "StRecall",
            "ER"} <= found  # fmt: skip
    assert not {"AP", "P", "nDCG", "RR"} & found
    assert found <= NAMES
    # any case, aliases and trec_eval names too; another format on request
    assert "AP(" in _out("--find", "MAP", "--format", "text")
    assert '"name": "nDCG"' in _out("--find", "ndcg_cut", "--format", "json")


def test_find_without_a_match_is_one_error():
    done = run_cli("measures", "--find", "zzzz")
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b"" and err.count("\n") == 1
    assert "no measure mentions 'zzzz'" in err


def test_the_text_wraps_on_a_terminal_and_keeps_one_line_per_field_when_piped():
    wrapped = _out("AP", "nDCG", columns=60).splitlines()
    assert max(len(x) for x in wrapped if not x.startswith("nDCG(")) <= 60
    piped = _out("AP", "nDCG")  # no COLUMNS, not a terminal: greppable
    assert (
        "    parameters: cutoff (integer in [1, 2147483647]; default none): rank cut-off k" in piped
    )
    assert len(piped.splitlines()) < len(wrapped)
