"""A package's exported names, each loaded from its module on first use (PEP 562).

``battleline_lab.widgets`` re-exports the names of its modules; importing one of them (the game's,
on a reading page) should not load the others, so the package's ``__getattr__`` and ``__dir__``
come from :func:`lazy_exports`, made here, and the package defines nothing of its own.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, table: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: each name of ``table`` (name -> its module, relative
    to the package) loads on first use and is then kept in the package."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - a module's attribute hook (PEP 562)
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
