"""Property tests: every measure of ``cranfield.evaluate`` equals the independent oracle.

The oracle (``oracle_trec.py``, a plain per-query transcription of trec_eval 10.0's reference,
itself checked against trec_eval's real outputs in ``test_oracle_vs_trec_eval.py``) is run on
small random collections made to hit trec_eval's corner cases: tied scores, docnos whose byte
order is not their numeric order, graded and negative grades, unjudged retrieved documents,
judged topics without relevant documents, queries missing from the run or from the qrels;
under random depth (-M), judged_only (-J), complete (-c) and relevance levels (``rel=``).

Per-query values must agree within 1e-12 (counts exactly), and so must the aggregates (mean,
sum, or geometric mean with eps 1e-5).  Every case must parse: a measure renamed or dropped from
cranfield's registry, or a parameter it no longer declares, fails the comparison (and
``test_every_case_is_registered`` names it); it is never left out quietly.

Further invariants need no oracle: the same run as a dict, as a TREC file and as a DataFrame
gives the same numbers; ``ties='given'`` on a run already in trec_eval's order equals
``ties='trec'``; repeated calls give identical results.
"""

from __future__ import annotations

import math
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
import oracle_trec as oracle
from cranfield.errors import InputError
from cranfield.measures import REGISTRY

# ---- random collections ------------------------------------------------------------------

# byte order differs from numeric order ("10" < "2", "007" < "1", "A" < "a")
QIDS = ["1", "2", "10", "007", "A", "a"]
# likewise for docnos ("d10" < "d9", "D5" < "a", "é" sorts after every ASCII byte)
DOCNOS = ["d1", "d2", "d9", "d10", "d11", "D5", "a", "b", "B", "x-1", "é", "zz"]
GRADES = st.sampled_from([-2, -1, 0, 0, 0, 1, 1, 2, 3])
# few distinct scores, so that ties are frequent; sometimes any float
SCORES = st.one_of(
    st.sampled_from([0.0, 0.5, 1.0, 1.0, 2.5, -1.0]),
    st.floats(min_value=-100, max_value=100, allow_nan=False, allow_infinity=False),
)


@st.composite
def collections(draw) -> tuple[dict[str, dict[str, int]], dict[str, list[tuple[str, float]]]]:
    """Qrels ``{qid: {docno: grade}}`` and a run ``{qid: [(docno, score)]}``."""
    qrels_qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=4, unique=True))
    qrels = {}
    for q in qrels_qids:
        docs = draw(st.lists(st.sampled_from(DOCNOS), min_size=1, max_size=8, unique=True))
        qrels[q] = {d: draw(GRADES) for d in docs}
    # mostly judged queries, sometimes queries the qrels do not have; some judged ones missing
    run_qids = draw(st.lists(st.sampled_from(qrels_qids), max_size=4, unique=True))
    run_qids += draw(st.lists(st.sampled_from(QIDS), max_size=2, unique=True))
    run_qids = list(dict.fromkeys(run_qids)) or [qrels_qids[0]]
    run = {}
    for q in run_qids:
        docs = draw(st.lists(st.sampled_from(DOCNOS), min_size=1, max_size=10, unique=True))
        run[q] = [(d, draw(SCORES)) for d in docs]
    return qrels, run


def run_dict(run: dict[str, list[tuple[str, float]]]) -> dict[str, dict[str, float]]:
    return {q: dict(docs) for q, docs in run.items()}


# ---- the measures and their oracle --------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One measure string, its oracle per topic, its aggregation and relevance level."""

    name: str  # registry name
    label: str
    fn: Callable[[oracle.Topic], float]
    how: str = "mean"
    rel: int = 1
    params: tuple[str, ...] = ()

    @property
    def integer(self) -> bool:
        return self.how == "sum"


def has_param(name: str, param: str) -> bool:
    return name in REGISTRY and any(p.name == param for p in REGISTRY[name].params)


# Measures of ``cases`` without a ``rel=`` parameter (graded, or no relevance involved); every
# other one also gets a ``rel=`` variant.  ``test_rel_parameters_are_as_listed`` checks the list
# against the registry, so a measure that loses (or gains) ``rel=`` fails instead of quietly
# losing (or never getting) its variant.
WITHOUT_REL = frozenset(
    {"nDCG", "DCG", "IDCG", "nDCGRel", "G", "RBP", "RBPResid", "NumQ", "NumRet", "Judged",
     "Unjudged"}
)  # fmt: skip


