"""A claim is solved with its proof: after a right yes or no, the evidence stage (R12, R13).

After "yes" the learner taps a face-up card the proof uses (R13: a card that makes a completion
of the opponent's side impossible; the cards at the flag itself when the proof needs none
elsewhere), after "no" the ghost: a card the opponent could still get in a completion that beats
the claimer (R12), from the palette of unseen troops.  The right cards below are worked out by
hand from the rules, not by the engine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from battleline_lab import Position
from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.core.cards import parse_card
from battleline_lab.quiz import library
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimQuestion
from battleline_lab.text.messages import card_short
from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.training.trainer import PuzzleSession
from battleline_lab.widgets.puzzle import PuzzleWidget

# (id, flags, build keywords, ghost, basis, the right cards worked out by hand; None: no stage)
CASES: list[tuple[str, dict[int, Any], dict[str, Any], bool, str, set[str] | None]] = [
    # every blue Wedge with b8 needs b7 or b10 (6-7-8, 7-8-9, 8-9-10), and both are face up
    (
        "R13-yes-the-face-up-cards-that-block-their-completions",
        {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}},
        {},
        False,
        "blockers",
        {"b7", "b10"},
    ),
    # red Wedges with r7 need r5-r6, r6-r8 or r8-r9: r6 in the discards and r8 on flag 2 block them all
    (
        "R13-yes-a-card-in-the-discards-is-evidence-too",
        {5: {"you": "g4 g5 g6", "opponent": "r7"}, 2: {"you": "b1", "opponent": "r8"}},
        {"discards": {"you": "r6"}},
        False,
        "blockers",
        {"r6", "r8"},
    ),
    # two colours and one value: never a Wedge; nothing elsewhere is needed, their cards show it
    (
        "R10-yes-their-cards-at-the-flag-when-no-card-elsewhere-is-needed",
        {5: {"you": "r3 r4 r5", "opponent": "r6 g6"}},
        {},
        False,
        "their_cards",
        {"r6", "g6"},
    ),
    # their best is the blue 8-9-10 Wedge, a tie that goes to the claimer who completed first
    (
        "R11-yes-at-best-a-tie-the-card-that-would-tie",
        {5: {"you": "r8 r9 r10", "opponent": "b9 b10"}},
        {},
        True,
        "tie",
        {"b8"},
    ),
    # blue Wedges with b8: 6-7-8, 7-8-9, 8-9-10
    (
        "R12-no-the-ghosts-of-every-completion-that-beats-you",
        {5: {"you": "r3 r4 r5", "opponent": "b8"}},
        {},
        True,
        "ghost",
        {"b6", "b7", "b9", "b10"},
    ),
    # the claimer's hand is unseen to the opponent: b7 and b9 are ghosts (R13), b10 and b6 too
    (
        "R13-no-a-card-in-your-hand-is-still-a-ghost",
        {5: {"you": "r3 r4 r5", "opponent": "b8"}},
        {"hand": {"you": "b7 b9"}},
        True,
        "ghost",
        {"b6", "b7", "b9", "b10"},
    ),
    # both sides complete and their Wedge is the stronger kind
    (
        "R10-no-their-complete-formation-that-beats-yours",
        {5: {"you": "r3 g4 b5", "opponent": "y1 y2 y3"}},
        {},
        False,
        "their_cards",
        {"y1", "y2", "y3"},
    ),
    # Mud: four cards a side, three are not a formation
    (
        "R25-no-the-mud-card-that-asks-for-a-fourth",
        {5: {"you": "r3 r4 r5 mud", "opponent": "b8"}},
        {},
        False,
        "mud",
        {"mud"},
    ),
    ("R12-no-stage-for-a-side-still-incomplete", {5: {"you": "r3 r4", "opponent": "b8"}}, {}, False, "", None),
    (
        "R15-no-stage-for-a-claimed-flag",
        {5: {"you": "r3 r4 r5", "opponent": "b8 b9 b10", "claimed_by": "opponent"}},
        {},
        False,
        "",
        None,
    ),
]


@pytest.mark.parametrize(
    ("flags", "build", "ghost", "basis", "right"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_the_evidence_stage_is_computed_from_the_proof(
    flags: dict[int, Any], build: dict[str, Any], ghost: bool, basis: str, right: set[str] | None
) -> None:
    position = Position.build(flags, **build)
    stage = ClaimQuestion(5).evidence(position)
    if right is None:
        assert stage is None
        return
    assert stage is not None
    assert (stage.ghost, stage.basis, {c.notation for c in stage.right}) == (ghost, basis, right)
    assert stage.right <= set(stage.offered)
    if ghost:  # the palette: every unseen troop, the hands included (R13)
        assert set(stage.offered) == set(position.unseen_troops())
    else:  # every card the board shows: the flags, the discards and the hands
        shown = {c for s in position.flags for c in s.you + s.opponent}
        shown |= set(position.discards_you + position.discards_opponent + position.hand_you + position.hand_opponent)
        assert set(stage.offered) == shown


def test_R13_a_held_card_is_offered_but_never_evidence_and_says_why() -> None:
    flags = {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}
    position = Position.build(flags, hand={"you": "b9 y1"})
    stage = ClaimQuestion(5).evidence(position)
    assert stage is not None and parse_card("b9") in stage.offered and parse_card("b9") not in stage.right
    feedback = stage.judge(position, parse_card("b9"))
    assert (feedback.verdict, feedback.reason, feedback.rule) == ("wrong", "evidence_hand", "R13")


def _claim_puzzles() -> list[Puzzle]:
    return [p for p in library.puzzles() if isinstance(p.question, ClaimQuestion)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_evidence_tap_says_where_to_look_never_the_answer(lang: str) -> None:
    seen = 0
    for puzzle in _claim_puzzles():
        position = puzzle.position
        stage = puzzle.question.evidence(position)  # type: ignore[union-attr]
        if stage is None:
            continue
        wrong = [c for c in stage.offered if c not in stage.right]
        if not wrong:
            continue
        text = stage.judge(position, wrong[0]).text(lang)
        named = {card_short(c, lang) for c in stage.right}
        assert "{" not in text and not any(name in text.split() for name in named), (puzzle.id, text)
        seen += 1
    assert seen >= 50


def test_every_library_claim_puzzle_with_a_stage_has_a_right_card_on_offer() -> None:
    stages = [p.question.evidence(p.position) for p in _claim_puzzles()]  # type: ignore[union-attr]
    assert sum(s is not None for s in stages) >= 70
    assert all(s.right & set(s.offered) for s in stages if s is not None)


def test_a_claim_puzzles_guess_chance_counts_its_first_evidence_tap() -> None:
    position = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    # yes or no, then b7 or b10 among the six cards on the board
    assert ClaimQuestion(5).guess_chance(position) == Fraction(1, 2) * Fraction(2, 6)


# -- the controller ----------------------------------------------------------------------------------

WEDGE = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})


def _controller(position: Position = WEDGE) -> tuple[PuzzleController, Progress, list[tuple[str, bool]]]:
    progress = Progress(store=MemoryStore())
    answers: list[tuple[str, bool]] = []
    puzzle = Puzzle("wedge", {"en": "Flag 5"}, position=position, question=ClaimQuestion(5), answer=True)
    session = PuzzleSession(puzzle, progress=progress)
    return PuzzleController(puzzle, session=session, on_answer=lambda i, c: answers.append((i, c))), progress, answers


def test_R13_a_right_yes_asks_for_its_proof_and_records_nothing_yet() -> None:
    c, progress, answers = _controller()
    c.intent("answer", "yes")
    view = c.view()
    assert c.state == "evidence" and progress.attempts() == [] and answers == []
    assert view["feedback"]["state"] == "evidence" and view["evidence"]["prompt"] == view["feedback"]["text"]
    picks = sorted(
        card["id"] for f in view["flags"] for side in ("you", "opponent") for card in f[side] if card.get("pick")
    )
    assert picks == ["b10", "b7", "b8", "r3", "r4", "r5"]
    assert [a.get("state") for a in view["answers"] if "value" in a] == ["right", None]
    assert all(a.get("enabled") is False for a in view["answers"])


def test_R13_the_first_evidence_tap_counts_like_a_first_answer() -> None:
    c, progress, answers = _controller()
    c.intent("answer", "yes")
    c.intent("evidence", "b8")  # their own card at the flag: it blocks nothing
    assert c.state == "wrong" and answers == [("wedge", False)]
    [row] = progress.attempts()
    assert (row.correct, row.reason, row.rule) == (False, "evidence_blocker", "R13")
    assert c.view()["evidence"]["state"] == "wrong" and "b8" in c.feedback_text()
    c.intent("evidence", "b10")
    assert c.state == "right" and answers[-1] == ("wedge", True)
    assert [r.correct for r in progress.attempts()] == [False, True]
    view = c.view()
    assert view["evidence"]["state"] == "right" and not any(
        card.get("pick") for f in view["flags"] for card in f["you"] + f["opponent"]
    )


def test_R12_a_right_no_asks_for_a_ghost_from_the_palette() -> None:
    position = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
    puzzle = Puzzle("wedge", {"en": "Flag 5"}, position=position, question=ClaimQuestion(5), answer=False)
    c = PuzzleController(puzzle)
    c.tap_answer("no")
    [row] = c.view()["evidence"]["rows"]
    assert len(row["cards"]) == 56 and all(card.get("pick") for card in row["cards"])
    # the palette alone: no card on the flags is a second button for the same card
    assert not any(card.get("pick") for f in c.view()["flags"] for card in f["you"] + f["opponent"])
    assert c.evidence("b5") is False and c.state == "wrong"
    assert c.evidence("b9") is True and c.state == "right"


def test_a_wrong_yes_no_has_no_evidence_stage() -> None:
    c, progress, answers = _controller()
    c.tap_answer("no")
    assert c.state == "wrong" and "evidence" not in c.view() and c.evidence_keys() == set()
    with pytest.raises(ValueError):
        c.evidence("b7")


def test_the_widget_refuses_an_evidence_tap_not_on_offer_and_takes_one_on_offer() -> None:
    puzzle = Puzzle("wedge", {"en": "Flag 5"}, position=WEDGE, question=ClaimQuestion(5), answer=True)
    w = PuzzleWidget(puzzle)
    w.taps.action("answer", "yes")
    with pytest.warns(Warning):
        assert w.board.intent({"evidence": "y1"}) is False  # not on the board
    with pytest.raises(ValueError):
        w.taps.evidence("y1")
    w.taps.evidence("b7")
    assert w.state == "right"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_evidence_prompts_are_in_both_languages(lang: str) -> None:
    c, _, _ = _controller()
    c.set_lang(lang)
    c.tap_answer("yes")
    prompt = c.view()["evidence"]["prompt"]
    assert prompt and "{" not in prompt
    assert ("证明" in prompt) == (lang == "zh")
