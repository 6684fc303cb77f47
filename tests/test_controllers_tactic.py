"""A tactic play puzzle driven as the board drives it: the Deserter from the hand, then a card of theirs (R29).

The Deserter is a ``kernel`` hand card (the session holds it, as in the game); held, the view lists
the opponent's cards it may take in ``targets`` (the game's target marking); ``target`` answers.
The puzzle widget takes the board's ``{"target": card}`` and refuses a card that is not on offer.
"""

from __future__ import annotations

from typing import Any

import pytest

from battleline_lab import Position
from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import PlayQuestion
from battleline_lab.text.messages import LANGUAGES
from tests.test_controllers import undeclared

#: their g5 g6 at flag 3 need g7 for a Wedge (g4 is face up); deserting g6 leaves none (R13, R29)
POSITION = Position.build(
    {3: {"opponent": "g5 g6"}, 8: {"you": "g4"}, 1: {"you": "r9"}}, hand={"you": "deserter r1 b2"}
)


def puzzle() -> Puzzle:
    return Puzzle("tactic-flag-3", {"en": "Flag 3"}, position=POSITION, question=PlayQuestion("block", 3, "wedge"))


def controller() -> PuzzleController:
    return PuzzleController(puzzle(), lang="en")


def test_R29_the_deserter_is_a_kernel_card_and_held_it_marks_their_cards() -> None:
    c = controller()
    v = c.view()
    assert undeclared(v, "PuzzleView") == []
    hand = {card["id"]: card for card in v["hand"]}
    assert hand["deserter"].get("kernel") and not hand["deserter"].get("flags")
    assert hand["r1"].get("flags") == list(range(1, 10))
    assert "targets" not in v
    c.intent("select", "deserter")
    v = c.view()
    assert [card["id"] for card in v["hand"] if card.get("chosen")] == ["deserter"]
    assert v["targets"] == ["g5", "g6"]  # their cards only, never yours (R29)


@pytest.mark.parametrize(
    ("intents", "targets", "state"),
    [
        ([("select", "deserter"), ("target", "g6")], [], "right"),
        ([("select", "deserter"), ("target", "g5")], [], "wrong"),
        ([("target", "g6")], [], "waiting"),  # nothing held: a target takes nothing
        ([("select", "deserter"), ("select", "deserter")], [], "waiting"),  # a second tap drops it
        ([("select", "deserter"), ("cancel", True)], [], "waiting"),
        ([("select", "deserter"), ("target", "r9")], ["g5", "g6"], "waiting"),  # R29: not your own card
        ([("select", "r1"), ("target", "g6")], [], "waiting"),  # a troop takes no target
    ],
    ids=[
        "R13-R29-the-right-target",
        "R13-R29-the-wrong-target",
        "R29-no-card-held",
        "R29-select-twice",
        "R29-cancel",
        "R29-own-card",
        "R6-a-troop-held",
    ],
)
def test_R29_select_the_deserter_then_a_target(intents: list[tuple[str, Any]], targets: list[str], state: str) -> None:
    c = controller()
    for name, value in intents:
        c.intent(name, value)
    assert c.view().get("targets", []) == targets
    assert c.state == state


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R29_a_wrong_target_then_the_right_one(lang: str) -> None:
    c = controller()
    c.set_lang(lang)
    c.intent("select", "deserter")
    c.intent("target", "g5")
    v = c.view()
    assert c.state == "wrong" and "R13" in v["feedback"]["text"]
    c.intent("select", "deserter")  # try again
    assert c.view()["targets"] == ["g5", "g6"]
    c.intent("target", "g6")
    assert c.state == "right"
    v = c.view()
    assert "targets" not in v and not any(card.get("kernel") or card.get("flags") for card in v["hand"])


def test_R29_the_widget_takes_the_boards_target_and_refuses_what_is_not_on_offer() -> None:
    from battleline_lab.widgets import PuzzleWidget

    w = PuzzleWidget(puzzle())
    with pytest.warns(UserWarning, match="target"):
        w.board.intent({"target": "g6"})  # nothing held yet: no target on offer
    assert w.controller.state == "waiting"
    w.taps.card("deserter")
    with pytest.warns(UserWarning, match="target"):
        w.board.intent({"target": "r9"})
    w.taps.target("g6")
    assert w.controller.state == "right"
