"""The ``play`` kind: play the hand card that claims a flag (R12), blocks a formation (R13) or wins (R16).

- The engine computes the right plays, checked here against an independent search over the
  offered plays (the claim verdict, the outs, the held flags after each play), and the board
  offers every legal play (R6, R18, R20): ``guess_chance`` is right plays over offered plays.
- A wrong play is judged wrong with the goal's rule; its feedback, in both languages, names the
  flag to look at and never the right play.
- A file need not state the answer; one it states must be the whole set; bad questions are refused
  with located ``FILE:LINE:COL: error:`` lines.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.cli import main
from battleline_lab.core.decide import can_claim
from battleline_lab.core.odds import outs
from battleline_lab.core.position import FLAGS, Position, Side
from battleline_lab.quiz.loader import load_puzzle_text
from battleline_lab.quiz.questions import PlayQuestion, question_from_data
from battleline_lab.quiz.questions.odds import played
from battleline_lab.quiz.questions.play import legal_plays, wins
from battleline_lab.text.messages import LANGUAGES, render_msg

Flags = dict[int, dict[str, str]]
Plays = set[tuple[str, int]]

#: (id, flags, hand, question, the right plays)
CASES = [
    (
        "R12-claim-complete-a-wedge",
        {4: {"you": "r5 r6", "opponent": "b2 g3 y4"}, 7: {"you": "b9", "opponent": "g5 g6"}},
        "r7 b1 y9",
        {"kind": "play", "goal": "claim", "flag": 4},
        {("r7", 4)},
    ),
    (
        "R12-claim-two-cards-do-it",
        {2: {"you": "g9 g10", "opponent": "r6 o7 y9"}},
        "g8 p9 b1",
        {"kind": "play", "goal": "claim", "flag": 2},
        {("g8", 2), ("p9", 2)},
    ),
    (
        "R13-block-the-last-green-seven",
        {7: {"you": "b9", "opponent": "g5 g6"}, 2: {"you": "g4", "opponent": "r1"}, 3: {"you": "g8"}},
        "r7 g7 y9",
        {"kind": "play", "goal": "block", "flag": 7, "formation": "wedge"},
        {("g7", n) for n in FLAGS},
    ),
    (
        "R16-win-the-third-adjacent-flag",
        {
            1: {"you": "r1 r2 r3", "opponent": "b8 b9 b10", "claimed_by": "opponent"},
            5: {"you": "y1 y2 y3", "opponent": "g1 o1 p1", "claimed_by": "you"},
            6: {"you": "p5 o5 g5", "opponent": "b1 b2 b4", "claimed_by": "you"},
            7: {"you": "b6 b7", "opponent": "r4 o6 y9"},
        },
        "b5 p2 o2",
        {"kind": "play", "goal": "win"},
        {("b5", 7)},
    ),
]


def _position(flags: Flags, hand: str) -> Position:
    return Position.build(flags, hand={"you": hand})


def _independent(position: Position, question: PlayQuestion) -> set[tuple[str, int]]:
    """The right plays by brute force: every hand card on every open slot, the goal checked after it."""
    right = set()
    for card in position.hand_you:
        for n in FLAGS:
            state = position.flag(n)
            if state.claimed_by is not None or state.is_complete(Side.YOU):
                continue
            after = played(position, card, n)
            if question.goal == "claim":
                ok = after.flag(question.flag or 0).is_complete(Side.YOU) and can_claim(
                    after, question.flag or 0, Side.YOU
                )
            elif question.goal == "block":
                ok = all(
                    k.kind is None or k.kind.key != question.formation
                    for k in outs(after, question.flag or 0, "opponent").kinds
                )
            else:
                held = set(after.claimed(Side.YOU)) | {
                    m
                    for m in FLAGS
                    if after.flag(m).claimed_by is None
                    and after.flag(m).is_complete(Side.YOU)
                    and can_claim(after, m, Side.YOU)
                }
                ok = wins(held)
            if ok:
                right.add((card.notation, n))
    return right


@pytest.mark.parametrize(("flags", "hand", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_engine_finds_the_right_plays(flags: Flags, hand: str, data: dict[str, Any], expected: Plays) -> None:
    position = _position(flags, hand)
    question = question_from_data(data)
    assert isinstance(question, PlayQuestion)
    assert question.problems(position) == []
    right = {(p["card"], p["flag"]) for p in question.solve(position)}
    assert right == expected == _independent(position, question)
    offered = legal_plays(position)
    assert question.guess_chance(position) == Fraction(len(expected), len(offered))
    for card, flag in expected:
        assert question.judge(position, {"card": card, "flag": flag}).verdict == "right"


@pytest.mark.parametrize(("flags", "hand", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_wrong_play_names_the_rule_and_never_the_right_play(
    flags: Flags, hand: str, data: dict[str, Any], expected: Plays
) -> None:
    position = _position(flags, hand)
    question = question_from_data(data)
    assert isinstance(question, PlayQuestion)
    wrong_plays = [(c, n) for c, n in legal_plays(position) if (c.notation, n) not in expected]
    assert wrong_plays
    summaries = {lang: question.summary(position, lang) for lang in LANGUAGES}
    for card, flag in wrong_plays:
        feedback = question.judge(position, {"card": card.notation, "flag": flag})
        assert (feedback.verdict, feedback.rule) == ("wrong", question.rule)
        for lang in LANGUAGES:
            text = render_msg(feedback.msg, lang)
            assert f"({question.rule})" in text or f"（{question.rule}）" in text, text
            # the right play's words (the summary's plays) are never in the feedback
            plays = summaries[lang].split(":" if lang == "en" else "：", 1)[1].strip(" .。")
            assert plays not in text


@pytest.mark.parametrize(
    ("hand", "flags", "offered"),
    [
        ("r5 b5", {}, 18),  # two troops, nine empty flags (R6)
        ("r5 fog scout", {}, 9),  # environment and guile cards fill no slot
        ("r5", {1: {"you": "r1 r2 r3"}, 2: {"you": "b1", "opponent": "b2 b3 b4", "claimed_by": "opponent"}}, 7),
        ("alexander r5", {3: {"you": "darius", "opponent": "companion"}}, 9),  # R20: one Leader a player
        ("shield r5", {3: {"you": "darius"}}, 9),  # R18: no more tactics than the opponent + 0 before this one
    ],
    ids=[
        "R6-two-troops",
        "R6-tactics-off-the-slots",
        "R15-claimed-and-complete-closed",
        "R20-second-leader",
        "R18-tactics-count",
    ],
)
def test_R6_R18_R20_the_board_offers_the_legal_plays(hand: str, flags: Flags, offered: int) -> None:
    position = Position.build(flags, hand={"you": hand})
    assert len(legal_plays(position)) == offered


BAD = [
    ("question: {kind: play, goal: dance, flag: 4}", "goal must be one of"),
    ("question: {kind: play, goal: claim}", "needs flag"),
    ("question: {kind: play, goal: block, flag: 7}", "needs formation"),
    ("question: {kind: play, goal: claim, flag: 4, formation: wedge}", "only for goal block"),
    ("question: {kind: play, goal: win, flag: 4}", "leave flag out"),
    ("question: {kind: play, goal: claim, flag: 9}", "no right play"),
    ("question: {kind: play, goal: claim, flag: 4}\nanswer: [{card: b1, flag: 4}]", "wrong answer"),
    ("question: {kind: play, goal: claim, flag: 4}\nturn: opponent", "needs your turn"),
]

TABLE = "flags:\n  4: {you: [r5, r6], opponent: [b2, g3, y4]}\n  9: {opponent: [r8]}\nhand: {you: [r7, b1, y9]}\n"


@pytest.mark.parametrize(("question", "error"), BAD, ids=[b[1].replace(" ", "-") for b in BAD])
def test_a_bad_play_question_is_refused_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], question: str, error: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(TABLE + question + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == (1 if error == "wrong answer" else 2)  # 2: the file does not load
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if ": error: " in line]
    assert lines and all(line.startswith(f"{path}:") for line in lines)
    assert any(error in line for line in lines), lines
    assert "Traceback" not in out.err


@pytest.mark.parametrize(
    "answer", ["", "answer: [{card: r7, flag: 4}]\n"], ids=["answer-left-out", "answer-the-whole-set"]
)
def test_a_play_file_needs_no_answer_and_a_stated_one_is_verified(tmp_path: Path, answer: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(TABLE + "question: {kind: play, goal: claim, flag: 4}\n" + answer, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    puzzle = load_puzzle_text(path.read_text(encoding="utf-8"), str(path))
    assert puzzle.is_correct({"card": "r7", "flag": 4})
    assert not puzzle.is_correct({"card": "y9", "flag": 4})
