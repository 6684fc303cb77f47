"""The message catalogue and the renderer: every step wording is reachable, fills all its placeholders."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

from battleline_lab.core.cards import Colour, Tactic, Troop, parse_card, parse_cards
from battleline_lab.core.claims import Reason, Step
from battleline_lab.core.formations import FormationKind, Shape
from battleline_lab.core.position import Location, Position, PositionError, PositionWarning, Problem, Side
from battleline_lab.text.messages import (
    LANGUAGES,
    card_label,
    catalogue,
    kind_name,
    render_problem,
    render_step,
    shape_name,
)
from battleline_lab.text.messages import _step_key as step_key

W, P, B, S, H = (
    FormationKind.WEDGE,
    FormationKind.PHALANX,
    FormationKind.BATTALION,
    FormationKind.SKIRMISH,
    FormationKind.HOST,
)
YOU, OPP = Side.YOU, Side.OPPONENT
T = parse_cards


def step(reason: Reason, **fields: Any) -> Step:
    return Step(reason, YOU, 5, **fields)


ON_FLAG = Location("flag", YOU, 2)
IN_DISCARD = Location("discard", OPP)

# one step per wording (catalogue key); the key is what the renderer must pick for it
STEPS: dict[str, Step] = {
    "step.flag_claimed": step(Reason.FLAG_CLAIMED, other=OPP),
    "step.side_incomplete": step(Reason.SIDE_INCOMPLETE, cards=T("r3 r4"), count=1, size=3),
    "step.mud": step(Reason.MUD, size=4),
    "step.fog": step(Reason.FOG),
    "step.your_formation": step(Reason.YOUR_FORMATION, cards=T("r3 r4 r5"), kind=W, total=12),
    "step.your_formation.fog": step(Reason.YOUR_FORMATION, cards=T("r3 r4 alexander"), total=17),
    "step.their_formation": step(Reason.THEIR_FORMATION, cards=T("b1 b2 b3"), kind=W, total=6),
    "step.their_formation.fog": step(Reason.THEIR_FORMATION, cards=T("b1 b2 b3"), total=6),
    "step.you_are_stronger": step(Reason.YOU_ARE_STRONGER, kind=W, total=12),
    "step.you_are_stronger.kind": step(Reason.YOU_ARE_STRONGER, kind=W, total=12, other_kind=H, other_total=20),
    "step.you_are_stronger.sum": step(Reason.YOU_ARE_STRONGER, kind=B, total=13, other_kind=B, other_total=11),
    "step.you_are_stronger.fog": step(Reason.YOU_ARE_STRONGER, total=13, other_total=11),
    "step.they_are_stronger": step(Reason.THEY_ARE_STRONGER, kind=W, total=12),
    "step.they_are_stronger.kind": step(Reason.THEY_ARE_STRONGER, kind=W, total=6, other_kind=H, other_total=20),
    "step.they_are_stronger.sum": step(Reason.THEY_ARE_STRONGER, kind=B, total=13, other_kind=B, other_total=11),
    "step.they_are_stronger.fog": step(Reason.THEY_ARE_STRONGER, total=13, other_total=11),
    "step.tie_first_complete": step(Reason.TIE_FIRST_COMPLETE, other=YOU, kind=W, total=12),
    "step.tie_first_complete.fog": step(Reason.TIE_FIRST_COMPLETE, other=OPP, total=12),
    "step.they_need": step(Reason.THEY_NEED, cards=T("b8"), count=2, size=3),
    "step.unseen": step(Reason.UNSEEN, count=50, total=8, available=2),
    "step.unseen.hand": step(Reason.UNSEEN, count=50, total=8, available=0, cards=T("b7 b9")),
    "step.hand_not_evidence.counterexample": step(Reason.HAND_NOT_EVIDENCE, cards=T("b7"), needed=T("b7")),
    "step.lower_kinds": step(Reason.LOWER_KINDS, kinds=(P, B, S, H), kind=W),
    "step.kind_ruled_out": step(Reason.KIND_RULED_OUT, kind=W, cards=T("r6 g6")),
    "step.kind_too_weak": step(Reason.KIND_TOO_WEAK, kind=W, total=27, cards=T("y10")),
    "step.kind_too_weak.others": step(Reason.KIND_TOO_WEAK, kind=W, total=27, cards=T("y10"), count=2),
    "step.kind_too_weak.best": step(
        Reason.KIND_TOO_WEAK, kind=W, total=18, cards=T("g6"), shape=Shape(W, Colour.GREEN, start=5), needed=T("g5 g7")
    ),
    "step.kind_too_weak.best.others": step(
        Reason.KIND_TOO_WEAK,
        kind=W,
        total=18,
        cards=T("g6"),
        shape=Shape(W, Colour.GREEN, start=5),
        needed=T("g5 g7"),
        count=1,
    ),
    "step.kind_ruled_out.many": step(Reason.KIND_RULED_OUT, kind=W, kinds=(W, B, S), cards=T("r6 b6")),
    "step.shape_blocked.group": step(
        Reason.SHAPE_BLOCKED,
        shape=Shape(W, Colour.BLUE, start=8),
        shapes=(Shape(W, Colour.BLUE, start=8), Shape(W, Colour.BLUE, start=7)),
        kind=W,
        needed=T("b7 b9 b10"),
        where=((parse_card("b7"), ON_FLAG), (parse_card("b10"), IN_DISCARD)),
    ),
    "step.shape_blocked.group.many": step(
        Reason.SHAPE_BLOCKED,
        shape=Shape(W, Colour.GREEN, start=7),
        shapes=tuple(Shape(W, c, start=7) for c in Colour),
        kind=W,
        needed=T("r8 r9 o8 o9 y8 y9 g8 g9 b8 b9 p8 p9"),
        where=tuple((parse_card(c), IN_DISCARD) for c in ("r8", "o8", "y8", "g8", "b8", "p8")),
        count=1,  # a wildcard with a choice: "even with their wildcard"
    ),
    "step.shape_too_weak.group": step(
        Reason.SHAPE_TOO_WEAK,
        shape=Shape(B, Colour.RED),
        shapes=(Shape(B, Colour.RED), Shape(B, Colour.BLUE)),
        kind=B,
        cards=T("r1"),
        needed=T("r9 r8"),
        total=18,
    ),
    "step.at_best_tie.shape": step(
        Reason.AT_BEST_TIE, total=12, kind=W, shape=Shape(W, Colour.BLUE, start=3), needed=T("b3 b4 b5")
    ),
    "step.at_best_tie.shape.others": step(
        Reason.AT_BEST_TIE, total=12, kind=W, shape=Shape(W, Colour.BLUE, start=3), needed=T("b3 b5"), count=2
    ),
    "step.at_best_tie.shape.host": step(Reason.AT_BEST_TIE, total=22, kind=H, shape=Shape(H), needed=T("r10")),
    "step.at_best_tie.shape.fog": step(Reason.AT_BEST_TIE, total=12, shape=Shape(None), needed=T("b3 b5")),
    "step.shape_blocked": step(
        Reason.SHAPE_BLOCKED,
        shape=Shape(W, Colour.BLUE, start=8),
        kind=W,
        needed=T("b9 b10"),
        where=((parse_card("b10"), ON_FLAG),),
        count=1,
    ),
    "step.shape_blocked.wild": step(
        Reason.SHAPE_BLOCKED,
        shape=Shape(W, Colour.ORANGE, start=3),
        kind=W,
        needed=T("o5"),
        where=((parse_card("o5"), IN_DISCARD),),
        wild=((Tactic.SHIELD, parse_card("o3")),),
    ),
    "step.shape_short.phalanx": step(
        Reason.SHAPE_SHORT,
        shape=Shape(P, value=10),
        kind=P,
        count=2,
        available=1,
        value=10,
        where=tuple((parse_card(c), IN_DISCARD) for c in ("r10", "o10", "y10")),
    ),
    "step.shape_short.phalanx.none": step(
        Reason.SHAPE_SHORT, shape=Shape(P, value=9), kind=P, count=1, available=0, value=9, where=()
    ),
    "step.shape_short.battalion": step(Reason.SHAPE_SHORT, shape=Shape(B, Colour.YELLOW), kind=B, count=2, available=1),
    "step.shape_short.battalion.none": step(
        Reason.SHAPE_SHORT, shape=Shape(B, Colour.ORANGE), kind=B, count=1, available=0
    ),
    "step.shape_short.skirmish": step(
        Reason.SHAPE_SHORT,
        shape=Shape(S, start=4),
        kind=S,
        count=1,
        available=0,
        value=6,
        where=tuple((Troop(c, 6), IN_DISCARD) for c in Colour),
    ),
    "step.shape_short.host": step(Reason.SHAPE_SHORT, shape=Shape(H), kind=H, count=2, available=1),
    "step.shape_too_weak": step(
        Reason.SHAPE_TOO_WEAK, shape=Shape(B, Colour.RED), kind=B, cards=T("r1"), needed=T("r9 r8"), total=18
    ),
    "step.at_best_tie": step(Reason.AT_BEST_TIE, total=27, kind=W),
    "step.counterexample": step(Reason.COUNTEREXAMPLE, cards=T("b8"), needed=T("b7 b9"), kind=W, total=24),
    "step.counterexample.fog": step(Reason.COUNTEREXAMPLE, cards=T("y10"), needed=T("o10 g10"), total=30),
    "step.can_claim": step(Reason.CAN_CLAIM),
    "step.cannot_claim": step(Reason.CANNOT_CLAIM),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_wording_is_reachable(lang: str) -> None:
    keys = {k for k in catalogue(lang) if k.startswith("step.") and k != "step.line"}
    assert set(STEPS) == keys  # no wording without a way to reach it, no way without a wording
    for reason in Reason:  # every reason has a wording (Shape shortages: one per kind)
        assert any(k == f"step.{reason.value}" or k.startswith(f"step.{reason.value}.") for k in keys), reason


@pytest.mark.parametrize("key", sorted(STEPS))
def test_renderer_picks_the_key_and_fills_every_placeholder(key: str) -> None:
    for lang in LANGUAGES:
        assert step_key(STEPS[key]) == key
        text = render_step(STEPS[key], lang, my_total=12)
        assert "{" not in text and "}" not in text
        assert "None" not in text
        if lang == "en":
            assert text[:1].isupper() and text.endswith(".")
        else:  # Chinese: no capitals, a full-width full stop
            assert text.endswith("。")


def test_cards_in_one_place_are_said_together() -> None:
    where = ((parse_card("o7"), IN_DISCARD), (parse_card("r6"), ON_FLAG), (parse_card("o9"), IN_DISCARD))
    text = render_step(
        step(Reason.SHAPE_BLOCKED, shape=Shape(W, Colour.ORANGE, start=7), needed=T("o7 o9"), where=where)
    )
    assert "o7 and o9 are in the opponent's discards" in text
    assert "r6 is on flag 2 (your side)" in text


def test_articles_for_kinds_and_shapes() -> None:
    orange = render_step(STEPS["step.shape_blocked.wild"])
    assert orange.startswith("An orange Wedge 3-4-5 (Shield Bearers as o3) would need o5")
    assert render_step(STEPS["step.your_formation"]).startswith("Your formation: r3, r4 and r5: a Wedge, sum 12")
    lower = render_step(STEPS["step.lower_kinds"])
    assert lower.startswith("A Phalanx, a Battalion Order, a Skirmish Line or a Host can never beat a Wedge")


def test_wildcard_note_goes_inside_the_sentence() -> None:
    text = render_step(
        step(
            Reason.YOUR_FORMATION,
            cards=T("alexander r9 r10"),
            kind=W,
            total=27,
            wild=((Tactic.ALEXANDER, parse_card("r8")),),
        )
    )
    assert text == "Your formation: alexander, r9 and r10: a Wedge, sum 27 (Alexander as r8)."


def test_sides_swap_for_the_opponent() -> None:
    mine = render_step(Step(Reason.CAN_CLAIM, YOU, 5))
    theirs = render_step(Step(Reason.CAN_CLAIM, OPP, 5))
    assert mine == "So the opponent can never beat your formation: you can claim flag 5."
    assert theirs == "So you can never beat the opponent's formation: the opponent can claim flag 5."


@pytest.mark.parametrize(
    ("card", "label"),
    [
        ("b8", "blue 8, Heavy Cavalry"),
        ("r1", "red 1, Skirmishers"),
        ("p10", "purple 10, Elephants"),
        ("companion", "Companion Cavalry"),
    ],
)
def test_R1_R2_card_labels(card: str, label: str) -> None:
    assert card_label(parse_card(card)) == label


@pytest.mark.parametrize(
    ("shape", "size", "name"),
    [
        (Shape(W, Colour.BLUE, start=6), 3, "blue Wedge 6-7-8"),
        (Shape(W, Colour.GREEN, start=7), 4, "green Wedge 7-8-9-10"),
        (Shape(P, value=8), 3, "Phalanx of 8s"),
        (Shape(B, Colour.PURPLE), 3, "purple Battalion Order"),
        (Shape(S, start=2), 4, "Skirmish Line 2-3-4-5"),
        (Shape(H), 3, "Host"),
    ],
)
def test_R9_shape_names(shape: Shape, size: int, name: str) -> None:
    assert shape_name(shape, size) == name


def test_R9_kind_names() -> None:
    assert [kind_name(k) for k in (W, P, B, S, H, None)] == [
        "Wedge",
        "Phalanx",
        "Battalion Order",
        "Skirmish Line",
        "Host",
        "sum",
    ]


def _problems(flags: dict[int, dict[str, str]], **areas: Any) -> list[Problem]:
    """What Position.build says about a position: the problems it refuses it for, else those it warns about."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Position.build(flags, **areas)
        except PositionError as err:
            return err.problems
    return [p for w in caught if isinstance(w.message, PositionWarning) for p in w.message.problems]


