"""The compiled core's threads end with each call (rust/src/threads.rs): after large qrels are
read and a large run judged on all cores, the process runs one thread again, so that the
worker processes of ``-j N`` can still be forked (a process with other threads must start
them from a fork server, a fresh interpreter each: 0.2 s more per worker).  Checked in a fresh
interpreter (pytest's own process runs other threads)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import os, sys
from pathlib import Path
from cranfield import _core
from cranfield.io import read_qrels
from cranfield.judging.join import qrels_index
from cranfield.scale.processes import start_method

def threads():
    return len(os.listdir("/proc/self/task"))

before = threads()
path = Path(sys.argv[1])
queries, docs = 300, 400  # 120,000 judgments: sorted by query on all cores
path.joinpath("q").write_text(
    "".join(f"q{q} 0 d{d} {d % 3}\\n" for q in range(queries) for d in range(docs, 0, -1))
)
qrels = read_qrels(path / "q")
after_qrels = threads()
run = "".join(f"q{q} Q0 d{d} {d} {-d} t\\n" for q in range(queries) for d in range(docs))
data = run.encode()
assert len(data) >= 2 << 20  # a piece judged on all cores
judge = _core.RunJudge(qrels_index(qrels), None, False, threads=2)
assert judge.feed(data) is None
got = judge.take(True).batch()
assert len(got["qrels_queries"]) == queries
print(before, after_qrels, threads(), start_method())
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted on Linux")
def test_no_thread_of_the_core_outlives_its_call(tmp_path):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    before, after_qrels, after_run, method = int(out[0]), int(out[1]), int(out[2]), out[3]
    assert before == 1, out
    assert (after_qrels, after_run, method) == (1, 1, "fork")
