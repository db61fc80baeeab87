"""ranx 0.3's evaluation API over cranfield's measures: ``from cranfield.compat import ranx``.

``Qrels``, ``Run``, ``evaluate`` and ``compare`` take ranx's arguments and return what ranx
returns; the measures are the registry's (the names of ``docs/peers.md``'s ranx table), so the
values are ranx's where ranx and trec_eval agree on the definition, and ranx's own
conventions are reproduced where they differ (``docs/coming-from.md``, "ranx"):

- **ties**: ranx orders a query's documents with numba's ``np.argsort`` (an unstable
  quicksort with insertion sort below 16 elements): of the negated scores for a ``Run``, of the
  scores, read backwards, for a plain dict given to ``evaluate``.  :func:`ranx_order` is that
  algorithm, and the measures read the documents in its order (the ``given`` tie policy);
  trec_eval orders equal scores by document id descending.
- **rbp**: the raw grade is the gain (cranfield's ``RBP`` rescales gains into [0, 1]);
  computed here from the same ordering.
- **hits@k**: the number of relevant documents in the top k (``P@k`` times k).
- **means**: numpy's ``mean`` of the per-query values, as ranx (cranfield's aggregate sums
  in query order; the two differ in the last bits at most).

Nothing here imports ranx or numba.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cranfield.errors import DataWarning, InputError, ParameterError, UndefinedMeasureWarning

__all__ = [
    "Qrels",
    "Report",
    "Run",
    "compare",
    "evaluate",
    "numba_argsort",
    "parse_metric",
    "ranx_order",
]

SMALL_QUICKSORT = 15
"""numba's quicksort hands a part of at most this many elements to insertion sort."""


# -- numba's argsort -------------------------------------------------------------------------


def _insertion_sort(a: Sequence[float], r: list[int], low: int, high: int) -> None:
    for i in range(low + 1, high + 1):
        k = r[i]
        v = a[k]
        j = i
        while j > low and v < a[r[j - 1]]:
            r[j] = r[j - 1]
            j -= 1
        r[j] = k


