"""``jobs``: several runs evaluated at once in worker processes give byte for byte what one
process gives (values, output, warnings in order, the first error in run order); small inputs
start no pool; any concurrent.futures Executor plugs into the same seam."""

from __future__ import annotations

import io
import sys
import warnings
from concurrent.futures import Executor, Future

import numpy as np
import pytest
from test_scale_streaming import qrels_text, run_text

import cranfield.scale.processes as parallel_mod
from cranfield import evaluate
from cranfield.cli import run as cli_run
from cranfield.errors import InputError, ParameterError
from cranfield.evaluation import DEFAULT_MEASURES, evaluate_task
from cranfield.judging.runs import judge_many
from cranfield.scale.streaming import Plan

# the generated collections judge a query the runs do not answer (scored as trec_eval -c)
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*judged queries have no results:cranfield.errors.DataWarning"
)

MEASURES = ["AP", "P@10", "nDCG@10", "RR", "Bpref"]


def _files(tmp_path, layouts=("grouped", "messy", "shuffled", "ties", "gzip", "tabs")):
    (tmp_path / "qrels.txt").write_bytes(qrels_text("grouped"))
    paths = []
    for i, layout in enumerate(layouts):
        p = tmp_path / f"run{i}.{layout}"
        p.write_bytes(run_text(layout, seed=i))
        paths.append(str(p))
    return str(tmp_path / "qrels.txt"), paths


