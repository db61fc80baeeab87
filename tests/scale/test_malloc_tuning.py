"""The allocator set-up of the ``cranfield`` command (cranfield.scale.malloc_tuning), observed from
outside: page faults of growing temporaries, with and without it, in fresh interpreters."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _glibc() -> bool:
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (AttributeError, ValueError, OSError):
        return False


pytestmark = pytest.mark.skipif(not _glibc(), reason="the allocator set-up is glibc's mallopt")

GROWING = """
import resource, sys
import numpy as np
from cranfield.scale.malloc_tuning import warm_malloc
tuned = warm_malloc() if sys.argv[1] == "tuned" else False
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for k in range(1, 16):  # temporaries of growing sizes (k/4 MiB), each written, then freed
    a = np.ones(k << 15)
    del a
print(tuned, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _clean_env() -> dict[str, str]:
    """This environment without allocator settings (a Dask LocalCluster started by an earlier
    test sets MALLOC_TRIM_THRESHOLD_ in the test process, as its docs warn)."""
    return {
        k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"
    }


def _faults(mode: str, env: dict[str, str] | None = None) -> tuple[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", GROWING, mode],
        capture_output=True,
        text=True,
        check=True,
        env=_clean_env() if env is None else env,
    ).stdout.split()
    return out[0], int(out[1])


def test_growing_temporaries_reuse_the_heap_instead_of_fresh_pages():
    """15 temporaries of 1/4 .. 15/4 MiB: glibc's default maps each fresh (its threshold
    follows the last freed size, so every larger one is new: 30 MiB of pages faulted in); set
    up, they reuse one heap that grows to 15/4 MiB."""
    tuned, faults_tuned = _faults("tuned")
    assert tuned == "True"
    _, faults_default = _faults("default")
    page = os.sysconf("SC_PAGE_SIZE")
    assert faults_default > (25 << 20) // page  # nearly every size faulted in afresh
    assert faults_tuned < (8 << 20) // page  # about one heap's worth
    assert faults_tuned * 3 < faults_default


def test_a_users_own_settings_are_left_alone():
    env = dict(_clean_env(), MALLOC_MMAP_THRESHOLD_="131072")
    tuned, _ = _faults("tuned", env)
    assert tuned == "False"


def test_the_command_sets_it_up(tmp_path):
    """``cranfield`` calls it before any work: a run through the command line sets the
    thresholds (observed as above, in the command's own process through a tiny plug-in)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import resource, numpy as np, cranfield.cli as cli, sys\n"
        "cli.main(['measures', '--short'])\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
        "for k in range(1, 16):\n"
        "    a = np.ones(k << 15); del a\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before, file=sys.stderr)\n"
    )
    out = subprocess.run(
        [sys.executable, str(probe)], capture_output=True, text=True, env=_clean_env()
    )
    assert out.returncode == 0, out.stderr
    faults = int(out.stderr.split()[-1])
    _, faults_default = _faults("default")
    assert faults * 3 < faults_default
