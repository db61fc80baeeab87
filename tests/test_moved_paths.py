"""The paths of the layout before the stage packages keep working for one release (issue 24):
every old path in cranfield.base.moved_paths.MOVED imports, warns with a DeprecationWarning
naming the new path, and is the new module itself. The rest of the suite uses the new paths only."""

from __future__ import annotations

import importlib
import sys

import pytest

from cranfield.base.moved_paths import FORMER_NAMES, MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_old_path_imports_warns_and_is_the_new_module(old, new):
    sys.modules.pop(old, None)  # an earlier import of the old name would not warn again
    with pytest.warns(DeprecationWarning, match=rf"{old} moved to {new}\b"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new


@pytest.mark.parametrize(
    ("module", "name", "new"),
    sorted((m, n, new) for m, names in FORMER_NAMES.items() for n, new in names.items()),
)
def test_former_name_warns_and_is_the_new_object(module, name, new):
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{name} moved to {new}\.{name}\b"):
        got = getattr(importlib.import_module(module), name)
    assert got is getattr(importlib.import_module(new), name)
