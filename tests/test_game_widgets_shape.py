"""The two game widgets have one shape: the same parts around the board, the picture beside the view,
their state read from the controller, and New game asked the same way (``widgets._common.GameBox``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battleline_lab.widgets._common import GameBox, PictureBox
from battleline_lab.widgets.game import GameWidget
from battleline_lab.widgets.three import ThreeGameWidget

#: each game widget, from a seed
WIDGETS: dict[str, Callable[[int], Any]] = {
    "two-players": lambda seed: GameWidget(bot="heuristic", seed=seed),
    "three-players": lambda seed: ThreeGameWidget(("heuristic", "random"), seed=seed),
}


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_each_game_widget_has_the_parts_of_every_game(kind: str) -> None:
    w = WIDGETS[kind](4)
    assert isinstance(w, GameBox) and isinstance(w, PictureBox)
    parts = {
        "title": "bl-game-title",
        "banner": "bl-game-over",
        "board": "bl-game-board",
        "new_game_button": "bl-new-game",
    }
    for name, css in parts.items():
        assert css in getattr(w, name)._dom_classes, name
    assert w.taps.board is w.board
    assert w.banner.layout.display == "none" and w.new_game_button.button_style == ""


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_each_game_widget_shows_its_picture_beside_the_view(kind: str) -> None:
    w = WIDGETS[kind](4)
    bundle = w._repr_mimebundle_()
    assert bundle["image/svg+xml"] == w.picture() and "<svg" in bundle["image/svg+xml"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_each_game_widget_reads_its_state_from_the_controller(kind: str) -> None:
    w = WIDGETS[kind](4)
    assert (w.state, w.seed, w.human) == (w.controller.state, w.controller.seed, w.controller.human)
    w.lang = "zh"
    assert w.controller.lang == "zh"


@pytest.mark.parametrize("kind", sorted(WIDGETS))
def test_each_game_widget_restarts_and_deals_through_its_controller(kind: str) -> None:
    w = WIDGETS[kind](4)
    w.new_game()
    assert w.seed == 5
    w.restart(9)
    assert w.seed == 9 and w.state.turn_number == w.controller.state.turn_number
    w.new_game_button.click()  # nothing played by the learner yet: dealt at once
    assert w.seed == 10 and "question" not in w.board.view


def test_the_three_player_board_takes_the_learners_hand_cards_and_no_targets() -> None:
    w = ThreeGameWidget(("heuristic", "random"), seed=4)
    hand = {c.notation for c in w.state.hands[w.human]}
    assert w.controller.hand_cards() == hand == {c["id"] for c in w.board.view["hand"]}
    assert w.controller.target_cards() == set()
