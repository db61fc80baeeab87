"""Example data bundled with the package (works offline).

- ``cranfield/``: the real Cranfield collection's judgments (Cleverdon's Cranfield II: 225
  queries over 1,400 aerodynamics abstracts) in TREC form, with three real runs over its
  documents (BM25, TF-IDF cosine, coordination level), made from the Glasgow IR group's
  ``cran.tar.gz`` by ``scripts/make_cranfield_runs.py`` (``cranfield/README.md``:
  provenance, licence, rules); shipped in the package (590 KB);
- ``collection/``: a synthetic TREC-style test collection, 50 topics, graded pooled
  judgments and six runs of clearly different quality (see :mod:`cranfield.examples.generate`,
  which made it from a fixed seed);
- ``papers/``: the worked examples of the source papers as tiny qrels/run files
  (``papers/README.md`` cites each and records the OCR readings chosen).

::

    from cranfield import examples
    examples.cranfield_qrels()             # Path of cranfield/qrels.txt
    examples.cranfield_runs()              # {"bm25": Path, "tfidf": Path, "coordination": Path}
    examples.qrels()                       # Path of collection/qrels.txt
    examples.runs()                        # {"near_oracle": Path, ..., "random": Path}, best first
    examples.path("collection/qrels.txt")  # any bundled file
    ex = examples.paper("keen_q268")       # qrels, runs and facts of a worked example
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cranfield.errors import ParameterError

__all__ = [
    "CRANFIELD_RUNS",
    "RUNS",
    "Paper",
    "cranfield_qrels",
    "cranfield_runs",
    "has_cranfield",
    "paper",
    "papers",
    "path",
    "qrels",
    "runs",
]

ROOT = Path(__file__).resolve().parent

RUNS = ("near_oracle", "good", "bm25", "boolean", "weak", "random")
"""The runs of the bundled collection in their intended quality order, best first."""

CRANFIELD_RUNS = ("bm25", "tfidf", "coordination")
"""The runs over the Cranfield collection: BM25, TF-IDF cosine and coordination level."""

MAKE_CRANFIELD = "python scripts/make_cranfield_runs.py cran.tar.gz"
"""How a cranfield checkout remakes the Cranfield data (see ``cranfield/README.md``)."""


def path(relative: str = "") -> Path:
    """The absolute path of a bundled file or folder, e.g. ``path("collection/qrels.txt")``."""
    p = ROOT / relative
    if not p.exists():
        raise ParameterError(
            f"no bundled example {relative!r} (see {ROOT}; e.g. 'collection/qrels.txt')"
        )
    return p


def qrels() -> Path:
    """The judgments of the bundled collection."""
    return path("collection/qrels.txt")


def runs() -> dict[str, Path]:
    """The bundled runs, ``{name: path}``, best first."""
    return {name: path(f"collection/runs/{name}.txt.gz") for name in RUNS}


def has_cranfield() -> bool:
    """Whether the Cranfield collection's qrels and runs are in this installation (they are
    shipped with the package: false only for a damaged installation)."""
    folder = ROOT / "cranfield"
    return (folder / "qrels.txt").is_file() and all(
        (folder / "runs" / f"{name}.txt.gz").is_file() for name in CRANFIELD_RUNS
    )


def _need_cranfield() -> None:
    if not has_cranfield():
        raise ParameterError(
            f"the Cranfield collection's qrels and runs, shipped with cranfield, are missing "
            f"from {ROOT / 'cranfield'}: reinstall cranfield, or remake them with "
            f"`{MAKE_CRANFIELD}` in a cranfield checkout (cranfield/README.md there says where "
            "to get cran.tar.gz)"
        )


def cranfield_qrels() -> Path:
    """The Cranfield collection's judgments in TREC form (``cranfield/qrels.txt``)."""
    _need_cranfield()
    return ROOT / "cranfield" / "qrels.txt"


