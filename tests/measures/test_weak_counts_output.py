"""Counts that are expectations print as the fractions they are, in every output.

Under ``--ties weak`` a depth cut inside a tie group makes NumRelRet and NumNonRelJudgedRet
expectations (the group {a, b} with one relevant document, cut at depth 1, retrieves 1/2 relevant
document on average).  Every writer once printed them as integers (0); the rule now is: a count
prints as an integer when it is one (trec_eval's bytes for ordinary runs) and as the fraction it
is otherwise.  Expected values come from enumerating the tie orders by hand (Fractions), not
from cranfield."""

from __future__ import annotations

import csv
import io
import json
import warnings
from fractions import Fraction

import pytest
from _tie_enumeration import _inputs, _judged, _linear_orders, _rel, weak_orderings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _report_pages import table as page_table
from conftest import run_cli
from cranfield import evaluate
from cranfield.render.results_text import render

COUNTS = ["NumRelRet", "NumNonRelJudgedRet", "NumRet"]
TEXT_FORMATS = ("table", "markdown", "latex", "trec")  # digits=4
FULL_FORMATS = ("json", "csv", "tsv")  # every digit


# ------------------------------------------------------------------ reading each format back
def _cells(line: str, fmt: str) -> list[str]:
    if fmt == "markdown":
        return [c.strip() for c in line.strip().strip("|").split("|")]
    if fmt == "latex":
        return [c.strip() for c in line.rstrip().removesuffix("\\\\").split("&")]
    return line.split()  # the aligned table: no cell here holds a space


def _read(text: str, fmt: str, labels: list[str]) -> dict[tuple[str, str], str]:
    """``{(query or 'all', label): printed text}`` of one run's output in ``fmt``."""
    out: dict[tuple[str, str], str] = {}
    if fmt == "trec":
        for line in text.splitlines():
            label, q, value = line.split("\t")
            out[q, label] = value
        return out
    if fmt == "json":
        run = json.loads(text)["runs"][0]
        for label, v in run["aggregate"].items():
            out["all", label] = json.dumps(v)
        for q, row in run["per_query"].items():
            for label, v in row.items():
                out[q, label] = json.dumps(v)
        out["all", "rel_ret"] = json.dumps(run["summary"]["relevant_retrieved"])
        return out
    if fmt in ("csv", "tsv"):
        rows = list(csv.DictReader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))
        for row in rows:
            for label in labels:
                out[row["query_id"], label] = row[label]
            if row["query_id"] == "all":
                out["all", "rel_ret"] = row["relevant_retrieved"]
        return out
    lines = text.split("\n\n")[0].splitlines()  # the table, not the note under it
    if fmt == "latex":
        lines = [x for x in lines if "&" in x]
    elif fmt == "markdown":
        lines = [x for x in lines if not x.startswith("|:")]
    else:
        lines = [x for x in lines if not x.startswith("---")]
    head = _cells(lines[0], fmt)
    for line in lines[1:]:
        cells = _cells(line, fmt)
        if fmt == "table" and cells[1] != "all":  # blank summary cells: no text to split
            cells = cells[:2] + [""] * 4 + cells[2:]
        row = dict(zip(head, cells, strict=True))
        for label in labels:
            out[row["query"], label] = row[label.replace("_", "\\_") if fmt == "latex" else label]
        if row["query"] == "all":
            out["all", "rel_ret"] = row["rel\\_ret" if fmt == "latex" else "rel_ret"]
    return out


def _shows(printed: str, value: Fraction, fmt: str) -> bool:
    """``printed`` is ``value``: an integer's digits when it is whole, else its decimals (four
    in the text formats, every digit of the float in JSON and CSV)."""
    if value.denominator == 1:
        return printed == str(value.numerator)
    if fmt in TEXT_FORMATS:
        return printed == f"{float(value):.4f}"
    return "." in printed and float(printed) == pytest.approx(float(value), rel=1e-12)


