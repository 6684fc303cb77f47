"""IPython with its package ``__init__`` deferred: what a page's Python needs of it, without the terminal.

ipywidgets imports ``IPython`` for ``get_ipython``, ``IPython.display`` and
``IPython.core.interactiveshell``.  Importing the ``IPython`` package runs its ``__init__``, which
also loads the terminal shell (``IPython.terminal.embed``: prompt_toolkit, pdb, pydoc...) and the
application machinery: in Pyodide that was most of the import time of a reading page's live cells
(``tools/site/live.js``), for code that never runs without a terminal.

:func:`defer_init` puts the real ``IPython`` package in ``sys.modules`` *before its ``__init__`` has
run*: its submodules import as usual (same folder, same files), ``get_ipython`` answers at once, and
the first time anything else is asked of the package (``IPython.embed``, ``IPython.__version__``...)
its real ``__init__`` runs, once, in the same module.  So nothing a program sees changes, only when
the package's ``__init__`` runs.

``get_ipython()`` is exactly IPython's: the shell's instance if one was made, else ``None``.  A shell
can only have been made through ``IPython.core.interactiveshell``, so while that module has not
been imported the answer is ``None`` without importing it (IPython's own ``get_ipython`` imports it
to ask).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

__all__ = ["defer_init", "deferred", "get_ipython"]

PACKAGE = "IPython"
SHELL = "IPython.core.interactiveshell"
#: The packages whose ``__init__`` :func:`defer_init` deferred and that has not run yet.
_WAITING: set[str] = set()


def get_ipython() -> object | None:
    """The IPython shell's instance if one was made, else ``None`` (as ``IPython.get_ipython``)."""
    shell = sys.modules.get(SHELL)
    if shell is None:
        return None  # no shell can have been made without its module
    cls = shell.InteractiveShell
    return cls.instance() if cls.initialized() else None


def defer_init() -> bool:
    """Make ``import IPython`` cheap (module doc).  Returns whether it did: not when IPython is already
    imported (a kernel's) or not installed."""
    if PACKAGE in sys.modules:
        return False
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return False
    package = importlib.util.module_from_spec(spec)  # __path__ and __spec__ set, __init__ not run
    loader = spec.loader
    state = {"ran": False}

    def __getattr__(name: str) -> object:  # noqa: N807 - a module's own attribute hook (PEP 562)
        if name.startswith("__") and name.endswith("__") and name not in ("__version__", "__all__"):
            raise AttributeError(name)  # the import system's own probes (__wrapped__, __path__...)
        if importlib.util.find_spec(f"{PACKAGE}.{name}") is not None and not state["ran"]:
            return importlib.import_module(f"{PACKAGE}.{name}")  # a submodule: as the import system would
        if not state["ran"]:
            state["ran"] = True
            _WAITING.discard(PACKAGE)
            loader.exec_module(package)  # IPython's own __init__, in this same module, once
            if name in package.__dict__:
                return package.__dict__[name]
        raise AttributeError(f"module {PACKAGE!r} has no attribute {name!r}")

    package.__dict__["get_ipython"] = get_ipython
    package.__dict__["__getattr__"] = __getattr__
    sys.modules[PACKAGE] = package
    _WAITING.add(PACKAGE)
    return True


def deferred() -> bool:
    """Whether IPython's ``__init__`` was deferred and has not run yet."""
    return PACKAGE in _WAITING
