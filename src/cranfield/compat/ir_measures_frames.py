"""The qrels and run as pandas DataFrames for ir_measures' measures defined at run time
(:func:`cranfield.compat.ir_measures.define`), made as ir_measures' runtime provider makes them
(``providers/runtime_provider.py``, ir_measures 0.4.3): the qrels sorted by query and document,
the run by query (ascending) then score (descending), ties in the order given (pandas sorts by
several columns stably); a DataFrame given as qrels or run is passed on as it is (any columns).
"""

from __future__ import annotations

from typing import Any

from cranfield.compat.ir_measures_records import as_dict
from cranfield.errors import MeasureError

__all__ = ["QREL_INPUTS", "RUN_INPUTS", "qrels_frame", "run_frame"]

RUN_INPUTS = ["query_id", "doc_id", "score"]
QREL_INPUTS = ["query_id", "doc_id", "relevance"]


def _frame(source: Any, reader: str, columns: list[str]) -> Any:
    import pandas as pd

    if isinstance(source, pd.DataFrame):
        return source
    if isinstance(source, list | tuple) and not source:  # nothing: an empty frame
        return pd.DataFrame([], columns=columns)
    rows = [(q, d, v) for q, docs in as_dict(source, reader).items() for d, v in docs.items()]
    return pd.DataFrame(rows, columns=columns)


def qrels_frame(qrels: Any) -> Any:
    """The qrels as the runtime provider gives them: sorted by query, then document."""
    frame = _frame(qrels, "read_qrels", QREL_INPUTS)
    if "query_id" not in frame.columns:
        raise MeasureError(f"qrels: no query_id column (its columns: {list(frame.columns)})")
    by = ["query_id", "doc_id"] if "doc_id" in frame.columns else ["query_id"]
    return frame.sort_values(by=by)


def run_frame(run: Any) -> Any:
    """The run as the runtime provider gives it: by query, then score descending."""
    frame = _frame(run, "read_run", RUN_INPUTS)
    if "query_id" not in frame.columns:
        raise MeasureError(f"run: no query_id column (its columns: {list(frame.columns)})")
    if "score" in frame.columns:
        return frame.sort_values(by=["query_id", "score"], ascending=[True, False])
    return frame.sort_values(by=["query_id"], ascending=[True])
