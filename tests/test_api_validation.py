"""The Python rules API checks what the YAML loader checks, in the loader's words.

``Position.build`` refuses what a puzzle file may not say (a flag that does not exist, a card
twice, a card on two flags, both Leaders on one side, a guile card on a flag, an unknown key, a
side that is not one...) with a :class:`PositionError` whose text, in English and Chinese, is the
loader's text for the same mistake in a file.  What an analysis can still answer (tactics counts
apart, R18; a tie without ``first_complete``, R11) is a :class:`PositionWarning`.  The analyses'
entry points refuse a flag that is not an int 1-9 (``True`` is not flag 1, ``5.0`` is no
``TypeError``) and a side that is not one.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from battleline_lab import PositionError, PositionWarning, analyse_claim, analyse_position, can_claim, claimable_flags
from battleline_lab.core.claims import UndecidedTieError
from battleline_lab.core.odds import flag_odds, outs
from battleline_lab.core.position import Position, Side
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text
from tests.random_positions import STAGES, random_positions

LANGS = ("en", "zh")

# (id, Position.build's arguments, the same position as a puzzle file, the problem codes refused)
REFUSED: list[tuple[str, dict[str, Any], str, list[str]]] = [
    ("flag-10", {"flags": {10: {"you": "r1"}}}, "flags: {10: {you: [r1]}}", ["bad_flag_number"]),
    ("flag-0", {"flags": {0: {"you": "r1"}}}, "flags: {0: {you: [r1]}}", ["bad_flag_number"]),
    ("flag-bool", {"flags": {True: {"you": "r1"}}}, "flags: {true: {you: [r1]}}", ["bad_flag_number"]),
    ("flag-float", {"flags": {5.0: {"you": "r1"}}}, "flags: {5.0: {you: [r1]}}", ["bad_flag_number"]),
    ("flag-text-10", {"flags": {"10": {"you": "r1"}}}, "flags: {'10': {you: [r1]}}", ["bad_flag_number"]),
    ("flag-text-05", {"flags": {"05": {"you": "r1"}}}, "flags: {'05': {you: [r1]}}", ["bad_flag_number"]),
    ("flag-full-width", {"flags": {"\uff15": {"you": "r1"}}}, "flags: {'\uff15': {you: [r1]}}", ["bad_flag_number"]),
    ("flag-space", {"flags": {" 5": {"you": "r1"}}}, "flags: {' 5': {you: [r1]}}", ["bad_flag_number"]),
    (
        "r1-r1-r1",
        {"flags": {5: {"you": "r1 r1 r1"}}},
        "flags: {5: {you: [r1, r1, r1]}}",
        ["duplicate_card", "duplicate_card"],
    ),
    (
        "card-on-two-flags",
        {"flags": {1: {"you": "r3"}, 2: {"opponent": "r3"}}},
        "flags: {1: {you: [r3]}, 2: {opponent: [r3]}}",
        ["duplicate_card"],
    ),
    (
        "card-on-a-flag-and-in-a-hand",
        {"flags": {1: {"you": "r3"}}, "hand": {"opponent": "r3"}},
        "flags: {1: {you: [r3]}}\nhand: {opponent: [r3]}",
        ["duplicate_card"],
    ),
    (
        "both-leaders-one-side",
        {"flags": {1: {"you": "alexander"}, 2: {"you": "darius"}}, "discards": {"opponent": "fog scout"}},
        "flags: {1: {you: [alexander]}, 2: {you: [darius]}}\ndiscards: {opponent: [fog, scout]}",
        ["two_leaders"],
    ),
    ("scout-on-a-flag", {"flags": {1: {"you": "scout"}}}, "flags: {1: {you: [scout]}}", ["guile_on_flag"]),
    (
        "redeploy-on-a-flag",
        {"flags": {4: {"opponent": "r1 redeploy"}}},
        "flags: {4: {opponent: [r1, redeploy]}}",
        ["guile_on_flag"],
    ),
    ("four-cards", {"flags": {1: {"you": "r1 r2 r3 r4"}}}, "flags: {1: {you: [r1, r2, r3, r4]}}", ["too_many_cards"]),
    (
        "claimed-incomplete",
        {"flags": {1: {"you": "r1", "claimed_by": "you"}}},
        "flags: {1: {you: [r1], claimed_by: you}}",
        ["claimed_incomplete"],
    ),
    (
        "first-complete-unused",
        {"flags": {1: {"you": "r1", "first_complete": "you"}}},
        "flags: {1: {you: [r1], first_complete: you}}",
        ["first_complete_unused"],
    ),
    ("misspelt-flag-key", {"flags": {5: {"yuo": "r1"}}}, "flags: {5: {yuo: [r1]}}", ["unknown_key"]),
    ("unknown-card", {"flags": {5: {"you": "r11"}}}, "flags: {5: {you: [r11]}}", ["unknown_card"]),
    ("card-list-token", {"flags": {5: {"you": ["r3", "x9"]}}}, "flags: {5: {you: [r3, x9]}}", ["unknown_card"]),
    ("card-not-text", {"flags": {5: {"you": ["r3", 5]}}}, "flags: {5: {you: [r3, 5]}}", ["card_not_text"]),
    ("cards-not-a-list", {"flags": {5: {"you": 7}}}, "flags: {5: {you: 7}}", ["expected_cards"]),
    ("flag-not-a-mapping", {"flags": {5: ["r1"]}}, "flags: {5: [r1]}", ["expected_mapping"]),
    ("flags-not-a-mapping", {"flags": ["r1"]}, "flags: [r1]", ["expected_mapping"]),
    (
        "claimed-by-east",
        {"flags": {5: {"you": "r1 r2 r3", "claimed_by": "east"}}},
        "flags: {5: {you: [r1, r2, r3], claimed_by: east}}",
        ["bad_choice"],
    ),
    (
        "first-complete-true",
        {"flags": {5: {"you": "r1 r2 r3", "opponent": "b4 b5 b6", "first_complete": True}}},
        "flags: {5: {you: [r1, r2, r3], opponent: [b4, b5, b6], first_complete: true}}",
        ["bad_choice"],
    ),
    ("turn-misspelt", {"turn": "opponnet"}, "turn: opponnet", ["bad_choice"]),
    ("turn-upper-case", {"turn": "YOU"}, "turn: YOU", ["bad_choice"]),
    ("claim-timing", {"claim_timing": "later"}, "rules: {claim_timing: later}", ["bad_choice"]),
    ("discards-side", {"discards": {"yuo": "r1"}}, "discards: {yuo: [r1]}", ["unknown_key"]),
    ("hand-side", {"hand": {"east": "r1"}}, "hand: {east: [r1]}", ["unknown_key"]),
    ("hand-not-a-mapping", {"hand": "r1"}, "hand: r1", ["expected_mapping"]),
]


def _loader_says(text: str, lang: str) -> list[str]:
    """The loader's messages for a file (without FILE:LINE:COL), in file order."""
    with pytest.raises(PuzzleFileError) as raised:
        load_puzzle_text(text, "p.yaml", lang=lang)
    return [d.message for d in raised.value.diagnostics]


