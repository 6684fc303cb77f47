"""Bots that play Battle Line: a random bot and a heuristic bot.

A bot sees only a :class:`~battleline_lab.game.view.PlayerView` (public
table, own hand, counts) and the legal moves, and returns one of them.

The heuristic bot claims every flag it can prove, and chooses its card by a
one-move look-ahead: for each legal play it estimates, for the flags the play
touches, the chance of winning each flag before and after, and plays the
largest gain.  The estimate compares what each side could still make there
(the best reachable formation weighted by the chance of getting the cards it
needs: certain from its own hand, likely for several unseen cards, unlikely for
one given card).  Tactics cards are judged the same way but must beat the
best troop by a margin, so they are kept for moves that matter (a Leader
completing a Wedge, a Deserter breaking a winning formation, Fog where the
opponent's formation outclasses a higher sum...).

>>> from battleline_lab.game.match import play_game
>>> state = play_game(HeuristicBot(1), RandomBot(2), seed=3)
>>> state.over
True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from ..cards import Card, Colour, Tactic, Troop
from ..formations import evaluate, formation_size
from ..messages import message
from .actions import (
    Action,
    Claim,
    Deserter,
    Draw,
    EndClaims,
    MudDiscard,
    Pass,
    PlayCard,
    PlayScout,
    Redeploy,
    ReturnCard,
    Traitor,
)
from .state import Deck, Phase, Player
from .view import PlayerView

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """Anything that picks one of the legal moves from a player's view."""

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
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


# -- the heuristic bot's evaluation -------------------------------------------

KIND_STEP = 100  # strength scale: kind * KIND_STEP + sum (R10)
EMPTY_SIDE = 230.0  # what an empty side is worth: somewhere between a Battalion and a Phalanx
SCALE = 45.0  # strength difference that moves the win estimate from 50% to 73%
ONE_CARD = 0.3  # chance of getting one given unseen troop in time
TACTIC_COST = 0.12  # a tactics card must gain this much more than the best troop
SCOUT_VALUE = 0.05
FLAG_WEIGHT = (1.0, 1.1, 1.2, 1.2, 1.2, 1.2, 1.2, 1.1, 1.0)  # middle flags make more triples


