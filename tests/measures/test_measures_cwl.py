"""C/W/L measures against the peer tools themselves: ir_measures' cwl_eval provider (its names
and parameters), cwl_eval's Python classes (every column and residual) and the cwl-eval
command line (its printed table).  The rankings are generated; scores are distinct, so every
tool reads the same order."""

from __future__ import annotations

import logging
import random
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import cranfield

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("cwl")
from cwl.ruler import cwl_ruler  # noqa: E402
from cwl.ruler.ranking import RankingMaker  # noqa: E402
from cwl.seeker.trec_qrel_handler import TrecQrelHandler  # noqa: E402

logging.getLogger("ir_measures.cwl_eval").setLevel(logging.ERROR)
logging.getLogger("cwl").disabled = True


def _collection(seed: int, queries: int = 6, max_grade: int = 3):
    """qrels with grades -1..max_grade+1 (outside [min_rel, max_rel] too), runs of 0..40
    documents with distinct scores, some documents unjudged."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for qi in range(queries):
        q = f"q{qi}"
        docs = [f"d{j}" for j in range(rng.randint(1, 50))]
        qrels[q] = {d: rng.choice([-1, 0, 0, 0, 1, 1, 2, max_grade, max_grade + 1]) for d in docs}
        pool = docs + [f"u{j}" for j in range(20)]
        ranked = rng.sample(pool, rng.randint(1, min(40, len(pool))))
        scores = rng.sample(range(1, 10_000), len(ranked))
        run[q] = {d: float(s) for d, s in zip(ranked, sorted(scores, reverse=True), strict=True)}
    return qrels, run


def _ours(qrels, run, measures):
    res = cranfield.evaluate(qrels, run, measures)
    rows = zip(res.query_ids, res.values, strict=True)
    return {q: dict(zip(measures, row, strict=True)) for q, row in rows}


IRM = [
    ("INST(T=1,max_rel=3)", "INST(T=1,max_rel=3)"),
    ("INST(T=2.5,min_rel=1,max_rel=2)", "INST(T=2.5,min_rel=1,max_rel=2)"),
    ("INSQ(T=1,max_rel=3)", "INSQ(T=1,max_rel=3)"),
    ("INSQ(T=3,max_rel=2)", "INSQ(T=3,max_rel=2)"),
    ("BPM(T=1,max_rel=3)@10", "BPM(T=1,max_rel=3)@10"),
    ("BPM(T=2,min_rel=1,max_rel=3)@5", "BPM(T=2,min_rel=1,max_rel=3)@5"),
    ("SDCG(max_rel=3)@10", "SDCG(max_rel=3)@10"),
    ("SDCG(min_rel=-1,max_rel=4)@3", "SDCG(min_rel=-1,max_rel=4)@3"),  # built below
    ("NERR8(max_rel=3)@10", "NERR8(max_rel=3)@10"),
    ("NERR9(max_rel=3)@5", "NERR9(max_rel=3)@5"),
    ("NERR10(p=0.9,max_rel=3)", "NERR10(p=0.9,max_rel=3)"),
    ("NERR10(p=0.5,max_rel=1)", "NERR10(p=0.5,max_rel=1)"),
    ("NERR11(T=1,max_rel=3)", "NERR11(T=1,max_rel=3)"),
    ("NERR11(T=2,max_rel=2)", "NERR11(T=2,max_rel=2)"),
]


def _irm(text: str):
    """ir_measures' measure (its parser refuses negative numbers: those built in Python)."""
    if "min_rel=-1" in text:
        return ir_measures.SDCG(min_rel=-1, max_rel=4) @ 3
    return ir_measures.parse_measure(text)


@pytest.mark.parametrize("seed", range(4))
def test_values_equal_ir_measures_cwl_eval_provider(seed):
    """ir_measures' names and parameters, its cwl_eval provider's values (EU)."""
    qrels, run = _collection(seed)
    ours = _ours(qrels, run, [ours for ours, _ in IRM])
    measures = [_irm(theirs) for _, theirs in IRM]
    provider = ir_measures.providers.registry["cwl_eval"]
    theirs = {}
    for m in provider.iter_calc(measures, qrels, run):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    assert set(theirs) == set(ours)
    for q in theirs:
        for mine, name in IRM:
            key = str(_irm(name))
            assert ours[q][mine] == pytest.approx(theirs[q][key], rel=1e-12, abs=1e-15), (
                q,
                mine,
            )


