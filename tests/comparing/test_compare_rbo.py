"""Rank-biased overlap between two runs (Webber, Moffat & Zobel, ACM TOIS 28(4), 2010):
RBO_ext against eq. 32 written out here (and against the ``rbo`` package where it is installed:
it pins numpy < 2, so the test extra does not install it), RBO_min and the residual against
brute force in this file: the definition (1 - p) sum_d p^(d-1) |S[:d] ∩ T[:d]| / d summed far
down rankings extended the two extreme ways (with documents the other never holds: the minimum;
with each other's documents, then the same new ones: the maximum)."""

from __future__ import annotations

import math
import random

import pytest

import cranfield
from cranfield.comparing.rbo import rank_biased_overlap
from cranfield.errors import ParameterError

# two-query collections: the t-test's advice is incidental to the overlap checked here
pytestmark = pytest.mark.filterwarnings(
    "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
)

DEPTH = 4000  # p <= 0.95: p^4000 < 1e-89, the rest of the infinite sum is negligible


def _rbo(s: list, t: list, p: float) -> float:
    seen_s, seen_t, both, total = set(), set(), 0, []
    for d in range(1, DEPTH + 1):
        x, y = s[d - 1], t[d - 1]
        if x == y:
            both += 1
        else:
            both += (x in seen_t) + (y in seen_s)
        seen_s.add(x)
        seen_t.add(y)
        total.append(p ** (d - 1) * both / d)
    return (1 - p) * math.fsum(total)


def _minimum(s, t, p):
    fresh_s = [f"s{i}" for i in range(DEPTH)]
    fresh_t = [f"t{i}" for i in range(DEPTH)]
    return _rbo(s + fresh_s, t + fresh_t, p)


def _maximum(s, t, p):
    s2 = s + [x for x in t if x not in s]
    t2 = t + [x for x in s if x not in t]
    n = max(len(s2), len(t2))
    s2 += [f"n{i}" for i in range(n - len(s2))]
    t2 += [f"n{i}" for i in range(n - len(t2))]
    same = [f"z{i}" for i in range(DEPTH)]
    return _rbo(s2 + same, t2 + same, p)


def _as_run(docs: list[str]) -> dict:
    return {"q": {d: float(len(docs) - i) for i, d in enumerate(docs)}}


CASES = [
    (list("abcdefg"), list("zcavwxy")),  # Webber et al.'s fig. 5 style: equal lengths
    (list("abcde"), list("baxd")),  # uneven
    (list("ab"), list("cdefgh")),  # disjoint, uneven
    (list("abc"), list("abc")),  # identical
    (list("a"), list("bacdefghij")),
]


def _ext(s: list, t: list, p: float) -> float:
    """RBO_ext, Webber et al. eq. 32: S the shorter list (length s), L the longer (length l),
    X_d the overlap at depth d (with S's X_d frozen at X_s beyond s)."""
    S, L = (s, t) if len(s) <= len(t) else (t, s)
    ls, ll = len(S), len(L)
    X = [len(set(S[:d]) & set(L[:d])) for d in range(ll + 1)]
    head = math.fsum(X[d] / d * p**d for d in range(1, ll + 1))
    tail = math.fsum(X[ls] * (d - ls) / (ls * d) * p**d for d in range(ls + 1, ll + 1))
    last = ((X[ll] - X[ls]) / ll + X[ls] / ls) * p**ll
    return (1 - p) / p * (head + tail) + last


@pytest.mark.parametrize("s, t", CASES)
@pytest.mark.parametrize("p", [0.5, 0.9, 0.95])
def test_min_residual_and_ext_equal_brute_force_and_eq_32(s, t, p):
    o = rank_biased_overlap(_as_run(s), _as_run(t), p=p)
    lo, hi = _minimum(s, t, p), _maximum(s, t, p)
    assert o.min[0] == pytest.approx(lo, rel=1e-12, abs=1e-14)
    assert o.residual[0] == pytest.approx(hi - lo, rel=1e-12, abs=1e-14)
    assert o.ext[0] == pytest.approx(_ext(s, t, p), rel=1e-12)
    # symmetric, and the extrapolation lies in the bounds
    r = rank_biased_overlap(_as_run(t), _as_run(s), p=p)
    assert (r.min[0], r.residual[0], r.ext[0]) == pytest.approx((lo, hi - lo, o.ext[0]))
    assert lo - 1e-12 <= o.ext[0] <= hi + 1e-12


