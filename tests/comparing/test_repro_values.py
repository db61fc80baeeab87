"""cranfield.repro against repro_eval 0.5.0 (Breuer et al., SIGIR 2020) on the same files, and
the formulas on hand-made cases worked out by hand."""

from __future__ import annotations

import math
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import DATA, need

from cranfield.comparing import repro as R

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "cranfield" / "examples" / "cranfield"
MEASURES = ["AP", "nDCG@10", "P@10"]
# repro_eval 0.5.0 imports from scipy.stats.stats (deprecated); the reference, not our code
pytestmark = [
    pytest.mark.filterwarnings("ignore:Please import:DeprecationWarning"),
    # repro_eval's sample runs leave judged topics unanswered, as its reference values do
    pytest.mark.filterwarnings(
        "ignore:\\w+. \\d+ judged queries have no results:cranfield.errors.DataWarning"
    ),
    # ... and so nothing retrieved for them: SetP's undefined case, scored 0 as trec_eval does
    pytest.mark.filterwarnings(
        "ignore:\\w+. SetP is undefined:cranfield.errors.UndefinedMeasureWarning"
    ),
]


# ---------------------------------------------------------------- hand-made cases
def test_formulas_on_numbers_worked_by_hand():
    ob, oa = np.array([0.2, 0.4]), np.array([0.6, 0.8])  # original improvement 0.4
    rb, ra = np.array([0.1, 0.3]), np.array([0.3, 0.5])  # reproduced improvement 0.2
    assert R.effect_ratio(ob, oa, rb, ra) == pytest.approx(0.5)
    # RI = (0.7 - 0.3) / 0.3 = 4/3, RI' = (0.4 - 0.2) / 0.2 = 1
    assert R.delta_ri(ob, oa, rb, ra) == pytest.approx(4 / 3 - 1)
    # differences 0.1, 0.1 -> RMSE 0.1; the largest: max(0.2, 0.8) = 0.8, max(0.4, 0.6) = 0.6
    assert R.rmse(ob, rb) == pytest.approx(0.1)
    assert R.nrmse(ob, rb) == pytest.approx(0.1 / math.sqrt((0.64 + 0.36) / 2))
    assert math.isnan(R.effect_ratio(ob, ob, rb, ra))  # no original effect


