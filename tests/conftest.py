"""Shared fixtures: the reference data in ../shared (skipped with a reason when absent) and a
helper that runs the real ``cranfield`` command in a subprocess."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Every property test draws the same examples on every run and machine (CI is deterministic;
# a test's own settings keep this unless they say otherwise).
settings.register_profile("cranfield", derandomize=True)
settings.load_profile("cranfield")

REPO = Path(__file__).resolve().parents[1]


def _find_shared() -> Path:
    """$CRANFIELD_SHARED, else ``../shared`` beside the checkout, as README.md says: never a
    ``shared/`` folder further up (a test run must not pick up unrelated data)."""
    given = os.environ.get("CRANFIELD_SHARED")
    return Path(given) if given else REPO.parent / "shared"


SHARED = _find_shared()
CONFORMANCE = SHARED / "conformance" / "trec_eval"
SEEDS = SHARED / "seeds"
DATA = SHARED / "data"


def need(path: Path) -> Path:
    """Skip the calling test, with a clear reason, if reference data is missing."""
    if not path.exists():
        pytest.skip(f"reference data not available: {path} (set CRANFIELD_SHARED)")
    return path


@pytest.fixture
def conformance_dir() -> Path:
    return need(CONFORMANCE)


@pytest.fixture
def data_dir() -> Path:
    return need(DATA)


def run_cli(*args: str, cwd: Path | None = None, input: bytes | None = None):
    """Run ``python -m cranfield ARGS`` with this checkout's ``src`` first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "cranfield", *args],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        timeout=600,
    )


@pytest.fixture
def cli():
    return run_cli


UNSHARE = ("unshare", "--user", "--map-root-user", "--mount")


@functools.cache
def _can_mount() -> bool:
    """Whether this machine lets an unprivileged process mount a tmpfs in its own user and
    mount namespace (Linux with user namespaces allowed)."""
    import shutil
    import tempfile

    if sys.platform != "linux" or not shutil.which("unshare"):
        return False
    with tempfile.TemporaryDirectory() as d:
        probe = subprocess.run(
            [*UNSHARE, "sh", "-c", f"mount -t tmpfs cranfield-test {d}"],
            capture_output=True,
            timeout=60,
        )
    return probe.returncode == 0


def _in_mount_namespace(script: str, env: dict[str, str] | None = None):
    return subprocess.run([*UNSHARE, "sh", "-c", script], env=env, capture_output=True, timeout=600)


@pytest.fixture
def mount_namespace():
    """``run(script, env)``: ``sh -c script`` as root of a new user and mount namespace, where
    the script may mount a tmpfs of its own (small, or read-only) that no one else sees;
    the test is skipped where that is not allowed."""
    if not _can_mount():
        pytest.skip("cannot mount a file system in a user namespace here")
    return _in_mount_namespace


TEXT_PARSERS = ("strings", "arrow")
"""The two outputs of the compiled core's TREC text reader, which reads every TREC text: a
run's ids as Python strings (small runs) or as an Arrow column (from
``io/trec/core.ARROW_IDS_ROWS`` rows on).  The readers it replaced (the exact line parser, the
field splitter, Arrow) are its test oracle only (``io/trec/text_oracle.py``,
``tests/io/test_core_reader.py``)."""


def use_text_parser(monkeypatch, which: str) -> None:
    """Send every TREC text read of the test through one output of the core: ``arrow`` (ids
    as an Arrow column) or anything else (Python strings; the older names ``exact`` and
    ``fields`` of loops that compare outcomes mean the same now)."""
    import cranfield.io.trec.core as trec_core

    monkeypatch.setattr(trec_core, "ARROW_IDS_ROWS", 0 if which == "arrow" else 1 << 62)


@pytest.fixture(params=TEXT_PARSERS)
def text_parser(request, monkeypatch) -> str:
    """Run the test once through each TREC text parser."""
    use_text_parser(monkeypatch, request.param)
    return request.param
