"""Every command against damaged files, in-process: the adversarial suite at the level a user
sees.  Valid qrels and runs (Hypothesis, fixed seeds) are damaged by the mutations of
``test_io_adversarial`` (byte flips, truncation, deleted or doubled fields, joined lines, bare
CRs, BOMs, NUL and undecodable bytes, hostile numbers, control characters in ids, corrupt
compressed data), then given to ``evaluate``, ``compare``, ``curve pr|gain|fallout``,
``ties``, ``report`` and ``trec_eval`` through :func:`cranfield.cli.main`.

For every input and command: the exit status is 0 or 2 (``trec_eval`` keeps trec_eval's own
statuses, 4 and 7 too) and nothing but SystemExit escapes
(no traceback); an error is one ``cranfield: error:`` line, and one about a line of a file
names that file; and the three TREC parsers give the same exit status, output and messages.
The counts of the campaign go to ``CAMPAIGN`` (reported by the slow test).
"""

from __future__ import annotations

import io
import re
import sys
import warnings
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_io_adversarial import mutate, trec_file

from conftest import TEXT_PARSERS, use_text_parser
from cranfield.cli import main

COMMANDS = {
    "evaluate": ["evaluate", "{qrels}", "{run}", "-m", "AP", "-m", "P@5", "-m", "nDCG@3", "-q"],
    "evaluate weak": ["evaluate", "{qrels}", "{run}", "-m", "AP", "--ties", "weak", "-M", "3"],
    "compare": ["compare", "{qrels}", "{run}", "{other}", "-m", "AP", "--test", "t"],
    "curve pr": ["curve", "pr", "{qrels}", "{run}"],
    "curve gain": ["curve", "gain", "{qrels}", "{run}"],
    "curve fallout": ["curve", "fallout", "{qrels}", "{run}", "--collection-size", "100"],
    "ties": ["ties", "{qrels}", "{run}"],
    "report": ["report", "{qrels}", "{run}", "{other}", "-m", "AP", "-m", "P@5"],
    "trec_eval": ["trec_eval", "-q", "-m", "all_trec", "{qrels}", "{run}"],
    "repro": [
        "repro",
        "--orig-baseline",
        "{run}",
        "--orig-advanced",
        "{run}",
        "--rep-baseline",
        "{run}",
        "--rep-advanced",
        "{run}",
        "{qrels}",
        "-m",
        "AP",
    ],
}
OTHER_RUN = b"1 Q0 d1 1 3 o\n1 Q0 d2 2 2 o\n2 Q0 d3 1 1 o\n10 Q0 d4 1 1 o\n"
CAMPAIGN: Counter = Counter()


