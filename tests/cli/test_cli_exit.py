"""The command's own process (cranfield.cli.entry): the collector runs less often and the last
garbage collection is skipped, never in a process that calls ``main`` and goes on."""

from __future__ import annotations

import gc
import subprocess
import sys
import tomllib
from pathlib import Path

from cranfield.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: sys.stderr.write("
    "f'thresholds={gc.get_threshold()} frozen={gc.get_freeze_count()}'))\n"
    "sys.argv = ['cranfield', 'measures', '--short']\n"
)


def _at_exit(start: str) -> tuple[int, tuple[int, ...], str]:
    """What the collector's freeze count and thresholds are when the process ends, and the
    output."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE + start], capture_output=True, text=True, check=True
    )
    thresholds, frozen = out.stderr.rsplit("thresholds=", 1)[1].split(" frozen=")
    numbers = tuple(int(t) for t in thresholds.strip("()").split(","))
    return int(frozen), numbers, out.stdout


def _frozen_at_exit(start: str) -> tuple[int, str]:
    frozen, _, stdout = _at_exit(start)
    return frozen, stdout


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


def test_the_command_collects_young_objects_less_often_and_keeps_the_older_thresholds():
    """CPython's 700 becomes 100,000; the older generations' 10 and 7 are kept."""
    _, thresholds, stdout = _at_exit(
        "import gc\ngc.set_threshold(700, 10, 7)\nfrom cranfield.cli import entry\nentry()\n"
    )
    assert thresholds == (100_000, 10, 7)
    assert "AP" in stdout.split()


def test_the_command_leaves_a_collector_that_is_off_or_already_lazier_alone():
    for before in ((0, 10, 10), (250_000, 5, 5)):
        _, thresholds, _ = _at_exit(
            f"import gc\ngc.set_threshold{before}\nfrom cranfield.cli import entry\nentry()\n"
        )
        assert thresholds == before


def test_main_in_a_longer_process_leaves_the_thresholds_alone(capsys):
    before = gc.get_threshold()
    main(["measures", "--short"])
    assert "AP" in capsys.readouterr().out.split()
    assert gc.get_threshold() == before
