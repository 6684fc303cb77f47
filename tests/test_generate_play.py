"""The play puzzles: the generator's and the library's (``puzzles/play-to-*``, written by ``tools/play_puzzles.py``).

- The library holds at least 40 of them, over the three goals, levels 2-5, each with an English
  and a Chinese title and note; every title in the library is distinct and in words (no notation).
- Nothing seen before answering predicts the answer (tests/test_generate_spoilers.py's check) over
  a bigger generated batch; the answer written is the engine's whole set of right plays.
- ``check --json`` reports each play puzzle's kind and guess chance (right plays over offered plays).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from battleline_lab.authoring.generate import GeneratedPuzzle
from battleline_lab.authoring.generate_play import GOAL_FOLDERS, generate_play
from battleline_lab.cli import main
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import load_puzzle_text
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions.play import legal_plays
from battleline_lab.text.messages import LANGUAGES
from tests.test_generate_spoilers import predicting

ROOT = Path(__file__).resolve().parents[1]


def play_puzzles() -> list[Puzzle]:
    return [p for p in (library.get(i) for i in library.ids()) if p.question is not None and p.question.kind == "play"]


def test_the_library_has_40_play_puzzles_over_the_goals_and_levels_2_to_5() -> None:
    found = play_puzzles()
    assert len(found) >= 40
    goals = Counter(p.question.to_data()["goal"] for p in found if p.question is not None)
    assert set(goals) == set(GOAL_FOLDERS) and min(goals.values()) >= 10, goals
    assert {p.level for p in found} <= {2, 3, 4, 5}
    for puzzle in found:
        assert all(puzzle.title.get(lang) for lang in LANGUAGES), puzzle.id
        assert puzzle.note is not None and all(puzzle.note.get(lang) for lang in LANGUAGES), puzzle.id
        assert puzzle.question is not None and puzzle.is_correct(puzzle.answer)  # the engine's whole set


def test_every_title_in_the_library_is_distinct_and_in_words() -> None:
    puzzles = [library.get(i) for i in library.ids()]
    for lang in LANGUAGES:
        titles = Counter(p.title_before_answer(lang) for p in play_puzzles())
        everything = Counter(p.title_before_answer(lang) for p in puzzles)
        assert [t for t in titles if everything[t] > 1] == []
    for puzzle in play_puzzles():
        assert not re.search(r"\b[roygbp]\d+\b", puzzle.title_before_answer("en")), puzzle.id


def predicting_plays(made: list[GeneratedPuzzle]) -> dict[tuple[str, str], str]:
    """What predicts the answer in a generated batch of play puzzles (the spoiler check of
    tests/test_generate_spoilers.py): each must load as a puzzle, and the engine's whole set of
    right plays stands for its answer, as the check reads it."""
    puzzles = []
    for generated in made:
        puzzle = load_puzzle_text(generated.text, generated.filename)
        assert puzzle.question is not None and puzzle.question.problems(puzzle.position) == []
        puzzles.append(
            Puzzle(
                puzzle.id,
                puzzle.title,
                position=puzzle.position,
                question=puzzle.question,
                answer=sorted(json.dumps(p) for p in puzzle.question.solve(puzzle.position)),
                topics=puzzle.topics,
            )
        )
    return predicting(puzzles)


@pytest.mark.parametrize("goal", sorted(GOAL_FOLDERS))
def test_no_title_or_topic_of_a_generated_batch_predicts_the_answer(goal: str) -> None:
    made = generate_play(goal, 30, seed=7)
    assert len(made) == 30
    assert predicting_plays(made) == {}
    assert generate_play(goal, 3, seed=7)[0].text == made[0].text  # seeded


def test_check_json_reports_the_play_kind_and_its_guess_chance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "puzzles" / GOAL_FOLDERS["claim"]), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = report["puzzles"]
    assert rows and all(r["kind"] == "play" and r["ok"] for r in rows)
    for row in rows:
        puzzle = library.get(row["id"])
        assert puzzle.question is not None
        right = len(puzzle.question.solve(puzzle.position))
        expected = Fraction(right, len(legal_plays(puzzle.position)))
        assert row["guess_chance"] == pytest.approx(float(expected))
        assert row["guess_chance"] <= 0.15
