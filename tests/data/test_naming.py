"""The naming rule of runs (cranfield.data.run_names) and name lookups, on their own: expected names
come from the rule as docs/input.md states it ("Run names")."""

from __future__ import annotations

import os
from pathlib import PurePath

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.data.run_names import Namer, find_run, is_named_runs, path_names, unique
from cranfield.errors import ParameterError
from cranfield.io import read_run

RUN = {"q1": {"d1": 1.0}}


@pytest.mark.parametrize(
    ("paths", "names"),
    [
        (["a.txt", "b.txt"], ["a.txt", "b.txt"]),
        (["a/run.txt", "b/run.txt"], ["a/run.txt", "b/run.txt"]),
        (["a/run.txt", "b/run.txt", "c/other.txt"], ["a/run.txt", "b/run.txt", "other.txt"]),
        (["x/a/r", "y/a/r", "z/b/r"], ["x/a/r", "y/a/r", "b/r"]),  # each its own shortest
        (["r", "a/r"], ["r", "a/r"]),  # a whole path is its longest suffix
        (["/data/a/r", "/data/b/r"], ["a/r", "b/r"]),
        (["./a/r", "a/r"], ["r", "r"]),  # the same file: left to the '#2' rule
        (["a/r", "a/r", "b/r"], ["a/r", "a/r", "b/r"]),
        (["a//b/../r", "c/r"], ["a/r", "c/r"]),  # normalised first
        (["-", "run.txt"], ["stdin", "run.txt"]),
        (["-", "stdin"], ["stdin", "stdin"]),
        (["deep/x/y/z/run", "deep/w/y/z/run"], ["x/y/z/run", "w/y/z/run"]),
    ],
)
def test_file_names_made_distinguishable(paths, names):
    assert path_names(paths) == names


def test_last_resort_suffixes():
    assert unique(["a", "a", "b", "a"]) == ["a", "a#2", "b", "a#3"]
    assert unique(["a", "a#2", "a"]) == ["a", "a#2", "a#3"]
    assert unique(["x"], taken=["x", "x#2"]) == ["x#3"]


def _frame(tag=None):
    df = pd.DataFrame({"qid": ["q1"], "docno": ["d1"], "score": [1.0]})
    return df if tag is None else df.assign(run=tag)


def _final(sources, names=None):
    """The names the rule gives ``sources``, reading the in-memory ones as judge_many does."""
    namer = Namer(sources, names)
    read = [s if isinstance(s, str) else read_run(s).name for s in sources]  # no file is read
    return [namer.name(i, r) for i, r in enumerate(read)]


@pytest.mark.parametrize(
    ("sources", "names", "expected"),
    [
        ([RUN], None, ["run"]),
        ([RUN, RUN], None, ["run1", "run2"]),
        (["x/a.txt", RUN, _frame("bm25"), _frame()], None, ["a.txt", "run2", "bm25", "run4"]),
        ([_frame("bm25")], None, ["bm25"]),
        ([_frame("bm25"), _frame("bm25")], None, ["bm25", "bm25#2"]),
        # a table's value never renames a planned name: the table yields
        ([_frame("a.txt"), "a.txt"], None, ["a.txt#2", "a.txt"]),
        ([RUN, "a.txt"], ["x", "y"], ["x", "y"]),  # names= first, known before reading
        (["a/r", "b/r", "a/r"], None, ["a/r", "b/r", "a/r#2"]),
        (["a/r", "a/r"], None, ["r", "r#2"]),
        ([RUN, "run1"], None, ["run1", "run1#2"]),
    ],
)
def test_naming_rule(sources, names, expected):
    if names is not None:
        assert Namer(sources, names).planned == expected
    else:
        assert _final(sources) == expected


def test_a_runs_own_name_is_kept():
    r = read_run(RUN, name="mine")
    assert _final([r, "x/mine", r]) == ["mine", "mine#2", "mine#3"]


@pytest.mark.parametrize(
    ("runs", "named"),
    [
        ({"bm25": "a.txt"}, True),
        ({"bm25": _frame()}, True),
        ({"bm25": {"q1": {"d1": 1.0}}}, True),  # a nested run dict one level down
        ({"q1": {"d1": 1.0}}, False),  # a run dict
        ({"q1": {}}, False),
        ({}, False),
        ([RUN], False),
    ],
)
def test_dict_of_runs_or_one_run(runs, named):
    assert is_named_runs(runs) is named


NAMES = ["a/run.txt", "b/run.txt", "bm25", "dense", "x#2"]


@pytest.mark.parametrize(
    ("wanted", "found"),
    [
        ("bm25", "bm25"),
        ("a/run.txt", "a/run.txt"),
        ("/home/me/exp/a/run.txt", "a/run.txt"),  # a path ending with the name
        ("exp/b/run.txt", "b/run.txt"),
        (PurePath("b/run.txt"), "b/run.txt"),
        ("x#2", "x#2"),
    ],
)
def test_find_run(wanted, found):
    assert find_run(wanted, NAMES, "baseline") == found


def test_find_run_ambiguous_or_missing():
    with pytest.raises(ParameterError, match=r"baseline 'run.txt' matches 2 runs \(a/run.txt, "):
        find_run("run.txt", NAMES, "baseline")
    with pytest.raises(ParameterError, match=r"not one of the runs .*; did you mean 'bm25'\?"):
        find_run("bm52", NAMES, "baseline")
    with pytest.raises(ParameterError, match="not one of the runs"):
        find_run("", NAMES)
    many = [f"r{i}" for i in range(50)]
    with pytest.raises(ParameterError, match=r"r9, \.\.\. \(50 runs\)"):
        find_run("zzz", many)
    with pytest.raises(ParameterError, match="must be a run name"):
        find_run(5, NAMES)


# ------------------------------------------------------------------------------ properties
component = st.sampled_from(["a", "b", "c", "run.txt", "r", "..", ".", "é", "x y"])
path = st.lists(component, min_size=1, max_size=5).map(lambda parts: os.path.join(*parts))


@settings(derandomize=True, max_examples=400, deadline=None)
@given(st.lists(path, min_size=1, max_size=8))
def test_path_names_are_distinct_minimal_suffixes(paths):
    parts = [PurePath(os.path.normpath(p)).parts or ("",) for p in paths]
    names = path_names(paths)
    for i, (name, mine) in enumerate(zip(names, parts, strict=True)):
        k = len(PurePath(name).parts) if name != "." else 1
        assert PurePath(*mine[-k:]) == PurePath(name)  # a suffix of its own path
        others = [p for j, p in enumerate(parts) if j != i and p != mine]
        # distinct from every other path's name (equal paths are the '#2' rule's)
        assert all(names[j] != name for j in range(len(paths)) if parts[j] != mine)
        if k > 1:  # one component less would not tell it apart from some path of its name
            assert any(p[-(k - 1) :] == mine[-(k - 1) :] for p in others)
    final = unique(names)
    assert len(set(final)) == len(final)
