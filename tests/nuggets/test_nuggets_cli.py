"""``cranfield nuggets``: the per-run table in every format (values checked against
nuggetizer's metric functions), and ``--compare``, the comparison ``cranfield.compare`` makes
of the scores."""

from __future__ import annotations

import csv
import io
import json

import pytest

from cranfield import compare
from cranfield.cli.nuggets import SCORE_NAMES
from cranfield.nuggets import SCORES, score

metrics = pytest.importorskip("nuggetizer.core.metrics")

LABELS = [(i, a) for i in ("vital", "okay") for a in ("support", "partial_support", "not_support")]


def _records(run: str, shift: int, queries: int = 9) -> list[dict]:
    return [
        {
            "qid": f"q{q}",
            "run_id": run,
            "nuggets": [
                {"text": f"f{k}", "importance": i, "assignment": a}
                for k, (i, a) in enumerate(LABELS[: (q * shift) % 7])
            ],
        }
        for q in range(1, queries + 1)
    ]


@pytest.fixture
def files(tmp_path):
    out = {}
    for run, shift in (("bm25-rag", 2), ("dense-rag", 3)):
        records = _records(run, shift)
        path = tmp_path / f"{run}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        out[run] = (path, records)
    return out


def test_the_commands_score_names_are_the_librarys():
    assert tuple(SCORES) == SCORE_NAMES


def test_csv_per_query_is_nuggetizers_values(files, cli):
    done = cli("nuggets", *(str(p) for p, _ in files.values()), "-q", "-f", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode())))
    assert len(rows) == 2 * (9 + 1)
    keys = {"strict_vital": "strict_vital_score", "strict_all": "strict_all_score"}
    keys |= {"vital": "vital_score", "all": "all_score"}
    for run, (_, records) in files.items():
        mine = {r["query"]: r for r in rows if r["run"] == run}
        for rec in records:
            peer = metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"])
            row = mine[rec["qid"]]
            assert int(row["nuggets"]) == len(rec["nuggets"])
            for ours, theirs in keys.items():
                assert float(row[ours]) == getattr(peer, theirs)
        peer_all = metrics.calculate_global_metrics(records)
        for ours, theirs in keys.items():
            assert float(mine["all"][ours]) == pytest.approx(peer_all[theirs], abs=1e-15)
        assert mine["all"]["queries"] == "9"


def test_json_and_table(files, cli):
    paths = [str(p) for p, _ in files.values()]
    doc = json.loads(cli("nuggets", *paths, "-f", "json", "-s", "vital").stdout)
    assert doc["scores"] == ["vital"]
    assert [r["name"] for r in doc["runs"]] == ["bm25-rag", "dense-rag"]
    records = files["dense-rag"][1]
    assert doc["runs"][1]["aggregate"]["vital"] == pytest.approx(
        metrics.calculate_global_metrics(records)["vital_score"], abs=1e-15
    )
    assert doc["runs"][1]["nuggets"] == sum(len(r["nuggets"]) for r in records)
    assert doc["files"][paths[0]] == {"lines": 9, "responses": 9, "blank": 0}
    text = cli("nuggets", *paths).stdout.decode()
    head = text.splitlines()[0].split()
    assert head == ["run", "queries", "nuggets", "vital_nuggets", *SCORES]
    assert "18 responses read from 2 files (18 lines, 0 blank)" in text


def test_compare_is_the_librarys_comparison_of_the_scores(files, cli):
    paths = [str(p) for p, _ in files.values()]
    args = ["--compare", "-s", "vital", "-s", "all", "-t", "randomization", "--seed", "3"]
    done = cli("nuggets", *paths, *args, "-f", "json")
    assert done.returncode == 0, done.stderr
    cmp = compare(score(paths), ["vital", "all"], test="randomization", seed=3)
    assert json.loads(done.stdout) == json.loads(cmp.table("json"))
    text = cli("nuggets", *paths, *args).stdout.decode()
    # the note says what the means are over: the responses' queries, not judged qrels
    assert "Means over 9 queries, the queries of the runs' responses" in text
    assert "judged" not in text