def _partition(a: Sequence[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i


def numba_argsort(a: Sequence[float]) -> list[int]:
    """``np.argsort(a)`` as numba compiles it (``numba/misc/quicksort.py``, numba 0.5x-0.6x):
    quicksort with a median-of-three pivot, the larger part stacked, insertion sort for parts
    of at most 15 elements.  Equal values come out in an order that depends on the input's
    order; with distinct values, or 15 values or fewer, it is a stable sort."""
    n = len(a)
    if n <= SMALL_QUICKSORT or len(set(a)) == n:
        return sorted(range(n), key=a.__getitem__)  # the same permutation, at C speed
    r = list(range(n))
    stack = [(0, n - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= SMALL_QUICKSORT:
            i = _partition(a, r, low, high)
            if high - i > i - low:
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion_sort(a, r, low, high)
    return r


def ranx_order(scores: Sequence[float], *, from_dict: bool = False) -> list[int]:
    """The positions of a query's documents in ranx's ranking: numba's argsort of the negated
    scores (a ``Run``), or of the scores read backwards (a dict given to ``evaluate``)."""
    if from_dict:
        return numba_argsort(list(scores))[::-1]
    return numba_argsort([-s for s in scores])


def _sorted_docs(docs: Mapping[str, float]) -> dict[str, float]:
    items = list(docs.items())
    return {items[i][0]: items[i][1] for i in ranx_order([s for _, s in items])}


# -- Qrels and Run ---------------------------------------------------------------------------


_CF_QRELS: dict[int, tuple[dict, Any]] = {}
"""The cranfield Qrels :func:`_checked` built for a qrels dict it returned (by the dict's id,
the dict kept alive with it): read once, not again for the measures.  Cleared by
:func:`evaluate` when it is done."""


def _checked(obj: Any, kind: str, source: str) -> dict[str, dict[str, Any]]:
    """``{qid: {doc: value}}`` checked by cranfield's dict rules (one error naming the key)."""
    from cranfield.io.mapping import qrels_from_mapping, run_from_mapping

    if not isinstance(obj, Mapping):
        raise InputError(
            source, f"expected a dict {{query: {{document: value}}}}, got {type(obj).__name__}"
        )
    nonempty = {q: d for q, d in obj.items() if not (isinstance(d, Mapping) and not d)}
    if kind == "qrels":
        cf = qrels_from_mapping(nonempty, source)
        out = {str(q): {str(d): int(g) for d, g in docs.items()} for q, docs in obj.items()}
        _CF_QRELS[id(out)] = (out, cf)
        return out
    run_from_mapping(nonempty, source)
    return {str(q): {str(d): float(s) for d, s in docs.items()} for q, docs in obj.items()}


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not JSON: {exc.msg}", exc.lineno) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the file: {exc}") from None


def _kind(path: str, kind: str | None) -> str:
    if kind is None:
        for end, k in ((".json", "json"), (".trec", "trec"), (".txt", "trec"), (".gz", "gz")):
            if str(path).endswith(end):
                return k
        if str(path).endswith(".lz4"):
            raise ParameterError(f"{path}: LZ4 files are not supported (ranx's own format)")
        raise ParameterError(
            f"{path}: cannot tell the format from the file name; pass kind='trec' or 'json'"
        )
    if kind not in ("json", "trec", "gz"):
        raise ParameterError(f"unknown kind {kind!r}; choose 'trec', 'gz' or 'json'")
    return kind


def _save(path: str | os.PathLike[str], kind: str | None, d: dict, line: Any) -> None:
    from cranfield.base.output_files import check_output_file, write_text_file

    path = os.fspath(path)
    k = _kind(path, kind)
    if k == "gz":
        raise ParameterError(f"{path}: writing gzipped files is not supported; use .trec")
    check_output_file(path)
    if k == "json":
        text = json.dumps(d, indent=4)
    else:
        text = "".join(
            line(q, i, doc, v) + "\n"
            for q, docs in d.items()
            for i, (doc, v) in enumerate(docs.items(), 1)
        )
    write_text_file(path, text)


class Qrels:
    """ranx's ``Qrels``: ``{q_id: {doc_id: grade}}``, query ids sorted, documents by grade."""

    def __init__(
        self, qrels: Mapping[str, Mapping[str, int]] | None = None, name: str | None = None
    ) -> None:
        self.qrels: dict[str, dict[str, int]] = {}
        self.sorted = False
        if qrels is not None:
            self.qrels = _checked(qrels, "qrels", "<ranx Qrels>")
            self.sort()
        self.name = name

    def sort(self) -> None:
        self.qrels = {q: _sorted_docs(self.qrels[q]) for q in sorted(self.qrels)}
        self.sorted = True

    def keys(self):
        return self.qrels.keys()

    def get_query_ids(self) -> list[str]:
        return list(self.qrels)

    def add(self, q_id: str, doc_ids: Sequence[str], scores: Sequence[int]) -> None:
        self.add_multi([q_id], [doc_ids], [scores])

    def add_multi(
        self,
        q_ids: Sequence[str],
        doc_ids: Sequence[Sequence[str]],
        scores: Sequence[Sequence[int]],
    ) -> None:
        new = {
            q: dict(zip(d, s, strict=True)) for q, d, s in zip(q_ids, doc_ids, scores, strict=True)
        }
        self.qrels.update(_checked(new, "qrels", "<ranx Qrels>"))
        self.sort()

    def add_score(self, q_id: str, doc_id: str, score: int) -> None:
        self.qrels.setdefault(q_id, {})[doc_id] = int(score)
        self.sorted = False

    def set_relevance_level(self, rel_lvl: int = 1) -> None:
        """ranx's: every grade lowered by ``rel_lvl - 1``."""
        self.qrels = {
            q: {d: g - (rel_lvl - 1) for d, g in docs.items()} for q, docs in self.qrels.items()
        }

    def to_dict(self) -> dict[str, dict[str, int]]:
        if not self.sorted:
            self.sort()
        return {q: dict(d) for q, d in self.qrels.items()}

    def to_dataframe(self) -> Any:
        import pandas as pd

        rows = [(q, d, g) for q, docs in self.to_dict().items() for d, g in docs.items()]
        return pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])

    @property
    def size(self) -> int:
        return len(self.qrels)

    def save(self, path: str | os.PathLike[str] = "qrels.json", kind: str | None = None) -> None:
        """ranx's JSON or a TREC qrels file (``q_id 0 doc_id grade``), replaced atomically."""
        _save(path, kind, self.to_dict(), lambda q, i, d, g: f"{q} 0 {d} {g}")

    def __len__(self) -> int:
        return len(self.qrels)

    def __getitem__(self, q_id: str) -> dict[str, int]:
        return self.qrels[q_id]

    def __repr__(self) -> str:
        return repr(self.qrels)

    @staticmethod
    def from_dict(d: Mapping[str, Mapping[str, int]], name: str | None = None) -> Qrels:
        return Qrels(d, name=name)

    @staticmethod
    def from_file(
        path: str | os.PathLike[str], kind: str | None = None, name: str | None = None
    ) -> Qrels:
        """A TREC qrels file (``.trec``, ``.txt``, ``.gz``: cranfield's reader, errors name the
        file and line) or ranx's JSON ``{q_id: {doc_id: grade}}``."""
        path = os.fspath(path)
        if _kind(path, kind) == "json":
            return Qrels(_checked(_read_json(path), "qrels", path), name=name)
        from cranfield.io import read_qrels

        return Qrels(read_qrels(path, format="trec").to_dict(), name=name)

    @staticmethod
    def from_df(
        df: Any, q_id_col: str = "q_id", doc_id_col: str = "doc_id", score_col: str = "score"
    ) -> Qrels:
        return Qrels(_frame_dict(df, q_id_col, doc_id_col, score_col, "<qrels DataFrame>"))


class Run:
    """ranx's ``Run``: ``{q_id: {doc_id: score}}`` in ranx's order (query ids sorted, each
    query's documents by :func:`ranx_order`), with ``name``, ``scores`` and ``mean_scores``."""

    def __init__(
        self, run: Mapping[str, Mapping[str, float]] | None = None, name: str | None = None
    ) -> None:
        self.run: dict[str, dict[str, float]] = {}
        self.sorted = False
        if run is not None:
            self.run = _checked(run, "run", "<ranx Run>")
            self.sort()
        self.name = name
        self.metadata: dict[str, Any] = {}
        self.scores: dict[str, dict[str, float]] = {}
        self.mean_scores: dict[str, float] = {}
        self.std_scores: dict[str, float] = {}

    def sort(self) -> None:
        self.run = {q: _sorted_docs(self.run[q]) for q in sorted(self.run)}
        self.sorted = True

    def keys(self):
        return self.run.keys()

    def get_query_ids(self) -> list[str]:
        return list(self.run)

    def get_doc_ids_and_scores(self) -> list[dict[str, float]]:
        return list(self.run.values())

    def add(self, q_id: str, doc_ids: Sequence[str], scores: Sequence[float]) -> None:
        self.add_multi([q_id], [doc_ids], [scores])

    def add_multi(
        self,
        q_ids: Sequence[str],
        doc_ids: Sequence[Sequence[str]],
        scores: Sequence[Sequence[float]],
    ) -> None:
        new = {
            q: dict(zip(d, s, strict=True)) for q, d, s in zip(q_ids, doc_ids, scores, strict=True)
        }
        self.run.update(_checked(new, "run", "<ranx Run>"))
        self.sort()

    def add_score(self, q_id: str, doc_id: str, score: float) -> None:
        self.run.setdefault(q_id, {})[doc_id] = float(score)
        self.sorted = False

    def make_comparable(self, qrels: Qrels) -> Run:
        """Empty results for the qrels' queries the run lacks; the others' removed (ranx)."""
        for q in qrels.qrels:
            self.run.setdefault(q, {})
        for q in [q for q in self.run if q not in qrels.qrels]:
            del self.run[q]
        self.sort()
        return self

    def to_dict(self) -> dict[str, dict[str, float]]:
        if not self.sorted:
            self.sort()
        return {q: dict(d) for q, d in self.run.items()}

    def to_dataframe(self) -> Any:
        import pandas as pd

        rows = [(q, d, s) for q, docs in self.to_dict().items() for d, s in docs.items()]
        return pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])

    @property
    def size(self) -> int:
        return len(self.run)

    def save(self, path: str | os.PathLike[str] = "run.json", kind: str | None = None) -> None:
        """ranx's JSON or a TREC run file (``q_id Q0 doc_id rank score name``), replaced
        atomically."""
        tag = self.name if self.name is not None else "ranx"
        _save(path, kind, self.to_dict(), lambda q, i, d, s: f"{q} Q0 {d} {i} {s!r} {tag}")

    def __len__(self) -> int:
        return len(self.run)

    def __getitem__(self, q_id: str) -> dict[str, float]:
        return self.run[q_id]

    def __repr__(self) -> str:
        return repr(self.run)

    @staticmethod
    def from_dict(d: Mapping[str, Mapping[str, float]], name: str | None = None) -> Run:
        return Run(d, name=name)

    @staticmethod
    def from_file(
        path: str | os.PathLike[str], kind: str | None = None, name: str | None = None
    ) -> Run:
        """A TREC run file (``.trec``, ``.txt``, ``.gz``: cranfield's reader, errors name the
        file and line; the run's name is its tag, as ranx) or ranx's JSON."""
        path = os.fspath(path)
        if _kind(path, kind) == "json":
            return Run(_checked(_read_json(path), "run", path), name=name)
        from cranfield.io import read_run

        r = read_run(path, format="trec")
        return Run(r.to_dict(), name=name if name is not None else r.tag)

    @staticmethod
    def from_df(
        df: Any,
        q_id_col: str = "q_id",
        doc_id_col: str = "doc_id",
        score_col: str = "score",
        name: str | None = None,
    ) -> Run:
        return Run(_frame_dict(df, q_id_col, doc_id_col, score_col, "<run DataFrame>"), name=name)


