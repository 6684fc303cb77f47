"""battleline_lab.quiz.library: the shipped puzzles reachable by id, theme and level."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.quiz import library
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle


def test_every_library_file_is_reachable_by_its_id() -> None:
    files = list(iter_puzzle_files([library.root()]))
    assert len(library.ids()) == len(files) > 100
    for file in files:
        puzzle = load_puzzle(file)
        assert library.path(puzzle.id) == file
        assert library.get(puzzle.id) == puzzle


def test_themes_and_levels_partition_the_library() -> None:
    by_theme = [p.id for theme in library.themes() for p in library.puzzles(theme=theme)]
    by_level = [p.id for level in range(1, 6) for p in library.puzzles(level=level)]
    assert sorted(by_theme) == sorted(by_level) == sorted(library.ids())
    levels = [p.level or 0 for p in library.puzzles()]
    assert levels == sorted(levels)


def test_resolve_prefers_an_existing_path(tmp_path: Path) -> None:
    own = tmp_path / "one-end-open"
    own.mkdir()
    assert library.resolve(own) == own
    assert library.resolve("one-end-open") == library.path("one-end-open")
    assert library.resolve("library") == library.resolve("") == library.root()
    assert library.resolve("tie-rule") == library.root() / "tie-rule"


def test_unknown_id_names_it_and_suggests() -> None:
    with pytest.raises(library.UnknownPuzzleError, match=r"'sevens-everywher' \(did you mean 'sevens-everywhere'\?\)"):
        library.get("sevens-everywher")
    with pytest.raises(KeyError):
        library.path("no-such-puzzle-anywhere")