@functools.lru_cache(maxsize=1 << 16)
def _strength(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    """A complete formation on the bot's scale (R10): ``kind * 100 + sum``, or the sum under Fog (R24)."""
    f = evaluate(cards, fog=fog, mud=mud)
    return float(f.total if f.kind is None else f.kind * KIND_STEP + f.total)


def _any_of(count: int, needed: int) -> float:
    """Chance of getting ``needed`` cards out of ``count`` unseen candidates."""
    if needed <= 0:
        return 1.0
    if count < needed:
        return 0.0
    return float((1.0 - (1.0 - ONE_CARD) ** (count - needed + 1)) ** needed)


class _Estimator:
    """Strength estimates for partial sides, from one player's knowledge."""

    def __init__(self, view: PlayerView) -> None:
        self.me = view.player
        hand = view.hand
        self.hand: set[Troop] = {c for c in hand if isinstance(c, Troop)}
        self.unseen = set(view.unseen_troops()) - self.hand  # what could still come to either side
        self.cache: dict[tuple[object, ...], float] = {}
        self.hand_value = [0] * 11
        self.unseen_value = [0] * 11
        self.hand_colour = {c: 0 for c in Colour}
        self.unseen_colour = {c: 0 for c in Colour}
        for t in self.hand:
            self.hand_value[t.value] += 1
            self.hand_colour[t.colour] += 1
        for t in self.unseen:
            self.unseen_value[t.value] += 1
            self.unseen_colour[t.colour] += 1

    def _p(self, troop: Troop, mine: bool) -> float:
        if mine and troop in self.hand:
            return 1.0
        return ONE_CARD if troop in self.unseen else 0.0

    def _by_value(self, value: int, mine: bool) -> tuple[int, int]:
        return (self.hand_value[value] if mine else 0), self.unseen_value[value]

    def _by_colour(self, colour: Colour, mine: bool) -> tuple[int, int]:
        return (self.hand_colour[colour] if mine else 0), self.unseen_colour[colour]

    def potential(self, cards: tuple[Card, ...], size: int, fog: bool, mine: bool) -> float:
        """Expected strength the side can reach (``kind * 100 + sum``, or the sum under Fog)."""
        key = (cards, size, fog, mine)
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = self._potential(cards, size, fog, mine)
        return value

    def _potential(self, cards: tuple[Card, ...], size: int, fog: bool, mine: bool) -> float:
        if len(cards) >= size:
            return _strength(cards[:size], fog, size == 4)
        if not cards:
            return EMPTY_SIDE if not fog else 22.0
        troops = [c for c in cards if isinstance(c, Troop)]
        wilds = [c for c in cards if isinstance(c, Tactic)]
        missing = size - len(cards)
        base = sum(t.value for t in troops) + sum(max(w.wild_values) for w in wilds)
        host = base + 5.0 * missing
        if fog:
            return host + 1.0 * missing
        best = host
        values = [t.value for t in troops]
        colours = {t.colour for t in troops}
        distinct = len(set(values)) == len(values)
        # Wedge and Skirmish Line: a run containing every value
        if distinct:
            lo = min(values) if values else 1
            hi = max(values) if values else 10
            for start in range(max(1, hi - size + 1), min(lo, 11 - size) + 1):
                run = range(start, start + size)
                need = [v for v in run if v not in values]
                total = sum(run)
                for colour in colours if len(colours) == 1 else ():
                    probs = sorted(self._p(Troop(colour, v), mine) for v in need)
                    prob = math.prod(probs[len(wilds) :])
                    best = max(best, prob * (4 * KIND_STEP + total) + (1 - prob) * host)
                probs = []
                for v in need:
                    h, u = self._by_value(v, mine)
                    probs.append(1.0 if h else _any_of(u, 1))
                probs.sort()
                prob = math.prod(probs[len(wilds) :])
                best = max(best, prob * (1 * KIND_STEP + total) + (1 - prob) * host)
        # Phalanx: all the same value
        if values and len(set(values)) == 1:
            v = values[0]
            h, u = self._by_value(v, mine)
            prob = 1.0 if h >= missing else _any_of(u, missing - h)
            best = max(best, prob * (3 * KIND_STEP + v * size) + (1 - prob) * host)
        # Battalion Order: all the same colour
        if len(colours) == 1:
            colour = next(iter(colours))
            h, u = self._by_colour(colour, mine)
            prob = 1.0 if h >= missing else _any_of(u, missing - h)
            best = max(best, prob * (2 * KIND_STEP + base + 6.0 * missing) + (1 - prob) * host)
        return best

    def win(self, mine: tuple[Card, ...], theirs: tuple[Card, ...], size: int, fog: bool, first: bool | None) -> float:
        """Estimated chance that ``mine`` beats ``theirs`` at a flag."""
        if len(mine) >= size and len(theirs) >= size:
            a = self.potential(mine, size, fog, True)
            b = self.potential(theirs, size, fog, False)
            if a != b:
                return 1.0 if a > b else 0.0
            return 1.0 if first else 0.0
        a = self.potential(mine, size, fog, True)
        b = self.potential(theirs, size, fog, False)
        if len(mine) >= size and a >= b:
            return 0.97
        return 1.0 / (1.0 + math.exp((b - a) / SCALE))


class _Board:
    """The flags as the bot sees them, with the changes a move would make."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.me = view.player
        self.est = _Estimator(view)
        self.open = [n for n in range(1, 10) if view.claimed_by(n) is None]
        self._now: dict[int, float] = {}

    def flag(self, n: int) -> tuple[tuple[Card, ...], tuple[Card, ...], list[Tactic]]:
        v = self.view
        env = list(v.flag_env(n, self.me)) + list(v.flag_env(n, self.me.other))
        return v.flag_cards(n, self.me), v.flag_cards(n, self.me.other), env

    def value(self, n: int, mine: tuple[Card, ...], theirs: tuple[Card, ...], env: Iterable[Tactic]) -> float:
        env = list(env)
        size = formation_size(Tactic.MUD in env)
        fog = Tactic.FOG in env
        first = self.view.first_complete(n)
        win = self.est.win(mine, theirs, size, fog, None if first is None else first is self.me)
        return FLAG_WEIGHT[n - 1] * win

    def now(self, n: int) -> float:
        value = self._now.get(n)
        if value is None:
            mine, theirs, env = self.flag(n)
            value = self._now[n] = self.value(n, mine, theirs, env)
        return value

    def gain(self, action: Action) -> float:
        """How much the move raises the summed win estimates of the flags it touches."""
        if isinstance(action, PlayCard):
            n = action.flag
            mine, theirs, env = self.flag(n)
            card = action.card
            if isinstance(card, Tactic) and card.is_environment:
                after = self.value(n, mine, theirs, env + [card])
            else:
                after = self.value(n, mine + (card,), theirs, env)
            return after - self.now(n)
        if isinstance(action, Deserter):
            n, side_cards, is_env = self._find(action.target, self.me.other)
            mine, theirs, env = self.flag(n)
            if is_env:
                env = [e for e in env if e is not action.target]
            else:
                theirs = tuple(c for c in theirs if c != action.target)
            return self.value(n, mine, theirs, env) - self.now(n)
        if isinstance(action, Traitor):
            n, _, _ = self._find(action.target, self.me.other)
            mine, theirs, env = self.flag(n)
            theirs = tuple(c for c in theirs if c != action.target)
            total = self.value(n, mine, theirs, env) - self.now(n)
            if action.to == n:
                return self.value(n, mine + (action.target,), theirs, env) - self.now(n)
            mine2, theirs2, env2 = self.flag(action.to)
            return total + self.value(action.to, mine2 + (action.target,), theirs2, env2) - self.now(action.to)
        if isinstance(action, Redeploy):
            n, _, is_env = self._find(action.target, self.me)
            mine, theirs, env = self.flag(n)
            if is_env:
                env = [e for e in env if e is not action.target]
            else:
                mine = tuple(c for c in mine if c != action.target)
            total = self.value(n, mine, theirs, env) - self.now(n)
            if action.to is not None:
                m2, t2, e2 = self.flag(action.to)
                if is_env:
                    assert isinstance(action.target, Tactic)
                    e2 = e2 + [action.target]
                else:
                    m2 = m2 + (action.target,)
                total += self.value(action.to, m2, t2, e2) - self.now(action.to)
            return total
        if isinstance(action, PlayScout):
            return SCOUT_VALUE
        return 0.0

    def _find(self, card: Card, side: Player) -> tuple[int, tuple[Card, ...], bool]:
        for n in self.open:
            cards = self.view.flag_cards(n, side)
            if card in cards:
                return n, cards, False
            if card in self.view.flag_env(n, side):
                return n, cards, True
        raise ValueError(f"{card} is not on the table")  # pragma: no cover


class HeuristicBot(RandomBot):
    """Claims all it can prove, then plays the move with the best estimated gain (see the module doc).

    Ties are broken by its seeded generator, so a game is reproducible.
    """

    name = "heuristic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.CLAIM:
            for action in legal:
                if isinstance(action, Claim):
                    return action
            return next(a for a in legal if isinstance(a, EndClaims))
        if phase in (Phase.DRAW, Phase.SCOUT_DRAW):
            return self._draw(view, legal)
        if phase is Phase.SCOUT_RETURN:
            return self._scout_return(view, legal)
        if phase is Phase.MUD_DISCARD:
            return self._mud_discard(view, legal)
        return self._play(view, legal)

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        board = _Board(view)
        best: tuple[float, float] | None = None
        choice: Action = legal[0]
        for action in legal:
            if isinstance(action, Pass):
                score = -0.05
            else:
                score = board.gain(action)
                if not (isinstance(action, PlayCard) and isinstance(action.card, Troop)):
                    score -= TACTIC_COST
            key = (score, self.rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        tactics = sum(1 for c in hand if isinstance(c, Tactic))
        want = Deck.TACTICS if tactics == 0 and len(hand) - tactics >= 5 else Deck.TROOPS
        for action in legal:
            if isinstance(action, Draw) and action.deck is want:
                return action
        return legal[0]

    def _card_worth(self, view: PlayerView, board: _Board, card: Card) -> float:
        if isinstance(card, Tactic):
            if card.is_leader and view.leader_played(view.player):
                return -1.0
            return 0.2
        return max((board.gain(PlayCard(card, n)) for n in board.open), default=0.0) + card.value / 100

    def _scout_return(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        board = _Board(view)
        worst = min(
            (a for a in legal if isinstance(a, ReturnCard)),
            key=lambda a: (self._card_worth(view, board, a.card), a.card.notation),
        )
        return worst

    def _mud_discard(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        n = view.pending_discard_flag
        assert n is not None
        cards = view.flag_cards(n, view.player)
        fog = view.fog(n)

        def keep(action: MudDiscard) -> tuple[int, int]:
            rest = [c for c in cards if c != action.card]
            return evaluate(rest[:3], fog=fog).strength.key

        return max((a for a in legal if isinstance(a, MudDiscard)), key=keep)


def _expert(seed: int | None = None, rollouts: int | None = None) -> Bot:
    from .expert import DEFAULT_ROLLOUTS, ExpertBot  # the expert builds on this module

    return ExpertBot(seed, rollouts=rollouts or DEFAULT_ROLLOUTS)


BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "expert": _expert}


def make_bot(name: str, seed: int | None = None, *, rollouts: int | None = None) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``expert``); ``rollouts`` is the expert's budget per move.

    >>> make_bot("heuristic", 1).name
    'heuristic'
    """
    if name not in BOTS:
        raise ValueError(message("game.unknown_bot", name=name, bots=", ".join(BOTS)))
    if name == "expert":
        return _expert(seed, rollouts)
    return BOTS[name](seed)