def _frame_dict(df: Any, q: str, d: str, s: str, source: str) -> dict[str, dict[str, Any]]:
    missing = [c for c in (q, d, s) if c not in getattr(df, "columns", ())]
    if missing:
        raise InputError(source, f"no column {missing[0]!r} (columns: {list(df.columns)})")
    out: dict[str, dict[str, Any]] = {}
    for row, (qid, doc, value) in enumerate(
        zip(df[q].tolist(), df[d].tolist(), df[s].tolist(), strict=True)
    ):
        docs = out.setdefault(str(qid), {})
        if str(doc) in docs:
            raise InputError(source, f"query {qid!r} lists document {doc!r} twice", row + 1)
        docs[str(doc)] = value
    return out


# -- metric names ----------------------------------------------------------------------------

METRICS = (
    "hits",
    "hit_rate",
    "precision",
    "recall",
    "f1",
    "r-precision",
    "mrr",
    "map",
    "dcg",
    "dcg_burges",
    "ndcg",
    "ndcg_burges",
    "bpref",
    "rbp",
)
"""The names ranx 0.3's ``metric_switch`` accepts."""


def parse_metric(metric: str) -> tuple[str, float, int]:
    """``(name, k, rel_lvl)`` as ranx's ``extract_metric_and_params`` reads it: ``ndcg@10``,
    ``map@100-l2`` (relevance level 2), ``rbp.95`` (persistence 0.95); k = 0: no cut-off."""
    if not isinstance(metric, str):
        raise ParameterError(f"a ranx metric is a string such as 'ndcg@10', got {metric!r}")
    text, lvl = metric, 1
    if "-l" in text:
        text, _, level = text.partition("-l")
        if not level.isdigit():
            raise ParameterError(f"{metric!r}: the relevance level after -l must be an integer")
        lvl = int(level)
    if text.startswith("rbp"):
        sep = "." if "." in text else "@"
        name, _, p = text.partition(sep)
        if name != "rbp" or not p.isdigit():
            raise ParameterError(f"{metric!r}: RBP takes its persistence, e.g. 'rbp.95'")
        return "rbp", float(f"0.{p}"), lvl
    name, _, k = text.partition("@")
    if name not in METRICS:
        raise ParameterError(
            f"unknown ranx metric {name!r} in {metric!r}; ranx's metrics: " + ", ".join(METRICS)
        )
    if k and not k.isdigit():
        raise ParameterError(f"{metric!r}: the cut-off after @ must be a whole number")
    return name, int(k or 0), lvl


