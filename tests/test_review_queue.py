"""Puzzles from the learner's own games in the trainer's review queue, without a front end.

A real seeded bot game is reviewed with the game package's API (:func:`review`,
:func:`save_for_learner`); the trainer over the library and the data folder must then
offer those puzzles first, as reviews, until each is solved cleanly, with every store.
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

import battleline_lab
from battleline_lab.game import Player, RandomBot, play_game
from battleline_lab.game.review import Review, review, save_for_learner
from battleline_lab.game.session import GameSession
from battleline_lab.quiz import library
from battleline_lab.training.progress import JsonLinesStore, MemoryStore, Progress, review_dir
from battleline_lab.training.trainer import (
    GAMES_THEME,
    SPACING,
    ReviewQueueWarning,
    Trainer,
    export_document,
    required_lesson,
)


@pytest.fixture(scope="module")
def game_review() -> Review:
    """South's review of a seeded game between two random bots: 4 moments (R12 missed, R11 tie, ...)."""
    result = review(play_game(RandomBot(1), RandomBot(2), seed=17), Player.SOUTH)
    assert len(result.moments) >= 3
    return result


def _ids(result: Review) -> list[str]:
    return [m.id for m in sorted(result.moments, key=lambda m: m.turn)]


def _solve(t: Trainer, puzzle_id: str, *, hints: int = 0) -> None:
    puzzle = t._puzzle(puzzle_id)
    t.record(puzzle_id, correct=True, hints=hints, answer=puzzle.solve())


def _miss(t: Trainer, puzzle_id: str) -> None:
    puzzle = t._puzzle(puzzle_id)
    wrong: object = [] if puzzle.solve() else True
    if wrong == puzzle.solve():
        wrong = [99]
    t.record(puzzle_id, correct=False, answer=wrong)


STORES: dict[str, Callable[[Path], Trainer]] = {
    "sqlite": lambda data: Trainer(data=data),
    "memory": lambda data: Trainer(progress=Progress(store=MemoryStore()), games=review_dir(data)),
    "jsonlines": lambda data: Trainer(
        progress=Progress(store=JsonLinesStore(data / "progress.jsonl")), games=review_dir(data)
    ),
}


