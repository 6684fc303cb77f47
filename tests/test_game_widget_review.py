"""The game widget's opponent choice, the strongest bot's suggestion on request and the review at game end.

The widget only draws and forwards clicks: each check compares what it shows with the game
package (``review``, ``advise``, ``make_bot``).
"""

from __future__ import annotations

import os
from pathlib import Path

from battleline_lab.game import Options, Phase, Player, RandomBot, legal_moves, play_game
from battleline_lab.game.review import review
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.widgets import PuzzleWidget
from battleline_lab.widgets.game import BOT_CHOICES, GameWidget


def _finished(widget: GameWidget, seed: int = 17) -> None:
    widget.state = play_game(RandomBot(1), RandomBot(2), seed=seed, options=Options(first=Player.SOUTH))
    widget.refresh()


def test_bot_choice_offers_the_five_rungs_of_the_ladder_and_applies_before_the_first_move() -> None:
    w = GameWidget(bot="heuristic", seed=3)
    assert [value for _label, value in w.bot_choice.options] == list(BOT_CHOICES)
    assert list(BOT_CHOICES) == ["random", "gentle", "heuristic", "expert", "master"]
    w.bot_choice.value = "random"
    assert w.bot is not None and w.bot.name == "random" and w.state.turn_number == 1
    w.click_action(legal_moves(w.state)[0])
    w.bot_choice.value = "expert"  # mid-game: from the next game on, said in both languages
    assert w.bot.name == "random" and "next game" in w.message_text()
    w.set_lang("zh")
    assert "从下一局起由专家机器人对战" in w.message_text()
    w.set_lang("en")
    w.new_game_button.click()  # a game in progress: New game asks first
    w.taps.action("new-game")
    assert w.bot.name == "expert"
    w.set_lang("zh")
    assert [label for label, _v in w.bot_choice.options] == [
        "随机",
        "温和",
        "启发式",
        "专家",
        "大师",
    ] and w.bot_choice.value == "expert"


def test_opponent_at_my_level_button_picks_the_sessions_level_bot() -> None:
    from battleline_lab.game.ladder import bot_ratings
    from battleline_lab.training.progress import MemoryStore, Progress

    progress = Progress(store=MemoryStore())
    for _ in range(12):
        progress.record_game("random", 0.0)  # a learner who loses to the random bot
    w = GameWidget(bot="expert", seed=3, progress=progress)
    assert w.level_button.description == "Opponent at my level"
    w.level_button.click()
    assert w.bot_choice.value == "random" == w.session.bot_name and w.bot is not None and w.bot.name == "random"
    rating = round(w.session.learner_rating().rating)
    assert f"Your game rating: {rating}" in w.level_button.tooltip
    assert f"({round(bot_ratings()['random'].rating)})" in w.level_button.tooltip
    w.set_lang("zh")
    assert w.level_button.description == "与我水平相当的对手"
    assert GameWidget(bot=None, seed=3).level_button.layout.display == "none"


def test_suggestion_only_on_request_and_only_when_playing() -> None:
    w = GameWidget(bot="heuristic", seed=5)
    w.coach_toggle.value = True
    assert w.suggestion is None and "master" not in w.message_text()  # never unasked
    assert w.state.phase is Phase.PLAY
    w.suggest_button.click()
    assert w.suggestion is not None and w.suggestion.action in legal_moves(w.state)
    text = w.message_text()
    assert "The master's suggestion (the strongest bot): South plays" in text
    assert "Your chance of winning flag" in text and "unseen troops" in text  # the flag's odds and outs, in words
    w.set_lang("zh")
    assert "大师（最强的机器人）的建议" in w.message_text()
    w.click_action(w.suggestion.action)  # the suggestion is a legal play; the message goes with the next click
    assert "大师（最强的机器人）的建议" not in w.message_text()
    assert w.state.phase is not Phase.PLAY  # south draws now: nothing to suggest, and it says so
    w.suggest_button.click()
    assert "轮到你出牌时再问" in w.message_text()


def test_review_at_game_end_timeline_puzzles_and_saved_files() -> None:
    w = GameWidget(bot="heuristic", seed=9)
    assert w.review_button.layout.display == "none"  # only at game end
    _finished(w)
    assert w.review_button.layout.display != "none"
    w.review_button.click()
    expected = review(w.state, Player.SOUTH)
    assert w.review_result == expected and expected.moments
    buttons = w.review_timeline.children
    assert len(buttons) == len(expected.moments)
    assert buttons[0].description == f"Turn {expected.moments[0].turn}: " + (
        "a claim you missed" if expected.moments[0].kind.value == "missed" else buttons[0].description.split(": ")[1]
    )
    buttons[-1].click()
    (board,) = w.review_puzzle.children
    assert isinstance(board, PuzzleWidget) and board.puzzle.id == expected.moments[-1].id
    assert board.puzzle.solve() == expected.moments[-1].answer
    folder = Path(os.environ["BATTLELINE_LAB_DATA"]) / "review"
    files = sorted(folder.glob("*.yaml"))
    assert [f.stem for f in files] == sorted(m.id for m in expected.moments)
    for f in files:  # each a puzzle the trainer can load, with the engine's answer
        puzzle = load_puzzle(f)
        assert puzzle.is_correct(puzzle.answer)
    assert str(folder) in w.review_saved.value
    w.set_lang("zh")
    assert w.review_timeline.children[0].description.startswith(f"第{expected.moments[0].turn}回合")
    assert board.lang == "zh"
    w.new_game_button.click()
    assert w.review_box.layout.display == "none" and w.review_result is None


def test_the_widget_shows_the_session_coach_setting() -> None:
    w = GameWidget(bot="heuristic", seed=5)
    w.session.show_coach(True)  # told from Python, not by the toggle
    w.refresh()
    assert w.coach_toggle.value and w.coach.layout.display != "none" and w.coach.value
    w.coach_toggle.value = False
    assert not w.session.coach_shown and w.coach.layout.display == "none"
