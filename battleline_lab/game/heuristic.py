"""The heuristic bot (``heuristic``), its gentle variant (``gentle``) and the estimate the stronger bots build on.

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

The estimate is built for speed (the expert bot plays this bot in its play-outs): what it
asks of the unseen cards is counted into tables once per decision, each flag's present
estimate once per decision, and a move that cannot beat the best one found (each flag it
touches can gain at most its weight minus its present estimate) is not scored.  A card's
Redeploy, Deserter and Traitor moves share the estimate of its flag without it, and a card
moved to another flag is scored as a play there.  None of
this changes a move: the same seeds give the same games as the plain one-move look-ahead
(``tests/game/test_bot_golden.py``).

:class:`Board` (the flags as the bot sees them) and :data:`TACTIC_COST` are shared with the
expert, odds-search and master bots, which subclass :class:`HeuristicBot`.

>>> from battleline_lab.game.match import play_game
>>> state = play_game(HeuristicBot(1), RandomBot(2), seed=3)
>>> state.over
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop, card_sort_key
from ..core.formations import evaluate, formation_size, troops_strength
from . import arguments
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
from .bot_base import RandomBot
from .state import Deck, Phase, Player
from .view import PlayerView

__all__ = ["TACTIC_COST", "Board", "GentleBot", "HeuristicBot"]

# -- the heuristic bot's evaluation -------------------------------------------

KIND_STEP = 100  # strength scale: kind * KIND_STEP + sum (R10)
EMPTY_SIDE = 230.0  # what an empty side is worth: somewhere between a Battalion and a Phalanx
SCALE = 45.0  # strength difference that moves the win estimate from 50% to 73%
ONE_CARD = 0.3  # chance of getting one given unseen troop in time
TACTIC_COST = 0.12  # a tactics card must gain this much more than the best troop
SCOUT_VALUE = 0.05
FLAG_WEIGHT = (1.0, 1.1, 1.2, 1.2, 1.2, 1.2, 1.2, 1.1, 1.0)  # middle flags make more triples

_WILD_TOP = {w: max(w.wild_values) for w in Tactic if w.is_wild}  # a morale card at its best value
_FOG, _MUD = Tactic.FOG, Tactic.MUD
# enum members read on every decision, bound once (reading one through its Enum class is slow)
_PLAY, _CLAIM, _DRAW, _SCOUT_DRAW = Phase.PLAY, Phase.CLAIM, Phase.DRAW, Phase.SCOUT_DRAW
_TROOPS_DECK, _TACTICS_DECK = Deck.TROOPS, Deck.TACTICS
_ALL_TROOPS = frozenset(ALL_TROOPS)


@functools.lru_cache(maxsize=1 << 16)
def _strength(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    """A complete formation on the bot's scale (R10): ``kind * 100 + sum``, or the sum under Fog (R24).

    Troops alone are judged directly (:func:`_troops_strength`).  With morale cards the
    strength does not depend on the order of the cards, so a miss here looks them up again
    in a canonical order before evaluating them.
    """
    values, colour, wilds, _ = _parse(cards)
    if not wilds:
        return _troops_strength(values, colour, fog)
    return _sorted_strength(tuple(sorted(cards, key=card_sort_key)), fog, mud)


@functools.lru_cache(maxsize=1 << 16)
def _sorted_strength(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    f = evaluate(cards, fog=fog, mud=mud)
    return float(f.total if f.kind is None else f.kind * KIND_STEP + f.total)


def _troops_strength(values: tuple[int, ...], colour: Colour | None, fog: bool) -> float:
    """:func:`_strength` of a complete side of troops only, from its values and its colour if only one (R9, R10).

    The one troop classifier, :func:`battleline_lab.core.formations.troops_strength`, as evaluate uses it.
    """
    kind, total = troops_strength(values, colour is not None, fog=fog)
    return float(total if kind < 0 else kind * KIND_STEP + total)


def _any_of(count: int, needed: int) -> float:
    """Chance of getting ``needed`` cards out of ``count`` unseen candidates."""
    if needed <= 0:
        return 1.0
    if count < needed:
        return 0.0
    return float((1.0 - (1.0 - ONE_CARD) ** (count - needed + 1)) ** needed)


# _any_of for every count of unseen troops of one value (<= 6) or colour (<= 10) and every need (<= 4)
_ANY_OF = [[_any_of(count, needed) for needed in range(5)] for count in range(11)]


# per size and troop values: the runs (Wedge, Skirmish Line) the values fit, as (Wedge strength,
# Skirmish Line strength, the values the run still needs), and the value if all are the same (Phalanx)
_Runs = tuple[tuple[tuple[int, int, tuple[int, ...]], ...], int]
_RUNS: dict[int, dict[tuple[int, ...], _Runs]] = {3: {}, 4: {}}


def _runs(size: int, values: tuple[int, ...]) -> _Runs:
    """The runs of ``size`` cards containing every one of ``values`` (none if a value repeats), remembered."""
    runs: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    if len(set(values)) == len(values):
        lo = min(values) if values else 1
        hi = max(values) if values else 10
        runs = tuple(
            (
                4 * KIND_STEP + sum(range(start, start + size)),
                1 * KIND_STEP + sum(range(start, start + size)),
                tuple(v for v in range(start, start + size) if v not in values),
            )
            for start in range(max(1, hi - size + 1), min(lo, 11 - size) + 1)
        )
    same = values[0] if values and min(values) == max(values) else 0
    entry = _RUNS.setdefault(size, {})[values] = (runs, same)
    return entry


class _Estimator:
    """Strength estimates for partial sides, from one player's knowledge.

    What the estimate asks of the unseen cards (the chance of each troop, of one
    troop of a value, how many of a value or colour are in hand or unseen) is
    counted once per decision into tables, so that an estimate is table look-ups.
    """

    def __init__(self, view: PlayerView) -> None:
        self.me = view.player
        self.hand: set[Troop] = {c for c in view.hand if isinstance(c, Troop)}
        self.unseen = view.unseen_troops() - self.hand  # what could still come to either side
        self.cache: dict[tuple[object, ...], float] = {}
        # counted over the smaller of the unseen troops and the others (on the table or in my hand)
        unseen = self.unseen
        if len(unseen) <= 30:
            unseen_value = [0] * 11
            unseen_colour = [0] * 6  # by colour index
            theirs = [0.0] * 61  # the chance of getting each troop, by ``colour.offset + value``
            for t in unseen:
                v, offset = t.value, t.colour.offset
                unseen_value[v] += 1
                unseen_colour[offset // 10] += 1
                theirs[offset + v] = ONE_CARD
        else:
            unseen_value = [0] + [6] * 10
            unseen_colour = [10] * 6
            theirs = [0.0] + [ONE_CARD] * 60
            for t in _ALL_TROOPS.difference(unseen):
                v, offset = t.value, t.colour.offset
                unseen_value[v] -= 1
                unseen_colour[offset // 10] -= 1
                theirs[offset + v] = 0.0
        mine = list(theirs)
        hand_value = [0] * 11
        hand_colour = [0] * 6
        for t in self.hand:
            v, offset = t.value, t.colour.offset
            hand_value[v] += 1
            hand_colour[offset // 10] += 1
            mine[offset + v] = 1.0
        self.unseen_value = unseen_value
        self.unseen_colour = unseen_colour
        one = _ANY_OF
        # per side: the chance of each troop, of one troop of each value, and the counts in hand
        self.tables: dict[bool, tuple[list[float], list[float], list[int], list[int]]] = {
            True: (mine, [1.0 if h else one[u][1] for h, u in zip(hand_value, unseen_value)], hand_value, hand_colour),
            False: (theirs, [one[u][1] for u in unseen_value], [0] * 11, [0] * 6),
        }

    def potential(self, cards: tuple[Card, ...], size: int, fog: bool, mine: bool) -> float:
        """Expected strength the side can reach (``kind * 100 + sum``, or the sum under Fog)."""
        key = (cards, size, fog, mine)
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = self._potential(cards, size, fog, mine)
        return value

    def _potential(self, cards: tuple[Card, ...], size: int, fog: bool, mine: bool) -> float:
        count = len(cards)
        if count >= size:
            return _strength(cards[:size], fog, size == 4)
        if not count:
            return EMPTY_SIDE if not fog else 22.0
        values, colour, wilds, base = _parse(cards)
        missing = size - count
        if fog:
            return base + 5.0 * missing + 1.0 * missing
        return self.reach(values, colour, wilds, base, size, missing, mine)

    def reach(
        self, values: tuple[int, ...], colour: Colour | None, wilds: int, base: int, size: int, missing: int, mine: bool
    ) -> float:
        """The potential of a side that is neither empty nor complete, without Fog (see :func:`_parse`)."""
        host = base + 5.0 * missing
        best = host
        troop_p, value_p, hand_value, hand_colour = self.tables[mine]
        entry = _RUNS[size].get(values)
        runs, same = _runs(size, values) if entry is None else entry
        # Wedge and Skirmish Line: a run containing every value.  The wildcards fill the least
        # likely gaps, so the chance is the product of the ``missing`` likeliest ones (in ascending
        # order, as ``math.prod`` of the sorted chances would multiply them; with one or two
        # factors the order makes no difference)
        # (a chance of 0 gives ``host``, never more than ``best``: skipped)
        offset = -1 if colour is None else colour.offset
        if not wilds and missing == 1:
            for wedge, skirmish, (x,) in runs:
                if offset >= 0:
                    prob = troop_p[offset + x]
                    if prob:
                        value = prob * wedge + (1 - prob) * host
                        if value > best:
                            best = value
                prob = value_p[x]
                if prob:
                    value = prob * skirmish + (1 - prob) * host
                    if value > best:
                        best = value
        elif not wilds and missing == 2:
            for wedge, skirmish, (x, y) in runs:
                if offset >= 0:
                    prob = troop_p[offset + x] * troop_p[offset + y]
                    if prob:
                        value = prob * wedge + (1 - prob) * host
                        if value > best:
                            best = value
                prob = value_p[x] * value_p[y]
                if prob:
                    value = prob * skirmish + (1 - prob) * host
                    if value > best:
                        best = value
        else:
            for wedge, skirmish, need in runs:
                if offset >= 0:
                    probs = [troop_p[offset + v] for v in need]
                    prob = max(probs) if missing == 1 else math.prod(sorted(probs)[wilds:])
                    value = prob * wedge + (1 - prob) * host
                    if value > best:
                        best = value
                probs = [value_p[v] for v in need]
                prob = max(probs) if missing == 1 else math.prod(sorted(probs)[wilds:])
                value = prob * skirmish + (1 - prob) * host
                if value > best:
                    best = value
        # Phalanx: all the same value
        if same:
            h, u = hand_value[same], self.unseen_value[same]
            prob = 1.0 if h >= missing else _ANY_OF[u][missing - h]
            if prob:
                value = prob * (3 * KIND_STEP + same * size) + (1 - prob) * host
                if value > best:
                    best = value
        # Battalion Order: all the same colour
        if offset >= 0:
            index = offset // 10
            h, u = hand_colour[index], self.unseen_colour[index]
            prob = 1.0 if h >= missing else _ANY_OF[u][missing - h]
            if prob:
                value = prob * (2 * KIND_STEP + base + 6.0 * missing) + (1 - prob) * host
                if value > best:
                    best = value
        return best

    def win(self, mine: tuple[Card, ...], theirs: tuple[Card, ...], size: int, fog: bool, first: bool | None) -> float:
        """Estimated chance that ``mine`` beats ``theirs`` at a flag."""
        a = self.potential(mine, size, fog, True)
        b = self.potential(theirs, size, fog, False)
        return _win(a, b, len(mine) >= size, len(theirs) >= size, first)


def _parse(cards: Iterable[Card]) -> tuple[tuple[int, ...], Colour | None, int, int]:
    """A side's troop values, their colour if there are troops all of one colour, its wildcards, and its sum.

    The sum counts each morale card at its best value.
    """
    values: list[int] = []
    colour: Colour | None = None
    one_colour = True
    wilds = 0
    base = 0
    for c in cards:
        if isinstance(c, Troop):
            v = c.value
            values.append(v)
            base += v
            if colour is None:
                colour = c.colour
            elif c.colour is not colour:
                one_colour = False
        else:
            wilds += 1
            base += _WILD_TOP[c]
    return tuple(values), colour if one_colour else None, wilds, base


def _win(a: float, b: float, mine_complete: bool, theirs_complete: bool, first: bool | None) -> float:
    """The chance of winning a flag from both sides' potentials ``a`` (mine) and ``b``."""
    if mine_complete:
        if theirs_complete:
            if a != b:
                return 1.0 if a > b else 0.0
            return 1.0 if first else 0.0
        if a >= b:
            return 0.97
    return 1.0 / (1.0 + math.exp((b - a) / SCALE))


