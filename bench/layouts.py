"""The run layouts users have, derived from a generated collection (``bench/run.py --layouts``).

From one grouped run (``bench/gen.py``; queries in blocks, scores descending, digit document
ids, space-separated) and its qrels, written once under ``bench/data/<collection>-layouts/``:

- ``grouped``:  the run as generated (digit ids, grouped by query, sorted by score);
- ``gov2``:     GOV2-style document ids (``GX211-55-0032311``: letters, an ``x``, dashes), in
  the qrels too, so that the same documents are relevant;
- ``ties``:     scores rounded to integers (tie groups of about 50 documents per query);
- ``shuffled``: the same lines in a random order (not grouped by query);
- ``tabs``:     tab-separated fields;
- ``gzip``:     the grouped run, gzip-compressed (level 1, as a pipeline would write it).

Every layout holds the same results, so every tool gives the same values on ``grouped``,
``tabs``, ``gzip`` and ``shuffled`` (ties broken by document id on ``ties``).
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np

LAYOUTS = ("grouped", "gov2", "ties", "shuffled", "tabs", "gzip")


def gov2_id(ids: np.ndarray) -> np.ndarray:
    """``GX{a:03d}-{b:02d}-{c:07d}`` from a document number ``n = (c * 100 + b) * 273 + a``
    (273 directories as in GOV2; distinct numbers, distinct ids)."""
    rest, a = np.divmod(ids, 273)
    c, b = np.divmod(rest, 100)
    parts = [np.char.zfill(x.astype(str), w) for x, w in ((a, 3), (b, 2), (c, 7))]
    return np.char.add(
        np.char.add(np.char.add("GX", parts[0]), "-"),
        np.char.add(np.char.add(parts[1], "-"), parts[2]),
    )


def _read(path: Path, columns: int):
    import polars as pl

    names = [f"c{i}" for i in range(columns)]
    return pl.read_csv(
        path,
        separator=" ",
        has_header=False,
        new_columns=names,
        infer_schema=False,
        quote_char=None,
    )


def _write(df, path: Path, separator: str = " ") -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    df.write_csv(tmp, separator=separator, include_header=False, quote_style="never")
    tmp.replace(path)


def derive(qrels: Path, run: Path, out: Path) -> dict[str, tuple[Path, Path]]:
    """``{layout: (qrels, run)}``, written under ``out`` on first use."""
    import polars as pl

    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "grouped": (qrels, run),
        "gov2": (out / "qrels-gov2.txt", out / "run-gov2.txt"),
        "ties": (qrels, out / "run-ties.txt"),
        "shuffled": (qrels, out / "run-shuffled.txt"),
        "tabs": (qrels, out / "run-tabs.txt"),
        "gzip": (qrels, out / "run.txt.gz"),
    }
    if all(q.exists() and r.exists() for q, r in paths.values()):
        return paths
    df = _read(run, 6)
    if not paths["gov2"][1].exists():
        q = _read(qrels, 4)
        q = q.with_columns(pl.Series("c2", gov2_id(q["c2"].cast(pl.Int64).to_numpy())))
        _write(q, paths["gov2"][0])
        _write(
            df.with_columns(pl.Series("c2", gov2_id(df["c2"].cast(pl.Int64).to_numpy()))),
            paths["gov2"][1],
        )
    if not paths["ties"][1].exists():
        rounded = df["c4"].cast(pl.Float64).round(0).cast(pl.Int64).cast(pl.String)
        _write(df.with_columns(rounded.alias("c4")), paths["ties"][1])
    if not paths["shuffled"][1].exists():
        order = np.random.default_rng(12).permutation(len(df))
        _write(df[order], paths["shuffled"][1])
    if not paths["tabs"][1].exists():
        _write(df, paths["tabs"][1], separator="\t")
    if not paths["gzip"][1].exists():
        tmp = paths["gzip"][1].with_suffix(".tmp")
        with open(run, "rb") as src, gzip.open(tmp, "wb", compresslevel=1) as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        tmp.replace(paths["gzip"][1])
    return paths