def _gains(grades: set[int], lvl: int, burges: bool) -> str:
    """cranfield's ``gains=`` map giving ranx's gains: grades below the level gain nothing,
    the others their grade (``2^g - 1`` for Burges)."""
    pairs = [f"{g}:{(2**g - 1 if burges else g) if g >= lvl else 0}" for g in sorted(grades)]
    return "gains={" + ",".join(pairs) + "}"


def cranfield_measure(name: str, k: int, lvl: int, grades: set[int], longest: int) -> str:
    """The registry's measure string computing ranx's ``name`` (not ``rbp``, ``hits@k``)."""
    rel = f"rel={lvl}"
    at = f"@{k}" if k else ""
    if name in ("dcg", "ndcg", "dcg_burges", "ndcg_burges"):
        base = "DCG" if name.startswith("dcg") else "nDCG"
        if lvl == 1 and min(grades) >= 0 and not name.endswith("burges"):
            return f"{base}{at}"  # the grades are the gains: trec_eval's table, no map
        return f"{base}({_gains(grades, lvl, name.endswith('burges'))}){at}"
    simple = {"mrr": "RR", "map": "AP", "bpref": "Bpref", "r-precision": "Rprec"}
    if name in simple:
        return f"{simple[name]}({rel}){at if name in ('mrr', 'map') else ''}"
    if k == 0:
        return {
            "hits": f"NumRelRet({rel})",
            "precision": f"SetP({rel})",
            "recall": f"SetR({rel})",
            "f1": f"SetF({rel})",
            "hit_rate": f"Success({rel})@{max(longest, 1)}",
        }[name]
    return {
        "hits": f"P({rel})@{k}",
        "precision": f"P({rel})@{k}",
        "recall": f"R({rel})@{k}",
        "f1": f"F({rel})@{k}",
        "hit_rate": f"Success({rel})@{k}",
    }[name]


# -- evaluate --------------------------------------------------------------------------------


def _is_arrays(obj: Any) -> bool:
    """ranx's low-level form: per query an array of ``[doc_id, value]`` rows (a 3-D numpy
    array or a list, numba's typed list included, of 2-D arrays), queries by position."""
    if isinstance(obj, np.ndarray):
        return True
    if isinstance(obj, (Mapping, str, bytes, Qrels, Run)):
        return False
    try:
        return all(isinstance(a, np.ndarray) for a in obj)
    except TypeError:
        return False


def _array_rows(obj: Any, source: str) -> list[list[tuple[str, float]]]:
    """Each query's ``(doc id, value)`` rows in the given order; ids written as ranx holds
    them (float64)."""
    out = []
    for i, a in enumerate(obj):
        a = np.asarray(a, dtype=np.float64)
        if a.ndim != 2 or (a.size and a.shape[1] != 2):
            raise InputError(
                source,
                f"query {i}: expected rows of [doc_id, value], got an array of shape {a.shape}",
            )
        if not np.isfinite(a).all():
            raise InputError(source, f"query {i}: a value is not a finite number")
        out.append([(repr(float(d)), float(v)) for d, v in a.tolist()])
    return out


