"""``cranfield leaderboard``: outputs, the plot, and bad input as one error line (exit 2)."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from importlib.util import find_spec

import numpy as np
import pytest
import test_adversarial_commands as adv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats


def _write(tmp_path, seed=7, runs=5):
    rng = np.random.default_rng(seed)
    qa = tmp_path / "human.qrels"
    qb = tmp_path / "llm.qrels"
    la, lb = [], []
    for q in range(1, 9):
        for d in range(20):
            g = int(rng.choice(4, p=[0.5, 0.2, 0.2, 0.1]))
            la.append(f"{q} 0 D{d} {g}\n")
            if q != 8:
                lb.append(f"{q} 0 D{d} {int((g >= 2) != (rng.random() < 0.25))}\n")
    qa.write_text("".join(la))
    qb.write_text("".join(lb))
    paths = []
    for r in range(runs):
        lines = []
        for q in range(1, 9):
            s = rng.random(20) + 0.1 * r * (np.arange(20) % 2)
            for k, d in enumerate(np.argsort(-s)):
                lines.append(f"{q} Q0 D{d} {k + 1} {s[d]:.4f} r{r}\n")
        p = tmp_path / f"r{r}.run"
        p.write_text("".join(lines))
        paths.append(str(p))
    return str(qa), str(qb), paths


def test_text_csv_and_json_agree(tmp_path, cli):
    qa, qb, runs = _write(tmp_path)
    base = [qa, qb, "-r", *runs, "-m", "AP", "-m", "P@5", "-k", "3"]
    text = cli("leaderboard", *base)
    assert text.returncode == 0, text.stderr
    out = text.stdout.decode()
    assert "queries per set: human.qrels 7, llm.qrels 7" in out
    assert "left out: 1 of human.qrels's 8, 0 of llm.qrels's 7" in text.stderr.decode()
    js = cli("leaderboard", *base, "--format", "json")
    d = json.loads(js.stdout)
    assert d["sets"] == ["human.qrels", "llm.qrels"] and d["queries"]["human.qrels"] == 7
    rows = list(csv.DictReader(io.StringIO(cli("leaderboard", *base, "-f", "csv").stdout.decode())))
    assert [r["measure"] for r in rows] == ["AP", "P@5"]
    for row, agree in zip(rows, d["agreement"], strict=True):
        m = d["means"][row["measure"]]
        x = [m["human.qrels"][r] for r in d["runs"]]
        y = [m["llm.qrels"][r] for r in d["runs"]]
        assert agree["tau_b"] == pytest.approx(stats.kendalltau(x, y).statistic)
        assert float(row["tau_b"]) == pytest.approx(agree["tau_b"], abs=5e-5)
        assert int(row["swaps"]) == agree["swaps"]
        assert row["moved"] == agree["moved"]


@pytest.mark.skipif(find_spec("matplotlib") is None, reason="the plot extra")
def test_plot_is_written(tmp_path, cli):
    qa, qb, runs = _write(tmp_path)
    png = tmp_path / "scatter.png"
    done = cli("leaderboard", qa, qb, "-r", *runs, "-m", "AP", "--plot", str(png))
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_one_set_is_a_warning_not_an_error(tmp_path, cli):
    qa, _, runs = _write(tmp_path)
    done = cli("leaderboard", qa, "-r", *runs, "-m", "AP")
    assert done.returncode == 0
    assert "one judgment set: no pair of leaderboards" in done.stderr.decode()


@pytest.mark.parametrize(
    "case, message",
    [
        ("missing", "absent.qrels: no such file"),
        ("bad_line", "bad.qrels: line 2: expected 4 columns"),
        ("disjoint", "no query is judged in every judgment set"),
    ],
)
def test_bad_input_is_one_error_line(tmp_path, cli, case, message):
    qa, qb, runs = _write(tmp_path)
    if case == "missing":
        qb = str(tmp_path / "absent.qrels")
    elif case == "bad_line":
        qb = str(tmp_path / "bad.qrels")
        (tmp_path / "bad.qrels").write_text("1 0 D1 1\n1 0 D2\n")
    else:
        qb = str(tmp_path / "other.qrels")
        (tmp_path / "other.qrels").write_text("99 0 D1 1\n")
    done = cli("leaderboard", qa, qb, "-r", *runs, "-m", "AP")
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "Traceback" not in err
    assert err.count("cranfield: error:") == 1 and message in err


def test_runs_are_required(tmp_path, cli):
    qa, qb, _ = _write(tmp_path)
    done = cli("leaderboard", qa, qb, "-m", "AP")
    assert done.returncode == 2 and "-r/--run" in done.stderr.decode()


LEADERBOARD = [
    "leaderboard", "{qrels}", "{qrels}", "-r", "{run}", "{other}", "-m", "AP", "-m", "P@5",
]  # fmt: skip


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(adv._PAIRS, st.integers(0, 2**32 - 1))
def test_leaderboard_survives_damaged_files(tmp_path, monkeypatch, pair, seed):
    """The project's campaign of damaged qrels and runs (test_adversarial_commands): exit 0
    or one error line naming the file and line, the same under the three text parsers, never
    a traceback."""
    monkeypatch.setattr(adv, "COMMANDS", {"leaderboard": LEADERBOARD})
    tally: Counter = Counter()
    adv.check_commands(*adv._damage(*pair, seed), tmp_path, monkeypatch, tally)
    assert tally["commands"] == 1
