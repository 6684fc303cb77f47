"""The tactic play puzzles: the generator's (``tactic=True``) and the library's (``puzzles/play-tactics``).

- The library holds at least 6, levels 3-5, each with an English and a Chinese title and note, a
  Deserter in the hand and only Deserter plays right (R29): the answer is its target, found on the board.
- Every one's guess chance (right plays over all offered plays, troops and Deserter) is <= 15 %.
- Nothing seen before answering predicts the answer over a bigger generated batch, titles included.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from battleline_lab.authoring.generate import GeneratedPuzzle
from battleline_lab.authoring.generate_play import TACTIC_FOLDER, TACTIC_GOALS, generate_play
from battleline_lab.cli import main
from battleline_lab.core.cards import Tactic
from battleline_lab.quiz import library
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions.play import is_desertion, legal_plays
from battleline_lab.text.messages import LANGUAGES
from tests.test_generate_play import predicting_plays
from tests.test_generate_spoilers import PATTERN

ROOT = Path(__file__).resolve().parents[1]


def tactic_puzzles() -> list[Puzzle]:
    return [p for p in (library.get(i) for i in library.ids()) if p.id.startswith(f"{TACTIC_FOLDER}-")]


def test_R29_the_library_has_6_tactic_puzzles_at_levels_3_to_5_answered_by_a_target() -> None:
    found = tactic_puzzles()
    assert len(found) >= 6
    assert {p.level for p in found} <= {3, 4, 5}
    assert {p.question.to_data()["goal"] for p in found if p.question is not None} == set(TACTIC_GOALS)
    for puzzle in found:
        assert puzzle.question is not None and puzzle.question.kind == "play"
        assert Tactic.DESERTER in puzzle.position.hand_you
        assert all(puzzle.title.get(lang) for lang in LANGUAGES), puzzle.id
        assert puzzle.note is not None and all(puzzle.note.get(lang) for lang in LANGUAGES), puzzle.id
        right = puzzle.question.explain(puzzle.position).right
        assert right and all(is_desertion(p) for p in right), puzzle.id
        assert puzzle.is_correct(puzzle.answer)  # the engine's whole set, written as {card, target}
        assert all(set(a) == {"card", "target"} for a in puzzle.answer)


def test_R29_check_json_reports_the_tactic_puzzles_guess_chance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "puzzles" / TACTIC_FOLDER), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["puzzles"]
    assert len(rows) >= 6 and all(r["kind"] == "play" and r["ok"] for r in rows)
    for row in rows:
        puzzle = library.get(row["id"])
        assert puzzle.question is not None
        offered = legal_plays(puzzle.position)
        assert any(is_desertion(p) for p in offered) and not all(is_desertion(p) for p in offered)  # both kinds
        expected = Fraction(len(puzzle.question.solve(puzzle.position)), len(offered))
        assert row["guess_chance"] == pytest.approx(float(expected))
        assert row["guess_chance"] <= 0.15


# the spoiler check flags what PATTERN puzzles share: a smaller batch could never be flagged
BATCH = PATTERN


@pytest.fixture(scope="module", params=TACTIC_GOALS)
def tactic_batch(request: pytest.FixtureRequest) -> list[GeneratedPuzzle]:
    """A generated batch of ``BATCH`` tactic puzzles of one goal (R29), made once for the module."""
    return generate_play(str(request.param), BATCH, seed=7, levels=(3, 5), tactic=True)


def test_R29_no_title_of_a_generated_tactic_batch_predicts_the_answer(tactic_batch: list[GeneratedPuzzle]) -> None:
    assert len(tactic_batch) == BATCH >= PATTERN  # big enough to be flagged
    assert predicting_plays(tactic_batch) == {}
    goal = tactic_batch[0].data["question"]["goal"]
    assert generate_play(goal, 1, seed=7, levels=(3, 5), tactic=True)[0].text == tactic_batch[0].text  # seeded


@pytest.mark.parametrize(("copies", "flagged"), [(PATTERN, True), (PATTERN - 1, False)])
def test_R29_the_same_tactic_puzzle_repeated_is_a_spoiler_from_5_copies(
    tactic_batch: list[GeneratedPuzzle], copies: int, flagged: bool
) -> None:
    """The check above can fire on such a batch: one puzzle 5 times is 5 puzzles sharing a title and
    an answer; 4 times is no pattern yet."""
    found = predicting_plays([tactic_batch[0]] * copies)
    assert bool(found) is flagged, found
    if flagged:
        assert any(kind == "title" for kind, _ in found)