def _ranked(run: Any) -> tuple[list[str], dict[str, list[tuple[str, float]]]]:
    """The run's query ids in ranx's order and each query's documents in ranx's ranking (an
    array form is already ranked: ranx reads it as given)."""
    if _is_arrays(run):
        rows = _array_rows(run, "<run arrays>")
        return [str(i) for i in range(len(rows))], {str(i): r for i, r in enumerate(rows)}
    if isinstance(run, Run):
        if not run.sorted:
            run.sort()
        return list(run.run), {q: list(d.items()) for q, d in run.run.items()}
    try:  # the values are checked by cranfield's reader of the ordered run
        out = {}
        for q, docs in run.items():
            items = [(str(d), s) for d, s in docs.items()]
            out[str(q)] = [items[i] for i in ranx_order([s for _, s in items], from_dict=True)]
    except (AttributeError, TypeError, ValueError):
        _checked(run, "run", "<run dict>")  # the clear error of what is wrong
        raise
    return list(out), out


def _rbp(judged: dict[str, int], ranking: list[tuple[str, float]], p: float, lvl: int) -> float:
    """ranx's RBP: (1 - p) sum_i grade(d_i) p^(i-1), grades below the level gain nothing."""
    if not any(g >= lvl for g in judged.values()):
        return 0.0
    total = 0.0
    for i, (doc, _) in enumerate(ranking):
        g = judged.get(doc, 0)
        if g >= lvl:
            total += g * p**i
    return (1 - p) * total


def _bpref_qrels(qrels: dict[str, dict[str, int]], lvl: int) -> dict[str, dict[str, int]]:
    """ranx counts every judged grade below the level as judged non-relevant, negative ones
    too (cranfield, as trec_eval, reads a negative grade as not judged): raised to 0."""
    if lvl < 1:
        return qrels
    return {q: {d: max(g, 0) for d, g in docs.items()} for q, docs in qrels.items()}


def _bpref_nan(judged: dict[str, int], ranking: list[tuple[str, float]], lvl: int) -> bool:
    """ranx's bpref divides by min(R, N): 0/0, NaN, for a query with relevant documents
    retrieved and no judged non-relevant one."""
    if any(g < lvl for g in judged.values()):
        return False
    return any(judged.get(d, lvl - 1) >= lvl for d, _ in ranking)


_PARSED: dict[str, Any] = {}


def _parsed(label: str) -> Any:
    """The registry's Measure of ``label``, parsed once per process."""
    from cranfield.measures import parse

    m = _PARSED.get(label)
    if m is None:
        m = _PARSED[label] = parse(label)
    return m


def _cranfield_values(
    qrels: dict[str, dict[str, int]],
    qids: list[str],
    ranking: dict[str, list[tuple[str, float]]],
    labels: list[str],
) -> dict[str, np.ndarray]:
    """cranfield's values of ``labels`` over ``qids``, the documents in ranx's order (judged
    with the ``given`` tie policy); a query without judgments scores 0 (ranx's value of every
    measure there)."""
    from cranfield.data.tables import Run as CfRun
    from cranfield.evaluation import evaluate_judged
    from cranfield.io.mapping import qrels_from_mapping, run_from_mapping
    from cranfield.judging.join import judge

    judged = {q: d for q, d in qrels.items() if d}
    if not judged:
        return {label: np.zeros(len(qids)) for label in labels}
    given = {q: {d: s for d, s in r} for q, r in ranking.items() if r and q in judged}
    kept = _CF_QRELS.get(id(qrels))
    reuse = kept is not None and kept[0] is qrels
    cf_qrels = kept[1] if reuse else qrels_from_mapping(judged, "<qrels>")
    with warnings.catch_warnings():  # ranx scores undefined cases 0 without a word
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        warnings.simplefilter("ignore", DataWarning)  # empty rankings: ranx's make_comparable
        cf_run = run_from_mapping(given, "<run dict>") if given else CfRun.empty("run")
        jr = judge(cf_qrels, cf_run, ties="given", complete=True)
        res = evaluate_judged(
            jr, [(label, _parsed(label)) for label in labels], qrels=cf_qrels, warn=False
        )
    row = {q: i for i, q in enumerate(res.query_ids)}
    out = {}
    for label in labels:
        col = res.column(label)
        out[label] = np.array([col[row[q]] if q in row else 0.0 for q in qids])
    return out


def _per_query(
    qrels: dict[str, dict[str, int]],
    qids: list[str],
    ranking: dict[str, list[tuple[str, float]]],
    metrics: list[str],
) -> dict[str, np.ndarray]:
    """Each metric's values over ``qids`` (ranx's query order)."""
    grades = {g for docs in qrels.values() for g in docs.values()} | {0}
    longest = max((len(r) for r in ranking.values()), default=0)
    parsed = {m: parse_metric(m) for m in metrics}
    labels = {
        m: cranfield_measure(n, int(k), lvl, grades, longest)
        for m, (n, k, lvl) in parsed.items()
        if n not in ("rbp", "bpref")
    }
    cf = _cranfield_values(qrels, qids, ranking, sorted(set(labels.values()))) if labels else {}
    values: dict[str, np.ndarray] = {}
    for m, (n, k, lvl) in parsed.items():
        if n == "rbp":
            values[m] = np.array([_rbp(qrels.get(q, {}), ranking[q], k, lvl) for q in qids])
        elif n == "bpref":
            label = f"Bpref(rel={lvl})"
            v = _cranfield_values(_bpref_qrels(qrels, lvl), qids, ranking, [label])[label]
            nan = [_bpref_nan(qrels.get(q, {}), ranking[q], lvl) for q in qids]
            values[m] = np.where(nan, np.nan, v)
        else:
            v = cf[labels[m]]
            values[m] = np.rint(v * k) if n == "hits" and k else v
    return values


