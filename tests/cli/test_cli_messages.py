"""What a new user meets first (issue 27, item 5): an offline ``irds:`` in one line,
``nDCG10`` steered to ``nDCG@10``, swapped QRELS and RUN named as such, ``report`` refusing to
pour HTML into a terminal, no absolute input path in a report, and "1 chart"."""

from __future__ import annotations

import importlib.util
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import cranfield
from conftest import REPO, run_cli
from cranfield.errors import InputError, MeasureError
from cranfield.measures import parse

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\nq2 Q0 d3 1 1.0 a\nq2 Q0 d1 2 0.5 a\n"
OTHER = "q1 Q0 d2 1 2.0 b\nq1 Q0 d1 2 1.0 b\nq2 Q0 d1 1 1.0 b\nq2 Q0 d3 2 0.5 b\n"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("qrels.txt", QRELS), ("a.run", RUN), ("b.run", OTHER)):
        (tmp_path / name).write_text(text)
        paths[name] = str(tmp_path / name)
    return paths


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


# ---------------------------------------------------------------------------- irds offline
OFFLINE = """\
import socket, sys
def offline(*args, **kwargs):
    raise socket.gaierror(-2, "Name or service not known")
socket.getaddrinfo = offline
socket.create_connection = offline
from cranfield.cli import entry
sys.argv = ["cranfield", *sys.argv[1:]]
entry()
"""


@pytest.mark.skipif(importlib.util.find_spec("ir_datasets") is None, reason="no ir_datasets")
def test_irds_without_the_network_is_one_line(files, tmp_path):
    """ir_datasets retries two download sources and logs six lines; the user gets one line:
    what failed, the hosts, and that it needs the network or its cache."""
    env = _env()
    env["IR_DATASETS_HOME"] = str(tmp_path / "irds")  # an empty cache
    proc = subprocess.run(
        [sys.executable, "-c", OFFLINE, "evaluate", "irds:cranfield", files["a.run"]],
        env=env, capture_output=True, timeout=600,
    )  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b"", err
    assert err.count("\n") == 1 and "[INFO]" not in err and "[WARNING]" not in err, err
    assert err.startswith("cranfield: error: irds:cranfield: ir_datasets could not download")
    assert "the network cannot be reached (ir.dcs.gla.ac.uk" in err
    assert "IR_DATASETS_HOME" in err and len(err) < 400, len(err)


# ---------------------------------------------------------------------------- measure names
@pytest.mark.parametrize(
    ("written", "meant"),
    [("nDCG10", "nDCG@10"), ("ndcg10", "nDCG@10"), ("P10", "P@10"), ("R1000", "R@1000"),
     ("nDCG-20", "nDCG@20"), ("AP5", "AP@5")],
)  # fmt: skip
def test_a_cut_off_without_its_at_sign_is_suggested_first(written, meant):
    with pytest.raises(MeasureError, match=f"did you mean {meant},"):
        parse(written)
    parse(meant)  # and the suggestion is a measure


def test_the_suggestion_on_the_command_line(files):
    proc = run_cli("evaluate", files["qrels.txt"], files["a.run"], "-m", "nDCG10")
    assert proc.returncode == 2
    assert "did you mean nDCG@10, " in proc.stderr.decode()


def test_no_at_suggestion_for_a_name_without_a_cut_off():
    with pytest.raises(MeasureError) as info:
        parse("Rprec5")  # R-precision takes no cut-off
    assert "Rprec@5" not in str(info.value)


# ---------------------------------------------------------------------------- swapped files
def test_swapped_qrels_and_run_get_a_hint_on_every_reader(files, text_parser):
    with pytest.raises(InputError, match=r"line 1: .*found 6: this looks like a run .*swapped"):
        cranfield.read_qrels(files["a.run"])
    with pytest.raises(InputError, match=r"line 1: .*found 4: this looks like qrels .*swapped"):
        cranfield.read_run(files["qrels.txt"])


def test_swapped_on_the_command_line(files):
    proc = run_cli("evaluate", files["a.run"], files["qrels.txt"])
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1
    assert "a.run: line 1:" in err and "are the qrels and the run swapped?" in err


def test_a_real_short_line_gets_no_swap_hint(tmp_path):
    q = tmp_path / "q"
    q.write_text("q1 0 d1\n")
    with pytest.raises(InputError) as info:
        cranfield.read_qrels(str(q))
    assert "swapped" not in str(info.value)


# ---------------------------------------------------------------------------- report
def _on_a_terminal(argv: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run the command with standard output on a pseudo-terminal: (status, what the
    terminal received, stderr)."""
    main, tty = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cranfield", *argv],
        cwd=cwd, env=_env(), stdout=tty, stderr=subprocess.PIPE,
    )  # fmt: skip
    os.close(tty)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        shown += chunk
    err = proc.stderr.read()
    status = proc.wait(timeout=600)
    os.close(main)
    return status, shown, err


def test_report_refuses_to_print_html_to_a_terminal(files, tmp_path):
    argv = ["report", files["qrels.txt"], files["a.run"], files["b.run"], "-m", "AP"]
    status, shown, err = _on_a_terminal(argv, tmp_path)
    assert status == 2 and b"<html" not in shown and b"<!DOCTYPE" not in shown
    assert err.decode().splitlines()[-1].startswith("cranfield report: error: the report is")
    assert b"-o report.html" in err
    assert not list(tmp_path.glob("*.html"))  # nothing written behind the user's back
    # redirected to a file (not a terminal), the page is written there as before
    proc = run_cli(*argv, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith(b"<!DOCTYPE html>")
    # -o - asks for it: printed even to a terminal
    status, shown, _ = _on_a_terminal([*argv, "-o", "-"], tmp_path)
    assert status == 0 and b"<!DOCTYPE html>" in shown


def test_a_report_holds_no_absolute_input_path(files, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    out = work / "r.html"
    absolute = [files["qrels.txt"], files["a.run"], files["b.run"]]
    proc = run_cli("report", *absolute, "-m", "AP", "-o", str(out), cwd=work)
    assert proc.returncode == 0, proc.stderr.decode()
    page = out.read_text()
    assert str(tmp_path) not in page
    for name in ("qrels.txt", "a.run", "b.run"):
        assert f"../{name}" in page  # relative to the working directory
    # the same from Python
    old = os.getcwd()
    try:
        os.chdir(work)
        # two runs on two queries: the t-test's advice and a one-valued interval, asserted
        with (
            pytest.warns(cranfield.errors.CranfieldWarning, match="t-test on 2 queries"),
            pytest.warns(cranfield.errors.CranfieldWarning, match="interval is .mean, mean."),
        ):
            rep = cranfield.report(absolute[0], absolute[1:], ["AP"])
    finally:
        os.chdir(old)
    assert str(tmp_path) not in rep.html and "../a.run" in rep.html


# ---------------------------------------------------------------------------- plural
@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")
def test_one_chart_is_one_chart(files, tmp_path):
    plots = tmp_path / "plots"
    proc = run_cli(
        "compare", files["qrels.txt"], files["a.run"], files["b.run"], "-m", "AP",
        "--sweep", "P@1,2", "--plot", str(plots), "--no-pair-plots",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr.decode()
    assert [p.name for p in plots.iterdir()] == ["sweeps.png"]
    assert f"cranfield: wrote 1 chart to {plots}\n" in proc.stderr.decode()
