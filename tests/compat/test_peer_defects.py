"""The peers' defects named in issue 26 that have no test elsewhere, reproduced against the
work-alikes (pytrec_eval's #38, #41, #49: tests/compat/test_compat_pytrec_eval.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cranfield.compat import mteb

SRC = Path(__file__).resolve().parents[2] / "src"


def test_mteb_5092_ties_follow_one_order_for_every_measure():
    """mteb#5092: MRR and the task metrics read a score-only stable sort (the dict's order)
    while pytrec_eval read trec_eval's (score, then document id, descending), so tied
    documents were ranked two ways in one evaluation.  Here d1 (relevant) and d2 tie; the dict
    lists d1 first, trec_eval's order puts d2 first: every measure sees d2 at rank 1."""
    qrels = {"q1": {"d1": 1, "d2": 0}}
    results = {"q1": {"d1": 1.0, "d2": 1.0, "d0": 0.5}}
    got = mteb.evaluate(qrels, results, [1, 2], task_metrics=["Accuracy", "R_cap"])
    assert got["mrr_at_1"] == 0.0 and got["mrr_at_2"] == 0.5  # d1 at rank 2: 1/2
    assert got["ndcg_at_1"] == 0.0 and got["precision_at_1"] == 0.0
    assert got["Accuracy_at_1"] == 0.0 and got["R_cap_at_1"] == 0.0
    assert got["Accuracy_at_2"] == 1.0 and got["R_cap_at_2"] == 1.0


def test_ranx_74_no_numba_is_imported():
    """ranx#74: ranx compiles its numba functions on the first call (seconds to minutes with a
    cold cache).  The work-alike imports neither ranx nor numba."""
    code = (
        "import sys\n"
        "from cranfield.compat import ranx\n"
        "ranx.evaluate({'q': {'d': 1}}, {'q': {'d': 1.0, 'e': 0.5}}, ['ndcg@10', 'map'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'ranx')))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(SRC))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
