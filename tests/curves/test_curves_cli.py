"""``cranfield curve pr|gain|fallout``: the fixed interface, output formats, plots, errors."""

from __future__ import annotations

import csv
import io
import json
import warnings

import pytest

from cranfield.curves import fallout, gain, precision_recall

QRELS = """\
q1 0 a 1
q1 0 b 0
q1 0 c 1
q1 0 d 1
q2 0 a 0
q2 0 e 1
q2 0 f 1
"""
RUN1 = """\
q1 Q0 a 1 9.0 one
q1 Q0 b 2 8.0 one
q1 Q0 x 3 7.0 one
q1 Q0 c 4 6.0 one
q2 Q0 a 1 5.0 one
q2 Q0 e 2 4.0 one
q2 Q0 y 3 3.0 one
"""
RUN2 = """\
q1 Q0 b 1 9.0 two
q1 Q0 d 2 8.0 two
q1 Q0 a 3 7.0 two
q2 Q0 f 1 5.0 two
q2 Q0 e 2 4.0 two
"""


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("qrels", QRELS), ("one", RUN1), ("two", RUN2)):
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def rows(stdout: bytes):
    return list(csv.reader(io.StringIO(stdout.decode())))


@pytest.mark.slow
def test_pr_command_as_written_in_the_issue(cli, files, tmp_path):
    png = tmp_path / "pr.png"
    args = [
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        str(files["two"]),
        "--interpolation",
        "quasi-cranfield",
        "--step",
        "highest",
        "--extrapolation",
        "5",
        "--levels",
        "21",
        "--average",
        "macro",
        "--statistic",
        "mean",
        "--plot",
        str(png),
        "--format",
        "csv",
    ]
    res = cli(*args)
    assert res.returncode == 0, res.stderr
    table = rows(res.stdout)
    assert table[0] == ["run", "level", "value", "queries", "extrapolated"]
    assert len(table) == 1 + 2 * 21
    assert {r[0] for r in table[1:]} == {"one", "two"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    df = precision_recall(
        str(files["qrels"]),
        [str(files["one"]), str(files["two"])],
        interpolation="quasi-cranfield",
        step="highest",
        extrapolation=5,
        levels=21,
    )
    assert [float(r[2]) for r in table[1:]] == df["value"].tolist()
    assert [int(r[3]) for r in table[1:]] == df["queries"].tolist()
    # same inputs, same bytes (table and picture)
    first = png.read_bytes()
    again = cli(*args)
    assert again.stdout == res.stdout and png.read_bytes() == first


@pytest.mark.parametrize("interpolation", ["max", "trec", "trec9", "ceiling", "semi-cranfield"])
def test_every_interpolation_is_selectable_by_name(cli, files, interpolation):
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--interpolation",
        interpolation,
        "--format",
        "csv",
    )
    assert res.returncode == 0, res.stderr
    want = precision_recall(str(files["qrels"]), str(files["one"]), interpolation=interpolation)
    assert [float(r[2]) for r in rows(res.stdout)[1:]] == want["value"].tolist()


@pytest.mark.parametrize(
    ("step", "method"),
    [("highest", "1"), ("lowest", "2"), ("middle", "3"), ("mean", "4"), ("ends", "5")],
)
def test_every_step_and_extrapolation_is_selectable(cli, files, step, method):
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--interpolation",
        "quasi-cranfield",
        "--step",
        step,
        "--extrapolation",
        method,
        "--format",
        "json",
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = precision_recall(
            str(files["qrels"]),
            str(files["one"]),
            interpolation="quasi-cranfield",
            step=step,
            extrapolation=int(method),
        )
    got = [r["value"] for r in doc["rows"]]
    assert got == [None if v != v else v for v in want["value"].tolist()]


@pytest.mark.slow
def test_none_and_cutoffs_write_a_cutoff_column(cli, files):
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--interpolation",
        "none",
        "--format",
        "csv",
    )
    assert rows(res.stdout)[0] == ["run", "level", "value", "queries", "extrapolated", "cutoff"]
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--cutoffs",
        "standard",
        "--format",
        "csv",
        "--best",
    )
    table = rows(res.stdout)
    assert [r[5] for r in table[1:8]] == ["5", "10", "15", "20", "30", "50", "100"]
    assert {r[0] for r in table[1:]} == {"one", "best"}


@pytest.mark.slow
def test_micro_average_and_median(cli, files):
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--average",
        "micro",
        "--format",
        "csv",
    )
    assert res.returncode == 0 and len(rows(res.stdout)) == 12
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--statistic",
        "median",
        "--levels",
        "0.5,1",
        "--format",
        "csv",
    )
    assert [r[1] for r in rows(res.stdout)[1:]] == ["0.5", "1.0"]


