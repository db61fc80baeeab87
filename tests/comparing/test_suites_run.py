"""``cranfield.suite`` and ``cranfield suite`` on generated collections, every figure checked
against an independent computation: per-query values from pytrec_eval (trec_eval's own code),
means, geometric means and wins/ties/losses computed here, the meta-analysis by statsmodels'
``combine_effects``."""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.meta_analysis import combine_effects

import cranfield
from conftest import run_cli
from cranfield.comparing.suites import DatasetRow, Suite

pytrec_eval = pytest.importorskip("pytrec_eval")

SYSTEMS = ("bm25", "dense", "hybrid")
# name, queries, seed, group, official measure, rel
DATASETS = [
    ("scifact", 25, 1, None, "nDCG@10", None),
    ("nfcorpus", 18, 2, None, "AP", 2),
    ("cqa-android", 12, 3, "cqadupstack", "nDCG@10", None),
    ("cqa-gis", 14, 4, "cqadupstack", "nDCG@10", None),
    ("cqa-unix", 9, 5, "cqadupstack", "nDCG@10", None),
]
PYTREC = {"nDCG@10": "ndcg_cut_10", "AP": "map"}


def _collection(folder: Path, name: str, queries: int, seed: int) -> None:
    """qrels with grades 0-2 and one run per system, every query ranked; the systems differ
    in how often they put relevant documents first (so the effects differ)."""
    rng = random.Random(seed)
    qrels, runs = [], {s: [] for s in SYSTEMS}
    for q in range(1, queries + 1):
        docs = [f"d{n}" for n in rng.sample(range(500), 40)]
        grades = {d: rng.choice((0, 0, 1, 2)) for d in rng.sample(docs, 15)}
        grades[docs[q % 40]] = 2  # a relevant document at every level: no undefined AP
        qrels += [f"{name}-q{q} 0 {d} {g}\n" for d, g in grades.items()]
        for k, s in enumerate(SYSTEMS):
            keyed = sorted(docs, key=lambda d: grades.get(d, 0) * k * 0.04 + rng.random())
            for rank, d in enumerate(reversed(keyed), 1):
                runs[s].append(f"{name}-q{q} Q0 {d} {rank} {100 - rank}.5 {s}\n")
    (folder / f"{name}.qrels").write_text("".join(qrels))
    for s, lines in runs.items():
        (folder / f"{name}.{s}.run").write_text("".join(lines))


def _suite_yaml(datasets=DATASETS, baseline: str | None = "bm25", root="data", copy=False) -> str:
    """The suite; ``copy``: the hybrid system's runs are the baseline's files."""
    out = ["measure: nDCG@10\n"]
    if baseline:
        out.append(f"baseline: {baseline}\n")
    out.append("datasets:\n")
    for name, _, _, group, measure, rel in datasets:
        out.append(f"  {name}:\n    qrels: {root}/{name}.qrels\n")
        if measure != "nDCG@10":
            out.append(f"    measure: {measure}\n")
        if rel is not None:
            out.append(f"    rel: {rel}\n")
        if group:
            out.append(f"    group: {group}\n")
        out.append("    runs:\n")
        files = {s: "bm25" if copy and s == "hybrid" else s for s in SYSTEMS}
        out += [f"      {s}: {root}/{name}.{files[s]}.run\n" for s in SYSTEMS]
    return "".join(out)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("suite")
    (d / "data").mkdir()
    for name, queries, seed, *_ in DATASETS:
        _collection(d / "data", name, queries, seed)
    (d / "suite.yaml").write_text(_suite_yaml())
    return d