def _qrels_dict(qrels: Any) -> dict[str, dict[str, int]]:
    if isinstance(qrels, Qrels):
        return _checked(qrels.to_dict(), "qrels", "<ranx Qrels>")
    if _is_arrays(qrels):  # a document listed twice counts once, as in ranx's hit lists
        rows = _array_rows(qrels, "<qrels arrays>")
        d = {str(i): {doc: g for doc, g in reversed(r)} for i, r in enumerate(rows)}
        return _checked(d, "qrels", "<qrels arrays>")
    return _checked(qrels, "qrels", "<qrels dict>")


def evaluate(
    qrels: Any,
    run: Any,
    metrics: str | Sequence[str],
    return_mean: bool = True,
    return_std: bool = False,
    threads: int = 0,
    save_results_in_run: bool = True,
    make_comparable: bool = False,
) -> Any:
    """ranx's ``evaluate``: the mean of one metric (a float), ``{metric: mean}`` for several,
    the per-query values (numpy arrays, in the run's query order) with ``return_mean=False``,
    ``{"mean": ..., "std": ...}`` with ``return_std=True``.  A ``Run`` keeps its per-query
    ``scores`` and ``mean_scores`` (``save_results_in_run``).  ``threads`` is accepted and
    unused (no compilation, no thread pool)."""
    if not return_mean:
        return_std = False
    if make_comparable and isinstance(qrels, Qrels) and isinstance(run, Run):
        run = run.make_comparable(qrels)
    metric_list = [metrics] if isinstance(metrics, str) else list(metrics)
    if not metric_list:
        raise ParameterError("no metric given")
    q = _qrels_dict(qrels)
    try:
        qids, ranking = _ranked(run)
        if set(q) != set(qids):
            raise ParameterError(
                "Qrels and Run query ids do not match. Pass `make_comparable=True` to add "
                "empty results for queries missing from the run and remove those not "
                "appearing in qrels."
            )
        scores = _per_query(q, qids, ranking, metric_list)
    finally:
        _CF_QRELS.pop(id(q), None)
    if isinstance(run, Run) and save_results_in_run:
        for m, v in scores.items():
            run.mean_scores[m] = float(np.mean(v)) if len(v) else float("nan")
            if return_std:
                run.std_scores[m] = float(np.std(v))
            run.scores[m] = dict(zip(qids, v.tolist(), strict=True))
    out: dict[str, Any] = dict(scores)
    if return_mean:
        for m, v in scores.items():
            mean = np.mean(v) if len(v) else np.float64("nan")
            out[m] = {"mean": mean, "std": np.std(v)} if return_std else mean
    return out[metric_list[-1]] if len(metric_list) == 1 else out


# -- compare and its report ------------------------------------------------------------------

_LABELS = {
    "hits": "Hits",
    "hit_rate": "Hit Rate",
    "precision": "P",
    "recall": "Recall",
    "f1": "F1",
    "r-precision": "R-Prec",
    "mrr": "MRR",
    "map": "MAP",
    "dcg": "DCG",
    "dcg_burges": "DCG Burges",
    "ndcg": "NDCG",
    "ndcg_burges": "NDCG Burges",
    "bpref": "BPref",
}
_TESTS = {
    "fisher": "Fisher's randomization test",
    "student": "paired Student's t-test",
    "tukey": "Tukey's HSD test",
}
_CHARS = "abcdefghijklmnopqrstuvwxyz"
_SUPER = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ۹ʳˢᵗᵘᵛʷˣʸᶻ"  # ranx's, its q included


def metric_label(m: str) -> str:
    """ranx's column heading of a metric (``NDCG@10``, ``MAP@100-l2``, ``RBP.95``)."""
    text, sep, lvl = m.partition("-l")
    name, at, k = text.partition("@")
    if name.startswith("rbp."):
        return "RBP." + name[4:] + (at + k) + (sep + lvl)
    return _LABELS.get(name, name) + (at + k) + (sep + lvl)


