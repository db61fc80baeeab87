"""``cranfield report --judgments``: the leaderboard agreement section shows the numbers of
``cranfield leaderboard``, and opens in Chromium without error (screenshot in $CRANFIELD_SCREENSHOTS
or a temporary folder)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_report_browser import Opened, _shot, browser, shots  # noqa: F401 - fixtures

from _report_pages import table
from conftest import run_cli
from cranfield import examples

QRELS = str(examples.qrels())
RUNS = [str(p) for p in examples.runs().values()]


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    """A second judgment set from the same collection: grade 2 and up relevant (0-1 scale)."""
    path = tmp_path_factory.mktemp("sets") / "strict.qrels"
    lines = []
    for line in Path(QRELS).read_text(encoding="utf-8").splitlines():
        q, it, d, g = line.split()
        lines.append(f"{q} {it} {d} {int(int(g) >= 2)}\n")
    path.write_text("".join(lines))
    return str(path)


@pytest.fixture(scope="module")
def page(tmp_path_factory, strict):
    out = tmp_path_factory.mktemp("report") / "report.html"
    done = run_cli(
        "report", QRELS, *RUNS, "--judgments", strict, "-m", "AP", "-m", "P@10", "-k", "3",
        "-o", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    return out


def test_section_equals_the_leaderboard_command(page, strict):
    done = run_cli("leaderboard", QRELS, strict, "-r", *RUNS, "-m", "AP", "-m", "P@10", "-k",
                   "3", "-f", "csv")  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    want = list(csv.reader(io.StringIO(done.stdout.decode())))
    got = table(page.read_text(encoding="utf-8"), "leaderboard-table")
    assert got == want
    assert len(got) == 3 and got[1][0] == "AP" and got[2][0] == "P@10"


def test_without_judgments_there_is_no_section(tmp_path):
    out = tmp_path / "r.html"
    done = run_cli("report", QRELS, *RUNS[:2], "-m", "AP", "-o", str(out))
    assert done.returncode == 0
    assert 'id="leaderboard"' not in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_section_in_chromium(browser, page, shots):  # noqa: F811 - the imported fixtures
    o = Opened(browser, page)
    assert o.errors == [] and o.requests == []
    rows = o.page.locator("#leaderboard-table tbody tr")
    assert rows.count() == 2
    _shot(o.page.locator("#leaderboard"), shots / "report-leaderboard.png")
    o.page.close()
