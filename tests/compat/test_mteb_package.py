"""cranfield.compat.mteb against the real mteb package's retrieval metrics (issue 26).

mteb's package ``__init__`` imports torch, datasets and huggingface_hub; its retrieval
metrics (``mteb/_evaluators/retrieval_metrics.py``) need only numpy, pandas, pytrec_eval,
scikit-learn and pydantic.  ``.ci/run`` installs mteb 2.26.24 with ``--no-deps``, and the
fixture below loads that module from the installed package with the two package
``__init__`` files skipped (their modules stand in as bare packages): the functions run are
mteb's own code, unchanged.  The dictionary ``cranfield.compat.mteb.evaluate`` returns is
compared with ``calculate_retrieval_scores`` + ``make_score_dict`` (without the ``nauc_*``
abstention scores, which cranfield does not compute), and the task metrics with
``recall_cap`` (averaged over the queries it defines, as MTEB's tasks do), ``hole`` and
``top_k_accuracy``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path

import pytest
from test_compat_mteb import KS, generated, mteb_oracle

from cranfield.compat import mteb

pytest.importorskip("pytrec_eval", reason="mteb computes its measures with it")
pytest.importorskip("sklearn", reason="mteb's retrieval metrics import scikit-learn")
pytest.importorskip("pydantic", reason="mteb's types import pydantic")


@pytest.fixture(scope="module")
def metrics():
    spec = importlib.util.find_spec("mteb")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("mteb is not installed (.ci/run installs mteb==2.26.24 with --no-deps)")
    root = Path(next(iter(spec.submodule_search_locations)))
    before = set(sys.modules)
    for name, path in (("mteb", root), ("mteb._evaluators", root / "_evaluators")):
        package = types.ModuleType(name)
        package.__path__ = [str(path)]
        sys.modules[name] = package
    try:
        yield importlib.import_module("mteb._evaluators.retrieval_metrics")
    finally:
        for name in set(sys.modules) - before:
            if name == "mteb" or name.startswith("mteb."):
                del sys.modules[name]


def _mteb_scores(rm, qrels, results, ks):
    r = rm.calculate_retrieval_scores(results, qrels, ks)
    main = rm.make_score_dict(
        ndcg=r.ndcg,
        _map=r.map,
        recall=r.recall,
        precision=r.precision,
        mrr=r.mrr,
        naucs={},
        naucs_mrr={},
        hit_rate=r.hit_rate,
        task_scores={},
    )
    task = {}
    for key, values in rm.recall_cap(qrels, results, ks).items():
        defined = [v for v in values if v is not None]
        task[key] = sum(defined) / len(defined)
    for key, values in rm.hole(qrels, results, ks).items():
        task[key] = sum(values) / len(values)
    hits = rm.top_k_accuracy(qrels, results, ks)
    for k in ks:  # MTEB appends a 1.0 per query with a hit, nothing for the others
        task[f"Accuracy_at_{k}"] = len(hits.get(f"Accuracy@{k}", [])) / len(results)
    return main, task


@pytest.mark.parametrize("seed", range(6))
def test_the_score_dictionary_is_mtebs(metrics, seed):
    qrels, results = generated(seed)
    main, task = _mteb_scores(metrics, qrels, results, KS)
    got = mteb.evaluate(qrels, results, KS)
    assert set(got) == set(main)
    for key, value in main.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
    with_task = mteb.evaluate(qrels, results, KS, task_metrics=mteb.TASK_METRICS)
    assert set(with_task) == set(main) | set(task)
    for key, value in task.items():
        assert with_task[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


@pytest.mark.parametrize("seed", range(3))
def test_the_step_by_step_oracle_is_mtebs_computation(metrics, seed):
    """tests/compat/test_compat_mteb.py's oracle (written from mteb's source, for machines
    without mteb) against mteb itself."""
    qrels, results = generated(100 + seed)
    main, task = _mteb_scores(metrics, qrels, results, KS)
    oracle = mteb_oracle(qrels, results, KS)
    assert set(oracle) == set(main) | set(task)
    for key, value in {**main, **task}.items():
        assert oracle[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
