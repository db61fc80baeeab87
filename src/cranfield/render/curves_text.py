"""Text renderings of curve tables (any tidy DataFrame): aligned table, Markdown, LaTeX,
CSV/TSV, JSON.

CSV/TSV write a header line and one line per row, floats in their shortest round-trip form
(``repr``), NaN as ``nan``; JSON writes ``{"curve": ..., "rows": [{column: value}, ...]}`` with
NaN as ``null``; the table, Markdown and LaTeX show floats with ``digits`` decimals and end
with the note on which queries the means are over (``attrs["queries_note"]``, see
:mod:`cranfield.curves.table`).  Same table, same bytes.
"""

from __future__ import annotations

import json
import math
from typing import Any

from cranfield.base.output_formats import KINDS
from cranfield.render.results_text import shown_note

__all__ = ["CURVE_FORMATS", "render_curves"]

CURVE_FORMATS = KINDS["curves"].formats


def _cells(table: Any) -> tuple[list[str], list[list[Any]]]:
    cols = [str(c) for c in table.columns]
    rows = [list(r) for r in table.itertuples(index=False, name=None)]
    return cols, rows


def _plain(v: Any) -> Any:
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def render_curves(table: Any, fmt: str, *, digits: int = 4) -> str:
    cols, rows = _cells(table)
    if fmt == "json":
        doc = {
            "curve": table.attrs.get("curve", ""),
            "rows": [{c: _plain(v) for c, v in zip(cols, r, strict=True)} for r in rows],
        }
        return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    if fmt in ("csv", "tsv"):
        from cranfield.render.delimited import delimited

        body = [[_delimited(v) for v in r] for r in rows]
        return delimited(cols, body, "," if fmt == "csv" else "\t")
    body = [[_shown(v, digits) for v in r] for r in rows]
    lefts = [
        not all(isinstance(_plain(r[i]), int | float) or _plain(r[i]) is None for r in rows)
        for i in range(len(cols))
    ]
    if fmt in ("markdown", "latex"):
        from cranfield.render.markup import latex_table, markdown_table

        make = markdown_table if fmt == "markdown" else latex_table
        text = "\n".join(make(cols, body, left=lefts)) + "\n"
    else:
        from cranfield.render.table import text_table

        text = text_table(cols, body, left=lefts, rule=False)
    return text + shown_note(str(table.attrs.get("queries_note", "")), fmt)


def _delimited(v: Any) -> str:
    v = _plain(v)
    if v is None:
        return "nan"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _shown(v: Any, digits: int) -> str:
    v = _plain(v)
    if v is None:
        return "nan"
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)
