"""C/W/L measures by hand: worked examples from each model's definition (short rankings whose
weights are worked out below, closed forms where the product of the continuations telescopes),
the tie-aware forms against the average of cwl_eval over every tie-breaking, and hostile
inputs."""

from __future__ import annotations

import itertools
import logging
import math
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.comparing.result import direction
from cranfield.errors import MeasureError
from cranfield.measures import parse

N = 1000  # the items a C/W/L user model covers (cwl_eval's default depth)


def _run(grades: list[int | None], q: str = "q1"):
    """qrels and a run ranking documents d0, d1, ... in this order (None: not judged)."""
    qrels = {q: {f"d{i}": g for i, g in enumerate(grades) if g is not None}}
    if not qrels[q]:
        qrels[q]["never_retrieved"] = 0
    run = {q: {f"d{i}": float(len(grades) - i) for i in range(len(grades))}}
    return qrels, run


def _value(grades, measure: str, **kw) -> float:
    qrels, run = _run(grades)
    return float(cranfield.evaluate(qrels, run, [measure], **kw).values[0, 0])


def _from_weights(weights, gains):
    """EU = sum W_i g_i with W the weights normalised (math.fsum: exactly rounded sums)."""
    total = math.fsum(weights)
    return math.fsum(w * g for w, g in zip(weights, gains, strict=False)) / total


# ------------------------------------------------------------------ finite models, exactly
def test_bpm_and_nerr8_by_hand():
    # BPM(T=1)@3, binary gains 0,1,1,0: C_1 = 1 (G_1 = 0 < 1, 1 < 3), C_2 = 0 (G_2 = 1):
    # the user reads 2 items, W = (1/2, 1/2); EU = 1/2, ETU = G_2 = 1, ED = ETC = 2, EC = 1
    g = [0, 1, 1, 0]
    assert _value(g, "BPM(T=1,max_rel=1)@3") == 0.5
    assert _value(g, "BPM(T=1,max_rel=1,of=ETU)@3") == 1.0
    assert _value(g, "BPM(T=1,max_rel=1,of=ED)@3") == 2.0
    assert _value(g, "BPM(T=1,max_rel=1,of=ETC)@3") == 2.0
    assert _value(g, "BPM(T=1,max_rel=1,of=EC)@3") == 1.0
    # T=5 is never reached: the cost bound k=3 stops the user after 3 items
    assert _value(g, "BPM(T=5,max_rel=1)@3") == pytest.approx(2 / 3, rel=1e-15)
    # an unjudged second item: worst case gain 0 (reads on to item 3: EU = 1/3), best case
    # gain 1 (stops after it: EU = 1/2); residual 1/2 - 1/3
    assert _value([0, None, 1], "BPM(T=1,max_rel=1)@3") == pytest.approx(1 / 3, rel=1e-15)
    assert _value([0, None, 1], "BPM(T=1,max_rel=1,of=ResEU)@3") == pytest.approx(1 / 6)
    # NERR8@3, grades 1, 2, 0 on 0..2 (gains 1/2, 1, 0): C_1 = 1/2, C_2 = 1 - 1 = 0:
    # W = (2/3, 1/3); EU = 2/3 * 1/2 + 1/3 = 2/3; L = (1/2, 1/2), ETU = 1/4 + 3/4 = 1; ED = 3/2
    g = [1, 2, 0]
    assert _value(g, "NERR8(max_rel=2)@3") == pytest.approx(2 / 3, rel=1e-15)
    assert _value(g, "NERR8(max_rel=2,of=ETU)@3") == pytest.approx(1.0, rel=1e-15)
    assert _value(g, "NERR8(max_rel=2,of=ED)@3") == pytest.approx(1.5, rel=1e-15)


def test_sdcg_by_hand():
    # SDCG@3, binary gains 1, 0, 1: W_i = (1/log2(i+1)) / (1 + 1/log2 3 + 1/2) for i <= 3
    d = 1 + 1 / math.log2(3) + 0.5
    assert _value([1, 0, 1], "SDCG(max_rel=1)@3") == pytest.approx(1.5 / d, rel=1e-14)
    # graded: grades 3, 2, 1, 0 on 0..3 with a cut at 2: (1 + (2/3) / log2 3) / (1 + 1/log2 3)
    want = (1 + (2 / 3) / math.log2(3)) / (1 + 1 / math.log2(3))
    assert _value([3, 2, 1, 0], "SDCG(max_rel=3)@2") == pytest.approx(want, rel=1e-14)
    # ETU is DCG@k over the discount of rank 1 (L_k = 1): here 1 + 1/2 (gains 1, 0, 1)
    assert _value([1, 0, 1], "SDCG(max_rel=1,of=ETU)@3") == pytest.approx(1.5, rel=1e-14)


