"""What the tests of the command line's trust (never a traceback, never lost output) share:
qrels and runs with three judged queries (q3 has no results, q9 results but no judgments) as
files (the ``files`` fixture), ``call`` (the command in-process: any exception other than
SystemExit fails the test), and the argument lists and environment of the real command."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

from conftest import REPO
from cranfield.cli import main

# three judged queries; q3 has no results (skipped unless -c), q9 has results but no judgments
QRELS = """\
q1 0 d1 1
q1 0 d2 0
q1 0 d3 2
q1 0 d7 1
q2 0 d1 0
q2 0 d4 1
q2 0 d5 1
q3 0 d1 1
"""
RUN = """\
q1 Q0 d1 1 3.0 a
q1 Q0 d2 2 2.0 a
q1 Q0 d3 3 2.0 a
q1 Q0 d4 4 1.0 a
q2 Q0 d5 1 5.0 a
q2 Q0 d6 2 4.0 a
q2 Q0 d4 3 4.0 a
q9 Q0 d1 1 1.0 a
"""
RUN2 = """\
q1 Q0 d3 1 3.0 b
q1 Q0 d1 2 2.0 b
q1 Q0 d9 3 1.0 b
q2 Q0 d4 1 5.0 b
q2 Q0 d1 2 4.0 b
q2 Q0 d5 3 3.0 b
"""


@pytest.fixture(scope="module", name="files")
def files_fixture(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("trust")
    for name, text in (("qrels", QRELS), ("run", RUN), ("run2", RUN2), ("empty", "")):
        (d / name).write_text(text)
    (d / "sizes").write_text("q1 100\nq2 100\nq3 100\n")
    (d / "-x").write_text(RUN)
    (d / "rün ☃.txt").write_text(RUN)
    (d / "sub").mkdir()
    out = {k: str(d / k) for k in ("qrels", "run", "run2", "empty", "sizes", "sub")}
    out.update(dir=str(d), dashed=str(d / "-x"), unicode=str(d / "rün ☃.txt"))
    return out


def call(argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    """Run ``main(argv)`` in-process: (exit status, stdout, stderr).  Any exception other than
    SystemExit fails the test."""
    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # main sets its own
    capsys.readouterr()
    code: int | str | None = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            main(argv)
    except SystemExit as stop:
        code = stop.code
    except BaseException as exc:  # the point of this module
        pytest.fail(f"{type(exc).__name__} escaped main({argv!r}): {exc}")
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err  # type: ignore[return-value]


BIG = "99999999999999999999"


def _fill(value: str, files: dict[str, str]) -> str:
    return value.format(**files) if "{" in value else value


def _cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


def _argv(command: list[str], files) -> list[str]:
    return [sys.executable, "-m", "cranfield", *(_fill(a, files) for a in command)]
