"""A termination signal while an output file is being replaced: no temporary file is left
behind, the old file is kept, and the process ends by the signal.

Every command that writes a file (``-o``, ``--plot``) runs in a real subprocess whose
``os.fsync`` is held until the test says go: the new content is then in the temporary file
(``.NAME.XXXX.tmp``, as large as the output) and not yet renamed over the old file, which is
where SIGTERM or SIGHUP found it (``kill``, a closed terminal, a scheduler's time limit).  The
test waits until the temporary file exists, sends the signal, and checks what is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from cranfield.base.output_files import replace_atomically

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 0\nq2 0 d4 1\n"
RUN = "q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 2.0 a\nq1 Q0 d3 3 1.0 a\nq2 Q0 d4 1 5.0 a\nq2 Q0 d5 2 4.0 a\n"
RUN2 = "q1 Q0 d3 1 3.0 b\nq1 Q0 d1 2 2.0 b\nq2 Q0 d5 1 5.0 b\nq2 Q0 d4 2 4.0 b\n"

HOLD = """\
import os, sys, tempfile, time
go, at = sys.argv.pop(1), sys.argv.pop(1)

def hold():
    open(go + ".held", "w").close()
    while not os.path.exists(go):
        time.sleep(0.005)

real_fsync, real_mkstemp = os.fsync, tempfile.mkstemp

def fsync(fd):  # the new content is written, not yet renamed
    hold()
    real_fsync(fd)

def mkstemp(*args, prefix=None, **kw):  # created, its name not yet returned
    made = real_mkstemp(*args, prefix=prefix, **kw)
    if prefix.startswith(at):
        hold()
    return made

if at == "fsync":
    os.fsync = fsync
else:
    tempfile.mkstemp = mkstemp
sys.argv[0] = "cranfield"
from cranfield.cli import entry
entry()
"""
"""Runs ``cranfield`` with a hold: before each ``fsync`` (``at`` = fsync), or just after the
creation of a temporary file whose name starts with ``at``; it makes ``go.held`` and ends
when ``go`` exists."""

REPRO = ["repro", "--orig-baseline", "{run}", "--orig-advanced", "{run2}", "--rep-baseline",
         "{run2}", "--rep-advanced", "{run}", "{qrels}"]  # fmt: skip
COMMANDS = {
    "evaluate -o": ["evaluate", "{qrels}", "{run}", "-q", "-o", "{out}"],
    "compare -o": ["compare", "{qrels}", "{run}", "{run2}", "-o", "{out}"],
    "curve -o": ["curve", "pr", "{qrels}", "{run}", "-o", "{out}"],
    "ties -o": ["ties", "{qrels}", "{run}", "-o", "{out}"],
    "report -o": ["report", "{qrels}", "{run}", "{run2}", "-o", "{out}"],
    "curve --plot": ["curve", "pr", "{qrels}", "{run}", "--plot", "{plot}"],
    "compare --plot": ["compare", "{qrels}", "{run}", "{run2}", "--plot", "{plot_dir}"],
    "suite -o": ["suite", "{suite}", "-o", "{out}"],
    "suite --plot": ["suite", "{suite}", "--plot", "{plot}"],
    "repro -o": [*REPRO, "-o", "{out}"],
    "repro --plot": [*REPRO, "--plot", "{plot}"],
}
TERMINATING = ("SIGTERM", "SIGHUP")
SIGNALS = [getattr(signal, name) for name in TERMINATING]


_STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_command_left_running():
    """A command still held when its test fails is ended (it would wait forever)."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _start(
    tmp_path: Path, command: str, at: str = "fsync", **popen
) -> tuple[subprocess.Popen, dict[str, Path]]:
    if "plot" in command:
        pytest.importorskip("matplotlib")
    files = {
        name: tmp_path / f"{name}.txt" for name in ("qrels", "run", "run2", "out", "go", "hold")
    }
    files["qrels"].write_text(QRELS)
    files["run"].write_text(RUN)
    files["run2"].write_text(RUN2)
    files["out"].write_text("old content\n")
    files["hold"] = tmp_path / "hold.py"
    files["hold"].write_text(HOLD)
    files["plot"] = tmp_path / "pr.png"
    files["plot"].write_bytes(b"old picture")
    files["plot_dir"] = tmp_path / "charts"
    files["suite"] = tmp_path / "suite.yaml"  # one dataset: the qrels, run and run2
    files["suite"].write_text(
        "measure: P@2\ndatasets:\n  d:\n    qrels: qrels.txt\n    runs: {a: run.txt, b: run2.txt}\n"
    )
    argv = [a.format(**{k: str(p) for k, p in files.items()}) for a in COMMANDS[command]]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen(
        [sys.executable, str(files["hold"]), str(files["go"]), at, *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        **popen,
    )
    _STARTED.append(proc)
    return proc, files


def _temporaries(tmp_path: Path, start: str = ".") -> list[Path]:
    return sorted(tmp_path.rglob(f"{start}*.tmp"))


def _wait_for_hold(proc: subprocess.Popen, files: dict[str, Path], start: str = ".") -> Path:
    """The temporary file once the command is held (a wait for an event, bounded only against
    a hang)."""
    import time

    held = Path(f"{files['go']}.held")
    deadline = time.monotonic() + 300
    while not held.exists():
        if proc.poll() is not None:
            pytest.fail(f"ended with {proc.returncode} first: {proc.stderr.read().decode()}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the command was never held")
        time.sleep(0.01)
    found = _temporaries(held.parent, start)
    assert len(found) == 1, found
    return found[0]


def _old_files_kept(files: dict[str, Path]) -> None:
    assert files["out"].read_text() == "old content\n"
    assert files["plot"].read_bytes() == b"old picture"


@pytest.mark.parametrize("signum", SIGNALS, ids=TERMINATING)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_termination_signal_leaves_no_temporary_file(tmp_path, command, signum):
    proc, files = _start(tmp_path, command)
    tmp = _wait_for_hold(proc, files)
    assert not tmp.name.startswith(".cranfield-")  # the output's, not the check's
    assert tmp.stat().st_size > 0  # the new content, waiting to be renamed
    proc.send_signal(signum)
    assert proc.wait(timeout=300) == -signum  # ended by the signal, as without a handler
    assert "Traceback" not in proc.stderr.read().decode()
    assert _temporaries(tmp_path) == []
    _old_files_kept(files)


def _wait_until_delivered(proc: subprocess.Popen, signum: int) -> None:
    """Until ``signum`` is no longer pending for ``proc`` (its handler has been called:
    Python's runs in the main thread before that thread's next step), or ``proc`` has ended."""
    import time

    bit = 1 << (signum - 1)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        status = Path(f"/proc/{proc.pid}/status").read_text()
        pending = [int(line.split()[1], 16) for line in status.splitlines() if "Pnd:" in line]
        if not any(mask & bit for mask in pending):
            return
        time.sleep(0.01)
    if proc.poll() is None:
        pytest.fail(f"signal {signum} still pending")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
@pytest.mark.parametrize("signum", SIGNALS, ids=TERMINATING)
@pytest.mark.parametrize("start", [".cranfield-", ".out.txt."], ids=["check", "output"])
def test_a_signal_between_creation_and_record_waits_for_the_record(tmp_path, start, signum):
    """The temporary file of the check before the work (``.cranfield-*.tmp``) and the output's,
    held just after they are created and before their names are known to the handler: the
    signal arrives there, is deferred until the name is recorded, then removes the file."""
    proc, files = _start(tmp_path, "evaluate -o", at=start)
    _wait_for_hold(proc, files, start)
    proc.send_signal(signum)
    _wait_until_delivered(proc, signum)
    files["go"].write_text("")
    assert proc.wait(timeout=300) == -signum
    assert _temporaries(tmp_path) == []
    _old_files_kept(files)


def test_ctrl_c_leaves_no_temporary_file_either(tmp_path):
    proc, files = _start(tmp_path, "evaluate -o")
    _wait_for_hold(proc, files)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=300) == 130
    assert proc.stderr.read().decode().splitlines() == ["cranfield: interrupted"]
    assert _temporaries(tmp_path) == []
    _old_files_kept(files)


