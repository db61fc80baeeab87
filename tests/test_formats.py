"""A walk over the format registries (``base/output_formats.py``, ``io/format_registry.py``).

Every command that offers a kind of result offers that kind's format names, and nothing else;
every format said to read back does, to the values of the object written (read by the
standard library, compared with the object itself, not with another rendering); every format is
in the docs, whose tables are the generated ones; every input format is read, named and
detected, to the same qrels and run as TREC text of the same data.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
from pathlib import Path

import pytest

import cranfield
from cranfield.base.output_formats import FORMATS, KINDS, canonical, choices
from cranfield.cli import COMMANDS
from cranfield.errors import ParameterError
from cranfield.io.format_registry import INPUT_FORMATS, names

DOCS = Path(__file__).resolve().parents[1] / "docs"

NOT_RESULTS = {"measures"}  # -f lists the measure declarations: not a result of a run


class _Parsed(Exception):
    """Raised where a command would parse its arguments: its parser is built."""


def _format_choices(monkeypatch, argv: list[str]) -> tuple[str, ...] | None:
    """The ``-f/--format`` choices of the command ``argv`` (``None``: it has no such
    option, or no parser of ours), from the parser it builds when it runs."""
    from cranfield.cli._args import Parser

    built: list[Parser] = []

    def parse(self, args):
        built.append(self)
        raise _Parsed

    monkeypatch.setattr(Parser, "parse", parse)
    module = importlib.import_module(COMMANDS[argv[0]][0])
    try:
        module.run(argv[1:])
    except _Parsed:
        pass
    except SystemExit:  # trec_eval: its own option parser, no --format
        return None
    for action in built[0]._actions if built else ():
        if "--format" in action.option_strings:
            return tuple(action.choices)
    return None


def _argvs(command: str) -> list[list[str]]:
    """The command's subcommands, or the command alone."""
    module = importlib.import_module(COMMANDS[command][0])
    subs = getattr(module, "SUBCOMMANDS", None)
    return [[command, sub] for sub in subs] if subs else [[command]]


def _offered() -> dict[str, list[str]]:
    """command -> the kinds it prints, from the registry."""
    out: dict[str, list[str]] = {}
    for kind in KINDS.values():
        for cmd in kind.commands:
            out.setdefault(cmd.split()[0], []).append(kind.name)
    return out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_offers_its_kinds_formats(monkeypatch, command):
    kinds = _offered().get(command)
    for argv in _argvs(command):
        got = _format_choices(monkeypatch, argv)
        if command in NOT_RESULTS:
            assert kinds is None and got is not None
        elif kinds is None:  # no kind: no --format (report writes HTML, trec_eval its lines)
            assert got is None, f"{argv} has --format but prints no kind of the registry"
        elif all(len(KINDS[k].formats) == 1 for k in kinds):
            assert got is None  # one format: nothing to choose (verify)
        else:
            # the names of its kinds, each once (in the order its help lists them)
            assert sorted(got) == sorted(choices(*kinds)), argv


def test_a_kind_printed_by_two_commands_has_one_list(monkeypatch):
    # compare and nuggets --compare print a comparison: both offer its formats, tsv included
    compared = set(KINDS["comparison"].formats)
    assert "tsv" in compared
    assert compared <= set(_format_choices(monkeypatch, ["compare"]))
    assert compared <= set(_format_choices(monkeypatch, ["nuggets"]))


def test_every_kind_names_declared_formats_and_a_writer():
    for kind in KINDS.values():
        assert set(kind.formats) <= set(FORMATS), kind.name
        assert set(kind.reads_back) <= set(kind.formats), kind.name
        assert all(FORMATS[f].reader is not None for f in kind.reads_back), kind.name
        module, _, attr = kind.writer.partition(":")
        obj = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        assert callable(obj), kind.writer


def test_the_old_text_spelling_is_an_alias_of_table():
    for kind in ("comparison", "suite", "leaderboard", "results"):
        assert canonical(kind, "text") == "table"
        assert canonical(kind, "table") == "table"
    with pytest.raises(ParameterError, match="unknown format 'xml'; choose one of table"):
        canonical("comparison", "xml")


