"""Spoiler-free puzzles: nothing a learner sees before answering predicts the answer.

A puzzle's ``topics`` (and its ``title``) are shown before the answer, its ``tags`` and
``headline`` only after it is solved or revealed (puzzles/FORMAT.md).  Over the whole library,
a topic predicts the answer when five or more puzzles of one question kind carry it and all of
them have the same answer (every ``companion`` claim a "yes", say): the library must then be
balanced with honest puzzles of the other answer, or the word must become an after-answer tag.
Every topic and tag has a name in every language of the catalogue.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.text.messages import LANGUAGES, catalogue, topic_name

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = [load_puzzle(p) for p in sorted((ROOT / "puzzles").rglob("*.yaml"))]
#: fewer puzzles than this sharing a topic and an answer is no pattern yet
PATTERN = 5
#: words that name how a puzzle is solved or what its answer is: after-answer tags, never topics
AFTER_ANSWER = {"counterexample", "at-best-tie", "hand-trap", "own-hand", "incomplete", "public-information"}


def _answer(puzzle: Puzzle) -> str:
    answer = puzzle.answer
    return repr(sorted(answer, key=repr) if isinstance(answer, list) else answer)  # a play's answer: mappings


def predicting_topics(puzzles: list[Puzzle], pattern: int = PATTERN) -> dict[tuple[str, str], str]:
    """(topic, question kind) -> the one answer all its puzzles have, where there are ``pattern`` or more."""
    answers: dict[tuple[str, str], list[str]] = defaultdict(list)
    for puzzle in puzzles:
        if puzzle.question is None:
            continue
        for topic in puzzle.topics:
            answers[(topic, puzzle.question.kind)].append(_answer(puzzle))
    return {key: found[0] for key, found in answers.items() if len(found) >= pattern and len(set(found)) == 1}


def test_the_check_finds_a_predicting_topic() -> None:
    from battleline_lab.core.position import Position
    from battleline_lab.quiz.questions import ClaimQuestion

    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
    made = [
        Puzzle(f"p{i}", topics=("spoiler",), position=pos, question=ClaimQuestion(5), answer=True) for i in range(5)
    ]
    assert predicting_topics(made) == {("spoiler", "claim"): "True"}
    assert predicting_topics(made[:4]) == {}


def test_no_topic_predicts_an_answer() -> None:
    assert predicting_topics(LIBRARY) == {}


def test_every_claim_topic_has_both_answers_where_it_is_common() -> None:
    """The issue's case: all six ``companion`` claim puzzles were "yes"; now both answers occur."""
    companion = [
        p for p in LIBRARY if "companion" in p.topics and p.question is not None and p.question.kind == "claim"
    ]
    assert len(companion) >= PATTERN
    assert {p.answer for p in companion} == {True, False}


def test_after_answer_words_are_tags_not_topics() -> None:
    assert [(p.id, t) for p in LIBRARY for t in p.topics if t in AFTER_ANSWER] == []
    assert any("counterexample" in p.tags for p in LIBRARY)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_and_tag_has_a_name(lang: str) -> None:
    words = {w for p in LIBRARY for w in p.topics + p.tags}
    missing = sorted(w for w in words if f"topic.{w}" not in catalogue(lang))
    assert missing == []
    if lang == "zh":
        assert topic_name("counterexample", "zh") != "counterexample"


def test_a_headline_is_shown_only_after_the_answer() -> None:
    with_headline = [p for p in LIBRARY if p.headline]
    assert with_headline, "the library has puzzles whose telling title waits for the answer"
    for puzzle in with_headline:
        for lang in LANGUAGES:
            assert puzzle.title_before_answer(lang) != puzzle.title_after_answer(lang)