def label(name: str, params: dict, cutoff: object = None) -> str:
    text = name
    if params:
        text += "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
    if cutoff is not None:
        text += f"@{cutoff}"
    return text


def gains_text(gains: dict[int, int]) -> str:
    return "{" + ",".join(f"{g}:{v}" for g, v in gains.items()) + "}"


@dataclass(frozen=True)
class Draw:
    """The parameters of one example."""

    k: int
    rel: int
    mult: float
    beta: float
    point: float
    p: float
    gains: dict[int, int]
    utility: tuple[float, float, float, float, int]  # a, b, c, d, N


def cases(d: Draw) -> list[Case]:
    """Every measure the oracle knows, with the example's parameters."""
    k, gains = d.k, d.gains
    a, b, c, dd, N = d.utility
    utility = {"a": a, "b": b, "c": c, "d": dd, **({"N": N} if N else {})}
    binary: list[tuple[str, dict, object, Callable[..., float], str]] = [
        # (name, params, cutoff, oracle(topic), aggregation)
        ("AP", {}, None, lambda t: t.map(), "mean"),
        ("AP", {}, k, lambda t: t.map_cut(k), "mean"),
        ("GMAP", {}, None, lambda t: t.map(), "gmean"),
        ("RR", {}, None, lambda t: t.recip_rank(), "mean"),
        ("RR", {}, k, lambda t: t.recip_rank_cut(k), "mean"),
        ("P", {}, k, lambda t: t.P(k), "mean"),
        ("R", {}, k, lambda t: t.recall(k), "mean"),
        ("Rprec", {}, None, lambda t: t.Rprec(), "mean"),
        ("Rprec", {"mult": d.mult}, None, lambda t: t.Rprec_mult(d.mult), "mean"),
        ("Bpref", {}, None, lambda t: t.bpref(), "mean"),
        ("GMBpref", {}, None, lambda t: t.bpref(), "gmean"),
        ("infAP", {}, None, lambda t: t.infAP(), "mean"),
        ("BinG", {}, None, lambda t: t.binG(), "mean"),
        ("NumRel", {}, None, lambda t: t.num_rel(), "sum"),
        ("NumRelRet", {}, None, lambda t: t.num_rel_ret(), "sum"),
        ("NumNonRelJudgedRet", {}, None, lambda t: t.num_nonrel_judged_ret(), "sum"),
        ("SetP", {}, None, lambda t: t.set_P(), "mean"),
        ("SetR", {}, None, lambda t: t.set_recall(), "mean"),
        ("SetF", {}, None, lambda t: t.set_F(1.0), "mean"),
        ("SetF", {"beta": d.beta}, None, lambda t: t.set_F(d.beta * d.beta), "mean"),
        ("SetRelP", {}, None, lambda t: t.set_relative_P(), "mean"),
        ("SetAP", {}, None, lambda t: t.set_map(), "mean"),
        ("Success", {}, k, lambda t: t.success(k), "mean"),
        ("IPrec", {}, d.point, lambda t: t.iprec_at_recall(d.point), "mean"),
        ("IPrecAvg", {}, None, lambda t: t.avg_iprec(), "mean"),
        ("RelP", {}, k, lambda t: t.relative_P(k), "mean"),
        ("Utility", {}, None, lambda t: t.utility(), "mean"),
        ("Utility", utility, None, lambda t: t.utility(a, b, c, dd, N), "mean"),
        ("YAAP", {}, None, lambda t: t.yaap(), "mean"),
        # graded measures: the grade is the gain, rel= does not apply (RnDCG: only R = 0 -> 0)
        ("nDCG", {}, None, lambda t: t.ndcg(), "mean"),
        ("nDCG", {}, k, lambda t: t.ndcg_cut(k), "mean"),
        ("DCG", {}, None, lambda t: t.dcg(), "mean"),
        ("IDCG", {}, None, lambda t: t.ideal_dcg(), "mean"),
        ("nDCGRel", {}, None, lambda t: t.ndcg_rel(), "mean"),
        ("RnDCG", {}, None, lambda t: t.Rndcg(), "mean"),
        ("G", {}, None, lambda t: t.G(), "mean"),
        ("RBP", {}, None, lambda t: t.rbp(), "mean"),
        ("RBP", {"p": d.p}, None, lambda t: t.rbp(d.p), "mean"),
        ("RBPResid", {}, None, lambda t: t.rbp_residual(), "mean"),
        ("RBPResid", {"p": d.p}, None, lambda t: t.rbp_residual(d.p), "mean"),
        # no relevance involved
        ("NumQ", {}, None, lambda t: 1, "sum"),
        ("NumRet", {}, None, lambda t: t.num_ret(), "sum"),
        ("Judged", {}, k, lambda t: t.judged_at(k), "mean"),
        ("Unjudged", {}, k, lambda t: t.unj(k), "mean"),
    ]
    with_gains: list[tuple[str, object, Callable[..., float]]] = [
        ("nDCG", None, lambda t: t.ndcg(gains)),
        ("nDCG", k, lambda t: t.ndcg_cut(k, gains)),
        ("DCG", None, lambda t: t.dcg(gains)),
        ("IDCG", None, lambda t: t.ideal_dcg(gains)),
        ("nDCGRel", None, lambda t: t.ndcg_rel(gains)),
        ("RnDCG", None, lambda t: t.Rndcg(gains)),
        ("G", None, lambda t: t.G(gains)),
        ("RBP", None, lambda t: t.rbp(0.9, gains)),
    ]
    out = []
    for name, params, cutoff, fn, how in binary:
        out.append(Case(name, label(name, params, cutoff), fn, how, params=tuple(params)))
        if d.rel != 1 and name not in WITHOUT_REL:
            p = {"rel": d.rel, **params}
            out.append(Case(name, label(name, p, cutoff), fn, how, rel=d.rel, params=tuple(p)))
    for name, cutoff, fn in with_gains:
        p = {"gains": gains_text(gains)}
        out.append(Case(name, label(name, p, cutoff), fn, params=("gains",)))
    return out


