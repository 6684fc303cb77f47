"""The teacher's set in front of a hub class: ``BATTLELINE_PUZZLES`` is what the gym and the trainer serve.

A hub hands every learner's server the same environment (``c.Spawner.environment``,
docs/classroom.md), so a gym opened with no puzzles named (``PuzzleGym()``) and a trainer made
with none serve the teacher's shared folder; unset, the library; a value that names no folder
is said, never taken silently for the library.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from battleline_lab.formats.settings import PUZZLES_VARIABLE, SettingError
from battleline_lab.quiz import library
from battleline_lab.training.trainer import Trainer
from battleline_lab.widgets import PuzzleGym

#: Two library puzzles copied into the teacher's folder.
TEACHERS = ("one-end-open", "fog-sum-beats-wedge")


@pytest.fixture
def teachers_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "class-puzzles"
    folder.mkdir()
    for puzzle_id in TEACHERS:
        shutil.copyfile(library.path(puzzle_id), folder / library.path(puzzle_id).name)
    return folder


def _served(how: str) -> set[str]:
    if how == "gym":
        return {p.id for p in PuzzleGym().puzzles}
    return {p.id for p in Trainer().all_puzzles}


@pytest.mark.parametrize("how", ["gym", "trainer"])
def test_the_teachers_folder_in_BATTLELINE_PUZZLES_is_what_is_served(
    teachers_folder: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv(PUZZLES_VARIABLE, str(teachers_folder))
    assert _served(how) == set(TEACHERS)


@pytest.mark.parametrize("how", ["gym", "trainer"])
def test_a_relative_BATTLELINE_PUZZLES_is_read_from_the_working_folder(
    teachers_folder: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.chdir(teachers_folder.parent)
    monkeypatch.setenv(PUZZLES_VARIABLE, teachers_folder.name)
    assert _served(how) == set(TEACHERS)


@pytest.mark.parametrize("how", ["gym", "trainer"])
@pytest.mark.parametrize("value", [None, ""], ids=["unset", "empty"])
def test_without_BATTLELINE_PUZZLES_the_library_is_served(
    monkeypatch: pytest.MonkeyPatch, how: str, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv(PUZZLES_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(PUZZLES_VARIABLE, value)
    assert _served(how) == {p.id for p in library.puzzles() if p.question is not None}


def test_a_named_source_wins_over_BATTLELINE_PUZZLES(teachers_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PUZZLES_VARIABLE, str(teachers_folder))
    assert {p.id for p in PuzzleGym("seed-examples").puzzles} == {p.id for p in library.puzzles(theme="seed-examples")}


def test_a_BATTLELINE_PUZZLES_naming_no_folder_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gym says it on its face (and still has the library); the trainer refuses with the variable's name."""
    monkeypatch.setenv(PUZZLES_VARIABLE, str(tmp_path / "no-such-folder"))
    gym = PuzzleGym()
    assert gym.puzzles and any(PUZZLES_VARIABLE in e for e in gym.errors)
    assert PUZZLES_VARIABLE in gym.skipped.value
    with pytest.raises(SettingError, match=PUZZLES_VARIABLE):
        Trainer()
