"""The other tools' objects as qrels and runs: ir_measures' and ir_datasets' records, ranx's
``Qrels`` and ``Run``, ir_datasets datasets and ``irds:<id>``.

- **Records**: any iterable (list, tuple, generator) of objects with the fields
  ``query_id, doc_id, relevance`` (qrels: ir_measures' ``Qrel``, ir_datasets' ``TrecQrel``) or
  ``query_id, doc_id, score`` (runs: ``ScoredDoc``, ``GenericScoredDoc``).  Other fields
  (``iteration``) are ignored; the values follow the rules of every table
  (:mod:`cranfield.io.columns`) and messages name the 0-based item.  The first record decides
  the kind; a later record without the fields is an error naming it.
- **ranx**: ``ranx.Qrels`` and ``ranx.Run`` through their ``to_dict()`` (the nested-dict
  rules); a Run keeps its ``name``.  ranx's DataFrames (``q_id, doc_id, score``) are tables
  (a qrels table whose grades are in ``score``: :mod:`cranfield.io.columns`).
- **ir_datasets**: a dataset object (anything with ``qrels_iter()``), or ``irds:<id>`` where a
  qrels path is expected (``cranfield evaluate irds:cranfield run.txt``): the dataset is loaded
  with ``ir_datasets.load(id)`` (the ``irds`` extra) and its qrels read from its records.
  ir_datasets fetches a dataset's files on first use, as it always does; what it cannot get
  is one error naming the dataset.  A file whose name starts with ``irds:`` is reached as
  ``./irds:...``.

Nothing here imports ranx, ir_measures or ir_datasets except ``irds:``: the objects are
recognised by their attributes and their module's name.
"""

from __future__ import annotations

import io
import operator
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError, MissingExtraError
from cranfield.io import columns as C
from cranfield.io import python_values as P
from cranfield.io.columns import Where

__all__ = [
    "IRDS_PREFIX",
    "is_peer_qrels",
    "is_peer_run",
    "is_record",
    "peer_qrels",
    "peer_run",
    "peer_run_name",
]

IRDS_PREFIX = "irds:"
_TABLES = ("pandas", "polars", "pyarrow")
QREL_FIELDS = ("query_id", "doc_id", "relevance")
SCORED_FIELDS = ("query_id", "doc_id", "score")


def _module(obj: Any) -> str:
    return type(obj).__module__ or ""


def _is_ranx(obj: Any, kind: str) -> bool:
    return _module(obj).startswith("ranx") and type(obj).__name__ == kind


def is_record(obj: Any, fields: tuple[str, ...] = ("query_id", "doc_id")) -> bool:
    """Whether ``obj`` has the attributes ``fields`` (a Qrel/ScoredDoc-like record); a table
    (whose columns are attributes too: ``df.query_id``) is not one."""
    if isinstance(obj, str | bytes | Mapping) or _module(obj).startswith(_TABLES):
        return False
    return all(hasattr(obj, f) for f in fields)


def _is_dataset(obj: Any) -> bool:
    return callable(getattr(obj, "qrels_iter", None)) and not is_record(obj)


def _iterable(obj: Any) -> bool:
    """An iterable that may hold records: not text, a mapping or an open file (whose lines
    are no records: give its path)."""
    if isinstance(obj, str | bytes | bytearray | Mapping | io.IOBase):
        return False
    return isinstance(obj, Iterable)


def _first_is_record(obj: Any, fields: tuple[str, ...]) -> bool:
    """A list or tuple whose first item is a record with ``fields`` (iterators are not
    peeked here: that would consume them)."""
    return isinstance(obj, list | tuple) and bool(obj) and is_record(obj[0], fields)


def is_peer_run(obj: Any) -> bool:
    """A run object of another tool: a ranx Run, a list of ScoredDoc-like records, or an
    iterator (a generator of records, such as ``ir_measures.read_trec_run``)."""
    if _is_ranx(obj, "Run"):
        return True
    if _first_is_record(obj, SCORED_FIELDS):
        return True
    return isinstance(obj, Iterator) and _iterable(obj)


def is_peer_qrels(obj: Any) -> bool:
    """Qrels of another tool: ranx Qrels, a dataset with ``qrels_iter()``, an iterable of
    Qrel-like records, an iterator."""
    if _is_ranx(obj, "Qrels") or _is_dataset(obj):
        return True
    if _first_is_record(obj, QREL_FIELDS):
        return True
    return isinstance(obj, Iterator) and _iterable(obj)


