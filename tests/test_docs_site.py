"""docs/ builds as a site with mkdocs in strict mode, offline: a link to a missing page or
anchor, or a page left out of the navigation, fails the build (mkdocs.yml)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import REPO

pytest.importorskip("mkdocs")
pytestmark = pytest.mark.slow


def _build(config, site) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True, timeout=600,
    )  # fmt: skip


def test_the_docs_build_as_a_site_without_a_warning(tmp_path):
    done = _build(REPO / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr.decode()
    pages = {p.stem for p in (REPO / "docs").glob("*.md")}
    built = {p.parent.name for p in (tmp_path / "site").glob("*/index.html")}
    assert pages - {"index"} == built  # every page made it
    assert b"WARNING" not in done.stderr


def test_a_broken_link_fails_the_build(tmp_path):
    """The check can fail: a copy of the docs with one link to a missing anchor."""
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "compare.md"
    page.write_text(page.read_text() + "\nSee [the rules](input.md#no-such-section).\n")
    done = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert b"no-such-section" in done.stderr