def _build(arguments: dict[str, Any]) -> Position:
    arguments = dict(arguments)
    return Position.build(arguments.pop("flags", None), **arguments)


@pytest.mark.parametrize(("case", "arguments", "text", "codes"), REFUSED, ids=[c[0] for c in REFUSED])
def test_build_refuses_what_a_file_may_not_say(
    case: str, arguments: dict[str, Any], text: str, codes: list[str]
) -> None:
    with pytest.raises(PositionError) as raised:
        _build(arguments)
    assert [p.code for p in raised.value.problems] == codes
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("case", "arguments", "text", "codes"), REFUSED, ids=[c[0] for c in REFUSED])
def test_build_says_it_in_the_loaders_words(
    case: str, arguments: dict[str, Any], text: str, codes: list[str], lang: str
) -> None:
    with pytest.raises(PositionError) as raised:
        _build(arguments)
    said = raised.value.text(lang)
    assert said == "; ".join(_loader_says(text, lang))
    if lang == "en":
        assert str(raised.value) == said


def test_build_reads_a_flag_written_as_in_a_file() -> None:
    """``"5"`` is flag 5, as a quoted key in a file (the schema's propertyNames): never dropped."""
    quoted = Position.build({"5": {"you": "r3 r4 r5", "opponent": "b8"}, "2": {"you": "b7", "opponent": "b10"}})
    assert quoted == Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    assert analyse_claim(quoted, 5).claimable and can_claim(quoted, 5)
    with pytest.raises(PositionError) as raised:
        Position.build({5: {"you": "r3"}, "5": {"opponent": "b8"}})
    assert [p.code for p in raised.value.problems] == ["duplicate_key"]