def cranfield_runs() -> dict[str, Path]:
    """The runs over the Cranfield collection, ``{name: path}`` (see :data:`CRANFIELD_RUNS`)."""
    _need_cranfield()
    return {name: ROOT / "cranfield" / "runs" / f"{name}.txt.gz" for name in CRANFIELD_RUNS}


@dataclass(frozen=True)
class Paper:
    """A worked example of a source paper: its files and the facts the paper states."""

    name: str
    source: str
    qrels: Path
    runs: dict[str, Path]
    collection_size: int | None = None
    facts: dict[str, object] = field(default_factory=dict)


_PAPERS: dict[str, tuple[str, tuple[str, ...], int | None, dict[str, object]]] = {
    # name: (source, run names, collection size N, facts)
    "pres_table1": (
        "Magdy & Jones, 'PRES: A Score Metric for Evaluating Recall-Oriented Information "
        "Retrieval Applications', SIGIR 2010, Tables 1 and 2: four systems, one query with 4 "
        "relevant documents, N_max = 100",
        ("system1", "system2", "system3", "system4"),
        None,
        {"N_max": 100},
    ),
    "pres_table3": (
        "Magdy & Jones, 'PRES: A Score Metric for Evaluating Recall-Oriented Information "
        "Retrieval Applications', SIGIR 2010, Table 3: eight CLEF-IP 2009 topics of one run, "
        "N_max = 1000",
        ("clefip",),
        None,
        {"N_max": 1000},
    ),
    "baeza_yates": (
        "Baeza-Yates & Ribeiro-Neto, 'Modern Information Retrieval', 1999, sec. 3.2.1: the "
        "ranking of Fig. 3.2 for the R_q of example 3.2 (query '3.2') and of example 3.3 "
        "(query '3.3')",
        ("ranking",),
        None,
        {},
    ),
    "keen_q268": (
        "Keen, 'Evaluation Parameters', SMART report ISR-13, Figs. 3, 4 and 6: Cran-1 request "
        "Q268, Thesaurus-2, relevant at ranks 1, 2, 4, 6, 13 of N = 200",
        ("thesaurus2",),
        200,
        {},
    ),
    "keen_adi": (
        "Keen, 'Evaluation Parameters', SMART report ISR-13, Fig. 9: ADI requests QA12 and QA4, "
        "cosine numeric versus cosine logical, N = 82",
        ("cosine_numeric", "cosine_logical"),
        82,
        {},
    ),
    "raghavan": (
        "Raghavan, Jung & Bollmann, 'A Critical Investigation of Recall and Precision as "
        "Measures of Retrieval System Performance', ACM TOIS 7(3), 1989, examples 2.1-2.4 "
        "(query 'ex2.1') and 2.5 (query 'ex2.5'): weak orderings, one tied score per rank",
        ("delta", "delta_prime"),
        None,
        {},
    ),
    "chen_dcg": (
        "B. Chen, 'Retrieval Evaluation - Measures', lecture slides (National Taiwan Normal "
        "University), 'Discounted Cumulated Gain': graded R_q1 and R_q2 with the ranking of "
        "Baeza-Yates & Ribeiro-Neto Fig. 3.2",
        ("ranking",),
        None,
        {},
    ),
}


def papers() -> tuple[str, ...]:
    """Names of the bundled worked examples."""
    return tuple(_PAPERS)


def paper(name: str) -> Paper:
    """A worked example of a source paper by name (see :func:`papers`)."""
    if name not in _PAPERS:
        raise ParameterError(f"no worked example {name!r}; choose one of {', '.join(_PAPERS)}")
    source, run_names, size, facts = _PAPERS[name]
    folder = path(f"papers/{name}")
    found = {p.name.split(".")[0]: p for p in folder.iterdir()}
    return Paper(
        name=name,
        source=source,
        qrels=found["qrels"],
        runs={r: found[r] for r in run_names},
        collection_size=size,
        facts=dict(facts),
    )