def test_compare_writes_the_comparisons_tsv(files, cli):
    # a comparison has one list of formats (base/output_formats.py), whichever command prints
    # it: compare and nuggets --compare both write tsv, the pairs' values read back as written
    paths = [str(p) for p, _ in files.values()]
    args = ["--compare", "-s", "vital", "-t", "randomization", "--seed", "3", "-f", "tsv"]
    done = cli("nuggets", *paths, *args)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode()), delimiter="\t"))
    cmp = compare(score(paths), ["vital"], test="randomization", seed=3)
    pairs = cmp.pairs["vital"]
    assert [(r["a"], r["b"]) for r in rows] == [(p.a, p.b) for p in pairs]
    for row, pair in zip(rows, pairs, strict=True):
        assert float(row["mean_diff"]) == pair.mean_diff
        assert float(row["p_value"]) == pair.p_value


@pytest.mark.parametrize(
    "args, message",
    [
        (["--compare", "-q"], "--per-query is not shown with --compare"),
        (["-f", "latex"], "--format latex is a format of --compare"),
        (["--compare", "--mean-ci", "t"], "--mean-ci is not shown with --compare"),
        (["--plot", "figs"], "--plot draws the comparison's charts: give --compare"),
        (["-s", "recall"], "invalid choice: 'recall'"),
    ],
)
def test_option_errors(files, cli, args, message):
    done = cli("nuggets", *(str(p) for p, _ in files.values()), *args)
    assert done.returncode == 2
    assert message in done.stderr.decode()


def test_compare_of_one_run_is_an_error(files, cli):
    done = cli("nuggets", str(files["bm25-rag"][0]), "--compare")
    assert done.returncode == 2
    assert done.stderr.decode() == "cranfield: error: comparing needs at least 2 runs, got 1\n"


def test_mean_ci_columns_are_the_librarys_intervals(files, cli):
    paths = [str(p) for p, _ in files.values()]
    args = ["--mean-ci", "bca", "--samples", "500", "--seed", "4", "--confidence", "0.9"]
    done = cli("nuggets", *paths, *args, "-s", "vital", "-f", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode())))
    res = score(paths, ["vital"], ci="bca", samples=500, seed=4, confidence=0.9)
    for row in rows:
        low, high = res[row["run"]].intervals.get(row["run"], "vital")
        assert (float(row["vital_ci_low"]), float(row["vital_ci_high"])) == (low, high)
    text = cli("nuggets", *paths, *args).stdout.decode()
    assert "vital 90% BCa CI" in text.splitlines()[0]
    assert "Intervals: the 90% bias-corrected and accelerated (BCa) bootstrap" in text


def test_a_query_some_run_did_not_answer_is_left_out_with_the_nugget_advice(files, tmp_path):
    from cranfield.errors import DataWarning, ParameterError

    records = files["bm25-rag"][1]
    short = tmp_path / "short.jsonl"
    short.write_text("".join(json.dumps(r) + "\n" for r in records[:-1]))  # no answer to q9
    res = score([short, files["dense-rag"][0]])
    with pytest.warns(DataWarning) as caught:
        cmp = compare(res, ["vital"], test="randomization")
    (message,) = [str(w.message) for w in caught if "not in every run" in str(w.message)]
    assert "first: 'q9'" in message
    assert "give every run a line for every query" in message
    assert "complete=True" not in message
    assert cmp.notes["queries"] == 8
    with pytest.raises(ParameterError, match="give every run a line for every query"):
        compare(res, ["vital"], missing="error")


def test_compare_plot_writes_the_comparisons_charts(files, cli, tmp_path):
    pytest.importorskip("matplotlib")
    paths = [str(p) for p, _ in files.values()]
    out = tmp_path / "figs"
    done = cli("nuggets", *paths, "--compare", "-s", "vital", "-s", "all", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in out.iterdir())
    pair = [
        f"{kind}-{name}-dense-rag-vs-bm25-rag.png"
        for kind in ("histogram", "magnitude")
        for name in ("all", "vital")
    ]
    assert names == sorted(["agreement.png", "ranking-change.png", *pair])
    assert f"cranfield: wrote 6 charts to {out}" in done.stderr.decode()