def _read(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        q, _, d, g = line.split()
        out.setdefault(q, {})[d] = int(g)
    return out


def _run(path: Path) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        q, _, d, _, score, _ = line.split()
        out.setdefault(q, {})[d] = float(score)
    return out


def _per_query(folder: Path, name: str, measure: str, rel: int | None) -> dict[str, list[float]]:
    """Each system's per-query values, in one query order, by pytrec_eval."""
    qrels = _read(folder / "data" / f"{name}.qrels")
    key = PYTREC[measure]
    ev = pytrec_eval.RelevanceEvaluator(qrels, {key}, relevance_level=rel or 1)
    out = {}
    for s in SYSTEMS:
        res = ev.evaluate(_run(folder / "data" / f"{name}.{s}.run"))
        assert set(res) == set(qrels)
        out[s] = [res[q][key] for q in sorted(qrels)]
    return out


def _expected(folder: Path, effect: str = "difference"):
    """The collapsed datasets' means and effects (y, v), computed from pytrec_eval's values."""
    groups: dict[str, list] = {}
    for name, _, _, group, measure, rel in DATASETS:
        pq = _per_query(folder, name, measure, rel)
        means = {s: statistics.fmean(v) for s, v in pq.items()}
        effects = {}
        for s in SYSTEMS[1:]:
            d = [b - a for a, b in zip(pq["bm25"], pq[s], strict=True)]
            n, mean, sd = len(d), statistics.fmean(d), statistics.stdev(d)
            if effect == "difference":
                effects[s] = (mean, sd * sd / n)
            else:
                j = 1 - 3 / (4 * (n - 1) - 1)
                effects[s] = (j * mean / sd, j * j * (1 / n + (mean / sd) ** 2 / (2 * n)))
        groups.setdefault(group or name, []).append((means, effects, len(d)))
    out = {}
    for g, members in groups.items():
        m = len(members)
        out[g] = {
            "means": {s: statistics.fmean(x[0][s] for x in members) for s in SYSTEMS},
            "effects": {
                s: (
                    statistics.fmean(x[1][s][0] for x in members),
                    sum(x[1][s][1] for x in members) / m**2,
                )
                for s in SYSTEMS[1:]
            },
            "queries": sum(x[2] for x in members),
        }
    return out


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # statsmodels' HKSJ figures
@pytest.mark.parametrize("effect", ["difference", "standardized"])
def test_every_figure_agrees_with_pytrec_eval_and_statsmodels(folder, effect):
    res = cranfield.suite(folder / "suite.yaml", effect=effect)
    exp = _expected(folder, effect)
    assert [d.name for d in res.datasets] == ["scifact", "nfcorpus", "cqadupstack"]
    assert res.datasets[2].members == ("cqa-android", "cqa-gis", "cqa-unix")
    assert res.datasets[1].measure == "AP (rel 2)"
    for d in res.datasets:
        e = exp[d.name]
        assert d.queries == e["queries"]
        assert d.means == pytest.approx(e["means"], rel=1e-12)
        for s in SYSTEMS[1:]:
            assert d.effects[s] == pytest.approx(e["effects"][s], rel=1e-9)
    for s in SYSTEMS:
        means = [exp[g]["means"][s] for g in exp]
        assert res.mean(s) == pytest.approx(statistics.fmean(means), rel=1e-12)
        assert res.gmean(s) == pytest.approx(statistics.geometric_mean(means), rel=1e-12)
    for s in SYSTEMS[1:]:
        y = [exp[g]["effects"][s][0] for g in exp]
        v = [exp[g]["effects"][s][1] for g in exp]
        ref = combine_effects(np.array(y), np.array(v), method_re="dl")
        m = res.meta[s]
        assert m is not None
        assert m.q == pytest.approx(ref.q, rel=1e-9)
        assert m.tau2 == pytest.approx(max(0.0, ref.tau2), rel=1e-9, abs=1e-15)
        if ref.tau2 > 0:
            assert m.pooled == pytest.approx(ref.mean_effect_re, rel=1e-9)
            assert m.se == pytest.approx(ref.sd_eff_w_re, rel=1e-9)
        else:
            assert m.pooled == pytest.approx(ref.mean_effect_fe, rel=1e-9)
            assert m.se == pytest.approx(ref.sd_eff_w_fe, rel=1e-9)
        # wins, ties, losses: the means as printed with 4 decimals
        a = [round(exp[g]["means"]["bm25"], 4) for g in exp]
        b = [round(exp[g]["means"][s], 4) for g in exp]
        record = (
            sum(x < y for x, y in zip(a, b, strict=True)),
            sum(x == y for x, y in zip(a, b, strict=True)),
            sum(x > y for x, y in zip(a, b, strict=True)),
        )
        assert res.record(s) == record


def test_the_data_exercise_wins_losses_and_both_kinds_of_tau2(folder):
    """The generated systems differ, dense loses one dataset, and tau^2 is positive for some
    meta-analyses and truncated at 0 for another, so the checks above cover both."""
    a = cranfield.suite(folder / "suite.yaml")
    b = cranfield.suite(folder / "suite.yaml", effect="standardized")
    assert len({round(a.mean(s), 4) for s in SYSTEMS}) == 3
    assert a.record("dense") == (2, 0, 1)
    tau2 = [m.tau2 for r in (a, b) for m in r.meta.values()]
    assert min(tau2) == 0.0 < max(tau2)


def test_the_cli_json_is_the_api_result(folder):
    proc = run_cli("suite", str(folder / "suite.yaml"), "--format", "json", cwd=folder.parent)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    got = json.loads(proc.stdout)
    assert got == json.loads(cranfield.suite(folder / "suite.yaml").table("json"))
    assert got["baseline"] == "bm25"
    assert set(got["meta_analysis"]) == {"dense", "hybrid"}


def test_relative_paths_resolve_against_the_suite_folder_not_the_working_one(folder, tmp_path):
    proc = run_cli("suite", str(folder / "suite.yaml"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert "cqadupstack  3" in text
    assert text.splitlines()[-4].split()[0] == "system"


def test_toml_gives_the_same_suite_as_yaml(folder):
    lines = ['measure = "nDCG@10"', 'baseline = "bm25"']
    for name, _, _, group, measure, rel in DATASETS:
        lines.append(f'[datasets.{name}]\nqrels = "data/{name}.qrels"')
        if measure != "nDCG@10":
            lines.append(f'measure = "{measure}"')
        if rel is not None:
            lines.append(f"rel = {rel}")
        if group:
            lines.append(f'group = "{group}"')
        lines.append(f"[datasets.{name}.runs]")
        lines += [f'{s} = "data/{name}.{s}.run"' for s in SYSTEMS]
    (folder / "suite.toml").write_text("\n".join(lines) + "\n")
    a = cranfield.suite(folder / "suite.toml").to_dict()
    b = cranfield.suite(folder / "suite.yaml").to_dict()
    assert a.pop("suite").endswith("suite.toml") and b.pop("suite").endswith("suite.yaml")
    assert a == b


def test_a_baseline_option_overrides_the_suites(folder):
    res = cranfield.suite(folder / "suite.yaml", baseline="hybrid")
    assert res.baseline == "hybrid" and set(res.meta) == {"bm25", "dense"}
    assert res.meta["bm25"].pooled < 0 < -res.meta["bm25"].pooled  # hybrid is the better


def test_a_copy_of_the_baseline_ties_everywhere_and_has_no_effect(folder, tmp_path):
    text = _suite_yaml(DATASETS[:2], root=str(folder / "data"), copy=True)
    (tmp_path / "copy.yaml").write_text(text)
    res = cranfield.suite(tmp_path / "copy.yaml")
    assert res.record("hybrid") == (0, 2, 0)
    assert res.meta["hybrid"] is None
    assert len(res.notes) == 2 and all("variance is 0" in n for n in res.notes)
    row = next(x for x in res.table().splitlines() if x.startswith("hybrid "))
    assert row.split() == ["hybrid", "0", *["nan"] * 9]


def _suite_of(means_a, means_b, digits=4) -> Suite:
    rows = tuple(
        DatasetRow(f"d{i}", (f"d{i}",), "AP", 10, {"a": a, "b": b}, {"b": None}, 1)
        for i, (a, b) in enumerate(zip(means_a, means_b, strict=True))
    )
    return Suite("s", ("a", "b"), "a", "difference", 0.05, digits, rows, {"b": None})


def test_a_tie_is_equal_at_the_printed_precision():
    s = _suite_of([0.30001, 0.5, 0.2], [0.30004, 0.51, 0.1])
    assert s.record("b") == (1, 1, 1)
    assert _suite_of([0.30001, 0.5, 0.2], [0.30004, 0.51, 0.1], digits=5).record("b") == (2, 0, 1)


def test_a_geometric_mean_with_a_zero_is_zero_and_with_a_negative_undefined():
    assert _suite_of([0.0, 0.5], [0.2, 0.5]).gmean("a") == 0.0
    assert math.isnan(_suite_of([-0.1, 0.5], [0.2, 0.5]).gmean("a"))
    assert _suite_of([0.0, 0.5], [0.2, 0.8]).gmean("b") == pytest.approx(0.4)


def test_the_forest_plot_is_written(folder, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "forest.svg"
    proc = run_cli("suite", str(folder / "suite.yaml"), "--plot", str(out))
    assert proc.returncode == 0, proc.stderr
    svg = out.read_text()
    assert "cqadupstack" in svg and "pooled (random effects)" in svg
    assert proc.stderr.decode() == f"cranfield: wrote {out}\n"


def test_the_pages_suite_is_the_example_and_its_toml_says_the_same():
    """docs/suites.md shows the example's YAML as written, and its TOML is the same suite's
    first two datasets."""
    import tomllib

    import yaml

    from conftest import REPO
    from cranfield.examples.suite import SUITE_YAML

    page = (REPO / "docs" / "suites.md").read_text()
    assert f"```text\n{SUITE_YAML}```" in page
    start = page.index("```text\nmeasure = ")
    toml = tomllib.loads(page[start + 8 : page.index("```", start + 8)])
    full = yaml.safe_load(SUITE_YAML)
    assert toml["datasets"] == {k: full["datasets"][k] for k in ("cran-1", "cran-2a")}
    assert (toml["measure"], toml["baseline"]) == (full["measure"], full["baseline"])


def test_one_dataset_gives_json_without_nan(folder, tmp_path):
    """With one dataset Q has no degrees of freedom and its p-value is undefined: null in
    JSON (json.dumps refused the NaN: a traceback from the command)."""
    (tmp_path / "one.yaml").write_text(_suite_yaml(DATASETS[:1], root=str(folder / "data")))
    proc = run_cli("suite", str(tmp_path / "one.yaml"), "-f", "json")
    assert (proc.returncode, proc.stderr) == (0, b"")
    meta = json.loads(proc.stdout)["meta_analysis"]["dense"]
    assert meta["q_df"] == 0 and meta["q_p_value"] is None and meta["tau2"] == 0.0


def test_a_datasets_warning_names_the_dataset(folder, tmp_path):
    """Every dataset has runs of the same names, so a warning names the dataset too."""
    (tmp_path / "q.txt").write_text("x1 0 a 1\nx2 0 b 0\n")  # x2: no relevant document
    (tmp_path / "r.run").write_text("x1 Q0 a 1 2 r\nx2 Q0 b 1 2 r\nx2 Q0 a 2 1 r\n")
    suite = {
        "measure": "AP",
        "datasets": {
            "tiny": {"qrels": str(tmp_path / "q.txt"), "runs": {"r": str(tmp_path / "r.run")}}
        },
    }
    with pytest.warns(cranfield.UndefinedMeasureWarning) as caught:
        cranfield.suite(suite)
    assert [str(w.message).split(":")[:2] for w in caught] == [["tiny", " r"]]


def test_the_csv_is_the_datasets_table_with_the_summary_rows(folder):
    import csv
    import io

    res = cranfield.suite(folder / "suite.yaml")
    rows = list(csv.reader(io.StringIO(res.table("csv"))))
    assert rows[0] == ["dataset", "collections", "measure", "queries", *SYSTEMS]
    assert [r[0] for r in rows[1:]] == [
        "scifact", "nfcorpus", "cqadupstack", "mean", "gmean", "wins", "ties", "losses"
    ]  # fmt: skip
    exp = _expected(folder)
    for r in rows[1:4]:
        assert [float(x) for x in r[4:]] == [round(exp[r[0]]["means"][s], 4) for s in SYSTEMS]
    assert rows[6][4:] == ["", *(str(res.record(s)[0]) for s in SYSTEMS[1:])]


def test_a_measure_where_lower_is_better_gives_effects_turned_to_gains(folder, tmp_path):
    """E@10 = 1 - F@10 query by query: the suite under E@10 has the wins and losses and
    (sign turned: positive is a gain) the effects of the suite under F@10."""

    def run(measure: str):
        text = _suite_yaml(DATASETS[:2], root=str(folder / "data"))
        text = text.replace("measure: nDCG@10", f"measure: {measure}").replace(
            "    measure: AP\n", ""
        )
        path = tmp_path / f"{measure.replace('@', '-')}.yaml"
        path.write_text(text)
        return cranfield.suite(path)

    e, f = run("E@10"), run("F@10")
    for s in SYSTEMS[1:]:
        assert e.record(s) == f.record(s)
        for a, b in zip(e.datasets, f.datasets, strict=True):
            assert a.effects[s][0] == pytest.approx(b.effects[s][0], rel=1e-9)
            assert a.effects[s][1] == pytest.approx(b.effects[s][1], rel=1e-9)
        assert e.meta[s].pooled == pytest.approx(f.meta[s].pooled, rel=1e-9)
    assert any(d.means["dense"] != d.means["bm25"] for d in f.datasets)
