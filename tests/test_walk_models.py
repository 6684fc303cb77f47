"""The one walk over a saved widget state (``walk_models`` in tools/build_site.py, which ships in the wheel):
the reading page's "needs Python" note and the lessons' stable widget ids (tools/run_lessons.py) both go by it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_site = load("build_site")
run_lessons = load("run_lessons")


def model(name: str = "HTMLModel", *children: str, **refs: str) -> dict[str, Any]:
    """A saved model: its ``children`` and other references (``layout=...``) by id."""
    state: dict[str, Any] = {key: f"IPY_MODEL_{ref}" for key, ref in refs.items()}
    if children:
        state["children"] = [f"IPY_MODEL_{c}" for c in children]
    return {"model_name": name, "state": state}


#: a game's saved state: a box with the board, a row of controls and a layout; a cycle back to the root
GAME: dict[str, Any] = {
    "root": model("VBoxModel", "title", "board", "row", layout="L1"),
    "title": model("HTMLModel", layout="L2"),
    "board": model("AnyModel"),
    "row": model("HBoxModel", "lang", "new", "root"),
    "lang": model("ToggleButtonsModel", style="S1"),
    "new": model("ButtonModel"),
    "L1": model("LayoutModel"),
    "L2": model("LayoutModel"),
    "S1": model("ToggleButtonsStyleModel"),
}

#: case -> (root, ids walked already, the ids the walk gives in order)
WALKS: dict[str, tuple[str, set[str], list[str]]] = {
    "depth-first-children-then-layout": (
        "root",
        set(),
        ["root", "title", "L2", "board", "row", "lang", "S1", "new", "L1"],
    ),
    "a-cycle-is-walked-once": ("row", set(), ["row", "lang", "S1", "new", "root", "title", "L2", "board", "L1"]),
    "models-walked-already-are-passed-over": ("root", {"row", "L2"}, ["root", "title", "board", "L1"]),
    "a-leaf": ("board", set(), ["board"]),
    "an-id-not-saved": ("gone", set(), []),
}


@pytest.mark.parametrize("case", sorted(WALKS))
def test_walk_models_gives_each_model_once_depth_first(case: str) -> None:
    root, seen, expected = WALKS[case]
    assert list(build_site.walk_models(GAME, root, set(seen))) == expected


def test_walks_sharing_seen_give_each_model_to_only_one() -> None:
    seen: set[str] = set()
    first = list(build_site.walk_models(GAME, "title", seen))
    second = list(build_site.walk_models(GAME, "root", seen))
    assert first == ["title", "L2"] and second == ["root", "board", "row", "lang", "S1", "new", "L1"]
    assert seen == set(GAME)


def test_run_lessons_walks_with_the_site_builders_walk() -> None:
    assert run_lessons.walk_models.__module__ == build_site.walk_models.__module__ == "build_site"
    assert run_lessons.REFERENCE.pattern == build_site.MODEL_REFERENCE.pattern


#: case -> (the saved state, the widget shown, whether its controls need a kernel)
NEEDS_PYTHON: dict[str, tuple[dict[str, Any], str, bool]] = {
    "a-button-in-a-row-of-the-box": (GAME, "root", True),
    "a-board-alone": (GAME, "board", False),
    "toggle-buttons-alone-a-language-switch": (
        {"p": model("VBoxModel", "t"), "t": model("ToggleButtonsModel")},
        "p",
        False,
    ),
    "a-toggle-button-the-coach": ({"p": model("VBoxModel", "t"), "t": model("ToggleButtonModel")}, "p", True),
    "checkboxes-of-the-explorer": (
        {"p": model("VBoxModel", "b"), "b": model("HBoxModel", "c"), "c": model("CheckboxModel")},
        "p",
        True,
    ),
    "a-child-not-saved": ({"p": model("VBoxModel", "gone")}, "p", False),
}


@pytest.mark.parametrize("case", sorted(NEEDS_PYTHON))
def test_a_shown_widget_needs_python_when_a_control_is_among_its_models(case: str) -> None:
    state, root, needs = NEEDS_PYTHON[case]
    assert build_site.needs_python(state, root) is needs