class _FlagInfo(NamedTuple):
    """What a flag is worth to the bot before a move, and my side's parts (see :func:`_parse`)."""

    mine: tuple[Card, ...]
    theirs_complete: bool
    size: int
    fog: bool
    first: bool | None  # whether I completed first, when both sides are complete (R11)
    weight: float
    b: float  # the opponent's potential
    now: float  # the estimate now
    parts: tuple[tuple[int, ...], Colour | None, int, int]
    after: dict[Card, float] | None  # the potential of my side after each card, if worth remembering


class Board:
    """The flags as the bot sees them, with the changes a move would make.

    What does not depend on the move (each flag's cards, size, Fog, who completed
    first, the opponent's potential and the present estimate) is worked out once
    per flag and decision.
    """

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.me = view.player
        self.est = _Estimator(view)
        self.open = [n for n in range(1, 10) if view.claimed_by(n) is None]
        self._flags: dict[int, tuple[tuple[Card, ...], tuple[Card, ...], list[Tactic]]] = {}
        self._info: dict[int, _FlagInfo] = {}
        # the potential of my side after playing each card at a flag where it is empty, by size and Fog
        self._after: dict[tuple[int, bool], dict[Card, float]] = {}
        self._where: dict[Player, dict[Card, tuple[int, bool]]] = {}  # per side: card -> (open flag, environment?)
        self._firsts: dict[int, bool | None] = {}  # per flag: whether I completed first
        self._losses: dict[tuple[Card, Player], tuple[int, float]] = {}  # see _loss

    def flag(self, n: int) -> tuple[tuple[Card, ...], tuple[Card, ...], list[Tactic]]:
        """Flag ``n``'s cards on my side, on theirs, and its environment cards (do not change them)."""
        cards = self._flags.get(n)
        if cards is None:
            mine, theirs, env, first = self.view.flag_sides(n)
            cards = self._flags[n] = (mine, theirs, env)
            self._firsts[n] = None if first is None else first is self.me
        return cards

    def _first(self, n: int) -> bool | None:
        """Whether I completed first at flag ``n`` (None unless both sides are complete, R11)."""
        if n not in self._firsts:
            self.flag(n)
        return self._firsts[n]

    def value(self, n: int, mine: tuple[Card, ...], theirs: tuple[Card, ...], env: Iterable[Tactic]) -> float:
        env = list(env)
        size = formation_size(_MUD in env)
        fog = _FOG in env
        win = self.est.win(mine, theirs, size, fog, self._first(n))
        return FLAG_WEIGHT[n - 1] * win

    def _flag_info(self, n: int) -> _FlagInfo:
        info = self._info.get(n)
        if info is None:
            mine, theirs, env, first_player = self.view.flag_sides(n)  # self.flag(n), self._first(n)
            self._flags[n] = (mine, theirs, env)
            first = self._firsts[n] = None if first_player is None else first_player is self.me
            size = 4 if _MUD in env else 3  # formation_size (R6, R25)
            fog = _FOG in env
            est = self.est
            b = est._potential(theirs, size, fog, False)
            weight = FLAG_WEIGHT[n - 1]
            parts = _parse(mine)
            count = len(mine)
            if count >= size or not count or fog:
                a = est._potential(mine, size, fog, True)
            else:  # est._potential(mine, size, fog, True), from the parts
                a = est.reach(*parts, size, size - count, True)
            now = weight * _win(a, b, count >= size, len(theirs) >= size, first)  # value(n, mine, theirs, env)
            # each card is tried once per flag, but the same at every flag where my side is empty
            after = None if mine else self._after.setdefault((size, fog), {})
            info = self._info[n] = _FlagInfo(mine, len(theirs) >= size, size, fog, first, weight, b, now, parts, after)
        return info

    def now(self, n: int) -> float:
        return self._flag_info(n).now

    def bound(self, n: int) -> float:
        """The most a card played at flag ``n`` can gain: ``weight * 1.0 - now``."""
        info = self._flag_info(n)
        return info.weight - info.now

    def bounds(self, flags: Iterable[int]) -> list[tuple[float, int, _FlagInfo]]:
        """:meth:`bound` of each flag, with the flag and its info."""
        out = []
        for n in flags:
            info = self._flag_info(n)
            out.append((info.weight - info.now, n, info))
        return out

    def _play_gain(self, n: int, card: Card) -> float:
        """``value(n, mine + (card,), theirs, env) - now(n)``, from the flag's precomputed parts."""
        return self.play_gains(n, (card,))[0]

    def play_gains(self, n: int, cards: Iterable[Card]) -> list[float]:
        """:meth:`_play_gain` of each card (troops or morale cards) played at flag ``n``."""
        info = self._info.get(n) or self._flag_info(n)
        return self.plays(info, cards, info.now)

    def _play_value(self, n: int, card: Card) -> float:
        """``value(n, mine + (card,), theirs, env)``: flag ``n``'s worth after ``card`` joins my side there."""
        return self.plays(self._flag_info(n), (card,), 0.0)[0]

    def plays(self, info: _FlagInfo, cards: Iterable[Card], now: float) -> list[float]:
        """The flag's worth after each card joins my side, minus ``now``."""
        mine, theirs_complete, size, fog, first, weight, b, _, parts, after = info
        count = len(mine) + 1
        complete = count >= size
        reach = self.est.reach
        out = []
        for card in cards:
            a = None if after is None else after.get(card)
            if a is None:
                values, colour, wilds, base = parts
                if isinstance(card, Troop):
                    v = card.value
                    if not values:
                        colour = card.colour
                    elif card.colour is not colour:
                        colour = None
                    values = (*values, v)
                    base += v
                else:
                    wilds += 1
                    base += _WILD_TOP[card]
                if count > size or (count == size and wilds):
                    a = _strength((mine + (card,))[:size], fog, size == 4)
                elif count == size:
                    a = _troops_strength(values, colour, fog)
                elif fog:
                    a = base + 5.0 * (size - count) + 1.0 * (size - count)
                else:
                    a = reach(values, colour, wilds, base, size, size - count, True)
                if after is not None:
                    after[card] = a
            # weight * _win(a, b, ...) - now, inline
            if complete:
                if theirs_complete:
                    if a != b:
                        out.append(weight * (1.0 if a > b else 0.0) - now)
                    else:
                        out.append(weight * (1.0 if first else 0.0) - now)
                    continue
                if a >= b:
                    out.append(weight * 0.97 - now)
                    continue
            out.append(weight * (1.0 / (1.0 + math.exp((b - a) / SCALE))) - now)
        return out

    def gain(self, action: Action) -> float:
        """How much the move raises the summed win estimates of the flags it touches."""
        if isinstance(action, PlayCard):
            n = action.flag
            card = action.card
            if card is _FOG or card is _MUD:
                mine, theirs, env = self.flag(n)
                return self.value(n, mine, theirs, env + [card]) - self.now(n)
            return self._play_gain(n, card)
        if isinstance(action, Deserter):
            return self._loss(action.target, self.me.other)[1]
        if isinstance(action, Traitor):
            n, total = self._loss(action.target, self.me.other)
            if action.to == n:
                mine, theirs, env = self.flag(n)
                theirs = tuple(c for c in theirs if c != action.target)
                return self.value(n, mine + (action.target,), theirs, env) - self.now(n)
            # self.value(action.to, mine + (action.target,), theirs, env) at action.to, as a play there
            return total + self._play_value(action.to, action.target) - self.now(action.to)
        if isinstance(action, Redeploy):
            n, total = self._loss(action.target, self.me)
            if action.to is not None:
                target = action.target
                if self._find(target, self.me)[2]:  # an environment card
                    assert isinstance(target, Tactic)
                    m2, t2, e2 = self.flag(action.to)
                    total += self.value(action.to, m2, t2, e2 + [target]) - self.now(action.to)
                else:  # self.value(action.to, m2 + (action.target,), t2, e2), as a play there
                    total += self._play_value(action.to, action.target) - self.now(action.to)
            return total
        if isinstance(action, PlayScout):
            return SCOUT_VALUE
        return 0.0

    def _loss(self, card: Card, side: Player) -> tuple[int, float]:
        """The open flag where ``card`` lies on ``side``'s side, and how its estimate changes without it.

        Remembered per card: the Redeploy, Deserter and Traitor moves of one card share it.
        """
        key = (card, side)
        loss = self._losses.get(key)
        if loss is None:
            n, _, is_env = self._find(card, side)
            mine, theirs, env = self.flag(n)
            if is_env:
                env = [e for e in env if e is not card]
            elif side is self.me:
                mine = tuple(c for c in mine if c != card)
            else:
                theirs = tuple(c for c in theirs if c != card)
            loss = self._losses[key] = (n, self.value(n, mine, theirs, env) - self.now(n))
        return loss

    def _find(self, card: Card, side: Player) -> tuple[int, tuple[Card, ...], bool]:
        """Where ``card`` lies on ``side``'s side: the open flag, its formation cards there, whether environment."""
        where = self._where.get(side)
        if where is None:
            where = self._where[side] = {}
            for n in self.open:
                for c in self.view.flag_cards(n, side):
                    where.setdefault(c, (n, False))
                for e in self.view.flag_env(n, side):
                    where.setdefault(e, (n, True))
        if card not in where:
            raise ValueError(f"{card} is not on the table")  # pragma: no cover
        n, is_env = where[card]
        return n, self.view.flag_cards(n, side), is_env

    def gain_bound(self, action: Action) -> float | None:
        """A number that :meth:`gain` of the move cannot exceed, or None for moves without one.

        Each flag a move touches can gain at most ``weight - now`` (a win estimate is at most 1),
        added up in the order :meth:`gain` adds the flags' changes, so that rounding keeps the bound.
        """
        if isinstance(action, PlayCard):
            return self.bound(action.flag)
        if isinstance(action, Deserter):
            return self.bound(self._find(action.target, self.me.other)[0])
        if isinstance(action, Traitor):
            n = self._find(action.target, self.me.other)[0]
            if action.to == n:
                return self.bound(n)
            to = self._flag_info(action.to)
            return self.bound(n) + to.weight - to.now
        if isinstance(action, Redeploy):
            n = self._find(action.target, self.me)[0]
            if action.to is None:
                return self.bound(n)
            return self.bound(n) + self.bound(action.to)
        return None


