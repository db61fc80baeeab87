"""The tables of the docs that are generated from the measure declarations.

``docs/measures.md`` (every measure), ``docs/trec_eval.md`` (trec_eval's names),
``docs/ties.md`` (what ``--ties weak`` computes), ``docs/statistics.md`` (every statistic)
``docs/compare.md`` (the corrections), ``docs/cli.md`` (the output formats),
``docs/input.md`` (the input formats) and ``docs/nuggets.md`` (the nugget scores) each hold a
block between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` that :func:`blocks` renders;
``python -m cranfield.render.generated_docs DOCS_DIR`` rewrites them, and
``tests/measures/test_registry.py`` fails when one is out of date.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["BLOCKS", "blocks", "current", "rewrite"]


def _measures() -> str:
    from cranfield.measures import REGISTRY
    from cranfield.render.measure_list import render_measures

    return render_measures(list(REGISTRY.values()), "markdown")


def _trec_eval() -> str:
    from cranfield.render.measure_list import trec_eval_table

    return trec_eval_table()


def _ties() -> str:
    from cranfield.measures import REGISTRY
    from cranfield.render.measure_list import ties_table

    return ties_table(list(REGISTRY.values()))


def _statistics() -> str:
    from cranfield.render.statistics_docs import statistics_table

    return statistics_table()


def _corrections() -> str:
    from cranfield.render.statistics_docs import corrections_table

    return corrections_table()


def _output_formats() -> str:
    from cranfield.base.output_formats import docs_table

    return docs_table()


def _input_formats() -> str:
    from cranfield.io.format_registry import docs_table

    return docs_table()


def _nugget_scores() -> str:
    from cranfield.nuggets.scores import docs_table

    return docs_table()


BLOCKS: dict[str, tuple[str, Callable[[], str]]] = {
    "measures-table": ("measures.md", _measures),
    "trec-eval-table": ("trec_eval.md", _trec_eval),
    "ties-table": ("ties.md", _ties),
    "statistics-table": ("statistics.md", _statistics),
    "corrections-table": ("compare.md", _corrections),
    "output-formats-table": ("cli.md", _output_formats),
    "input-formats-table": ("input.md", _input_formats),
    "nugget-scores-table": ("nuggets.md", _nugget_scores),
}
"""Block name -> (docs page, renderer)."""


def _bounds(text: str, name: str) -> tuple[int, int]:
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    return text.index(begin) + len(begin), text.index(end)


def blocks() -> dict[str, str]:
    """Block name -> its generated text."""
    return {name: render() for name, (_, render) in BLOCKS.items()}


def current(docs: Path) -> dict[str, str]:
    """Block name -> the text the docs hold now."""
    out = {}
    for name, (page, _) in BLOCKS.items():
        text = (docs / page).read_text(encoding="utf-8")
        a, b = _bounds(text, name)
        out[name] = text[a:b]
    return out


def rewrite(docs: Path) -> list[str]:
    """Rewrite every block that is out of date; returns the pages changed."""
    changed = []
    for name, text in blocks().items():
        path = docs / BLOCKS[name][0]
        old = path.read_text(encoding="utf-8")
        a, b = _bounds(old, name)
        new = old[:a] + text + old[b:]
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path))
    return changed


if __name__ == "__main__":  # pragma: no cover
    for page in rewrite(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(f"rewrote {page}")
