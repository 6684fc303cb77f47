"""The odds puzzle kinds: ``safest-flag`` and ``outs``, judged by battleline_lab.core.odds.

- The library's odds puzzles: the engine's answer agrees with an independent count (outs: every
  unseen troop tried one by one, R13; safest flag: the chances of the flags recomputed on the
  position after the play), and the numbers an author's note states are the engine's.
- Every wrong choice gets feedback naming R13 (the unseen troops) in both languages, too few and
  too many outs saying different things; the widget shows the question's own choices.
- Bad questions are refused with ``FILE:LINE:COL: error:`` lines, one per problem, in both languages;
  the JSON Schema agrees on the shapes.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from battleline_lab.cli import main
from battleline_lab.core.cards import Troop, parse_card
from battleline_lab.core.formations import evaluate
from battleline_lab.core.odds import flag_odds
from battleline_lab.core.position import Position, Side
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text
from battleline_lab.quiz.questions import OutsQuestion, SafestFlagQuestion, question_from_data
from battleline_lab.quiz.questions import odds as odds_module
from battleline_lab.quiz.questions.odds import played
from battleline_lab.text.messages import LANGUAGES, message, render_msg
from battleline_lab.widgets import PuzzleWidget

ROOT = Path(__file__).resolve().parents[1]
ODDS_PUZZLES = sorted(
    p
    for p in library.ids()
    if library.get(p).question is not None and library.get(p).question.kind in ("outs", "safest-flag")
)  # type: ignore[union-attr]

#: (puzzle id, the answer, what makes it so)
LIBRARY = [
    ("outs-green-wedge", 1, "g4 face up (R13), g7 in your hand still unseen"),
    ("outs-their-nines", 2, "b9, p9 face up; o9, g9 left"),
    ("safest-flag-for-red-eight", 3, "a Wedge only a green Wedge beats: 2 outs"),
    ("safest-flag-for-green-seven", 9, "the empty start beats a weak Host and a beaten Wedge"),
    ("outs-purple-battalion", 5, "p3, p7 face up; p8 makes a Wedge, not a Battalion Order"),
    ("outs-orange-five-green-six", 7, "4s and 7s: r4, p4, y7, b7 face up, o7 in the discards (R31)"),
    ("outs-red-wedge-in-the-mud", 3, "Mud: two open slots (R25); r6 face up rules out r5-r6 only"),
    ("outs-red-eight-nine", 1, "r7 face up: r10 is the one out, though the flag looks good"),
    ("outs-after-your-scout", 3, "r8 face down on the deck after your Scout is unseen (R13, R27); o8 face up"),
    ("safest-flag-for-green-ten", 3, "under Fog red 1-2-3 is a sum of 6 (R24)"),
    ("safest-flag-for-blue-seven", 8, "Mud: blue 5-6-7 needs a fourth card (R25); a Wedge with one out against it"),
]


def test_the_library_has_the_odds_puzzles() -> None:
    assert sorted(pid for pid, _, _ in LIBRARY) == ODDS_PUZZLES
    assert {library.get(p).question.kind for p in ODDS_PUZZLES} == {"outs", "safest-flag"}  # type: ignore[union-attr]


@pytest.mark.parametrize(("puzzle_id", "answer", "why"), LIBRARY, ids=[p for p, _, _ in LIBRARY])
def test_library_answer_agrees_with_an_independent_count(puzzle_id: str, answer: int, why: str) -> None:
    puzzle = library.get(puzzle_id)
    question, position = puzzle.question, puzzle.position
    assert question is not None and puzzle.answer == answer == question.solve(position), why
    if isinstance(question, OutsQuestion):
        state = position.flag(question.flag)
        cards = state.formation_cards(question.side)
        visible = position.visible
        unseen = [t for t in (parse_card(f"{c}{v}") for c in "roygbp" for v in range(1, 11)) if t not in visible]
        # an out is a troop in at least one completion of the open slots (one, or two with Mud, R25) making the kind
        completions = [
            fill
            for fill in itertools.combinations(unseen, state.size - len(cards))
            if evaluate((*cards, *fill), fog=state.fog, mud=state.mud).kind.key == question.formation  # type: ignore[union-attr]
        ]
        brute = [t for t in unseen if any(t in fill for fill in completions)]
        assert [t.notation for t in brute] == [t.notation for t in question.explain(position).kind.troops]  # type: ignore[union-attr]
        assert all(isinstance(t, Troop) for t in brute)
    else:
        assert isinstance(question, SafestFlagQuestion)
        chances = {n: flag_odds(played(position, question.card, n), n).you for n in question.candidates(position)}
        assert max(chances, key=lambda n: chances[n]) == answer
        assert sorted(chances.values())[-1] > sorted(chances.values())[-2]


@pytest.mark.parametrize("puzzle_id", ODDS_PUZZLES)
def test_a_note_states_the_engine_s_numbers(puzzle_id: str) -> None:
    """Every percentage a note gives is a chance the engine computes (no figure drifts from the engine)."""
    puzzle = library.get(puzzle_id)
    question = puzzle.question
    assert question is not None
    said = {line for lang in LANGUAGES for line in question.key_lines(puzzle.position, lang)}
    figures = set(re.findall(r"(\d+\.\d)%", " ".join(said)))
    for lang in LANGUAGES:
        stated = set(re.findall(r"(\d+\.\d)%", puzzle.note_text(lang)))
        assert stated <= figures | {"0.0"}, (puzzle_id, lang, stated - figures)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("puzzle_id", ODDS_PUZZLES)
def test_every_wrong_choice_names_r13(puzzle_id: str, lang: str) -> None:
    puzzle = library.get(puzzle_id)
    question, position = puzzle.question, puzzle.position
    assert question is not None
    rule = message("trainer.rule.R13", lang)
    right = question.solve(position)
    wrong_choices = [c.value for c in question.choices(position) if c.value != right]
    assert right in [c.value for c in question.choices(position)] and len(wrong_choices) >= 1
    for value in wrong_choices:
        feedback = question.judge(position, value)
        text = render_msg(feedback.msg, lang)
        assert feedback.verdict == "wrong" and feedback.rule == "R13" and rule in text
        assert set(re.findall(r"R\d+", text)) == {"R13"}
        if isinstance(question, OutsQuestion):
            assert feedback.reason == ("outs_too_few" if value < right else "outs_too_many")  # type: ignore[operator]
        else:
            assert feedback.reason == "odds_lower" and f"{value}" in text
    assert question.judge(position, right).verdict == "right"


@pytest.mark.parametrize(
    ("question", "too_few", "too_many"),
    [
        ({"kind": "outs", "flag": 1, "formation": "wedge"}, "Too few", "Too many"),
    ],
)
def test_too_few_and_too_many_say_different_things(question: dict[str, Any], too_few: str, too_many: str) -> None:
    pos = Position.build({1: {"you": "b8 b9", "opponent": "r10 g10 y10"}})
    q = question_from_data(question)
    assert q.solve(pos) == 2  # b7 and b10 (the doctest's position of battleline_lab.core.odds)
    assert too_few in q.judge(pos, 1).text("en") and too_many in q.judge(pos, 3).text("en")
    assert "少了" in q.judge(pos, 1).text("zh") and "多了" in q.judge(pos, 3).text("zh")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("puzzle_id", ODDS_PUZZLES)
def test_the_widget_shows_the_question_s_own_choices(puzzle_id: str, lang: str) -> None:
    puzzle = library.get(puzzle_id)
    assert puzzle.question is not None
    widget = PuzzleWidget(puzzle, lang=lang, record=False)
    labels = [a["label"] for a in widget.board.view["answers"] if not a.get("hidden")]  # drawn by the board component
    assert labels == [render_msg(c.label, lang) for c in puzzle.question.choices(puzzle.position)]
    assert not widget.answer(
        next(c.value for c in puzzle.question.choices(puzzle.position) if c.value != puzzle.answer)
    )
    assert widget.answer(puzzle.answer) and widget.state == "right"


@pytest.mark.parametrize("puzzle_id", [p for p in ODDS_PUZZLES if library.get(p).question.kind == "safest-flag"])  # type: ignore[union-attr]
def test_a_safest_flag_explanation_is_made_once_and_equals_a_fresh_one(
    puzzle_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The explanation is remembered per question and position (views ask for it several times): it is the
    odds recomputed here, and an equal question on an equal position does not count them again."""
    puzzle = library.get(puzzle_id)
    question, position = puzzle.question, puzzle.position
    assert isinstance(question, SafestFlagQuestion)
    odds_module._safest.cache_clear()
    counted: list[int] = []

    def counting(pos: Position, flag: int) -> Any:
        counted.append(flag)
        return flag_odds(pos, flag)

    monkeypatch.setattr(odds_module, "flag_odds", counting)
    first = question.explain(position)
    assert counted == list(question.candidates(position))
    fresh = tuple((n, flag_odds(played(position, question.card, n), n)) for n in question.candidates(position))
    assert first.odds == fresh and first.card == question.card
    assert first.best == max(fresh, key=lambda fo: (fo[1].you, -fo[0]))[0]
    again = SafestFlagQuestion(question.card, question.flags).explain(dataclasses.replace(position))
    assert again == first and counted == list(question.candidates(position))  # equal inputs: no new count
    other = dataclasses.replace(position, turn=Side.OPPONENT if position.turn is Side.YOU else Side.YOU)
    assert other != position
    question.explain(other)
    assert len(counted) > len(question.candidates(position))  # another position is counted afresh