draws = st.builds(
    Draw,
    k=st.sampled_from([1, 2, 3, 5, 10]),
    rel=st.sampled_from([0, 1, 2, 3]),
    mult=st.sampled_from([0.2, 0.5, 1.0, 1.4, 2.0]),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    point=st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 1.0]),
    p=st.sampled_from([0.5, 0.8, 0.95]),
    gains=st.sampled_from(
        [{0: 0, 1: 1, 2: 3}, {0: 0, 1: 2, 2: 5, 3: 10}, {1: 1}, {0: 1, 1: 2}, {0: -1, 2: 4}]
    ),
    utility=st.sampled_from(
        [
            (2.0, -1.0, 0.0, 0.0, 0),
            (1.0, -0.5, -1.0, 0.0, 0),
            (3.0, 0.0, 1.0, 0.5, 0),
            (1.0, -1.0, 0.0, 0.25, 20),
            (0.0, 0.0, 0.0, 1.0, 15),
        ]
    ),
)

options = st.fixed_dictionaries(
    {
        "depth": st.sampled_from([None, None, 0, 1, 2, 3, 5, 8]),
        "judged_only": st.booleans(),
        "complete": st.booleans(),
    }
)


def unparseable(cs: list[Case]) -> list[str]:
    """The labels of the cases cranfield cannot parse: name not registered, or a parameter not
    declared."""
    return [
        c.label
        for c in cs
        if c.name not in REGISTRY or not all(has_param(c.name, p) for p in c.params)
    ]


def registered(cs: list[Case]) -> list[Case]:
    """All the cases, after checking that cranfield can parse every one: a missing measure
    fails here with its name, it does not shrink the comparison."""
    missing = unparseable(cs)
    assert not missing, f"not in cranfield's registry (renamed or dropped?): {', '.join(missing)}"
    return cs


def oracle_results(qrels, run, cs: list[Case], opts: dict) -> dict[str, tuple[dict, float]]:
    """{label: (per-query values, aggregate)} from the oracle."""
    out = {}
    for c in cs:
        out[c.label] = oracle.evaluate(qrels, run, c.fn, c.how, rel_level=c.rel, **opts)
    return out


def same(got: float, want: float, exact: bool) -> bool:
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if exact:
        return got == want
    return abs(got - want) <= 1e-12


