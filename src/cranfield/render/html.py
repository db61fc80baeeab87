"""HTML: the report page and the notebook fragments, from Jinja2 templates (autoescape on).

- :func:`render_report`: one self-contained page (``templates/report.html.j2``) with its
  stylesheet and script inline (``assets/``) and a Content-Security-Policy that lets it load
  nothing at all; the tables are HTML, the per-query table and the charts are drawn by the
  page's own script (``assets/report.js``, hand-written, no library) from a JSON block;
- :func:`comparison_html`, :func:`results_html`: the fragments of
  ``Comparison.to_html()`` and ``Results.to_html()`` / ``ResultsSet.to_html()`` (and of their
  ``_repr_html_`` in notebooks).

Every number is formatted in :mod:`.html_model` by the project's formatting; the templates
only place text.  The same inputs give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cranfield.render import html_model as M
from cranfield.render.comparison_rows import queries_note
from cranfield.render.table import counted
from cranfield.results.query_sets import note, worth_noting

if TYPE_CHECKING:
    from cranfield.comparing.result import Comparison
    from cranfield.render.report_data import ReportData
    from cranfield.results.tables import Results

__all__ = ["comparison_html", "render_report", "results_html"]

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
ASSETS = HERE / "assets"

INTERPOLATION_TEXT = {
    "max": "precision at each recall level r is the highest precision at any cut-off with "
    "recall >= r (Baeza-Yates & Ribeiro-Neto, Modern Information Retrieval, 1999, eq. 3.4)",
    "trec": "trec_eval 10.0's interpolated precision (iprec_at_recall): the highest precision "
    "at or after the lround(r R)-th relevant document",
    "trec9": "trec_eval 9's interpolated precision: the highest precision at or after the "
    "(long)(r R + 0.9)-th relevant document",
    "ceiling": "PRECALL with ceiling interpolation (Raghavan, Jung & Bollmann, ACM TOIS 7(3), "
    "1989, sec. 2.2)",
    "quasi-cranfield": "quasi-Cranfield interpolation, highest precision of each step, "
    "extrapolation 5 (Keen, Evaluation Parameters, SMART report ISR-13, sec. 4B, Fig. 16)",
    "semi-cranfield": "semi-Cranfield interpolation, highest precision of each step, "
    "extrapolation 5 (Keen, ISR-13, Fig. 17)",
}
GAIN_TEXT = (
    "Cumulated gain (CG), discounted cumulated gain (DCG, 1/log2 of the rank from rank 2) and "
    "their ratios to the ideal ranking's (NCG, NDCG), averaged over the queries as the ratio "
    "of the averaged curves (Järvelin & Kekäläinen, ACM TOIS 20(4), 2002); each run up to its "
    "deepest ranking, at most {ranks} ranks."
)


@cache
def environment() -> Any:
    """The Jinja2 environment of the templates: autoescape on, undefined names are errors."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@cache
def asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def _safe(text: str) -> Any:
    from markupsafe import Markup

    return Markup(text)


def _summary_legend(c: Comparison, intervals: Any) -> str:
    if c.baseline is not None:
        text = (
            f"▲ / ▼: significantly better / worse than the baseline {c.baseline} (adjusted "
            f"p < {c.alpha:g}; the p-value shows on hover)."
        )
    else:
        text = (
            "Letters after a mean: significantly better than the runs with those letters "
            f"(adjusted p < {c.alpha:g}); beats N: than N runs (listed on hover)."
        )
    if intervals is not None:
        text += (
            f" [low, high] ({intervals.tag()}): {intervals.describe()}, each run's over the "
            "queries (none for geometric means)."
        )
    return text + " Highlighted: the best mean of each measure; ↑ higher is better, ↓ lower."


