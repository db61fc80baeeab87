"""The launcher of every timed command (``bench/run.py``, ``bench/scale.py``): standard library
only, so that importing it and starting the launcher keep the benchmark's process small.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys

# Why the timed commands are not started from this process: peak memory is ``ru_maxrss`` from
# ``wait4``, and on Linux subprocess starts a child with vfork (or fork) + exec, where at exec
# the kernel folds the high-water RSS of the address space being replaced, this process's,
# into the child's maxrss. Every child would then report at least this process's own peak
# (it imports cranfield and numpy, and may generate the collections in-process): once it
# printed 98 MB for cranfield, pytrec_eval and ir_measures alike. So every timed command is
# started by the launcher below, a separate small Python (``-I -S``, stdlib os, sys, json,
# time only) started before anything heavy is imported: it reads one JSON request per line
# (argv, stdout path, env), posix_spawns the command (stdin and stderr /dev/null), waits
# with ``wait4`` and answers with one JSON line. Its child's exec replaces only the
# launcher's own address space, so the floor of what is measured is the launcher's own
# peak, about 10 MB (a bare ``python -c pass`` is about 13 MB; a small C binary such as
# trec_eval reads as about 10 MB).
_LAUNCHER = """\
import json, os, sys, time
for line in sys.stdin:
    req = json.loads(line)
    argv, null, OPEN = req["argv"], os.devnull, os.POSIX_SPAWN_OPEN
    acts = [(OPEN, 0, null, os.O_RDONLY, 0),
            (OPEN, 1, req["stdout"] or null, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666),
            (OPEN, 2, null, os.O_WRONLY, 0)]
    start = time.perf_counter()
    try:
        pid = os.posix_spawnp(argv[0], argv, req["env"], file_actions=acts)
    except OSError as e:
        rep = {"errno": e.errno, "error": e.strerror}
    else:
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        rep = {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "peak_mb": ru.ru_maxrss / 1024,
               "status": os.waitstatus_to_exitcode(status)}
    print(json.dumps(rep), flush=True)
"""
_launcher: subprocess.Popen[str] | None = None


def launcher() -> subprocess.Popen[str]:
    """The launcher process (started on first use, or at the top of ``__main__``)."""
    global _launcher
    if _launcher is None:
        _launcher = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        atexit.register(_stop_launcher)
    return _launcher


def _stop_launcher() -> None:
    if _launcher is not None and _launcher.poll() is None:
        _launcher.stdin.close()  # end of requests: the launcher exits
        _launcher.wait()


def _env() -> dict[str, str]:
    from pathlib import Path

    env = dict(os.environ)
    # an installed package has its bytecode cached; time that state, not a recompile per run
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    return env


def measure(cmd: list[str], stdout: os.PathLike | None = None) -> tuple[float, float, float, int]:
    """Run ``cmd`` from the launcher; return (wall seconds, CPU seconds, peak RSS in MB, exit
    status). Its stdout goes to the file ``stdout`` (or /dev/null), stderr to /dev/null."""
    proc = launcher()
    request = {"argv": cmd, "stdout": str(stdout) if stdout else None, "env": _env()}
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"the launcher process exited (status {proc.wait()})")
    rep = json.loads(line)
    if "error" in rep:
        raise OSError(rep["errno"], rep["error"], cmd[0])
    return rep["wall"], rep["cpu"], rep["peak_mb"], rep["status"]
