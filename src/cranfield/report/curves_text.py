"""Text renderings of curve tables (any tidy DataFrame): aligned table, CSV/TSV, JSON.

CSV/TSV write a header line and one line per row, floats in their shortest round-trip form
(``repr``), NaN as ``nan``; JSON writes ``{"curve": ..., "rows": [{column: value}, ...]}`` with
NaN as ``null``.  Same table, same bytes.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["CURVE_FORMATS", "render_curves"]

CURVE_FORMATS = ("table", "csv", "tsv", "json")


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
        sep = "," if fmt == "csv" else "\t"
        out = [sep.join(_csv(c, sep) for c in cols)]
        out += [sep.join(_csv(_delimited(v), sep) for v in r) for r in rows]
        return "\n".join(out) + "\n"
    return _aligned(cols, rows, digits)


def _delimited(v: Any) -> str:
    v = _plain(v)
    if v is None:
        return "nan"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _csv(s: str, sep: str) -> str:
    if any(c in s for c in (sep, '"', "\n", "\r")):
        return '"' + s.replace('"', '""') + '"'
    return s


def _aligned(cols: list[str], rows: list[list[Any]], digits: int) -> str:
    def fmt(v: Any) -> str:
        v = _plain(v)
        if v is None:
            return "nan"
        if isinstance(v, bool):
            return "yes" if v else ""
        if isinstance(v, float):
            return f"{v:.{digits}f}"
        return str(v)

    body = [[fmt(v) for v in r] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in body]) for i, c in enumerate(cols)]
    numeric = [
        all(isinstance(_plain(r[i]), int | float) or _plain(r[i]) is None for r in rows)
        for i in range(len(cols))
    ]

    def line(cells: list[str]) -> str:
        parts = [
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(cols)] + [line(r) for r in body]) + "\n"
