"""The command line never shows a traceback and never loses output.

- every command, in-process through ``cranfield.cli.main``, over a table of hostile option
  values and odd file arguments: exit 0 or 2, no exception other than SystemExit, no
  "Traceback", and an error message that names the option or the file;
- the declared ranges (``Range``, ``N|FILE`` values and the numbers in their files, number
  lists), also as property tests;
- output files: checked before the work, replaced atomically (the old file survives a write
  that fails midway, no temporary file is left, permissions are kept);
- standard output closed, full or a closed pipe, standard error closed: real subprocesses;
- ``cranfield trec_eval`` says on stderr which queries it skips (stdout unchanged).
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, run_cli
from cranfield.base.limits import MAX_CUTOFF, MAX_DOCUMENTS, MAX_SEED
from cranfield.base.output_files import check_output_dir, check_output_file, replace_atomically
from cranfield.cli import main
from cranfield.cli._args import CountOrFile, NumberList, Range
from cranfield.errors import InputError, ParameterError

# three judged queries; q3 has no results (skipped unless -c), q9 has results but no judgments
QRELS = """\
q1 0 d1 1
q1 0 d2 0
q1 0 d3 2
q1 0 d7 1
q2 0 d1 0
q2 0 d4 1
q2 0 d5 1
q3 0 d1 1
"""
RUN = """\
q1 Q0 d1 1 3.0 a
q1 Q0 d2 2 2.0 a
q1 Q0 d3 3 2.0 a
q1 Q0 d4 4 1.0 a
q2 Q0 d5 1 5.0 a
q2 Q0 d6 2 4.0 a
q2 Q0 d4 3 4.0 a
q9 Q0 d1 1 1.0 a
"""
RUN2 = """\
q1 Q0 d3 1 3.0 b
q1 Q0 d1 2 2.0 b
q1 Q0 d9 3 1.0 b
q2 Q0 d4 1 5.0 b
q2 Q0 d1 2 4.0 b
q2 Q0 d5 3 3.0 b
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("trust")
    for name, text in (("qrels", QRELS), ("run", RUN), ("run2", RUN2), ("empty", "")):
        (d / name).write_text(text)
    (d / "sizes").write_text("q1 100\nq2 100\nq3 100\n")
    (d / "-x").write_text(RUN)
    (d / "rün ☃.txt").write_text(RUN)
    (d / "sub").mkdir()
    out = {k: str(d / k) for k in ("qrels", "run", "run2", "empty", "sizes", "sub")}
    out.update(dir=str(d), dashed=str(d / "-x"), unicode=str(d / "rün ☃.txt"))
    return out