class HeuristicBot(RandomBot):
    """Claims all it can prove, then plays the move with the best estimated gain (see the module doc).

    Ties are broken by its seeded generator, so a game is reproducible.
    """

    name = "heuristic"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        arguments.require_moves(self.name, legal)
        phase = view.phase
        if phase is _PLAY:
            return self._play(view, legal)
        if phase is _CLAIM:
            for action in legal:
                if isinstance(action, Claim):
                    return action
            return next(a for a in legal if isinstance(a, EndClaims))
        if phase is _DRAW or phase is _SCOUT_DRAW:
            return self._draw(view, legal)
        if phase is Phase.SCOUT_RETURN:
            return self._scout_return(view, legal)
        if phase is Phase.MUD_DISCARD:
            return self._mud_discard(view, legal)
        return self._play(view, legal)

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The legal move with the largest (score, tie-break draw); one draw per move, in order.

        A move can gain at most ``weight - now`` at each flag it touches (a win estimate is
        at most 1).  So the troop plays are scored flag by flag from the highest such bound
        down, then the tactics moves, and a move whose bound is below the best score so far is
        not scored: it cannot be the best.  The choice is the same as scoring every move.
        """
        board = Board(view)
        random = self.rng.random
        draws = [random() for _ in legal]
        best: tuple[float, float, int] | None = None
        troop_plays: dict[int, tuple[list[int], list[Card]]] = {}  # flag -> the troop plays there: indices, cards
        tactics: list[int] = []
        for i, action in enumerate(legal):
            # the action types are final: comparing types is isinstance, only faster
            if type(action) is PlayCard and type(action.card) is Troop:
                plays = troop_plays.get(action.flag)
                if plays is None:
                    plays = troop_plays[action.flag] = ([], [])
                plays[0].append(i)
                plays[1].append(action.card)
            elif type(action) is Pass:
                key = (-0.05, draws[i], -i)  # on equal keys the first move is kept
                if best is None or key > best:
                    best = key
            else:
                tactics.append(i)
        for bound, n, info in sorted(board.bounds(troop_plays), reverse=True):
            if best is not None and bound < best[0]:
                break
            indices, cards = troop_plays[n]
            scores = board.plays(info, cards, info.now)
            top = max(scores)
            if best is None or top >= best[0]:  # only this flag's top-scoring plays can be the best
                for i, score in zip(indices, scores):
                    if score == top:
                        key = (score, draws[i], -i)
                        if best is None or key > best:
                            best = key
        for i in tactics:
            action = legal[i]
            if best is not None:
                limit = board.gain_bound(action)
                if limit is not None and limit - TACTIC_COST < best[0]:
                    continue
            key = (board.gain(action) - TACTIC_COST, draws[i], -i)
            if best is None or key > best:
                best = key
        assert best is not None
        return legal[-best[2]]

    def _draw(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        tactics = sum(1 for c in hand if isinstance(c, Tactic))
        want = _TACTICS_DECK if tactics == 0 and len(hand) - tactics >= 5 else _TROOPS_DECK
        for action in legal:
            if isinstance(action, Draw) and action.deck is want:
                return action
        return legal[0]

    def _card_worth(self, view: PlayerView, board: Board, card: Card) -> float:
        if isinstance(card, Tactic):
            if card.is_leader and view.leader_played(view.player):
                return -1.0
            return 0.2
        return max((board.gain(PlayCard(card, n)) for n in board.open), default=0.0) + card.value / 100

    def _scout_return(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        board = Board(view)
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


class GentleBot(HeuristicBot):
    """The heuristic bot, except that one card play in two (by its seeded generator) is any legal
    play at random: a first opponent for learners (the ladder's second rung, ``game/ladder.json``).
    It claims, draws and answers like the heuristic bot; the same seed gives the same moves.

    >>> from battleline_lab.game.match import play_game
    >>> play_game(GentleBot(1), RandomBot(2), seed=3).over
    True
    """

    name = "gentle"
    SLIP = 0.5  # the share of card plays made at random

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if self.rng.random() < self.SLIP:
            return legal[self.rng.randrange(len(legal))]
        return super()._play(view, legal)
