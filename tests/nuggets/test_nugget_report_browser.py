"""The nugget report (``cranfield nuggets --report``) in a real browser, with the fixtures of
test_report_browser.py (Debian's chromium driven by Playwright; skipped with the reason where
either is missing): no console error and no request beyond the page; the per-query table has
no relevant-documents column (no qrels) and shows each response's scores of
``cranfield nuggets --per-query --format json``; it sorts on a click; no curve is drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_nugget_report import RUNS, SCORES, _paths, _records
from test_report_browser import Opened, browser  # noqa: F401 (the fixture)

from conftest import run_cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def nugget_page(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("nugget-browser")
    for seed, run in enumerate(RUNS):
        text = "".join(json.dumps(r) + "\n" for r in _records(run, seed))
        (folder / f"{run}.jsonl").write_text(text, encoding="utf-8")
    done = run_cli("nuggets", *_paths(folder), "--report", "page.html", cwd=folder)
    assert done.returncode == 0, done.stderr.decode()
    per_query = run_cli("nuggets", *_paths(folder), "-q", "-f", "json", cwd=folder)
    assert per_query.returncode == 0, per_query.stderr.decode()
    values = {r["name"]: r["per_query"] for r in json.loads(per_query.stdout)["runs"]}
    return folder / "page.html", values


def test_loads_with_no_error_and_shows_each_responses_scores(browser, nugget_page):  # noqa: F811
    path, values = nugget_page
    o = Opened(browser, path)
    assert o.errors == [] and o.requests == []
    heads = o.page.eval_on_selector_all("#pq-table thead th", "ths => ths.map(t => t.textContent)")
    assert heads == ["query", *RUNS]  # no "R": nothing was judged
    assert o.page.locator("#pr-chart, #gain-chart, #ties-table").count() == 0
    assert o.page.locator("#md-chart svg").count() > 0  # Keen's magnitudes are drawn
    for k, score in enumerate(SCORES):
        o.page.select_option("#pq-measure", str(k))
        queries = o.column(0)
        assert len(queries) == len(values["hybrid-rag"])  # the compared questions
        for j, run in enumerate(RUNS, start=1):
            assert o.column(j) == [f"{values[run][q][score]:.4f}" for q in queries]
    # sorting by a run's column, as in the report of rankings
    header = o.page.locator("#pq-table th", has_text="dense-rag")
    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    shown = [float(x) for x in o.column(2)]
    assert shown == sorted(shown) and len(set(shown)) > 1
    assert o.errors == []
    o.page.close()
