"""IPrec(rounding=trec9) and IPrecAvg(rounding=trec9) against pytrec_eval 9.0.8 (trec_eval
9.x's ``(long)(r R + 0.9)``), the scores ``repro_eval`` compares; the default stays trec_eval
10.0's ``lround(r R)``."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cranfield
from conftest import DATA, need

LEVELS = [i / 10 for i in range(11)]


def _run(qrels: dict[str, dict[str, int]], seed: int) -> dict[str, dict[str, float]]:
    """Random rankings with tied scores (one decimal) over each topic's judged documents and
    as many unjudged ones."""
    rnd = random.Random(seed)
    out = {}
    for q, judged in qrels.items():
        docs = list(judged) + [f"x{q}-{i}" for i in range(len(judged))]
        keep = rnd.sample(docs, rnd.randint(1, len(docs)))
        out[q] = {d: round(rnd.random() * 2, 1) for d in keep}
    return out


@pytest.mark.parametrize("collection", ["cisi", "cacm"])
def test_trec9_rounding_equals_pytrec_eval(collection):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels: dict[str, dict[str, int]] = {}
    for line in need(DATA / collection / "qrels.trec").read_text().splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    for seed in range(3):
        run = _run(qrels, seed)
        ref = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall", "11pt_avg"}).evaluate(run)
        names = [f"IPrec(rounding=trec9)@{r:g}" for r in LEVELS] + ["IPrecAvg(rounding=trec9)"]
        ours = cranfield.evaluate(qrels, run, names, complete=False)
        want = np.array(
            [[ref[q][f"iprec_at_recall_{r:.2f}"] for r in LEVELS] + [ref[q]["11pt_avg"]]
             for q in ours.query_ids]
        )  # fmt: skip
        np.testing.assert_allclose(ours.values, want, rtol=1e-12, atol=0)
        # the default (trec_eval 10.0) differs from pytrec_eval on some topics of this run
        plain = cranfield.evaluate(qrels, run, [f"IPrec@{r:g}" for r in LEVELS], complete=False)
        assert not np.allclose(plain.values, want[:, :-1], rtol=1e-12, atol=0)
