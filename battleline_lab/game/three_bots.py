"""Bots and matches for the three-player game (R32-R37).

Two bots play it: ``random`` (:class:`ThreeRandomBot`, uniform over the legal moves) and
``heuristic`` (:class:`ThreeHeuristicBot`).  The heuristic judges each of
its two fronts with the two-player heuristic's estimate (the chance of winning a flag against
the player across it, from what each side could still make with the cards still unseen), weighs
each flag by the triples of its line it can still help make (R36), claims every flag it can
prove (R35) and plays the largest gain.  Both see only a :class:`~battleline_lab.game.three.ThreeView`.

:func:`run_three_match` plays N games between three bots named A, B and C, the seats rotating
(game ``k`` is dealt from ``seed + k``; seat A starts every game and bot A, B, C sit there in
turn), and sums up wins, flags, turns and end reasons; ``battleline-lab match A B C`` prints it.

>>> result = run_three_match("heuristic", "random", "random", games=3, seed=1)
>>> result.games, sum(result.wins.values()) + result.draws
(3, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast

from ..core.cards import Card
from . import arguments
from .actions import Action, Claim, EndClaims, PlayCard
from .bot_base import RandomBot
from .heuristic import _Estimator
from .match import MatchTally
from .three import LINES, SEATS, Seat, ThreeState, ThreeView, opponent_at, play_three_game
from .view import PlayerView

__all__ = [
    "THREE_BOTS",
    "ThreeBot",
    "ThreeHeuristicBot",
    "ThreeRandomBot",
    "ThreeMatchResult",
    "make_three_bot",
    "run_three_match",
]

LABELS = ("A", "B", "C")


class ThreeBot(Protocol):
    """Anything that picks one of the legal moves of the three-player game from a player's view."""

    name: str

    def choose(self, view: ThreeView, legal: Sequence[Action]) -> Action: ...


class ThreeRandomBot:
    """:class:`~battleline_lab.game.bot_base.RandomBot` at the three-player table: uniform over the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._bot = RandomBot(seed)

    def choose(self, view: ThreeView, legal: Sequence[Action]) -> Action:
        return self._bot.choose(cast(PlayerView, view), legal)  # it never looks at the view


class ThreeHeuristicBot:
    """Claims what it can prove (R35); otherwise plays the troop that gains most, front by front.

    The gain of ``play T N`` is the change of the two-player estimate of winning flag N against
    the player across it (:class:`~battleline_lab.game.heuristic.HeuristicBot`'s), weighed by
    1 plus a tenth for each triple of the bot's line through N that no one else holds a flag of
    (R36: a flag in the middle of the line makes more triples).
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        arguments.bot_seed(seed)  # no randomness: the seed is checked like every bot's

    def choose(self, view: ThreeView, legal: Sequence[Action]) -> Action:
        arguments.require_moves(self.name, legal)
        if len(legal) == 1:
            return legal[0]
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims:
            return claims[0]
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if not plays:
            return next((a for a in legal if not isinstance(a, EndClaims)), legal[0])
        me = view.player
        est = _Estimator(cast(PlayerView, view))  # it reads only ``player``, ``hand`` and ``unseen_troops()``
        weights = _weights(view)
        now: dict[int, tuple[float, tuple[Card, ...], tuple[Card, ...]]] = {}
        best, best_gain = plays[0], float("-inf")
        for action in plays:
            n = action.flag
            if n not in now:
                other = opponent_at(me, n)
                mine, theirs = view.flag_cards(n, me), view.flag_cards(n, other)
                first = view.first_complete(n)
                now[n] = (est.win(mine, theirs, 3, False, None if first is None else first is me), mine, theirs)
            before, mine, theirs = now[n]
            after_mine = (*mine, action.card)
            # completing now while the other side is complete: the other completed first (R11)
            first_after = False if len(after_mine) == 3 and len(theirs) == 3 else None
            gain = weights[n] * (est.win(after_mine, theirs, 3, False, first_after) - before)
            if gain > best_gain:
                best, best_gain = action, gain
        return best


def _weights(view: ThreeView) -> dict[int, float]:
    """Each flag of the line: 1 plus 0.1 per triple through it still open to this player (R36)."""
    me = view.player
    line = LINES[me]
    out = {}
    for k, n in enumerate(line):
        open_triples = 0
        for start in range(max(0, k - 2), min(k, 3) + 1):
            if all(view.claimed_by(f) in (None, me) for f in line[start : start + 3]):
                open_triples += 1
        out[n] = 1.0 + 0.1 * open_triples
    return out


THREE_BOTS: dict[str, Callable[[int | None], ThreeBot]] = {
    "random": ThreeRandomBot,
    "heuristic": ThreeHeuristicBot,
}


def make_three_bot(name: str, seed: int | None = None) -> ThreeBot:
    """A three-player bot by name (a key of :data:`THREE_BOTS`)."""
    arguments.choice(name, "name", list(THREE_BOTS), "bot")
    return THREE_BOTS[name](seed)


@dataclass
class ThreeMatchResult(MatchTally):
    """What a three-player match produced (the tally every match sums up); ``as_dict`` is the ``--json`` output."""

    LABELS: ClassVar[tuple[str, ...]] = LABELS
    bots: dict[str, str]
    seed: int

    def as_dict(self) -> dict[str, Any]:
        head = {"players": 3, "games": self.games, "bots": dict(self.bots), "seed": self.seed, "seats": "rotating"}
        return self._json(head)


def seating(k: int) -> dict[Seat, str]:
    """Game ``k``'s seats: seat ``SEATS[j]`` holds bot ``LABELS[(j + k) % 3]`` (seat A starts)."""
    return {seat: LABELS[(j + k) % 3] for j, seat in enumerate(SEATS)}


def run_three_match(
    bot_a: str,
    bot_b: str,
    bot_c: str,
    *,
    games: int,
    seed: int = 0,
    on_game: Callable[[int, ThreeState, dict[Seat, str]], None] | None = None,
) -> ThreeMatchResult:
    """Play ``games`` three-player games between bots A, B and C, the seats rotating.

    Bot ``X`` of game ``k`` is seeded ``3 * (seed + k) + index of X + 1``; ``on_game(k, state,
    names)`` is called after each game (``names`` maps each seat to its bot's name).
    """
    names = dict(zip(LABELS, (bot_a, bot_b, bot_c), strict=True))
    for label, name in names.items():
        arguments.choice(name, f"bot_{label.lower()}", list(THREE_BOTS), "bot")
    games = arguments.whole_number(games, "games", 1, arguments.MAX_GAMES)
    seed = arguments.seed(seed)
    if on_game is not None and not callable(on_game):
        raise arguments.GameArgumentTypeError("on_game", on_game, "callable")
    result = ThreeMatchResult(names, seed)
    start = time.perf_counter()
    for k in range(games):
        game_seed = seed + k
        seats = seating(k)
        bots = [make_three_bot(names[seats[s]], 3 * game_seed + LABELS.index(seats[s]) + 1) for s in SEATS]
        state = play_three_game(bots, game_seed, first=Seat.A)
        if on_game is not None:
            on_game(k, state, {s: names[seats[s]] for s in SEATS})
        result.count(state, seats)
    result.seconds = time.perf_counter() - start
    return result