def call(argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    """Run ``main(argv)`` in-process: (exit status, stdout, stderr).  Any exception other than
    SystemExit fails the test."""
    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # main sets its own
    capsys.readouterr()
    code: int | str | None = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            main(argv)
    except SystemExit as stop:
        code = stop.code
    except BaseException as exc:  # the point of this module
        pytest.fail(f"{type(exc).__name__} escaped main({argv!r}): {exc}")
    out, err = capsys.readouterr()
    return (0 if code is None else code), out, err  # type: ignore[return-value]


# ------------------------------------------------------------------------------ hostile table
# (arguments after the command's files, the text the error must contain)
BIG = "99999999999999999999"
HOSTILE = {
    "evaluate": [
        (["-m", "Rnorm", "--collection-size", BIG], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", str(MAX_DOCUMENTS + 1)], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "0"], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "-5"], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "1e400"], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "12.5"], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", ""], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "9" * 5000], "--collection-size"),
        (["-m", "RelativeRecall", "--target", "1e400"], "--target"),
        (["-m", "RelativeRecall", "--target", str(2**63)], "--target"),
        (["-m", "RelativeRecall", "--target", "inf"], "--target"),
        (["-m", "RelativeRecall", "--target", "0"], "--target"),
        (["--ties", "random", "--seed", str(10**30)], "--seed"),
        (["--ties", "random", "--seed", "-1"], "--seed"),
        (["--ties", "random", "--seed", str(MAX_SEED + 1)], "--seed"),
        (["--digits", "18"], "--digits"),
        (["--digits", "-1"], "--digits"),
        (["--digits", str(10**30)], "--digits"),
        (["--digits", "٣"], "--digits"),  # a digit, but not an ASCII one
        (["-M", "-1"], "--depth"),
        (["-M", str(2**63)], "--depth"),
        (["-M", "1.5"], "--depth"),
        (["-M", "1_000"], "--depth"),
        (["-m", ""], "measure"),
        (["-m", "P@" + BIG], None),  # the measure grammar decides; exit 0 or 2, no traceback
        (["-f", "xml"], "--format"),
        (["--format", "json", "--format", "xml"], "--format"),
        (["--ties", "sometimes"], "--ties"),
        (["--aggregate", "=mean"], "aggregation"),
        (["-o", "{sub}"], "--output"),
        (["-o", "/nonexistent/dir/out.txt"], "--output"),
        (["-o", ""], "--output"),
        (["-o", "{run}"], "--output"),  # an input file
        (["--known", "{sub}"], "--known"),
        (["-m", "Coverage", "--known", "{empty}"], "{empty}"),
        (["-m", "Rnorm", "--collection-size", "{sub}"], "--collection-size"),
        (["-m", "Rnorm", "--collection-size", "{empty}"], "{empty}"),
    ],
    "compare": [
        (["--alpha", "0"], "--alpha"),
        (["--alpha", "1"], "--alpha"),
        (["--alpha", "nan"], "--alpha"),
        (["--alpha", "inf"], "--alpha"),
        (["--permutations", "0"], "--permutations"),
        (["--permutations", str(10**30)], "--permutations"),
        (["--seed", str(10**30)], "--seed"),
        (["-M", BIG], "--depth"),
        (["--digits", "99"], "--digits"),
        (["--plot", "{qrels}"], "--plot"),
        (["--plot", "{qrels}/charts"], "--plot"),
        (["--plot", "/proc/cranfield-charts"], "--plot"),
        (["--plot", ""], "--plot"),
        (["--plot-format", "gif", "--plot", "{sub}"], "--plot-format"),
        (["-o", "{sub}"], "--output"),
        (["--sweep", ""], "measure"),
        (["--sweep", "P@5," + BIG], None),
        (["-b", ""], "baseline"),
        (["-f", "json", "--requests"], "--requests"),
    ],
    "ties": [
        (["--curves", "--nd", "inf"], "--nd"),
        (["--curves", "--nd", BIG], "--nd"),
        (["--curves", "--nd", "-3"], "--nd"),
        (["--curves", "--nd", ""], "--nd"),
        (["--curves", "--nd", "1.5"], "--nd"),
        (["--curves", "--recall", "nan"], "--recall"),
        (["--curves", "--recall", "5"], "--recall"),
        (["--curves", "--recall", ","], "--recall"),
        (["--collection-size", BIG], "--collection-size"),
        (["--target", "-1"], "--target"),
        (["-m", ""], "measure"),
        (["-f", "csv"], "--format"),
        (["-o", "/nonexistent/x"], "--output"),
    ],
    "curve pr": [
        (["--cutoffs", BIG], "--cutoffs"),
        (["--cutoffs", str(MAX_CUTOFF + 1)], "--cutoffs"),
        (["--cutoffs", "0"], "--cutoffs"),
        (["--cutoffs", "5,x"], "--cutoffs"),
        (["--cutoffs", ""], "--cutoffs"),
        (["--levels", "nan"], "--levels"),
        (["--levels", "1e400"], "--levels"),
        (["--levels", "0.5,1.5"], "--levels"),
        (["--levels", "1e-40"], "recall level '1e-40' has more than 30 decimals"),
        (["--rel", str(10**30)], "--rel"),
        (["-l", "-1"], "--rel"),
        (["--names", "a,b"], "2 names given for 1 runs"),
        (["--names", ""], "run names cannot be empty"),
        (["--seed", "-1"], "--seed"),
        (["--plot", "x.gif"], "--plot"),
        (["--plot", "{sub}"], "--plot"),
        (["--plot", "/nonexistent/dir/pr.png"], "--plot"),
        (["--plot", "/proc/cranfield-pr.png"], "--plot"),
        (["--reference", "{sub}"], "--reference"),
        (["--collection-size", "1e400"], "--collection-size"),
    ],
    "curve gain": [
        (["--base", "inf"], "--base"),
        (["--base", "nan"], "--base"),
        (["--base", "1"], "--base"),
        (["--cutoffs", BIG], "--cutoffs"),
        (["--gains", "1=inf"], "--gains"),
        (["--gains", "1=nan"], "--gains"),
        (["--gains", BIG + "=1"], "--gains"),
        (["--gains", ""], "--gains"),
        (["--gains", "1"], "--gains"),
        (["--gains", "{{1:inf}}"], "--gains"),  # {{ }}: braces, through _fill's format()
        (["--gains", "{{1:nan}}"], "--gains"),
        (["--gains", "{{1:1e400}}"], "--gains"),
        (["--gains", "{{" + BIG + ":1}}"], "--gains"),
        (["--gains", "{{1:1"], "--gains"),
        (["--gains", "{{1:1,1:2}}"], "given twice"),
        (["--gains", "1:1"], "quote it"),
        (["--gains", "1=2,3=4"], "'{{1:2,3:4}}'"),
        (["--plot", "gain.jpeg"], "--plot"),
    ],
    "curve fallout": [
        (["--generality", "inf"], "--generality"),
        (["--generality", "0"], "--generality"),
        (["--generality", "1000"], "--generality"),
        (["--collection-size", BIG], "--collection-size"),
        (["--collection-size", "3"], "collection size"),
    ],
    "trec_eval": [
        (["-l", "-1"], "-l"),
        (["-M", "-1"], "-M"),
        (["-m", "relstring." + BIG], None),
        (["-m", "relstring.1e400"], None),
        (["-m", "P." + BIG], None),
        (["-M", BIG], None),
        (["-N", BIG], "-N"),
        (["-N", "-1"], "-N"),
        (["-m", ""], "illegal measure"),
        (["-Z", "{sub}"], "{sub}"),
    ],
}
CASES = [
    pytest.param(command, args, expected, id=f"{command}-{' '.join(args)[:40]}")
    for command, rows in HOSTILE.items()
    for args, expected in rows
]