def test_ktu_worked_by_hand():
    # union sorted: a=0, b=1, c=2; (0, 1, 2) against (0, 2, 1): 2 concordant, 1 discordant
    assert R.kendall_tau_union(["a", "b", "c"], ["a", "c", "b"]) == pytest.approx(1 / 3)
    assert R.kendall_tau_union(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert math.isnan(R.kendall_tau_union(["a", "b"], ["a"]))  # lengths differ


def test_truncated_rbo_worked_by_hand():
    # [a, b] against [b, a], p = 0.5, depth 2: X_1 = 0, X_2 = 2 -> (0 + 0.5 * 2 / 2) / 1.5
    # depth 3: X_3 = 2 -> (0.5 + 0.25 * 2 / 3) / 1.75
    orig = R.Rankings(offsets=np.array([0, 2]), codes=np.array([0, 1]))
    rep = R.Rankings(offsets=np.array([0, 2]), codes=np.array([1, 0]))
    assert R.truncated_rbo(orig, rep, 0.5, 2)[0] == pytest.approx(1 / 3)
    assert R.truncated_rbo(orig, rep, 0.5, 3)[0] == pytest.approx((0.5 + 0.5 / 3) / 1.75)


# ---------------------------------------------------------------- against repro_eval
def _write(path: Path, rows: list[tuple[str, str, float]], shuffle: random.Random | None):
    """A TREC run; sorted by score descending (trec order) unless ``shuffle`` is given."""
    if shuffle is None:
        rows = sorted(rows, key=lambda r: (r[0], -r[2], r[1]))
    else:
        rows = list(rows)
        shuffle.shuffle(rows)
        rows.sort(key=lambda r: r[0])  # grouped by topic, documents in no order
    path.write_text("".join(f"{q} Q0 {d} {i} {s} x\n" for i, (q, d, s) in enumerate(rows)))
    return str(path)


def _runs(tmp: Path, qrels: Path, seed: int, shuffled: bool, depth: int = 60):
    """Four runs over the judged topics of ``qrels``: scores rounded to one decimal (ties);
    the reproduced runs are the original scores with noise (same documents per topic)."""
    rnd = random.Random(seed)
    judged: dict[str, list[str]] = {}
    for line in qrels.read_text().splitlines():
        q, _, d, _g = line.split()
        judged.setdefault(q, []).append(d)
    pool = sorted({d for ds in judged.values() for d in ds})
    out = {}
    for side in ("baseline", "advanced"):
        orig, rep = [], []
        for q, rel in sorted(judged.items())[:40]:
            docs = rnd.sample(sorted(set(rel[:5]) | set(rnd.sample(pool, depth))), depth)
            for d in docs:
                s = round(rnd.random() * 3 + (0.5 if side == "advanced" and d in rel else 0), 1)
                orig.append((q, d, s))
                rep.append((q, d, round(s + rnd.gauss(0, 0.3), 1)))
        sh = random.Random(seed + 1) if shuffled else None
        out[f"orig_{side}"] = _write(tmp / f"orig_{side}.txt", orig, sh)
        out[f"rep_{side}"] = _write(tmp / f"rep_{side}.txt", rep, sh)
    return out


def _repro_eval(runs: dict[str, str], qrels: str, rep_qrels: str | None = None):
    pytest.importorskip("repro_eval")
    from repro_eval.Evaluator import RpdEvaluator, RplEvaluator

    kw = dict(
        qrels_orig_path=qrels,
        run_b_orig_path=runs["orig_baseline"],
        run_a_orig_path=runs["orig_advanced"],
        run_b_rep_path=runs["rep_baseline"],
        run_a_rep_path=runs["rep_advanced"],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if rep_qrels is None:
            e = RpdEvaluator(**kw)
        else:
            e = RplEvaluator(**kw, qrels_rpl_path=rep_qrels)
        e.trim()
        e.evaluate()
        out = {"er": e.er(), "dri": e.dri(), "ttest": e.ttest()}
        if rep_qrels is None:
            out |= {"rmse": e.rmse(), "nrmse": e.nrmse(), "ktu": e.ktu(), "rbo": e.rbo()}
    return out


def _check(ours: R.Reproduction, ref: dict, orders: bool):
    """Equal to 12 significant digits: the per-topic scores are trec_eval 10's (cranfield) and
    pytrec_eval 9.0.8's (repro_eval), which may differ in the last bit of a sum."""
    for m in ours.measures:
        assert m.er == pytest.approx(ref["er"][m.measure], rel=1e-12, nan_ok=True), m.measure
        assert m.delta_ri == pytest.approx(ref["dri"][m.measure], rel=1e-12, nan_ok=True), m.measure
        for w in ("baseline", "advanced"):
            assert m.p_value[w] == pytest.approx(ref["ttest"][w][m.measure], rel=1e-12, nan_ok=True)
            if "rmse" in ref:
                assert m.rmse[w] == pytest.approx(ref["rmse"][w][m.measure], rel=1e-12, nan_ok=True)
                assert m.nrmse[w] == pytest.approx(
                    ref["nrmse"][w][m.measure], rel=1e-12, nan_ok=True
                )
    if orders:
        for w in ("baseline", "advanced"):
            assert ours.mean("ktu", w) == pytest.approx(ref["ktu"][w], rel=1e-12, nan_ok=True)
            assert ours.mean("rbo", w) == pytest.approx(ref["rbo"][w], rel=1e-12, nan_ok=True)


@pytest.mark.parametrize("collection", ["cisi", "cacm"])
def test_reproducibility_equals_repro_eval_on_runs_with_ties(tmp_path, collection):
    qrels = need(DATA / collection / "qrels.trec")
    runs = _runs(tmp_path, qrels, 7, shuffled=False)
    ours = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=MEASURES)
    assert ours.kind == "reproducibility" and len(ours.order_topics) == 40
    _check(ours, _repro_eval(runs, str(qrels)), orders=True)


def test_file_order_needs_the_compat_switch(tmp_path):
    """Files not sorted by score: repro_eval compares the documents in the file's order; the
    scores (trec order either way) agree with or without the switch, KTU and RBO only with."""
    qrels = need(DATA / "cisi" / "qrels.trec")
    runs = _runs(tmp_path, qrels, 11, shuffled=True)
    ref = _repro_eval(runs, str(qrels))
    compat = R.repro(
        *(runs[r] for r in R.ROLES), str(qrels), measures=MEASURES, compat="pytrec_eval"
    )
    _check(compat, ref, orders=True)
    plain = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=MEASURES)
    _check(plain, ref, orders=False)
    assert plain.mean("ktu", "baseline") != pytest.approx(ref["ktu"]["baseline"], rel=1e-6)