def _evaluate(*args, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = evaluate(*args, **kw)
    return res, [(type(w.message).__name__, str(w.message)) for w in caught]


def test_worker_processes_give_the_same_results(tmp_path, monkeypatch):
    qrels, runs = _files(tmp_path)
    one, warned_one = _evaluate(qrels, runs, MEASURES, jobs=1, aggregate="micro")
    monkeypatch.setattr(parallel_mod, "POOL_FROM_BYTES", 0)
    started = []
    real = parallel_mod.process_pool
    monkeypatch.setattr(parallel_mod, "process_pool", lambda n, s: started.append(n) or real(n, s))
    two, warned_two = _evaluate(qrels, runs, MEASURES, jobs=2, aggregate="micro")
    assert started == [2]
    assert warned_two == warned_one and any("more than 6" in m for _, m in warned_one)
    for a, b in zip(one, two, strict=True):
        assert a.run == b.run and a.query_ids == b.query_ids
        assert a.values.tobytes() == b.values.tobytes()
        assert a.summary == b.summary and a.notes == b.notes and a.aggregate() == b.aggregate()


def test_the_command_line_prints_the_same_bytes(tmp_path, monkeypatch, capsys):
    qrels, runs = _files(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        if jobs == "2":
            monkeypatch.setattr(parallel_mod, "POOL_FROM_BYTES", 0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cli_run(["evaluate", qrels, *runs, "-q", "-f", "trec", "-j", jobs, "-m", "AP"])
        outputs.append((capsys.readouterr().out, [str(w.message) for w in caught]))
    assert outputs[0] == outputs[1] and outputs[0][0]


def test_the_first_error_in_run_order_is_raised(tmp_path, monkeypatch):
    qrels, runs = _files(tmp_path, ("grouped", "grouped", "grouped", "grouped"))
    with open(runs[3], "ab") as f:
        f.write(b"1 Q0 Dz 1\n")  # too few fields
    with open(runs[1], "ab") as f:
        f.write(b"1 Q0 D1 1 nan t\n")
    with pytest.raises(InputError) as one:
        evaluate(qrels, runs, MEASURES, jobs=1)
    monkeypatch.setattr(parallel_mod, "POOL_FROM_BYTES", 0)
    with pytest.raises(InputError) as two:
        evaluate(qrels, runs, MEASURES, jobs=2)
    assert str(two.value) == str(one.value) and "run1" in str(one.value)


def test_small_inputs_start_no_pool(tmp_path):
    _, runs = _files(tmp_path)
    assert parallel_mod.workers(8, runs) == 0  # a few kB: not worth a pool
    assert parallel_mod.workers(1, runs) == 0
    assert parallel_mod.workers(8, runs[:1]) == 0


def test_in_memory_runs_mix_with_files(tmp_path, monkeypatch):
    from cranfield import read_run

    qrels, runs = _files(tmp_path, ("grouped", "ties", "grouped"))
    mixed = [runs[0], read_run(runs[1]).to_dict(), runs[2]]
    one = evaluate(qrels, mixed, MEASURES, jobs=1)
    monkeypatch.setattr(parallel_mod, "POOL_FROM_BYTES", 0)
    two = evaluate(qrels, mixed, MEASURES, jobs=2)
    assert [r.run for r in one] == [r.run for r in two] == ["run0.grouped", "run2", "run2.grouped"]
    for a, b in zip(one, two, strict=True):
        assert a.values.tobytes() == b.values.tobytes()


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2", 2000])
def test_bad_jobs_are_parameter_errors(tmp_path, jobs):
    qrels, runs = _files(tmp_path, ("grouped",))
    with pytest.raises(ParameterError, match="jobs"):
        evaluate(qrels, runs, MEASURES, jobs=jobs)


class _Inline(Executor):
    """An executor that runs each call at once, in this process (a stand-in for Dask)."""

    def __init__(self) -> None:
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls += 1
        f: Future = Future()
        f.set_result(fn(*args, **kwargs))
        return f


def test_any_executor_plugs_into_the_seam(tmp_path):
    qrels, runs = _files(tmp_path, ("grouped", "shuffled", "gzip"))
    judged = judge_many(qrels, runs)
    from cranfield.evaluation import measure_specs
    from cranfield.results.blocks import micro_labels

    specs = measure_specs(DEFAULT_MEASURES)
    plan = Plan(specs, None, judged.options, micro_labels(specs, None))
    ex = _Inline()
    got = list(judged.map(evaluate_task, plan, executor=ex))
    assert ex.calls == 3
    expected = evaluate(qrels, runs, jobs=1)
    for a, b in zip(got, expected, strict=True):
        assert np.array_equal(a.values, b.values) and a.run == b.run


def test_standard_input_is_read_here(tmp_path, monkeypatch):
    qrels, runs = _files(tmp_path, ("grouped", "grouped"))
    with open(runs[1], "rb") as f:
        data = f.read()
    expected = evaluate(qrels, [runs[0], runs[1]], MEASURES, jobs=1, names=["a", "b"])
    monkeypatch.setattr(parallel_mod, "POOL_FROM_BYTES", 0)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    got = evaluate(qrels, [runs[0], "-"], MEASURES, jobs=2, names=["a", "b"])
    for a, b in zip(got, expected, strict=True):
        assert a.values.tobytes() == b.values.tobytes()


def test_a_script_read_from_standard_input_works_with_jobs(tmp_path):
    """``python - <<EOF``: worker processes would import the main script ``<stdin>``, which is
    no file (multiprocessing fails in every worker, a traceback); the runs are evaluated in
    the process instead, with the same values."""
    import subprocess

    _, runs = _files(tmp_path, layouts=("grouped", "ties"))
    qrels = tmp_path / "qrels.txt"
    script = (
        "import cranfield, cranfield.scale.processes as p, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "p.POOL_FROM_BYTES = 0\n"
        f"runs = {[str(r) for r in runs]!r}\n"
        f"a = cranfield.evaluate({str(qrels)!r}, runs, ['AP', 'P@5'], jobs=2)\n"
        f"b = cranfield.evaluate({str(qrels)!r}, runs, ['AP', 'P@5'], jobs=1)\n"
        "assert [r.values.tobytes() for r in a] == [r.values.tobytes() for r in b]\n"
        "print(p.workers(2, runs))\n"
    )
    done = subprocess.run(
        [sys.executable, "-"], input=script.encode(), capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == "0" and b"Traceback" not in done.stderr


def _script(tmp_path, body: str) -> tuple[str, str]:
    """Run ``body`` in a fresh interpreter (numpy's BLAS threads off, as the command does)."""
    import subprocess

    code = "import os\nos.environ['OPENBLAS_NUM_THREADS'] = '1'\n" + body
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_a_process_of_one_thread_forks_its_workers(tmp_path):
    """The command runs one thread, so its workers are forked copies of it (cranfield and the
    inputs already there); what its stdout buffer held is written once, not once per copy;
    the output file is the bytes of -j 1."""
    qrels, runs = _files(tmp_path)
    args = ["evaluate", qrels, *runs, "-q", "-f", "trec", "-m", "AP", "-m", "P@10"]
    out, err = _script(
        tmp_path,
        "import sys, warnings\n"
        "import cranfield.scale.processes as p\n"
        "from cranfield.cli import main\n"
        "p.POOL_FROM_BYTES = 0\n"
        "sys.stdout.write('written before the pool\\n')  # a pipe: held in the buffer\n"
        f"main({[*args, '-j', '2', '-o', 'two.txt']!r})\n"
        "print(p.last_start_method)\n"
        "p.last_start_method = None\n"
        f"main({[*args, '-j', '1', '-o', 'one.txt']!r})\n"
        "print(p.last_start_method)\n",
    )
    assert out.splitlines() == ["written before the pool", "fork", "None"]
    one, two = (tmp_path / "one.txt").read_bytes(), (tmp_path / "two.txt").read_bytes()
    assert one == two and one.count(b"\n") > 6
    assert err.count("more than 6") == 2  # the messy run's warning, once for each -j


def test_a_process_with_another_thread_starts_workers_from_the_fork_server(tmp_path):
    """A thread (a notebook's, a progress bar's) may hold a lock that a forked copy would
    never see released: then the workers come from the fork server, with the same values."""
    qrels, runs = _files(tmp_path, layouts=("grouped", "ties", "tabs"))
    out, _ = _script(
        tmp_path,
        "import threading, warnings\n"
        "import cranfield, cranfield.scale.processes as p\n"
        "warnings.simplefilter('ignore')\n"
        "p.POOL_FROM_BYTES = 0\n"
        "print(p.start_method())\n"
        "stop = threading.Event()\n"
        "threading.Thread(target=stop.wait, daemon=True).start()\n"
        "print(p.start_method())\n"
        f"a = cranfield.evaluate({qrels!r}, {runs!r}, ['AP', 'P@5'], jobs=2)\n"
        "print(p.last_start_method)\n"
        "stop.set()\n"
        f"b = cranfield.evaluate({qrels!r}, {runs!r}, ['AP', 'P@5'], jobs=1)\n"
        "print([r.values.tobytes() for r in a] == [r.values.tobytes() for r in b])\n",
    )
    assert out.splitlines() == ["fork", "forkserver", "forkserver", "True"]
