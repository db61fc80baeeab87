"""Synthetic benchmark collections (seeded, numpy): written to bench/data/, which is gitignored.

- ``small``:   50 queries x 1,000 documents, TREC-like graded qrels;
- ``msmarco``: 7,000 queries x 1,000 documents (7M run lines), MS MARCO-sized: passage ids from
  a collection of 8.8M, a few graded judgments per query;
- ``many``:    100 runs x 200 queries x 1,000 documents on one qrels;
- ``large``:   50,000 queries x 1,000 documents (50M run lines, 1.9 GB), made like ``msmarco``
  but 2,000 queries at a time (:func:`make_grouped`, also used by ``bench/scale.py``).

Scores have six decimals and are descending within each query, queries appear in ascending
numeric order of their ids (not ``strcmp`` order), as in the runs that common toolkits write.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"
COLLECTION = 8_841_823  # MS MARCO passage collection size


def _write(path: Path, columns: list[np.ndarray]) -> None:
    import polars as pl

    df = pl.DataFrame({f"c{i}": c for i, c in enumerate(columns)})
    tmp = path.with_suffix(path.suffix + ".tmp")
    df.write_csv(tmp, separator=" ", include_header=False, quote_style="never")
    tmp.replace(path)


def make_collection(
    name: str, num_queries: int, depth: int, num_runs: int, seed: int, judged_per_query: tuple
) -> tuple[Path, list[Path]]:
    """Write ``qrels.txt`` and ``run*.txt`` under ``bench/data/<name>/`` (skip if present)."""
    out = DATA / name
    qrels_path = out / "qrels.txt"
    run_paths = [out / f"run{i:03d}.txt" for i in range(num_runs)]
    if qrels_path.exists() and all(p.exists() for p in run_paths):
        return qrels_path, run_paths
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    qids = np.sort(rng.choice(1_100_000, size=num_queries, replace=False)).astype(np.int64)
    # one ranking "pool" per query: the documents any run may retrieve (2 x depth)
    pool = rng.integers(0, COLLECTION, size=(num_queries, 2 * depth), dtype=np.int64)
    # qrels: judged documents per query, some of them in the pool (so runs find them)
    lo, hi = judged_per_query
    nj = rng.integers(lo, hi + 1, size=num_queries)
    q_rows, d_rows, g_rows = [], [], []
    for i in range(num_queries):
        k = int(nj[i])
        inpool = rng.random(k) < 0.7
        docs = np.where(
            inpool, pool[i, rng.integers(0, 2 * depth, size=k)], rng.integers(0, COLLECTION, size=k)
        )
        docs = np.unique(docs)
        grades = rng.choice(4, size=len(docs), p=[0.45, 0.3, 0.15, 0.1])
        q_rows.append(np.full(len(docs), qids[i]))
        d_rows.append(docs)
        g_rows.append(grades)
    q = np.concatenate(q_rows)
    _write(
        qrels_path, [q, np.zeros(len(q), np.int64), np.concatenate(d_rows), np.concatenate(g_rows)]
    )
    ranks = np.tile(np.arange(1, depth + 1, dtype=np.int64), num_queries)
    qcol = np.repeat(qids, depth)
    for r, path in enumerate(run_paths):
        # each run retrieves `depth` distinct pool documents per query
        keys = rng.random((num_queries, 2 * depth))
        pick = np.argsort(keys, axis=1)[:, :depth]
        docs = np.take_along_axis(pool, pick, axis=1)
        # distinct within a query: drop duplicates drawn into the pool by replacing them
        docs = _distinct_rows(docs, rng)
        base = rng.uniform(5, 30, size=(num_queries, 1))
        scores = np.sort(
            np.round(base - rng.exponential(0.02, size=(num_queries, depth)).cumsum(axis=1), 6),
            axis=1,
        )[:, ::-1]
        tag = np.full(num_queries * depth, f"run{r:03d}")
        _write(
            path,
            [
                qcol,
                np.full(len(qcol), "Q0"),
                docs.ravel(),
                ranks,
                np.char.mod("%.6f", scores.ravel()),
                tag,
            ],
        )
    return qrels_path, run_paths


def _distinct_rows(docs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    docs = docs.copy()
    while True:
        s = np.sort(docs, axis=1)
        dup_rows = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if len(dup_rows) == 0:
            return docs
        for i in dup_rows:
            _, first = np.unique(docs[i], return_index=True)
            mask = np.ones(docs.shape[1], bool)
            mask[first] = False
            docs[i, mask] = rng.integers(0, COLLECTION, size=int(mask.sum()))


def make_grouped(
    out: Path, num_queries: int, depth: int = 1000, seed: int = 5, block: int = 2000
) -> tuple[Path, list[Path]]:
    """An MS MARCO-like collection (1-6 graded judgments per query, 70% of them in the run)
    written ``block`` queries at a time, so that any size fits in memory; ``out/qrels.txt``
    and ``out/run000.txt`` (skipped if present)."""
    qrels_path, run_path = out / "qrels.txt", out / "run000.txt"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, [run_path]
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    qids = np.sort(rng.choice(10 * num_queries + 1_000, size=num_queries, replace=False))
    tmp_q, tmp_r = qrels_path.with_suffix(".tmp"), run_path.with_suffix(".tmp")
    with open(tmp_q, "wb") as fq, open(tmp_r, "wb") as fr:
        for a in range(0, num_queries, block):
            q = qids[a : a + block]
            docs = _distinct_rows(rng.integers(0, COLLECTION, size=(len(q), depth)), rng)
            base = rng.uniform(5, 30, size=(len(q), 1))
            steps = rng.exponential(0.02, size=(len(q), depth)).cumsum(axis=1)
            scores = np.sort(np.round(base - steps, 6), axis=1)[:, ::-1]
            n = len(q) * depth
            pl.DataFrame(
                {
                    "q": np.repeat(q, depth),
                    "i": np.full(n, "Q0"),
                    "d": docs.ravel(),
                    "r": np.tile(np.arange(1, depth + 1), len(q)),
                    "s": np.char.mod("%.6f", scores.ravel()),
                    "t": np.full(n, "run000"),
                }
            ).write_csv(fr, separator=" ", include_header=False, quote_style="never")
            nj = rng.integers(1, 7, size=len(q))
            rows = np.repeat(np.arange(len(q)), nj)
            inrun = rng.random(len(rows)) < 0.7
            judged = np.where(
                inrun,
                docs[rows, rng.integers(0, depth, size=len(rows))],
                rng.integers(0, COLLECTION, size=len(rows)),
            )
            keep = np.unique(rows * COLLECTION + judged, return_index=True)[1]
            pl.DataFrame(
                {
                    "q": q[rows[keep]],
                    "i": np.zeros(len(keep), np.int64),
                    "d": judged[keep],
                    "g": rng.choice(4, size=len(keep), p=[0.45, 0.3, 0.15, 0.1]),
                }
            ).write_csv(fq, separator=" ", include_header=False, quote_style="never")
    tmp_q.replace(qrels_path)
    tmp_r.replace(run_path)
    return qrels_path, [run_path]


COLLECTIONS = {
    "small": dict(num_queries=50, depth=1000, num_runs=1, seed=1, judged_per_query=(50, 400)),
    "msmarco": dict(num_queries=7000, depth=1000, num_runs=1, seed=2, judged_per_query=(1, 6)),
    "many": dict(num_queries=200, depth=1000, num_runs=100, seed=3, judged_per_query=(50, 400)),
}


LARGE = {"large": 50_000}
"""Collections made by :func:`make_grouped`: name -> queries."""


def generate(names: list[str]) -> dict[str, tuple[Path, list[Path]]]:
    out = {}
    for n in names:
        if n in LARGE:
            out[n] = make_grouped(DATA / n, LARGE[n])
        else:
            out[n] = make_collection(n, **COLLECTIONS[n])
    return out


if __name__ == "__main__":
    for n, (qrels, runs) in generate(sys.argv[1:] or list(COLLECTIONS)).items():
        print(n, qrels, len(runs), "runs")