def _ignore_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_an_ignored_signal_stays_ignored(tmp_path):
    """``nohup cranfield ...``: SIGHUP is ignored when the command starts, and stays so while
    a file is written; the command finishes its work."""
    proc, files = _start(tmp_path, "evaluate -o", preexec_fn=_ignore_sighup)
    _wait_for_hold(proc, files)
    proc.send_signal(signal.SIGHUP)
    files["go"].write_text("")
    assert proc.wait(timeout=300) == 0, proc.stderr.read().decode()
    assert files["out"].read_text().startswith("run") and _temporaries(tmp_path) == []


def _handlers() -> list:
    return [signal.getsignal(s) for s in SIGNALS]


def test_the_handlers_are_set_only_while_a_file_is_written(tmp_path):
    """In a longer process (tests, notebooks): the default dispositions are handled during the
    write and put back after it; a handler of the program's own is left alone."""
    before = _handlers()
    assert before == [signal.SIG_DFL] * len(SIGNALS)
    with replace_atomically(tmp_path / "a.txt") as fh:
        during = _handlers()
        with replace_atomically(tmp_path / "b.txt") as inner:  # nested: still handled
            inner.write(b"b")
        assert _handlers() == during
        fh.write(b"a")
    assert all(h is not signal.SIG_DFL for h in during)
    assert _handlers() == before
    with pytest.raises(RuntimeError), replace_atomically(tmp_path / "c.txt"):
        raise RuntimeError("renderer failed")
    assert _handlers() == before

    def own(signum, frame):
        pass

    previous = [signal.signal(s, own) for s in SIGNALS]
    try:
        with replace_atomically(tmp_path / "a.txt") as fh:
            assert _handlers() == [own] * len(SIGNALS)
            fh.write(b"again")
        assert _handlers() == [own] * len(SIGNALS)
    finally:
        for s, h in zip(SIGNALS, previous, strict=True):
            signal.signal(s, h)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
