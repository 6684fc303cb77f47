"""The committed puzzles (all valid and correct, the RULES.md worked examples, coverage) and the question kinds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS, Tactic, parse_cards
from battleline_lab.core.claims import ClaimAnalysis, analyse_claim
from battleline_lab.core.formations import evaluate
from battleline_lab.core.position import FLAGS, Position, Side
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import (
    QUESTION_KINDS,
    ClaimableQuestion,
    ClaimQuestion,
    CompareQuestion,
    FormationQuestion,
    question_from_data,
)
from tests.every import check_every

ROOT = Path(__file__).parent.parent
FILES = list(iter_puzzle_files([ROOT / "puzzles"]))
SEEDS = ROOT / "puzzles" / "seed-examples"
# the puzzles of the format issue (other folders belong to the puzzle library)
CORE_SETS = ["seed-examples", "formations", "fog-mud", "wildcards", "claimable", "odds", "play-to-claim"]


def _id(path: Path) -> str:
    return path.relative_to(ROOT / "puzzles").as_posix()


@pytest.fixture(scope="module")
def puzzles() -> dict[Path, Puzzle]:
    return {path: load_puzzle(path) for path in FILES}


def test_puzzle_is_complete_and_its_answer_is_the_engine_s() -> None:
    check_every(((_id(p), p) for p in FILES), _is_complete_and_its_answer_is_the_engine_s)


def _is_complete_and_its_answer_is_the_engine_s(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.question is not None and "answer" in puzzle.marks
    assert puzzle.title and puzzle.level is not None and puzzle.topics and puzzle.note_text()
    assert puzzle.is_correct(puzzle.answer), f"{path}: engine says {puzzle.solve()!r}, the file {puzzle.answer!r}"
    assert puzzle.question.kind in puzzle.topics  # the question kind is a topic: shown before


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
    assert any("tie-rule" in p.topics for p in core)
    own_hand = [p for p in core if isinstance(p.question, ClaimQuestion) and p.position.hand(Side.YOU)]
    assert any(
        set(p.explain().counterexample) & set(p.position.hand(Side.YOU))  # type: ignore[attr-defined]
        for p in own_hand
    )
    # both answers to a claim question, and a claimable question for each side's turn
    assert {p.answer for p in core if isinstance(p.question, ClaimQuestion)} == {True, False}
    assert {p.position.turn for p in core if isinstance(p.question, ClaimableQuestion)} == set(Side)


# -- question kinds: properties that tie them to the engine -------------------------------------------

FORMATION_CARDS = st.sampled_from([*(t.notation for t in ALL_TROOPS), "alexander", "darius", "companion", "shield"])


@st.composite
def comparisons(draw: st.DrawFn) -> CompareQuestion:
    environment = draw(st.sampled_from([[], ["fog"], ["mud"], ["fog", "mud"]]))
    size = 4 if "mud" in environment else 3
    cards = draw(st.lists(FORMATION_CARDS, min_size=2 * size, max_size=2 * size, unique=True))
    a, b = cards[:size], cards[size:]
    assume(not {"alexander", "darius"} <= set(a) and not {"alexander", "darius"} <= set(b))  # R20
    first = draw(st.sampled_from(["a", "b"]))
    data = {"kind": "compare", "a": a, "b": b, "environment": environment, "first_complete": first}
    question = question_from_data(data)
    assert isinstance(question, CompareQuestion)
    return question


@given(comparisons())
@settings(max_examples=200)
def test_compare_agrees_with_the_claim_engine_and_is_symmetric(question: CompareQuestion) -> None:
    winner = question.solve(Position())
    # R10, R11: the same two formations on a flag, a on your side; you can claim exactly when a wins
    first = "you" if question.first_complete == "a" else "opponent"
    you = [c.notation for c in question.a] + [c.notation for c in question.environment]
    position = Position.build({5: {"you": you, "opponent": [c.notation for c in question.b], "first_complete": first}})
    assert analyse_claim(position, 5, Side.YOU).claimable == (winner == "a")
    # swapping a and b swaps the winner
    other = "b" if question.first_complete == "a" else "a"
    swapped = CompareQuestion(question.b, question.a, other, question.environment)  # type: ignore[arg-type]
    assert swapped.solve(Position()) == ("b" if winner == "a" else "a")
    assert question_from_data(question.to_data()) == question


@given(st.lists(FORMATION_CARDS, min_size=3, max_size=4, unique=True))
@settings(max_examples=200)
def test_formation_question_is_evaluate_s_kind(tokens: list[str]) -> None:
    assume(not {"alexander", "darius"} <= set(tokens))
    data: dict[str, object] = {"kind": "formation", "cards": tokens}
    if len(tokens) == 4:
        data["environment"] = ["mud"]
    question = question_from_data(data)
    kind = evaluate(parse_cards(tokens), mud=len(tokens) == 4).kind
    assert kind is not None and question.solve(Position()) == kind.key
    assert question.is_correct(Position(), kind.key)
    assert question_from_data(question.to_data()) == question


def test_claimable_is_the_flags_where_claim_says_yes() -> None:
    check_every(((_id(p), p) for p in FILES), _claimable_is_the_flags_where_claim_says_yes)


def _claimable_is_the_flags_where_claim_says_yes(path: Path) -> None:
    position = load_puzzle(path).position
    expected = [n for n in FLAGS if position.flag(n).claimed_by is None and ClaimQuestion(n).solve(position)]
    assert ClaimableQuestion().solve(position) == expected
