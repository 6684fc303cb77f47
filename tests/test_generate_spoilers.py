"""Generated puzzles keep their answers: nothing shown before answering predicts the answer.

For every theme, 100 generated puzzles are checked as the library is (tests/test_library_topics.py):
a pre-answer title or topic shared by 5 or more puzzles that all have the same answer is a
spoiler.  Titles are in words (no card notation), topics are the library's vocabulary, and the
generator asks formation, compare and which-flags questions as well as claims.
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from battleline_lab.authoring.generate import QUESTION_THEMES, THEMES, generate
from battleline_lab.quiz.loader import load_puzzle_text
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.text.messages import LANGUAGES, catalogue

COUNT = 100
PATTERN = 5  # as the library test: fewer sharing a word is no pattern yet
ALL_THEMES = [*THEMES, *QUESTION_THEMES]


def _answer(puzzle: Puzzle) -> str:
    answer = puzzle.answer
    return repr(sorted(answer) if isinstance(answer, list) else answer)


def predicting(puzzles: list[Puzzle]) -> dict[tuple[str, str], str]:
    """(what was seen before answering, its text) -> the one answer of 5+ puzzles sharing it."""
    answers: dict[tuple[str, str], list[str]] = defaultdict(list)
    for puzzle in puzzles:
        assert puzzle.question is not None
        seen = [("topic", t) for t in puzzle.topics]
        seen += [("title", t) for t in sorted({puzzle.title_before_answer(lang) for lang in LANGUAGES})]
        for key in seen:
            answers[key].append(_answer(puzzle))
    return {key: found[0] for key, found in answers.items() if len(found) >= PATTERN and len(set(found)) == 1}


@pytest.fixture(scope="module", params=ALL_THEMES)
def batch(request: pytest.FixtureRequest) -> tuple[str, list[Puzzle]]:
    theme = str(request.param)
    made = generate(theme, COUNT, seed=25)
    return theme, [load_puzzle_text(g.text, g.filename) for g in made]


def test_the_check_finds_a_spoiler() -> None:
    from battleline_lab.core.position import Position
    from battleline_lab.quiz.questions import ClaimQuestion

    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
    made = [
        Puzzle(f"p{i}", title={"en": "At best a tie"}, position=pos, question=ClaimQuestion(5), answer=True)
        for i in range(5)
    ]
    assert predicting(made) == {("title", "At best a tie"): "True"}
    assert predicting(made[:4]) == {}


def test_no_title_or_topic_predicts_the_answer(batch: tuple[str, list[Puzzle]]) -> None:
    theme, puzzles = batch
    assert len(puzzles) == COUNT, f"{theme}: {len(puzzles)} of {COUNT} found"
    assert predicting(puzzles) == {}
    assert len({_answer(p) for p in puzzles}) >= 2


def test_titles_in_words_and_topics_from_the_library(batch: tuple[str, list[Puzzle]]) -> None:
    theme, puzzles = batch
    for puzzle in puzzles:
        title = puzzle.title_before_answer("en")
        assert not re.search(r"\b[roygbp]\d+\b", title), title  # "red 6", never "r6"
        assert "wildcards" not in puzzle.topics  # the library's word is "wildcard"
        for word in puzzle.topics + puzzle.tags:
            assert all(f"topic.{word}" in catalogue(lang) for lang in LANGUAGES), word
        if puzzle.headline:
            assert puzzle.title_after_answer("en") != title


def test_questions_of_every_kind() -> None:
    kinds = {g.data["question"]["kind"] for theme in QUESTION_THEMES for g in generate(theme, 3, seed=1)}
    assert kinds == {"formation", "compare", "claimable"}
