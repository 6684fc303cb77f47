"""The trainer without a front end: ratings, the next puzzle, spacing, lessons, streaks, sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.core.cards import Tactic
from battleline_lab.quiz import library
from battleline_lab.quiz.questions import QUESTION_KINDS
from battleline_lab.render.svg import rating_chart_svg
from battleline_lab.text.messages import message
from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.training.trainer import (
    LESSONS,
    SPACING,
    TARGET_SUCCESS,
    PuzzleSession,
    Trainer,
    _cards_of,
    content_hash,
    miss_reason,
    required_lesson,
)

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: The kinds of lesson 07 (outs and odds).
ODDS_KINDS = {"outs", "safest-flag"}


def memory(learner: str = "me") -> Progress:
    return Progress(store=MemoryStore(), learner=learner)


def test_contract_puzzles_data_learner(tmp_path: Path) -> None:
    t = Trainer(puzzles="seed-examples", data=tmp_path, learner="ann")
    p = t.next()
    before = t.puzzle_rating(p.id)
    t.record(p.id, correct=False, hints=0, seconds=3.0, answer=not p.solve())
    assert t.rating < 1500 and t.puzzle_rating(p.id) > before
    again = Trainer(puzzles="seed-examples", data=tmp_path, learner="ann")
    assert again.rating == t.rating  # the database kept it
    assert Trainer(puzzles="seed-examples", data=tmp_path, learner="bo").rating == 1500


def test_puzzles_from_ids_themes_folders_and_objects() -> None:
    one = library.get("one-end-open")
    assert [p.id for p in Trainer(["one-end-open"], progress=memory()).puzzles] == ["one-end-open"]
    assert [p.id for p in Trainer([one], progress=memory()).puzzles] == ["one-end-open"]
    assert len(Trainer("seed-examples", progress=memory()).puzzles) == 5
    assert len(Trainer(library.root() / "seed-examples", progress=memory()).puzzles) == 5
    assert len(Trainer(progress=memory()).all_puzzles) == len(library.ids())


def test_only_first_attempts_are_rated_and_a_reveal_is_a_miss() -> None:
    t = Trainer("seed-examples", progress=memory())
    p = t.next()
    t.record(p.id, correct=False)
    after_miss = t.rating
    t.record(p.id, correct=True)  # a retry: not rated
    assert t.rating == after_miss and t.summary().rated == 1
    s = t.session(t.next())
    for _ in range(3):
        s.hint()  # the third hint shows the solution: a miss
    assert s.revealed and t.rating < after_miss


def test_initial_ratings_follow_the_difficulty_estimate() -> None:
    t = Trainer(progress=memory())
    easy = [t.initial_rating(p.id) for p in t.puzzles if p.level == 1]
    hard = [t.initial_rating(p.id) for p in t.puzzles if p.level == 5]
    assert easy and hard and max(easy) < min(hard) + 400 and sum(easy) / len(easy) < sum(hard) / len(hard)


def test_next_aims_near_the_target_success() -> None:
    t = Trainer(progress=memory())
    chosen = t.next()
    best = min(abs(t.expected_success(p.id) - TARGET_SUCCESS) for p in t.puzzles)
    assert abs(t.expected_success(chosen.id) - TARGET_SUCCESS) == best


def test_next_never_repeats_a_solved_puzzle_while_unseen_ones_remain() -> None:
    t = Trainer("seed-examples", progress=memory())
    seen = []
    for _ in range(5):
        p = t.next()
        seen.append(p.id)
        t.record(p.id, correct=True)
    assert sorted(seen) == sorted(p.id for p in t.puzzles)


def test_a_missed_puzzle_comes_back_after_the_spacing() -> None:
    t = Trainer(progress=memory())
    missed = t.next()
    t.record(missed.id, correct=False)
    order = []
    for _ in range(SPACING + 1):
        p = t.next()
        order.append(p.id)
        t.record(p.id, correct=True)
    assert missed.id not in order[:SPACING] and order[SPACING] == missed.id


def test_resume_where_the_learner_left_off() -> None:
    progress = memory()
    t = Trainer("seed-examples", progress=progress)
    p = t.next()
    t.record(p.id, correct=False)
    assert Trainer("seed-examples", progress=progress).current() == p
    t.record(p.id, correct=True)
    assert Trainer("seed-examples", progress=progress).current() is None


@pytest.mark.parametrize(
    ("puzzle_id", "lesson"),
    [
        ("wedge-out-of-order", 1),  # formation
        ("battalion-beats-skirmish", 2),  # compare
        ("one-end-open", 3),  # claim (R12)
        ("seed-blue-seven-in-your-hand", 3),  # claim: the hand is no evidence (R13)
        ("endgame-board", 3),  # claimable
        ("alexander-and-green-seven", 4),  # claim with a tactics card (R18)
        ("fog-compare-sums", 4),  # compare under Fog (R24)
        ("mud-four-card-skirmish", 4),  # formation with Mud (R25)
        ("outs-green-wedge", 7),  # outs (R13)
        ("outs-their-nines", 7),
        ("safest-flag-for-red-eight", 7),  # safest-flag (R13)
        ("safest-flag-for-green-seven", 7),
    ],
)
def test_required_lesson(puzzle_id: str, lesson: int) -> None:
    assert required_lesson(library.get(puzzle_id)) == lesson


def test_odds_puzzles_with_tactics_cards_still_need_lesson_7() -> None:
    """A tactics card raises a puzzle to lesson 4 at least, never lowers an odds puzzle (lesson 7)."""
    odds = [p for p in Trainer(progress=memory()).all_puzzles if p.question and p.question.kind in ODDS_KINDS]
    with_tactics = [p for p in odds if any(isinstance(c, Tactic) for c in _cards_of(p))]
    assert with_tactics and all(required_lesson(p) == 7 for p in odds)


def test_the_lesson_ladder_is_the_course() -> None:
    """LESSONS numbers the course's lessons 1 to 7 in order, each a notebook in both languages with a name
    in the gym's catalogue; every question kind needs one of them."""
    assert list(LESSONS) == list(range(1, len(LESSONS) + 1)) and max(LESSONS) == 7
    for n in LESSONS:
        assert [len(list(folder.glob(f"0{n}-*.ipynb"))) for folder in (NOTEBOOKS, NOTEBOOKS / "zh")] == [1, 1]
        assert all(message(f"trainer.lesson.{n}", lang) != f"trainer.lesson.{n}" for lang in ("en", "zh"))
    assert {kind.lesson for kind in QUESTION_KINDS.values()} <= set(LESSONS)
    assert {QUESTION_KINDS[k].lesson for k in ODDS_KINDS} == {7}


