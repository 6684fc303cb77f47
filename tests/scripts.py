"""Load a stand-alone script of the checkout (a benchmark, a tool) as a module, so tests can call its functions.

>>> import sys
>>> module = load_script(Path(__file__), "scripts_loaded_again")
>>> module.load_script.__doc__ == load_script.__doc__, sys.modules["scripts_loaded_again"] is module
(True, True)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path``, run as the module ``name`` (registered in ``sys.modules`` if not there yet)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