@pytest.mark.parametrize(
    ("arguments", "codes"),
    [
        ({"flags": {1: {"you": "fog mud"}}}, ["tactics_count"]),
        ({"flags": {1: {"you": "alexander r1 r2"}, 2: {"you": "companion"}}}, ["tactics_count"]),
        ({"flags": {4: {"you": "r3 r4 r5", "opponent": "b3 b4 b5"}}}, ["first_complete_missing"]),
    ],
    ids=["fog-and-mud", "two-morale", "tie-without-first-complete"],
)
def test_build_warns_about_what_an_analysis_can_answer(arguments: dict[str, Any], codes: list[str]) -> None:
    with pytest.warns(PositionWarning) as caught:
        position = _build(arguments)
    [warning] = [w.message for w in caught if isinstance(w.message, PositionWarning)]
    assert [p.code for p in warning.problems] == codes
    for lang in LANGS:
        assert warning.text(lang) and "{" not in warning.text(lang)
    if codes == ["first_complete_missing"]:
        with pytest.raises(UndecidedTieError):
            analyse_claim(position, 4, Side.YOU)
    else:
        analyse_position(position)


POSITION = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 1: {"you": "g1 g2 g3", "opponent": "y9"}})
# (a flag argument that is not a flag, the same value in a puzzle file's question)
BAD_FLAGS: list[tuple[object, str]] = [
    (True, "true"),
    (False, "false"),
    (5.0, "5.0"),
    (1.0, "1.0"),
    ("5", "'5'"),
    ("1", "'1'"),
    (0, "0"),
    (10, "10"),
    (-1, "-1"),
    (None, "null"),
    ([5], "[5]"),
    (2**70, str(2**70)),
]
FLAG_ENTRIES: list[tuple[str, Callable[[Position, Any], object]]] = [
    ("analyse_claim", lambda pos, flag: analyse_claim(pos, flag)),
    ("analyse_claim-side", lambda pos, flag: analyse_claim(pos, flag, Side.YOU)),
    ("can_claim", lambda pos, flag: can_claim(pos, flag)),
    ("flag_odds", lambda pos, flag: flag_odds(pos, flag)),
    ("outs", lambda pos, flag: outs(pos, flag, "you")),
    ("Position.flag", lambda pos, flag: pos.flag(flag)),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("flag", "written"), BAD_FLAGS, ids=[repr(f) for f, _ in BAD_FLAGS])
@pytest.mark.parametrize(("entry", "call"), FLAG_ENTRIES, ids=[e[0] for e in FLAG_ENTRIES])
def test_analyses_refuse_a_flag_that_is_not_one(
    entry: str, call: Callable[[Position, Any], object], flag: object, written: str, lang: str
) -> None:
    """A flag is an int 1-9: ``True`` is not flag 1, ``5.0`` is no TypeError; said as a file's question is told."""
    with pytest.raises(PositionError) as raised:
        call(POSITION, flag)
    expected = _loader_says(f"question: {{kind: claim, flag: {written}}}\nanswer: true", lang)
    assert [raised.value.text(lang)] == expected


BAD_SIDES: list[object] = ["east", "YOU", "you ", True, 1, "", Side]
SIDE_ENTRIES: list[tuple[str, Callable[[Position, Any], object]]] = [
    ("analyse_claim", lambda pos, side: analyse_claim(pos, 5, side)),
    ("can_claim", lambda pos, side: can_claim(pos, 5, side)),
    ("claimable_flags", lambda pos, side: claimable_flags(pos, side)),
    ("outs", lambda pos, side: outs(pos, 5, side)),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("side", BAD_SIDES, ids=repr)
@pytest.mark.parametrize(("entry", "call"), SIDE_ENTRIES, ids=[e[0] for e in SIDE_ENTRIES])
def test_analyses_refuse_a_side_that_is_not_one(
    entry: str, call: Callable[[Position, Any], object], side: object, lang: str
) -> None:
    with pytest.raises(PositionError) as raised:
        call(POSITION, side)
    [problem] = raised.value.problems
    assert problem.code == "bad_choice"
    # the loader's words for a side that is not one (a file's ``turn``), with "side" for "turn"
    if isinstance(side, str) and side.strip():
        [said] = _loader_says(f"turn: '{side}'", lang)
        assert raised.value.text(lang) == said.replace("turn", "side", 1)


@pytest.mark.parametrize("side", ["you", "opponent", Side.YOU, Side.OPPONENT, None])
def test_analyses_take_every_side_there_is(side: Side | str | None) -> None:
    assert analyse_claim(POSITION, 5, side).claimable == can_claim(POSITION, 5, side)
    assert claimable_flags(POSITION, side) == analyse_position(POSITION).claimable(side or POSITION.turn)


@pytest.mark.parametrize("stage", STAGES)
def test_the_random_positions_build_without_a_word(stage: str) -> None:
    """The benchmark's and the equivalence tests' positions are legal: built again, nothing refused or warned."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositionWarning)
        for position in random_positions(20, seed=3, stage=stage):
            data = position.to_data()
            assert Position.build(data["flags"], discards=data.get("discards"), hand=data.get("hand")) == position
