"""Nugget scores against the peer: nuggetizer's own metric functions
(``nuggetizer.core.metrics.calculate_nugget_scores`` per response and
``calculate_global_metrics`` per run) on generated assignment files in the shape nuggetizer's
assign writes, and compare's paired t-test on them against scipy's ``ttest_rel`` on
nuggetizer's per-response values."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from cranfield import compare
from cranfield.nuggets import SCORES, read, response_scores, score

metrics = pytest.importorskip("nuggetizer.core.metrics")

PEER_NAMES = {  # cranfield's score -> nuggetizer's key
    "strict_vital": "strict_vital_score",
    "strict_all": "strict_all_score",
    "vital": "vital_score",
    "all": "all_score",
}
LABELS3 = ("support", "partial_support", "not_support")
LABELS2 = ("support", "not_support")  # nuggetizer's two-grade assignment mode


def _records(seed: int, runs: int, queries: int, labels=LABELS3) -> list[dict]:
    """Records as nuggetizer's assign writes them: every run answers every query; nugget
    lists of 0 to 12 nuggets (some with no vital nugget, some empty)."""
    rng = random.Random(seed)
    records = []
    nuggets_of = {}
    for q in range(queries):
        n = rng.choice([0, 1, 2, 5, 8, 12]) if q % 7 else 0
        vital_share = rng.choice([0.0, 0.3, 0.6, 1.0])
        nuggets_of[q] = [
            {
                "text": f"fact {q}.{k}",
                "importance": "vital" if rng.random() < vital_share else "okay",
            }
            for k in range(n)
        ]
    for r in range(runs):
        for q in range(queries):
            records.append(
                {
                    "query": f"question {q}?",
                    "qid": f"2024-{1000 + q}",
                    "answer_text": "an answer",
                    "response_length": 3,
                    "run_id": f"run{r}",
                    "nuggets": [{**n, "assignment": rng.choice(labels)} for n in nuggets_of[q]],
                }
            )
    return records


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize("labels", [LABELS3, LABELS2], ids=["3-grade", "2-grade"])
def test_each_response_is_nuggetizers_value_to_the_bit(tmp_path, labels):
    records = _records(1, runs=3, queries=40, labels=labels)
    a = read(_write(tmp_path / "all.jsonl", records))
    ours = response_scores(a)
    assert len(a) == len(records)
    for i, rec in enumerate(records):
        peer = metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"])
        assert (a.query_ids[i], a.runs[i]) == (rec["qid"], rec["run_id"])
        for name, key in PEER_NAMES.items():
            assert ours[name][i] == getattr(peer, key), (i, name)


def test_each_runs_means_are_nuggetizers_global_metrics(tmp_path):
    records = _records(2, runs=3, queries=60)
    files = []
    for r in range(3):  # one file per run, as nuggetizer's assign writes them
        mine = [rec for rec in records if rec["run_id"] == f"run{r}"]
        files.append(_write(tmp_path / f"run{r}.jsonl", mine))
    res = score(files)
    assert res.names == ["run0", "run1", "run2"]
    for r in range(3):
        mine = [rec for rec in records if rec["run_id"] == f"run{r}"]
        peer = metrics.calculate_global_metrics(mine)
        got = res[f"run{r}"].aggregate()
        assert list(got) == list(SCORES)
        for name, key in PEER_NAMES.items():
            # statistics.mean is correctly rounded, the mean here a sequential sum over 60
            # values in [0, 1] divided by 60: at most 60 roundings apart
            assert math.isclose(got[name], peer[key], rel_tol=0, abs_tol=60 * 2**-52)
        # each query's value is the peer's, to the bit, whatever the files' order
        for rec in mine:
            row = res[f"run{r}"].query_ids.index(rec["qid"])
            peer_q = metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"])
            for j, key in enumerate(PEER_NAMES.values()):
                assert res[f"run{r}"].values[row, j] == getattr(peer_q, key)


def test_one_file_of_several_runs_scores_as_their_own_files(tmp_path):
    records = _records(3, runs=2, queries=25)
    random.Random(0).shuffle(records)  # responses in any order
    together = score(_write(tmp_path / "both.jsonl", records))
    apart = score(
        [
            _write(tmp_path / f"{r}.jsonl", [x for x in records if x["run_id"] == r])
            for r in ("run0", "run1")
        ]
    )
    assert sorted(together.names) == apart.names
    for name in apart.names:
        assert together[name].query_ids == apart[name].query_ids
        assert np.array_equal(together[name].values, apart[name].values)


def test_compares_t_test_is_scipys_on_nuggetizers_values(tmp_path):
    from scipy import stats

    records = _records(4, runs=2, queries=30)
    res = score(_write(tmp_path / "two.jsonl", records))
    cmp = compare(res, ["vital", "all"], test="t")
    for name in ("vital", "all"):
        key = PEER_NAMES[name]
        by_run = {
            run: {
                rec["qid"]: getattr(
                    metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"]), key
                )
                for rec in records
                if rec["run_id"] == run
            }
            for run in ("run0", "run1")
        }
        qids = sorted(by_run["run0"])
        x = [by_run["run0"][q] for q in qids]
        y = [by_run["run1"][q] for q in qids]
        peer = stats.ttest_rel(y, x)
        pair = cmp.pair(name, "run0", "run1")
        assert pair.queries == 30
        assert pair.p_value == pytest.approx(peer.pvalue, rel=1e-9)
        assert pair.statistic == pytest.approx(peer.statistic, rel=1e-9)


def test_the_t_interval_of_a_runs_mean_is_scipys_on_nuggetizers_values(tmp_path):
    from scipy import stats

    records = _records(5, runs=2, queries=20)
    res = score(_write(tmp_path / "two.jsonl", records), ["all"], ci="t", confidence=0.9)
    for run in ("run0", "run1"):
        x = [
            metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"]).all_score
            for rec in records
            if rec["run_id"] == run
        ]
        low, high = stats.t.interval(0.9, len(x) - 1, loc=np.mean(x), scale=stats.sem(x))
        got = res[run].intervals.get(run, "all")
        assert got == pytest.approx((low, high), rel=1e-12)
