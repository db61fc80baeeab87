"""trec_eval's measures computed by the compiled core's kernels (``Context.values`` in
``compat/trec_eval/adapters.py``, ``kernel_values`` in ``rust/src/dicts.rs``).

The oracle is each measure's declaration function, which computed every value before: the
whole output of ``cranfield trec_eval -q -m all_trec`` with the kernels must be the same bytes
as with the kernels turned off, on generated qrels and runs (tie groups, unjudged and
negative grades, queries without results or without judgments, several relevance levels,
``-c``, ``-M``, ``-J``, ``-l``), and each value the same bits on judged rankings made
directly.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield import _core
from cranfield.compat.trec_eval.adapters import Context, _m
from cranfield.compat.trec_eval.engine import main
from cranfield.measures import core_kernels
from cranfield.measures.interpolated import ELEVEN_POINTS

DOCS = [f"d{i}" for i in range(14)]
QUERIES = ["1", "2", "10", "3"]


@st.composite
def collections(draw: st.DrawFn) -> tuple[bytes, bytes]:
    qrels, run = [], []
    for q in QUERIES:
        if draw(st.integers(0, 4)):
            judged = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=10))
            qrels += [f"{q} 0 {d} {draw(st.sampled_from([-1, 0, 1, 1, 2, 3]))}" for d in judged]
        if draw(st.integers(0, 4)):
            ranked = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=14))
            for r, d in enumerate(ranked):
                score = draw(st.sampled_from([0.0, 1.0, 1.5, 2.0, 3.25, -1.0]))
                run.append(f"{q} Q0 {d} {r + 1} {score} tag")
    if not qrels:
        qrels = ["1 0 d0 1"]
    if not run:
        run = ["1 Q0 d0 1 1.0 tag"]
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(run) + "\n").encode()


def _trec_eval(tmp_path, qrels: bytes, run: bytes, options: list[str]) -> tuple[int, bytes]:
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    out, err = io.BytesIO(), io.StringIO()
    argv = [*options, "-q", "-m", "all_trec", str(tmp_path / "qrels"), str(tmp_path / "run")]
    return main(argv, out, err), out.getvalue()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    data=collections(),
    options=st.lists(
        st.sampled_from([["-c"], ["-M", "3"], ["-M", "0"], ["-J"], ["-l", "2"], ["-l", "0"]]),
        max_size=3,
    ),
)
def test_all_trec_output_is_the_same_bytes_with_and_without_the_kernels(
    tmp_path, monkeypatch, data, options
) -> None:
    qrels, run = data
    argv = [x for o in options for x in o]
    with_kernels = _trec_eval(tmp_path, qrels, run, argv)
    with monkeypatch.context() as m:
        m.setattr(core_kernels, "linear", lambda jr: False)
        without = _trec_eval(tmp_path, qrels, run, argv)
    assert with_kernels == without
    assert with_kernels[0] != 0 or with_kernels[1]  # an evaluation, or an exit status


def _rankings():
    """Judged rankings of three queries by the general path: one with ties, unjudged and
    unranked relevant documents; one without a relevant document; one of one row."""
    from cranfield.data.tables import Qrels
    from cranfield.io.trec.text import parse_trec_run
    from cranfield.judging.join import judge

    qrels = Qrels.from_rows(
        ["a"] * 6 + ["b"] * 2 + ["c"],
        ["x1", "x2", "x3", "x4", "x5", "x6", "y1", "y2", "z1"],
        [2, 1, 0, -1, 1, 3, 0, 0, 1],
    )
    run = parse_trec_run(
        b"a Q0 x1 1 3.0 t\na Q0 x9 2 2.0 t\na Q0 x3 3 2.0 t\na Q0 x4 4 1.0 t\n"
        b"a Q0 x2 5 0.5 t\nb Q0 y1 1 1.0 t\nb Q0 q 2 0.5 t\nc Q0 z1 1 1.0 t\n",
        "<run>",
        "run",
    )
    return judge(qrels, run, ties="trec")


def test_every_kernel_value_is_its_declarations_bits_in_one_call() -> None:
    """Many measures asked together (the interpolated precisions of two relevance levels,
    asked in an order that leaves and comes back to a level) are each the bits the
    declaration's function gives alone."""
    jr = _rankings()
    ms = [
        *(_m("IPrec", r, rel=1) for r in ELEVEN_POINTS),
        _m("IPrec", 0.5, rel=2),
        _m("IPrecAvg", rel=1),
        _m("IPrecAvg", rel=2),
        _m("IPrec", 0.3, rel=1, rounding="trec9"),
        _m("IPrecAvg", rel=1, rounding="trec9"),
        _m("AP", rel=1),
        _m("P", 2, rel=2),
        _m("nDCG"),
        _m("Bpref", rel=1),
        _m("RR", rel=1),
        _m("Rprec", rel=1, mult=0.5),
        _m("NumRelRet", rel=1),
    ]
    assert all(core_kernels.measure_call(m) is not None for m in ms)
    got = Context(jr=jr, level=1, num_docs=0, complete=False).values(ms)
    for m, values in zip(ms, got, strict=True):
        assert values.tobytes() == m.compute(jr).tobytes(), m
    assert got[0].tolist()[:2] == [1.0, 0.0]  # IPrec@0: the best precision, 0 without a hit


def test_a_worked_example_by_hand() -> None:
    """Query a: ranked x1 (2), x9 (-), x3 (0), x4 (unjudged), x2 (1); relevant x1, x2, x5,
    x6 (R = 4): AP = (1/1 + 2/5) / 4, P@2 = 1/2, IPrec@0.5 = 2/5 (the second relevant
    document, found at rank 5)."""
    jr = _rankings()
    ctx = Context(jr=jr, level=1, num_docs=0, complete=False)
    ap, p2, iprec = ctx.values([_m("AP", rel=1), _m("P", 2, rel=1), _m("IPrec", 0.5, rel=1)])
    assert jr.query_ids == ("a", "b", "c")
    assert ap[0] == (1.0 + 2.0 / 5.0) / 4.0
    assert p2[0] == 0.5
    assert iprec[0] == 2.0 / 5.0


def test_arrays_that_do_not_fit_are_an_internal_error() -> None:
    i64 = np.array
    good = dict(
        offsets=i64([0, 2], dtype=np.int64),
        grades=i64([1, 0], dtype=np.int64),
        qrels_offsets=i64([0, 1], dtype=np.int64),
        qrels_grades=i64([1], dtype=np.int64),
        num_ret=i64([2], dtype=np.int64),
        in_run=np.array([True]),
    )
    call = ("ap", -1, 1, 0.0, ())
    values, undefined = _core.kernel_values([call], *good.values())
    assert values.tolist() == [1.0] and undefined.tolist() == [0] * _core.UNDEFINED_CASES
    assert _core.kernel_values([("nope", -1, 1, 0.0, ())], *good.values()) is None
    for key, bad in [
        ("offsets", i64([0, 3], dtype=np.int64)),  # past the grades
        ("offsets", i64([2, 0], dtype=np.int64)),  # decreasing
        ("qrels_offsets", i64([0], dtype=np.int64)),  # too short
        ("num_ret", i64([-1], dtype=np.int64)),
        ("in_run", np.array([True, False])),
    ]:
        with pytest.raises(_core.InternalError, match="do not fit"):
            _core.kernel_values([call], *{**good, key: bad}.values())
