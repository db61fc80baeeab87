"""The warning when the chosen test is a poor fit for the number of queries."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cranfield
from cranfield.comparing.advice import FEW_QUERIES, MANY_QUERIES
from cranfield.errors import CranfieldWarning
from cranfield.measures.parse import parse
from cranfield.results.tables import Results


def _runs(n: int, measures=("AP",)) -> list[Results]:
    rng = np.random.default_rng(n)
    qids = tuple(f"q{i:05d}" for i in range(n))
    return [
        Results(name, qids, measures, tuple(map(parse, measures)), rng.random((n, len(measures))))
        for name in ("a", "b")
    ]


def _fit_warnings(runs, test: str) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cranfield.compare(runs, test=test, permutations=200)
    return [str(w.message) for w in caught if issubclass(w.category, CranfieldWarning)]


def test_t_with_few_queries_is_warned_about_once():
    got = _fit_warnings(_runs(FEW_QUERIES - 1, ("AP", "P@10")), "t")
    assert len(got) == 1
    assert "t-test on 9 queries" in got[0] and "--test randomization" in got[0]
    assert _fit_warnings(_runs(FEW_QUERIES), "t") == []
    assert _fit_warnings(_runs(FEW_QUERIES - 1), "randomization") == []


@pytest.mark.parametrize("test", ["wilcoxon", "sign"])
def test_wilcoxon_and_sign_with_thousands_of_queries_are_warned_about(test):
    got = _fit_warnings(_runs(MANY_QUERIES), test)
    assert len(got) == 1 and f"on {MANY_QUERIES:,} queries" in got[0]
    assert "not whether the means differ" in got[0] and "--test t" in got[0]
    assert _fit_warnings(_runs(MANY_QUERIES - 1), test) == []
    assert _fit_warnings(_runs(MANY_QUERIES), "t") == []


@pytest.mark.slow
def test_commands_that_test_no_pairs_do_not_warn_about_the_pairwise_test(cli, tmp_path):
    from test_compare_api import make_collection
    from test_compare_cli import write_trec

    qrels, runs = make_collection(5, seed=1)
    q, paths = write_trec(tmp_path, qrels, runs, ["a.run", "b.run", "c.run"])
    out = cli("compare", q, *paths, "-m", "AP")
    assert out.returncode == 0 and b"t-test on 5 queries" in out.stderr
    for command in (["anova"], ["design", "--min-diff", "0.1"], ["meta", "--samples", "50"]):
        out = cli(command[0], q, *paths, "-m", "AP", *command[1:])
        assert out.returncode == 0, out.stderr.decode()
        assert b"t-test on" not in out.stderr and b"superiority" not in out.stderr