def quiet_evaluate(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(*args, **kwargs)


def check_against_oracle(qrels, run, d: Draw, opts: dict) -> None:
    cs = registered(cases(d))
    want = oracle_results(qrels, run, cs, opts)
    evaluated = list(oracle.topics(qrels, run, **opts))
    if not evaluated:
        with pytest.raises(InputError):
            quiet_evaluate(qrels, run_dict(run), [c.label for c in cs], ties="trec", **opts)
        return
    res = quiet_evaluate(qrels, run_dict(run), [c.label for c in cs], ties="trec", **opts)
    assert list(res.query_ids) == evaluated
    agg = res.aggregate()
    problems = []
    for c in cs:
        per_query, summary = want[c.label]
        got = res.column(c.label)
        for qid, g in zip(res.query_ids, got.tolist(), strict=True):
            if not same(g, per_query[qid], c.integer):
                problems.append(f"{c.label} query {qid!r}: got {g!r}, oracle {per_query[qid]!r}")
        if not same(agg[c.label], summary, c.integer):
            problems.append(f"{c.label} aggregate: got {agg[c.label]!r}, oracle {summary!r}")
    assert not problems, f"qrels={qrels!r}\nrun={run!r}\noptions={opts!r}\n" + "\n".join(
        problems[:20]
    )


@settings(max_examples=150, deadline=None)
@given(collections(), draws, options)
def test_measures_equal_oracle(collection, d, opts):
    qrels, run = collection
    check_against_oracle(qrels, run, d, opts)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(collections(), draws, options)
def test_measures_equal_oracle_many(collection, d, opts):
    qrels, run = collection
    check_against_oracle(qrels, run, d, opts)


# ---- regressions: two cranfield bugs the property test found (complete=True, missing topics)


def test_utility_of_a_missing_topic_is_0_as_in_trec_eval():
    qrels = {"q1": {"a": 1}, "q2": {"x": 1, "y": 2}}
    run = {"q1": [("a", 1.0)]}
    label = "Utility(a=1,b=-1,c=2,d=0)"
    per_query, _ = oracle.evaluate(qrels, run, lambda t: t.utility(1, -1, 2, 0), complete=True)
    res = quiet_evaluate(qrels, run_dict(run), [label], complete=True)
    assert per_query == {"q1": 1.0, "q2": 0.0}
    assert res.column(label).tolist() == [1.0, 0.0]


def test_iprec_of_a_missing_topic_at_depth_zero_is_nan_as_in_trec_eval():
    qrels = {"q1": {"a": 1}, "q2": {"x": 1}}
    run = {"q1": [("a", 1.0)]}
    per_query, _ = oracle.evaluate(
        qrels, run, lambda t: t.iprec_at_recall(0.0), complete=True, depth=0
    )
    res = quiet_evaluate(qrels, run_dict(run), ["IPrec@0.0"], complete=True, depth=0)
    assert all(math.isnan(v) for v in per_query.values())
    assert all(math.isnan(v) for v in res.column("IPrec@0.0").tolist())


def test_every_case_is_registered():
    """Every measure the oracle knows is registered with the parameters the cases use, so the
    comparison above covers all of them."""
    every = cases(Draw(5, 2, 1.0, 1.0, 0.5, 0.8, {0: 0}, (1, 1, 1, 0, 0)))
    assert len(every) == len({c.label for c in every})
    assert unparseable(every) == []
    assert {c.name for c in every} >= WITHOUT_REL
    assert {c.name for c in every if c.rel == 2} == {c.name for c in every} - WITHOUT_REL


def test_rel_parameters_are_as_listed():
    names = {c.name for c in cases(Draw(5, 2, 1.0, 1.0, 0.5, 0.8, {0: 0}, (1, 1, 1, 0, 0)))}
    wrong = sorted(n for n in names if has_param(n, "rel") == (n in WITHOUT_REL))
    assert not wrong, f"rel= declared differently from WITHOUT_REL: {wrong}"


def test_a_renamed_measure_fails_the_check_instead_of_shrinking_it():
    renamed = Case("NoSuchMeasure", "NoSuchMeasure@5", lambda t: 0.0)
    gone = Case("P", "P(gone=1)@5", lambda t: 0.0, params=("gone",))
    with pytest.raises(AssertionError, match=r"NoSuchMeasure@5, P\(gone=1\)@5"):
        registered([*cases(Draw(5, 1, 1.0, 1.0, 0.5, 0.8, {0: 0}, (1, 1, 1, 0, 0))), renamed, gone])


# ---- invariants without oracle ------------------------------------------------------------

INVARIANT_MEASURES = ["AP", "P@5", "nDCG@3", "RR", "Rprec", "NumRet", "NumRelRet", "Judged@5"]


def invariant_measures() -> list[str]:
    return list(INVARIANT_MEASURES)


def equal_results(a, b) -> bool:
    return (
        a.query_ids == b.query_ids
        and a.labels == b.labels
        and np.array_equal(a.values, b.values, equal_nan=True)
    )


def write_trec(qrels, run, directory: Path) -> tuple[Path, Path]:
    qpath, rpath = directory / "qrels.txt", directory / "run.txt"
    qpath.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()),
        encoding="utf-8",
    )
    rpath.write_text(
        "".join(
            f"{q}\tQ0\t{d}\t{i}\t{s!r}\ttag\n"
            for q, docs in run.items()
            for i, (d, s) in enumerate(docs, start=1)
        ),
        encoding="utf-8",
    )
    return qpath, rpath


