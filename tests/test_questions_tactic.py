"""The ``play`` kind's tactic play: a Deserter from the hand on a card of the opponent's side (R29).

- The board offers a Deserter on every card of the opponent's side of every unclaimed flag (R29,
  R26), besides the troop plays (R6), and only while you have played no more tactics cards than
  the opponent (R18): ``guess_chance`` is right plays over all of them.
- The deserted card goes to the opponent's discards and the Deserter to yours, face up (R31), so
  the deserted card is evidence afterwards (R13): a flag can become provable (R12) or a formation
  impossible (R13) by it.  The right plays are checked against a search written here.
- A wrong target is judged wrong with the goal's rule and its feedback never names the right one.
- A file states the answer as ``{card: deserter, target: CARD}``; a wrong one is refused.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.cli import main
from battleline_lab.core.cards import Tactic, parse_card
from battleline_lab.core.decide import can_claim
from battleline_lab.core.odds import outs
from battleline_lab.core.position import FLAGS, Position, Side
from battleline_lab.quiz.loader import load_puzzle_text
from battleline_lab.quiz.questions import PlayQuestion, question_from_data
from battleline_lab.quiz.questions.play import deserted, legal_plays
from battleline_lab.text.messages import LANGUAGES, card_label, render_msg

Flags = dict[int, dict[str, str]]

#: (id, flags, hand, question, the right targets of the Deserter)
CASES = [
    (
        "R29-R12-claim-desert-a-wedge-threat",
        # their y8 y9 could still get y10 (y7 is face up at flag 2): deserting either leaves no Wedge (R12, R13)
        {5: {"you": "r10 b10 g10", "opponent": "y8 y9"}, 2: {"opponent": "y7"}, 1: {"you": "b3"}},
        "deserter b1 p3",
        {"kind": "play", "goal": "claim", "flag": 5},
        {"y8", "y9"},
    ),
    (
        "R29-R13-block-desert-the-middle-card",
        # their g5 g6 need g7 (g4 is face up); without g6 only g3 g4 g5 is left, and g4 is seen
        {3: {"opponent": "g5 g6"}, 8: {"you": "g4"}, 1: {"you": "r9"}},
        "deserter r1 b2",
        {"kind": "play", "goal": "block", "flag": 3, "formation": "wedge"},
        {"g6"},
    ),
]


def _independent(flags: Flags, hand: str, question: PlayQuestion) -> set[str]:
    """The right targets by brute force: each card of theirs on an unclaimed flag taken off the table and put in
    their discards, the Deserter in yours, then the goal checked on the position built from scratch."""
    right = set()
    for n, sides in flags.items():
        if "claimed_by" in sides:
            continue
        theirs = sides.get("opponent", "").split()
        for target in theirs:
            after = Position.build(
                {**flags, n: {**sides, "opponent": " ".join(c for c in theirs if c != target)}},
                discards={"you": "deserter", "opponent": target},
                hand={"you": " ".join(c for c in hand.split() if c != "deserter")},
            )
            flag = question.flag or 0
            if question.goal == "claim":
                ok = can_claim(after, flag, Side.YOU)
            else:
                ok = all(
                    k.kind is None or k.kind.key != question.formation for k in outs(after, flag, "opponent").kinds
                )
            if ok:
                right.add(target)
    return right


@pytest.mark.parametrize(("flags", "hand", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_R29_the_engine_finds_the_right_targets(
    flags: Flags, hand: str, data: dict[str, Any], expected: set[str]
) -> None:
    position = Position.build(flags, hand={"you": hand})
    question = question_from_data(data)
    assert isinstance(question, PlayQuestion)
    assert question.problems(position) == []
    solved = question.solve(position)
    assert all(p["card"] == "deserter" and set(p) == {"card", "target"} for p in solved)
    assert {p["target"] for p in solved} == expected == _independent(flags, hand, question)
    offered = legal_plays(position)
    targets = [c for n in FLAGS for c in position.flag(n).opponent]
    troops = [c for c in position.hand_you if c is not Tactic.DESERTER]
    open_flags = [n for n in FLAGS if not position.flag(n).is_complete(Side.YOU)]
    assert len(offered) == len(targets) + len(troops) * len(open_flags)  # both kinds of plays (R6, R29)
    assert question.guess_chance(position) == Fraction(len(expected), len(offered))
    for target in expected:
        assert question.judge(position, {"card": "deserter", "target": target}).verdict == "right"


#: (id, flags, hand, question) where no Deserter play reaches the goal
NO_DESERTION = [
    (
        "R29-R12-claim-an-emptied-side-can-still-win",
        # deserting their one card leaves an empty side: it can still make a Wedge over yours (R12)
        {5: {"you": "r3 r4 r5", "opponent": "y9"}, 1: {"you": "b3"}},
        "deserter b1 p3",
        {"kind": "play", "goal": "claim", "flag": 5},
    ),
    (
        "R29-R13-block-no-deserter-in-the-hand",
        {3: {"opponent": "g5 g6"}, 8: {"you": "g4"}, 1: {"you": "r9"}},
        "r1 b2 g7",
        {"kind": "play", "goal": "block", "flag": 3, "formation": "wedge"},
    ),
]


@pytest.mark.parametrize(
    ("flags", "hand", "data", "reaches"),
    [(*c[1:4], True) for c in CASES] + [(*c[1:], False) for c in NO_DESERTION],
    ids=[c[0] for c in CASES] + [c[0] for c in NO_DESERTION],
)
def test_R29_a_desertion_reaches_exactly_when_a_right_play_is_a_desertion(
    flags: Flags, hand: str, data: dict[str, Any], reaches: bool
) -> None:
    """The generator's first question about a table (the Deserter's few targets, before every play is judged)."""
    position = Position.build(flags, hand={"you": hand})
    question = question_from_data(data)
    assert isinstance(question, PlayQuestion)
    assert question.a_desertion_reaches(position) is reaches
    assert any(p["card"] == "deserter" for p in question.solve(position)) is reaches


@pytest.mark.parametrize(("flags", "hand", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_R29_a_wrong_target_names_the_rule_and_never_the_right_one(
    flags: Flags, hand: str, data: dict[str, Any], expected: set[str]
) -> None:
    position = Position.build(flags, hand={"you": hand})
    question = question_from_data(data)
    assert isinstance(question, PlayQuestion)
    wrong_targets = [c for n in FLAGS for c in position.flag(n).opponent if c.notation not in expected]
    assert wrong_targets
    for target in wrong_targets:
        feedback = question.judge(position, {"card": "deserter", "target": target.notation})
        assert (feedback.verdict, feedback.rule) == ("wrong", question.rule)
        for lang in LANGUAGES:
            text = render_msg(feedback.msg, lang)
            assert f"({question.rule})" in text or f"（{question.rule}）" in text, text
            for right in expected:
                assert card_label(parse_card(right), lang) not in text


def test_R31_the_deserted_card_lies_face_up_in_its_owners_discards() -> None:
    before = Position.build({5: {"you": "r4 r5 r6", "opponent": "b8 b9"}}, hand={"you": "deserter b1"})
    after = deserted(before, Tactic.DESERTER, parse_card("b9"))
    assert after.flag(5).opponent == (parse_card("b8"),)
    assert after.discards(Side.OPPONENT) == (parse_card("b9"),)
    assert after.discards(Side.YOU) == (Tactic.DESERTER,)
    assert after.hand_you == (parse_card("b1"),)
    assert parse_card("b9") in after.visible  # R13: evidence from now on
    assert after.flag(5).completed_first is Side.YOU  # their side is short again (R11)
    assert after.problems() == []


@pytest.mark.parametrize(
    ("hand", "flags", "discards", "deserter_plays"),
    [
        ("deserter", {2: {"opponent": "g4 g5"}, 3: {"opponent": "fog y1"}}, {}, 4),  # R26: Fog too
        ("deserter", {2: {"opponent": "g4 g5", "you": "r1 r2 r3", "claimed_by": "you"}}, {}, 0),  # R15
        ("deserter", {2: {"opponent": "g4 g5"}}, {"you": "scout"}, 0),  # R18: one tactics card ahead
        ("deserter", {2: {"opponent": "g4 g5"}}, {"you": "scout", "opponent": "shield"}, 2),  # R18: level
    ],
    ids=["R26-R29-every-card-theirs", "R15-not-on-a-claimed-flag", "R18-tactics-ahead", "R18-tactics-level"],
)
def test_R29_the_board_offers_the_deserter_on_every_card_of_theirs(
    hand: str, flags: Flags, discards: dict[str, str], deserter_plays: int
) -> None:
    position = Position.build(flags, hand={"you": hand}, discards=discards)
    plays = [p for p in legal_plays(position) if p[0] is Tactic.DESERTER]
    assert len(plays) == deserter_plays
    assert all(not isinstance(target, int) for _card, target in plays)


TABLE = (
    "flags:\n  3: {opponent: [g5, g6]}\n  8: {you: [g4]}\n  1: {you: [r9]}\n"
    "hand: {you: [deserter, r1, b2]}\nquestion: {kind: play, goal: block, flag: 3, formation: wedge}\n"
)


@pytest.mark.parametrize(
    ("answer", "code"),
    [("", 0), ("answer: [{card: deserter, target: g6}]\n", 0), ("answer: [{card: deserter, target: g5}]\n", 1)],
    ids=["R29-answer-left-out", "R29-answer-the-whole-set", "R29-a-wrong-answer-refused"],
)
def test_R29_a_tactic_file_answer_is_verified(tmp_path: Path, answer: str, code: int) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(TABLE + answer, encoding="utf-8")
    assert main(["check", str(path)]) == code
    puzzle = load_puzzle_text(path.read_text(encoding="utf-8"), str(path))
    assert puzzle.is_correct({"card": "deserter", "target": "g6"})
    assert not puzzle.is_correct({"card": "deserter", "target": "g5"})
    assert not puzzle.is_correct({"card": "r1", "flag": 3})


def test_R26_a_deserter_on_a_mud_that_leaves_four_cards_is_refused_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        "flags:\n  2: {you: [r1, r2, r3, r4], opponent: [mud, b1]}\n  5: {you: [g5, g6], opponent: [y1, y2, y3]}\n"
        "hand: {you: [deserter, g7]}\nquestion: {kind: play, goal: claim, flag: 5}\n",
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if ": error: " in line]
    assert lines and all(line.startswith(f"{path}:") for line in lines)
    assert any("four cards" in line and "R26" in line for line in lines), lines
    assert "Traceback" not in out.err
