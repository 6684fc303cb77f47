"""A play puzzle driven as the board drives it: a hand card, then a flag (taps, a held card, the widget).

The controller's view holds the hand to play from (each card with the flags it may go to, R6;
``chosen`` when the session holds it), no answer buttons, and flags that are tappable only where
some card may go (``legal`` for the held card).  ``play`` {card, flag} answers; ``select`` and
``flag`` do the same for a front end that does not hold the card itself.  The puzzle widget takes
the game's ``{"play": [card, flag]}`` from the board and refuses a card or flag not on offer.
"""

from __future__ import annotations

from typing import Any

import pytest

from battleline_lab import Position
from battleline_lab.controllers import view as views
from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import PlayQuestion
from battleline_lab.text.messages import LANGUAGES
from tests.test_controllers import undeclared

#: flag 4 completes a red Wedge with r7 (R12); flag 9 is claimed (R15); flag 2 is full on your side
POSITION = Position.build(
    {
        4: {"you": "r5 r6", "opponent": "b2 g3 y4"},
        2: {"you": "p1 p2 p4"},
        9: {"you": "o1 o2 o3", "opponent": "y8 y9 y10", "claimed_by": "opponent"},
    },
    hand={"you": "r7 b1"},
)
OPEN = [1, 3, 4, 5, 6, 7, 8]


def controller() -> PuzzleController:
    return PuzzleController(
        Puzzle("play-flag-4", {"en": "Flag 4"}, position=POSITION, question=PlayQuestion("claim", 4)), lang="en"
    )


def test_R6_the_view_has_the_hand_to_play_from_and_no_answer_buttons() -> None:
    c = controller()
    v = c.view()
    assert undeclared(v, "PuzzleView") == []
    assert v["answers"] == []
    assert [(card["id"], card.get("flags")) for card in v["hand"]] == [("r7", OPEN), ("b1", OPEN)]
    assert all(h["side"] != "you" for h in v.get("held", []))  # the hand is drawn once, to play from
    tappable = [f["n"] for f in v["flags"] if not f.get("inert")]
    assert tappable == OPEN  # R15: not the claimed flag; R6: not a full side
    assert not any(f.get("legal") for f in v["flags"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R12_a_wrong_play_then_the_right_one_by_play_intents(lang: str) -> None:
    c = controller()
    c.set_lang(lang)
    c.intent("play", {"card": "b1", "flag": 4})
    assert c.state == "wrong"
    v = c.view()
    assert v["feedback"]["tone"] == "wrong" and "R12" in v["feedback"]["text"]
    assert [card["id"] for card in v["hand"] if card.get("flags")] == ["r7", "b1"]  # try again
    c.intent("play", {"card": "r7", "flag": 4})
    assert c.state == "right"
    v = c.view()
    assert not any(card.get("flags") for card in v["hand"])  # solved: nothing more to play
    assert all(f.get("inert") for f in v["flags"])


@pytest.mark.parametrize(
    ("intents", "chosen", "legal", "state"),
    [
        ([("select", "r7")], ["r7"], OPEN, "waiting"),
        ([("select", "r7"), ("select", "r7")], [], [], "waiting"),  # a second tap drops it
        ([("select", "r7"), ("cancel", True)], [], [], "waiting"),
        ([("select", "r7"), ("flag", 4)], [], [], "right"),
        ([("select", "b1"), ("flag", 3)], [], [], "wrong"),
        ([("flag", 4)], [], [], "waiting"),  # no card held: a flag plays nothing
        ([("play", {"card": "r7", "flag": 9})], [], [], "waiting"),  # R15: not on offer
    ],
    ids=[
        "R6-select",
        "R6-select-twice",
        "R6-cancel",
        "R12-select-then-flag",
        "R12-wrong-card",
        "no-card",
        "R15-claimed",
    ],
)
def test_R6_a_held_card_is_chosen_and_lights_its_flags(
    intents: list[tuple[str, Any]], chosen: list[str], legal: list[int], state: str
) -> None:
    c = controller()
    for name, value in intents:
        c.intent(name, value)
    v = c.view()
    assert [card["id"] for card in v["hand"] if card.get("chosen")] == chosen
    assert [f["n"] for f in v["flags"] if f.get("legal")] == legal
    assert c.state == state


def test_R6_the_widget_takes_the_boards_play_and_refuses_what_is_not_on_offer() -> None:
    from battleline_lab.widgets import PuzzleWidget

    puzzle = Puzzle("play-flag-4", {"en": "Flag 4"}, position=POSITION, question=PlayQuestion("claim", 4))
    w = PuzzleWidget(puzzle)
    with pytest.warns(UserWarning, match="not in the hand"):
        w.board.intent({"play": ["g5", 4]})
    with pytest.warns(UserWarning, match="may not go to flag 9"):
        w.board.intent({"play": ["r7", 9]})
    assert w.controller.state == "waiting"
    w.taps.card("b1")
    assert w.taps.legal_flags() == OPEN
    w.taps.flag(5)
    assert w.controller.state == "wrong"
    w.taps.drag("r7")
    w.taps.drop(4)
    assert w.controller.state == "right"


def test_the_view_model_declares_the_play_keys() -> None:
    assert {"hand", "hand_label", "chosen_text"} <= set(views.PuzzleView.__annotations__)
