"""Packaging (issue 25): ``maturin build --release`` makes one abi3 wheel that installs and runs
in a fresh virtual environment on a machine without Rust, and the release workflow builds the
wheels of every platform users have, and the sdist.

The wheel test is slow (a release build of the core, then the dependencies from PyPI or the
local pip cache into the new environment); it runs in CI like every slow test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"


def _without_rust(path: str) -> str:
    """PATH without every folder that holds cargo or rustc."""
    keep = [
        d
        for d in path.split(os.pathsep)
        if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc"))
    ]
    return os.pathsep.join(keep)


@pytest.fixture(scope="module")
def release_wheel(tmp_path_factory) -> Path:
    pytest.importorskip("maturin", reason="building the wheel needs maturin (the test extra)")
    if shutil.which("cargo") is None:
        pytest.skip("building the wheel needs the Rust toolchain (cargo)")
    out = tmp_path_factory.mktemp("release")
    build = subprocess.run(
        [sys.executable, "-m", "maturin", "build", "--release", "--out", str(out)],
        cwd=REPO, capture_output=True, timeout=1800,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr.decode(errors="replace")[-3000:]
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.mark.slow
def test_the_abi3_wheel_installs_and_runs_where_there_is_no_rust(tmp_path, release_wheel):
    # one wheel for every CPython >= 3.11: tagged cp311-abi3, in its name and its metadata
    name, version, python, abi, platform = release_wheel.stem.split("-")
    assert (name, python, abi) == ("cranfield", "cp311", "abi3"), release_wheel.name
    with zipfile.ZipFile(release_wheel) as z:
        names = z.namelist()
        wheel_meta = z.read(f"cranfield-{version}.dist-info/WHEEL").decode()
    assert f"Tag: cp311-abi3-{platform}" in wheel_meta.splitlines(), wheel_meta
    assert [n for n in names if n.startswith("cranfield/_core.")] == ["cranfield/_core.abi3.so"]
    assert not any(n.startswith(("rust/", "cranfield/rust")) for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([str(bindir), _without_rust(os.environ.get("PATH", ""))])
    env.pop("CARGO_HOME", None)
    env.pop("RUSTUP_HOME", None)
    assert shutil.which("cargo", path=env["PATH"]) is None
    assert shutil.which("rustc", path=env["PATH"]) is None
    python_exe = str(bindir / "python")
    # wheels only: nothing may be built from source, not even a dependency
    install = subprocess.run(
        [python_exe, "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "--only-binary", ":all:", str(release_wheel)],
        env=env, cwd=tmp_path, capture_output=True, timeout=1800,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr.decode(errors="replace")[-3000:]

    where = subprocess.run(
        [python_exe, "-c", "import cranfield._core as c, cranfield; print(c.__file__); "
         "print(cranfield.__file__)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    core, package = where.stdout.split()
    site = str(venv)
    assert core.startswith(site) and core.endswith("_core.abi3.so"), core
    assert package.startswith(site), package

    # the installed command prints the demo as the checkout does
    demo = subprocess.run(
        [str(bindir / "cranfield"), "demo"],
        env=env, cwd=tmp_path, capture_output=True, timeout=600,
    )  # fmt: skip
    assert demo.returncode == 0, demo.stderr.decode(errors="replace")
    checkout_env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    here = subprocess.run(
        [sys.executable, "-m", "cranfield", "demo"],
        env=checkout_env, cwd=tmp_path, capture_output=True, timeout=600,
    )  # fmt: skip
    assert here.returncode == 0, here.stderr.decode(errors="replace")
    assert demo.stdout.startswith(b"cranfield demo: three retrieval models")
    # the same bytes but for where the bundled data lies (the package's folder, printed)
    installed = demo.stdout.replace(str(Path(package).parent).encode(), b"<cranfield>")
    checkout = here.stdout.replace(str(REPO / "src" / "cranfield").encode(), b"<cranfield>")
    assert b"<cranfield>/examples/cranfield" in installed
    assert installed == checkout


def _workflow() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _maturin_steps(job: dict) -> list[dict]:
    return [s for s in job["steps"] if str(s.get("uses", "")).startswith("PyO3/maturin-action@")]


def _matrix_values(job: dict, key: str) -> set[str]:
    """The values a job's matrix gives ``key``: a list, or the ``include`` entries."""
    matrix = job.get("strategy", {}).get("matrix", {})
    values = set(matrix.get(key, []))
    values |= {entry[key] for entry in matrix.get("include", []) if key in entry}
    return values


def test_the_release_workflow_builds_every_platform_and_the_sdist():
    wf = _workflow()
    jobs = wf["jobs"]
    # PyYAML reads the key `on` as True (YAML 1.1)
    triggers = wf.get("on", wf.get(True))
    assert "tags" in triggers["push"] and "workflow_dispatch" in triggers

    wheels = {}  # (os, target, libc) built by a maturin-action step in release mode
    for job_name, job in jobs.items():
        for step in _maturin_steps(job):
            args = step.get("with", {})
            if args.get("command", "build") != "build":
                continue
            assert "--release" in args.get("args", ""), job_name
            runner = str(job["runs-on"])
            targets = (
                _matrix_values(job, "target")
                if "matrix.target" in str(args.get("target"))
                else {args.get("target")}
            )
            libcs = (
                _matrix_values(job, "manylinux")
                if "matrix.manylinux" in str(args.get("manylinux", ""))
                else {args.get("manylinux", "auto")}
            )
            runners = _matrix_values(job, "runner") if "matrix.runner" in runner else {runner}
            for target in targets:
                for libc in libcs:
                    for r in runners:
                        wheels[(r.split("-")[0], target, libc)] = job_name
    linux = {(t, c) for (os_, t, c) in wheels if os_ == "ubuntu"}
    for target in ("x86_64", "aarch64"):
        assert (target, "auto") in linux, (target, sorted(wheels))
        assert any(t == target and c.startswith("musllinux") for t, c in linux), target
    macos = {t for (os_, t, _) in wheels if os_ == "macos"}
    assert {"x86_64", "aarch64"} <= macos, sorted(wheels)
    assert any(os_ == "windows" and t == "x64" for (os_, t, _) in wheels), sorted(wheels)

    sdist = [
        name
        for name, job in jobs.items()
        for step in _maturin_steps(job)
        if step.get("with", {}).get("command") == "sdist"
    ]
    assert sdist, "no job builds the sdist"
    # published only from a tag, after every wheel, the sdist and the install check
    publish = jobs["publish"]
    assert "refs/tags/" in publish["if"]
    needs = set(publish["needs"])
    assert set(wheels.values()) | set(sdist) | {"check"} <= needs, needs