def test_replicability_equals_repro_eval(tmp_path):
    """The reproduced runs on another collection: ER, DeltaRI and the unpaired t-test."""
    q1, q2 = need(DATA / "cisi" / "qrels.trec"), need(DATA / "cacm" / "qrels.trec")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    orig = _runs(tmp_path / "a", q1, 3, shuffled=False)
    rep = _runs(tmp_path / "b", q2, 5, shuffled=False)
    runs = {**{k: v for k, v in orig.items() if k.startswith("orig")},
            **{k: v for k, v in rep.items() if k.startswith("rep")}}  # fmt: skip
    ours = R.repro(*(runs[r] for r in R.ROLES), str(q1), str(q2), measures=MEASURES)
    assert ours.kind == "replicability" and not ours.ktu
    _check(ours, _repro_eval(runs, str(q1), str(q2)), orders=False)


def test_bundled_example_runs_equal_repro_eval(tmp_path):
    """The bundled Cranfield runs as the original, noisy copies (ties) as the reproduction."""
    import gzip

    rnd = random.Random(1)
    runs = {}
    for side, name in (("baseline", "tfidf"), ("advanced", "bm25")):
        raw = (EXAMPLES / "runs" / f"{name}.txt.gz").read_bytes()
        lines = gzip.decompress(raw).decode().splitlines()
        (tmp_path / f"o{side}.txt").write_text("\n".join(lines) + "\n")
        rep = []
        for line in lines:
            q, _, d, r, s, _ = line.split()
            rep.append(f"{q} Q0 {d} {r} {round(float(s) * (1 + rnd.uniform(-0.05, 0.05)), 1)} r")
        (tmp_path / f"r{side}.txt").write_text("\n".join(rep) + "\n")
        runs[f"orig_{side}"] = str(tmp_path / f"o{side}.txt")
        runs[f"rep_{side}"] = str(tmp_path / f"r{side}.txt")
    qrels = str(EXAMPLES / "qrels.txt")
    ours = R.repro(*(runs[r] for r in R.ROLES), qrels, measures=MEASURES, compat="pytrec_eval")
    _check(ours, _repro_eval(runs, qrels), orders=True)


