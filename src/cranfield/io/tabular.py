"""Tables: pandas and polars DataFrames, pyarrow Tables, JSON lines, JSON and Parquet files.

Every table goes through the same column rules (:mod:`cranfield.io.columns`) and the same
checks as TREC text (:mod:`cranfield.io.validate`), becoming a Qrels or a Run in
:mod:`cranfield.io.from_columns`; JSON and JSON lines are read by
:mod:`cranfield.io.json_tables`.  Here: the entry points, DataFrames and Arrow tables,
Parquet.  Large tables stay columnar: Arrow arrays become the run's
:class:`~cranfield.data.tables.IdColumn` and numpy arrays, with no per-row Python.

The ``given`` order of a table is its ``rank`` column when present (ascending, ties in row
order), else its row order.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io.columns import QRELS_ROLES, RUN_ROLES, Where
from cranfield.io.from_columns import (
    python_array,
    qrels_from_columns,
    run_from_columns,
)
from cranfield.io.json_tables import jsonl, records, refuse_column_orient
from cranfield.io.strict_json import json_line, json_text, load_json  # json_*: the old path

__all__ = [
    "json_line",
    "json_text",
    "qrels_from_frame",
    "read_qrels_file",
    "read_run_file",
    "run_from_frame",
]


PARQUET_SUFFIXES = (".parquet", ".pq")
JSONL_SUFFIXES = (".jsonl", ".ndjson")


# ------------------------------------------------------------------------- entry points


def qrels_from_frame(frame: Any, source: str | None = None) -> Qrels:
    """Qrels from a pandas/polars DataFrame or a pyarrow Table (columns: docs/input.md)."""
    source = source or _frame_source(frame)
    cols = _frame_columns(frame, QRELS_ROLES, source)
    return qrels_from_columns(cols, Where(source, "row"), "the DataFrame has no rows")


def run_from_frame(frame: Any, name: str | None = None, source: str | None = None) -> Run:
    """A run from a pandas/polars DataFrame or a pyarrow Table; ``name`` defaults to the
    value of its ``run``/``name`` column, else ``"run"``."""
    source = source or _frame_source(frame)
    cols = _frame_columns(frame, RUN_ROLES, source)
    return run_from_columns(cols, Where(source, "row"), name, "the DataFrame has no rows")


def read_qrels_file(path: str | os.PathLike[str]) -> Qrels:
    """Qrels from a ``.jsonl``/``.ndjson``, ``.json`` or ``.parquet`` file (compressed too)."""
    kind, source = _kind(path), str(path)
    if kind == "parquet":
        cols = _parquet_columns(path, QRELS_ROLES)
        return qrels_from_columns(cols, Where(source, "row"), "the file has no rows")
    if kind == "jsonl":
        return jsonl(path, QRELS_ROLES, lambda cols, where: qrels_from_columns(cols, where, ""))
    obj = load_json(path)
    if isinstance(obj, dict):
        from cranfield.io.mapping import qrels_from_mapping

        refuse_column_orient(obj, source)
        return qrels_from_mapping(obj, source)
    cols, where = records(obj, QRELS_ROLES, source)
    return qrels_from_columns(cols, where, "the list is empty")


def read_run_file(path: str | os.PathLike[str], name: str | None = None) -> Run:
    """A run from a ``.jsonl``/``.ndjson``, ``.json`` or ``.parquet`` file (compressed too);
    ``name`` defaults to the file name."""
    kind, source = _kind(path), str(path)
    name = name or Path(path).name
    if kind == "parquet":
        cols = _parquet_columns(path, RUN_ROLES)
        return run_from_columns(cols, Where(source, "row"), name, "the file has no rows")
    if kind == "jsonl":
        return jsonl(path, RUN_ROLES, lambda cols, where: run_from_columns(cols, where, name, ""))
    obj = load_json(path)
    if isinstance(obj, dict):
        from cranfield.io.mapping import run_from_mapping

        refuse_column_orient(obj, source)
        return run_from_mapping(obj, source, name=name)
    cols, where = records(obj, RUN_ROLES, source)
    return run_from_columns(cols, where, name, "the list is empty")


# ---------------------------------------------------------------------------- DataFrames


def _frame_source(frame: Any) -> str:
    mod = type(frame).__module__
    return "<Table>" if mod.startswith("pyarrow") else "<DataFrame>"


def _frame_columns(frame: Any, roles, source: str) -> dict[str, tuple[str, Any]]:
    """``{role: (column name, Arrow array)}`` of a pandas/polars DataFrame or Arrow table."""
    mod = type(frame).__module__
    if mod.startswith("pandas"):
        import pandas as pd

        if not isinstance(frame, pd.DataFrame):
            raise InputError(source, f"expected a DataFrame, got a pandas {type(frame).__name__}")
        found = C.resolve(list(frame.columns), roles, source, list(frame.index.names))
        names = {str(c): c for c in frame.columns}  # resolve() compares the names as text
        return {
            role: (col, _pandas_array(frame[names[col]], role, source))
            for role, col in found.items()
        }
    if mod.startswith("polars"):
        import polars as pl

        if isinstance(frame, pl.LazyFrame):
            found = C.resolve(frame.collect_schema().names(), roles, source)
            try:
                frame = frame.select(list(found.values())).collect()
            except Exception as exc:  # the user's query failed (polars' own exception types)
                why = " ".join(str(exc).split())  # one line
                raise InputError(source, f"cannot collect the LazyFrame: {why}") from None
        elif isinstance(frame, pl.DataFrame):
            found = C.resolve(frame.columns, roles, source)
        else:
            raise InputError(source, f"expected a DataFrame, got a polars {type(frame).__name__}")
        return {
            role: (col, _polars_array(frame.get_column(col), role, source))
            for role, col in found.items()
        }
    import pyarrow as pa

    if isinstance(frame, pa.RecordBatch):
        frame = pa.Table.from_batches([frame])
    if not isinstance(frame, pa.Table):
        raise InputError(source, f"expected a Table, got a pyarrow {type(frame).__name__}")
    found = C.resolve(frame.column_names, roles, source)
    return {role: (col, frame.column(col)) for role, col in found.items()}


_ARROW_INFERS = ("string", "integer")
"""Object columns pandas infers as one of these go to Arrow whole; Arrow would coerce the
others (``[3.0, True]`` becomes ``[3.0, 1.0]``, a float128 ``1e400`` becomes infinite), so
they are checked value by value."""


def _pandas_array(series: Any, role: str, source: str) -> Any:
    """An Arrow array of a pandas column.  Columns Arrow cannot take as a whole, or would
    coerce (object columns mixing types, Python ints beyond 64 bits, Fractions, Decimals,
    float128...), are converted element-wise by the Python rules (errors name the row);
    complex columns are refused."""
    import pandas as pd
    import pyarrow as pa

    dtype = series.dtype
    if isinstance(dtype, pd.SparseDtype):
        series = series.sparse.to_dense()
        dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype) and dtype.categories.dtype == object:
        series = series.astype(object)
        dtype = series.dtype
    if isinstance(dtype, np.dtype):
        if dtype.kind == "c":
            what = {r.key: r.what for r in (*C.QRELS_ROLES, *C.RUN_ROLES)}[role]
            raise Where(source).column_error(
                series.name, f"{what} cannot be complex numbers (column of {dtype})"
            )
        if dtype.kind == "f" and dtype.itemsize <= 8:
            return pa.array(series.to_numpy(), from_pandas=False)  # keep NaN a NaN
        if dtype.kind == "f":  # float128: Arrow has no such type
            return python_array(list(series.to_numpy()), role, Where(source, "row"))
        inferred = pd.api.types.infer_dtype(series, skipna=True) if dtype.kind == "O" else None
        if inferred is not None and inferred not in _ARROW_INFERS:
            return python_array(series.tolist(), role, Where(source, "row"))
    try:
        return pa.array(series, from_pandas=True)
    except Exception:  # Arrow's, or whatever a value's __float__ raises
        pass
    return python_array(series.tolist(), role, Where(source, "row"))


def _polars_array(series: Any, role: str, source: str) -> Any:
    """An Arrow array of a polars column; columns Arrow cannot take (polars ``Object``) are
    converted element-wise by the Python rules."""
    import polars as pl

    if series.dtype != pl.Object:
        try:
            return series.to_arrow()
        except Exception:  # polars' own exception types
            pass
    return python_array(series.to_list(), role, Where(source, "row"))


# ----------------------------------------------------------------------------------- files


COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


def _kind(path: str | os.PathLike[str]) -> str:
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in COMPRESSED_SUFFIXES:
        suffixes = suffixes[:-1]
    last = suffixes[-1] if suffixes else ""
    if last in PARQUET_SUFFIXES:
        return "parquet"
    if last in JSONL_SUFFIXES:
        return "jsonl"
    return "json"


class _ParquetMagic:
    """Refuses a file that does not start with Parquet's magic number on its first bytes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.head = b""

    def feed(self, chunk: bytes) -> None:
        if len(self.head) < 4:
            self.head += chunk[: 4 - len(self.head)]
            if len(self.head) == 4 and self.head != b"PAR1":
                self._refuse()

    def close(self) -> None:
        if not self.head:
            raise InputError(self.source, "file is empty")
        if len(self.head) < 4:
            self._refuse()

    def _refuse(self) -> None:
        raise InputError(self.source, "not a readable Parquet file (it does not start with 'PAR1')")


def _parquet_columns(path: str | os.PathLike[str], roles) -> dict[str, tuple[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from cranfield.io.source import read_source

    source = str(path)
    data = read_source(path, lambda: _ParquetMagic(source))
    try:
        pf = pq.ParquetFile(pa.BufferReader(data))
        found = C.resolve(pf.schema_arrow.names, roles, source)
        table = pf.read(columns=list(dict.fromkeys(found.values())))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise InputError(source, f"not a readable Parquet file ({exc})") from None
    return {role: (col, table.column(col)) for role, col in found.items()}
