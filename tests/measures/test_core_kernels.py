"""Generated differential test of the compiled core's small path (rust/src/dicts.rs).

For every measure declaration that names a ``core_kernel``, generated qrels and run dicts
(tie groups, 0.0 and -0.0, documents whose byte order differs from their code units,
queries without results or without judgments, unjudged documents, negative grades, every
``rel`` from 0 to 3, cut-offs below and above the rankings' lengths, depth and judged_only)
are evaluated by the core's path and by the general path (judge -> measure function), and
the values must be the same bits, the warnings the same words.  The oracle is the
declaration's own function: the kernel may not change a single rounding.
"""

from __future__ import annotations

import warnings
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
from cranfield import _core
from cranfield.measures import core_kernels
from cranfield.measures.core_kernels import KERNELS
from cranfield.measures.registry import REGISTRY
from cranfield.results import core_dicts as evaluation

KERNEL_MEASURES = sorted(n for n, d in REGISTRY.items() if d.core_kernel is not None)

QIDS = ["q1", "q2", "q10", "é"]
DOCS = ["d1", "d2", "d10", "D3", "z", "é", "ü1", "\u00a0x", "a", *(f"n{i}" for i in range(24))]
SCORES = [0.0, -0.0, 1.0, 1.5, 2, -3.25, 7.0, 1e300]
GRADES = [-2, -1, 0, 1, 1, 1, 2, 3]


@st.composite
def _ranking(draw: st.DrawFn, values: list) -> dict:
    """Up to every document (long rankings as often as short ones), each with a value."""
    docs = draw(st.permutations(DOCS))[: draw(st.integers(0, len(DOCS)))]
    return {d: draw(st.sampled_from(values)) for d in docs}


qrels_dicts = st.dictionaries(st.sampled_from(QIDS), _ranking(GRADES), min_size=1, max_size=4)
run_dicts = st.dictionaries(
    st.sampled_from([*QIDS, "q9"]), _ranking(SCORES), min_size=1, max_size=5
)


def _strings(name: str, data: st.DataObject) -> str:
    """A measure string of declaration ``name`` with generated parameters."""
    d = REGISTRY[name]
    parts = []
    if d.param("rel") is not None and data.draw(st.booleans()):
        parts.append(f"rel={data.draw(st.integers(0, 3))}")
    if d.param("mult") is not None and data.draw(st.booleans()):
        parts.append(f"mult={data.draw(st.sampled_from([0.2, 0.5, 1.5, 2.0]))}")
    if d.param("beta") is not None and data.draw(st.booleans()):
        parts.append(f"beta={data.draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.7]))}")
    for weight in ("a", "b", "c", "d"):
        if d.param(weight) is not None and data.draw(st.booleans()):
            parts.append(f"{weight}={data.draw(st.sampled_from([-2.5, -1.0, 0.0, 0.5, 3.0]))}")
    if d.param("N") is not None and data.draw(st.booleans()):
        parts.append(f"N={data.draw(st.sampled_from([0, 1, 7, 40]))}")
    if d.param("rounding") is not None and data.draw(st.booleans()):
        parts.append(f"rounding={data.draw(st.sampled_from(['trec9', 'trec10']))}")
    if d.param("gains") is not None and data.draw(st.integers(0, 4)) == 0:
        parts.append("gains={1:0.5,2:3}")  # not the kernel's: the declaration computes it
    text = name + (f"({','.join(parts)})" if parts else "")
    cutoff = d.cutoff
    if cutoff is not None and (cutoff.required or data.draw(st.booleans())):
        if cutoff.kind == "float":  # a recall level: where lround and trec9 differ too
            text += f"@{data.draw(st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 0.7, 1.0]))}"
        else:
            text += f"@{data.draw(st.sampled_from([1, 2, 3, 5, 20, 2**31 - 1]))}"
    return text


def _outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = fn()
        except cranfield.CranfieldError as exc:
            return ("error", type(exc).__name__, str(exc)), []
    return res, [f"{w.category.__name__}: {w.message}" for w in caught]


