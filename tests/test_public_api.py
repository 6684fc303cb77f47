"""The flat public API of ``battleline_lab``: one table of names, every way of reaching them agrees.

``battleline_lab/__init__.py`` writes the public names in its lazy table (name -> the module it loads from);
``__all__``, ``dir()`` and attribute access come from it, and the imports type checkers read must
name the same things.  Importing the package stays cheap: it loads no other module.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import battleline_lab

ROOT = Path(__file__).resolve().parents[1]
TABLE = battleline_lab._LAZY


def test_all_is_the_table_and_dir_lists_it() -> None:
    assert battleline_lab.__all__ == list(TABLE)
    assert len(set(battleline_lab.__all__)) == len(battleline_lab.__all__)
    assert set(TABLE) <= set(dir(battleline_lab))
    assert "Position" in TABLE and "analyse_claim" in TABLE  # the names the package's docstring uses


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_public_name_is_the_object_its_module_defines(name: str) -> None:
    module = importlib.import_module(f"battleline_lab.{TABLE[name]}")
    assert getattr(battleline_lab, name) is getattr(module, name)


def test_star_import_gives_exactly_the_public_names() -> None:
    namespace: dict[str, object] = {}
    exec("from battleline_lab import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(TABLE)


def test_a_name_outside_the_table_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'loader'"):
        battleline_lab.loader  # noqa: B018  (a former module path: no alias any more)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("battleline_lab.loader")


def test_the_type_checkers_imports_name_the_table() -> None:
    """The ``if TYPE_CHECKING:`` imports never run, so only their text says what mypy sees: each
    public name imported from the module the table gives, and nothing else from the package."""
    tree = ast.parse((ROOT / "battleline_lab" / "__init__.py").read_text(encoding="utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    seen = {
        alias.name: (node.module or "")
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
    }
    assert seen == TABLE


def test_importing_the_package_loads_no_other_module() -> None:
    code = "import sys; before = set(sys.modules); import battleline_lab; print(sorted(set(sys.modules) - before))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['battleline_lab']"
