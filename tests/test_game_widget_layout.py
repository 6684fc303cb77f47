"""The game widget's flag tally, the bot's hand revealed at the end, empty slots and the palette."""

from __future__ import annotations

import re

from battleline_lab.render.svg import COLOURS, TACTIC_COLOURS
from battleline_lab.widgets.game import GameWidget
from tests.test_game_widget import play_by_clicks, tactics_table


def tally(w: GameWidget) -> tuple[int, int]:
    """The flag tally, read from the status line the board shows first (R15)."""
    status = w.board.view["status"]  # "flags: South (you) 2 · North (heuristic bot) 1 · Turn ..."
    numbers = [int(n) for n in re.findall(r"\b(\d)\b", status)]
    return numbers[0], numbers[1]


def test_R15_R16_the_tally_follows_the_flags_and_the_bot_hand_is_shown_only_at_the_end() -> None:
    w = GameWidget(bot="heuristic", seed=3)
    assert tally(w) == (0, 0)
    assert "cards" not in w.board.view["opponent_hand"]  # R13: never during the game, only its size
    assert "7" in w.board.view["opponent_hand"]["label"]
    play_by_clicks(w, seed=3, check_every=50)
    state = w.state
    assert state.over
    assert tally(w) == (len(state.held(w.human)), len(state.held(w.human.other)))
    shown = [c["id"] for c in w.board.view["opponent_hand"]["cards"]]
    assert sorted(shown) == sorted(c.notation for c in state.hands[w.human.other])
    assert w.new_game_button.button_style == "primary"  # a new game is offered
    w.new_game_button.click()
    assert not w.state.over and tally(w) == (0, 0) and "cards" not in w.board.view["opponent_hand"]


def test_R6_R25_every_flag_is_drawn_with_its_slots_from_the_start() -> None:
    w = GameWidget(bot="random", seed=1)
    flags = w.board.view["flags"]
    assert [f["n"] for f in flags] == list(range(1, 10))
    assert all(f["slots"] == 3 and f["you"] == [] and f["opponent"] == [] for f in flags)  # empty slots drawn
    assert [f["label"] for f in flags[:2]] == ["flag 1", "flag 2"]


def test_cards_carry_the_board_palette_and_their_place_in_their_accessible_name() -> None:
    w = GameWidget(bot=None, seed=0)
    w.state = tactics_table()
    w.refresh()
    fills = {fill for fill, _ in [*COLOURS.values(), *TACTIC_COLOURS.values()]}
    view = w.board.view
    cards = [*view["hand"], *(c for f in view["flags"] for c in f["you"] + f["opponent"])]
    assert cards and all(c["fill"] in fills for c in cards)
    (flag1,) = [f for f in view["flags"] if f["n"] == 1]
    assert [c["label"] for c in flag1["you"]] == [
        "red 1, Skirmishers, on flag 1, your side",
        "red 2, Peltasts, on flag 1, your side",
    ]
    assert flag1["opponent"][0]["label"] == "blue 5, Phalangists, on flag 1, the opponent's side"