@pytest.mark.parametrize("s, t", CASES)
@pytest.mark.parametrize("p", [0.5, 0.9, 0.95])
def test_ext_equals_the_rbo_package(s, t, p):
    rbo = pytest.importorskip("rbo", reason="rbo pins numpy < 2: pip install --no-deps rbo")
    o = rank_biased_overlap(_as_run(s), _as_run(t), p=p)
    assert o.ext[0] == pytest.approx(rbo.RankingSimilarity(s, t).rbo_ext(p=p), rel=1e-12)
    assert _ext(s, t, p) == pytest.approx(rbo.RankingSimilarity(s, t).rbo_ext(p=p), rel=1e-12)


def test_random_rankings_over_several_queries():
    rng = random.Random(3)
    a, b = {}, {}
    for qi in range(12):
        pool = [f"d{i}" for i in range(rng.randint(1, 30))]
        sa = rng.sample(pool, rng.randint(1, len(pool)))
        sb = rng.sample(pool, rng.randint(1, len(pool)))
        a[f"q{qi}"] = {d: float(len(sa) - i) for i, d in enumerate(sa)}
        b[f"q{qi}"] = {d: float(len(sb) - i) for i, d in enumerate(sb)}
    o = rank_biased_overlap(a, b, p=0.8)
    for i, q in enumerate(o.query_ids):
        s, t = list(a[q]), list(b[q])
        assert o.min[i] == pytest.approx(_minimum(s, t, 0.8), rel=1e-12, abs=1e-14)
        assert o.residual[i] == pytest.approx(
            _maximum(s, t, 0.8) - _minimum(s, t, 0.8), rel=1e-12, abs=1e-14
        )
        assert o.ext[i] == pytest.approx(_ext(s, t, 0.8), rel=1e-12)


def test_worked_example():
    # S = a b, T = b a: X_1 = 0, X_2 = 2; p = 1/2: RBO_min = (1-p)/p (sum_{d<=2} (X_d - 2) p^d
    # / d - 2 ln(1/2)) = 1 * (-2 * 1/2 + 0 + 2 ln 2) = 2 ln 2 - 1; residual 0 (f = 2: p^2 and
    # X*_d = X_d: max = (1/4 * 2/2) + 1/4 = 1/2... the lists are complete permutations)
    o = rank_biased_overlap(_as_run(["a", "b"]), _as_run(["b", "a"]), p=0.5)
    assert o.min[0] == pytest.approx(2 * math.log(2) - 1, rel=1e-14)
    assert o.residual[0] == pytest.approx(0.5 - (2 * math.log(2) - 1), rel=1e-14)
    # RBO_ext (eq. 30 for equal lengths): (1-p)/p (0 + 2/2 * 1/4) + 1 * 1/4 = 1/2
    assert o.ext[0] == pytest.approx(0.5, rel=1e-15)


def test_empty_rankings_and_bad_p():
    o = rank_biased_overlap({"q": {"a": 1.0}}, {"r": {"a": 1.0}}, p=0.9)
    assert o.query_ids == ("q", "r")
    assert o.min.tolist() == [0.0, 0.0] and o.ext.tolist() == [0.0, 0.0]
    assert o.residual.tolist() == pytest.approx([1.0, 1.0])
    for bad in (0, 1, 1.5, -0.1, float("nan"), "x", True):
        with pytest.raises(ParameterError, match="p"):
            rank_biased_overlap({"q": {"a": 1.0}}, {"q": {"a": 1.0}}, p=bad)


