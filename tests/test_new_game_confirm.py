"""New game asks before it discards a game in progress; nothing to lose, it deals at once.

Four keyboard games were lost to Tab, Tab, Tab, Enter on the game's "New game": a press of the
button (a click, or Enter on it) now asks on the board ("Discard it, deal again" / "Keep
playing") whenever the learner has moved and the game is not over; a second press only asks
again; playing on keeps the game.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battleline_lab.game import legal_moves
from battleline_lab.text.messages import LANGUAGES, message
from battleline_lab.widgets.game import GameWidget
from tests.test_game_widget import play_by_clicks


def moved(w: GameWidget) -> None:
    """The learner's first move (a card played), so the game is in progress."""
    w.click_action(legal_moves(w.state)[0])


def actions(w: GameWidget) -> list[str]:
    return [c.get("action", "") for c in w.board.view["choices"]]


def test_pressing_new_game_in_a_game_in_progress_asks_and_keeps_the_game() -> None:
    w = GameWidget(bot="heuristic", seed=12)
    moved(w)
    history = list(w.state.history)
    w.new_game_button.click()
    assert w.seed == 12 and w.state.history == history  # nothing discarded yet
    assert w.board.view["question"] == message("game_widget.new_game.ask", "en")
    assert actions(w)[-2:] == ["new-game", "keep-game"]
    w.new_game_button.click()  # Enter pressed again on the focused button: still only the question
    assert w.seed == 12 and w.state.history == history and actions(w).count("new-game") == 1


#: how the question is answered -> whether the game was dealt again
ANSWERS: dict[str, tuple[Callable[[GameWidget], None], bool]] = {
    "discard-it": (lambda w: w.taps.action("new-game"), True),
    "keep-playing": (lambda w: w.taps.action("keep-game"), False),
    "play-on": (lambda w: w.click_action(legal_moves(w.state)[0]), False),
}


@pytest.mark.parametrize("answer", sorted(ANSWERS))
def test_the_question_is_answered_on_the_board(answer: str) -> None:
    w = GameWidget(bot="heuristic", seed=12)
    moved(w)
    w.new_game_button.click()
    act, deals = ANSWERS[answer]
    act(w)
    assert (w.seed == 13) is deals and "question" not in w.board.view
    assert "new-game" not in actions(w) and "keep-game" not in actions(w)


#: a game New game may deal over at once: nothing would be lost
NOTHING_LOST: dict[str, Callable[[], GameWidget]] = {
    "before-the-first-move": lambda: GameWidget(bot="heuristic", seed=12),
    "bot-moved-first": lambda: GameWidget(bot="heuristic", seed=12, you_start=False),
}


@pytest.mark.parametrize("case", sorted(NOTHING_LOST))
def test_new_game_deals_at_once_when_nothing_would_be_lost(case: str) -> None:
    w = NOTHING_LOST[case]()
    w.new_game_button.click()
    assert w.seed == 13 and "question" not in w.board.view


def test_R16_after_the_game_is_over_new_game_deals_at_once() -> None:
    w = GameWidget(bot="heuristic", seed=3)
    play_by_clicks(w, seed=3, check_every=1000)
    assert w.state.over
    w.new_game_button.click()
    assert w.seed == 4 and not w.state.over and "question" not in w.board.view


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_question_and_its_buttons_in_both_languages(lang: str) -> None:
    w = GameWidget(bot="heuristic", seed=12, lang=lang)
    moved(w)
    w.new_game_button.click()
    labels = {c.get("action"): c["label"] for c in w.board.view["choices"]}
    assert w.board.view["question"] == message("game_widget.new_game.ask", lang)
    assert labels["new-game"] == message("game_widget.new_game.discard", lang)
    assert labels["keep-game"] == message("game_widget.new_game.keep", lang)


def test_two_on_one_screen_a_move_of_either_player_is_a_game_in_progress() -> None:
    w = GameWidget(bot=None, seed=5)
    controller = w.controller
    assert controller.ask_new_game() and w.seed == 6  # nothing played: dealt at once
    moved(w)
    assert not controller.ask_new_game() and w.seed == 6 and controller.confirming_new_game
    controller.answer_new_game(discard=True)
    assert w.seed == 7 and not controller.confirming_new_game
