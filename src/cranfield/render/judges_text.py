"""``cranfield judges`` as text, JSON or CSV (what :func:`cranfield.judges` returns).

Undefined values (NaN) are ``undefined`` in the text, empty in CSV and ``null`` in JSON;
the warnings that say why close the text and are a list in the JSON.
"""

from __future__ import annotations

import json

from cranfield.judgments.agreement_result import ALL_STATISTICS, PAIR_STATISTICS, JudgmentAgreement
from cranfield.render.delimited import delimited
from cranfield.render.table import text_table

__all__ = ["render_judges"]


def _num(x: float, digits: int) -> str:
    return "undefined" if x != x else f"{x:.{digits}f}"


def _csv_num(x: float) -> str:
    if isinstance(x, int):
        return str(x)
    return "" if x != x else repr(float(x))


def _share(x: float) -> str:
    return "undefined" if x != x else f"{100 * x:.1f}%"


def render_judges(r: JudgmentAgreement, digits: int = 4, fmt: str = "table", worst: int = 10):
    """The text (``table``), ``json`` or ``csv`` of a judgment agreement."""
    if fmt == "json":
        return json.dumps(r.to_dict(), indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        return _csv(r)
    return _text(r, digits, worst)


def _statistics_table(r: JudgmentAgreement, rows, digits: int, first=None) -> str:
    """Value (and bootstrap interval, when there is one) of each statistic, graded and
    binarised: ``rows`` are (name, Estimate, binarised Estimate); ``first`` a row of text
    put first (observed agreement)."""
    level = f"{100 * r.confidence:g}%"
    boot = r.bootstrap > 0
    head = ["statistic", "value"]
    head += [f"low {level}", f"high {level}"] if boot else []
    head += ["binarised"] + (["low", "high"] if boot else [])
    lines = [] if first is None else [[*first, *[""] * (len(head) - len(first))]]
    for name, e, b in rows:
        cells = [name]
        for est in (e, b):
            cells.append(_num(est.value, digits))
            if boot:
                cells += [_num(est.low, digits), _num(est.high, digits)]
        lines.append(cells)
    return text_table(head, lines)


def _text(r: JudgmentAgreement, digits: int, worst: int) -> str:
    d = digits
    mapped = any(s.mapping for s in r.sets)
    head = ["set", "source", "judgments", "not judged (<0)", "queries", "grades"]
    rows = [
        [
            s.name,
            s.source,
            str(s.judgments),
            str(s.unjudged),
            str(s.queries),
            ",".join(map(str, s.grades)),
            *([s.mapping_text() or "none"] if mapped else []),
        ]
        for s in r.sets
    ]
    out = [text_table([*head, *(["mapping"] if mapped else [])], rows, left=2)]
    if r.bootstrap:
        boot = (
            f"{100 * r.confidence:g}% intervals: percentile bootstrap, {r.bootstrap} "
            f"resamples of the {r.queries} queries, seed {r.seed}"
        )
    else:
        boot = "no bootstrap intervals"
    out.append(
        f"\n{r.units} pairs judged by two sets or more ({r.queries} "
        f"{'query' if r.queries == 1 else 'queries'}), {r.common} "
        f"by every set; binarised: grade >= {r.rel} is relevant; {boot}.\n"
    )
    for p in r.pairs:
        out.append(
            f"\n{p.a} against {p.b}: {p.both} pairs judged by both, {p.only_a} by {p.a} "
            f"only, {p.only_b} by {p.b} only\n"
        )
        stats = [(n, p.statistics[n], p.binary_statistics[n]) for n in PAIR_STATISTICS]
        out.append(
            _statistics_table(r, stats, d, first=["observed agreement", _num(p.observed, d)])
        )
        grades = [str(g) for g in p.grades]
        out.append(f"\nconfusion matrix (rows {p.a}, columns {p.b}), agreement per grade\n")
        conf_rows = [
            [g, *(str(int(c)) for c in row), _num(p.per_grade[int(g)], d)]
            for g, row in zip(grades, p.confusion, strict=True)
        ]
        out.append(text_table([f"{p.a}\\{p.b}", *grades, "agreement"], conf_rows))
        mean = p.mean_difference
        out.append(
            f"\nleniency: mean grade {p.b} - {p.a} = "
            f"{'undefined' if mean != mean else f'{mean:+.{d}f}'}"
            f"; {p.b} grades higher on {_share(p.b_higher)} of the pairs, {p.a} on "
            f"{_share(p.a_higher)}\n"
        )
        shown = p.per_query[:worst]
        if shown:
            out.append(
                f"\nthe {len(shown)} of {len(p.per_query)} queries that disagree most "
                "(lowest kappa first)\n"
            )
            out.append(
                text_table(
                    ["query", "pairs", "agreement", "kappa"],
                    [
                        [q.query, str(q.pairs), _num(q.agreement, d), _num(q.kappa, d)]
                        for q in shown
                    ],
                )
            )
    out.append("\nall sets at once\n")
    stats = [(n, r.statistics[n], r.binary_statistics[n]) for n in ALL_STATISTICS]
    out.append(_statistics_table(r, stats, d))
    if r.warnings:
        out.append("\nwarnings:\n")
        out.extend(f"- {w}\n" for w in r.warnings)
    return "".join(out)


def _csv(r: JudgmentAgreement) -> str:
    """One long table: ``scope`` (``A-B`` or ``all``), ``quantity``, ``value``, ``low``,
    ``high``; confusion cells are ``confusion:<grade a>:<grade b>``, per-query kappas
    ``query:<id>:kappa``."""
    rows: list[list[str]] = []

    nan = float("nan")

    def add(scope: str, quantity: str, value: float, low: float = nan, high: float = nan):
        rows.append([scope, quantity, _csv_num(value), _csv_num(low), _csv_num(high)])

    for p in r.pairs:
        scope = f"{p.a}-{p.b}"
        add(scope, "pairs_in_both", p.both)
        add(scope, f"pairs_in_{p.a}_only", p.only_a)
        add(scope, f"pairs_in_{p.b}_only", p.only_b)
        add(scope, "observed_agreement", p.observed)
        for name in PAIR_STATISTICS:
            e = p.statistics[name]
            add(scope, name, e.value, e.low, e.high)
        for name in PAIR_STATISTICS:
            e = p.binary_statistics[name]
            add(scope, f"binarised_{name}", e.value, e.low, e.high)
        for ga, row in zip(p.grades, p.confusion, strict=True):
            for gb, c in zip(p.grades, row, strict=True):
                add(scope, f"confusion:{ga}:{gb}", int(c))
        for g, v in p.per_grade.items():
            add(scope, f"agreement_on_grade:{g}", v)
        add(scope, "mean_difference", p.mean_difference)
        add(scope, f"{p.b}_higher", p.b_higher)
        add(scope, f"{p.a}_higher", p.a_higher)
        for q in p.per_query:
            add(scope, f"query:{q.query}:kappa", q.kappa)
    for name in ALL_STATISTICS:
        e = r.statistics[name]
        add("all", name, e.value, e.low, e.high)
    for name in ALL_STATISTICS:
        e = r.binary_statistics[name]
        add("all", f"binarised_{name}", e.value, e.low, e.high)
    return delimited(["scope", "quantity", "value", "low", "high"], rows)