# --------------------------------------------------------------------------- read back
QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 a 2\n2 0 d 1\n2 0 e 1\n3 0 f 1\n"
RUNS = {
    "x": [
        ("1", "a", 3.0),
        ("1", "b", 2.0),
        ("1", "c", 1.0),
        ("2", "e", 3.0),
        ("2", "a", 2.5),
        ("2", "d", 0.5),
        ("3", "f", 0.1),
        ("3", "g", 0.2),
    ],
    "y": [
        ("1", "c", 3.0),
        ("1", "b", 2.0),
        ("1", "a", 1.0),
        ("2", "d", 3.0),
        ("2", "z", 2.5),
        ("2", "a", 0.5),
        ("3", "g", 0.9),
        ("3", "f", 0.2),
    ],
}
MEASURES = ["AP", "nDCG@3", "P@2", "RR"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("fmt")
    (d / "qrels").write_text(QRELS)
    paths = []
    for name, rows in RUNS.items():
        lines = [f"{q} Q0 {doc} {i} {s} {name}\n" for i, (q, doc, s) in enumerate(rows)]
        (d / name).write_text("".join(lines))
        paths.append(str(d / name))
    res = cranfield.evaluate(str(d / "qrels"), paths, MEASURES)
    # thirds, sixths and logarithms: values whose short decimals would not read back
    assert any(not float(v * 1000).is_integer() for r in res for v in r.values.ravel())
    return res


def _read(text: str, fmt: str):
    if fmt == "json":
        return json.loads(text)
    return list(csv.DictReader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))


def _same(cell, value: float) -> bool:
    if math.isnan(value):
        return cell in ("", "nan", None)
    return float(cell) == value  # exactly: the same double


def _values_back(runs, text: str, fmt: str, query: str) -> None:
    """Each run's per-query values and means, read back from ``text`` (``fmt``): JSON's
    ``runs[].per_query``/``aggregate``, or CSV/TSV rows by run and ``query`` column."""
    back = _read(text, fmt)
    checked = 0
    for r in runs:
        means = r.aggregate()
        if fmt == "json":
            doc = next(d for d in back["runs"] if d["name"] == r.run)
            rows = {q: doc["per_query"][q] for q in r.query_ids}
            rows["all"] = doc["aggregate"]
        else:
            rows = {row[query]: row for row in back if row["run"] == r.run}
        for label in r.labels:
            for q, v in zip(r.query_ids, r.column(label).tolist(), strict=True):
                assert _same(rows[q][label], v), (fmt, r.run, q, label)
                checked += 1
            assert _same(rows["all"][label], means[label]), (fmt, r.run, label)
    assert checked == sum(r.values.size for r in runs) > 0


def _results_back(results, fmt: str, tmp_path: Path) -> None:
    from cranfield.render.results_text import render

    _values_back(results, render(list(results), fmt, per_query=True), fmt, "query_id")


def _nuggets_back(results, fmt: str, tmp_path: Path) -> None:
    from cranfield.nuggets import read, score
    from cranfield.nuggets.render import render

    paths = []
    for run, shift in (("r1", 2), ("r2", 3)):
        labels = [(i, a) for i in ("vital", "okay") for a in ("support", "partial_support")]
        records = [
            {
                "qid": f"q{q}",
                "run_id": run,
                "nuggets": [
                    {"text": f"n{k}", "importance": i, "assignment": a}
                    for k, (i, a) in enumerate(labels[: 1 + (q * shift) % 4])
                ],
            }
            for q in range(1, 6)
        ]
        path = tmp_path / f"{run}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        paths.append(str(path))
    assignments = read(paths)
    rs = score(assignments)
    # thirds and sevenths: scores whose short decimals would not read back
    assert any(not float(v * 1000).is_integer() for r in rs for v in r.values.ravel())
    _values_back(rs, render(rs, assignments, fmt, per_query=True), fmt, "query")


def _comparison_back(results, fmt: str, tmp_path: Path) -> None:
    from cranfield.comparing import compare

    cmp = compare(results, MEASURES, test="randomization", permutations=200, seed=1)
    back = _read(cmp.table(fmt), fmt)
    pairs = [(label, p) for label in cmp.labels for p in cmp.pairs[label]]
    assert len(back) == len(pairs) > 0
    for row, (label, p) in zip(back, pairs, strict=True):
        assert row["measure"] == label and (row["a"], row["b"]) == (p.a, p.b)
        for key in ("mean_a", "mean_b", "mean_diff", "statistic", "p_value", "ci_low"):
            value = getattr(p, key)
            if value is not None:
                assert _same(row[key], float(value)), (fmt, label, key)


READ_BACK = {
    "results": _results_back,
    "comparison": _comparison_back,
    "nuggets": _nuggets_back,
}
"""kind -> the check that writes one of its results and reads it back."""


def test_every_kind_that_reads_back_is_checked():
    claimed = {k.name for k in KINDS.values() if k.reads_back}
    assert claimed == set(READ_BACK)