# ------------------------------------------------------------------ the repro
def test_the_repro_prints_one_half_in_every_format(tmp_path):
    """qrels 'a' relevant, 'b' judged non-relevant; a and b tied at score 1, cut at depth 1:
    by hand, a is retrieved in one of the two orders, so 1/2 relevant and 1/2 judged
    non-relevant document are retrieved, and one document."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run.write_text("1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n")
    half = Fraction(1, 2)
    expect = {"NumRelRet": half, "NumNonRelJudgedRet": half, "NumRet": Fraction(1)}
    for fmt in (*TEXT_FORMATS, *FULL_FORMATS):
        args = ["evaluate", str(qrels), str(run), "--ties", "weak", "-M", "1", "-q", "-f", fmt]
        proc = run_cli(*args, *(x for m in COUNTS for x in ("-m", m)))
        assert proc.returncode == 0, proc.stderr
        got = _read(proc.stdout.decode(), fmt, COUNTS)
        for q in ("1", "all"):
            for label, value in expect.items():
                assert _shows(got[q, label], value, fmt), (fmt, q, label, got[q, label])
        if fmt != "trec":
            assert _shows(got["all", "rel_ret"], half, fmt), (fmt, got["all", "rel_ret"])


def test_the_repro_through_the_python_api_and_the_html_outputs(tmp_path):
    res = evaluate(
        {"1": {"a": 1, "b": 0}}, {"1": {"a": 1.0, "b": 1.0}}, COUNTS, ties="weak", depth=1
    )
    assert res.to_dict(per_query=True)["per_query"]["1"] == {
        "NumRelRet": 0.5,
        "NumNonRelJudgedRet": 0.5,
        "NumRet": 1,
    }
    frame = res.per_query()
    assert frame["NumRelRet"].tolist() == [0.5] and frame["NumRet"].dtype.kind == "i"
    assert "NumRelRet 0.5000, NumNonRelJudgedRet 0.5000, NumRet 1" in repr(res)
    from bs4 import BeautifulSoup

    row = BeautifulSoup(res.to_html(), "html.parser").find("tbody").find("tr")
    cells = [td.get_text() for td in row.find_all("td")]
    assert cells == ["run", "1", "0.5000", "0.5000", "1"]  # run, queries, the three counts


def test_the_report_shows_relevant_retrieved_as_a_fraction(tmp_path):
    """The report's table of runs: query 1 as in the repro (1/2), query 2 retrieves its one
    relevant document (1): 3/2 in all; the second run retrieves both relevant documents."""
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 a 1\n")
    tied, strict = tmp_path / "tied", tmp_path / "strict"
    tied.write_text("1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n2 Q0 a 1 1 r\n")
    strict.write_text("1 Q0 a 1 1 s\n1 Q0 b 2 0.5 s\n2 Q0 a 1 1 s\n")
    out = tmp_path / "report.html"
    args = [str(qrels), str(tied), str(strict), "--ties", "weak", "-M", "1", "-m", "AP"]
    proc = run_cli("report", *args, "-o", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = page_table(out.read_text(), "runs-table")
    assert [row[3] for row in rows[1:]] == ["1.5000", "2"]


# ------------------------------------------------------------------ the class
def _expected_counts(queries, d):
    """Per query, by enumerating every tie order cut at ``d``: E[relevant retrieved],
    E[judged non-relevant retrieved] and the documents retrieved."""
    out = {}
    for qi, (levels, _extra) in enumerate(queries):
        cuts = [o[:d] for o in _linear_orders(levels)]
        n = len(cuts)
        out[f"q{qi}"] = {
            "NumRelRet": Fraction(sum(sum(_rel(g) for g in o) for o in cuts), n),
            "NumNonRelJudgedRet": Fraction(
                sum(sum(_judged(g) and not _rel(g) for g in o) for o in cuts), n
            ),
            "NumRet": Fraction(len(cuts[0])),
        }
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 8))
def test_printed_counts_equal_the_enumerated_expectations_in_every_format(queries, d):
    """Weak-tie runs cut at a depth (inside a tie group or not): in every format, each count
    of each query and their sums print as the enumerated expectation, as an integer exactly
    when it is one."""
    qrels, run = _inputs(queries)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = evaluate(qrels, run, COUNTS, ties="weak", depth=d)
    expect = _expected_counts(queries, d)
    total = {label: sum((e[label] for e in expect.values()), Fraction(0)) for label in COUNTS}
    expect["all"] = total
    for fmt in (*TEXT_FORMATS, *FULL_FORMATS):
        got = _read(render([res], fmt, per_query=True), fmt, COUNTS)
        for q, values in expect.items():
            for label, value in values.items():
                assert _shows(got[q, label], value, fmt), (fmt, q, label, got[q, label], value)
        if fmt != "trec":
            assert _shows(got["all", "rel_ret"], total["NumRelRet"], fmt), fmt
