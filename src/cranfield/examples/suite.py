"""A small benchmark suite made from the bundled Cranfield collection, for ``docs/suites.md``.

The 225 queries are cut into three "collections" of 75 (queries 1-75, 76-150, 151-225); the
last two form one group, as CQADupStack's forums do in BEIR.  The three bundled runs (BM25,
TF-IDF cosine, coordination level) are the systems.  Each collection's qrels and runs are the
lines of its queries, copied.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

__all__ = ["SUITE_YAML", "write_cranfield_suite"]

PARTS = {"cran-1": (1, 75), "cran-2a": (76, 150), "cran-2b": (151, 225)}

SUITE_YAML = """\
# three collections cut from the Cranfield collection; cran-2a and cran-2b form one group
measure: nDCG@10          # the official measure where a dataset names none
baseline: bm25
datasets:
  cran-1:
    qrels: cran-1.qrels
    runs:
      bm25: cran-1.bm25.run
      tfidf: cran-1.tfidf.run
      coordination: cran-1.coordination.run
  cran-2a:
    group: cran-2
    measure: AP
    qrels: cran-2a.qrels
    runs:
      bm25: cran-2a.bm25.run
      tfidf: cran-2a.tfidf.run
      coordination: cran-2a.coordination.run
  cran-2b:
    group: cran-2
    measure: AP
    qrels: cran-2b.qrels
    runs:
      bm25: cran-2b.bm25.run
      tfidf: cran-2b.tfidf.run
      coordination: cran-2b.coordination.run
"""


def _part(text: str, first: int, last: int) -> str:
    return "".join(
        line for line in text.splitlines(keepends=True) if first <= int(line.split()[0]) <= last
    )


def write_cranfield_suite(folder: str | os.PathLike[str]) -> Path:
    """Write the suite (``suite.yaml``, the qrels and runs it names) into ``folder`` (created
    if missing); returns the path of ``suite.yaml``."""
    from cranfield import examples
    from cranfield.base.output_files import write_text_file

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    qrels = examples.cranfield_qrels().read_text()
    runs = {
        name: gzip.decompress(path.read_bytes()).decode()
        for name, path in examples.cranfield_runs().items()
    }
    for part, (first, last) in PARTS.items():
        write_text_file(out / f"{part}.qrels", _part(qrels, first, last))
        for name, text in runs.items():
            write_text_file(out / f"{part}.{name}.run", _part(text, first, last))
    write_text_file(out / "suite.yaml", SUITE_YAML)
    return out / "suite.yaml"
