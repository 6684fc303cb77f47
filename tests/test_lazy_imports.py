"""What a reading page's Python imports before a lesson's cells run (docs/site.md, "Live cells").

``battleline_lab.widgets.lazy_ipython.defer_init`` (run by ``tools/site/live.js`` before the host is
imported) puts IPython in place with its package ``__init__`` deferred: ipywidgets imports what it
needs of IPython, and the rest of ``__init__`` (in Pyodide's IPython, the terminal shell) runs only
when something asks the package for it.  ``battleline_lab.widgets`` loads each of its names on first
use, so the game's module does not load the gym.  Each case runs in a fresh interpreter (what is
imported is the point).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import battleline_lab.widgets as bw

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def fresh(code: str) -> object:
    """Run ``code`` in a new Python; it prints one JSON value last, returned here."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


DEFER = "import json, sys\nfrom battleline_lab.widgets.lazy_ipython import defer_init, deferred\ndid = defer_init()\n"

# (id, code after DEFER, what it prints)
DEFERRED_CASES = [
    (
        "ipywidgets-anywidget-and-the-host-import-without-ipython-init",
        "import ipywidgets, anywidget\nimport battleline_lab.widgets.host\n"
        "print(json.dumps({'did': did, 'deferred': deferred()}))",
        {"did": True, "deferred": True},
    ),
    (
        "get-ipython-is-none-without-a-shell-as-ipythons-own",
        "import ipywidgets\nfrom IPython import get_ipython\n"
        "print(json.dumps({'none': get_ipython() is None, 'deferred': deferred()}))",
        {"none": True, "deferred": True},
    ),
    (
        "submodules-import-as-usual",
        "from IPython.display import HTML, display\nfrom IPython.core.display import SVG\n"
        "print(json.dumps({'html': HTML('<b>x</b>').data, 'svg': SVG.__name__, 'deferred': deferred()}))",
        {"html": "<b>x</b>", "svg": "SVG", "deferred": True},
    ),
    (
        "a-shell-made-is-the-one-get-ipython-returns",
        "from IPython.core.interactiveshell import InteractiveShell\nshell = InteractiveShell.instance()\n"
        "import IPython\nprint(json.dumps({'same': IPython.get_ipython() is shell}))",
        {"same": True},
    ),
    (
        "anything-else-asked-runs-ipythons-own-init-once",
        "import ipywidgets, IPython\nv = IPython.__version__\nafter = deferred()\n"
        "print(json.dumps({'version': v, 'deferred': after, 'embed': callable(IPython.embed),"
        " 'start': callable(IPython.start_ipython)}))",
        {"version": version("ipython"), "deferred": False, "embed": True, "start": True},
    ),
    (
        "an-unknown-name-is-still-an-attribute-error",
        "import IPython\ntry:\n    IPython.no_such_name\n    found = True\nexcept AttributeError:\n    found = False\n"
        "print(json.dumps({'found': found}))",
        {"found": False},
    ),
]


@pytest.mark.parametrize(
    ("code", "expected"),
    [(code, expected) for _id, code, expected in DEFERRED_CASES],
    ids=[c[0] for c in DEFERRED_CASES],
)
def test_ipython_init_deferred(code: str, expected: dict[str, object]) -> None:
    assert fresh(DEFER + code) == expected


def test_defer_init_leaves_an_imported_ipython_alone() -> None:
    got = fresh(
        "import json, IPython\nbefore = IPython\nfrom battleline_lab.widgets.lazy_ipython import defer_init, deferred\n"
        "did = defer_init()\nimport sys\n"
        "print(json.dumps({'did': did, 'same': sys.modules['IPython'] is before, 'deferred': deferred()}))"
    )
    assert got == {"did": False, "same": True, "deferred": False}


#: The lessons whose cells a reading page runs in its own Python (tools/site/live.js), and the
#: live widget each must display.
LIVE_LESSONS = [
    ("01-cards-and-formations.ipynb", "bl-explorer"),
    ("05-puzzle-gym.ipynb", "bl-gym"),
    ("06-play-a-game.ipynb", "bl-game"),
    ("08-three-at-the-table.ipynb", "bl-game"),
    ("teachers/02-puzzle-editor.ipynb", "bl-editor"),
]


@pytest.mark.parametrize(("lesson", "kind"), LIVE_LESSONS, ids=[name for name, _ in LIVE_LESSONS])
def test_a_live_lessons_cells_run_with_ipython_deferred(lesson: str, kind: str) -> None:
    """The lesson runs as Run All would (no cell fails, its live widget displayed) and never needed
    IPython's own ``__init__``."""
    path = NOTEBOOKS / lesson
    got = fresh(
        DEFER + "from pathlib import Path\nfrom battleline_lab.widgets.host import Host\n"
        f"book = json.loads(Path({str(path)!r}).read_text(encoding='utf-8'))\n"
        "cells = [''.join(c['source']) for c in book['cells'] if c['cell_type'] == 'code']\n"
        "ran = Host().run(cells)\n"
        "classes = [ran['state'][r]['state'].get('_dom_classes', []) for c in ran['cells'] for r in c['roots']]\n"
        "print(json.dumps({'error': ran['error'], 'cells': len(ran['cells']) == len(cells),"
        f" 'shown': any({kind!r} in k for k in classes), 'deferred': deferred()}}))"
    )
    assert got == {"error": None, "cells": True, "shown": True, "deferred": True}


# -- battleline_lab.widgets: each name loads on first use --------------------------------------------

#: (the module imported, the widgets modules it must not load)
WIDGET_MODULES = [
    (
        "battleline_lab.widgets.game",
        [
            "battleline_lab.widgets.gym",
            "battleline_lab.widgets.puzzle",
            "battleline_lab.widgets.explorer",
            "battleline_lab.training.trainer",
        ],
    ),
    (
        "battleline_lab.widgets.host",
        ["battleline_lab.widgets.gym", "battleline_lab.widgets.game", "battleline_lab.widgets.explorer"],
    ),
    ("battleline_lab.widgets.lazy_ipython", ["ipywidgets", "battleline_lab.widgets._common"]),
]


@pytest.mark.parametrize(("module", "absent"), WIDGET_MODULES, ids=[m for m, _ in WIDGET_MODULES])
def test_a_widgets_module_loads_only_what_it_uses(module: str, absent: list[str]) -> None:
    got = fresh(
        f"import json, sys\nimport {module}\nprint(json.dumps(sorted(m for m in {absent!r} if m in sys.modules)))"
    )
    assert got == []


@pytest.mark.parametrize("name", bw.__all__)
def test_each_exported_widget_name_is_its_modules_own(name: str) -> None:
    value = getattr(bw, name)
    module = importlib.import_module(bw._LAZY[name], bw.__name__)
    assert value is getattr(module, name)
    assert name in dir(bw)


def test_an_unknown_widgets_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchWidget'"):
        bw.NoSuchWidget  # noqa: B018
