"""The widgets package is split by concept and its ``__init__`` only re-exports.

The puzzle (``widgets.puzzle``), the gym (``widgets.gym``), the formation explorer
(``widgets.explorer``) and what they share (``widgets._common``) each live in their own module;
``battleline_lab.widgets`` still offers every name it offered when it was one file (the lessons
import ``PuzzleWidget``, ``PuzzleGym`` and ``FormationExplorer`` from it), as the very same objects.
"""

from __future__ import annotations

import importlib
import types

import pytest

import battleline_lab.widgets as widgets

#: Each public name of ``battleline_lab.widgets`` and the module it is defined in (or taken from).
HOMES = {
    "FOCUS_STYLE": "battleline_lab.widgets._common",
    "LANGUAGE_NAMES": "battleline_lab.widgets._common",
    "board_view": "battleline_lab.widgets._common",
    "default_progress": "battleline_lab.widgets._common",
    "flag_grid": "battleline_lab.widgets._common",
    "language_toggle": "battleline_lab.widgets._common",
    "set_visible": "battleline_lab.widgets._common",
    "switch_lang": "battleline_lab.widgets._common",
    "Ghosts": "battleline_lab.widgets.puzzle",
    "PuzzleWidget": "battleline_lab.widgets.puzzle",
    "rule_links": "battleline_lab.widgets.puzzle",
    "rules_page_link": "battleline_lab.widgets.puzzle",
    "PuzzleGym": "battleline_lab.widgets.gym",
    "PuzzleSet": "battleline_lab.widgets.gym",
    "load_puzzles": "battleline_lab.widgets.gym",
    "FormationExplorer": "battleline_lab.widgets.explorer",
    "View": "battleline_lab.quiz.questions",
}


@pytest.mark.parametrize("name", sorted(HOMES))
def test_each_public_name_is_the_object_of_its_module(name: str) -> None:
    home = importlib.import_module(HOMES[name])
    assert getattr(widgets, name) is getattr(home, name)


def test_the_package_exports_exactly_its_public_names() -> None:
    assert sorted(widgets.__all__) == sorted(HOMES)
    namespace: dict[str, object] = {}
    exec("from battleline_lab.widgets import *", namespace)
    assert {name for name in namespace if name != "__builtins__"} == set(HOMES)


def test_the_package_init_defines_nothing_of_its_own() -> None:
    """Every class and function ``battleline_lab.widgets`` holds was made in another module, and every
    other public name in it is a submodule or exported."""
    for name, value in vars(widgets).items():
        if isinstance(value, (type, types.FunctionType)):
            assert value.__module__ != widgets.__name__, name
        elif not name.startswith("_") and not isinstance(value, types.ModuleType):
            assert name in widgets.__all__ or name == "annotations", name  # the ``from __future__`` feature


def test_each_widget_is_defined_in_the_module_of_its_concept() -> None:
    assert widgets.PuzzleGym is widgets.PuzzleSet
    assert widgets.PuzzleSet.__module__ == "battleline_lab.widgets.gym"
    assert widgets.PuzzleWidget.__module__ == "battleline_lab.widgets.puzzle"
    assert widgets.FormationExplorer.__module__ == "battleline_lab.widgets.explorer"
