"""Collection sizes and cut-offs at any number: the normalized measures at collection sizes
up to 2**63-1, and ``cranfield trec_eval`` keeping trec_eval's long cut-offs without a
traceback."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import run_cli
from cranfield.io import read_qrels, read_run
from cranfield.judging.join import judge
from cranfield.measures import parse
from cranfield.measures.params import INT64_MAX


@pytest.mark.parametrize("N", [2**31, 2**53, 2**62, INT64_MAX])
def test_normalized_measures_at_any_collection_size(N):
    # q: relevant documents at rank 1 and (missing) at rank N; n = 2
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run = {"q": {"a": 2.0, "c": 1.0}}
    from dataclasses import replace

    from cranfield.base.limits import MAX_DOCUMENTS
    from cranfield.errors import ParameterError

    if N > MAX_DOCUMENTS:  # beyond what a user may give; the measures must still hold there
        with pytest.raises(ParameterError, match="collection size must be <="):
            judge(read_qrels(qrels), read_run(run), collection_size=N)
    jr = judge(read_qrels(qrels), read_run(run), collection_size=3)
    jr = replace(jr, collection_size=np.array([N], dtype=np.int64))
    n, ranks = 2, [1, N]
    log_sum = sum(math.log(r) for r in ranks)
    worst = math.log(N) + math.log(N - 1) - math.lgamma(n + 1)
    expect = {
        "Pnorm": 1 - (log_sum - math.lgamma(n + 1)) / worst,
        "Rnorm": 1 - (sum(ranks) - 3) / (n * (N - n)),
        "RankRecall": 3 / sum(ranks),
        "LogPrecision": math.lgamma(n + 1) / log_sum,
    }
    for name, value in expect.items():
        got = parse(name).compute(jr)[0]
        assert got == pytest.approx(value, rel=1e-12), name


def test_trec_eval_front_end_keeps_trec_evals_long_cut_offs_without_a_traceback(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 3.0 r\n1 Q0 x 2 2.0 r\n1 Q0 c 3 1.0 r\n")
    big = "9223372036854775807"
    args = ["trec_eval", "-m", f"P.{big}", "-m", f"unj.{big}", "-m", f"ndcg_cut.{big}"]
    out = run_cli(*args, "-m", f"ndcg.{10**30}=2,1=0.5", str(qrels), str(run))
    assert out.returncode == 0, out.stderr.decode()
    lines = {ln.split()[0]: ln.split()[2] for ln in out.stdout.decode().splitlines()}
    assert lines[f"P_{big}"] == "0.0000"  # 2 relevant / 2**63-1
    assert lines[f"unj_{big}"] == "0.0000"
    # gains a, x, c = 1, 0, 2 at ranks 1..3; ideal 2, 1
    dcg = 1 + 2 / math.log2(4)
    assert float(lines[f"ndcg_cut_{big}"]) == pytest.approx(dcg / (2 + 1 / math.log2(3)), abs=5e-5)
