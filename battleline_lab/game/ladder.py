"""Levels for learners: a ladder of bots, each with a Glicko-2 rating, and the learner's own game rating.

The bots, gentlest first (:data:`LADDER`): ``random`` (any legal move), ``gentle`` (the heuristic
bot, one card play in two at random), ``heuristic``, ``expert`` and ``master``.  Their published
ratings are in ``ladder.json`` beside this module, measured by ``benchmarks/bench_ladder.py`` in
bot-against-bot matches (the file says how: games per pair, seeds, the first move alternating);
:func:`bot_ratings` reads them.

A learner's game rating starts at Glicko-2's 1500 (deviation 350) and is updated after every
game against a rated bot, one game per rating period, exactly as the trainer rates a puzzle
attempt (:mod:`battleline_lab.training.glicko2`); the games come from the learner's progress store
(:meth:`battleline_lab.training.progress.Progress.games`).  "An opponent at my level" is the rated bot
whose rating is nearest the learner's (:func:`nearest_bot`; on equal distance the gentler one).

>>> ratings = {"random": Rating(1000, 60), "heuristic": Rating(1600, 60)}
>>> nearest_bot(1200, ratings), nearest_bot(1400, ratings)
('random', 'heuristic')
>>> from battleline_lab.training.progress import GameResult
>>> r = learner_rating([GameResult("heuristic", 1.0)], ratings)
>>> r.rating > 1500, learner_rating([GameResult("unrated", 1.0)], ratings) == Rating()
(True, True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from ..training.glicko2 import Rating, update
from ..training.progress import GameResult

__all__ = ["LADDER", "RATINGS_FILE", "bot_ratings", "ladder_info", "learner_rating", "nearest_bot"]

#: The bots of the ladder, gentlest first.
LADDER = ("random", "gentle", "heuristic", "expert", "master")
#: The published ratings, in the package beside this module.
RATINGS_FILE = "ladder.json"


@functools.lru_cache(maxsize=1)
def ladder_info() -> dict[str, Any]:
    """The whole ``ladder.json``: ``{"method": {...how measured...}, "bots": {name: {rating, rd, volatility}}}``."""
    text = resources.files(__package__).joinpath(RATINGS_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def bot_ratings() -> dict[str, Rating]:
    """The published rating of every bot of the ladder, in ladder order.

    >>> list(bot_ratings()) == list(LADDER)
    True
    """
    bots = ladder_info()["bots"]
    return {
        name: Rating(float(bots[name]["rating"]), float(bots[name]["rd"]), float(bots[name]["volatility"]))
        for name in LADDER
        if name in bots
    }


def learner_rating(games: Iterable[GameResult], ratings: Mapping[str, Rating] | None = None) -> Rating:
    """The learner's Glicko-2 rating after ``games`` (oldest first), one game per rating period;
    games against a bot without a rating do not count."""
    table = bot_ratings() if ratings is None else ratings
    rating = Rating()
    for game in games:
        opponent = table.get(game.bot)
        if opponent is not None:
            rating = update(rating, [(opponent, game.score)])
    return rating


def nearest_bot(rating: float, ratings: Mapping[str, Rating] | None = None) -> str:
    """The rated bot whose rating is nearest ``rating`` (on equal distance the gentler one)."""
    table = bot_ratings() if ratings is None else ratings
    order = {name: i for i, name in enumerate(LADDER)}
    return min(table, key=lambda name: (abs(table[name].rating - rating), order.get(name, len(order))))