def _number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _simple_table(rows: list[list[str]], headers: list[str]) -> str:
    """python-tabulate's ``simple`` format as ranx prints it: a column whose every cell is a
    number is reformatted with ``g`` and aligned on the decimal point, others left-aligned;
    each column at least its heading plus 2 wide, two spaces apart, lines right-stripped."""
    cols = list(zip(*rows, strict=True)) if rows else [() for _ in headers]
    out_cols, numeric = [], []
    for col in cols:
        num = bool(col) and all(_number(c) for c in col)
        cells = [format(float(c), "g") if num and not c.lstrip("-").isdigit() else c for c in col]
        if num:
            after = [len(c) - c.index(".") - 1 if "." in c else -1 for c in cells]
            top = max(after)
            cells = [c + " " * (top - a) for c, a in zip(cells, after, strict=True)]
        out_cols.append(cells)
        numeric.append(num)
    widths = [max([len(h) + 2, *map(len, c)]) for h, c in zip(headers, out_cols, strict=True)]

    def line(cells: list[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [line(headers), "  ".join("-" * w for w in widths).rstrip()]
    lines += [line([c[i] for c in out_cols]) for i in range(len(rows))]
    return "\n".join(lines)


class Report:
    """ranx's ``Report``: mean scores, pairwise p-values, wins/ties/losses; ``str()`` is its
    table, :meth:`to_latex` its LaTeX table, :meth:`to_dict` its dict."""

    def __init__(
        self,
        model_names: list[str],
        results: dict[str, dict[str, float]],
        comparisons: dict[frozenset, dict[str, dict[str, Any]]],
        metrics: list[str],
        max_p: float,
        win_tie_loss: dict[tuple[str, str], dict[str, dict[str, int]]],
        rounding_digits: int = 3,
        show_percentages: bool = False,
        stat_test: str = "student",
    ) -> None:
        self.model_names = model_names
        self.results = results
        self.comparisons = comparisons
        self.metrics = metrics
        self.max_p = max_p
        self.win_tie_loss = win_tie_loss
        self.rounding_digits = rounding_digits
        self.show_percentages = show_percentages
        self.stat_test = stat_test

    def format_score(self, score: float) -> str:
        if self.show_percentages:
            digits = max(0, self.rounding_digits - 2)
            return f"%.{self.rounding_digits - 2}f" % round(score * 100, digits)
        return f"%.{self.rounding_digits}f" % round(score, self.rounding_digits)

    def _wins(self, model: str, metric: str) -> list[int]:
        """The columns of the models ``model`` is significantly better than on ``metric``."""
        return [
            j
            for j, other in enumerate(self.model_names)
            if other != model
            and self.comparisons[frozenset((model, other))][metric]["significant"]
            and self.results[model][metric] > self.results[other][metric]
        ]

    def to_table(self) -> str:
        rows = []
        for i, model in enumerate(self.model_names):
            row = [_CHARS[i], model]
            for m in self.metrics:
                sup = "".join(_SUPER[j] for j in self._wins(model, m))
                row.append(self.format_score(self.results[model][m]) + sup)
            rows.append(row)
        return _simple_table(rows, ["#", "Model", *map(metric_label, self.metrics)])

    def to_latex(self) -> str:
        best: dict[str, str | None] = {}
        for m in self.metrics:
            best_model, best_score = None, 0.0
            for model in self.model_names:
                if best_score < round(self.results[model][m], self.rounding_digits):
                    best_score = round(self.results[model][m], self.rounding_digits)
                    best_model = model
            best[m] = best_model
        preamble = (
            "========================\n% Add in preamble\n\\usepackage{graphicx}\n"
            "\\usepackage{booktabs}\n========================\n\n"
        )
        prefix = (
            "% To change the table size, act on the resizebox argument `0.8`.\n"
            "\\begin{table*}[ht]\n\\centering\n\\caption{\nOverall effectiveness of the models."
            "\nThe best results are highlighted in boldface.\nSuperscripts denote significant "
            "differences in "
            + _TESTS[self.stat_test]
            + " with $p \\le "
            + str(self.max_p)
            + "$.\n}\n\\resizebox{0.8\\textwidth}{!}{\n\\begin{tabular}{c|l"
            + "|c" * len(self.metrics)
            + "}\n\\toprule\n\\textbf{\\#}\n& \\textbf{Model}"
            + "".join(f"\n& \\textbf{{{metric_label(m)}}}" for m in self.metrics)
            + " \\\\ \n\\midrule"
        )
        content = []
        for i, model in enumerate(self.model_names):
            cells = []
            for m in self.metrics:
                score = self.format_score(self.results[model][m])
                score = f"\\textbf{{{score}}}" if best[m] == model else score
                wins = self._wins(model, m)
                sup = "".join(_CHARS[j] for j in wins)
                phantoms = "".join(
                    _CHARS[j]
                    for j, other in enumerate(self.model_names)
                    if other != model and j not in wins
                )
                cells.append(f"{score}$^{{{sup}}}$\\hphantom{{$^{{{phantoms}}}$}} &")
            cells[-1] = cells[-1][:-1]
            content.append(f"{_CHARS[i]} &\n{model} &\n" + "\n".join(cells) + "\\\\")
        body = "\n".join(content).replace("_", "\\_").replace("$^{}$", "")
        suffix = "\\bottomrule\n\\end{tabular}\n}\n\\label{tab:results}\n\\end{table*}"
        return preamble + "\n" + prefix + "\n" + body + "\n" + suffix

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "stat_test": self.stat_test,
            "metrics": self.metrics,
            "model_names": self.model_names,
        }
        for a in self.model_names:
            others = [b for b in self.model_names if b != a]
            d[a] = {
                "scores": self.results[a],
                "comparisons": {
                    b: {m: self.comparisons[frozenset((a, b))][m]["p_value"] for m in self.metrics}
                    for b in others
                },
                "win_tie_loss": {b: self.win_tie_loss[(a, b)] for b in others},
            }
        return d

    def get_stat_test_label(self, stat_test: str) -> str:
        return _TESTS[stat_test]

    def get_metric_label(self, m: str) -> str:
        return metric_label(m)

    def to_dataframe(self) -> Any:
        """One row per run: ``model_names`` and each metric's mean (ranx's)."""
        import pandas as pd

        df = pd.DataFrame.from_dict({n: self.results[n] for n in self.model_names}, orient="index")
        return df.reset_index().rename(columns={"index": "model_names"})

    def __str__(self) -> str:
        return self.to_table()

    __repr__ = __str__


def _p_values(
    stat_test: str,
    names: list[str],
    scores: dict[str, dict[str, np.ndarray]],
    metrics: list[str],
    n_permutations: int,
    max_p: float,
    random_seed: int,
) -> dict[frozenset, dict[str, dict[str, Any]]]:
    """Every pair's p-value per metric: Student's paired t (cranfield's ``t_test_d``, as
    scipy's ``ttest_rel``), Fisher's randomization test (cranfield's, seeded: not ranx's
    stream), Tukey's HSD (scipy's ``tukey_hsd``, as ranx: the unpaired one-way test)."""
    out: dict[frozenset, dict[str, dict[str, Any]]] = {}
    if stat_test == "tukey":
        from scipy.stats import tukey_hsd

        for m in metrics:
            p = tukey_hsd(*[scores[n][m] for n in names]).pvalue
            for i, a in enumerate(names):
                for j, b in enumerate(names[i + 1 :], i + 1):
                    pv = float(p[i, j])
                    out.setdefault(frozenset((a, b)), {})[m] = {
                        "p_value": pv,
                        "significant": pv <= max_p,
                    }
        return out
    from cranfield.comparing.paired import t_test_d
    from cranfield.comparing.resampling import randomization_tests

    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pair = out.setdefault(frozenset((a, b)), {})
            for m in metrics:
                d = scores[b][m] - scores[a][m]
                if stat_test == "student":
                    pv = float(t_test_d(d).p_value)
                else:
                    pv = float(
                        randomization_tests(
                            d[:, None], permutations=n_permutations, seed=random_seed
                        )[0].p_value
                    )
                pair[m] = {"p_value": pv, "significant": pv <= max_p}
    return out


def compare(
    qrels: Any,
    runs: Sequence[Run],
    metrics: str | Sequence[str],
    stat_test: str = "student",
    n_permutations: int = 1000,
    max_p: float = 0.01,
    random_seed: int = 42,
    threads: int = 0,
    rounding_digits: int = 3,
    show_percentages: bool = False,
    make_comparable: bool = False,
) -> Report:
    """ranx's ``compare``: every run evaluated, every pair tested (``stat_test``: ``student``,
    ``fisher`` or ``tukey``), wins/ties/losses per query; a :class:`Report`."""
    if stat_test not in _TESTS:
        raise ParameterError(
            f"unknown stat_test {stat_test!r}; choose " + ", ".join(repr(t) for t in _TESTS)
        )
    metric_list = [metrics] if isinstance(metrics, str) else list(metrics)
    names: list[str] = []
    scores: dict[str, dict[str, np.ndarray]] = {}
    for i, run in enumerate(runs):
        name = run.name if getattr(run, "name", None) is not None else f"run_{i + 1}"
        if name in scores:
            raise ParameterError(f"two runs are named {name!r}; give each run its own name")
        names.append(name)
        v = evaluate(qrels, run, metric_list, return_mean=False, make_comparable=make_comparable)
        scores[name] = {metric_list[0]: v} if len(metric_list) == 1 else v
    results = {n: {m: float(np.mean(scores[n][m])) for m in metric_list} for n in names}
    comparisons = _p_values(
        stat_test, names, scores, metric_list, n_permutations, max_p, random_seed
    )
    wtl = {
        (a, b): {
            m: {
                "W": int(np.sum(scores[a][m] > scores[b][m])),
                "T": int(np.sum(scores[a][m] == scores[b][m])),
                "L": int(np.sum(scores[a][m] < scores[b][m])),
            }
            for m in metric_list
        }
        for a in names
        for b in names
        if a != b
    }
    return Report(
        names,
        results,
        comparisons,
        metric_list,
        max_p,
        wtl,
        rounding_digits,
        show_percentages,
        stat_test,
    )