# a pair equal on every query (RR of x and y) warns that superiority is undefined
@pytest.mark.filterwarnings("ignore::cranfield.errors.CranfieldWarning")
@pytest.mark.parametrize("kind, fmt", [(k.name, f) for k in KINDS.values() for f in k.reads_back])
def test_an_output_that_reads_back_gives_the_values_written(results, kind, fmt, tmp_path):
    READ_BACK[kind](results, fmt, tmp_path)


# --------------------------------------------------------------------------- docs
def test_every_format_is_documented_and_the_tables_are_fresh():
    from cranfield.render.generated_docs import blocks, current

    now, made = current(DOCS), blocks()
    for block in ("output-formats-table", "input-formats-table"):
        assert now[block] == made[block], f"{block} is out of date"
    out_rows = now["output-formats-table"].splitlines()
    for f in FORMATS.values():
        row = next(r for r in out_rows if r.startswith(f"| `{f.name}`"))
        for kind in KINDS.values():
            for cmd in kind.commands:
                if f.name in kind.formats and cmd != "verify":
                    assert cmd in row.split("|")[2], (f.name, cmd)
    in_rows = now["input-formats-table"].splitlines()
    for f in INPUT_FORMATS:
        assert any(r.startswith(f"| `{f.name}` |") for r in in_rows), f.name


# --------------------------------------------------------------------------- input
RUN_AS = {
    "trec": lambda rows: "".join(f"{q} Q0 {d} {i + 1} {-(i + 1)} t\n" for i, (q, d) in rows),
    "msmarco": lambda rows: "".join(f"{q} {d} {i + 1}\n" for i, (q, d) in rows),
    "csv": lambda rows: (
        "qid,docno,score\n" + "".join(f"{q},{d},{-(i + 1)}\n" for i, (q, d) in rows)
    ),
    "tsv": lambda rows: (
        "qid\tdocno\tscore\n" + "".join(f"{q}\t{d}\t{-(i + 1)}\n" for i, (q, d) in rows)
    ),
}
QRELS_AS = {
    "trec": lambda rows: "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows),
    "csv": lambda rows: "qid,docno,relevance\n" + "".join(f"{q},{d},{g}\n" for q, d, g in rows),
    "tsv": lambda rows: "qid\tdocno\trelevance\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in rows),
}


def _ranked() -> list[tuple[int, tuple[str, str]]]:
    # ranks restart at 1 for each query, as an MS MARCO run's do
    out, seen = [], {}
    for q, d in [("1", "a"), ("1", "b"), ("1", "c"), ("2", "e"), ("2", "a")]:
        i = seen.get(q, 0)
        seen[q] = i + 1
        out.append((i, (q, d)))
    return out


def test_every_input_format_is_declared_with_a_writer_here():
    assert set(RUN_AS) == set(names("run")) - {"auto"}
    assert set(QRELS_AS) == set(names("qrels")) - {"auto"}


@pytest.mark.parametrize("fmt", sorted(RUN_AS))
def test_every_run_format_is_detected_and_read_as_trec_text_of_the_same_run(tmp_path, fmt):
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 c 1\n2 0 a 1\n")
    rows = _ranked()
    for f, write in RUN_AS.items():
        (tmp_path / f"run.{f}").write_text(write(rows))
    path = tmp_path / f"run.{fmt}"
    want = cranfield.evaluate(str(tmp_path / "qrels"), str(tmp_path / "run.trec"), ["AP", "RR"])
    for given in ("auto", fmt):
        run = cranfield.read_run(str(path), name="r", format=given)
        got = cranfield.evaluate(str(tmp_path / "qrels"), run, ["AP", "RR"])
        assert got.query_ids == want.query_ids
        assert got.values.tolist() == want.values.tolist(), given


@pytest.mark.parametrize("fmt", sorted(QRELS_AS))
def test_every_qrels_format_is_detected_and_read_as_trec_text_of_the_same_qrels(tmp_path, fmt):
    rows = [("1", "a", 1), ("1", "b", 0), ("2", "x", 2)]
    trec = tmp_path / "q.trec"
    trec.write_text(QRELS_AS["trec"](rows))
    path = tmp_path / f"q.{fmt}"
    path.write_text(QRELS_AS[fmt](rows))
    want = cranfield.read_qrels(str(trec)).to_frame()
    for given in ("auto", fmt):
        got = cranfield.read_qrels(str(path), format=given).to_frame()
        assert got.equals(want), given