def test_nerr_by_hand():
    # NERR10(p): binary 0, 0, 1: C = (p, p, 0): W ∝ (1, p, p^2): EU = p^2 / (1 + p + p^2)
    assert _value([0, 0, 1], "NERR10(p=0.5,max_rel=1)") == pytest.approx(1 / 7, rel=1e-15)
    # NERR11: a first item of gain 1 stops the user at once: EU = 1, ED = 1
    assert _value([1, 0, 1], "NERR11(T=3,max_rel=1)") == 1.0
    assert _value([1, 0, 1], "NERR11(T=3,max_rel=1,of=ED)") == 1.0
    # NERR9@3, binary 0, 1: C_1 = (1/2)(1 - 0) = 1/2, C_2 = (2/3)(1 - 1) = 0: W = (2/3, 1/3)
    assert _value([0, 1, 1], "NERR9(max_rel=1)@3") == pytest.approx(1 / 3, rel=1e-15)
    # NERR8@1: only the first item is read, whatever follows
    assert _value([0, 1, 1], "NERR8(max_rel=1)@1") == 0.0


def test_tbg_and_u_by_hand():
    # U(L=4): weights max(0, 1 - (i-1)/4) = 1, 3/4, 1/2, 1/4, 0...; sum 5/2: W = .4 .3 .2 .1
    g = [1, 0, 1, 1]
    assert _value(g, "U(L=4,max_rel=1)") == pytest.approx(0.7, rel=1e-15)
    assert _value(g, "U(L=4,max_rel=1,of=ED)") == pytest.approx(2.5, rel=1e-15)
    # TBG(H): W_i ∝ 2^(-(i-1)/H) over the 1000 items: a geometric series
    h = 3.0
    grades = [1, 0, 0, 1, 1]
    weights = [2.0 ** (-(i - 1) / h) for i in range(1, N + 1)]
    want = _from_weights(weights, grades)
    assert _value(grades, f"TBG(H={h},max_rel=1)") == pytest.approx(want, rel=1e-13)


def test_inst_by_hand():
    """INST from Moffat et al.'s definition, brute force over the 1000 items; and a closed
    form: a ranking of zero gains makes T_i = T, C_i = ((i + 2T - 1) / (i + 2T))^2, whose
    product telescopes: prod_{j<i} C_j = (2T / (i + 2T - 1))^2 (INSQ's weights)."""
    t = 2.0
    grades = [2, 0, 1, None, 2, 1] + [0] * 10  # on 0..2; None: unjudged, gain 0
    gains = [0.0 if x is None else x / 2 for x in grades] + [0.0] * (N - len(grades))
    weights, prod, seen = [], 1.0, 0.0
    for i in range(1, N + 1):
        weights.append(prod)
        seen += gains[i - 1]
        ti = t - seen
        prod *= ((i + t + ti - 1) / (i + t + ti)) ** 2
    assert _value(grades, f"INST(T={t},max_rel=2)") == pytest.approx(
        _from_weights(weights, gains), rel=1e-12
    )
    ed = math.fsum(weights)  # ED = 1 / W_1 = the sum of the unnormalised weights
    assert _value(grades, f"INST(T={t},max_rel=2,of=ED)") == pytest.approx(ed, rel=1e-12)
    # zero gains: EU = 0, ED = sum_i (2T / (i + 2T - 1))^2
    ed0 = math.fsum((2 * t / (i + 2 * t - 1)) ** 2 for i in range(1, N + 1))
    assert _value([0, 0], f"INST(T={t},max_rel=2,of=ED)") == pytest.approx(ed0, rel=1e-12)


