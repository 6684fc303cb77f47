"""The layers (docs/architecture.md): moved modules keep their former import paths, as aliases.

The layers contract itself is import-linter's (``lint-imports``, pyproject.toml), run by
``./dev test`` and ``./dev test --quick``.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import battleline_lab

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("old", "new"), sorted(battleline_lab.MOVED.items()))
def test_a_former_module_path_is_the_same_module_with_a_deprecation_warning(old: str, new: str) -> None:
    module = importlib.import_module(new)
    saved = sys.modules.pop(old, None)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            alias = importlib.import_module(old)
        assert alias is module and module.__name__ == new and module.__spec__.name == new
        assert [str(w.message) for w in caught if w.category is DeprecationWarning] == [f"{old} is now {new}"]
    finally:
        if saved is not None:
            sys.modules[old] = saved


def test_no_module_is_left_at_a_former_path() -> None:
    for old in battleline_lab.MOVED:
        path = ROOT.joinpath(*old.split("."))
        assert not path.with_suffix(".py").exists() and not (path / "__init__.py").exists(), old


def test_the_package_itself_imports_no_former_path() -> None:
    """Inside the package every import names the new place: importing everything warns about nothing."""
    names = sorted(set(battleline_lab.MOVED.values()))
    code = (
        "import importlib, warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "import battleline_lab.cli, battleline_lab.pytest_plugin, battleline_lab.course"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)