def _settings(data: ReportData) -> list[list[str]]:
    from cranfield.comparing.paired import TESTS

    c, s, o = data.comparison, data.settings, data.settings.get("options")
    rows = [
        ["test", TESTS[c.test][0]],
        ["alternative", c.alternative],
        ["alpha", f"{c.alpha:g}"],
        ["correction", c.correction],
        ["baseline", c.baseline or "none: every pair of runs"],
        ["interval of differences", c.ci],
        ["interval of the means", data.mean_intervals.method if data.mean_intervals else "none"],
    ]
    if (
        c.test in ("randomization", "bootstrap", "rthsd")
        or c.ci == "bootstrap"
        or c.correction in ("maxt", "minp")
        or (data.mean_intervals is not None and data.mean_intervals.method != "t")
    ):
        rows += [["resamples", str(c.permutations)], ["seed", str(c.seed)]]
    if o is None:  # no qrels, no rankings (nugget scores): nothing judged, no curves
        return [*rows, ["decimals", str(data.digits)]]
    rows += [
        ["tie policy", o.ties],
        ["depth", "none" if o.depth is None else str(o.depth)],
        ["judged only", "yes" if o.judged_only else "no"],
        ["complete", "yes" if o.complete else "no"],
        ["rel", "1" if o.rel is None else str(o.rel)],
        ["precision-recall interpolation", s["interpolation"]],
        ["gain curve ranks", str(s["gain_ranks"])],
        ["decimals", str(data.digits)],
    ]
    return rows


def _runs_table(data: ReportData) -> tuple[list[str], list[list[str]]]:
    """The runs, by their full names, and the label each has in the page's tables and charts
    (when a label is not the whole name): the legend of the shortened names."""
    from cranfield.render.results_text import _fmt as count_text

    labels = M.run_labels([r.run for r in data.results])
    shown = any(labels[n] != n for n in labels)
    counts = data.settings.get("run_counts")
    if counts is not None:  # the given Results.summary counts, e.g. a nugget report's
        head = ["run", *(["shown as"] if shown else []), *(h for _, h in counts)]
        rows = [
            [r.run, *([labels[r.run]] if shown else []), *(str(r.summary[k]) for k, _ in counts)]
            for r in data.results
        ]
        return head, rows
    head = ["run", *(["shown as"] if shown else []), "queries evaluated", "retrieved"]
    head.append("relevant retrieved")
    missing = any(n["missing"] for n in data.run_notes.values())
    extra = any(n["run_only"] for n in data.run_notes.values())
    if missing:
        head.append("judged queries without results")
    if extra:
        head.append("queries without judgments (ignored)")
    rows = []
    for r in data.results:
        s, n = r.summary, data.run_notes.get(r.run, {})
        rr = s.get("relevant_retrieved")
        rr_text = str(rr) if rr is None else count_text(rr, True, data.digits)  # 0.5: weak ties
        row = [r.run, *([labels[r.run]] if shown else []), str(s["queries"])]
        row += [str(s["retrieved"]), rr_text]
        if missing:
            row.append(str(n.get("missing", 0)))
        if extra:
            row.append(str(n.get("run_only", 0)))
        rows.append(row)
    return head, rows


def _run_metadata(data: ReportData) -> list[tuple[str, str]]:
    """The runs that have an ir_metadata block, each with its YAML text (the page shows one
    small section per run)."""
    from cranfield.io.ir_metadata import yaml_text

    return [(r.run, yaml_text(r.metadata)) for r in data.results if r.metadata is not None]


