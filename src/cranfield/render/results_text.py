"""Renderings of evaluation results: terminal table, Markdown, LaTeX, trec-style lines, JSON,
CSV/TSV."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cranfield.base.output_formats import KINDS
from cranfield.results.tables import Results

if TYPE_CHECKING:
    from cranfield.comparing.intervals import RunIntervals as Intervals

__all__ = ["FORMATS", "render"]

FORMATS = KINDS["results"].formats
SUMMARY = ("queries", "retrieved", "relevant", "relevant_retrieved")


def _fmt(value: float, integer: bool, digits: int) -> str:
    """A value with ``digits`` decimals; a count (``integer``) as an integer when it is one (an
    expectation under weak ties, say 0.5 relevant retrieved, keeps its decimals)."""
    if math.isnan(value):
        return "nan"
    if integer and float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def _exact(value: float, integer: bool) -> str:
    """A value in full (``repr``); a count as an integer when it is one."""
    if integer and float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def render(
    runs: Sequence[Results],
    fmt: str,
    *,
    per_query: bool = False,
    digits: int = 4,
    intervals: Intervals | None = None,
) -> str:
    """``runs`` in ``fmt``; ``intervals`` adds each run's interval of each mean (``evaluate
    --ci``): a ``[low, high]`` column after each measure in tables, ``_ci_low`` and
    ``_ci_high`` columns in CSV/TSV and lines in trec format, an ``intervals`` object per run
    in JSON."""
    if fmt == "json":
        return render_json(runs, per_query=per_query, intervals=intervals)
    if fmt == "trec":
        return render_trec(runs, per_query=per_query, digits=digits, intervals=intervals)
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        return render_delimited(runs, sep, per_query=per_query, intervals=intervals)
    if fmt in ("markdown", "latex"):
        text = render_markup(runs, fmt, per_query=per_query, digits=digits, intervals=intervals)
    else:
        text = render_table(runs, per_query=per_query, digits=digits, intervals=intervals)
    return text + queries_note(runs, fmt) if text else text


def queries_note(runs: Sequence[Results], fmt: str = "table") -> str:
    """The note under a table: which queries its means are over
    (:mod:`cranfield.results.query_sets`);
    a LaTeX comment in LaTeX."""
    from cranfield.results.query_sets import note

    return shown_note(note(runs), fmt)


def shown_note(text: str, fmt: str) -> str:
    """A note under a table in ``fmt``: after an empty line; a LaTeX comment in LaTeX."""
    if not text:
        return ""
    if fmt == "latex":
        return "".join(f"% {line}\n" for line in text.splitlines())
    return f"\n{text}\n"


def _with_ci(runs: Sequence[Results], intervals: Intervals | None) -> list[bool]:
    """Per label: whether some run has an interval for it."""
    labels = list(runs[0].labels) if runs else []
    if intervals is None:
        return [False] * len(labels)
    return [any(intervals.get(r.run, label) is not None for r in runs) for label in labels]


def _ci(intervals: Intervals | None, run: str, label: str) -> Any:
    return None if intervals is None else intervals.get(run, label)


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def render_json(
    runs: Sequence[Results], *, per_query: bool, intervals: Intervals | None = None
) -> str:
    doc: dict[str, Any] = {"runs": [r.to_dict(per_query=per_query) for r in runs]}
    if intervals is not None:
        doc["ci"] = intervals.settings()
        for r, d in zip(runs, doc["runs"], strict=True):
            d["intervals"] = {
                label: None if ci is None else [_num(ci[0]), _num(ci[1])]
                for label in r.labels
                for ci in [_ci(intervals, r.run, label)]
            }
    import json  # only for this format (4 ms of start-up)

    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_trec(
    runs: Sequence[Results], *, per_query: bool, digits: int, intervals: Intervals | None = None
) -> str:
    """``measure<TAB>qid<TAB>value`` lines (per query first, then ``all``), one block per run;
    with ``intervals`` each ``all`` line is followed by ``measure_ci_low`` and
    ``measure_ci_high`` lines."""
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
            ci = _ci(intervals, r.run, label)
            if ci is not None:
                lines.append(f"{label}_ci_low\tall\t{_fmt(ci[0], False, digits)}")
                lines.append(f"{label}_ci_high\tall\t{_fmt(ci[1], False, digits)}")
    return "\n".join(lines) + "\n"


def render_delimited(
    runs: Sequence[Results], sep: str, *, per_query: bool, intervals: Intervals | None = None
) -> str:
    """A header line then one row per run (or per run and query, then an ``all`` row); the
    summary statistics (queries, retrieved, relevant, relevant retrieved) follow the run (and
    are blank on per-query rows); with ``intervals`` a measure that has one is followed by its
    ``_ci_low`` and ``_ci_high`` columns (blank on per-query rows)."""
    from cranfield.render.delimited import delimited

    if not runs:
        return ""
    labels = list(runs[0].labels)
    has = _with_ci(runs, intervals)
    named: list[str] = []
    for label, h in zip(labels, has, strict=True):
        named += [label, f"{label}_ci_low", f"{label}_ci_high"] if h else [label]
    head = ["run", "query_id", *SUMMARY, *named] if per_query else ["run", *SUMMARY, *named]
    rows: list[list[str]] = []
    for r in runs:
        ints = [m.definition.integer for m in r.measures]
        summ = [str(r.summary.get(k, "")) for k in SUMMARY]
        cells_all = []
        for label, v, i, h in zip(labels, r.aggregate().values(), ints, has, strict=True):
            cells_all.append(_exact(v, i))
            if h:
                ci = _ci(intervals, r.run, label)
                cells_all += ["", ""] if ci is None else [repr(float(ci[0])), repr(float(ci[1]))]
        if per_query:
            blank = [""] * len(SUMMARY)
            for q, row in zip(r.query_ids, r.values.tolist(), strict=True):
                cells = []
                for v, i, h in zip(row, ints, has, strict=True):
                    cells.append(_exact(v, i))
                    if h:
                        cells += ["", ""]
                rows.append([r.run, q, *blank, *cells])
            rows.append([r.run, "all", *summ, *cells_all])
        else:
            rows.append([r.run, *summ, *cells_all])
    return delimited(head, rows, sep)


def _table_cells(
    runs: Sequence[Results], *, per_query: bool, digits: int, intervals: Intervals | None = None
) -> tuple[list[str], list[list[str]], int]:
    """Header, rows and the number of left-aligned columns of the run (x query) table: the
    summary statistics of Baeza-Yates & Ribeiro-Neto (queries, retrieved, relevant, relevant
    retrieved) before the measures; with ``intervals`` a ``[low, high]`` column after each
    measure that has one (blank on per-query rows)."""
    labels = list(runs[0].labels)
    has = _with_ci(runs, intervals)
    tag = f"{100 * (intervals.confidence if intervals else 0.95):g}% CI"
    named: list[str] = []
    for label, h in zip(labels, has, strict=True):
        named += [label, f"{label} {tag}"] if h else [label]
    stats = ["queries", "retrieved", "relevant", "rel_ret"]
    head = ["run", *(["query"] if per_query else []), *stats, *named]
    rows: list[list[str]] = []
    for r in runs:
        ints = [m.definition.integer for m in r.measures]
        summ = [_fmt(r.summary[k], True, digits) if k in r.summary else "" for k in SUMMARY]
        if per_query:
            for q, row in zip(r.query_ids, r.values.tolist(), strict=True):
                cells = []
                for v, i, h in zip(row, ints, has, strict=True):
                    cells += [_fmt(v, i, digits), ""] if h else [_fmt(v, i, digits)]
                rows.append([r.run, q, "", "", "", "", *cells])
        agg = []
        for label, v, i, h in zip(labels, r.aggregate().values(), ints, has, strict=True):
            agg.append(_fmt(v, i, digits))
            if h:
                ci = _ci(intervals, r.run, label)
                agg.append(
                    ""
                    if ci is None
                    else f"[{_fmt(ci[0], False, digits)}, {_fmt(ci[1], False, digits)}]"
                )
        rows.append([r.run, *(["all"] if per_query else []), *summ, *agg])
    return head, rows, 2 if per_query else 1


def render_table(
    runs: Sequence[Results], *, per_query: bool, digits: int, intervals: Intervals | None = None
) -> str:
    """An aligned plain-text table: one row per run (and per query with ``per_query``)."""
    from cranfield.render.table import text_table

    if not runs:
        return ""
    head, rows, nleft = _table_cells(runs, per_query=per_query, digits=digits, intervals=intervals)
    return text_table(head, rows, left=nleft)


def render_markup(
    runs: Sequence[Results],
    fmt: str,
    *,
    per_query: bool,
    digits: int,
    intervals: Intervals | None = None,
) -> str:
    """The table of :func:`render_table` as a Markdown pipe table or a LaTeX booktabs table."""
    from cranfield.render.markup import latex_table, markdown_table

    if not runs:
        return ""
    head, rows, nleft = _table_cells(runs, per_query=per_query, digits=digits, intervals=intervals)
    make = markdown_table if fmt == "markdown" else latex_table
    return "\n".join(make(head, rows, left=nleft)) + "\n"