@pytest.mark.parametrize("name", KERNEL_MEASURES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels=qrels_dicts, run=run_dicts, data=st.data())
def test_core_kernel_equals_its_declaration(name: str, qrels, run, data) -> None:
    measures = [_strings(name, data) for _ in range(data.draw(st.integers(1, 3)))]
    options = {
        "depth": data.draw(st.sampled_from([None, None, 0, 1, 3])),
        "judged_only": data.draw(st.booleans()),
        "complete": data.draw(st.booleans()),
        "rel": data.draw(st.sampled_from([None, None, 0, 2])),
        "ties": data.draw(st.sampled_from(["trec", "trec", "given"])),
    }
    aggregate = data.draw(st.sampled_from([None, None, "median", "gmean"]))
    fast, fast_warnings = _outcome(
        lambda: evaluation.evaluate_dicts(qrels, run, measures, aggregate=aggregate, **options)
    )

    # names= takes the general path (judge_many -> judge -> measure_block), which computes
    # the measures with kernels too: the oracle is that path with the kernels turned off (the
    # measure functions), and the general path with them must give the same
    def general():
        return cranfield.evaluate(
            qrels, run, measures, names=["run"], aggregate=aggregate, **options
        )

    with mock.patch.object(core_kernels, "linear", lambda jr: False):
        slow, slow_warnings = _outcome(general)
    general_kernels = _outcome(general)
    if isinstance(slow, tuple):
        assert general_kernels[0] == slow
    else:
        assert general_kernels[1] == slow_warnings
        assert general_kernels[0].values.tobytes() == slow.values.tobytes()
        assert general_kernels[0].summary == slow.summary
    if isinstance(slow, tuple):  # an error: the core's path leaves it to the general one
        assert fast is None
        again = _outcome(
            lambda: cranfield.evaluate(qrels, run, measures, aggregate=aggregate, **options)
        )
        assert again[0] == slow
        return
    if fast is None and options["ties"] == "given":
        # given: the measures without a kernel (their judged arrays) go the general path
        specs = evaluation.cached_specs(measures)
        keywords = {**options, "ties": "trec"}
        plan = evaluation.fast_plan(specs, evaluation.cached_options(keywords), aggregate)
        assert plan is not None and None in plan.column
        return
    assert fast is not None  # the core's path took it
    assert fast_warnings == slow_warnings
    assert fast.query_ids == slow.query_ids
    assert fast.labels == slow.labels
    assert fast.values.tobytes() == slow.values.tobytes()  # the same bits, 0.0 and -0.0 too
    assert fast.summary == slow.summary
    assert fast.notes == slow.notes
    assert fast.aggregation == slow.aggregation
    means = [float(v).hex() for v in fast.aggregate().values()]
    assert means == [float(v).hex() for v in slow.aggregate().values()]


@pytest.mark.parametrize("name", KERNEL_MEASURES)
def test_the_kernel_is_taken(name: str) -> None:
    """The core's path computes the declaration with its kernel (not by the function on the
    judged rankings the core returns), and has at most the undefined cases a kernel
    reports."""
    d = REGISTRY[name]
    assert d.core_kernel in KERNELS
    assert len(d.undefined) <= _core.UNDEFINED_CASES
    at = "@0.5" if d.cutoff is not None and d.cutoff.kind == "float" else "@10"
    text = name + (at if d.cutoff is not None and d.cutoff.required else "")
    options = cranfield.Evaluator({"q": {"d": 1}}, [text]).options
    specs = evaluation.cached_specs([text])
    plan = evaluation.fast_plan(specs, options, None)
    assert plan is not None and plan.column == (0,) and not plan.arrays
    index = evaluation.dict_index({"q": {"d": 1, "e": 0}})
    res = evaluation.dict_results(index, plan, {"q": {"d": 1.0, "x": 2.0}}, "run", None)
    assert res is not None


def test_a_worked_example() -> None:
    """The kernels on an example worked by hand: relevant at ranks 1 and 3 of 3, R = 3: AP
    = (1/1 + 2/3) / 3, P@2 = 1/2, nDCG@1 = (1 / log2 2) / (2 / log2 2)."""
    qrels = {"q": {"a": 1, "b": 0, "c": 2, "d": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    res = cranfield.evaluate(qrels, run, ["AP", "P@2", "nDCG@1"])
    expected = [(1.0 + 2.0 / 3.0) / 3.0, 0.5, 1 / 2]
    assert res.values[0].tolist() == expected
    general = cranfield.evaluate(qrels, run, ["AP", "P@2", "nDCG@1"], names=["run"])
    assert np.array_equal(res.values, general.values)


def test_set_measures_on_a_grid_of_counts() -> None:
    """Every (RR, n, R) up to 7 documents, one query each: the set measures' kernels give the
    bits of their declarations (SetF's rounding depends on the order of its products, which
    the generated rankings reach only now and then)."""
    qrels, run = {}, {}
    for big_r in range(1, 7):
        for n in range(1, 8):
            for rr in range(min(big_r, n) + 1):
                q = f"q{big_r}-{n}-{rr}"
                qrels[q] = {**{f"r{i}": 1 for i in range(big_r)}, "x": 0}
                docs = [f"r{i}" for i in range(rr)] + [f"n{i}" for i in range(n - rr)]
                run[q] = {d: float(len(docs) - i) for i, d in enumerate(docs)}
    measures = ["SetF(beta=0.5)", "SetF", "SetF(beta=2.0)", "SetF(beta=3.7)", "SetP", "SetR"]
    measures += ["SetRelP", "SetAP", "RelP@3", "BinG", "infAP", "Utility(a=2.5,b=-0.5,c=0.5)"]
    options = {"depth": None, "judged_only": False, "complete": False, "rel": None}
    fast = evaluation.evaluate_dicts(qrels, run, measures, aggregate=None, **options)
    slow = cranfield.evaluate(qrels, run, measures, names=["run"])
    assert fast is not None
    assert fast.values.tobytes() == slow.values.tobytes()