def has_judged_query(qrels, run) -> bool:
    return any(q in run for q in qrels)


def nothing_to_evaluate(qrels, run, opts: dict, *paths: Callable[[], object]) -> bool:
    """True, after checking that every evaluation path refuses the input with an InputError,
    when no query is evaluated (no run query in the qrels, and not ``complete``)."""
    if has_judged_query(qrels, run) or opts["complete"]:
        return False
    for path in paths:
        with pytest.raises(InputError):
            path()
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(collections(), options)
def test_dict_and_trec_file_agree(collection, opts):
    qrels, run = collection
    ms = invariant_measures()
    with tempfile.TemporaryDirectory() as tmp:
        qpath, rpath = write_trec(qrels, run, Path(tmp))
        if nothing_to_evaluate(
            qrels,
            run,
            opts,
            lambda: quiet_evaluate(qrels, run_dict(run), ms, **opts),
            lambda: quiet_evaluate(str(qpath), str(rpath), ms, **opts),
        ):
            return
        from_dicts = quiet_evaluate(qrels, run_dict(run), ms, **opts)
        from_files = quiet_evaluate(str(qpath), str(rpath), ms, **opts)
    assert equal_results(from_dicts, from_files)


@settings(max_examples=40, deadline=None)
@given(collections(), options)
def test_dict_and_dataframe_agree(collection, opts):
    import pandas as pd

    qrels, run = collection
    ms = invariant_measures()
    qrels_df = pd.DataFrame(
        [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
        columns=["query_id", "doc_id", "relevance"],
    )
    run_df = pd.DataFrame(
        [(q, d, s) for q, docs in run.items() for d, s in docs],
        columns=["query_id", "doc_id", "score"],
    )
    if nothing_to_evaluate(
        qrels,
        run,
        opts,
        lambda: quiet_evaluate(qrels, run_dict(run), ms, **opts),
        lambda: quiet_evaluate(qrels_df, run_df, ms, **opts),
    ):
        return
    from_dicts = quiet_evaluate(qrels, run_dict(run), ms, **opts)
    from_frames = quiet_evaluate(qrels_df, run_df, ms, **opts)
    assert equal_results(from_dicts, from_frames)


@settings(max_examples=60, deadline=None)
@given(collections(), options)
def test_given_order_equal_to_trec_order(collection, opts):
    """A run whose given order is already trec_eval's order: ties='given' == ties='trec'."""
    qrels, run = collection
    ordered = {}
    for q, docs in run.items():
        score = dict(docs)
        ordered[q] = {d: score[d] for d in oracle.trec_order(docs)}
    ms = invariant_measures()
    if nothing_to_evaluate(
        qrels,
        run,
        opts,
        lambda: quiet_evaluate(qrels, ordered, ms, ties="given", **opts),
        lambda: quiet_evaluate(qrels, run_dict(run), ms, ties="trec", **opts),
    ):
        return
    given_res = quiet_evaluate(qrels, ordered, ms, ties="given", **opts)
    trec_res = quiet_evaluate(qrels, run_dict(run), ms, ties="trec", **opts)
    assert equal_results(given_res, trec_res)


@settings(max_examples=30, deadline=None)
@given(collections(), draws, options, st.sampled_from(["trec", "given", "random"]))
def test_deterministic(collection, d, opts, ties):
    qrels, run = collection
    ms = [c.label for c in registered(cases(d))]
    if nothing_to_evaluate(
        qrels, run, opts, lambda: quiet_evaluate(qrels, run_dict(run), ms, ties=ties, **opts)
    ):
        return
    first = quiet_evaluate(qrels, run_dict(run), ms, ties=ties, seed=7, **opts)
    second = quiet_evaluate(qrels, run_dict(run), ms, ties=ties, seed=7, **opts)
    assert equal_results(first, second)
    agg1, agg2 = first.aggregate(), second.aggregate()
    assert all(same(agg1[m], agg2[m], exact=True) for m in ms)
