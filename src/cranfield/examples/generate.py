"""Generate the bundled example data: ``python -m cranfield.examples.generate [--out DIR]``.

Two parts, both written as TREC text (qrels ``qid iter docno grade``, runs
``qid Q0 docno rank score tag``), byte for byte the same on every run:

``collection/`` — a synthetic but realistic test collection, made from seed :data:`SEED`:

- 50 topics (``401`` .. ``450``) over a collection of 100,000 documents (``CF-000000`` ..);
- every topic has 5 to 150 relevant documents (log-uniform), graded 1 (55 %), 2 (30 %) or
  3 (15 %), among 3,000 *candidate* documents that share its vocabulary; topics differ in how
  hard it is to tell relevant from non-relevant candidates (``difficulty`` in 0.6..1.4);
- every document has an *apparent* relevance ``a = difficulty * MU[grade] + N(0, 0.7)`` that
  all systems see (the shared evidence: hard non-relevant documents fool every system), and
  each system adds its own noise;
- six runs of 1,000 documents per topic, of clearly different quality (best first):

  - ``near_oracle``: ``grade + a / 2 + N(0, 0.8)`` (it sees the true grade);
  - ``good``: ``a + N(0, 0.6)``;
  - ``bm25``: ``a + N(0, 1)``, printed as ``10 + 3 x`` (BM25-like magnitudes);
  - ``boolean``: coordination level ``floor(0.8 a + 1 + N(0, 1))`` clipped to 0..5, the
    number of query terms a document matches: many tied integer scores, listed in document id
    order;
  - ``weak``: ``0.4 a + N(0, 1)``;
  - ``random``: a uniform random score, i.e. a random ranking of the candidates;

  scores have 4 decimals (so near-equal scores can tie, as in real runs), except ``boolean``
  (integers) and ``random`` (6 decimals);
- judgments pooled as at TREC: the union of the top 100 documents of every run is judged with
  the true grade (0 for non-relevant); relevant documents that no run put in its top 100 stay
  unjudged, and so do all documents a run retrieved below the pool depth.

``papers/`` — the worked examples of the source papers as tiny qrels/run files, typed from the
papers' tables (see ``papers/README.md`` for the citation and the OCR readings of each).

Only ``random.Random(seed).random()`` is used for randomness (Python guarantees that sequence
across versions) and every distribution is built on it here, so the files do not depend on the
numpy or Python version.  Gzipped files are written with a zero timestamp and no file name.
"""

from __future__ import annotations

import argparse
import gzip
import io
import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from cranfield.examples import RUNS

__all__ = ["SEED", "main", "write_collection", "write_papers"]

SEED = 1966
"""Seed of the synthetic collection (the year of the Cranfield II experiments)."""

NUM_TOPICS = 50
FIRST_TOPIC = 401
COLLECTION_SIZE = 100_000
CANDIDATES = 3_000
DEPTH = 1_000
POOL_DEPTH = 100
MU = (0.0, 1.5, 2.2, 3.0)
"""Mean apparent relevance of a document of grade 0, 1, 2, 3 (before the topic's difficulty)."""


# ----------------------------------------------------------------------------- randomness


