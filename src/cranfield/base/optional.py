"""Lazy imports of heavy optional dependencies, with an error naming the pip extra."""

from __future__ import annotations

import importlib
from types import ModuleType

from cranfield.errors import MissingExtraError


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` telling how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            f"{purpose} needs the optional dependency '{module.split('.')[0]}': "
            f"pip install 'cranfield[{extra}]'"
        ) from exc
