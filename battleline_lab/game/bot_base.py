"""What every bot shares: the :class:`Bot` protocol and :class:`RandomBot`, the seeded base class.

A bot sees only a :class:`~battleline_lab.game.view.PlayerView` (public
table, own hand, counts) and the legal moves, and returns one of them.  Every bot
checks its seed (``None`` or a whole number, :mod:`~battleline_lab.game.arguments`)
and refuses an empty list of legal moves with
:class:`~battleline_lab.game.arguments.NoLegalMovesError`: there is nothing to return.

The bots build on this module (:mod:`~battleline_lab.game.heuristic`, then the searches and
judgments on top of it) and the registry (:mod:`~battleline_lab.game.bots`) builds on them, so
no bot module needs the registry: imports go one way only (``pyproject.toml``'s import-linter
contract keeps it so).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from . import arguments
from .actions import Action
from .view import PlayerView

__all__ = ["Bot", "RandomBot", "added"]


def added(values: Iterable[float]) -> float:
    """The floats added one by one, in order: what the built-in ``sum`` did before Python 3.12.

    Python 3.12 made ``sum()`` of floats a compensated sum, which can differ in the last bit; a bot
    that broke a near tie on such a sum played other moves from the same seed on 3.11 and on 3.12+
    (the site's Pyodide is 3.14).  The bots add their chances with this instead, so a seed gives the
    same game on every Python.

    >>> added([1e16, 1.0, -1e16, 0.5])  # in order: the 1.0 is lost in 1e16's rounding
    0.5
    """
    total = 0.0
    for value in values:
        total += value
    return total


class Bot(Protocol):
    """Anything that picks one of the legal moves from a player's view (and refuses an empty list of
    them with :class:`~battleline_lab.game.arguments.NoLegalMovesError`)."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal moves (claims included), from its own seeded generator.

    >>> from battleline_lab.game.actions import Pass
    >>> RandomBot(0).choose(None, [Pass()])  # type: ignore[arg-type]
    Pass()
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(arguments.bot_seed(seed))

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        arguments.require_moves(self.name, legal)
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
