"""The tables the curve functions return: pandas DataFrames that carry, and show, the note on
which queries their means are over (:mod:`cranfield.results.query_sets`), as every other table
of means does.

The note is in ``table.attrs["queries_note"]``; :func:`cranfield.render.curves_text.render_curves`
prints it under the table (``cranfield curve``), and the table's own text (``repr``, ``str``,
the notebook's HTML) ends with it.  Operations on the table give plain DataFrames.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd

from cranfield.judging.rankings import JudgedRankings

__all__ = ["CurveTable", "curve_frames"]


class CurveTable(pd.DataFrame):
    """A curve table: a DataFrame whose text ends with the note on its queries."""

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame  # a slice or a computed frame is no longer the averaged table

    def _note(self) -> str:
        return str(self.attrs.get("queries_note", ""))

    def __repr__(self) -> str:
        text = super().__repr__()
        return f"{text}\n{self._note()}" if self._note() else text

    def _repr_html_(self) -> str | None:
        text = super()._repr_html_()
        if text is None or not self._note():
            return text
        return f"{text}<p>{html.escape(self._note())}</p>"


def _concat(parts: list[dict[str, Any]]) -> pd.DataFrame:
    frames = [pd.DataFrame(p) for p in parts]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def curve_frames(
    tables: list[dict[str, Any]],
    per_query: list[dict[str, Any]],
    jrs: Sequence[JudgedRankings],
    *,
    keep: bool,
    **attrs: Any,
) -> Any:
    """The averaged table of ``jrs``' curves (column dicts ``tables``) with ``attrs`` and the
    note on its queries; with ``keep``, also the per-query table (a ``(table, per_query)``
    tuple)."""
    from cranfield.results.query_sets import note

    table = CurveTable(_concat(tables))
    table.attrs.update(attrs)
    table.attrs["queries_note"] = note(list(jrs))
    if not keep:
        return table
    return table, _concat(per_query)
