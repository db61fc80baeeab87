"""Helpers of the report tests: read a report page's tables and script data with the standard
library's HTML parser (no cranfield code), and make collections of many runs."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np


class _Tables(HTMLParser):
    """Every ``<table>`` of a page: its id (or ``None``) and its rows of cell texts (header
    row included); also the text of ``<script id=...>`` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[str | None, list[list[str]]]] = []
        self.scripts: dict[str, str] = {}
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None
        self._script: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = []
            self.tables.append((a.get("id"), self._table))
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "script" and a.get("id"):
            self._script = a["id"]
            self.scripts[self._script] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._script is not None:
            self.scripts[self._script] += data


def parse_page(html: str) -> _Tables:
    p = _Tables()
    p.feed(html)
    p.close()
    return p


def table(html: str, table_id: str) -> list[list[str]]:
    for tid, rows in parse_page(html).tables:
        if tid == table_id:
            return rows
    raise KeyError(table_id)


def script_data(html: str) -> dict:
    return json.loads(parse_page(html).scripts["cranfield-data"])


def write_collection(
    folder: Path, queries: int, runs: int, depth: int = 20, seed: int = 0
) -> tuple[str, list[str]]:
    """A TREC qrels file and ``runs`` run files of graded quality (run k finds relevant
    documents with probability falling with k), ``depth`` documents per query."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    qrels = folder / "qrels.txt"
    relevant = {}
    with open(qrels, "w") as f:
        for q in range(queries):
            docs = rng.choice(400, 30, replace=False)
            grades = (rng.random(30) < 0.3).astype(int)
            relevant[q] = set(docs[grades > 0].tolist())
            f.writelines(f"q{q} 0 d{d} {g}\n" for d, g in zip(docs, grades, strict=True))
    paths = []
    for k in range(runs):
        path = folder / f"system-{k:02d}.run"
        skill = 0.9 - 0.8 * k / max(runs - 1, 1)
        lines = []
        for q in range(queries):
            docs = rng.choice(400, depth, replace=False)
            score = rng.random(depth) + skill * np.array([d in relevant[q] for d in docs])
            order = np.argsort(-score, kind="stable")
            lines += [
                f"q{q} Q0 d{docs[i]} {r} {score[i]:.6f} s{k}\n" for r, i in enumerate(order, 1)
            ]
        path.write_text("".join(lines))
        paths.append(str(path))
    return str(qrels), paths
