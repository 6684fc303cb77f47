"""The committed lessons have stable widget ids and no run timestamps (tools/run_lessons.py, ``./dev lessons``).

A re-run of a lesson used to rewrite every widget model id (random per run) and every cell's
timestamps, so a one-word change showed as hundreds of changed lines.  These tests check the
renaming itself (same result whatever the old ids were, every reference kept) and that every
committed lesson is already in that form.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("run_lessons", ROOT / "tools" / "run_lessons.py")
assert _spec is not None and _spec.loader is not None
run_lessons = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_lessons)

LESSONS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
STATE = run_lessons.STATE


def _state(nb: dict[str, Any]) -> dict[str, Any]:
    return nb["metadata"]["widgets"][STATE]["state"]  # type: ignore[no-any-return]


def _view_ids(nb: dict[str, Any]) -> list[str]:
    return [view["model_id"] for view in run_lessons._views(nb)]


def _renamed_at_random(nb: dict[str, Any], seed: int) -> dict[str, Any]:
    """``nb`` with every model id replaced by a random one, as a new kernel run would name them."""
    rng = random.Random(seed)
    names = {old: f"{rng.getrandbits(128):032x}" for old in _state(nb)}
    text = json.dumps(nb)
    for old, new in names.items():
        text = text.replace(old, new)
    return json.loads(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_committed_lesson_has_stable_widget_ids_and_no_timestamps(lesson: Path) -> None:
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    assert run_lessons.normalize(nb, run_lessons.notebook_name(lesson)) == nb, (
        f"{lesson.name}: re-run the lessons with ./dev lessons (or normalize it: "
        f"python tools/run_lessons.py --ids-only {lesson.relative_to(ROOT)})"
    )


@pytest.mark.parametrize("lesson", [p for p in LESSONS if "widgets" in json.loads(p.read_text())["metadata"]])
def test_renaming_does_not_depend_on_the_old_ids_and_keeps_every_reference(lesson: Path) -> None:
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    # the HTML export cell names views by id in its script; a run clears its output and normalize()
    # writes it anew from the renamed state (tests/test_html_export.py), so the renaming is seen without it
    nb["cells"] = [cell for cell in nb["cells"] if not run_lessons.is_export_cell(cell)]
    name = run_lessons.notebook_name(lesson)
    expected = run_lessons.stable_widget_ids(nb, name)
    for seed in range(8):
        scrambled = _renamed_at_random(nb, seed)
        assert _state(scrambled).keys() != _state(nb).keys()
        assert run_lessons.stable_widget_ids(scrambled, name) == expected
    state = _state(expected)
    assert len(state) == len(_state(nb))
    references = set(run_lessons.REFERENCE.findall(json.dumps(state)))
    assert references <= state.keys()  # no reference left dangling
    assert set(_view_ids(expected)) <= state.keys()  # every shown widget has its model


def test_renaming_keeps_the_shape_of_a_small_notebook() -> None:
    view = {"model_id": "b"}
    nb = {
        "cells": [
            {"cell_type": "code", "metadata": {"execution": {"t": 1}}, "outputs": [{"data": {run_lessons.VIEW: view}}]}
        ],
        "metadata": {"widgets": {STATE: {"state": {"a": {"x": 1}, "b": {"children": ["IPY_MODEL_a"]}, "c": {"y": 2}}}}},
    }
    original = copy.deepcopy(nb)
    fixed = run_lessons.normalize(nb, "demo")
    assert nb == original  # a copy, the input untouched
    ids = [run_lessons.new_id("demo", n) for n in range(3)]
    assert _view_ids(fixed) == [ids[0]]  # the shown widget first, then what it refers to, then the rest
    assert _state(fixed) == {ids[0]: {"children": [f"IPY_MODEL_{ids[1]}"]}, ids[1]: {"x": 1}, ids[2]: {"y": 2}}
    assert fixed["cells"][0]["metadata"] == {}