def test_a_perfect_reproduction_equals_repro_eval(tmp_path):
    """The original runs given again as their reproduction: every t-test is undefined (no
    differences), which repro_eval then reports as p = 1; KTU and RBO_ext are 1, RMSE 0.  The
    truncated RBO of two equal rankings of 60 documents is below 1 at depth 1000 (X_d / d
    falls after rank 60), and 1 at depth 60."""
    qrels = need(DATA / "cisi" / "qrels.trec")
    runs = _runs(tmp_path, qrels, 13, shuffled=False)
    runs["rep_baseline"], runs["rep_advanced"] = runs["orig_baseline"], runs["orig_advanced"]
    ours = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=MEASURES)
    _check(ours, _repro_eval(runs, str(qrels)), orders=True)
    for m in ours.measures:
        assert m.p_value == {"baseline": 1.0, "advanced": 1.0}
        assert m.rmse == {"baseline": 0.0, "advanced": 0.0} and m.er == 1.0
    assert ours.mean("ktu", "baseline") == 1.0
    assert ours.mean("rbo_ext", "advanced") == pytest.approx(1.0, abs=1e-12)
    assert ours.mean("rbo", "advanced") < 0.999
    at60 = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=["AP"], depth=60)
    assert at60.mean("rbo", "advanced") == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_truncated_rbo_equals_repro_evals_rbo_bit_for_bit(seed):
    """Rankings of different lengths drawn from one pool (so they share some documents),
    depth below, between and above their lengths."""
    pytest.importorskip("repro_eval")
    from repro_eval.measure.document_order import _rbo

    rnd = random.Random(seed)
    pool = [f"d{i}" for i in range(40)]
    a, b = rnd.sample(pool, rnd.randint(0, 30)), rnd.sample(pool, rnd.randint(1, 30))
    vocabulary: dict[str, int] = {}
    ra = R._as_rankings([a], vocabulary)
    rb = R._as_rankings([b], vocabulary)
    p = rnd.choice([0.5, 0.9, 0.95])
    for depth in (1, 7, 25, 45):
        assert R.truncated_rbo(ra, rb, p, depth)[0] == _rbo(b, a, p=p, depth=depth)


def test_ktu_is_repro_evals_correlation_of_the_id_sequences():
    """repro_eval's KTU correlates, rank by rank, the positions of the documents in the
    sorted union: swapping the top two of (d, a, c, b) gives -2/3 (by hand: of the six pairs
    of ranks only (3, 4) is concordant), where the rank correlation of the documents is 2/3.
    docs/repro.md says so; this pins the convention to repro_eval's own function."""
    pytest.importorskip("repro_eval")
    from collections import OrderedDict

    from repro_eval.measure.document_order import _KTU

    orig, rep = ["d", "a", "c", "b"], ["a", "d", "c", "b"]
    assert R.kendall_tau_union(orig, rep) == pytest.approx(-2 / 3, abs=1e-13)
    ref = dict(_KTU({"q": OrderedDict((d, 4 - i) for i, d in enumerate(orig))},
                    {"q": OrderedDict((d, 4 - i) for i, d in enumerate(rep))}))  # fmt: skip
    assert R.kendall_tau_union(orig, rep) == ref["q"]


def test_every_measure_of_repro_eval_that_cranfield_names(tmp_path):
    """repro_eval's default measures (its load_measures: trec_eval's P, recall, ndcg,
    ndcg_cut, map_cut, set measures, Rprec, infAP, bpref, recip_rank, map, iprec_at_recall)
    by their ir_measures names, which cranfield parses too: all of them give repro_eval's
    values, the interpolated precisions with compat="pytrec_eval" (trec_eval 10.0's lround
    against pytrec_eval's 9.x rounding, docs/repro.md); SetP(relative=True) has no cranfield
    name."""
    pytest.importorskip("repro_eval")
    from repro_eval.util import load_measures

    from cranfield.errors import MeasureError
    from cranfield.measures import parse

    qrels = need(DATA / "cisi" / "qrels.trec")
    runs = _runs(tmp_path, qrels, 7, shuffled=False)
    names, unnamed = [], []
    for m in map(str, load_measures()):
        try:
            parse(m)
        except MeasureError:
            unnamed.append(m)
            continue
        if not m.startswith("IPrec"):
            names.append(m)
    assert unnamed == ["SetP(relative=True)"] and len(names) == 46
    ref = _repro_eval(runs, str(qrels))
    ours = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=names)
    _check(ours, ref, orders=False)
    # the interpolated precisions: equal with pytrec_eval's rounding, not without
    iprec = [m for m in map(str, load_measures()) if m.startswith("IPrec")]
    assert len(iprec) == 11
    compat = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=iprec, compat="pytrec_eval")
    assert [m.measure for m in compat.measures] == iprec  # labels as written
    _check(compat, ref, orders=False)
    plain = R.repro(*(runs[r] for r in R.ROLES), str(qrels), measures=iprec)
    assert any(m.er != pytest.approx(ref["er"][m.measure], rel=1e-6) for m in plain.measures)