def test_to_data_round_trips() -> None:
    for data in (
        {"kind": "safest-flag", "card": "r8", "flags": [3, 7]},
        {"kind": "safest-flag", "card": "alexander"},
        {"kind": "outs", "flag": 4, "formation": "phalanx", "side": "opponent"},
        {"kind": "outs", "flag": 2, "formation": "sum"},
    ):
        assert question_from_data(data).to_data() == data


def test_played_takes_the_card_from_the_hand_and_keeps_the_tie_rule() -> None:
    before = Position.build({3: {"opponent": "r1 r2 r3", "you": "b5 b6"}}, hand={"you": "b7 y1"})
    after = played(before, parse_card("b7"), 3)
    assert [c.notation for c in after.flag(3).you] == ["b5", "b6", "b7"]
    assert [c.notation for c in after.hand_you] == ["y1"] and after.flag(3).completed_first is Side.OPPONENT


POSITION = """flags:
  1: {you: [b8, b9], opponent: [r10, g10, y10]}
  2: {you: [g1, g2, g3], opponent: [p4], claimed_by: you}
  3: {opponent: [o5, o6]}
  4: {you: [fog, y5], opponent: [r7]}
  9: {you: [alexander], opponent: [shield]}
hand: {you: [b7]}
"""

#: (question, the error's message in English, the text right before the value the error points at)
BAD = [
    (
        "{kind: outs, flag: 1, formation: wedgie}",
        "formation must be one of wedge, phalanx, battalion, skirmish, host, sum, not 'wedgie'",
        "formation: ",
    ),
    ("{kind: outs, flag: 1, formation: wedge, side: north}", "side must be you or opponent, not 'north'", "side: "),
    ("{kind: outs, flag: 2, formation: wedge}", "flag 2 is claimed (R15): nothing more can come there", "flag: "),
    (
        "{kind: outs, flag: 1, formation: host, side: opponent}",
        "the opponent's side of flag 1 is complete: it has no outs",
        "flag: ",
    ),
    (
        "{kind: outs, flag: 4, formation: wedge}",
        "under Fog only the sum counts (R24): formation is sum on a Fog flag and only there, not 'wedge'",
        "formation: ",
    ),
    (
        "{kind: safest-flag, card: b8}",
        "b8 is already face up in this position: the card to play must come from a hand (unseen, R13)",
        "card: ",
    ),
    (
        "{kind: safest-flag, card: b7, flags: [1, 2]}",
        "flag 2 has no room on your side (claimed or complete): you cannot play there",
        "[1, ",
    ),
    ("{kind: safest-flag, card: b7, flags: [1, 1]}", "flag 1 is listed twice", "[1, "),
    (
        "{kind: safest-flag, card: fog}",
        "fog is not a formation card: only troops and morale cards fill a formation (put fog/mud under environment)",
        "card: ",
    ),
    (
        "{kind: safest-flag, card: b7, flags: [5, 6]}",
        "flags 5 and 6 are too close to call (58.1% and 58.1%): the question needs one safest flag",
        "flags: ",
    ),
    (
        "{kind: safest-flag, card: darius}",
        "you have played alexander already: a player may play only one Leader (R20), so darius cannot be played",
        "card: ",
    ),
    ("{kind: safest-flag, card: [b7]}", "card must be one card written as text, like b7, not '['b7']'", "card: "),
]