def test_insq_by_hand():
    # W_i ∝ (2T / (i + 2T - 1))^2 (the telescoped product); T = 1: W_i ∝ 4 / (i + 1)^2
    grades = [0, 1, 1, 0, 1]
    weights = [4 / (i + 1) ** 2 for i in range(1, N + 1)]
    want = _from_weights(weights, grades)
    assert _value(grades, "INSQ(max_rel=1)") == pytest.approx(want, rel=1e-12)
    assert _value(grades, "INSQ(max_rel=1,of=ED)") == pytest.approx(math.fsum(weights), rel=1e-12)


def test_ift_by_hand():
    # rationality 0: the goal factor is 1 - 1/(1 + b1) and the rate factor 1/(1 + b2) at
    # every rank, an RBP user: b1 = 1 gives C = 1/2, W_i ∝ 2^-(i-1)
    grades = [0, 1, 1, 0, 1]
    geometric = _from_weights([0.5 ** (i - 1) for i in range(1, N + 1)], grades)
    assert _value(grades, "IFT_Goal(T=1,b1=1,R1=0,max_rel=1)") == pytest.approx(geometric)
    assert _value(grades, "IFT_Rate(A=0.5,b2=1,R2=0,max_rel=1)") == pytest.approx(geometric)
    # both: C = 1/2 * 1/2
    both = _from_weights([0.25 ** (i - 1) for i in range(1, N + 1)], grades)
    assert _value(grades, "IFT(T=1,b1=1,R1=0,A=1,b2=1,R2=0,max_rel=1)") == pytest.approx(both)
    # very rational (R1 = 1e6): reads on with certainty before the goal (C -> 1), hesitates
    # when it is reached exactly (e^0: C = 1/2) and stops beyond it (C -> 0): C = 1, 1, 1/2, 0
    # so W = (2, 2, 2, 1) / 7 and EU = 3/7.  e^(1e6) overflows: its limit is used, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = _value([0, 0, 1, 1], "IFT_Goal(T=1,b1=1,R1=1000000,max_rel=1)")
    assert v == pytest.approx(3 / 7, rel=1e-12)


# ------------------------------------------------------------------ ties
OF = ("EU", "ETU", "ED", "ResEU")


def _cwl_average(levels, metric, depth=None):
    """cwl_eval's EU, ETU, ED and ResEU averaged over every order consistent with the weak
    ordering ``levels`` (lists of gains in [0, 1], None for unjudged), each order cut at
    ``depth`` (a level straddling the cut keeps a uniformly random part of itself)."""
    from cwl.ruler.ranking import Ranking

    logging.getLogger("cwl").disabled = True
    values = []
    for combo in itertools.product(*(itertools.permutations(lv) for lv in levels)):
        order = [g for part in combo for g in part][:depth]
        gains = np.array([np.nan if g is None else g for g in order], dtype=float)
        metric.residuals = True
        metric.measure(Ranking("q", gains, np.full(len(order), np.nan)))
        values.append(
            (metric.expected_utility, metric.expected_total_utility, metric.expected_items,
             metric.residual_expected_utility)
        )  # fmt: skip
    return dict(
        zip(OF, (math.fsum(v) / len(values) for v in zip(*values, strict=True)), strict=True)
    )


def test_tie_aware_forms_average_cwl_eval_over_orders():
    pytest.importorskip("cwl")
    from cwl.ruler import cwl_ruler as m

    # levels of a weak ordering: grades 0..2 (None: not in the qrels)
    levels = [[2, 0, None], [1], [0, 2, None], [None, 1]]
    grades = [g for lv in levels for g in lv]
    scores = [float(len(levels) - li) for li, lv in enumerate(levels) for _ in lv]
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades) if g is not None}}
    run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
    gain_levels = [[None if g is None else g / 2 for g in lv] for lv in levels]
    cases = [
        ("INSQ(T=1.5,max_rel=2)", m.INSQCWLMetric(1.5)),
        ("SDCG(max_rel=2)@4", m.NDCGCWLMetric(4)),
        ("TBG(H=2,max_rel=2)", m.TBGCWLMetric(2.0)),
        ("U(L=5,max_rel=2)", m.UMeasureCWLMetric(5.0)),
    ]
    for name, metric in cases:
        texts = [name.replace(")", f",of={of})", 1) for of in OF]
        ours = cranfield.evaluate(qrels, run, texts, ties="weak").values[0]
        theirs = _cwl_average(gain_levels, metric)
        for text, of, v in zip(texts, OF, ours, strict=True):
            assert v == pytest.approx(theirs[of], rel=1e-12), text
        # a depth cut at 5 splits the third level (positions 5..7)
        cut = cranfield.evaluate(qrels, run, texts, ties="weak", depth=5).values[0]
        theirs = _cwl_average(gain_levels, metric, depth=5)
        for text, of, v in zip(texts, OF, cut, strict=True):
            assert v == pytest.approx(theirs[of], rel=1e-12), (text, "depth 5")


