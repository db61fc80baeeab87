"""``compare()`` and ``cranfield compare`` at scale: every test at up to 200,000 queries,
the command's randomization test with 1,100 queries, and the natural order of hostile query
ids."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _scale_pairs import _results, in_unit
from scipy import stats

import cranfield
from cranfield.comparing.requests import natural_key
from cranfield.errors import DataWarning
from cranfield.measures.parse import parse
from cranfield.results.tables import Results

# the tests' advice on small and huge query sets is incidental to what is checked here
pytestmark = [
    pytest.mark.filterwarnings(
        "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
    ),
    pytest.mark.filterwarnings(
        "ignore:compare. the (Wilcoxon|sign) test on:cranfield.errors.CranfieldWarning"
    ),
]


@pytest.mark.parametrize("n", [10, 1000, 10_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_compare_runs_every_test_at_scale(n):
    rs = _results(n, nan_every=20)
    kept = n - len(range(0, n, 20))
    B = 200 if n < 200_000 else 40
    tests = ("t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey")
    if n == 200_000:  # the routines themselves are tested at this size above
        tests = ("t", "randomization", "bootstrap", "tukey")
    for test in tests:
        with pytest.warns(DataWarning, match="undefined"):
            cmp = cranfield.compare(rs, "AP", test=test, permutations=B, seed=1)
        for p in cmp.pairs["AP"]:
            assert p.queries == kept and in_unit(p.p_value) and in_unit(p.p_adjusted)
            assert math.isfinite(p.ci_low) and math.isfinite(p.ci_high)
        if test == "randomization":
            assert cmp.notes["exact"] == (["AP"] if kept <= 24 and 2**kept <= B else [])
        if test == "t":
            a, b = rs[0].values[:, 0], rs[1].values[:, 0]
            ok = np.isfinite(b)
            ref = stats.ttest_rel(b[ok], a[ok]).pvalue
            assert cmp.pair("AP", "A", "B").p_value == pytest.approx(ref, rel=1e-12)


def test_cli_randomization_with_1100_queries(cli, tmp_path):
    qrels, run_a, run_b = tmp_path / "qrels", tmp_path / "a.run", tmp_path / "b.run"
    rng = np.random.default_rng(0)
    with open(qrels, "w") as fq, open(run_a, "w") as fa, open(run_b, "w") as fb:
        for q in range(1100):
            fq.write(f"q{q} 0 d1 1\nq{q} 0 d2 0\n")
            for f, name in ((fa, "a"), (fb, "b")):
                order = ["d1", "d2"] if rng.random() < 0.5 else ["d2", "d1"]
                for r, d in enumerate(order, 1):
                    f.write(f"q{q} Q0 {d} {r} {3 - r} {name}\n")
    out = cli(
        "compare", str(qrels), str(run_a), str(run_b), "-m", "AP",
        "--test", "randomization", "--permutations", "500", "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    import json

    pair_ = json.loads(out.stdout)["measures"]["AP"]["pairs"][0]
    assert pair_["queries"] == 1100 and 0 < pair_["p_value"] <= 1
    big = cli(
        "compare", str(qrels), str(run_a), str(run_b), "--test", "randomization",
        "--permutations", str(10**30),
    )  # fmt: skip
    assert big.returncode == 2 and b"Traceback" not in big.stderr


def test_natural_order_of_hostile_query_ids():
    # superscript digits are not decimal digits (int('²') fails); 5,000 digits exceed int()'s
    # limit of 4,300; Arabic-Indic digits are decimal digits with their value
    ids = ["q10", "²", "q٣", "q4", "1" * 5000, "9", "q2", "q", "0" * 4999 + "8"]
    expected = ["0" * 4999 + "8", "9", "1" * 5000, "q", "q2", "q٣", "q4", "q10", "²"]
    assert sorted(ids, key=natural_key) == expected
    rs = [
        Results(name, tuple(ids), ("AP",), (parse("AP"),), np.linspace(0, 1, 9)[::s, None])
        for name, s in (("A", 1), ("B", -1))
    ]
    cmp = cranfield.compare(rs, "AP")
    assert [q for q, _ in cmp.differences("AP", "A", "B")] == expected
