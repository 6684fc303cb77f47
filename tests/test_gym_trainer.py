"""The gym and the puzzle widget as views over the trainer: progress shown, recorded, reset, resumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.quiz import library
from battleline_lab.training.progress import MemoryStore, Progress, ProgressWarning
from battleline_lab.widgets import PuzzleGym, PuzzleWidget
from tests.solving import solve

SEEDS = "seed-examples"


def test_a_lesson_widget_records_to_the_store_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path))
    puzzle = library.get("one-end-open")
    w = PuzzleWidget(puzzle)
    assert not list(tmp_path.iterdir())  # nothing opened before the first answer
    w.answer(not puzzle.solve())
    solve(w)
    assert Progress(tmp_path).get(puzzle.id).attempts == 2 and Progress(tmp_path).get(puzzle.id).solved
    gym = PuzzleGym("blocked-wedges", progress=Progress(tmp_path))
    assert gym.trainer.summary().rated == 1  # solved in a lesson: the gym counts it


def test_a_data_dir_that_is_a_file_never_breaks_a_widget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file")
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(blocker))
    puzzle = library.get("one-end-open")
    w = PuzzleWidget(puzzle)
    with pytest.warns(ProgressWarning):
        assert solve(w) is True
    assert w.state == "right"
    gym = PuzzleGym(SEEDS)  # the same kernel-wide progress: no second warning, a note in the gym
    assert "cannot be saved" in gym.warning.value


def test_gym_shows_rating_first_try_streak_and_chart() -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    assert "Your rating: 1500" in gym.stats.value and "no rated puzzle yet" in gym.stats.value
    assert "<svg" not in gym.chart.value
    current = gym.current
    assert current is not None
    solve(current)
    assert "right at the first try: 100% of 1" in gym.stats.value and "streak: 1" in gym.stats.value
    assert gym.chart.value.startswith("<svg") and gym.chart.value.count("<circle") == 1
    gym.set_lang("zh")
    assert "你的等级分" in gym.stats.value and "等级分" in gym.chart.value


def test_gym_names_the_rule_the_learner_misses_R13() -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    gym.select("seed-blue-seven-in-your-hand").answer(True)
    assert "You miss R13: cards in your hand are not proof" in gym.stats.value
    gym.set_lang("zh")
    assert "你常错R13：手牌不能当证据" in gym.stats.value


def test_a_puzzle_for_me_and_streak() -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    w = gym.for_me()
    assert w is not None and w.puzzle.id == gym.trainer.next().id
    solve(w)
    assert gym.for_me() is not None and gym.current is not None and gym.current.puzzle.id != w.puzzle.id
    s = gym.start_streak()
    assert s is not None and gym.trainer.streak_mode
    solve(s)
    assert "Streak: 1 solved in a row" in gym.stats.value


def test_the_gym_streak_flows_and_a_puzzle_for_me_says_why_it_stays() -> None:
    """A right answer in a streak shows the next streak puzzle at once (level never lower); pressing
    Streak again changes nothing; a miss ends it with the count and the best; "A puzzle for me" on an
    unanswered puzzle keeps it and says why; the gym says what each button does (both languages)."""
    gym = PuzzleGym("library", progress=Progress(store=MemoryStore()))
    assert "Streak</b>: puzzles one after another" in gym.buttons_help.value
    assert gym.streak_button.tooltip and gym.for_me_button.tooltip
    first = gym.for_me()
    assert first is not None and gym.for_me() is first and "This puzzle stays" in gym.stats.value
    s = gym.start_streak()
    assert s is not None
    levels = []
    for _ in range(5):
        assert gym.current is s
        levels.append(s.puzzle.level or 0)
        solve(s)
        assert gym.current is not s, "the next streak puzzle comes at once"
        s = gym.current
    assert levels == sorted(levels) and "The next streak puzzle" in gym.stats.value
    assert gym.start_streak() is s and gym.current is s, "pressing Streak again: the same board, as it was"
    assert gym.trainer.streak_length == 5 and "already running (5 solved)" in gym.stats.value
    assert gym.for_me() is s and "You are in a streak" in gym.stats.value
    right = s.puzzle.solve()
    wrong = "b" if right == "a" else "a" if right == "b" else "host" if right != "host" else "wedge"
    s.answer(not right if isinstance(right, bool) else wrong)
    assert not gym.trainer.streak_mode and "Streak over after 5 solved (a wrong answer); your best: " in gym.stats.value
    gym.set_lang("zh")
    assert "连胜结束：共解出5题（答错了）" in gym.stats.value and "连胜模式</b>：一道接一道" in gym.buttons_help.value


def test_reset_asks_first_and_destroys_nothing() -> None:
    progress = Progress(store=MemoryStore())
    gym = PuzzleGym(SEEDS, progress=progress)
    assert gym.current is not None
    solve(gym.current)
    gym.reset_button.click()
    assert gym.reset_box.layout.display == "" and "Nothing is deleted" in gym.reset_question.value
    gym.reset_cancel.click()
    assert gym.trainer.summary().rated == 1 and gym.reset_box.layout.display == "none"
    gym.reset_button.click()
    gym.reset_confirm.click()
    assert gym.trainer.summary().rated == 0 and "Progress reset" in gym.stats.value
    assert len(progress._store().rows()) == 2  # the answer and the reset mark


def test_gym_reopens_where_the_learner_left_off() -> None:
    progress = Progress(store=MemoryStore())
    gym = PuzzleGym(SEEDS, progress=progress)
    w = gym.select("seed-blue-seven-in-your-hand")
    w.answer(True)  # wrong, unfinished
    again = PuzzleGym(SEEDS, progress=progress)
    assert again.current is not None and again.current.puzzle.id == "seed-blue-seven-in-your-hand"
    solve(again.current, False)
    third = PuzzleGym(SEEDS, progress=progress)
    assert third.current is not None and third.current.puzzle.id != "seed-blue-seven-in-your-hand"
    assert not progress.get(third.current.puzzle.id).solved


@pytest.mark.parametrize(
    ("lessons", "said"),
    [
        (3, "lessons 1–3 (formations, comparing, claims)"),
        (4, "lessons 1–4 (formations, comparing, claims, tactics cards)"),
        (
            7,
            "lessons 1–7 (formations, comparing, claims, tactics cards, the puzzle gym, playing a game, outs and odds)",
        ),
    ],
)
def test_gym_says_which_lessons_it_assumes(lessons: int, said: str) -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()), lessons=lessons)
    assert said in gym.lessons_note.value


def test_the_gym_assumes_every_lesson_by_default() -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    assert gym.trainer.lessons == 7 and "lessons 1–7" in gym.lessons_note.value
    assert all(p.id in {q.id for q in gym.puzzles} for p in gym.trainer.puzzles)


def test_learners_sharing_a_data_folder_keep_their_own_progress() -> None:
    ann = PuzzleGym(SEEDS, learner="ann")
    assert ann.current is not None
    solve(ann.current)
    assert PuzzleGym(SEEDS, learner="ann").trainer.summary().rated == 1
    assert PuzzleGym(SEEDS, learner="bo").trainer.summary().rated == 0
