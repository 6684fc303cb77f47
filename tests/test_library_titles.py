"""Puzzles that look alike are told apart by their titles: every library puzzle's title is its own.

A learner who sees "Can you claim flag 6?" four times cannot tell a repeat from a new puzzle, so
no two puzzles of the library share a title in either language (the title shown before the
answer; the headline after it may repeat a point another puzzle makes).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from battleline_lab.quiz import library
from battleline_lab.text.messages import LANGUAGES


def shared_titles(lang: str) -> dict[str, list[str]]:
    """Each title in ``lang`` that more than one library puzzle shows, with those puzzles' ids."""
    by_title: dict[str, list[str]] = defaultdict(list)
    for puzzle in library.puzzles():
        by_title[puzzle.title_before_answer(lang).strip().casefold()].append(puzzle.id)
    return {title: ids for title, ids in by_title.items() if len(ids) > 1}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_library_puzzle_has_a_title_of_its_own(lang: str) -> None:
    assert shared_titles(lang) == {}