@pytest.mark.parametrize("name", ["INST(max_rel=1)", "BPM(max_rel=1)@5", "NERR10(max_rel=1)"])
def test_adaptive_models_have_no_tie_aware_form(name):
    qrels, run = _run([1, 0, 1])
    with pytest.raises(MeasureError, match="tie-aware"):
        cranfield.evaluate(qrels, run, [name], ties="weak")


# ------------------------------------------------------------------ hostile inputs
def test_a_ranking_longer_than_the_user_model_is_cut_at_1000_items():
    pytest.importorskip("cwl")
    from cwl.ruler import cwl_ruler as m
    from cwl.ruler.ranking import Ranking

    grades = [(i * 7) % 3 for i in range(1500)]
    metric = m.INSTCWLMetric(40.0)
    metric.measure(Ranking("q", np.array(grades, dtype=float) / 2, np.full(1500, np.nan)))
    assert _value(grades, "INST(T=40,max_rel=2)") == pytest.approx(
        metric.expected_utility, rel=1e-12
    )
    # a relevant item at rank 1001 counts for nothing
    assert _value([0] * 1000 + [1], "INSQ(max_rel=1)") == 0.0
    assert _value([0] * 1000 + [None], "INSQ(max_rel=1,of=ResEU)") == pytest.approx(
        _value([0] * 1000, "INSQ(max_rel=1,of=ResEU)"), rel=1e-15
    )


def test_extreme_grades_and_rel_bounds_scale_without_overflow():
    big = 2**63 - 1
    grades = [big, -(2**63) + 1, 0]
    v = _value(grades, f"SDCG(min_rel={-(2**63)},max_rel={big})@2")
    span = big - (-(2**63))
    gains = [(big + 2**63) / span, (0 + 2**63) / span]  # negative grades count as 0
    want = (gains[0] + gains[1] / math.log2(3)) / (1 + 1 / math.log2(3))
    assert v == pytest.approx(want, rel=1e-14)


def test_empty_rankings_and_queries_without_documents():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"zz": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # q2: evaluated as an empty ranking
        res = cranfield.evaluate(
            qrels, run, ["INST(max_rel=1)", "INST(max_rel=1,of=ResEU)"], complete=True
        )
    values = dict(zip(res.query_ids, res.values.tolist(), strict=True))
    assert values["q1"][0] == 0.0 and values["q2"][0] == 0.0
    assert values["q2"][1] > 0.5  # nothing retrieved: everything is unknown


@pytest.mark.parametrize(
    "text, problem",
    [
        ("INST(max_rel=0)", "min_rel"),
        ("INST(min_rel=2,max_rel=2)", "min_rel"),
        ("INST", "max_rel"),
        ("INST(T=0,max_rel=1)", "T"),
        ("BPM(max_rel=1)", "cut-off"),
        ("NERR10(p=1,max_rel=1)", "p"),
        ("INST(max_rel=1,of=XYZ)", "of"),
        ("IFT_Goal(T=1,b1=1,max_rel=1)", "R1"),
        ("IFT(T=1,b1=1,R1=1,A=1,b2=1,max_rel=1)", "R2"),
        ("U(L=0,max_rel=1)", "L"),
        ("IFT_Goal(T=1,b1=1,R1=1e7,max_rel=1)", "R1"),
        ("IFT_Rate(A=-1,b2=1,R2=1,max_rel=1)", "A"),
    ],
)
def test_bad_parameters_are_one_clear_error(text, problem):
    qrels, run = _run([1, 0])
    with pytest.raises(MeasureError, match=problem):
        cranfield.evaluate(qrels, run, [text])


def test_costs_and_residuals_are_not_ranked_by_compare():
    assert direction(parse("INST(max_rel=1)")) == 1
    assert direction(parse("INST(max_rel=1,of=ETU)")) == 1
    for of in ("EC", "ETC", "ED", "ResEU", "ResED"):
        assert direction(parse(f"INST(max_rel=1,of={of})")) == 0