def render_report(data: ReportData) -> str:
    """The page of a report (see :func:`cranfield.report`)."""
    c, digits = data.comparison, data.digits
    ref = c.baseline or c.runs[0]
    pr_head, pr_rows = M.pr_rows(data, digits) if data.pr is not None else ([], None)
    run_head, run_rows = _runs_table(data)
    pairs = M.pair_tables(c, digits)
    tie_head = ["run", "measure", "queries", "tied", "rel_tied", "changed"]
    tie_head += ["worst", "trec", "expected", "best", "range"]
    context = {
        "title": data.title,
        "css": _safe(asset("report.css")),
        "js": _safe(asset("report.js")),
        "data_json": _safe(M.script_json(M.payload(data))),
        "prov": data.provenance,
        "runs": c.runs,
        "measures": c.labels,
        "queries": c.notes.get("queries"),
        "collection": data.collection,
        "run_head": run_head,
        "run_rows": run_rows,
        "run_metadata": _run_metadata(data),
        "complete_note": queries_note(c, 0),
        "summary": M.summary(c, digits, data.intervals),
        "summary_legend": _summary_legend(c, data.mean_intervals if data.intervals else None),
        "reference_text": (
            f"the baseline {ref}" if c.baseline else f"the first run, {ref} (no baseline given)"
        ),
        "reference_name": M.run_labels(c.runs)[ref],
        "pr_method": "Averaged over the queries at 11 recall levels; "
        + INTERPOLATION_TEXT[data.settings["interpolation"]]
        + "."
        if pr_rows is not None
        else "",
        "pr_head": pr_head,
        "pr_rows": pr_rows,
        "gain_method": GAIN_TEXT.format(ranks=data.settings["gain_ranks"])
        if pr_rows is not None
        else "",
        "ties": M.tie_rows(data, digits),
        "tie_head": tie_head,
        "tie_skipped": [x for x in c.labels if x not in data.tie_labels],
        "agreement": M.agreement(c),
        "leaderboard": _leaderboard(data.leaderboard, digits),
        "pairs": pairs,
        "pairs_open": sum(len(t["rows"]) for t in pairs) <= 30,
        "pairs_legend": _pairs_legend(c),
        "notes": data.notes,
        "settings": _settings(data),
    }
    return M.undecoded_as_text(environment().get_template("report.html.j2").render(context))


def _leaderboard(lb: Any, digits: int) -> dict[str, Any] | None:
    """The rows of the leaderboard agreement section (the table of ``cranfield
    leaderboard``), or None without other judgment sets."""
    if lb is None:
        return None
    import csv
    import io

    text = lb.table("csv", digits=digits)  # the cells of the CSV output
    head, *rows = list(csv.reader(io.StringIO(text)))
    return {
        "head": head,
        "rows": rows,
        "sets": lb.sets,
        "queries": lb.queries,
        "top_k": lb.top_k,
        "notes": lb.notes,
    }


def _pairs_legend(c: Comparison) -> str:
    from cranfield.render.comparison_rows import header

    return (
        header(c)
        + ". diff = mean(b) - mean(a); W/L/T = queries where b wins / loses / ties; sup% = "
        "Keen's superiority percentage of b; d_z = mean(d)/sd(d)."
    )


def comparison_html(c: Comparison, *, digits: int = 4, details: bool = True) -> str:
    """The comparison as an HTML fragment: the means with significance marks, and (with
    ``details``) the pairwise tests and the agreement between measures."""
    context = {
        "caption": M.summary(c, digits)["header"],
        "summary": M.summary(c, digits),
        "queries_note": queries_note(c, 0) if worth_noting(c.results) else "",
        "summary_legend": _summary_legend(c, None),
        "results": None,
        "pairs": M.pair_tables(c, digits) if details else [],
        "agreement": M.agreement(c) if details else None,
    }
    return M.undecoded_as_text(environment().get_template("fragment.html.j2").render(context))


def results_html(runs: Sequence[Results], *, digits: int = 4) -> str:
    """Evaluated runs as an HTML fragment: runs x measures, each measure's aggregate."""
    queries = {len(r.query_ids) for r in runs}
    caption = counted(len(runs), "run")
    if len(queries) == 1:
        caption += f", {counted(queries.pop(), 'query')}"
    context: dict[str, Any] = {
        "caption": caption,
        "summary": None,
        "results": M.results_rows(runs, digits),
        "queries_note": note(runs, width=0) if worth_noting(runs) else "",
        "pairs": [],
        "agreement": None,
    }
    return M.undecoded_as_text(environment().get_template("fragment.html.j2").render(context))