@pytest.mark.parametrize(("question", "error", "before"), BAD, ids=[b[1][:40] for b in BAD])
def test_a_bad_question_is_refused_where_it_is(question: str, error: str, before: str) -> None:
    text = f"{POSITION}question: {question}\n"
    line = POSITION.count("\n") + 1
    col = len("question: ") + question.index(before) + len(before) + 1
    with pytest.raises(PuzzleFileError) as caught:
        load_puzzle_text(text, "p.yaml")
    assert str(caught.value).splitlines() == [f"p.yaml:{line}:{col}: error: {error}"]
    with pytest.raises(PuzzleFileError) as in_chinese:
        load_puzzle_text(text, "p.yaml", lang="zh")
    (zh,) = str(in_chinese.value).splitlines()
    assert zh.startswith(f"p.yaml:{line}:{col}: error: ") and re.search("[\u4e00-\u9fff]", zh), zh


def test_an_answer_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(PuzzleFileError, match="a number of troops from 0 to 60"):
        load_puzzle_text(f"{POSITION}question: {{kind: outs, flag: 1, formation: wedge}}\nanswer: many\n", "p.yaml")
    with pytest.raises(PuzzleFileError, match="a flag number from 1 to 9"):
        load_puzzle_text(f"{POSITION}question: {{kind: safest-flag, card: b7, flags: [1, 3]}}\nanswer: 10\n", "p.yaml")


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    text = resources.files("battleline_lab").joinpath("schema/puzzle.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


@pytest.mark.parametrize(
    ("question", "answer", "valid"),
    [
        ({"kind": "outs", "flag": 1, "formation": "wedge"}, 2, True),
        ({"kind": "outs", "flag": 1, "formation": "wedge", "side": "opponent"}, 0, True),
        ({"kind": "outs", "flag": 1, "formation": "wedge"}, -1, False),
        ({"kind": "outs", "flag": 1}, 2, False),
        ({"kind": "outs", "flag": 1, "formation": "wedgie"}, 2, False),
        ({"kind": "safest-flag", "card": "b7", "flags": [1, 3]}, 3, True),
        ({"kind": "safest-flag", "card": "b7"}, 10, False),
        ({"kind": "safest-flag", "card": "b7", "flags": [1]}, 1, False),
        ({"kind": "safest-flag", "flags": [1, 3]}, 1, False),
    ],
)
def test_the_schema_knows_the_odds_kinds(
    validator: jsonschema.Draft202012Validator, question: dict[str, Any], answer: int, valid: bool
) -> None:
    data = yaml.safe_load(POSITION) | {"question": question, "answer": answer}
    assert validator.is_valid(data) is valid


def test_explain_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    folder = ROOT / "puzzles" / "odds"
    assert main(["check", str(folder), "--strict"]) == 0
    assert f"{len(ODDS_PUZZLES)} ok" in capsys.readouterr().out and len(ODDS_PUZZLES) >= 8
    assert main(["explain", str(folder / "safest-flag-for-red-eight.yaml"), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "红8打到3号旗最稳：胜率96.1%。" in out and "红8打到7号旗：你的胜率58.6%，对手41.4%（精确值）" in out