@pytest.mark.parametrize("lessons", [1, 2, 3, 4, 5, 6, 7])
def test_lessons_limit_the_puzzles(lessons: int) -> None:
    everything = Trainer(progress=memory()).puzzles  # by default: every lesson of the course
    assert {required_lesson(p) for p in everything} == {1, 2, 3, 4, 7}
    taught = Trainer(progress=memory(), lessons=lessons)
    assert taught.puzzles and all(required_lesson(p) <= lessons for p in taught.puzzles)
    assert len(taught.puzzles) == sum(required_lesson(p) <= lessons for p in everything)
    kinds = {p.question.kind for p in taught.puzzles if p.question is not None}
    assert (ODDS_KINDS <= kinds) == (lessons >= 7) and not (ODDS_KINDS & kinds and lessons < 7)
    if lessons < 4:  # tactics: lesson 4
        assert all(not any(isinstance(c, Tactic) for c in _cards_of(p)) for p in taught.puzzles)


def test_progress_from_before_the_odds_moved_to_lesson_7_still_loads_and_counts() -> None:
    """Odds puzzles used to be served from lesson 3: a learner's answers to them keep their rating, their
    place in the summary and their records in a gym of lessons 1-4, and they come back once lesson 7 is taught."""
    progress = memory()
    early = Trainer(progress=progress)
    early.record("outs-green-wedge", correct=True)
    early.record("safest-flag-for-red-eight", correct=False)
    early.record("one-end-open", correct=True)
    before = early.summary()
    gym_of_lesson_5 = Trainer(progress=progress, lessons=4)
    assert "outs-green-wedge" not in {p.id for p in gym_of_lesson_5.puzzles}
    assert gym_of_lesson_5.rating == early.rating and gym_of_lesson_5.summary().rated == before.rated == 3
    assert gym_of_lesson_5.records() == early.records()
    summary = gym_of_lesson_5.summary()
    assert summary.solved == before.solved == 2 and summary.history == before.history
    assert summary.total == sum(required_lesson(p) <= 4 for p in early.all_puzzles) + 2  # + the two odds puzzles
    assert "safest-flag-for-red-eight" not in gym_of_lesson_5.due()  # a review waits for its lesson
    for _ in range(SPACING):
        gym_of_lesson_5.record(gym_of_lesson_5.next().id, correct=True)
    assert "safest-flag-for-red-eight" in Trainer(progress=progress).due()


