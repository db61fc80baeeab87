"""The same job done with each peer tool, run by ``bench/run.py`` in a fresh subprocess:

    python bench/peers.py TOOL QRELS RUN [RUN ...] --measures AP,P@10,...

read the files, evaluate the measures, print per-query values and the mean of each measure as
``measure<TAB>qid<TAB>value`` lines (``all`` for the mean), one block per run.  Means are
taken over the queries each tool evaluated, in Python, where the tool has no single call
that returns both.
"""

from __future__ import annotations

import argparse
import sys

# our measure names -> each tool's name for the same measure
PYTREC_EVAL = {
    "AP": "map",
    "P@10": "P_10",
    "nDCG@10": "ndcg_cut_10",
    "R@1000": "recall_1000",
    "RR": "recip_rank",
    "Rprec": "Rprec",
    "Bpref": "bpref",
}
RANX = {
    "AP": "map",
    "P@10": "precision@10",
    "nDCG@10": "ndcg@10",
    "R@1000": "recall@1000",
    "RR": "mrr",
    "Rprec": "r-precision",
    "Bpref": "bpref",
}
TREC_EVAL = {
    "AP": "map",
    "P@10": "P.10",
    "nDCG@10": "ndcg_cut.10",
    "R@1000": "recall.1000",
    "RR": "recip_rank",
    "Rprec": "Rprec",
    "Bpref": "bpref",
}


def _print(out, measures: list[str], per_query: dict[str, dict[str, float]]) -> None:
    lines = []
    for q in sorted(per_query):
        values = per_query[q]
        for m in measures:
            lines.append(f"{m}\t{q}\t{values[m]:.4f}")
    n = len(per_query)
    for m in measures:
        mean = sum(v[m] for v in per_query.values()) / n if n else 0.0
        lines.append(f"{m}\tall\t{mean:.4f}")
    out.write("\n".join(lines) + "\n")


def _open(path: str):
    """A text file, gunzipped on the fly when its name ends with ``.gz``."""
    if path.endswith(".gz"):
        import gzip

        return gzip.open(path, "rt")
    return open(path)


def run_pytrec_eval(qrels_path: str, run_paths: list[str], measures: list[str]) -> None:
    import pytrec_eval

    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    # pytrec_eval takes trec_eval's measure names ('P.10') and reports them as 'P_10'
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {TREC_EVAL[m] for m in measures})
    for path in run_paths:
        with _open(path) as f:
            run = pytrec_eval.parse_run(f)
        res = evaluator.evaluate(run)
        per_query = {q: {m: v[PYTREC_EVAL[m]] for m in measures} for q, v in res.items()}
        _print(sys.stdout, measures, per_query)


def run_ir_measures(qrels_path: str, run_paths: list[str], measures: list[str]) -> None:
    import ir_measures

    parsed = {m: ir_measures.parse_measure(m) for m in measures}
    back = {v: k for k, v in parsed.items()}
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    evaluator = ir_measures.evaluator(list(parsed.values()), qrels)
    for path in run_paths:
        per_query: dict[str, dict[str, float]] = {}
        for metric in evaluator.iter_calc(ir_measures.read_trec_run(path)):
            per_query.setdefault(metric.query_id, {})[back[metric.measure]] = metric.value
        _print(sys.stdout, measures, per_query)


def run_ranx(qrels_path: str, run_paths: list[str], measures: list[str]) -> None:
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(qrels_path, kind="trec")
    metrics = [RANX[m] for m in measures]
    for path in run_paths:
        run = Run.from_file(path, kind="trec")
        evaluate(qrels, run, metrics, save_results_in_run=True)
        per_query: dict[str, dict[str, float]] = {}
        for m in measures:
            for q, v in run.scores[RANX[m]].items():
                per_query.setdefault(q, {})[m] = float(v)
        _print(sys.stdout, measures, per_query)


TOOLS = {"pytrec_eval": run_pytrec_eval, "ir_measures": run_ir_measures, "ranx": run_ranx}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tool", choices=sorted(TOOLS))
    ap.add_argument("qrels")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--measures", required=True)
    args = ap.parse_args()
    TOOLS[args.tool](args.qrels, args.runs, args.measures.split(","))


if __name__ == "__main__":
    main()
