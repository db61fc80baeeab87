"""Names written back as they are: file names that are not UTF-8 come back as their bytes
(or an escape in text), control characters in messages are escaped, one line per message."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from _cli_trust import (
    RUN,
    _cli_env,
    call,
    files_fixture,  # noqa: F401 - the fixture 'files'
)

from conftest import run_cli


def test_file_names_that_are_not_utf8_are_written_back_as_bytes(files, tmp_path):
    if sys.platform == "darwin":
        pytest.skip("macOS file names are UTF-8")
    name = os.fsdecode(b"run\xff.txt")
    (tmp_path / name).write_text(RUN)
    proc = subprocess.run(
        [sys.executable, "-m", "cranfield", "evaluate", files["qrels"], name, "-m", "P@2"],
        cwd=tmp_path,
        env=_cli_env(PYTHONIOENCODING="utf-8"),  # strict errors: the case that failed
        capture_output=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"\nrun\xff.txt " in proc.stdout
    assert b"run\\udcff.txt: 1 queries have results" in proc.stderr


def test_curves_and_charts_of_runs_whose_file_names_are_not_utf8(
    files, tmp_path, capsys, monkeypatch
):
    if sys.platform == "darwin":
        pytest.skip("macOS file names are UTF-8")
    pytest.importorskip("matplotlib")
    run = tmp_path / os.fsdecode(b"run\xff.txt")
    run.write_text(RUN)
    for command in (["curve", "pr"], ["curve", "gain"]):
        png = tmp_path / "c.png"
        argv = [*command, files["qrels"], str(run), files["run2"], "--plot", str(png)]
        code, out, err = call(argv, capsys, monkeypatch)
        assert code == 0, err
        assert "run\\xff.txt" in out and png.stat().st_size > 0  # the bytes as an escape
    charts = tmp_path / "charts"  # compare prints the name's bytes: a subprocess reads them
    proc = run_cli("compare", files["qrels"], str(run), files["run2"], "--plot", str(charts))
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"run\xff.txt" in proc.stdout and any(p.suffix == ".png" for p in charts.iterdir())


def test_control_characters_in_messages_are_escaped(files, capsys, monkeypatch):
    bad = os.path.join(files["dir"], "evil\x1b[2Jname\nline")
    code, _, err = call(["evaluate", files["qrels"], bad], capsys, monkeypatch)
    assert code == 2
    assert "\x1b" not in err and "evil\\x1b[2Jname\\x0aline" in err
    assert err.count("\n") == 1
