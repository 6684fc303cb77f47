"""The game widget's flag tally, the bot's hand revealed at the end, and its one layout source (issue 9)."""

from __future__ import annotations

import html
import re

import ipywidgets as W

from battleline_lab.game_widget import GameWidget
from battleline_lab.svg import COLOURS, TACTIC_COLOURS, flag_grid_columns
from tests.test_game_widget import play_by_clicks


def tally(w: GameWidget) -> tuple[int, int]:
    text = html.unescape(re.search(r'class="bl-tally">([^<]*)<', w.info.value).group(1))  # type: ignore[union-attr]
    numbers = [int(n) for n in re.findall(r"\b(\d)\b", text)]
    return numbers[0], numbers[1]


def test_R15_R16_the_tally_follows_the_flags_and_the_bot_hand_is_shown_only_at_the_end() -> None:
    w = GameWidget(bot="heuristic", seed=3)
    assert tally(w) == (0, 0)
    assert "bl-hand-opponent" not in w.board.value  # R13: never during the game
    play_by_clicks(w, seed=3, check_every=50)
    state = w.state
    assert state.over
    assert tally(w) == (len(state.held(w.human)), len(state.held(w.human.other)))
    hand = state.hands[w.human.other]
    if hand:
        assert "bl-hand-opponent" in w.board.value
        for card in hand:
            assert f'data-card="{card.notation}"' in w.board.value
    assert w.new_game_button.button_style == "primary"  # a new game is offered
    w.new_game_button.click()
    assert not w.state.over and tally(w) == (0, 0) and "bl-hand-opponent" not in w.board.value


def test_flag_and_claim_buttons_share_the_board_column_grid() -> None:
    w = GameWidget(bot="random", seed=1)
    for row, buttons in ((w.flag_row, w.flag_buttons), (w.claim_row, w.claim_buttons)):
        assert isinstance(row, W.GridBox) and row.layout.grid_template_columns == flag_grid_columns()
        assert list(row.children[1:10]) == [buttons[n] for n in range(1, 10)]


def test_hand_buttons_use_the_board_palette() -> None:
    w = GameWidget(bot="random", seed=2)
    fills = {fill for fill, _ in [*COLOURS.values(), *TACTIC_COLOURS.values()]}
    assert w.hand_buttons and all(b.style.button_color in fills for b in w.hand_buttons)
