"""The gym as a view over the trainer's review queue: puzzles from the learner's games, marked as such.

The trainer decides (tests/test_review_queue.py); here the gym must show what it decides, in
both languages, and the game widget's "Review this game" must feed the gym's "A puzzle for me".
"""

from __future__ import annotations

import pytest

from battleline_lab.game import Options, Player, RandomBot, play_game
from battleline_lab.game.review import Review, review, save_for_learner
from battleline_lab.training.progress import review_dir
from battleline_lab.training.trainer import ReviewQueueWarning
from battleline_lab.widgets import PuzzleGym, PuzzleWidget
from battleline_lab.widgets.game import GameWidget


def _review(seed: int = 17) -> Review:
    return review(play_game(RandomBot(1), RandomBot(2), seed=seed), Player.SOUTH)


def _ids(result: Review) -> list[str]:
    return [m.id for m in sorted(result.moments, key=lambda m: m.turn)]


def test_gym_shows_puzzles_from_your_games_first_in_both_languages() -> None:
    result = _review()
    save_for_learner(result)
    gym = PuzzleGym("seed-examples")
    total = len(result.moments)
    assert f"{total} puzzles from your games to review" in gym.stats.value
    shown = gym.for_me()
    assert isinstance(shown, PuzzleWidget) and gym.game_puzzle is not None
    assert shown.puzzle.id == _ids(result)[0] and gym.game_puzzle.id == shown.puzzle.id
    assert gym.holder.children[0] is gym.from_games and "From your games" in gym.from_games.value
    assert gym.status.value == f"From your games · {total} puzzles left to review"
    shown.answer(shown.puzzle.solve())
    assert gym.status.value == f"From your games · {total - 1} puzzles left to review"
    assert gym.trainer.summary().rated == 0  # answered and recorded, but rated for nobody
    gym.set_lang("zh")
    assert "来自你的对局" in gym.from_games.value and "还有" in gym.status.value
    assert shown.lang == "zh"
    following = gym.for_me()
    assert following is not None and following.puzzle.id == _ids(result)[1]
    gym.move(1)  # back to the gym's own puzzles
    assert gym.game_puzzle is None and list(gym.holder.children) == [gym.current]
    assert gym.current is not None and gym.current.puzzle.id in {p.id for p in gym.puzzles}


def test_gym_lists_a_game_file_that_does_not_load() -> None:
    save_for_learner(_review())
    bad = review_dir() / "broken.yaml"
    bad.write_text("id: review-broken\ntitle: [\n", encoding="utf-8")
    with pytest.warns(ReviewQueueWarning, match=r"broken\.yaml:3:1: error"):
        gym = PuzzleGym("seed-examples")
    assert "broken.yaml:" in gym.skipped.value and "error" in gym.skipped.value
    assert bad.read_text(encoding="utf-8") == "id: review-broken\ntitle: [\n"


def test_review_this_game_feeds_a_puzzle_for_me() -> None:
    """The game widget's "Review this game" and the gym's trainer agree on the folder."""
    w = GameWidget(bot="heuristic", seed=9)
    w.state = play_game(RandomBot(1), RandomBot(2), seed=17, options=Options(first=Player.SOUTH))
    w.refresh()
    w.review_button.click()
    assert w.review_result is not None and w.review_result.moments
    gym = PuzzleGym("seed-examples")
    shown = gym.for_me()
    assert shown is not None and shown.puzzle.id == _ids(w.review_result)[0]
    assert gym.trainer.is_from_games(shown.puzzle.id)


def test_gym_reopens_an_unfinished_puzzle_from_your_games() -> None:
    result = _review()
    save_for_learner(result)
    shown = PuzzleGym("seed-examples").for_me()
    assert shown is not None
    shown.session.hint()  # started, not answered: the hint is kept when the learner leaves
    shown.session.close()
    again = PuzzleGym("seed-examples")
    assert again.game_puzzle is not None and again.game_puzzle.id == _ids(result)[0]
    assert again.holder.children[0] is again.from_games
