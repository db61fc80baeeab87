"""The command line's conventions, through the real command: usage errors exit 2 with one
``error:`` line and the nearest valid names, ranges are checked, ``--help`` and ``--version``
load no subcommand, options may follow the arguments."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version

from conftest import REPO
from cranfield import examples

COLLECTION = examples.path("collection")
QRELS = str(COLLECTION / "qrels.txt")
RUN = str(COLLECTION / "runs" / "bm25.txt.gz")


def _lines(out) -> list[str]:
    return out.stderr.decode().splitlines()


def test_misspelled_option_gets_the_nearest_names(cli):
    out = cli("evaluate", QRELS, RUN, "--formt", "json")
    assert out.returncode == 2 and out.stdout == b""
    error = [line for line in _lines(out) if "error:" in line]
    assert error == ["cranfield evaluate: error: no such option: --formt (did you mean --format?)"]


def test_misspelled_command_gets_the_nearest_names(cli):
    out = cli("evalute", QRELS, RUN)
    assert out.returncode == 2
    assert "cranfield: error: no such command 'evalute' (did you mean evaluate?)" in _lines(out)


def test_out_of_range_and_bad_choice_are_usage_errors(cli):
    for args, expected in (
        (("--digits", "99"), "99 is not in the range 0<=x<=17"),
        (("-M", "-1"), "-1 is not in the range 0<=x<=2**63-1"),
        (("--ties", "sometimes"), "invalid choice: 'sometimes'"),
        (("--digits", "four"), "'four' is not an integer"),
    ):
        out = cli("evaluate", QRELS, RUN, *args)
        assert out.returncode == 2, args
        assert out.stdout == b"" and "Traceback" not in out.stderr.decode()
        assert expected in out.stderr.decode(), (args, out.stderr.decode())


def test_missing_arguments_are_usage_errors(cli):
    out = cli("evaluate", QRELS)
    assert out.returncode == 2 and "error:" in out.stderr.decode()
    assert out.stderr.decode().startswith("usage: cranfield evaluate")


def test_options_may_follow_the_arguments(cli):
    before = cli("evaluate", "-m", "AP", "--format", "trec", QRELS, RUN)
    after = cli("evaluate", QRELS, RUN, "-m", "AP", "--format", "trec")
    assert before.returncode == after.returncode == 0, before.stderr.decode()
    assert before.stdout == after.stdout and before.stdout.startswith(b"AP\tall\t")


def test_version(cli):
    out = cli("--version")
    assert out.returncode == 0 and out.stdout.decode() == f"cranfield {version('cranfield')}\n"


def test_help_lists_every_command_without_importing_them():
    code = (
        "import sys, io, contextlib\n"
        "from cranfield.cli import COMMANDS, main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m, _ in COMMANDS.values() if m in sys.modules]\n"
        "heavy = ('numpy', 'pyarrow', 'scipy', 'matplotlib', 'rich')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "print(loaded, heavy)\n"
        "print(all(name in buf.getvalue() for name in COMMANDS))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, check=True)
    assert out.stdout.decode().splitlines() == ["[] []", "True"]


def test_every_command_has_help(cli):
    from cranfield.cli import COMMANDS

    for name in COMMANDS:
        out = cli(name, "--help") if name != "trec_eval" else cli(name, "-h")
        assert out.returncode == 0, (name, out.stderr.decode())
        assert out.stdout.strip(), name
