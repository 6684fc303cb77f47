"""Re-run the lesson notebooks and save them with stable widget ids, without timestamps (``./dev lessons``).

The lessons are committed with their outputs and the widget state nbconvert saves
(docs/widgets.md).  Each run gives every widget model a new random id, so a re-run
used to rewrite hundreds of lines of a lesson that did not change.  This tool runs
each notebook (nbconvert, ``BATTLELINE_LAB_DATA`` set to a new empty folder, so no
learner's progress leaks in, and ``BATTLELINE_LAB_TABLES`` set, so each puzzle widget shown saves
its response table) and then renames the model ids in a fixed order: the
widget views in the order the outputs show them, each followed by the models it
refers to (``IPY_MODEL_<id>``), depth first, in the order its sorted state names
them; models nothing shows come last, in the order of their sorted state (each reference read
as the state it refers to, so the order does not depend on the old ids).  The new
id of the n-th model is a hash of the notebook's name and n.  The cells' run
timestamps (``metadata.execution``) are dropped.  A re-run that draws the same
things therefore writes the same file, and ``git diff`` shows only what changed.

A lesson that shows a widget then gets, as its last cell, a hidden one whose code is a comment and
whose saved output is one inline module script (:func:`with_export_cell`): the reading view's
widget manager (``tools/site/reader.js``, ``export.js``, ``reader.css``), which draws the saved
widgets, puzzles answering from their response tables, when the lesson is exported with
``jupyter nbconvert --to html`` and opened with no kernel (docs/site.md "Exported to HTML").
``--ids-only`` rewrites it too, so a change to those files needs no kernel run.

Usage::

    python tools/run_lessons.py                    # every lesson under notebooks/
    python tools/run_lessons.py notebooks/06-*.ipynb
    python tools/run_lessons.py --ids-only NB...   # only rename the ids (no run)

``tests/test_lesson_widget_ids.py`` checks that the committed lessons have stable ids.

>>> nb = {"cells": [{"cell_type": "code", "outputs": [{"data": {VIEW: {"model_id": "b"}}}]}],
...       "metadata": {"widgets": {STATE: {"state": {
...           "a": {"state": {"x": 1}},
...           "b": {"state": {"children": ["IPY_MODEL_a"]}}}}}}}
>>> fixed = stable_widget_ids(nb, "demo")
>>> list(fixed["metadata"]["widgets"][STATE]["state"]) == [new_id("demo", 0), new_id("demo", 1)]
True
>>> stable_widget_ids(fixed, "demo") == fixed
True
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"


def _site_builder() -> ModuleType:
    """``tools/build_site.py`` as a module (this file runs as a script, not from a package): it reads
    saved widget states too, and ships in the wheel, so the walk over them is written there once."""
    spec = importlib.util.spec_from_file_location("build_site", Path(__file__).with_name("build_site.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_builder = _site_builder()
REFERENCE = _builder.MODEL_REFERENCE
model_references = _builder.model_references
walk_models = _builder.walk_models
needs_python = _builder.needs_python
HTML_EXPORT_TAG: str = _builder.HTML_EXPORT_TAG
is_export_cell = _builder.is_export_cell
#: The files of the reading view that the HTML export cell's script is made of (``tools/site/``).
EXPORT_SCRIPTS = ("reader.js", "export.js")
EXPORT_CSS = "reader.css"
#: The export cell's code: a comment only (nbval runs it; it prints nothing, its output is ignored by tag).
EXPORT_SOURCE = "# drawing the saved boards in an HTML export (jupyter nbconvert --to html; docs/site.md)"


def new_id(name: str, index: int) -> str:
    """The stable id of the ``index``-th widget model of notebook ``name`` (32 hex digits, like Jupyter's)."""
    return hashlib.sha256(f"{name}:{index}".encode()).hexdigest()[:32]


def _views(nb: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) or []:
            view = (output.get("data") or {}).get(VIEW)
            if isinstance(view, dict) and isinstance(view.get("model_id"), str):
                yield view


def stable_widget_ids(nb: dict[str, Any], name: str) -> dict[str, Any]:
    """A copy of notebook ``nb`` whose widget model ids are renamed in the fixed order (module doc)."""
    nb = copy.deepcopy(nb)
    widgets = nb.get("metadata", {}).get("widgets", {}).get(STATE)
    if not isinstance(widgets, dict) or not isinstance(widgets.get("state"), dict):
        return nb
    state: dict[str, Any] = widgets["state"]
    order: list[str] = []
    seen: set[str] = set()  # shared by the walks: each model is ordered once, where it is first met

    shapes: dict[str, str] = {}

    def shape(model_id: str, path: frozenset[str] = frozenset()) -> str:
        """The model's sorted state with each reference replaced by the referred model's own shape."""
        if model_id not in shapes:
            if model_id in path or model_id not in state:
                return "?"
            text = json.dumps(state[model_id], sort_keys=True)
            inner = path | {model_id}
            result = REFERENCE.sub(lambda m: "<" + shape(m.group(1), inner) + ">", text)
            if path:
                return result  # only a root's shape is remembered (a cycle may cut the inner ones short)
            shapes[model_id] = result
        return shapes[model_id]

    for view in _views(nb):
        order.extend(walk_models(state, view["model_id"], seen))
    # The same order whatever the ids are now: a model's shape, refined a few times by where it is
    # referred from (two equal Layouts, one shared with a shown widget, are then told apart).
    parents: dict[str, list[tuple[str, int]]] = {m: [] for m in state}
    for parent in state:
        for place, child in enumerate(model_references(state[parent])):
            if child in parents:
                parents[child].append((parent, place))
    signature = {m: shape(m) for m in state}
    for _ in range(3):
        signature = {
            m: hashlib.sha256(
                json.dumps([signature[m], sorted((signature[p], place) for p, place in parents[m])]).encode()
            ).hexdigest()
            for m in state
        }
    stable = {new_id(name, n): n for n in range(len(state))}  # left ties (truly alike models) keep their order
    # models nothing refers to first (each followed by its own), then any left in a cycle
    for model_id in sorted(state, key=lambda m: (bool(parents[m]), signature[m], stable.get(m, len(state)), m)):
        order.extend(walk_models(state, model_id, seen))
    renames = {old: new_id(name, n) for n, old in enumerate(order)}

    def rename(text: str) -> str:
        return REFERENCE.sub(lambda m: "IPY_MODEL_" + renames.get(m.group(1), m.group(1)), text)

    widgets["state"] = {renames[old]: json.loads(rename(json.dumps(state[old]))) for old in order}
    for view in _views(nb):
        view["model_id"] = renames.get(view["model_id"], view["model_id"])
    return nb


def export_script(state: dict[str, Any], view_ids: list[str], lang: str) -> str:
    """The HTML export cell's saved output: one inline module script, reader.js and export.js (the
    reading view's widget manager, ``tools/site/``) and the call that draws the page's saved widgets,
    with its data: reader.css, the views whose widgets need Python (:func:`needs_python`, decided
    here, not in JavaScript) and the reading page's sentences for them in the lesson's language."""
    front = _builder.FRONT
    texts = _builder.course_texts()[lang]
    data = {
        "cell": HTML_EXPORT_TAG,
        "css": (front / EXPORT_CSS).read_text(encoding="utf-8"),
        "needsPython": [view for view in view_ids if needs_python(state, view)],
        "texts": {"needsPython": texts["needs_python"], "note": texts["needs_python_note"]},
    }
    # JSON data in the script, never markup: no "</script" or "<!--" can end it early
    literal = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    parts = [(front / name).read_text(encoding="utf-8") for name in EXPORT_SCRIPTS]
    for name, part in zip(EXPORT_SCRIPTS, parts, strict=True):
        found = re.search(r"</script|<!--", part, flags=re.IGNORECASE)
        if found:
            line = part.count("\n", 0, found.start()) + 1
            column = found.start() - (part.rfind("\n", 0, found.start()) + 1) + 1
            raise SystemExit(
                f"{front / name}:{line}:{column}: error: {found.group(0)!r} would end the HTML export cell's "
                "inline script early (write it as '<\\/script' in a string)"
            )
    body = "\n".join([*parts, f"drawExport(document, renderWidget, {literal});\n"])
    return f'<script type="module">\n{body}</script>\n'


def export_cell(nb: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The hidden last cell whose saved output draws ``nb``'s saved widgets in an HTML export, or
    None for a lesson that shows no widget.  ``name`` is the notebook's path under ``notebooks/``
    (``zh/...``: the Chinese sentences)."""
    cells = [cell for cell in nb.get("cells", []) if not is_export_cell(cell)]
    views = list(dict.fromkeys(view["model_id"] for view in _views({"cells": cells})))  # each once, in order
    state = nb.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})
    if not views or not isinstance(state, dict):
        return None
    lang = "zh" if "zh" in name.split("/") else "en"
    html = export_script(state, views, lang)
    return {
        "cell_type": "code",
        "execution_count": sum(cell.get("cell_type") == "code" for cell in cells) + 1,
        "id": HTML_EXPORT_TAG,
        "metadata": {"jupyter": {"source_hidden": True}, "tags": ["nbval-ignore-output", HTML_EXPORT_TAG]},
        "outputs": [
            {"data": {"text/html": html.splitlines(keepends=True)}, "metadata": {}, "output_type": "display_data"}
        ],
        "source": [EXPORT_SOURCE],
    }


def with_export_cell(nb: dict[str, Any], name: str) -> dict[str, Any]:
    """A copy of ``nb`` whose last cell is its HTML export cell as :func:`export_cell` writes it now (any
    older one removed; none in a lesson without widgets).  Needs no kernel: ``--ids-only`` refreshes it."""
    nb = copy.deepcopy(nb)
    cell = export_cell(nb, name)
    nb["cells"] = [c for c in nb.get("cells", []) if not is_export_cell(c)] + ([cell] if cell else [])
    return nb


def normalize(nb: dict[str, Any], name: str) -> dict[str, Any]:
    """``nb`` with stable widget ids, without the run's timestamps (each cell's ``metadata.execution``)
    and with its HTML export cell up to date (:func:`with_export_cell`)."""
    nb = stable_widget_ids(nb, name)
    for cell in nb.get("cells", []):
        cell.get("metadata", {}).pop("execution", None)
    return with_export_cell(nb, name)


def notebook_name(path: Path) -> str:
    """The name the ids are hashed with: the path under ``notebooks/`` (the same in any checkout)."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(NOTEBOOKS).as_posix()
    except ValueError:
        return resolved.name


def fix_ids(path: Path) -> bool:
    """:func:`normalize` the notebook at ``path`` in place (atomically); True if anything changed."""
    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    fixed = normalize(nb, notebook_name(path))
    if fixed == nb:
        return False
    out = json.dumps(fixed, sort_keys=True, indent=1, ensure_ascii=False) + "\n"  # as nbformat writes
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(out, encoding="utf-8")
    os.replace(temp, path)
    return True


def run(path: Path) -> None:
    """Execute the notebook at ``path`` in place with nbconvert, in a new empty data folder; each puzzle
    widget it displays saves its response table (``BATTLELINE_LAB_TABLES``: the board answers without a kernel)."""
    with tempfile.TemporaryDirectory(prefix="battleline-lesson-") as data:
        env = {**os.environ, "BATTLELINE_LAB_DATA": data, "BATTLELINE_LAB_TABLES": "1"}
        command = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace"]
        subprocess.run([*command, str(path.resolve())], check=True, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks (default: every lesson)")
    parser.add_argument(
        "--ids-only", action="store_true", help="only normalize (stable ids, no timestamps), do not run"
    )
    args = parser.parse_args(argv)
    paths: list[Path] = args.notebooks or sorted(NOTEBOOKS.rglob("*.ipynb"))
    paths = [p for p in paths if ".ipynb_checkpoints" not in p.parts]
    for path in paths:
        if not args.ids_only:
            print(f"==> running {path}", flush=True)
            run(path)
        changed = fix_ids(path)
        print(f"    {'normalized' if changed else 'already normal'}: {path}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