def _fill(value: str, files: dict[str, str]) -> str:
    return value.format(**files) if "{" in value else value


@pytest.mark.parametrize(("command", "args", "expected"), CASES)
def test_hostile_option_values(files, capsys, monkeypatch, command, args, expected):
    inputs = [files["qrels"], files["run"]] + ([files["run2"]] if command == "compare" else [])
    if command == "curve fallout" and "--collection-size" not in args:
        args = [*args, "--collection-size", "100"]
    args = [_fill(a, files) for a in args]
    opts = [*args, "--", *inputs] if command == "trec_eval" else [*inputs, *args]
    code, _out, err = call([*command.split(), *opts], capsys, monkeypatch)
    assert "Traceback" not in err
    if expected is None:
        assert code in (0, 2), err
    else:
        assert code == (1 if "illegal" in expected else 2), err  # trec_eval's own status 1
        error = [line for line in err.splitlines() if "error" in line or "illegal" in line]
        assert error and _fill(expected, files) in error[-1], err


FILE_CASES = [
    ("{empty}", "{run}", "{empty}"),
    ("{qrels}", "{empty}", "{empty}"),
    ("{sub}", "{run}", "{sub}"),
    ("{qrels}", "{sub}", "{sub}"),
    ("{qrels}", "{dir}/missing.txt", "missing.txt"),
    ("{qrels}", "{dashed}", None),
    ("{qrels}", "{unicode}", None),
]
COMMANDS = [
    ["evaluate"],
    ["compare"],
    ["curve", "pr"],
    ["curve", "gain"],
    ["curve", "fallout", "--collection-size", "100"],
    ["ties"],
    ["trec_eval"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize(("qrels", "run", "expected"), FILE_CASES)
def test_odd_file_arguments(files, capsys, monkeypatch, command, qrels, run, expected):
    runs = [_fill(run, files)] + ([files["run2"]] if command == ["compare"] else [])
    code, out, err = call([*command, "--", _fill(qrels, files), *runs], capsys, monkeypatch)
    assert "Traceback" not in err
    if expected is None:
        assert code == 0, err
        assert out
    else:
        assert code == 2, err
        assert _fill(expected, files) in err.splitlines()[-1]


def test_commands_without_files(capsys, monkeypatch):
    for argv, status, text in (
        (["measures", "--family", "precisoin"], 2, "did you mean precision?"),
        (["measures", "--family", ""], 2, "--family"),
        (["measures", ""], 2, "measure"),
        (["measures", "--format", "yaml"], 2, "--format"),
        (["demo", "--digits", "3"], 2, "no such option: --digits"),
        (["demo", "extra"], 2, "unrecognized arguments: extra"),
        (["curve"], 2, "usage: cranfield curve"),
        (["curve", "roc"], 2, "no such command 'roc'"),
        ([], 2, "usage: cranfield"),
        (["--versoin"], 2, "no such option: --versoin"),
        (["trec_eval"], 1, "Usage: trec_eval"),
    ):
        code, _, err = call(argv, capsys, monkeypatch)
        assert code == status and text in err and "Traceback" not in err, (argv, err)


def test_repeated_options_take_the_last_value(files, capsys, monkeypatch):
    argv = ["evaluate", files["qrels"], files["run"], "-m", "P@2", "-f", "json", "-f", "trec"]
    code, out, _ = call(argv, capsys, monkeypatch)
    # q1: d1, d3 (tied with d2: docno descending) 2/2; q2: d5, d6 (tied with d4) 1/2; q3
    # (judged, not in the run): 0, the mean being over the judged queries
    assert code == 0 and out.splitlines()[-1] == "P@2\tall\t0.5000"


# ------------------------------------------------------------------------------ ranges
def test_range_parses_ascii_integers_and_finite_floats():
    r = Range(int, 0, 17)
    assert [r(t) for t in ("0", "17", "+3", " 5 ", "007")] == [0, 17, 3, 5, 7]
    for bad in ("18", "-1", "1.0", "1e1", "1_0", "٣", "", "0x1", "9" * 5000):
        with pytest.raises(argparse.ArgumentTypeError):
            r(bad)
    f = Range(float, 0, 1, open=True)
    assert f("0.5") == 0.5 and f("1e-300") == 1e-300
    for bad in ("0", "1", "nan", "inf", "-inf", "1e400", "1_0", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            f(bad)
    assert str(Range(int, 1, 10**12)) == "1<=x<=10**12"
    assert str(Range(int, 0, 2**63 - 1)) == "0<=x<=2**63-1"
    assert str(Range(float, 1, open=True)) == "x>1"


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.integers().map(str) | st.floats().map(repr))
def test_every_text_is_a_value_in_range_or_a_usage_error(text):
    for kind in (
        Range(int, 1, MAX_DOCUMENTS),
        Range(float, 0, 1000, open=True),
        NumberList(Range(int, 1, MAX_CUTOFF), words=("all",)),
    ):
        try:
            value = kind(text)
        except argparse.ArgumentTypeError:
            continue
        values = value if isinstance(value, tuple) else (value,)
        rng = getattr(kind, "range", kind)
        assert value == "all" or all(rng.contains(v) for v in values)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_count_or_file_keeps_integers_in_range(n):
    kind = CountOrFile(Range(int, 1, MAX_DOCUMENTS))
    if 1 <= n <= MAX_DOCUMENTS:
        assert kind(str(n)) == n
    else:
        with pytest.raises(argparse.ArgumentTypeError, match="not in the range"):
            kind(str(n))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("9" * 60, "must be <= 1,000,000,000,000"),
        (str(2**63), "must be <= 1,000,000,000,000"),
        (str(MAX_DOCUMENTS + 1), "must be <= 1,000,000,000,000"),
        ("-" + "9" * 5000, "must be >= 1"),
        ("0", "must be >= 1"),
        ("1e400", "is not an integer"),
        ("nan", "is not an integer"),
    ],
)
def test_every_number_of_a_count_file_is_checked_with_its_line(files, tmp_path, value, problem):
    from cranfield import evaluate

    f = tmp_path / "sizes"
    f.write_text(f"# sizes\nq1 100\n\nq2 {value}\nq3 100\n")
    with pytest.raises(InputError) as info:
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=str(f))
    assert info.value.line == 4 and problem in info.value.problem
    with pytest.raises(InputError) as info:  # the same rule for --target files
        evaluate(files["qrels"], files["run"], ["RelativeRecall"], target=str(f))
    assert info.value.line == 4 and problem in info.value.problem


