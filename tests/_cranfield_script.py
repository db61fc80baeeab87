"""Helpers for the Cranfield tests: load ``scripts/make_cranfield_runs.py`` as a module, find
the public collection's tarball, and tell whether the dev extra (bm25s, PyStemmer) is there."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from conftest import DATA

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "make_cranfield_runs.py"
IR_DATASETS_TARBALL = Path.home() / ".ir_datasets" / "cranfield" / "cran.tar.gz"


def load() -> ModuleType:
    """The script as a module (registered, so that its dataclass resolves its annotations)."""
    name = "make_cranfield_runs"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


SHARED_CRAN = DATA / "cran"
"""The project's reference copy of the collection's three files (``../shared``, beside the
repository, or ``$CRANFIELD_SHARED``), when it is there."""


def source() -> Path | None:
    """``$CRANFIELD_CRAN_SOURCE`` (the tarball or a folder), else ir_datasets' cached tarball,
    else the reference folder ``../shared/data/cran``."""
    env = os.environ.get("CRANFIELD_CRAN_SOURCE")
    if env:
        return Path(env)
    if IR_DATASETS_TARBALL.is_file():
        return IR_DATASETS_TARBALL
    return SHARED_CRAN if (SHARED_CRAN / "cranqrel").is_file() else None


def has_dev_extra() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("bm25s", "Stemmer"))


NO_SOURCE = (
    "the public Cranfield collection is not here: set CRANFIELD_CRAN_SOURCE to cran.tar.gz "
    f"(or let ir_datasets cache it at {IR_DATASETS_TARBALL}, or keep ../shared/data/cran)"
)
NO_DEV = "the dev extra is not installed (pip install -e '.[dev]': bm25s, PyStemmer)"