def peer_run_name(obj: Any) -> str | None:
    """The name a run object carries (a ranx Run's ``name``), if any; a name no run may have
    (control characters) is the error of every run name."""
    if _is_ranx(obj, "Run"):
        name = getattr(obj, "name", None)
        if not isinstance(name, str) or not name.strip():
            return None
        from cranfield.base.arguments import run_names

        run_names([name], 1)
        return name
    return None


# ------------------------------------------------------------------------------ records
def _columns(
    rows: Iterable[Any], fields: tuple[str, ...], what: str, source: str
) -> tuple[list[Any], ...]:
    """The ``fields`` of every record, as one list per field."""
    it = iter(rows)
    get = operator.attrgetter(*fields)
    out: list[tuple[Any, ...]] = []
    append = out.append
    try:
        for row in it:
            append(get(row))
    except AttributeError:
        raise InputError(
            source,
            f"item {len(out)}: expected {what} with fields {', '.join(fields)}, got {P.show(row)}",
        ) from None
    if not out:
        raise InputError(source, f"no {what}s (the iterable is empty)")
    return tuple(list(col) for col in zip(*out, strict=True))


def _peek(obj: Iterable[Any]) -> tuple[Any, Iterable[Any]]:
    """The first item of ``obj`` and an iterable that still yields every item."""
    if isinstance(obj, list | tuple):
        return (obj[0] if obj else None), obj
    it = iter(obj)
    try:
        first = next(it)
    except StopIteration:
        return None, ()
    return first, chain([first], it)


def _source(obj: Any, default: str) -> str:
    kind = type(obj).__name__
    return f"<{kind} of records>" if kind in ("list", "tuple") else default


def qrels_from_records(obj: Iterable[Any], source: str) -> Qrels:
    """Qrels from an iterable of records with ``query_id, doc_id, relevance``."""
    import pyarrow as pa

    from cranfield.io.from_columns import qrels_from_columns  # with these messages' unit (items)

    first, rows = _peek(obj)
    if first is None:
        raise InputError(source, "no judgments (the iterable is empty)")
    if not is_record(first, QREL_FIELDS):
        hint = " (that is a run's ScoredDoc)" if is_record(first, SCORED_FIELDS) else ""
        raise InputError(
            source,
            f"item 0: expected a Qrel with fields query_id, doc_id, relevance, got "
            f"{P.show(first)}{hint}",
        )
    q, d, g = _columns(rows, QREL_FIELDS, "a Qrel", source)
    where = Where(source, "item")
    cols = {
        "query": ("query_id", pa.array(P.py_ids(q, C.QUERY, where), pa.string())),
        "doc": ("doc_id", pa.array(P.py_ids(d, C.DOC, where), pa.string())),
        "grade": ("relevance", pa.array(P.py_grades(g, where), pa.int64())),
    }
    return qrels_from_columns(cols, where, "the iterable is empty")


def run_from_records(obj: Iterable[Any], source: str, name: str | None) -> Run:
    """A run from an iterable of records with ``query_id, doc_id, score``; the ``given``
    order is the iteration order."""
    import pyarrow as pa

    from cranfield.io.from_columns import run_from_columns

    first, rows = _peek(obj)
    if first is None:
        raise InputError(source, "no results (the iterable is empty)")
    if not is_record(first, SCORED_FIELDS):
        hint = " (that is a Qrel: pass it as qrels)" if is_record(first, QREL_FIELDS) else ""
        raise InputError(
            source,
            f"item 0: expected a ScoredDoc with fields query_id, doc_id, score, got "
            f"{P.show(first)}{hint}",
        )
    q, d, s = _columns(rows, SCORED_FIELDS, "a ScoredDoc", source)
    where = Where(source, "item")
    cols = {
        "query": ("query_id", pa.array(P.py_ids(q, C.QUERY, where), pa.string())),
        "doc": ("doc_id", pa.array(P.py_ids(d, C.DOC, where), pa.string())),
        "score": ("score", pa.array(P.py_scores(s, where), pa.float64())),
    }
    return run_from_columns(cols, where, name, "the iterable is empty")


# ------------------------------------------------------------------------------ objects
def _ranx_dict(obj: Any, source: str) -> dict:
    try:
        return dict(obj.to_dict())
    except Exception as exc:  # ranx's own (numba) errors
        raise InputError(source, f"cannot read the ranx object: {exc}") from None


def _dataset_qrels(dataset: Any, source: str) -> Qrels:
    has = getattr(dataset, "has_qrels", None)
    if callable(has) and not has():
        raise InputError(source, "the dataset has no qrels")
    import logging

    quiet = logging.root.manager.disable
    logging.disable(logging.WARNING)  # ir_datasets' [INFO]/[WARNING] retry lines: one error
    try:
        records = list(dataset.qrels_iter())
    except InputError:
        raise
    except Exception as exc:  # ir_datasets' download and format errors, of many types
        raise InputError(source, _irds_problem(exc)) from None
    finally:
        logging.disable(quiet)
    return qrels_from_records(records, source)