def _cwl_metrics():
    """(cranfield measure without of=, cwl_eval metric object) pairs."""
    m = cwl_ruler
    return [
        ("INST(T=1,max_rel=2)", m.INSTCWLMetric(1.0)),
        ("INST(T=3,max_rel=2)", m.INSTCWLMetric(3.0)),
        ("INSQ(T=2,max_rel=2)", m.INSQCWLMetric(2.0)),
        ("BPM(T=1.5,max_rel=2)@8", m.BPMCWLMetric(1.5, 8)),
        ("SDCG(max_rel=2)@10", m.NDCGCWLMetric(10)),
        ("NERR8(max_rel=2)@10", m.NERReq8CWLMetric(10)),
        ("NERR9(max_rel=2)@7", m.NERReq9CWLMetric(7)),
        ("NERR10(p=0.8,max_rel=2)", m.NERReq10CWLMetric(0.8)),
        ("NERR11(T=2,max_rel=2)", m.NERReq11CWLMetric(2.0)),
        ("TBG(max_rel=2)", m.TBGCWLMetric(224)),
        ("TBG(H=5,max_rel=2)", m.TBGCWLMetric(5.0)),
        ("U(max_rel=2)", m.UMeasureCWLMetric(1000)),
        ("U(L=12,max_rel=2)", m.UMeasureCWLMetric(12.0)),
        ("IFT_Goal(T=1,b1=0.9,R1=10,max_rel=2)", m.IFTGoalCWLMetric(1.0, 0.9, 10.0)),
        ("IFT_Rate(A=0.2,b2=0.9,R2=10,max_rel=2)", m.IFTRateCWLMetric(0.2, 0.9, 10.0)),
        (
            "IFT(T=2,b1=0.5,R1=3,A=0.3,b2=1.1,R2=20,max_rel=2)",
            m.IFTGoalRateCWLMetric(2.0, 0.5, 3.0, 0.3, 1.1, 20.0),
        ),
    ]


COLUMNS = ("EU", "ETU", "EC", "ETC", "ED")


def _gain_file(qrels, path, max_rel=2):
    """cwl_eval's gain file: the grades scaled as ir_measures scales them (max(g, 0) clipped to
    [0, max_rel], over max_rel)."""
    lines = [
        f"{q} 0 {d} {min(max(g, 0), max_rel) / max_rel!r}\n"
        for q, docs in qrels.items()
        for d, g in docs.items()
    ]
    path.write_text("".join(lines))
    return path


def _run_file(run, path):
    lines = []
    for q, docs in run.items():
        ranked = sorted(docs.items(), key=lambda x: -x[1])
        lines += [f"{q} Q0 {d} {i} {s!r} r\n" for i, (d, s) in enumerate(ranked, start=1)]
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("seed", range(3))
def test_every_column_and_residual_equals_cwl_eval(seed, tmp_path):
    """EU, ETU, EC, ETC, ED and their residuals, from cwl_eval's own classes (as its main()
    drives them) on the gain file of the same qrels."""
    qrels, run = _collection(seed + 10, queries=4, max_grade=2)
    handler = TrecQrelHandler(str(_gain_file(qrels, tmp_path / "gains")))
    pairs = _cwl_metrics()
    names = [f"{base[: base.index(')')]},of={of}){base[base.index(')') + 1 :]}"
             for base, _ in pairs for of in (*COLUMNS, *("Res" + c for c in COLUMNS))]  # fmt: skip
    ours = _ours(qrels, run, names)
    for q, docs in run.items():
        maker = RankingMaker(q, handler, None)
        for d, _ in sorted(docs.items(), key=lambda x: -x[1]):
            maker.add(d, "Q0")
        ranking = maker.get_ranking()
        for base, metric in pairs:
            metric.residuals = True
            metric.measure(ranking)
            theirs = [
                *metric.get_scores(),
                metric.residual_expected_utility,
                metric.residual_expected_total_utility,
                metric.residual_expected_cost,
                metric.residual_expected_total_cost,
                metric.residual_expected_items,
            ]
            cols = (*COLUMNS, *("Res" + c for c in COLUMNS))
            for of, value in zip(cols, theirs, strict=True):
                name = f"{base[: base.index(')')]},of={of}){base[base.index(')') + 1 :]}"
                assert ours[q][name] == pytest.approx(value, rel=1e-11, abs=1e-11), (q, name)


def test_cwl_eval_command_line_prints_our_values(tmp_path):
    """The cwl-eval program on files (a metrics file, residuals): its %.4f table equals ours
    printed the same way.  Command: ``cwl-eval gains run -m metrics -r``."""
    qrels, run = _collection(99, queries=5, max_grade=2)
    gains, runf = _gain_file(qrels, tmp_path / "gains"), _run_file(run, tmp_path / "run")
    spec = {
        "INSTCWLMetric(2.0)": "INST(T=2,max_rel=2",
        "NDCGCWLMetric(5)": "SDCG(max_rel=2",
        "TBGCWLMetric(224)": "TBG(max_rel=2",
        "UMeasureCWLMetric(1000)": "U(max_rel=2",
    }
    cut = {"NDCGCWLMetric(5)": "@5"}
    (tmp_path / "metrics").write_text("".join(f"{k}\n" for k in spec))
    script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
    if not script.is_file():
        pytest.skip("the cwl-eval script is not installed beside this Python")
    out = subprocess.run(
        [sys.executable, str(script), str(gains), str(runf), "-m", "metrics", "-r"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    cols = (*COLUMNS, *("Res" + c for c in COLUMNS))
    names = [f"{v},of={of}){cut.get(k, '')}" for k, v in spec.items() for of in cols]
    ours = _ours(qrels, run, names)
    topics = [q for q in run for _ in spec]
    assert len(out) == len(topics)

    def fmt(x: float) -> str:
        s = f"{x:.4f}"
        return "0.0000" if s == "-0.0000" else s

    for line, q, (_, v) in zip(out, topics, [*spec.items()] * len(run), strict=True):
        fields = line.split("\t")
        assert fields[0] == q
        mine = [fmt(ours[q][f"{v},of={of}){cut.get(k, '')}"]) for k in spec if spec[k] == v
                for of in cols]  # fmt: skip
        assert [fmt(float(x)) for x in fields[2:]] == mine, (q, fields[1])
