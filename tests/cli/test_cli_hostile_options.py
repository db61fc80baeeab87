"""Every command, in-process through ``cranfield.cli.main``, over a table of hostile option
values and odd file arguments: exit 0 or 2, no exception other than SystemExit, no
"Traceback", and an error message that names the option or the file."""

from __future__ import annotations

import pytest
from _cli_trust import (
    BIG,
    _fill,
    call,
    files_fixture,  # noqa: F401 - the fixture 'files'
)

from cranfield.base.limits import MAX_CUTOFF, MAX_DOCUMENTS, MAX_SEED

# (arguments after the command's files, the text the error must contain)


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