_NETWORK_ERRORS = {
    "ConnectionError",
    "ConnectTimeout",
    "MaxRetryError",
    "NameResolutionError",
    "NewConnectionError",
    "ReadTimeout",
    "Timeout",
    "URLError",
    "gaierror",
}
"""Names of the exception classes (requests, urllib3, urllib, socket) that mean the network
could not be reached."""
CACHE = "its cache (~/.ir_datasets, or IR_DATASETS_HOME)"


def _irds_problem(exc: BaseException) -> str:
    """One line for an exception of ir_datasets' ``qrels_iter``: a download that could not
    reach the network says so and names the hosts, anything else is cut to 200 characters."""
    import re

    def causes(e: Any, depth: int = 0) -> Iterator[BaseException]:
        """``e``, its causes, and the exceptions in its arguments (ir_datasets gives a list
        of (download, error) pairs), depth first."""
        if depth > 8:
            return
        if isinstance(e, list | tuple):
            for x in e:
                yield from causes(x, depth + 1)
            return
        if not isinstance(e, BaseException):
            return
        yield e
        for x in (e.__cause__, e.__context__, getattr(e, "reason", None), *e.args):
            yield from causes(x, depth + 1)

    found = list(causes(exc))
    offline = any(c.__name__ in _NETWORK_ERRORS for e in found for c in type(e).__mro__)
    if offline or "download sources failed" in str(exc):
        texts = [str(e) for e in found]
        hosts = list(dict.fromkeys(h for t in texts for h in re.findall(r"host='([^'\\]+)", t)))
        where = f" ({', '.join(hosts)})" if hosts else ""
        return (
            f"ir_datasets could not download the dataset's files: the network cannot be "
            f"reached{where}; ir_datasets needs the network on first use, or {CACHE} "
            "holding the files"
        )
    why = f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(": ")
    if len(why) > 200:
        why = why[:199] + "…"
    return (
        f"ir_datasets could not read the qrels: {why} (ir_datasets fetches a dataset's files "
        f"on first use into {CACHE}; some must be obtained by hand: see the dataset's page on "
        "ir-datasets.com)"
    )


def load_irds(spec: str) -> Any:
    """The ir_datasets dataset of ``irds:<id>``."""
    dataset_id = spec[len(IRDS_PREFIX) :]
    source = spec
    if not dataset_id.strip():
        raise InputError(source, "no dataset id after 'irds:' (for example irds:cranfield)")
    try:
        import ir_datasets
    except ImportError:
        raise MissingExtraError(
            f"{spec}: reading a dataset needs the optional dependency 'ir_datasets': "
            "pip install 'cranfield[irds]'"
        ) from None
    try:
        return ir_datasets.load(dataset_id)
    except KeyError:
        import difflib

        names = list(getattr(ir_datasets, "registry", {}))
        close = difflib.get_close_matches(dataset_id, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise InputError(source, f"ir_datasets has no dataset {dataset_id!r}{hint}") from None


def peer_qrels(source: Any) -> Qrels | None:
    """Qrels from another tool's object (see the module docstring), or ``None`` if
    ``source`` is none of them."""
    if isinstance(source, str) and source.startswith(IRDS_PREFIX):
        return _dataset_qrels(load_irds(source), source)
    if _is_ranx(source, "Qrels"):
        from cranfield.io.mapping import qrels_from_mapping

        return qrels_from_mapping(_ranx_dict(source, "<ranx Qrels>"), "<ranx Qrels>")
    if _is_dataset(source):
        dataset_id = getattr(source, "dataset_id", None)
        name = dataset_id() if callable(dataset_id) else None
        return _dataset_qrels(source, f"<ir_datasets {name!r}>" if name else "<dataset>")
    if _iterable(source):
        return qrels_from_records(source, _source(source, "<qrels records>"))
    return None


def peer_run(source: Any, name: str | None) -> Run | None:
    """A run from another tool's object, or ``None`` if ``source`` is none of them."""
    if _is_ranx(source, "Run"):
        from cranfield.io.mapping import run_from_mapping

        own = name or peer_run_name(source) or "run"
        return run_from_mapping(_ranx_dict(source, "<ranx Run>"), "<ranx Run>", name=own)
    if _iterable(source):
        return run_from_records(source, _source(source, "<run records>"), name)
    return None
