"""Real weak orderings: coordination-level (simple matching) runs on the classic collections.

The score of a document is the number of distinct query terms it contains (Raghavan, Jung & Bollmann
1989, sec. 4's "simple matching function"), so thousands of documents share a handful of scores:
large tie groups.  The tie-aware values must agree with the mean over random tie-breakings within
the sampling error (per query: Hoeffding's bound at probability 1e-6, the value range being the
exact best-to-worst range; for the mean over queries: |z| < 5), and exactly where ties cannot move
the value.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import DATA, need
from cranfield import judge, read_qrels, read_run
from cranfield.measures import parse
from cranfield.ties.analysis import reorder_ties
from cranfield.ties.levels import levels

pytestmark = pytest.mark.slow

# (folder, documents, queries, positional query ids) -- see ../shared/data/README.md
COLLECTIONS = {
    "adi": ("ADI.ALL", "ADI.QRY", False),
    "med": ("MED.ALL", "MED.QRY", False),
    "cisi": ("CISI.ALL", "CISI.QRY", False),
    "cran": ("cran.all.1400", "cran.qry", True),
    "cacm": ("cacm.all", "query.text", False),
}
TEXT_FIELDS = {"T", "W"}
MARKER = re.compile(r"^\.([A-Z])(?:\s+(\d+))?\s*$")
WORD = re.compile(r"[a-z]+")


def read_smart(path: Path) -> list[tuple[str, str]]:
    """(id, title + text) of every record of a SMART-format file (``.I``, ``.T``, ``.W`` ...)."""
    records: list[tuple[str, list[str]]] = []
    field = None
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            m = MARKER.match(line.rstrip("\r\n"))
            if m and m.group(1) == "I" and m.group(2):
                records.append((str(int(m.group(2))), []))
                field = None
            elif m and m.group(2) is None:
                field = m.group(1)
            elif records and field in TEXT_FIELDS:
                records[-1][1].append(line)
    return [(rid, " ".join(text)) for rid, text in records]


def terms(text: str, stop: set[str]) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if w not in stop and len(w) > 1}


def coordination_run(name: str) -> tuple[Path, dict[str, dict[str, float]]]:
    """The qrels path and a simple-matching run (documents matching at least one term)."""
    folder = need(DATA / name)
    docs_file, queries_file, positional = COLLECTIONS[name]
    stop = set(need(DATA / "cacm" / "common_words").read_text().split())
    docs = [(d, terms(t, stop)) for d, t in read_smart(folder / docs_file)]
    run: dict[str, dict[str, float]] = {}
    for pos, (qid, text) in enumerate(read_smart(folder / queries_file), start=1):
        q = terms(text, stop)
        scores = {d: float(len(q & dt)) for d, dt in docs if q & dt}
        run[str(pos) if positional else qid] = scores
    return folder / "qrels.trec", run


MEASURES = [
    "AP",
    "P@10",
    "nDCG@10",
    "RR",
    "Success@5",
    "Rprec",
    "EP(NR=1)",
    "ESL(NR=2)",
    "ER(ND=20)",
    "EP(ND=20)",
]
SAMPLES = 120


@pytest.mark.parametrize("name", list(COLLECTIONS))
def test_tie_aware_measures_agree_with_random_tie_breaking(name):
    qrels_path, run = coordination_run(name)
    jr = judge(read_qrels(str(qrels_path)), read_run(run, name=name), ties="weak")
    lv = levels(jr, True)
    assert lv.size.max() >= 30, "the coordination-level run should have large tie groups"

    specs = [parse(m) for m in MEASURES]
    expected = np.column_stack([m.compute(jr) for m in specs])
    rng = np.random.default_rng(20240601)
    level_of_row = lv.level_of_row()
    total = np.zeros_like(expected)
    total_sq = np.zeros_like(expected)
    for _ in range(SAMPLES):
        o = np.lexsort((rng.random(len(level_of_row)), level_of_row))
        sample = replace(jr, grades=jr.grades[o], scores=jr.scores[o], ties="trec")
        vals = np.column_stack([m.compute(sample) for m in specs])
        total += vals
        total_sq += vals * vals

    mean = total / SAMPLES
    # every tie-breaking gives a value between the worst and the best order (exact extremes)
    best = np.column_stack([m.compute(reorder_ties(jr, True)) for m in specs])
    worst = np.column_stack([m.compute(reorder_ties(jr, False)) for m in specs])
    width = np.abs(best - worst)
    nan = np.isnan(expected)
    assert np.array_equal(nan, np.isnan(mean)), "undefined (nan) queries must coincide"
    ok = ~nan
    fixed = ok & (width == 0)  # ties cannot move the value: the sample mean is exact
    np.testing.assert_allclose(mean[fixed], expected[fixed], rtol=1e-9, atol=1e-12)
    # Hoeffding: P(|sample mean - E| >= t) <= 2 exp(-2 S t^2 / width^2) = 1e-6 (per query) ...
    log_term = np.log(2 / 1e-6) / 2
    moving = ok & ~fixed
    assert moving.sum() > 0
    t_query = width[moving] * np.sqrt(log_term / SAMPLES)
    assert (np.abs(mean[moving] - expected[moving]) <= t_query).all()
    # ... and for the mean over queries, whose sampling error is far smaller: a z-test (the
    # mean of S x Q independent terms is normal to a good approximation; |z| < 5)
    var = np.maximum(total_sq / SAMPLES - mean * mean, 0.0) * SAMPLES / (SAMPLES - 1)
    for j, m in enumerate(MEASURES):
        col = ok[:, j]
        q = col.sum()
        diff = mean[col, j].mean() - expected[col, j].mean()
        se = np.sqrt(var[col, j].sum() / SAMPLES) / q
        assert abs(diff) <= 5.0 * se + 1e-12, (m, diff, se)


def test_a_depth_cut_does_not_move_the_expectation_of_measures_above_it():
    """The Cranfield coordination-level run: with -M 5 the cut falls inside a tie group in
    most queries, yet a measure that reads only the top 5 (P@5, nDCG@5, AP@5, RR@5,
    Success@5) has the same expectation with the cut as without it: which tied documents the
    cut keeps must not decide it (before the fix, -M 5 changed weak P@5 on 115 of 225
    queries, by cutting in trec_eval's document-id order first)."""
    qrels_path, run = coordination_run("cran")
    q, r = read_qrels(str(qrels_path)), read_run(run, name="cran")
    full = judge(q, r, ties="weak")
    cut = judge(q, r, ties="weak", depth=5)
    split = int(np.count_nonzero(cut.num_rows > cut.num_ret))
    assert cut.cut and split > 100, split
    for m in ("P@5", "nDCG@5", "AP@5", "RR@5", "Success@5", "R@5", "Judged@5"):
        spec = parse(m)
        np.testing.assert_allclose(spec.compute(cut), spec.compute(full), rtol=1e-12, atol=0)
