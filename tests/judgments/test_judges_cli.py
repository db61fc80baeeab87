"""``cranfield judges``: outputs, the plot, and one clear error (exit 2) for bad input."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_adversarial_commands import run_command
from test_io_adversarial import mutate, trec_file

from conftest import TEXT_PARSERS, use_text_parser
from cranfield.errors import DataWarning
from cranfield.judgments.agreement import judges

A = "q1 0 d1 0\nq1 0 d2 1\nq1 0 d3 2\nq1 0 d4 2\nq1 0 x 1\nq2 0 d1 1\nq2 0 d2 0\n"
B = "q1 0 d1 0\nq1 0 d2 2\nq1 0 d3 2\nq1 0 d4 1\nq2 0 d1 1\nq2 0 d2 1\nq2 0 y 0\n"


@pytest.fixture
def files(tmp_path):
    a, b = tmp_path / "a.qrels", tmp_path / "b.qrels"
    a.write_text(A)
    b.write_text(B)
    return str(a), str(b)


def _api(*paths, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return judges(*paths, **kw)


def test_json_is_the_api_result(cli, files):
    out = cli("judges", *files, "-f", "json", "--bootstrap", "50", "--seed", "3", "-l", "2")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == _api(*files, bootstrap=50, seed=3, rel=2).to_dict()


def test_csv_and_text(cli, files):
    want = _api(*files, bootstrap=0).pairs[0]
    out = cli("judges", *files, "-f", "csv", "--bootstrap", "0")
    assert out.returncode == 0, out.stderr
    rows = {
        (r["scope"], r["quantity"]): r for r in csv.DictReader(io.StringIO(out.stdout.decode()))
    }
    assert (
        float(rows["A-B", "kappa_quadratic"]["value"]) == want.statistics["kappa_quadratic"].value
    )
    assert rows["A-B", "pairs_in_A_only"]["value"] == "1"
    assert rows["A-B", "confusion:2:1"]["value"] == "1"
    assert rows["A-B", "kappa"]["low"] == ""  # no bootstrap: no interval
    text = cli("judges", *files, "--bootstrap", "0").stdout.decode()
    assert "A against B: 6 pairs judged by both, 1 by A only, 1 by B only" in text
    assert f"kappa_quadratic     {want.statistics['kappa_quadratic'].value:.4f}" in text


def test_the_mapping_is_shown(cli, files):
    out = cli("judges", *files, "--map", "B:1,2->1", "--bootstrap", "0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.decode().splitlines()
    assert lines[0].split()[-1] == "mapping"
    assert lines[2].split()[-2:] == ["0,1,2", "none"]
    assert lines[3].split()[-2:] == ["0,1", "1,2->1"]  # B's 0, 1, 2 mapped to 0, 1
    doc = json.loads(cli("judges", *files, "--map", "B:1,2->1", "-f", "json").stdout)
    assert [s["mapping"] for s in doc["sets"]] == [{}, {"1": 1, "2": 1}]
    assert doc["sets"][1]["grades"] == [0, 1]


def test_output_file_and_plot(cli, files, tmp_path):
    out_file, png = tmp_path / "out.txt", tmp_path / "c.png"
    out = cli("judges", *files, "-o", str(out_file), "--plot", str(png), "--bootstrap", "0")
    assert out.returncode == 0, out.stderr
    assert out.stdout == b""
    assert "A against B" in out_file.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_pair_in_common_is_declared_not_a_crash(cli, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("q1 0 d1 1\n")
    b.write_text("q1 0 d2 1\n")
    out = cli("judges", str(a), str(b))
    assert out.returncode == 0, out.stderr
    err = out.stderr.decode()
    assert "cranfield: warning: A and B judge no (query, document) pair in common" in err
    assert "Traceback" not in err
    assert "kappa               undefined" in out.stdout.decode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--map", "A 0->1"], "argument --map: give SET:GRADES->GRADE"),
        (["--map", "C:1->0"], "--map names the set 'C'; the sets are A, B"),
        (["--names", "x"], "--names gives 1 names for 2 judgment sets"),
        (["--plot", "x.txt"], "--plot"),
    ],
)
def test_bad_options_are_one_error(cli, files, args, message):
    out = cli("judges", *files, *args)
    err = out.stderr.decode()
    assert out.returncode == 2
    assert message in err and "Traceback" not in err


def test_bad_file_names_file_and_line(cli, files, tmp_path):
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 d1 1\nq1 0 d2\n")
    out = cli("judges", files[0], str(bad))
    err = out.stderr.decode()
    assert out.returncode == 2
    assert err.startswith(f"cranfield: error: {bad}: line 2:") and err.count("\n") == 1


def test_one_set_is_a_usage_error(cli, files):
    out = cli("judges", files[0])
    assert out.returncode == 2
    assert "at least two judgment sets" in out.stderr.decode()


def test_classic_collection_against_a_perturbed_copy(cli, data_dir, tmp_path):
    """Cranfield's qrels (grades 0-4) against a copy with 30% of the grades moved by one
    (seed 7) and 5% of the lines dropped; kappas checked with scikit-learn on the pairs
    read independently from the two files."""
    from sklearn.metrics import cohen_kappa_score

    original = data_dir / "cran" / "qrels.trec"
    rng = random.Random(7)
    kept = []
    for line in original.read_text().splitlines():
        q, it, d, g = line.split()
        g = int(g)
        if rng.random() < 0.3:
            g = max(0, min(4, g + rng.choice((-1, 1))))
        if rng.random() < 0.05:
            continue
        kept.append((q, it, d, g))
    perturbed = tmp_path / "perturbed.qrels"
    perturbed.write_text("".join(f"{q} {it} {d} {g}\n" for q, it, d, g in kept))
    grades = {
        (q, d): int(g) for q, _, d, g in (x.split() for x in original.read_text().splitlines())
    }
    a = [grades[q, d] for q, _, d, _ in kept]
    b = [g for *_, g in kept]
    out = cli("judges", str(original), str(perturbed), "-f", "json", "--bootstrap", "100")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    pair = doc["pairs"][0]
    assert pair["pairs_in_both"] == len(kept)
    assert pair["pairs_in_a_only"] == len(grades) - len(kept)
    for name, w in (("kappa", None), ("kappa_linear", "linear"), ("kappa_quadratic", "quadratic")):
        want = cohen_kappa_score(a, b, weights=w)
        assert pair["statistics"][name]["value"] == pytest.approx(want, abs=1e-12)


def test_heat_maps_of_many_sets_are_the_first_set_against_the_others():
    pytest.importorskip("matplotlib")
    from cranfield.render.judges_charts import MOST_PAIRS, confusion_heatmaps

    sets = [{"q1": {"d1": i % 2, "d2": 1, "d3": 0}} for i in range(7)]  # 21 pairs > 12
    r = _api(*sets, bootstrap=0)
    fig = confusion_heatmaps(r)
    drawn = [ax for ax in fig.axes if ax.get_visible() and ax.images]
    assert len(r.pairs) > MOST_PAIRS
    assert [ax.get_title() for ax in drawn] == [
        f"A against {b}: 3 pairs, kappa {k}"
        for b, k in zip("BCDEFG", ["0.400", "1.000"] * 3, strict=True)
    ]
    few = confusion_heatmaps(_api(*sets[:3], bootstrap=0))
    assert len([ax for ax in few.axes if ax.get_visible() and ax.images]) == 3


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(trec_file("qrels"), trec_file("qrels"), st.integers(0, 2**32 - 1))
def test_damaged_qrels_give_a_result_or_one_error(tmp_path, monkeypatch, a, b, seed):
    """Two valid qrels files, one of them damaged (bytes flipped, lines cut, compressed...)
    unless the seed is a multiple of 3: every text parser gives the same outcome, a result
    (status 0, JSON) or one error line naming the file."""
    if seed % 3:
        a, b = (mutate(a, seed)[0], b) if seed % 2 else (a, mutate(b, seed)[0])
    paths = [tmp_path / "a.qrels", tmp_path / "b.qrels"]
    paths[0].write_bytes(a)
    paths[1].write_bytes(b)
    argv = ["judges", *map(str, paths), "--bootstrap", "20", "-f", "json"]
    seen = []
    for parser in TEXT_PARSERS:
        use_text_parser(monkeypatch, parser)
        seen.append(run_command(argv))
    assert seen[1] == seen[0], seen
    code, out, err = seen[0]
    assert "Traceback" not in err
    assert code in (0, 2), (code, err)
    if code == 2:
        errors = [ln for ln in err.splitlines() if ln.startswith("cranfield: error: ")]
        assert len(errors) == 1, err
        if re.search(r": line \d+: ", errors[0]):
            assert any(str(p) in errors[0] for p in paths), errors[0]
    else:
        json.loads(out)


def test_without_bootstrap_the_text_has_no_interval_columns(cli, files):
    head = [ln for ln in cli("judges", *files, "--bootstrap", "0").stdout.decode().splitlines()]
    tables = [ln.split() for ln in head if ln.startswith("statistic")]
    assert tables == [["statistic", "value", "binarised"]] * 2
    head = cli("judges", *files, "--bootstrap", "10").stdout.decode().splitlines()
    tables = [ln.split() for ln in head if ln.startswith("statistic")]
    assert (
        tables
        == [["statistic", "value", "low", "95%", "high", "95%", "binarised", "low", "high"]] * 2
    )
