"""Every curve method against the plain reimplementations in ``_curves_oracle`` on random
rankings (hypothesis): per query and per level, and the averages over queries."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _curves_oracle import (
    ceiling_rule,
    cranfield,
    fallout_rule,
    max_rule,
    mean,
    median,
    precall_points,
    trec_rule,
)
from cranfield.curves import fallout, gain, precision_recall

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def weak_query(draw, max_groups=6):
    """Tie groups of relevance flags, and how many relevant documents are not ranked."""
    groups = draw(
        st.lists(st.lists(st.sampled_from([0, 0, 1]), min_size=1, max_size=4), max_size=max_groups)
    )
    missing = draw(st.integers(0, 3))
    unjudged = draw(
        st.lists(st.booleans(), min_size=sum(map(len, groups)), max_size=sum(map(len, groups)))
    )
    return groups, missing, unjudged


@st.composite
def collections(draw, max_queries=4, weak=False):
    qs = draw(st.lists(weak_query(max_groups=6 if weak else 12), min_size=1, max_size=max_queries))
    if not weak:  # every document alone
        qs = [([[x] for g in groups for x in g], missing, unj) for groups, missing, unj in qs]
    return qs


def build(queries):
    """qrels and run dicts; tied groups share a score; non-relevant documents are judged 0 or
    absent from the qrels; each query has one judged document so that it is evaluated."""
    qrels, run = {}, {}
    for qi, (groups, missing, unjudged) in enumerate(queries):
        q = f"q{qi}"
        qrels[q] = {f"{q}-judged": 0}
        run[q] = {}
        k = 0
        for g, members in enumerate(groups):
            for x in members:
                d = f"{q}-d{k:03d}"
                run[q][d] = float(100 - g)
                if x:
                    qrels[q][d] = 1
                elif not unjudged[k]:
                    qrels[q][d] = 0
                k += 1
        for j in range(missing):
            qrels[q][f"{q}-m{j}"] = 1
    run["~run-only"] = {"x": 1.0}  # never evaluated; keeps an all-empty run readable
    return qrels, run


def flat(groups):
    return [x for g in groups for x in g]


LEVELS = st.lists(st.integers(0, 20), min_size=1, max_size=5).map(
    lambda ks: sorted({F(k, 20) for k in ks})
)


def per_query_values(pq, qid):
    part = pq[pq["query_id"] == qid]
    return part["value"].tolist(), part["extrapolated"].tolist()


@pytest.mark.slow
@SETTINGS
@given(collections(), LEVELS)
def test_max_trec_trec9_ceiling_per_query(queries, levels):
    qrels, run = build(queries)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = {
            m: precision_recall(
                qrels, run, interpolation=m, levels=levels, per_query=True, complete=True
            )
            for m in ("max", "trec", "trec9", "ceiling")
        }
    for qi, (groups, missing, _) in enumerate(queries):
        rels, R = flat(groups), sum(flat(groups)) + missing
        q = f"q{qi}"
        got = {m: per_query_values(r[1], q)[0] for m, r in results.items()}
        assert got["max"] == pytest.approx([float(max_rule(rels, R, r)) for r in levels])
        assert got["ceiling"] == pytest.approx(
            [float(ceiling_rule([[x] for x in rels], R, r)) for r in levels]
        )
        assert got["trec"] == [trec_rule(rels, R, float(r)) for r in levels]
        assert got["trec9"] == [trec_rule(rels, R, float(r), old=True) for r in levels]


@SETTINGS
@given(
    collections(),
    LEVELS,
    st.sampled_from(["highest", "lowest", "middle", "mean", "ends"]),
    st.sampled_from([1, 2, 3, 4, 5]),
    st.booleans(),
)
def test_quasi_and_semi_cranfield_per_query(queries, levels, step, method, semi):
    qrels, run = build(queries)
    interpolation = "semi-cranfield" if semi else "quasi-cranfield"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df, pq = precision_recall(
            qrels,
            run,
            interpolation=interpolation,
            step=step,
            extrapolation=method,
            levels=levels,
            per_query=True,
            complete=True,
        )
    expected_all = []
    for qi, (groups, missing, _) in enumerate(queries):
        rels, R = flat(groups), sum(flat(groups)) + missing
        values, extrapolated = per_query_values(pq, f"q{qi}")
        expected = [cranfield(rels, R, r, semi=semi, step=step, method=method) for r in levels]
        expected_all.append(expected)
        for got, ext, (want, want_ext) in zip(values, extrapolated, expected, strict=True):
            if want is None:
                assert math.isnan(got)
            else:
                assert got == pytest.approx(float(want), abs=1e-12)
                assert ext == want_ext
    # the averages: mean over the queries that enter at each level, and the counts
    for col in range(len(levels)):
        entered = [e[col] for e in expected_all if e[col][0] is not None]
        assert df["queries"][col] == len(entered)
        assert df["extrapolated"][col] == sum(1 for _, x in entered if x)
        want = mean(float(v) for v, _ in entered)
        if math.isnan(want):
            assert math.isnan(df["value"][col])
        else:
            assert df["value"][col] == pytest.approx(want, abs=1e-12)


@SETTINGS
@given(collections(max_queries=3), LEVELS, st.sampled_from([1, 2, 3, 4, 5]), st.data())
def test_quasi_cranfield_with_a_reference_run(queries, levels, method, data):
    qrels, run = build(queries)
    # a reference "full search" ranking every document of the qrels in a random order
    ref = {}
    for q, judged in qrels.items():
        docs = sorted(judged)
        perm = data.draw(st.permutations(docs))
        ref[q] = {d: float(len(perm) - i) for i, d in enumerate(perm)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, pq = precision_recall(
            qrels,
            run,
            interpolation="quasi-cranfield",
            extrapolation=method,
            levels=levels,
            reference=ref,
            per_query=True,
            complete=True,
        )
    for qi, (groups, missing, _) in enumerate(queries):
        q = f"q{qi}"
        rels, R = flat(groups), sum(flat(groups)) + missing
        ref_rels = [qrels[q].get(d, 0) for d in sorted(ref[q], key=lambda d: -ref[q][d])]
        end = cranfield(ref_rels, R, F(1), semi=False, step="highest", method=method)[0]
        values, extrapolated = per_query_values(pq, q)
        for got, ext, r in zip(values, extrapolated, levels, strict=True):
            want, want_ext = cranfield(
                rels,
                R,
                r,
                semi=False,
                step="highest",
                method=method,
                reference=end if R else None,
            )
            if want is None:
                assert math.isnan(got)
            else:
                assert got == pytest.approx(float(want), abs=1e-12)
                assert ext == want_ext


@SETTINGS
@given(collections(weak=True), LEVELS, st.booleans(), st.integers(0, 5))
def test_ceiling_on_weak_orderings(queries, levels, with_n, spare):
    qrels, run = build(queries)
    # N covers the ranked documents, the relevant ones not ranked and the judged "-judged" one
    sizes = {f"q{i}": sum(map(len, g)) + m + 1 + spare for i, (g, m, _) in enumerate(queries)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, pq = precision_recall(
            qrels,
            run,
            interpolation="ceiling",
            weak=True,
            levels=levels,
            per_query=True,
            collection_size=sizes if with_n else None,
            complete=True,
        )
    for qi, (groups, missing, _) in enumerate(queries):
        q = f"q{qi}"
        R = sum(flat(groups)) + missing
        N = sizes[q] if with_n else None
        want = [float(ceiling_rule(groups, R, r, N)) for r in levels]
        assert per_query_values(pq, q)[0] == pytest.approx(want, abs=1e-12)


@SETTINGS
@given(collections(weak=True), LEVELS, st.booleans(), st.integers(0, 5), st.booleans())
def test_fallout_eq36_and_the_eq35_identity(queries, levels, weak, spare, use_median):
    if not weak:
        queries = [([[x] for x in flat(g)], m, u) for g, m, u in queries]
    qrels, run = build(queries)
    sizes = {f"q{i}": sum(map(len, g)) + m + spare + 1 for i, (g, m, _) in enumerate(queries)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df, pq = fallout(
            qrels,
            run,
            collection_size=sizes,
            levels=levels,
            weak=weak,
            per_query=True,
            statistic="median" if use_median else "mean",
            complete=True,
        )
    averages = {col: [] for col in range(len(levels))}
    for qi, (groups, missing, _) in enumerate(queries):
        q = f"q{qi}"
        R = sum(flat(groups)) + missing
        if R == 0:
            assert q not in set(pq["query_id"])
            continue
        part = pq[pq["query_id"] == q]
        # with weak=False the tie groups are single documents already
        for col, (r, f_got, p_got) in enumerate(
            zip(levels, part["value"], part["precision"], strict=True)
        ):
            f, p35, precall = fallout_rule(groups, R, sizes[q], r)
            assert p35 == precall  # Raghavan et al. sec. 3.5, exactly
            assert f_got == pytest.approx(float(f), abs=1e-12)
            assert p_got == pytest.approx(float(p35), abs=1e-12)
            averages[col].append(float(f))
    stat = median if use_median else mean
    for col, vals in averages.items():
        assert df["queries"][col] == len(vals)
        if vals:
            assert df["value"][col] == pytest.approx(stat(vals), abs=1e-12)


@SETTINGS
@given(
    collections(),
    st.lists(st.integers(1, 15), min_size=1, max_size=5),
    st.sampled_from(["macro-mean", "macro-median", "micro"]),
    st.booleans(),
)
def test_document_cutoffs_and_the_best_curve(queries, ks, how, best):
    qrels, run = build(queries)
    average, _, statistic = how.partition("-")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = precision_recall(
            qrels,
            run,
            cutoffs=ks,
            average=average,
            statistic=statistic or "mean",
            best=best,
            complete=True,
        )
    ks = sorted(set(ks))
    for name in ["run"] + (["best"] if best else []):
        part = df[df["run"] == name]
        assert part["cutoff"].tolist() == ks
        for row, k in zip(part.itertuples(), ks, strict=True):
            rel_k, Rs = [], []
            for groups, missing, _ in queries:
                rels = flat(groups)
                R = sum(rels) + missing
                rel_k.append(min(k, R) if name == "best" else sum(rels[:k]))
                Rs.append(R)
            if average == "micro":
                rec = F(sum(rel_k), sum(Rs)) if sum(Rs) else F(0)
                prec = F(sum(rel_k), k * len(queries))
            else:
                stat = median if statistic == "median" else mean
                rec = stat(F(c, R) if R else F(0) for c, R in zip(rel_k, Rs, strict=True))
                prec = stat(F(c, k) for c in rel_k)
            assert row.level == pytest.approx(float(rec), abs=1e-12)
            assert row.value == pytest.approx(float(prec), abs=1e-12)


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 3), max_size=10), st.lists(st.integers(1, 3), max_size=3)
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from(["micro", "macro"]),
    st.sampled_from([2, 3, 10]),
)
def test_gain_curves(queries, average, base):
    qrels, run = {}, {}
    for qi, (ranked_grades, unranked) in enumerate(queries):
        q = f"q{qi}"
        run[q] = {f"{q}d{k:02d}": float(50 - k) for k in range(len(ranked_grades))}
        qrels[q] = {f"{q}d{k:02d}": g for k, g in enumerate(ranked_grades)}
        qrels[q].update({f"{q}u{j}": g for j, g in enumerate(unranked)})
        qrels[q][f"{q}zz"] = 0
    run["~run-only"] = {"x": 1.0}  # never evaluated; keeps an all-empty run readable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = gain(qrels, run, average=average, base=base, complete=True)
    depth = max([len(g) for g, _ in queries] + [1])

    def disc(i):
        return 1.0 if i < base else math.log(i, base)

    curves = {c: [] for c in ("cg", "dcg", "icg", "idcg")}
    for ranked_grades, unranked in queries:
        g = list(ranked_grades) + [0] * (depth - len(ranked_grades))
        ideal = sorted([x for x in ranked_grades + unranked if x > 0], reverse=True)
        ideal = (ideal + [0] * depth)[:depth]
        for name, vec in (("cg", g), ("icg", ideal)):
            curves[name].append([sum(vec[:i]) for i in range(1, depth + 1)])
            curves["d" + name if name == "cg" else "idcg"].append(
                [sum(vec[k - 1] / disc(k) for k in range(1, i + 1)) for i in range(1, depth + 1)]
            )
    Q = len(queries)
    for name, rows in curves.items():
        want = [sum(r[i] for r in rows) / Q for i in range(depth)]
        got = table[table["curve"] == name]["value"].tolist()
        assert got == pytest.approx(want, abs=1e-9)
    for norm, num, den in (("ncg", "cg", "icg"), ("ndcg", "dcg", "idcg")):
        got = table[table["curve"] == norm]["value"].tolist()
        if average == "micro":
            a = [sum(r[i] for r in curves[num]) for i in range(depth)]
            b = [sum(r[i] for r in curves[den]) for i in range(depth)]
            want = [x / y if y else 0.0 for x, y in zip(a, b, strict=True)]
        else:
            want = [
                sum(
                    n[i] / d[i] if d[i] else 0.0
                    for n, d in zip(curves[num], curves[den], strict=True)
                )
                / Q
                for i in range(depth)
            ]
        assert got == pytest.approx(want, abs=1e-9)


def test_precall_oracle_reproduces_raghavan_example_2_1():
    # the oracle itself against the source: PRECALL at NR = 1 of (+ - - | + + + - x7) is 1/3
    assert precall_points([[1, 0, 0], [1, 1, 1] + [0] * 7], 4)[0] == F(1, 3)
    assert np.isclose(float(precall_points([[1, 1, 1] + [0] * 5, [1, 0, 0, 0]], 4)[0]), 0.375)