def test_puzzles_solved_in_a_lesson_widget_count() -> None:
    progress = memory()
    s = PuzzleSession(library.get("one-end-open"), progress=progress, source="lesson")
    s.answer(library.get("one-end-open").solve())
    t = Trainer(progress=progress)
    assert t.summary().solved == 1 and t.rating > 1500
    assert t.next().id != "one-end-open"


def _streak_key(t: Trainer, pid: str) -> tuple[int, float]:
    return (t._puzzle(pid).level or 0, t.puzzle_rating(pid))


def test_streak_gets_harder_until_the_first_mistake() -> None:
    t = Trainer(progress=memory())
    p = t.start_streak()
    keys = []
    for _ in range(4):
        keys.append(_streak_key(t, p.id))
        t.record(p.id, correct=True)
        p = t.next()
    assert keys == sorted(keys) and t.streak_mode and t.streak_length == 4
    t.record(p.id, correct=False)
    assert not t.streak_mode and t.streak_length == 4 and t.streak_ended == (4, "miss")


def test_streak_levels_never_go_down_and_no_puzzle_comes_twice() -> None:
    """After each right answer the next streak puzzle is at a level never lower than the last (the
    levels went 2 -> 1 -> 1 -> 1 before: the floor was the live rating, which a right answer lowers),
    and none already solved in this streak comes back, even puzzles solved before the streak."""
    progress = memory()
    t = Trainer(progress=progress)
    before = [p.id for p in t.puzzles if (p.level or 0) == 1][:3]
    for pid in before:  # solved minutes before the streak
        t.record(pid, correct=True)
    p = t.start_streak()
    served, levels = [], []
    for _ in range(25):
        served.append(p.id)
        levels.append(p.level or 0)
        t.record(p.id, correct=True)
        p = t.next()
    assert levels == sorted(levels) and levels[-1] > levels[0], levels
    assert len(set(served)) == len(served) and t.streak_solved == tuple(served)
    first_level = [pid for pid in served if t._puzzle(pid).level == levels[0]]
    unsolved_first = [pid for pid in first_level if pid not in before]
    assert first_level[: len(unsolved_first)] == unsolved_first, "puzzles never solved come first in a level"


@pytest.mark.parametrize("how", ["miss", "hint", "reveal"])
def test_a_miss_or_a_hint_ends_the_streak_with_its_count(how: str) -> None:
    t = Trainer(progress=memory())
    p = t.start_streak()
    for _ in range(2):
        t.session(p).answer(p.solve())
        p = t.next()
    s = t.session(p)
    if how == "miss":
        s.answer(_wrong_answer(p))
    elif how == "hint":
        s.hint()  # the hint itself ends it, before any answer
    else:
        for _ in range(3):
            s.hint()
    assert not t.streak_mode and t.streak_ended == (2, "hint" if how == "reveal" else how)
    assert t.summary().best_streak >= 2


def _wrong_answer(puzzle: object) -> object:
    from battleline_lab.quiz.puzzle import Puzzle

    assert isinstance(puzzle, Puzzle)
    right = puzzle.solve()
    if isinstance(right, bool):
        return not right
    if right in ("a", "b"):
        return "b" if right == "a" else "a"
    if isinstance(right, list):
        return [n for n in range(1, 10) if n not in right][:1]
    return "host" if right != "host" else "wedge"


