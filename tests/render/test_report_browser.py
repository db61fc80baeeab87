"""The report in a real browser: Debian's chromium driven by Playwright for Python (nothing
mocked).  The page must load with no console error and no request beyond its own file, show
the numbers of ``cranfield compare --format json``, sort its per-query table on a click, print
without its controls, open with 10,000 queries and 50 runs, and lay out 12 runs with long
names that share a prefix.

Screenshots (light, dark, 50 runs) go to a temporary folder, or to $CRANFIELD_SCREENSHOTS.
Needs ``playwright`` (the test extra) and /usr/bin/chromium (``.ci/run`` installs it);
skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

import pytest

from _report_pages import write_collection
from conftest import run_cli
from cranfield import examples

CHROMIUM = Path(os.environ.get("CRANFIELD_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
QRELS = str(examples.qrels())
RUNS = [str(examples.runs()[n]) for n in ("bm25", "good", "boolean", "near_oracle")]
MEASURES = ["-m", "AP", "-m", "nDCG@10", "-m", "P@10"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile, sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=FLAGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        yield context
        context.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("CRANFIELD_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class Opened:
    """A page of the report, with every console message, page error and request seen."""

    def __init__(self, browser, path: Path, scheme: str = "light") -> None:
        self.page = browser.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.emulate_media(color_scheme=scheme)
        url = path.resolve().as_uri()
        self.page.on(
            "console", lambda m: m.type in ("error", "warning") and self.errors.append(m.text)
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: r.url != url and self.requests.append(r.url))

        def route(r):
            if r.request.url == url:
                r.continue_()
            else:
                self.requests.append(r.request.url)
                r.abort()

        self.page.route("**/*", route)
        self.page.goto(url)
        self.page.wait_for_selector("html[data-ready]")

    def column(self, col: int) -> list[str]:
        return self.page.eval_on_selector_all(
            f"#pq-table tbody tr td:nth-child({col + 1})", "cells => cells.map(c => c.textContent)"
        )


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser") / "report.html"
    done = run_cli("report", QRELS, *RUNS, *MEASURES, "--baseline", "bm25.txt.gz", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    return out


def _compare_json() -> dict:
    done = run_cli(
        "compare", QRELS, *RUNS, *MEASURES, "--baseline", "bm25.txt.gz", "--format", "json"
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def _shot(target, path: Path, **kw) -> None:
    """A screenshot, tried again after a pause: Chromium's compositor sometimes refuses a
    capture ("Unable to capture screenshot") on a loaded machine; a page that cannot be
    captured three times fails the test."""

    for attempt in range(3):
        try:
            target.screenshot(path=str(path), **kw)
            break
        except Exception as exc:  # playwright's Error
            if "Unable to capture screenshot" not in str(exc) or attempt == 2:
                raise
            time.sleep(1)
    assert path.stat().st_size > 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_loads_with_no_error_and_no_request(browser, report, shots, scheme):
    o = Opened(browser, report, scheme)
    assert o.errors == [] and o.requests == []
    background = o.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgb(255, 255, 255)" if scheme == "light" else "rgb(21, 23, 27)")
    assert o.page.locator("#pr-chart svg path.series").count() == len(RUNS)
    assert o.page.locator("#gain-chart svg path.series").count() == len(RUNS)
    _shot(o.page, shots / f"report-{scheme}.png", full_page=True)
    for section in ("summary", "per-query", "curves"):
        _shot(o.page.locator(f"#{section}"), shots / f"report-{scheme}-{section}.png")
    o.page.close()


def test_summary_numbers_equal_compare_json(browser, report):
    want = _compare_json()
    o = Opened(browser, report)
    rows = o.page.eval_on_selector_all(
        "#summary-table tbody tr",
        "rows => rows.map(r => [r.cells[1].textContent, "
        "...Array.from(r.querySelectorAll('.mean')).map(c => c.textContent)])",
    )
    assert [r[0] for r in rows] == want["runs"]
    for run, *means in rows:
        assert means == [
            f"{want['measures'][m]['means'][run]:.4f}" for m in ("AP", "nDCG@10", "P@10")
        ]
    marks = o.page.eval_on_selector_all(
        "#summary-table tbody tr",
        "rows => rows.map(r => r.cells[2].querySelector('sup')?.textContent || '')",
    )
    for run, mark in zip(want["runs"], marks, strict=True):
        if run == want["baseline"]:
            continue
        p = next(p for p in want["measures"]["AP"]["pairs"] if p["b"] == run)
        assert mark == ("" if not p["significant"] else "▲" if p["mean_diff"] > 0 else "▼")
    # Keen's wins / losses / ties of the pair on screen
    text = o.page.inner_text("#md-wlt")
    p = want["measures"]["AP"]["pairs"][0]
    assert text.startswith(f"{p['b']} better on {p['wins']} · {p['a']} better on {p['losses']}")
    assert f"equal on {p['ties']}" in text
    o.page.close()


def test_clicking_a_header_sorts_the_per_query_table(browser, report):
    done = run_cli("evaluate", QRELS, *RUNS, "-m", "AP", "-q", "-c", "--format", "json")
    good = {q: v["AP"] for q, v in json.loads(done.stdout)["runs"][1]["per_query"].items()}
    o = Opened(browser, report)
    header = o.page.locator("#pq-table th", has_text="good.txt.gz")
    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    ascending = [float(x) for x in o.column(3)]
    assert ascending == sorted(float(f"{v:.4f}") for v in good.values())
    queries = o.column(0)
    assert [f"{good[q]:.4f}" for q in queries] == o.column(3)
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    assert [float(x) for x in o.column(3)] == sorted(ascending, reverse=True)
    # differences to the baseline, sorted; then a filter on the query ids
    o.page.select_option("#pq-view", "diffs")
    o.page.locator("#pq-table th", has_text="Δ good.txt.gz").click()
    diffs = [float(x) for x in o.column(3)]
    assert diffs == sorted(diffs) and o.column(3)[-1].startswith("+")
    o.page.fill("#pq-filter", "41")
    assert sorted(o.column(0)) == sorted(q for q in good if "41" in q)
    assert o.errors == []
    o.page.close()


def test_prints_without_its_controls(browser, report, shots):
    o = Opened(browser, report)
    o.page.emulate_media(media="print")
    assert not o.page.is_visible("#pq-measure") and not o.page.is_visible("nav.toc")
    pdf = o.page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    (shots / "report.pdf").write_bytes(pdf)
    assert o.errors == []
    o.page.close()


def test_fifty_runs_screenshot(browser, tmp_path_factory, shots):
    folder = tmp_path_factory.mktemp("fifty")
    qrels, runs = write_collection(folder, queries=200, runs=50, depth=30)
    out = folder / "report.html"
    done = run_cli("report", qrels, *runs, *MEASURES, "--baseline", "system-00.run", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    o = Opened(browser, out)
    assert o.errors == [] and o.requests == []
    assert o.page.locator("#pr-chart svg path.series").count() == 50
    assert o.page.locator("#summary-table tbody tr").count() == 50
    _shot(o.page, shots / "report-50-runs.png", full_page=True)
    o.page.close()


def test_opens_with_ten_thousand_queries_and_fifty_runs(browser, tmp_path_factory):
    folder = tmp_path_factory.mktemp("large")
    qrels, runs = write_collection(folder, queries=10_000, runs=50, depth=10, seed=1)
    out = folder / "report.html"
    done = run_cli("report", qrels, *runs, *MEASURES, "--baseline", "system-00.run", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    o = Opened(browser, out)
    assert o.errors == [] and o.requests == []
    # the table draws one page of rows, not 10,000 x 50 cells
    assert o.page.locator("#pq-table tbody tr").count() == 100
    assert o.page.inner_text("#pq-info") == "queries 1–100 of 10000"
    o.page.close()


PREFIX = "uogTr_bm25_porter_stopwords_rm3_fb10_terms20_qe"  # 48 characters all runs share


@pytest.fixture(scope="module")
def long_names(tmp_path_factory) -> tuple[Path, list[str]]:
    """A report of 12 runs whose names share a 40-character prefix (issue 27: one run column
    per 508 px, the ties table overflowing, every name shown as the same prefix)."""
    folder = tmp_path_factory.mktemp("long-names")
    qrels, runs = write_collection(folder, queries=60, runs=12, depth=30, seed=3)
    names = []
    for k, path in enumerate(runs, start=1):
        long = folder / f"{PREFIX}_run{k}"
        os.replace(path, long)
        names.append(long.name)
    out = folder / "report.html"
    done = run_cli("report", qrels, *(str(folder / n) for n in names), *MEASURES, "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    return out, names


def test_long_run_names_are_shortened_to_what_differs(browser, long_names, shots):
    out, names = long_names
    o = Opened(browser, out)
    assert o.errors == [] and o.requests == []
    labels = [f"…run{k}" for k in range(1, 13)]
    page = o.page
    # the per-query table: one narrow column per run, headed by the part that differs, the
    # full name on hover; the table fits the page (it took 6,234 px for 1,150 before)
    heads = page.eval_on_selector_all(
        "#pq-table thead th",
        "ths => ths.map(t => [t.textContent, t.title, t.getBoundingClientRect().width])",
    )
    assert [h[0] for h in heads[2:]] == labels
    assert [h[1] for h in heads[2:]] == [f"{names[0]} (reference)", *names[1:]]
    assert max(h[2] for h in heads[2:]) < 120, heads
    wrap = page.eval_on_selector("#pq-wrap", "w => [w.scrollWidth, w.clientWidth]")
    assert wrap[0] <= wrap[1], wrap
    # no table of the page overflows its box (the ties and pairwise tables did), the
    # collapsed pairwise tables opened
    page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
    assert page.locator("#pairs table tbody tr").count() == 3 * 66
    overflow = page.eval_on_selector_all(
        ".scroll",
        "ss => ss.filter(s => s.scrollWidth > s.clientWidth + 1)"
        ".map(s => (s.querySelector('table') || s).id || s.textContent.slice(0, 40))",
    )
    assert overflow == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the summary's run cells and the ties table: labels, the full name on hover
    cells = page.eval_on_selector_all(
        "#summary-table td.run", "tds => tds.map(t => [t.textContent, t.title])"
    )
    assert cells == [list(x) for x in zip(labels, names, strict=True)]
    ties = page.eval_on_selector_all(
        "#ties-table td:first-child span", "s => s.map(x => [x.textContent, x.title])"
    )
    assert set(map(tuple, ties)) == set(zip(labels, names, strict=True))
    # the legend of the names: the runs table, every full name with its label
    rows = page.eval_on_selector_all(
        "#runs-table tbody tr",
        "trs => trs.map(r => [r.cells[0].textContent, r.cells[1].textContent])",
    )
    assert rows == [list(x) for x in zip(names, labels, strict=True)]
    legend = page.eval_on_selector_all(
        "#pr-chart .legend li span", "s => s.map(x => [x.textContent, x.title])"
    )
    assert legend == [list(x) for x in zip(labels, names, strict=True)]
    _shot(page, shots / "report-long-names.png", full_page=True)
    o.page.close()
