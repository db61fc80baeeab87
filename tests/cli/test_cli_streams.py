"""Standard output closed, full or a closed pipe, standard error closed: real subprocesses;
an error (exit 2) when output is lost, a quiet end on a closed pipe."""

from __future__ import annotations

import os
import subprocess

import pytest
from _cli_trust import (
    _argv,
    _cli_env,
    files_fixture,  # noqa: F401 - the fixture 'files'
)


def _close(*fds: int):
    def setup() -> None:
        for fd in fds:
            os.close(fd)

    return setup


STREAM_COMMANDS = [
    ["evaluate", "{qrels}", "{run}"],
    ["compare", "{qrels}", "{run}", "{run2}"],
    ["curve", "pr", "{qrels}", "{run}"],
    ["ties", "{qrels}", "{run}"],
    ["trec_eval", "{qrels}", "{run}"],
    ["measures", "AP"],
    ["demo"],
    ["--help"],
    ["evaluate", "--help"],
    ["--version"],
]
STREAM_IDS = [" ".join(c[:2]) for c in STREAM_COMMANDS]


@pytest.mark.parametrize("command", STREAM_COMMANDS, ids=STREAM_IDS)
def test_closed_stdout_is_an_error(files, command):
    proc = subprocess.run(
        _argv(command, files),
        env=_cli_env(),
        stderr=subprocess.PIPE,
        preexec_fn=_close(1),
        timeout=600,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.splitlines()[-1] == "cranfield: error: cannot write to standard output: it is closed"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", STREAM_COMMANDS, ids=STREAM_IDS)
def test_full_stdout_is_an_error(files, command):
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            _argv(command, files), env=_cli_env(), stdout=full, stderr=subprocess.PIPE
        )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.splitlines()[-1] == (
        "cranfield: error: cannot write to standard output: No space left on device"
    )
    assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.parametrize("command", STREAM_COMMANDS[:5], ids=STREAM_IDS[:5])
def test_closed_pipe_ends_quietly(files, command):
    proc = subprocess.Popen(
        _argv(command, files), env=_cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=600) == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err and "error" not in err


def test_closed_stderr_keeps_the_exit_status(files):
    missing = os.path.join(files["dir"], "missing")
    for command, status in (
        (["evaluate", "{qrels}", missing], 2),  # input error
        (["evaluate", "{qrels}", "{run}", "--digits", "99"], 2),  # usage error
        (["trec_eval", "{qrels}", missing], 2),
        (["trec_eval", "-m", "nope", "{qrels}", "{run}"], 1),  # trec_eval's own status
    ):
        proc = subprocess.run(
            _argv(command, files),
            env=_cli_env(),
            stdout=subprocess.PIPE,
            preexec_fn=_close(2),
            timeout=600,
        )
        assert proc.returncode == status, command
    # warnings (q3 scored as an empty ranking, q9 not judged) are lost with stderr; the
    # output is not
    proc = subprocess.run(
        _argv(["evaluate", "{qrels}", "{run}", "-m", "P@2", "-f", "trec"], files),
        env=_cli_env(),
        stdout=subprocess.PIPE,
        preexec_fn=_close(2),
        timeout=600,
    )
    assert proc.returncode == 0 and proc.stdout.decode().splitlines()[-1] == "P@2\tall\t0.5000"
    both = subprocess.run(
        _argv(["evaluate", "{qrels}", "{run}"], files), env=_cli_env(), preexec_fn=_close(1, 2)
    )
    assert both.returncode == 2
