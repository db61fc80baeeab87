"""ranx's ``Qrels`` and ``Run``: from dicts, TREC files, ranx's JSON and DataFrames, checked by
cranfield's dict rules (one error naming the key, or the file and line)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from cranfield.compat.ranx.ordering import sorted_runs
from cranfield.errors import InputError, ParameterError


def plain_qrels(obj: Any) -> bool:
    """Whether ``obj`` is ``{str: {str: int}}`` with 64-bit grades (no bool) and a judgment:
    the common case, checked by the compiled core in one pass (anything else is read by
    cranfield's dict rules, which name what is wrong)."""
    return qrels_index(obj) is not None


def qrels_index(obj: Any) -> Any:
    """The compiled core's index of ``obj`` when it is plain (:func:`plain_qrels`), else
    ``None``."""
    from cranfield.results.core_dicts import dict_index

    return dict_index(obj) if type(obj) is dict else None


def plain_run(obj: Any) -> bool:
    """Whether ``obj`` is ``{str: {str: finite float}}``: the common case, checked in one
    pass (anything else is read by cranfield's dict rules, which name what is wrong)."""
    if type(obj) is not dict:
        return False
    for q, docs in obj.items():
        if type(q) is not str or type(docs) is not dict:
            return False
        for d, v in docs.items():
            if type(d) is not str or type(v) is not float or v - v != 0.0:  # NaN, infinite
                return False
    return True


def read_qrels_dict(
    obj: Mapping[str, Any], source: str, *, copy: bool = True
) -> dict[str, dict[str, int]]:
    """``{qid: {doc: grade}}`` (a new dict, or ``obj`` itself when it is plain and not
    ``copy``), checked by cranfield's dict rules."""
    if plain_qrels(obj):
        return {q: dict(docs) for q, docs in obj.items()} if copy else obj  # type: ignore[return-value]
    from cranfield.io.mapping import qrels_from_mapping

    nonempty = {q: d for q, d in obj.items() if not (isinstance(d, Mapping) and not d)}
    qrels_from_mapping(nonempty, source)  # the one clear error of what is wrong
    return {str(q): {str(d): int(g) for d, g in docs.items()} for q, docs in obj.items()}


def checked_dict(obj: Any, kind: str, source: str) -> dict[str, dict[str, Any]]:
    """``{qid: {doc: value}}`` (a new dict) checked by cranfield's dict rules (one error
    naming the key)."""
    if not isinstance(obj, Mapping):
        raise InputError(
            source, f"expected a dict {{query: {{document: value}}}}, got {type(obj).__name__}"
        )
    if kind == "qrels":
        return read_qrels_dict(obj, source)
    if plain_run(obj):
        return {q: dict(docs) for q, docs in obj.items()}
    from cranfield.io.mapping import run_from_mapping

    nonempty = {q: d for q, d in obj.items() if not (isinstance(d, Mapping) and not d)}
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
        self._read: tuple[Any, Any] | None = None
        """(a copy of the qrels, what evaluate read of them: the dict and the core's index),
        reused while they are equal."""
        if qrels is not None:
            if not isinstance(qrels, Mapping):
                checked_dict(qrels, "qrels", "<ranx Qrels>")  # the error naming what is wrong
            self.qrels = read_qrels_dict(qrels, "<ranx Qrels>", copy=False)
            self.sort()  # new dicts
            copy = {q: dict(docs) for q, docs in self.qrels.items()}
            self._read = (copy, (copy, qrels_index(copy)))
        self.name = name

    def sort(self) -> None:
        self.qrels = sorted_runs(self.qrels)
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
        self.qrels.update(read_qrels_dict(new, "<ranx Qrels>"))
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
            return Qrels(checked_dict(_read_json(path), "qrels", path), name=name)
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
            self.run = run if plain_run(run) else checked_dict(run, "run", "<ranx Run>")  # type: ignore[assignment]
            self.sort()  # new dicts
        self.name = name
        self.metadata: dict[str, Any] = {}
        self.scores: dict[str, dict[str, float]] = {}
        self.mean_scores: dict[str, float] = {}
        self.std_scores: dict[str, float] = {}

    def sort(self) -> None:
        self.run = sorted_runs(self.run)
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
        self.run.update(checked_dict(new, "run", "<ranx Run>"))
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
            return Run(checked_dict(_read_json(path), "run", path), name=name)
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