@pytest.mark.parametrize("store", sorted(STORES))
def test_game_puzzles_come_first_as_reviews_until_solved(store: str, tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    t = STORES[store](tmp_path)
    assert len(t.puzzles) == len(library.ids())  # the whole library, plus the games' puzzles
    expected = _ids(game_review)
    assert t.due() == expected  # nothing missed yet: only the games' puzzles are due, in game order
    offered = []
    for _ in expected:
        p = t.next()
        assert t.is_from_games(p.id)
        offered.append(p.id)
        _solve(t, p.id)
    assert offered == expected
    assert t.games_to_review() == [] and t.due() == []
    if store != "memory":  # kept on disk: a new trainer does not offer them either
        assert STORES[store](tmp_path).games_to_review() == []
    for _ in range(12):  # solved cleanly: never offered again (library puzzles from now on)
        p = t.next()
        assert not t.is_from_games(p.id) and p.id in {q.id for q in t.puzzles}
        _solve(t, p.id)
    rows = t.progress.attempts()
    assert [r.puzzle_id for r in rows[: len(expected)]] == expected  # recorded like any other answer
    assert all(r.content_hash for r in rows)


def test_game_puzzles_are_recorded_but_rated_for_nobody(tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    t = Trainer(data=tmp_path)
    first = t.next()
    _miss(t, first.id)
    assert t.rating == 1500 and t.summary().rated == 0 and t.summary().history == ()
    assert t.puzzle_rating(first.id) == t.initial_rating(first.id)
    assert t.progress.get(first.id).attempts == 1
    exported = export_document(t.progress, t)["puzzles"]
    assert isinstance(exported, dict) and exported[first.id]["theme"] == GAMES_THEME
    library_puzzle = next(p for p in t.puzzles if p.id not in set(_ids(game_review)))
    _solve(t, library_puzzle.id)
    assert t.rating > 1500 and t.summary().rated == 1  # a library puzzle still moves the rating (Glicko-2)


def test_a_missed_game_puzzle_comes_back_spaced_like_other_reviews(tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    t = Trainer(data=tmp_path)
    first = t.next()
    _miss(t, first.id)
    between = []
    while True:
        p = t.next()
        if p.id == first.id:
            break
        between.append(p.id)
        _solve(t, p.id)
        assert len(between) <= SPACING
    assert len(between) == SPACING  # as a missed library puzzle (R12 claims are trained like any other)
    _solve(t, first.id, hints=1)  # right, but with a hint: not clean, so it stays in the queue
    assert first.id in {p.id for p in t.games_to_review()}
    for _ in range(2 * SPACING + 1):  # a second miss doubles the spacing
        p = t.next()
        if p.id == first.id:
            _solve(t, p.id)
            break
        _solve(t, p.id)
    else:
        pytest.fail("the missed game puzzle never came back")
    assert first.id not in {p.id for p in t.games_to_review()}


def test_game_puzzles_are_in_the_learners_language(tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    p = Trainer(data=tmp_path).next()
    moment = next(m for m in game_review.moments if m.id == p.id)
    for lang in ("en", "zh"):
        assert p.title_text(lang) == moment.title(lang) and p.note_text(lang) == moment.note(lang)
    assert "flag" in p.title_text("en") or "turn" in p.title_text("en").lower()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in p.note_text("zh") or "")


def test_review_ids_never_collide_with_library_ids(game_review: Review) -> None:
    assert all(m.id.startswith("review-") for m in game_review.moments)
    assert not [i for i in library.ids() if i.startswith("review-")]


BAD_FILES = {
    "syntax": (b"id: review-x\ntitle: [unclosed\n", r"syntax\.yaml:\d+:\d+: error"),
    "not-utf8": (b"id: review-y\ntitle: caf\xe9\n", r"not-utf8\.yaml:2:\d+: error"),
    "library-id": (None, r"library-id\.yaml:1:5: error: the id one-end-open is already another puzzle's"),
    "no-question": (b"id: review-z\ntitle: a position\nflags: {}\n", r"no-question\.yaml:\d+:\d+: error"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_located_warning_and_is_left_alone(name: str, tmp_path: Path, game_review: Review) -> None:
    folder = review_dir(tmp_path)
    save_for_learner(game_review, folder)
    text, pattern = BAD_FILES[name]
    if text is None:  # a good puzzle file whose id is a library puzzle's
        good = (folder / f"{_ids(game_review)[0]}.yaml").read_text(encoding="utf-8")
        text = good.replace(f"id: {_ids(game_review)[0]}", "id: one-end-open", 1).encode()
    bad = folder / f"{name}.yaml"
    bad.write_bytes(text)
    before = (bad.read_bytes(), bad.stat().st_mtime_ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = Trainer(data=tmp_path)
        offered = []
        for _ in range(len(game_review.moments)):
            p = t.next()
            offered.append(p.id)
            _solve(t, p.id)
        t.summary()
    mine = [w for w in caught if issubclass(w.category, ReviewQueueWarning)]
    assert len(mine) == 1, [str(w.message) for w in mine]
    assert re.search(pattern, str(mine[0].message)), mine[0].message
    assert offered == _ids(game_review)  # the good ones still come, the bad one is skipped
    assert t.game_problems == [str(mine[0].message).split(" (a puzzle from your games")[0]]
    assert (bad.read_bytes(), bad.stat().st_mtime_ns) == before  # never rewritten
    assert sorted(f.name for f in folder.iterdir()) == sorted([*(f"{i}.yaml" for i in _ids(game_review)), bad.name])


def test_a_game_reviewed_after_the_trainer_was_made_is_picked_up(tmp_path: Path, game_review: Review) -> None:
    t = Trainer(data=tmp_path)
    assert t.game_puzzles() == [] and not review_dir(tmp_path).exists()  # no folder yet: nothing, no warning
    p = t.next()
    assert not t.is_from_games(p.id)
    _solve(t, p.id)
    save_for_learner(game_review, review_dir(tmp_path))
    assert t.next().id == _ids(game_review)[0]


def test_game_puzzles_needing_a_later_lesson_wait(tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    need = {m.id: required_lesson(m.puzzle) for m in game_review.moments}
    assert set(need.values()) <= {3, 4}  # claims (R12), or tactics cards in sight
    for lessons in (1, 2, 3, 4):
        offered = [p.id for p in Trainer(data=tmp_path, lessons=lessons).game_puzzles()]
        assert offered == [i for i in _ids(game_review) if need[i] <= lessons]


def test_the_review_this_game_folder_is_the_trainers(game_review: Review) -> None:
    """What the game widget calls (``save_for_learner(review)``) saves where ``Trainer()`` looks."""
    paths = save_for_learner(game_review)
    t = Trainer()
    assert {p.parent for p in paths} == {t.games_folder} == {review_dir()}
    assert t.games_folder == Path(os.environ["BATTLELINE_LAB_DATA"]) / "review"
    assert t.next().id == _ids(game_review)[0]


def test_every_caller_saves_for_the_learner_in_the_one_default_folder() -> None:
    """No caller names its own folder for ``save_for_learner``: the folder is defined once (review_dir).

    The game session passes on its ``folder`` argument (None unless a test gives one), and the
    game widget opens the review without one.
    """
    package = Path(battleline_lab.__file__).parent
    calls: dict[str, list[tuple[int, list[str | None]]]] = {"save_for_learner": [], "open_review": []}
    for file in package.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in calls:
                    args = [getattr(a, "id", None) for a in node.args[1 if name == "save_for_learner" else 0 :]]
                    calls[name].append((len(node.keywords), args))
    assert calls["save_for_learner"], "the game session saves its review with save_for_learner"
    assert all(not k and args in ([], ["folder"]) for k, args in calls["save_for_learner"]), calls
    assert calls["open_review"] and all(not k and not args for k, args in calls["open_review"]), calls
    assert inspect.signature(GameSession.open_review).parameters["folder"].default is None


def test_the_problems_are_in_the_learners_language(tmp_path: Path, game_review: Review) -> None:
    folder = review_dir(tmp_path)
    save_for_learner(game_review, folder)
    (folder / "empty.yaml").write_text("id: review-empty\ntitle: 一个局面\nflags: {}\n", encoding="utf-8")
    with pytest.warns(ReviewQueueWarning, match=r"empty\.yaml:1:1: error: 这个文件没有题目.*（来自你的对局的谜题"):
        t = Trainer(data=tmp_path, lang="zh")
        assert len(t.game_puzzles()) == len(game_review.moments)


def test_game_puzzles_are_offered_even_with_no_library_puzzles(tmp_path: Path, game_review: Review) -> None:
    save_for_learner(game_review, review_dir(tmp_path))
    t = Trainer(puzzles=[], data=tmp_path)
    assert t.puzzles == []
    for expected in _ids(game_review):
        assert t.next().id == expected
        _solve(t, expected)
    with pytest.raises(LookupError, match="no puzzle to train with"):
        t.next()  # all solved, and nothing else loaded
