"""Bad suite files: one clear error naming the suite file, the key and (YAML) the line; the
command ends with status 2 and that one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

import cranfield
from conftest import run_cli
from cranfield.errors import InputError, ParameterError

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq2 0 d1 1\nq3 0 d2 1\n"
RUN_A = "".join(
    f"q{q} Q0 d{d} {r} {9 - r} a\n" for q in (1, 2, 3) for r, d in enumerate((1, 2, 3), 1)
)
RUN_B = "".join(
    f"q{q} Q0 d{d} {r} {9 - r} b\n" for q in (1, 2, 3) for r, d in enumerate((3, 2, 1), 1)
)

GOOD = """measure: P@2
datasets:
  one:
    qrels: q.txt
    runs:
      a: a.run
      b: b.run
  two:
    qrels: q.txt
    runs:
      a: a.run
      b: b.run
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "a.run").write_text(RUN_A)
    (tmp_path / "b.run").write_text(RUN_B)
    return tmp_path


def _error(folder: Path, text: str, name: str = "suite.yaml") -> str:
    path = folder / name
    path.write_text(text)
    with pytest.raises(InputError) as info:
        cranfield.suite(path)
    return str(info.value)


def test_the_good_suite_runs(folder):
    res = cranfield.suite(_write(folder, GOOD))
    assert [d.name for d in res.datasets] == ["one", "two"]


def _write(folder: Path, text: str, name: str = "suite.yaml") -> Path:
    (folder / name).write_text(text)
    return folder / name


# (the suite's text, the line, the key and problem the message must hold)
YAML_CASES = {
    "unknown top key": (GOOD.replace("measure: P@2", "measures: P@2"), 1, "measures: unknown key"),
    "unknown dataset key": (
        GOOD.replace("    qrels: q.txt\n", "    qrel: q.txt\n", 1),
        4,
        "datasets.one.qrel: unknown key",
    ),
    "duplicate key": (
        GOOD.replace("      b: b.run\n", "      a: b.run\n", 1),
        7,
        "datasets.one.runs.a: duplicate key",
    ),
    "missing qrels file": (
        GOOD.replace("qrels: q.txt", "qrels: nope.txt", 1),
        4,
        "datasets.one.qrels: no such file",
    ),
    "missing run file": (
        GOOD.replace("b: b.run", "b: sub/b.run", 1),
        7,
        "datasets.one.runs.b: no such file",
    ),
    "run is a folder": (GOOD.replace("b: b.run", "b: .", 1), 7, "is a directory"),
    "dataset without runs": (
        GOOD.replace("    runs:\n      a: a.run\n      b: b.run\n  two", "  two"),
        3,
        "datasets.one: no runs",
    ),
    "empty runs": (
        GOOD.replace("    runs:\n      a: a.run\n      b: b.run\n  two", "    runs: {}\n  two"),
        5,
        "datasets.one.runs: names no run",
    ),
    "system not in the others": (
        GOOD.replace("      b: b.run\n", "      b: b.run\n      c: b.run\n", 2).replace(
            "      c: b.run\n", "", 1
        ),
        13,
        "datasets.two.runs.c: system 'c' is not in dataset 'one'",
    ),
    "system missing": (
        GOOD[: GOOD.rindex("      b: b.run\n")],
        10,
        "datasets.two.runs: no run of system 'b'",
    ),
    "no measure": (GOOD.replace("measure: P@2\n", ""), 2, "datasets.one: no measure"),
    "bad measure": (GOOD.replace("P@2", "P@x"), 1, "measure:"),
    "rel not a number": (
        GOOD.replace("    qrels: q.txt\n", "    qrels: q.txt\n    rel: high\n", 1),
        5,
        "datasets.one.rel: must be a whole number",
    ),
    "runs a list": (
        GOOD.replace(
            "    runs:\n      a: a.run\n      b: b.run\n  two", "    runs: [a.run]\n  two"
        ),
        5,
        "datasets.one.runs: must be a table of system name -> run file",
    ),
    "unknown baseline": ("baseline: c\n" + GOOD, 1, "baseline: no system 'c'"),
    "group mixing measures": (
        GOOD.replace("  one:\n", "  one:\n    group: g\n").replace(
            "  two:\n", "  two:\n    group: g\n    measure: AP\n"
        ),
        11,
        "datasets.two.measure: group 'g' mixes measures",
    ),
    "no datasets": ("measure: AP\n", None, "no datasets"),
    "not a table": ("- a\n- b\n", None, "must be a table of keys"),
    "syntax": (GOOD.replace("      b: b.run\n", "      b: [b.run\n", 1), 8, "not valid YAML"),
    "key not a name": (
        GOOD.replace("      b: b.run\n", "      [1]: b.run\n", 1),
        7,
        "is not a name",
    ),
}


