"""Renderings of evaluation results: terminal table, Markdown, LaTeX, trec-style lines, JSON,
CSV/TSV."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..results import Results

__all__ = ["FORMATS", "render"]

FORMATS = ("table", "trec", "json", "csv", "tsv", "markdown", "latex")
SUMMARY = ("queries", "retrieved", "relevant", "relevant_retrieved")


def _fmt(value: float, integer: bool, digits: int) -> str:
    if math.isnan(value):
        return "nan"
    if integer:
        return str(int(value))
    return f"{value:.{digits}f}"


def render(runs: Sequence[Results], fmt: str, *, per_query: bool = False, digits: int = 4) -> str:
    if fmt == "json":
        return render_json(runs, per_query=per_query)
    if fmt == "trec":
        return render_trec(runs, per_query=per_query, digits=digits)
    if fmt in ("csv", "tsv"):
        return render_delimited(runs, "," if fmt == "csv" else "\t", per_query=per_query)
    if fmt in ("markdown", "latex"):
        text = render_markup(runs, fmt, per_query=per_query, digits=digits)
    else:
        text = render_table(runs, per_query=per_query, digits=digits)
    return text + queries_note(runs, fmt) if text else text


def queries_note(runs: Sequence[Results], fmt: str = "table") -> str:
    """The note under a table: which queries its means are over (:mod:`cranfield.query_sets`);
    a LaTeX comment in LaTeX."""
    from ..query_sets import note

    text = note(runs)
    if fmt == "latex":
        return "".join(f"% {line}\n" for line in text.splitlines())
    return f"\n{text}\n"


def render_json(runs: Sequence[Results], *, per_query: bool) -> str:
    doc = {"runs": [r.to_dict(per_query=per_query) for r in runs]}
    import json  # only for this format (4 ms of start-up)

    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_trec(runs: Sequence[Results], *, per_query: bool, digits: int) -> str:
    """``measure<TAB>qid<TAB>value`` lines (per query first, then ``all``), one block per run."""
    lines: list[str] = []
    for r in runs:
        ints = [m.definition.integer for m in r.measures]
        if len(runs) > 1:
            lines.append(f"runid\tall\t{r.run}")
        if per_query:  # formatted column by column, then interleaved query by query
            spec = f".{digits}f"  # format(nan, spec) == "nan", as _fmt gives
            columns = [
                [_fmt(v, True, digits) for v in col] if i else [format(v, spec) for v in col]
                for col, i in zip(r.values.T.tolist(), ints, strict=True)
            ]
            labels = r.labels
            for q, cells in zip(r.query_ids, zip(*columns, strict=True), strict=True):
                tail = f"\t{q}\t"
                lines.extend([label + tail + c for label, c in zip(labels, cells, strict=True)])
        for (label, v), i in zip(r.aggregate().items(), ints, strict=True):
            lines.append(f"{label}\tall\t{_fmt(v, i, digits)}")
    return "\n".join(lines) + "\n"


def render_delimited(runs: Sequence[Results], sep: str, *, per_query: bool) -> str:
    """A header line then one row per run (or per run and query, then an ``all`` row); the
    summary statistics (queries, retrieved, relevant, relevant retrieved) follow the run (and
    are blank on per-query rows)."""
    from .delimited import delimited

    if not runs:
        return ""
    labels = list(runs[0].labels)
    head = ["run", "query_id", *SUMMARY, *labels] if per_query else ["run", *SUMMARY, *labels]
    rows: list[list[str]] = []
    for r in runs:
        ints = [m.definition.integer for m in r.measures]
        summ = [str(r.summary.get(k, "")) for k in SUMMARY]
        cells_all = [
            str(int(v)) if i else repr(float(v))
            for v, i in zip(r.aggregate().values(), ints, strict=True)
        ]
        if per_query:
            blank = [""] * len(SUMMARY)
            for q, row in zip(r.query_ids, r.values.tolist(), strict=True):
                cells = [str(int(v)) if i else repr(v) for v, i in zip(row, ints, strict=True)]
                rows.append([r.run, q, *blank, *cells])
            rows.append([r.run, "all", *summ, *cells_all])
        else:
            rows.append([r.run, *summ, *cells_all])
    return delimited(head, rows, sep)


def _table_cells(
    runs: Sequence[Results], *, per_query: bool, digits: int
) -> tuple[list[str], list[list[str]], int]:
    """Header, rows and the number of left-aligned columns of the run (x query) table: the
    summary statistics of Baeza-Yates & Ribeiro-Neto (queries, retrieved, relevant, relevant
    retrieved) before the measures."""
    labels = list(runs[0].labels)
    stats = ["queries", "retrieved", "relevant", "rel_ret"]
    head = ["run", *(["query"] if per_query else []), *stats, *labels]
    rows: list[list[str]] = []
    for r in runs:
        ints = [m.definition.integer for m in r.measures]
        summ = [str(r.summary.get(k, "")) for k in SUMMARY]
        if per_query:
            for q, row in zip(r.query_ids, r.values.tolist(), strict=True):
                cells = [_fmt(v, i, digits) for v, i in zip(row, ints, strict=True)]
                rows.append([r.run, q, "", "", "", "", *cells])
        agg = [_fmt(v, i, digits) for v, i in zip(r.aggregate().values(), ints, strict=True)]
        rows.append([r.run, *(["all"] if per_query else []), *summ, *agg])
    return head, rows, 2 if per_query else 1


def render_table(runs: Sequence[Results], *, per_query: bool, digits: int) -> str:
    """An aligned plain-text table: one row per run (and per query with ``per_query``)."""
    from .table import text_table

    if not runs:
        return ""
    head, rows, nleft = _table_cells(runs, per_query=per_query, digits=digits)
    return text_table(head, rows, left=nleft)


def render_markup(runs: Sequence[Results], fmt: str, *, per_query: bool, digits: int) -> str:
    """The table of :func:`render_table` as a Markdown pipe table or a LaTeX booktabs table."""
    from .markup import latex_table, markdown_table

    if not runs:
        return ""
    head, rows, nleft = _table_cells(runs, per_query=per_query, digits=digits)
    make = markdown_table if fmt == "markdown" else latex_table
    return "\n".join(make(head, rows, left=nleft)) + "\n"