def run_command(argv: list[str]) -> tuple[int, str, str]:
    """``cranfield ARGV`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = warnings.showwarning
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("default")
            try:
                main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        warnings.showwarning = saved
    return code, out.getvalue(), err.getvalue()


def check_commands(qrels: bytes, run: bytes, tmp_path, mp, tally: Counter) -> None:
    paths = {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "run.txt"}
    paths["other"] = tmp_path / "other.txt"
    paths["qrels"].write_bytes(qrels)
    paths["run"].write_bytes(run)
    paths["other"].write_bytes(OTHER_RUN)
    for name, template in COMMANDS.items():
        argv = [a.format(**{k: str(p) for k, p in paths.items()}) for a in template]
        seen = []
        for parser in TEXT_PARSERS:
            use_text_parser(mp, parser)
            try:
                seen.append(run_command(argv))
            except Exception as exc:  # a traceback: what the suite exists to catch
                raise AssertionError(f"{name} ({parser}): {type(exc).__name__}: {exc}") from exc
        code, _, err = seen[0]
        assert seen[1] == seen[0], (name, "arrow", seen[0], seen[1])
        assert "Traceback" not in err
        tally["commands"] += 1
        if name == "trec_eval":  # trec_eval's own statuses (docs/trec_eval.md): 4 and 7 too
            assert code in (0, 2, 4, 7), (name, code, err)
            tally["rejected" if code else "succeeded"] += 1
            continue
        assert code in (0, 2), (name, code, err)
        if code == 2:
            errors = [ln for ln in err.splitlines() if ln.startswith("cranfield: error: ")]
            assert len(errors) == 1, err
            if re.search(r": line \d+: ", errors[0]):
                assert any(str(p) in errors[0] for p in paths.values()), errors[0]
            tally["rejected"] += 1
        else:
            tally["succeeded"] += 1


_PAIRS = st.tuples(trec_file("qrels"), trec_file("run"))


def _damage(qrels: bytes, run: bytes, seed: int) -> tuple[bytes, bytes]:
    if seed % 2:
        return mutate(qrels, seed)[0], run
    return qrels, mutate(run, seed)[0]


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(_PAIRS, st.integers(0, 2**32 - 1))
def test_every_command_survives_damaged_files(tmp_path, monkeypatch, pair, seed):
    qrels, run = _damage(*pair, seed)
    check_commands(qrels, run, tmp_path, monkeypatch, CAMPAIGN)


@pytest.mark.slow
def test_campaign_every_command_on_many_damaged_files(tmp_path, monkeypatch):
    """A larger fixed-seed campaign; prints its counts."""
    tally: Counter = Counter()

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(_PAIRS, st.integers(0, 2**32 - 1))
    def campaign(pair, seed):
        qrels, run = _damage(*pair, seed)
        tally["inputs"] += 1
        check_commands(qrels, run, tmp_path, monkeypatch, tally)

    campaign()
    sys.stderr.write(f"\ncommand campaign: {dict(tally)}\n")
    assert tally["inputs"] >= 100 and tally["rejected"] and tally["succeeded"]


def test_side_input_files_are_read_like_every_text_input(tmp_path):
    """--collection-size and --target files: bounded, checked reads (a device such as /dev/zero
    fails on its first chunk instead of filling the memory), gzip understood."""
    import gzip

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_bytes(b"1 0 a 1\n1 0 b 0\n")
    run.write_bytes(b"1 Q0 a 1 2 t\n1 Q0 c 2 1 t\n")
    code, _, err = run_command(
        ["evaluate", str(qrels), str(run), "-m", "Rnorm", "--collection-size", "/dev/zero"]
    )
    assert (code, "/dev/zero: line 1: NUL byte" in err) == (2, True), err
    sizes = tmp_path / "sizes.gz"
    sizes.write_bytes(gzip.compress(b"1 10\n"))
    code, out, err = run_command(
        ["evaluate", str(qrels), str(run), "-m", "Rnorm", "--collection-size", str(sizes)]
    )
    assert code == 0, err
    # Rnorm = 1 - (sum r_i - sum i) / (n (N - n)) with n = 1, r = 1: 1
    assert out.splitlines()[2].split()[-1] == "1.0000"  # the run's row


STREAMED = ("evaluate", "evaluate weak", "compare", "trec_eval")


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(_PAIRS, st.integers(0, 2**32 - 1), st.sampled_from([1, 64, 300]))
def test_damaged_runs_read_in_pieces_give_what_the_whole_file_gives(
    tmp_path, monkeypatch, pair, seed, piece
):
    """The commands that read a large run in pieces and evaluate it one query block at a time
    (docs/scale.md), on damaged files: the same exit status, output and messages as reading
    the whole file, whatever the size of the pieces (here forced down to a few bytes)."""
    from cranfield.io.trec import run_pieces
    from cranfield.io.trec import text as text_io

    qrels, run = _damage(*pair, seed)
    paths = {"qrels": tmp_path / "qrels.txt", "run": tmp_path / "run.txt"}
    paths["other"] = tmp_path / "other.txt"
    paths["qrels"].write_bytes(qrels)
    paths["run"].write_bytes(run)
    paths["other"].write_bytes(OTHER_RUN)
    for name in STREAMED:
        argv = [a.format(**{k: str(p) for k, p in paths.items()}) for a in COMMANDS[name]]
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 1 << 62)
        whole = run_command(argv)
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(run_pieces, "PIECE_BYTES", piece)
        try:
            pieces = run_command(argv)
        except Exception as exc:  # a traceback
            raise AssertionError(f"{name} in pieces: {type(exc).__name__}: {exc}") from exc
        assert pieces == whole, (name, piece, whole, pieces)


RUN_ROWS = [("1", "d1", "3"), ("1", "d2", "2"), ("2", "d3", "1")]


def _run_as(fmt: str, rows, end: str, at: int) -> bytes:
    """The run ``rows`` as TREC text, CSV or TSV (with its header), line ``at`` (1-based, the
    header included) ended by ``end``, the others by LF."""
    if fmt == "trec":
        lines = [f"{q} Q0 {d} {i} {s} t" for i, (q, d, s) in enumerate(rows, 1)]
    else:
        sep = "," if fmt == "csv" else "\t"
        lines = [sep.join(["qid", "docno", "score"])] + [sep.join(r) for r in rows]
    return "".join(line + (end if i == at else "\n") for i, line in enumerate(lines, 1)).encode()


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "trec_eval"])
def test_every_command_refuses_a_bare_cr_in_every_run_format(tmp_path, name):
    """A bare CR joining two lines of a CSV or TSV run was read as a line end by every
    command (a file trec_eval refuses; later errors named a line one too far): one rule for
    every format, the same error as for TREC text, naming the line of the CR."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"1 0 d1 1\n2 0 d3 1\n")
    other = tmp_path / "other.txt"
    other.write_bytes(OTHER_RUN)
    for fmt, at in (("trec", 1), ("trec", 2), ("csv", 1), ("csv", 2), ("tsv", 1), ("tsv", 3)):
        run = tmp_path / f"run.{fmt}"
        run.write_bytes(_run_as(fmt, RUN_ROWS, "\r", at))
        paths = {"qrels": str(qrels), "run": str(run), "other": str(other)}
        code, _, err = run_command([a.format(**paths) for a in COMMANDS[name]])
        assert code == 2, (fmt, err)
        assert err.startswith(f"cranfield: error: {run}: line {at}: bare CR"), (fmt, err)
        run.write_bytes(_run_as(fmt, RUN_ROWS, "\r\n", at))  # CRLF: fine
        code, _, err = run_command([a.format(**paths) for a in COMMANDS[name]])
        assert code == 0, (fmt, err)
