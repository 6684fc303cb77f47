"""The gym climbs with a learner who gets everything right.

A simulated learner answers every puzzle right at the first try in the gym of lesson 5
(``PuzzleGym("library", lessons=4)``, the trainer behind it).  "A puzzle for me" must lift them
quickly to the hard puzzles, and a streak must serve a harder puzzle after every solve.  These
figures must stay true as puzzle kinds are added and the rating rules change.
"""

from __future__ import annotations

from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.training.trainer import Trainer


def _gym() -> Trainer:
    return Trainer("library", progress=Progress(store=MemoryStore()), lessons=4)


def test_a_puzzle_for_me_serves_levels_3_to_5_from_the_third_puzzle_and_the_rating_climbs() -> None:
    trainer = _gym()
    levels, ratings = [], []
    for _ in range(15):
        puzzle, why = trainer.for_me()
        assert why is None
        levels.append(puzzle.level)
        trainer.record(puzzle.id, correct=True, answer=puzzle.answer)
        ratings.append(trainer.rating)
    assert all(level is not None and 3 <= level <= 5 for level in levels[2:]), levels
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), ratings
    assert ratings[-1] >= 2000, ratings


def test_a_streak_serves_a_harder_puzzle_after_every_solve() -> None:
    trainer = _gym()
    puzzle = trainer.start_streak()
    keys = []
    for _ in range(12):
        keys.append((puzzle.level or 0, trainer.puzzle_rating(puzzle.id)))
        trainer.record(puzzle.id, correct=True, answer=puzzle.answer)
        puzzle = trainer.next()
    assert all(a < b for a, b in zip(keys, keys[1:])), keys
    assert trainer.streak_length == 12
