"""The command's end (cranfield.cli.entry): the last garbage collection is skipped in the
command's own process, never in a process that calls ``main`` and goes on."""

from __future__ import annotations

import gc
import subprocess
import sys
import tomllib
from pathlib import Path

from cranfield.cli import main

ROOT = Path(__file__).resolve().parents[1]
PROBE = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: sys.stderr.write(f'frozen={gc.get_freeze_count()}'))\n"
    "sys.argv = ['cranfield', 'measures', '--short']\n"
)


def _frozen_at_exit(start: str) -> tuple[int, str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE + start], capture_output=True, text=True, check=True
    )
    return int(out.stderr.rsplit("frozen=", 1)[1]), out.stdout


def test_the_command_freezes_its_objects_before_the_interpreter_ends():
    """After ``entry`` the objects are frozen out of the final collection (thousands of them:
    numpy's and cranfield's modules), and the output is whole."""
    frozen, stdout = _frozen_at_exit("from cranfield.cli import entry\nentry()\n")
    assert frozen > 1000
    assert stdout.splitlines()[0].startswith("AP") or "AP" in stdout.split()


def test_python_dash_m_and_the_console_script_go_through_entry():
    frozen, _ = _frozen_at_exit(
        "import runpy\nrunpy.run_module('cranfield', run_name='__main__')\n"
    )
    assert frozen > 1000
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cranfield"] == "cranfield.cli:entry"


def test_main_in_a_longer_process_leaves_the_collector_alone(capsys):
    before = gc.get_freeze_count()
    main(["measures", "--short"])
    assert "AP" in capsys.readouterr().out.split()
    assert gc.get_freeze_count() == before
