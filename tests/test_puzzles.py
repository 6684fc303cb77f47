"""The committed puzzles: all valid and correct, the RULES.md worked examples as stated, and coverage."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from battleline_lab.cards import Tactic, parse_cards
from battleline_lab.claims import ClaimAnalysis
from battleline_lab.loader import iter_puzzle_files, load_puzzle
from battleline_lab.position import Side
from battleline_lab.puzzle import Puzzle
from battleline_lab.questions import (
    QUESTION_KINDS,
    ClaimableQuestion,
    ClaimQuestion,
    CompareQuestion,
    FormationQuestion,
)

ROOT = Path(__file__).parent.parent
FILES = list(iter_puzzle_files([ROOT / "puzzles"]))
SEEDS = ROOT / "puzzles" / "seed-examples"
# the puzzles of the format issue (other folders belong to the puzzle library)
CORE_SETS = ["seed-examples", "formations", "fog-mud", "wildcards", "claimable"]


def _id(path: Path) -> str:
    return path.relative_to(ROOT / "puzzles").as_posix()


@pytest.fixture(scope="module")
def puzzles() -> dict[Path, Puzzle]:
    return {path: load_puzzle(path) for path in FILES}


@pytest.mark.parametrize("path", FILES, ids=[_id(p) for p in FILES])
def test_puzzle_is_complete_and_its_answer_is_the_engine_s(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.question is not None and "answer" in puzzle.marks
    assert puzzle.title and puzzle.level is not None and puzzle.tags and puzzle.note_text()
    assert puzzle.is_correct(puzzle.answer), f"{path}: engine says {puzzle.solve()!r}, the file {puzzle.answer!r}"
    assert puzzle.question.kind in puzzle.tags


def test_ids_are_unique(puzzles: dict[Path, Puzzle]) -> None:
    counts = Counter(p.id for p in puzzles.values())
    assert [i for i, n in counts.items() if n > 1] == []


def _seed(n: int) -> Puzzle:
    (path,) = SEEDS.glob(f"{n}-*.yaml")
    return load_puzzle(path)


def test_rules_worked_example_1_wedge_against_red_6_green_6() -> None:
    puzzle = _seed(1)
    flag = puzzle.position.flag(5)
    assert (flag.you, flag.opponent) == (parse_cards("r3 r4 r5"), parse_cards("r6 g6"))
    assert puzzle.solve() is True and puzzle.answer is True


def test_rules_worked_example_2_blue_8_with_blue_7_and_10_on_other_flags() -> None:
    puzzle = _seed(2)
    assert puzzle.position.flag(5).opponent == parse_cards("b8")
    assert {str(c) for c in puzzle.position.visible} >= {"b7", "b10"}
    assert puzzle.solve() is True and puzzle.answer is True


def test_rules_worked_example_3_blue_7_and_9_in_your_own_hand() -> None:
    puzzle = _seed(3)
    assert set(parse_cards("b7 b9")) <= set(puzzle.position.hand(Side.YOU))
    assert puzzle.solve() is False and puzzle.answer is False
    analysis = puzzle.explain()
    assert isinstance(analysis, ClaimAnalysis)
    assert set(analysis.counterexample) == set(parse_cards("b7 b9"))


def test_rules_worked_example_4_at_best_a_tie_goes_to_who_completed_first() -> None:
    puzzle = _seed(4)
    analysis = puzzle.explain()
    assert isinstance(analysis, ClaimAnalysis)
    assert analysis.claimable and puzzle.answer is True
    assert "at_best_tie" in [s.reason.value for s in analysis.steps]
    assert 1 <= len(puzzle.position.flag(4).formation_cards(Side.OPPONENT)) <= 2


def test_rules_worked_example_5_battalion_13_beats_battalion_11() -> None:
    puzzle = _seed(5)
    comparison = puzzle.explain()
    assert puzzle.answer == "a" and puzzle.solve() == "a"
    assert (comparison.a.kind.key, comparison.a.total, comparison.b.total) == ("battalion", 13, 11)  # type: ignore[attr-defined]


def _all_cards(puzzle: Puzzle) -> set[object]:
    cards: set[object] = set(puzzle.position.visible) | set(puzzle.position.hand(Side.YOU))
    q = puzzle.question
    if isinstance(q, CompareQuestion):
        cards |= set(q.a) | set(q.b) | set(q.environment)
    if isinstance(q, FormationQuestion):
        cards |= set(q.cards) | set(q.environment)
    return cards


def test_the_core_sets_cover_every_kind_environment_wildcard_and_trap(puzzles: dict[Path, Puzzle]) -> None:
    core = [p for path, p in puzzles.items() if _id(path).split("/")[0] in CORE_SETS]
    assert len(core) >= 20
    assert {p.question.kind for p in core if p.question} == set(QUESTION_KINDS)
    cards = set().union(*(_all_cards(p) for p in core))
    assert {Tactic.FOG, Tactic.MUD, Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD} <= cards
    # a wildcard on the opponent's side and one on yours
    theirs = {c for p in core for f in p.position.flags for c in f.opponent if isinstance(c, Tactic) and c.is_wild}
    yours = {c for p in core for f in p.position.flags for c in f.you if isinstance(c, Tactic) and c.is_wild}
    assert theirs and yours
    # the tie rule decides somewhere, and a hand card is a counterexample somewhere
    assert any("tie-rule" in p.tags for p in core)
    own_hand = [p for p in core if isinstance(p.question, ClaimQuestion) and p.position.hand(Side.YOU)]
    assert any(
        set(p.explain().counterexample) & set(p.position.hand(Side.YOU))  # type: ignore[attr-defined]
        for p in own_hand
    )
    # both answers to a claim question, and a claimable question for each side's turn
    assert {p.answer for p in core if isinstance(p.question, ClaimQuestion)} == {True, False}
    assert {p.position.turn for p in core if isinstance(p.question, ClaimableQuestion)} == set(Side)
