"""``cranfield demo`` through the real command line (the Cranfield collection, shipped in the
package, ``--ties``, ``--synthetic``), and its error for an installation that lost that data."""

from __future__ import annotations

import importlib.util
import re

import pytest

from cranfield import examples


def _table(text: str, first: str) -> tuple[list[str], list[list[str]]]:
    """Header columns and rows of the table whose header line starts with ``first``."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(first))
    rows = []
    for line in lines[head + 2 :]:
        if not line.strip():
            break
        rows.append(line.split())
    return lines[head].split(), rows


def _ok(out) -> str:
    assert out.returncode == 0, out.stderr.decode()
    assert out.stderr == b""  # no warning on the bundled data
    return out.stdout.decode()


def test_demo_shows_three_models_on_the_cranfield_collection(cli):
    first = cli("demo")
    text = _ok(first)
    assert "Cranfield collection" in text and "225 queries" in text and "1,612 relevant" in text
    columns, rows = _table(text, "run ")
    assert [r[0] for r in rows] == ["bm25", "tfidf", "coordination"]
    assert "R@100" in columns and "Bpref" not in columns  # bpref = recall without non-relevant
    ap = {r[0]: float(r[columns.index("AP")]) for r in rows}
    assert ap["bm25"] > ap["tfidf"] > ap["coordination"]
    assert all(r[columns.index("queries")] == "225" for r in rows)
    assert "`cranfield demo --ties`" in text and str(examples.path("cranfield")) in text
    assert cli("demo").stdout == first.stdout  # deterministic


def test_demo_ties_shows_the_tie_analysis_of_coordination_level(cli):
    text = _ok(cli("demo", "--ties"))
    columns, rows = _table(text, "run ")
    assert columns == [
        "run",
        "measure",
        "queries",
        "tied",
        "rel_tied",
        "changed",
        "worst",
        "trec",
        "expected",
        "best",
        "range",
    ]
    assert [(r[0], r[1]) for r in rows] == [
        (run, m) for run in ("coordination", "bm25") for m in ("AP", "P@10", "nDCG@10")
    ]
    for r in rows:
        worst, trec, expected, best, rng = map(float, r[6:])
        assert worst <= trec <= best and worst <= expected <= best
        assert rng == pytest.approx(best - worst, abs=1.5e-4)
        if r[0] == "bm25":
            assert rng == 0  # its scores hardly tie: no relevant document in a tie group
        else:
            assert rng > 0.05 and int(r[3]) == 225
    for word in ("worst", "trec", "expected", "best"):
        assert re.search(rf"^  {word} +\S", text, re.M), word  # each column explained
    assert "--ties weak" in text and "trec_eval's order" in text
    # the default demo quotes the same AP range
    summary = _ok(cli("demo"))
    c_ap = rows[0]
    assert f"anywhere from {c_ap[6]} to {c_ap[9]} ({c_ap[8]} expected)" in " ".join(summary.split())


def test_demo_ties_columns_are_what_the_explanation_says(cli):
    text = _ok(cli("demo", "--ties"))
    _, rows = _table(text, "run ")
    trec_ap, expected_ap = rows[0][7], rows[0][8]
    d = examples.path("cranfield")
    weak = _ok(cli("evaluate", f"{d}/qrels.txt", f"{d}/runs/coordination.txt.gz", "-m", "AP",
                   "--ties", "weak"))  # fmt: skip
    columns, wrows = _table(weak, "run ")
    assert wrows[0][columns.index("AP")] == expected_ap
    if importlib.util.find_spec("pytrec_eval") is None:
        pytest.skip("pytrec_eval (test extra) is not installed: the trec column not cross-checked")
    import gzip

    import pytrec_eval

    qrels: dict[str, dict[str, int]] = {}
    for line in (d / "qrels.txt").read_text().splitlines():
        q, _, doc, g = line.split()
        qrels.setdefault(q, {})[doc] = int(g)
    run: dict[str, dict[str, float]] = {}
    with gzip.open(d / "runs" / "coordination.txt.gz", "rt") as fh:
        for line in fh:
            q, _, doc, _, s, _ = line.split()
            run.setdefault(q, {})[doc] = float(s)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    peer = sum(v["map"] for v in per_query.values()) / len(per_query)
    assert trec_ap == f"{peer:.4f}"  # trec_eval's tie order, as the explanation says


def test_demo_suggested_cranfield_commands_work(cli):
    d = str(examples.path("cranfield"))
    out = cli(
        "evaluate", f"{d}/qrels.txt", f"{d}/runs/bm25.txt.gz", "-m", "AP", "-m", "P(rel=3)@10"
    )
    assert out.returncode == 0, out.stderr.decode()
    out = cli("ties", f"{d}/qrels.txt", f"{d}/runs/coordination.txt.gz", "--per-query")
    assert out.returncode == 0, out.stderr.decode()
    per_query = [line.split() for line in out.stdout.decode().splitlines()]
    rows = [r for r in per_query if r[:1] == ["coordination.txt.gz"] and r[1].isdigit()]
    assert len(rows) == 3 * 225  # one row per query and measure


@pytest.mark.slow
def test_demo_synthetic_prints_the_runs_in_quality_order_deterministically(cli):
    first = cli("demo", "--synthetic")
    text = _ok(first)
    columns, rows = _table(text, "run ")
    assert [r[0] for r in rows] == list(examples.RUNS)
    for measure in ("AP", "nDCG@10", "P@10", "RR", "R@1000"):
        j = columns.index(measure)
        values = [float(r[j]) for r in rows]
        assert values == sorted(values, reverse=True) and len(set(values)) == 6, measure
    assert "Next, try" in text and str(examples.path("collection")) in text
    second = cli("demo", "--synthetic")
    assert second.stdout == first.stdout


def test_demo_synthetic_ties(cli):
    text = _ok(cli("demo", "--synthetic", "--ties"))
    _, rows = _table(text, "run ")
    assert [r[0] for r in rows] == ["boolean"] * 3 + ["bm25"] * 3
    assert "synthetic collection" in text


def test_demo_of_a_damaged_installation_is_one_error(tmp_path, monkeypatch, capsys):
    # the Cranfield data ships with the package: without it (a damaged installation) the
    # demo does not fall back to other data but says what is missing and how to get it back
    (tmp_path / "cranfield").mkdir()
    (tmp_path / "collection").symlink_to(examples.ROOT / "collection")
    monkeypatch.setattr(examples, "ROOT", tmp_path)
    from _cli_trust import call

    for argv in (["demo"], ["demo", "--ties"]):
        code, out, err = call(argv, capsys, monkeypatch)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "reinstall cranfield" in err and "make_cranfield_runs.py" in err
    assert call(["demo", "--synthetic"], capsys, monkeypatch)[0] == 0


def test_demo_rejects_an_unknown_option(cli):
    out = cli("demo", "--tie-analysis")
    assert out.returncode == 2 and out.stdout == b""
    assert len(out.stderr.decode().strip().splitlines()) <= 2  # usage line + one error line
    assert b"Traceback" not in out.stderr


def test_demo_suggested_command_works(cli):
    d = str(examples.path("collection"))
    out = cli(
        "evaluate", f"{d}/qrels.txt", f"{d}/runs/bm25.txt.gz", "-m", "AP", "-m", "P(rel=2)@10"
    )
    assert out.returncode == 0, out.stderr.decode()
    assert b"bm25.txt.gz" in out.stdout