class _Rng:
    """Distributions built on ``random.Random.random()`` only (stable across Python versions)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random
        self._spare: float | None = None

    def random(self) -> float:
        return self._random()

    def below(self, n: int) -> int:
        return min(int(self._random() * n), n - 1)

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self._random()

    def normal(self, sigma: float = 1.0) -> float:
        """Box-Muller: two independent standard normals per pair of uniforms."""
        if self._spare is not None:
            z, self._spare = self._spare, None
            return sigma * z
        u1 = 1.0 - self._random()  # (0, 1]
        u2 = self._random()
        r = math.sqrt(-2.0 * math.log(u1))
        self._spare = r * math.sin(2.0 * math.pi * u2)
        return sigma * r * math.cos(2.0 * math.pi * u2)

    def sample(self, n: int, k: int) -> list[int]:
        """``k`` distinct integers from ``range(n)`` (Floyd's algorithm), in drawing order."""
        chosen: dict[int, None] = {}
        for j in range(n - k, n):
            t = self.below(j + 1)
            chosen[j if t in chosen else t] = None
        return list(chosen)

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ----------------------------------------------------------------------------- writing


def _write(path: Path, lines: Sequence[str]) -> Path:
    """Write text lines (``\\n`` endings); gzip deterministically when the name ends in .gz."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    if path.suffix == ".gz":
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
            gz.write(data)
        data = buf.getvalue()
    path.write_bytes(data)
    return path


def _run_lines(qid: str, ranked: Sequence[tuple[str, str]], tag: str) -> list[str]:
    """``(docno, formatted score)`` in rank order -> run lines with ranks 1..n."""
    return [f"{qid} Q0 {d} {i} {s} {tag}" for i, (d, s) in enumerate(ranked, 1)]


# ----------------------------------------------------------------------------- collection


def _docno(i: int) -> str:
    return f"CF-{i:06d}"


def _topic(rng: _Rng) -> tuple[list[str], list[int], float]:
    """Candidate documents of one topic, their true grades, and the topic's difficulty."""
    difficulty = rng.uniform(0.6, 1.4)
    num_rel = round(math.exp(rng.uniform(math.log(5), math.log(150))))
    docs = [_docno(i) for i in rng.sample(COLLECTION_SIZE, CANDIDATES)]
    grades = [0] * CANDIDATES
    for i in range(num_rel):
        u = rng.random()
        grades[i] = 1 if u < 0.55 else 2 if u < 0.85 else 3
    return docs, grades, difficulty


def _system_scores(rng: _Rng, grades: list[int], apparent: list[float]) -> dict[str, list]:
    """Each system's score for every candidate (the same draw order on every run)."""
    out: dict[str, list] = {name: [] for name in RUNS}
    for g, a in zip(grades, apparent, strict=True):
        out["near_oracle"].append(g + 0.5 * a + rng.normal(0.8))
        out["good"].append(a + rng.normal(0.6))
        out["bm25"].append(a + rng.normal(1.0))
        out["boolean"].append(max(0, min(5, math.floor(0.8 * a + 1.0 + rng.normal(1.0)))))
        out["weak"].append(0.4 * a + rng.normal(1.0))
        out["random"].append(rng.random())
    return out


_FORMAT: dict[str, Callable[[float], str]] = {
    "near_oracle": lambda s: f"{s:.4f}",
    "good": lambda s: f"{s:.4f}",
    "bm25": lambda s: f"{10.0 + 3.0 * s:.4f}",
    "boolean": lambda s: f"{int(s)}",
    "weak": lambda s: f"{s:.4f}",
    "random": lambda s: f"{s:.6f}",
}


def write_collection(out: Path, seed: int = SEED) -> list[Path]:
    """Write ``qrels.txt`` and ``runs/<name>.txt.gz`` under ``out``; return the paths."""
    rng = _Rng(seed)
    qrels_lines: list[str] = []
    run_lines: dict[str, list[str]] = {name: [] for name in RUNS}
    for t in range(NUM_TOPICS):
        qid = str(FIRST_TOPIC + t)
        docs, grades, difficulty = _topic(rng)
        apparent = [difficulty * MU[g] + rng.normal(0.7) for g in grades]
        scores = _system_scores(rng, grades, apparent)
        pool: set[int] = set()
        for name in RUNS:
            s = scores[name]
            # highest score first; equal scores in document id order (a system's own order)
            # (i last: sorted's stability, written out)
            order = [i for _, _, i in sorted((-s[i], docs[i], i) for i in range(CANDIDATES))]
            order = order[:DEPTH]
            pool.update(order[:POOL_DEPTH])
            fmt = _FORMAT[name]
            run_lines[name].extend(_run_lines(qid, [(docs[i], fmt(s[i])) for i in order], name))
        for i in sorted(pool, key=docs.__getitem__):
            qrels_lines.append(f"{qid} 0 {docs[i]} {grades[i]}")
    paths = [_write(out / "qrels.txt", qrels_lines)]
    paths += [_write(out / "runs" / f"{name}.txt.gz", run_lines[name]) for name in RUNS]
    return paths


# ----------------------------------------------------------------------------- papers


def _ranked(qid: str, docs: Sequence[str], tag: str, scores: Sequence[float] | None = None):
    """Run lines for ``docs`` in rank order; scores default to ``n + 1 - rank``."""
    n = len(docs)
    sc = scores if scores is not None else [n + 1 - i for i in range(1, n + 1)]
    return _run_lines(qid, [(d, _num(s)) for d, s in zip(docs, sc, strict=True)], tag)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _place(relevant: Sequence[str], ranks: Sequence[int], fillers: Sequence[str], n: int):
    """A ranking of length ``n`` with ``relevant[i]`` at ``ranks[i]`` and fillers elsewhere."""
    at = dict(zip(ranks, relevant, strict=True))
    rest = iter(fillers)
    return [at[r] if r in at else next(rest) for r in range(1, n + 1)]


def _pres(out: Path) -> list[Path]:
    """Magdy & Jones (SIGIR 2010), Tables 1-2 (one query, N_max = 100) and Table 3 (N_max=1000)."""
    d = out / "pres_table1"
    rel = [f"R{i}" for i in range(1, 5)]
    paths = [_write(d / "qrels.txt", [f"1 0 {r} 1" for r in rel])]
    systems = {1: [1], 2: [50, 51, 53, 54], 3: [1, 2, 3, 4], 4: [1, 98, 99, 100]}
    for s, ranks in systems.items():
        fill = [f"N{i:03d}" for i in range(1, 101)]
        docs = _place(rel[: len(ranks)], ranks, fill, 100)
        paths.append(_write(d / f"system{s}.txt", _ranked("1", docs, f"system{s}")))

    d = out / "pres_table3"
    rows = [  # (ranks of relevant retrieved, number of relevant N)
        ([98, 296], 41),
        ([23, 272, 345], 6),
        ([2, 517, 761], 6),
        ([660, 741], 3),
        ([41, 54], 3),
        ([1, 781], 3),
        ([1, 33, 354, 548, 733, 840, 841], 7),
        ([32, 35, 46], 3),
    ]
    qrels, run = [], []
    for t, (ranks, n) in enumerate(rows, 1):
        qid = str(t)
        rel = [f"T{t}-R{i:02d}" for i in range(1, n + 1)]
        qrels += [f"{qid} 0 {r} 1" for r in rel]
        fill = [f"T{t}-N{i:04d}" for i in range(1, 1001)]
        run += _ranked(qid, _place(rel[: len(ranks)], ranks, fill, 1000), "clefip")
    paths.append(_write(d / "qrels.txt", qrels))
    paths.append(_write(d / "clefip.txt.gz", run))
    return paths


BY_RANKING = [
    "d123", "d84", "d56", "d6", "d8", "d9", "d511", "d129",
    "d187", "d25", "d38", "d48", "d250", "d113", "d3",
]  # fmt: skip
"""Baeza-Yates & Ribeiro-Neto (1999) sec. 3.2.1: the ranking for query q (Fig. 3.2)."""


def _baeza_yates(out: Path) -> list[Path]:
    """Baeza-Yates & Ribeiro-Neto, examples 3.2 (R_q of ten documents) and 3.3 (R_q = {d3, d56,
    d129})."""
    d = out / "baeza_yates"
    r32 = ["d3", "d5", "d9", "d25", "d39", "d44", "d56", "d71", "d89", "d123"]
    r33 = ["d3", "d56", "d129"]
    qrels = [f"3.2 0 {x} 1" for x in sorted(r32)] + [f"3.3 0 {x} 1" for x in sorted(r33)]
    run = _ranked("3.2", BY_RANKING, "fig3.2") + _ranked("3.3", BY_RANKING, "fig3.2")
    return [_write(d / "qrels.txt", qrels), _write(d / "ranking.txt", run)]


def _keen(out: Path) -> list[Path]:
    """Keen (ISR-13): request Q268 (Figs. 3, 4, 6) and ADI requests QA12, QA4 (Fig. 9)."""
    d = out / "keen_q268"
    fig4 = ["588", "589", "576", "590", "986", "592", "984", "988", "578", "985", "103", "591"]
    fig4 += ["772", "990"]
    rel = ["588", "589", "590", "592", "772"]
    paths = [_write(d / "qrels.txt", [f"Q268 0 {x} 1" for x in rel])]
    scores = [201 - r for r in range(1, len(fig4) + 1)]
    paths.append(_write(d / "thesaurus2.txt", _ranked("Q268", fig4, "thesaurus2", scores)))

    d = out / "keen_adi"
    relevant = {"QA12": ["4", "7", "9", "25", "42"], "QA4": ["29", "63"]}  # ADI.REL
    ranks = {
        "cosine_numeric": {"QA12": [1, 3, 14, 17, 18], "QA4": [1, 15]},
        "cosine_logical": {"QA12": [1, 2, 3, 18, 23], "QA4": [2, 3]},
    }
    qrels = [f"{q} 0 {x} 1" for q in ("QA12", "QA4") for x in relevant[q]]
    paths.append(_write(d / "qrels.txt", qrels))
    for system, by_query in ranks.items():
        lines = []
        for q in ("QA12", "QA4"):
            fill = [str(i) for i in range(1, 83) if str(i) not in relevant[q]]
            lines += _ranked(q, _place(relevant[q], by_query[q], fill, 82), system)
        paths.append(_write(d / f"{system}.txt", lines))
    return paths


def _weak(groups: Sequence[str], rel: list[str], non: list[str]) -> list[tuple[str, int]]:
    """``"+--|+++-"`` -> (docno, score): one score per rank (tie group), highest first."""
    ri, ni = iter(rel), iter(non)
    out = []
    for k, group in enumerate(groups):
        score = len(groups) - k
        out += [(next(ri) if c == "+" else next(ni), score) for c in group]
    return out


def _raghavan(out: Path) -> list[Path]:
    """Raghavan, Jung & Bollmann (1989), examples 2.1-2.4 and 2.5 (weak orderings)."""
    d = out / "raghavan"
    orderings = {  # query -> (number relevant, judged non-relevant, {system: tie groups})
        "ex2.1": (4, 9, {"delta": ["+--", "+++-------"], "delta_prime": ["+++-----", "+---"]}),
        "ex2.5": (
            10,
            9,
            {"delta": ["+-", "+++++----", "++++----"], "delta_prime": ["++++++----", "++----"]},
        ),
    }
    qrels: list[str] = []
    runs: dict[str, list[str]] = {"delta": [], "delta_prime": []}
    for q, (nrel, nnon, systems) in orderings.items():
        rel = [f"r{i}" for i in range(1, nrel + 1)]
        non = [f"n{i}" for i in range(1, nnon + 1)]
        qrels += [f"{q} 0 {x} 1" for x in rel] + [f"{q} 0 {x} 0" for x in non]
        for system, groups in systems.items():
            pairs = _weak(groups, rel, non)
            runs[system] += _ranked(q, [p[0] for p in pairs], system, [p[1] for p in pairs])
    paths = [_write(d / "qrels.txt", qrels)]
    paths += [_write(d / f"{s}.txt", lines) for s, lines in runs.items()]
    return paths


def _chen(out: Path) -> list[Path]:
    """Chen's slides, graded judgments of q1 and q2 ("Discounted Cumulated Gain")."""
    d = out / "chen_dcg"
    q1 = {"d3": 3, "d5": 3, "d9": 3, "d25": 2, "d39": 2, "d44": 2}
    q1 |= {"d56": 1, "d71": 1, "d89": 1, "d123": 1}
    q2 = {"d3": 3, "d56": 2, "d129": 1}
    qrels = [f"q1 0 {x} {g}" for x, g in q1.items()] + [f"q2 0 {x} {g}" for x, g in q2.items()]
    run = _ranked("q1", BY_RANKING, "fig3.2") + _ranked("q2", BY_RANKING, "fig3.2")
    return [_write(d / "qrels.txt", qrels), _write(d / "ranking.txt", run)]


def write_papers(out: Path) -> list[Path]:
    """Write every worked example under ``out``; return the paths."""
    return _pres(out) + _baeza_yates(out) + _keen(out) + _raghavan(out) + _chen(out)


# ----------------------------------------------------------------------------- main


def generate(out: Path) -> list[Path]:
    """Write all example data under ``out`` (``collection/`` and ``papers/``)."""
    return write_collection(out / "collection") + write_papers(out / "papers")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m cranfield.examples.generate", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent,
        help="directory to write collection/ and papers/ into (default: the package's)",
    )
    args = parser.parse_args(argv)
    for p in generate(args.out):
        print(p)


if __name__ == "__main__":
    main()