@pytest.mark.parametrize("case", list(YAML_CASES))
def test_a_bad_yaml_suite_is_one_error_with_file_key_and_line(folder, case):
    text, line, problem = YAML_CASES[case]
    message = _error(folder, text)
    where = f"{folder / 'suite.yaml'}: line {line}: " if line else f"{folder / 'suite.yaml'}: "
    assert message.startswith(where), message
    assert problem in message, message


def test_a_bad_toml_suite_names_the_key(folder):
    toml = '[datasets.one]\nqrels = "q.txt"\nmeasure = "AP"\n[datasets.one.runs]\na = "x.run"\n'
    message = _error(folder, toml, "suite.toml")
    assert message.startswith(f"{folder / 'suite.toml'}: datasets.one.runs.a: no such file")


def test_a_toml_syntax_error_names_the_line(folder):
    message = _error(folder, 'measure = "AP"\n[datasets\n', "suite.toml")
    assert message.startswith(f"{folder / 'suite.toml'}: line 2: not valid TOML")


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("suite.json", "{}", "a suite file is .yaml, .yml or .toml"),
        ("suite.yaml", b"measure: \xff\n", "line 1: not UTF-8 text"),
        ("suite.yaml", b"measure: AP\n\x00\n", "line 2: holds a NUL byte"),
    ],
)
def test_files_that_are_no_suite(folder, name, content, problem):
    path = folder / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(InputError, match=problem):
        cranfield.suite(path)


def test_a_missing_suite_file(folder):
    with pytest.raises(InputError, match="nope.yaml: no such file"):
        cranfield.suite(folder / "nope.yaml")


def test_bad_arguments_are_parameter_errors(folder):
    path = _write(folder, GOOD)
    for kw in ({"baseline": "z"}, {"effect": "glass"}, {"alpha": 1.5}, {"digits": -1}):
        with pytest.raises(ParameterError):
            cranfield.suite(path, **kw)


def test_the_command_ends_with_one_line_and_status_2(folder):
    path = _write(folder, GOOD.replace("b: b.run", "b: gone.run", 1))
    proc = run_cli("suite", str(path))
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode().splitlines() == [
        f"cranfield: error: {path}: line 7: datasets.one.runs.b: no such file: "
        f"{str(folder / 'gone.run')!r}"
    ]


def test_a_bad_run_inside_a_suite_is_the_readers_error(folder):
    (folder / "b.run").write_text("q1 Q0 d1 1\n")
    proc = run_cli("suite", str(_write(folder, GOOD)))
    assert proc.returncode == 2
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cranfield: error: {folder / 'b.run'}: line 1")


def test_the_suite_cannot_be_standard_input(folder):
    proc = run_cli("suite", "-", input=GOOD.encode())
    assert proc.returncode == 2
    assert b"not '-'" in proc.stderr


def test_control_characters_in_a_dataset_name_are_shown_escaped(folder):
    """A dataset name holding an escape sequence cannot colour or move the terminal: the
    table shows it as \\x1b, as every table does."""
    proc = run_cli("suite", str(_write(folder, GOOD.replace("  two:", '  "t\\e[31mwo":'))))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "\x1b" not in out and "t\\x1b[31mwo" in out


def test_a_system_name_follows_the_run_name_rule_and_the_error_names_the_key(folder):
    message = _error(folder, GOOD.replace("      a: a.run", '      "a\\e[31m": a.run', 1))
    assert message.startswith(f"{folder / 'suite.yaml'}: line 6: datasets.one.runs.a\x1b[31m:")
    assert "contains the control character U+001B" in message


def test_yaml_without_pyyaml_names_the_extra(folder, monkeypatch):
    import sys

    from cranfield.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml raises ImportError
    with pytest.raises(MissingExtraError, match=r"pip install 'cranfield\[yaml\]'"):
        cranfield.suite(_write(folder, GOOD))


def test_a_group_may_share_its_name_with_one_of_its_datasets_only(folder):
    inside = GOOD.replace("  one:\n", "  one:\n    group: one\n").replace(
        "  two:\n", "  two:\n    group: one\n"
    )
    assert [d.members for d in cranfield.suite(_write(folder, inside)).datasets] == [("one", "two")]
    outside = GOOD.replace("  two:\n", "  two:\n    group: one\n")
    message = _error(folder, outside)
    assert "line 9: datasets.two.group: group 'one' is also the name of a dataset outside it" in (
        message
    )


def test_a_forest_plot_of_one_system_is_refused_before_any_output(folder):
    pytest.importorskip("matplotlib")
    one = GOOD.replace("      b: b.run\n", "")
    out = folder / "table.txt"
    proc = run_cli(
        "suite", str(_write(folder, one)), "--plot", str(folder / "f.png"), "-o", str(out)
    )
    assert proc.returncode == 2 and not out.exists() and not (folder / "f.png").exists()
    assert proc.stderr.decode().splitlines() == [
        f"cranfield: error: --plot: {folder / 'suite.yaml'} names one system; a forest plot "
        "needs two"
    ]