def test_ties_follow_the_tie_policy():
    # equal scores: trec orders by document id descending (c, b, a)
    a = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    b = {"q": {"c": 3.0, "b": 2.0, "a": 1.0}}
    assert rank_biased_overlap(a, b, p=0.9).ext[0] == pytest.approx(1.0)
    assert cranfield.rank_biased_overlap is rank_biased_overlap


# ------------------------------------------------------------------ in compare
QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 1}}
RUNS = {
    "r1": {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"a": 1.0}},
    "r2": {"q1": {"c": 3.0, "a": 2.0, "x": 1.0}, "q2": {"z": 1.0}},
    "r3": {"q1": {"b": 3.0, "a": 2.0}, "q2": {"a": 1.0, "z": 0.5}},
}


def test_compare_reports_the_overlap_of_every_pair_it_compares():
    cmp = cranfield.compare(QRELS, RUNS, ["AP"], rbo=0.8)
    assert [(o.a, o.b) for o in cmp.overlaps] == [("r1", "r2"), ("r1", "r3"), ("r2", "r3")]
    for o in cmp.overlaps:
        direct = rank_biased_overlap(RUNS[o.a], RUNS[o.b], p=0.8, queries=["q1", "q2"])
        assert o.means == direct.means
        assert o.query_ids == ("q1", "q2")
    text = cmp.table("text")
    assert "Rank-biased overlap of the rankings (p = 0.8" in text
    assert "RBO_min" in cmp.table("markdown")
    import json

    rows = json.loads(cmp.table("json"))["rank_biased_overlap"]
    assert rows[0] == cmp.overlaps[0].to_dict()
    # a baseline: only its pairs; depth cuts the rankings
    base = cranfield.compare(QRELS, RUNS, ["AP"], rbo=0.8, baseline="r3", depth=1)
    assert [(o.a, o.b) for o in base.overlaps] == [("r3", "r1"), ("r3", "r2")]
    cut = rank_biased_overlap(
        {q: dict(list(d.items())[:1]) for q, d in RUNS["r3"].items()},
        {q: dict(list(d.items())[:1]) for q, d in RUNS["r1"].items()},
        p=0.8,
    )
    assert base.overlaps[0].means == cut.means


def test_compare_without_rbo_has_no_overlap_and_results_cannot_give_one():
    assert cranfield.compare(QRELS, RUNS, ["AP"]).overlaps == ()
    results = cranfield.evaluate(QRELS, RUNS, ["AP"])
    with pytest.raises(ParameterError, match="rankings"):
        cranfield.compare(results, ["AP"], rbo=0.9)
    with pytest.raises(ParameterError, match="p"):
        cranfield.compare(QRELS, RUNS, ["AP"], rbo=1.0)


def _write(path, rows):
    path.write_text("".join(" ".join(map(str, r)) + "\n" for r in rows))
    return str(path)


def test_command_line_rbo(cli, tmp_path):
    import json

    qrels = _write(tmp_path / "qrels", [(q, 0, d, g) for q, docs in QRELS.items()
                                        for d, g in docs.items()])  # fmt: skip
    files = []
    for name, run in RUNS.items():
        rows = [(q, "Q0", d, i, s, name) for q, docs in run.items()
                for i, (d, s) in enumerate(docs.items(), start=1)]  # fmt: skip
        files.append(_write(tmp_path / name, rows))
    out = cli("compare", qrels, *files, "-m", "AP", "--rbo", "0.8", "--format", "json")
    assert out.returncode == 0, out.stderr.decode()
    rows = json.loads(out.stdout)["rank_biased_overlap"]
    api = cranfield.compare(qrels, files, ["AP"], rbo=0.8)
    assert rows == [o.to_dict() for o in api.overlaps]
    bad = cli("compare", qrels, *files, "-m", "AP", "--rbo", "1")
    assert bad.returncode == 2 and b"--rbo" in bad.stderr