def test_count_file_lines_are_newline_lines(files, tmp_path):
    from cranfield import evaluate

    f = tmp_path / "sizes"
    f.write_bytes(b"q1 100\x0cq2 5\nq2 x\n")  # a form feed is not a line break
    with pytest.raises(InputError) as info:
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=str(f))
    assert info.value.line == 1


def test_library_counts_have_the_same_range(files):
    from cranfield import evaluate

    for size in (MAX_DOCUMENTS + 1, 10**20, 2**63):
        with pytest.raises(ParameterError, match="must be <= 1,000,000,000,000"):
            evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=size)
    with pytest.raises(InputError, match="must be <= 1,000,000,000,000"):
        evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size={"q1": 10**20})


@pytest.mark.filterwarnings("ignore::cranfield.errors.DataWarning")
def test_collection_size_at_the_maximum_is_exact(files):
    """Rnorm with N = 10**12 against a brute-force Rocchio computation in exact integers."""
    from fractions import Fraction

    from cranfield import evaluate

    N = MAX_DOCUMENTS
    res = evaluate(files["qrels"], files["run"], ["Rnorm"], collection_size=N).per_query()
    # q1: relevant d1 (rank 1), d3 (rank 2: tied with d2, docno descending), d7 (not
    # retrieved: rank N); q2: d5 (rank 1), d4 (rank 3: tied with d6, which goes first)
    for q, ranks in (("q1", [1, 2, N]), ("q2", [1, 3])):
        n = len(ranks)
        want = 1 - Fraction(sum(ranks) - n * (n + 1) // 2, n * (N - n))
        assert res.loc[q, "Rnorm"] == pytest.approx(float(want), rel=1e-12)


def test_gain_cutoffs_far_beyond_the_rankings_cost_nothing(files):
    """A cut-off of 10**9 reads the curves where they stop changing (the last rank of the
    longest ranking or qrels list): the values at rank 4 here, every gain being counted."""
    from cranfield.curves import gain

    far = gain(files["qrels"], files["run"], cutoffs=[4, MAX_CUTOFF])
    at = {(c, r): v for c, r, v in zip(far["curve"], far["rank"], far["value"], strict=True)}
    for curve in ("cg", "dcg", "icg", "idcg", "ncg", "ndcg"):
        assert at[curve, MAX_CUTOFF] == at[curve, 4]
    # q1: d1 1, d3 2; q2: d5 1, d4 1; q3 (judged, not in the run): 0
    assert at["cg", 4] == pytest.approx((3 + 2 + 0) / 3)
    with pytest.raises(ParameterError, match="must be <= 1,000,000,000"):
        gain(files["qrels"], files["run"], cutoffs=[MAX_CUTOFF + 1])


def test_option_ranges_are_in_the_help(capsys, monkeypatch):
    code, out, _ = call(["evaluate", "--help"], capsys, monkeypatch)
    assert code == 0
    text = " ".join(out.split())
    for note in ("[1<=x<=10**12]", "[0<=x<=2**64-1]", "[0<=x<=2**63-1]", "0<=x<=17"):
        assert note in text, note


# ------------------------------------------------------------------------------ output files
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


def _cli_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


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


# ------------------------------------------------------------------------------ streams
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


def _argv(command: list[str], files) -> list[str]:
    return [sys.executable, "-m", "cranfield", *(_fill(a, files) for a in command)]


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


def test_file_names_that_are_not_utf8_are_written_back_as_bytes(files, tmp_path):
    if sys.platform == "darwin":
        pytest.skip("macOS file names are UTF-8")
    name = os.fsdecode(b"run\xff.txt")
    (tmp_path / name).write_text(RUN)
    proc = subprocess.run(
        [sys.executable, "-m", "cranfield", "evaluate", files["qrels"], name, "-m", "P@2"],
        cwd=tmp_path,
        env=_cli_env(PYTHONIOENCODING="utf-8"),  # strict errors: the case that failed
        capture_output=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"\nrun\xff.txt " in proc.stdout
    assert b"run\\udcff.txt: 1 queries have results" in proc.stderr


def test_curves_and_charts_of_runs_whose_file_names_are_not_utf8(
    files, tmp_path, capsys, monkeypatch
):
    if sys.platform == "darwin":
        pytest.skip("macOS file names are UTF-8")
    pytest.importorskip("matplotlib")
    run = tmp_path / os.fsdecode(b"run\xff.txt")
    run.write_text(RUN)
    for command in (["curve", "pr"], ["curve", "gain"]):
        png = tmp_path / "c.png"
        argv = [*command, files["qrels"], str(run), files["run2"], "--plot", str(png)]
        code, out, err = call(argv, capsys, monkeypatch)
        assert code == 0, err
        assert "run\\xff.txt" in out and png.stat().st_size > 0  # the bytes as an escape
    charts = tmp_path / "charts"  # compare prints the name's bytes: a subprocess reads them
    proc = run_cli("compare", files["qrels"], str(run), files["run2"], "--plot", str(charts))
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"run\xff.txt" in proc.stdout and any(p.suffix == ".png" for p in charts.iterdir())


def test_control_characters_in_messages_are_escaped(files, capsys, monkeypatch):
    bad = os.path.join(files["dir"], "evil\x1b[2Jname\nline")
    code, _, err = call(["evaluate", files["qrels"], bad], capsys, monkeypatch)
    assert code == 2
    assert "\x1b" not in err and "evil\\x1b[2Jname\\x0aline" in err
    assert err.count("\n") == 1


# ------------------------------------------------------------------------------ trec_eval notes
def test_trec_eval_says_which_queries_it_skips(files, tmp_path):
    """stdout is trec_eval's (the same bytes as without the unmatched queries); stderr counts
    the skipped queries in `cranfield evaluate`'s words."""
    clean_q = tmp_path / "q"
    clean_q.write_text("".join(x for x in QRELS.splitlines(True) if not x.startswith("q3")))
    clean_r = tmp_path / "r"
    clean_r.write_text("".join(x for x in RUN.splitlines(True) if not x.startswith("q9")))
    plain = run_cli("trec_eval", "-q", "-m", "all_trec", str(clean_q), str(clean_r))
    assert plain.returncode == 0 and plain.stderr == b""
    noisy = run_cli("trec_eval", "-q", "-m", "all_trec", files["qrels"], files["run"])
    assert noisy.returncode == 0
    assert noisy.stdout == plain.stdout
    assert noisy.stderr.decode().splitlines() == [
        "cranfield: warning: run: 1 queries have results but no judgments and were not "
        "evaluated (first: 'q9')",
        "cranfield: warning: run: 1 judged queries have no results and were skipped "
        "(use -c to score them as empty rankings) (first: 'q3')",
    ]
    evaluate = run_cli("evaluate", files["qrels"], files["run"], "-m", "AP", "--no-complete")
    for line in evaluate.stderr.decode().splitlines():  # the same sentences
        assert line.split(" (")[0] in noisy.stderr.decode()
    complete = run_cli("trec_eval", "-c", files["qrels"], files["run"])
    assert complete.returncode == 0
    assert complete.stderr.decode().splitlines() == [
        "cranfield: warning: run: 1 queries have results but no judgments and were not "
        "evaluated (first: 'q9')"
    ]
    debug = run_cli("trec_eval", "-D", "0.q1", files["qrels"], files["run"])
    assert debug.returncode == 0 and debug.stderr == b""  # the other queries: on request


def test_trec_eval_relstring_length_outside_long(files, capsys, monkeypatch):
    """`(long) length` of a double outside C's long is LONG_MIN on x86-64: empty strings."""
    for length in (BIG, "1e400", "nan"):
        code, out, err = call(
            ["trec_eval", "-q", "-m", f"relstring.{length}", files["qrels"], files["run"]],
            capsys,
            monkeypatch,
        )
        assert code == 0, err
        rows = [line.split("\t") for line in out.splitlines()]
        assert [(q, s) for _, q, s in rows] == [("q1", "''"), ("q2", "''")]
