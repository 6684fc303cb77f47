"""The layers (docs/architecture.md): every module of the package imports cleanly on its own.

The layers contract itself is import-linter's (``lint-imports``, pyproject.toml), run by
``./dev test`` and ``./dev test --quick``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_of_the_package_imports_without_a_deprecation_warning() -> None:
    """Every module (a command's ``__main__`` aside: importing it runs the command) imports in a fresh
    interpreter, and nothing on the way warns that it is deprecated."""
    code = (
        "import importlib, pkgutil, warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "import battleline_lab\n"
        "names = [m.name for m in pkgutil.walk_packages(battleline_lab.__path__, 'battleline_lab.')"
        " if not m.name.endswith('__main__')]\n"
        "for name in names: importlib.import_module(name)\n"
        "print(len(names))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50  # the walk found the package's modules, not an empty path