def test_per_query_table(cli, files):
    res = cli(
        "curve",
        "pr",
        str(files["qrels"]),
        str(files["one"]),
        "--per-query",
        "--format",
        "csv",
        "--levels",
        "0,1",
    )
    table = rows(res.stdout)
    assert table[0] == ["run", "query_id", "level", "value", "extrapolated"]
    assert [r[1] for r in table[1:]] == ["q1", "q1", "q2", "q2"]


@pytest.mark.slow
def test_gain_command(cli, files, tmp_path):
    pdf = tmp_path / "gain.pdf"
    res = cli(
        "curve",
        "gain",
        str(files["qrels"]),
        str(files["one"]),
        str(files["two"]),
        "--cutoffs",
        "1,2,3",
        "--format",
        "csv",
        "--plot",
        str(pdf),
    )
    assert res.returncode == 0, res.stderr
    table = rows(res.stdout)
    assert table[0] == ["run", "curve", "rank", "value", "queries"]
    assert len(table) == 1 + 2 * 6 * 3
    want = gain(str(files["qrels"]), [str(files["one"]), str(files["two"])], cutoffs=[1, 2, 3])
    assert [float(r[3]) for r in table[1:]] == want["value"].tolist()
    assert pdf.read_bytes()[:5] == b"%PDF-"
    first = pdf.read_bytes()
    cli(
        "curve",
        "gain",
        str(files["qrels"]),
        str(files["one"]),
        str(files["two"]),
        "--cutoffs",
        "1,2,3",
        "--format",
        "csv",
        "--plot",
        str(pdf),
    )
    assert pdf.read_bytes() == first
    res = cli("curve", "gain", str(files["qrels"]), str(files["one"]), "--area", "--format", "csv")
    assert rows(res.stdout)[0] == ["run", "curve", "area"]


@pytest.mark.slow
def test_fallout_command(cli, files, tmp_path):
    svg = tmp_path / "roc.svg"
    res = cli(
        "curve",
        "fallout",
        str(files["qrels"]),
        str(files["one"]),
        "--collection-size",
        "20",
        "--format",
        "csv",
        "--plot",
        str(svg),
    )
    assert res.returncode == 0, res.stderr
    table = rows(res.stdout)
    assert table[0] == ["run", "level", "value", "queries", "extrapolated", "precision"]
    want = fallout(str(files["qrels"]), str(files["one"]), collection_size=20)
    assert [float(r[2]) for r in table[1:]] == want["value"].tolist()
    assert b"<svg" in svg.read_bytes()
    first = svg.read_bytes()
    cli(
        "curve",
        "fallout",
        str(files["qrels"]),
        str(files["one"]),
        "--collection-size",
        "20",
        "--format",
        "csv",
        "--plot",
        str(svg),
    )
    assert svg.read_bytes() == first
    sizes = tmp_path / "sizes"
    sizes.write_text("q1 20\nq2 20\n")
    res2 = cli(
        "curve",
        "fallout",
        str(files["qrels"]),
        str(files["one"]),
        "--collection-size",
        str(sizes),
        "--format",
        "csv",
    )
    assert res2.stdout == res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--interpolation", "trec", "--step", "lowest"], "step choices apply"),
        (["--interpolation", "max", "--extrapolation", "3"], "needs no left-end extrapolation"),
        (["--cutoffs", "5,x"], "not an integer"),
        (["--levels", "0.5,1.5"], "1.5 is not in the range 0<=x<=1"),
        (["--average", "micro", "--statistic", "median"], "no median"),
        (["--interpolation", "max", "--cutoffs", "5"], "does not combine"),
        (["--plot", "x.gif"], ".png, .svg or .pdf"),
    ],
)
def test_bad_parameters_are_one_line_errors(cli, files, args, message):
    res = cli("curve", "pr", str(files["qrels"]), str(files["one"]), *args)
    assert res.returncode == 2
    err = res.stderr.decode()
    errors = [line for line in err.splitlines() if "error: " in line]
    assert len(errors) == 1 and message in errors[0], err
    assert err.endswith(errors[0] + "\n") and "Traceback" not in err


def test_fallout_needs_the_collection_size(cli, files):
    res = cli("curve", "fallout", str(files["qrels"]), str(files["one"]))
    assert res.returncode == 2
    assert "collection size" in res.stderr.decode()
    res = cli("curve", "fallout", str(files["qrels"]), str(files["one"]), "--collection-size", "3")
    assert res.returncode == 2 and "smaller than" in res.stderr.decode()


def test_unknown_choice_is_rejected_by_the_option(cli, files):
    res = cli("curve", "pr", str(files["qrels"]), str(files["one"]), "--extrapolation", "7")
    assert res.returncode == 2
    assert b"Traceback" not in res.stderr
