"""Output files (-o, plots): checked before the work, replaced atomically (the old file
survives a write that fails midway, no temporary file is left, permissions are kept), each way
a file cannot be written with its own message."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
from pathlib import Path

import pytest
from _cli_trust import (
    RUN,
    _argv,
    _cli_env,
    call,
    files_fixture,  # noqa: F401 - the fixture 'files'
)

from cranfield.base.output_files import check_output_dir, check_output_file, replace_atomically
from cranfield.errors import ParameterError


def _listing(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir())


def test_a_write_that_fails_midway_leaves_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old content\n")
    target.chmod(0o640)
    before = _listing(tmp_path)
    with pytest.raises(RuntimeError), replace_atomically(target) as fh:
        fh.write(b"new and half")
        raise RuntimeError("renderer failed")
    assert target.read_text() == "old content\n" and _listing(tmp_path) == before
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_failed_flush_to_disk_is_an_error_naming_the_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old content\n")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    no_space = r"out\.txt: cannot write: No space left"
    with pytest.raises(ParameterError, match=no_space), replace_atomically(target) as fh:
        fh.write(b"new")
    assert target.read_text() == "old content\n" and _listing(tmp_path) == ["out.txt"]


def test_replacing_keeps_permissions_and_follows_links(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    real.chmod(0o604)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    with replace_atomically(link) as fh:
        fh.write(b"new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o604
    fresh = tmp_path / "fresh.txt"
    with replace_atomically(fresh) as fh:
        fh.write(b"x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask
    assert _listing(tmp_path) == ["fresh.txt", "link.txt", "real.txt"]


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_devices_are_written_in_place():
    with replace_atomically("/dev/null") as fh:
        fh.write(b"nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    if os.path.exists("/dev/full"):
        full = pytest.raises(ParameterError, match="/dev/full: cannot write")
        with full, replace_atomically("/dev/full") as fh:
            fh.write(b"x" * 10)


def test_output_names_are_checked(tmp_path):
    (tmp_path / "file").write_text("x")
    for bad, problem in (
        (tmp_path, "is a directory"),
        (tmp_path / "missing" / "out.txt", "does not exist"),
        (tmp_path / "file" / "out.txt", "is not a directory"),
        ("", "empty"),
    ):
        with pytest.raises(ParameterError, match=problem):
            check_output_file(bad)
    with pytest.raises(ParameterError, match=r"use a \.png, \.svg or \.pdf name"):
        check_output_file(tmp_path / "p.gif", suffixes=(".png", ".svg", ".pdf"))
    assert check_output_file(tmp_path / "P.PNG", suffixes=(".png",)).endswith("P.PNG")
    with pytest.raises(ParameterError, match="is a file"):
        check_output_dir(tmp_path / "file")
    with pytest.raises(ParameterError, match="inside a file"):
        check_output_dir(tmp_path / "file" / "charts")
    assert check_output_dir(tmp_path / "new" / "charts")
    assert not (tmp_path / "new").exists() and _listing(tmp_path) == ["file"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_places_are_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(ParameterError, match="cannot write"):
            check_output_file(ro / "out.txt")
    finally:
        ro.chmod(0o755)


# Each way a file cannot be written has its own message, the system's reason (a read-only
# file system was reported as "permission denied"): (where, option, what is there first,
# expected message).  "fs" is a new file system of the test's own (conftest's
# mount_namespace): read-only, or of 16 KiB; "dir" an ordinary directory.
WHY = {e: os.strerror(e) for e in (errno.EROFS, errno.ENOSPC, errno.ENAMETOOLONG)}
OUTPUT_FAILURES = {
    "read-only, the file exists": (
        "ro",
        ["-o", "{fs}/out.txt"],
        "file",
        "{fs}/out.txt: cannot write: " + WHY[errno.EROFS],
    ),
    "read-only, a new file": (
        "ro",
        ["-o", "{fs}/new.txt"],
        None,
        "{fs}/new.txt: cannot write in directory '{fs}': " + WHY[errno.EROFS],
    ),
    "read-only, a chart directory": (
        "ro",
        ["--plot", "{fs}/charts"],
        None,
        "{fs}/charts: cannot write in directory '{fs}': " + WHY[errno.EROFS],
    ),
    "full midway": (
        "small",
        ["-q", "-o", "{fs}/out.txt"],
        "file",
        "{fs}/out.txt: cannot write: " + WHY[errno.ENOSPC],
    ),
    "name too long": (
        "dir",
        ["-o", "{fs}/" + "x" * 300],
        None,
        "cannot write: " + WHY[errno.ENAMETOOLONG],
    ),
    "a directory": ("dir", ["-o", "{fs}"], None, "{fs}: is a directory"),
    "inside a file": ("dir", ["-o", "{fs}/file/out.txt"], "file", "is not a directory"),
}


@pytest.mark.parametrize("case", list(OUTPUT_FAILURES))
def test_each_output_failure_has_its_own_message(files, tmp_path, request, case):
    import shlex

    where, option, first, expected = OUTPUT_FAILURES[case]
    fs = tmp_path / "fs"
    fs.mkdir()
    big, qrels = tmp_path / "big.txt", tmp_path / "qrels.txt"  # per query: over 16 KiB
    big.write_text("".join(f"q{q} Q0 d{d} {d} {9 - d} a\n" for q in range(300) for d in (1, 2)))
    qrels.write_text("".join(f"q{q} 0 d1 1\n" for q in range(300)))
    if "--plot" in option:
        inputs = ["compare", files["qrels"], files["run"], files["run2"]]
    else:
        inputs = ["evaluate", str(qrels), str(big)]
    argv = [*_argv(inputs, files), *(a.format(fs=fs) for a in option)]
    steps = []
    if where != "dir":
        steps.append(f"mount -t tmpfs -o size={16 if where == 'small' else 64}k x {fs}")
    if first == "file":
        steps += [f"echo 'old content' > {fs}/out.txt", f"echo 'old content' > {fs}/file"]
    if where == "ro":
        steps.append(f"mount -o remount,ro {fs}")
    run = f"{shlex.join(argv)}; echo status=$? >&2"
    if first == "file":
        run += f"; echo kept=$(cat {fs}/out.txt) >&2; ls -A {fs} | sed 's/^/listed=/' >&2"
    script = " && ".join([*steps, "true"]) + f" && {{ {run}; }}"
    if where == "dir":
        proc = subprocess.run(["sh", "-c", script], capture_output=True, timeout=600)
    else:
        proc = request.getfixturevalue("mount_namespace")(script, _cli_env())
    lines = proc.stderr.decode().splitlines()
    assert "status=2" in lines, lines
    errors = [line for line in lines if line.startswith("cranfield") and "error: " in line]
    assert len(errors) == 1 and errors[0].endswith(expected.format(fs=fs)), lines
    assert "permission denied" not in errors[0].lower()
    if first == "file":  # the old file kept, no temporary file left
        assert "kept=old content" in lines
        listed = sorted(x for x in lines if x.startswith("listed="))
        assert listed == ["listed=file", "listed=out.txt"]


def test_output_checked_before_any_input_is_read(files, capsys, monkeypatch):
    missing = os.path.join(files["dir"], "no-such-qrels")
    for argv in (
        ["evaluate", missing, files["run"], "-o", "/nonexistent/x.txt"],
        ["curve", "pr", missing, files["run"], "--plot", "/nonexistent/pr.png"],
        ["compare", missing, files["run"], files["run2"], "--plot", f"{files['qrels']}/c"],
    ):
        code, _, err = call(argv, capsys, monkeypatch)
        assert code == 2 and "no-such-qrels" not in err and "argument -" in err, err


def test_a_plot_that_fails_midway_leaves_the_old_file(files, tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    png = tmp_path / "pr.png"
    png.write_bytes(b"old picture")

    def broken(self, fh, **kw):
        fh.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Figure, "savefig", broken)
    code, out, err = call(
        ["curve", "pr", files["qrels"], files["run"], "--plot", str(png)], capsys, monkeypatch
    )
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == f"cranfield: error: {png}: cannot write: No space left on device"
    assert png.read_bytes() == b"old picture" and _listing(tmp_path) == ["pr.png"]


def test_plots_show_dollar_signs_as_written(files, tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    run = tmp_path / "a$\\foo$.txt"
    run.write_text(RUN)
    out = tmp_path / "pr.svg"
    argv = ["curve", "pr", files["qrels"], str(run), "--title", "$x^$", "--plot", str(out)]
    code, _, err = call(argv, capsys, monkeypatch)
    assert code == 0, err
    svg = out.read_text()
    assert "a$\\foo$.txt" in svg and "$x^$" in svg  # svg.fonttype path: kept in comments


def _limit_file_size(limit: int):
    def setup() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return setup


def test_output_file_too_big_midway_keeps_the_old_file(files, tmp_path):
    """A real failure midway: a file size limit of 100 bytes; the output is larger."""
    target = tmp_path / "out.txt"
    target.write_text("old content\n")
    proc = subprocess.run(
        [*_argv(["evaluate", "{qrels}", "{run}", "-q", "-f", "trec"], files), "-o", str(target)],
        env=_cli_env(),
        capture_output=True,
        preexec_fn=_limit_file_size(100),
        timeout=600,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.splitlines()[-1] == f"cranfield: error: {target}: cannot write: File too large"
    assert target.read_text() == "old content\n" and _listing(tmp_path) == ["out.txt"]
