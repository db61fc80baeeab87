"""``cranfield docs [PAGE]``: the documentation pages, offline, from any install.

The pages ship in the wheel as ``cranfield/docs/*.md``: symbolic links to the checkout's
``docs/*.md`` (maturin ships the package directory, following links to files but not to
folders).  The wheel itself is built and installed in tests/examples/test_cranfield_data.py."""

from __future__ import annotations

import os
import re

from conftest import REPO, run_cli

PAGES = sorted(p.name for p in (REPO / "docs").glob("*.md"))
SHIPPED = REPO / "src" / "cranfield" / "docs"


def test_every_page_has_its_link_in_the_package():
    assert sorted(p.name for p in SHIPPED.iterdir()) == PAGES
    for name in PAGES:
        link = SHIPPED / name
        assert link.is_symlink() and os.readlink(link) == f"../../../docs/{name}", name
        assert link.read_bytes() == (REPO / "docs" / name).read_bytes()


def test_the_list_and_a_page():
    listed = run_cli("docs")
    assert (listed.returncode, listed.stderr) == (0, b""), listed.stderr.decode()
    rows = listed.stdout.decode().splitlines()
    assert [r.split()[0] for r in rows[: len(PAGES)]] == [p.removesuffix(".md") for p in PAGES]
    title = (REPO / "docs" / "ties.md").read_text(encoding="utf-8").partition("\n")[0]
    assert rows[PAGES.index("ties.md")].split(None, 1)[1] == title.lstrip("# ")
    for spelling in ("ties", "ties.md", "docs/ties.md"):
        page = run_cli("docs", spelling)
        assert (page.returncode, page.stderr) == (0, b""), page.stderr.decode()
        assert page.stdout == (REPO / "docs" / "ties.md").read_bytes()


def test_an_unknown_page_is_one_error_with_the_nearest_name():
    proc = run_cli("docs", "scael")
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().splitlines() == [
        "cranfield: error: no documentation page 'scael' (did you mean scale?); "
        "'cranfield docs' lists the pages"
    ]


def test_every_help_text_names_pages_that_exist():
    """A help text or message that points at the docs says ``cranfield docs X`` with a page
    that exists (an installed wheel has no docs/ folder to open)."""
    known = {p.removesuffix(".md") for p in PAGES}
    named = set()
    for path in (REPO / "src" / "cranfield").rglob("*.py"):
        for page in re.findall(r"cranfield docs ([a-z_-]+)", path.read_text(encoding="utf-8")):
            named.add(page)
    assert named and named <= known, named - known