def test_pressing_streak_during_a_streak_starts_nothing_new() -> None:
    t = Trainer(progress=memory())
    p = t.start_streak()
    t.record(p.id, correct=True)
    q = t.next()
    assert t.start_streak().id == q.id and t.streak_length == 1 and t.streak_mode
    assert t.start_streak().id == q.id, "pressing it twice does not restart it either"


def test_a_puzzle_for_me_on_an_unanswered_puzzle_says_why_it_stays() -> None:
    t = Trainer("seed-examples", progress=memory())
    p = t.next()
    assert t.for_me(p.id, answered=False) == (p, "unanswered")
    t.record(p.id, correct=True)
    q, stays = t.for_me(p.id, answered=True)
    assert stays is None and q.id != p.id
    s = t.start_streak()
    assert t.for_me(s.id, answered=False) == (s, "streak")
    assert t.for_me(None) == (s, None), "from elsewhere, it goes back to the streak's puzzle"


def test_a_streak_that_runs_out_of_harder_puzzles_is_complete() -> None:
    t = Trainer("seed-examples", progress=memory())
    # each solve serves a harder puzzle: one per (level, rating) step the set has
    steps = len({(p.level or 0, t.puzzle_rating(p.id)) for p in t.puzzles})
    p = t.start_streak()
    for _ in range(len(t.puzzles)):
        t.record(p.id, correct=True)
        try:
            p = t.next()
        except LookupError:
            break
    assert not t.streak_mode and t.streak_ended == (steps, "complete")


def test_rules_the_learner_misses_R13() -> None:
    t = Trainer(progress=memory())
    s = t.session("seed-blue-seven-in-your-hand")
    f = s.answer(True)
    assert (f.verdict, f.reason, f.rule) == ("wrong", "hand_not_evidence", "R13")
    assert t.summary().weak_rules == (("R13", 1),)
    row = t.progress.attempts()[-1]
    assert (row.reason, row.rule, row.answer, row.content_hash) == (
        "hand_not_evidence",
        "R13",
        "true",
        content_hash(library.get("seed-blue-seven-in-your-hand")),
    )


def test_counterexample_ghosts_come_as_data_R12() -> None:
    puzzle = next(
        p for p in library.puzzles() if p.question is not None and p.question.kind == "claim" and p.solve() is False
    )
    f = PuzzleSession(puzzle).answer(True)
    reason, rule = miss_reason(puzzle, True)
    assert f.verdict == "wrong" and (f.reason, f.rule) == (reason, rule)
    analysis = puzzle.explain()
    if analysis.counterexample:  # type: ignore[attr-defined]
        assert f.ghosts and f.ghosts[0][1] == tuple(analysis.counterexample)  # type: ignore[attr-defined]


def test_session_records_hints_with_the_answer_and_time() -> None:
    ticks = iter([10.0, 14.5])
    progress = memory()
    puzzle = library.get("one-end-open")
    s = PuzzleSession(puzzle, progress=progress, clock=lambda: next(ticks))
    assert s.hint() == 1
    s.answer(puzzle.solve())
    (row,) = progress.attempts()
    assert (row.kind, row.correct, row.hints, row.seconds, row.source) == ("answer", True, 1, 4.5, "lesson")
    assert progress.get(puzzle.id).hints == 1 and s.step_index == 0


def test_hints_without_an_answer_are_kept_when_leaving() -> None:
    progress = memory()
    s = PuzzleSession(library.get("one-end-open"), progress=progress)
    s.hint()
    s.close()
    assert progress.get("one-end-open").hints == 1 and progress.get("one-end-open").attempts == 0


def test_reset_starts_over_without_destroying() -> None:
    t = Trainer("seed-examples", progress=memory())
    t.record(t.next().id, correct=True)
    t.reset()
    assert t.rating == 1500 and t.summary().rated == 0 and len(t.progress._store().rows()) == 2


def test_rating_chart_is_deterministic_and_escaped() -> None:
    a = rating_chart_svg([1500, 1620, 1580], title="<b>Rating</b>")
    assert a == rating_chart_svg([1500, 1620, 1580], title="<b>Rating</b>")
    assert "<b>" not in a and "&lt;b&gt;" in a and a.count("<circle") == 3
    assert rating_chart_svg([], title="x").count("<circle") == 0