PROBLEMS = {
    "duplicate_card": _problems({1: {"you": "r3"}, 2: {"opponent": "r3"}}),
    "guile_on_flag": _problems({1: {"you": "scout"}}, discards={"opponent": "fog"}),
    "too_many_cards": _problems({1: {"you": "r1 r2 r3 r4"}}),
    "claimed_incomplete": _problems({1: {"you": "r1", "claimed_by": "you"}}),
    "first_complete_unused": _problems({1: {"you": "r1", "first_complete": "you"}}),
    "first_complete_missing": _problems({1: {"you": "r1 r2 r3", "opponent": "b1 b2 b3"}}),
    "two_leaders": _problems({1: {"you": "alexander darius"}}, discards={"opponent": "fog scout"}),
    "tactics_count": _problems({1: {"you": "fog mud"}}),
}


@pytest.mark.parametrize("code", sorted(PROBLEMS))
def test_every_problem_code_renders(code: str) -> None:
    problems = [p for p in PROBLEMS[code] if p.code == code]
    assert problems, f"the position does not produce {code}"
    text = render_problem(problems[0])
    assert "{" not in text and "None" not in text
    assert re.search(r"\(R\d+", text)  # every problem names the rule it breaks


def test_problem_texts_name_the_cards_and_places() -> None:
    [dup] = [p for p in PROBLEMS["duplicate_card"] if p.code == "duplicate_card"]
    assert (
        render_problem(dup) == "card r3 appears twice (it is already at flag 1, you); every card exists only once (R1)"
    )
    [many] = PROBLEMS["too_many_cards"]
    assert render_problem(many) == "flag 1: 4 cards on one side, but a side holds 3 (R6)"


def test_problem_keys_exist_for_every_code() -> None:
    keys = {k.removeprefix("problem.") for k in catalogue("en") if k.startswith("problem.")}
    assert set(PROBLEMS) <= keys


def test_catalogue_unknown_language_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        catalogue("xx")
