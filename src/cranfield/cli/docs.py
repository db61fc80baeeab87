"""``cranfield docs [PAGE]``: the documentation pages (``docs/*.md``), read where cranfield is.

The pages ship inside the wheel (``cranfield/docs/``, maturin's ``include`` in
pyproject.toml); in a checkout (an editable install, ``PYTHONPATH=src``) they are the
checkout's ``docs/``.  So the help texts' ``cranfield docs X`` works for every install, with no
network and no project URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cranfield.cli._args import Parser, _did_you_mean
from cranfield.cli._output import write_stdout
from cranfield.errors import CranfieldError, ParameterError

__all__ = ["docs_folder", "page_path", "pages", "run"]


def docs_folder() -> Path:
    """The folder of the pages: the package's ``docs/`` (an installed wheel), else the
    checkout's ``docs/`` beside ``src/`` (an editable install)."""
    import cranfield

    package = Path(cranfield.__file__).resolve().parent
    for folder in (package / "docs", package.parent.parent / "docs"):
        if (folder / "index.md").is_file():
            return folder
    raise CranfieldError(
        f"the documentation pages are not installed (looked in {package / 'docs'} and "
        f"{package.parent.parent / 'docs'})"
    )


def pages() -> dict[str, str]:
    """Every page's name (``scale`` for ``docs/scale.md``) and title (its first heading)."""
    out = {}
    for path in sorted(docs_folder().glob("*.md")):
        first = path.read_text(encoding="utf-8").partition("\n")[0]
        out[path.stem] = first.lstrip("#").strip()
    return out


def page_path(page: str) -> Path:
    """The file of ``page`` (``scale``, ``scale.md`` or ``docs/scale.md``); an unknown page is
    one :class:`~cranfield.errors.ParameterError` with the nearest names."""
    name = page.removeprefix("docs/").removesuffix(".md")
    known = pages()
    if name not in known:
        raise ParameterError(
            f"no documentation page {page!r}{_did_you_mean(name, known)}; "
            "'cranfield docs' lists the pages"
        )
    return docs_folder() / f"{name}.md"


def run(argv: Sequence[str]) -> None:
    """Show the documentation: without PAGE, the list of pages; with PAGE, that page
    (Markdown) on standard output.

    \b
    cranfield docs
    cranfield docs scale
    cranfield docs scale | less
    """
    p = Parser("cranfield docs", run.__doc__, usage="%(prog)s [PAGE]")
    p.add_argument("page", metavar="PAGE", nargs="?", help="A page name, such as scale.")
    a = p.parse(argv)
    if a.page is None:
        known = pages()
        width = max(map(len, known))
        lines = [f"{name:<{width}}  {title}" for name, title in known.items()]
        lines += ["", "Show one with: cranfield docs PAGE"]
        write_stdout("\n".join(lines) + "\n")
        return
    write_stdout(page_path(a.page).read_text(encoding="utf-8"))
