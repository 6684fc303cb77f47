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
from typing import NamedTuple, Protocol

from ..cards import Card, Colour, Tactic, Troop, card_sort_key
from ..formations import FormationKind, evaluate, formation_size
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

_WILD_TOP = {w: max(w.wild_values) for w in Tactic if w.is_wild}  # a morale card at its best value
_FOG, _MUD = Tactic.FOG, Tactic.MUD


@functools.lru_cache(maxsize=1 << 16)
def _strength(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    """A complete formation on the bot's scale (R10): ``kind * 100 + sum``, or the sum under Fog (R24).

    The strength does not depend on the order of the cards, so a miss here looks the cards up
    again in a canonical order before evaluating them.
    """
    return _sorted_strength(tuple(sorted(cards, key=card_sort_key)), fog, mud)


@functools.lru_cache(maxsize=1 << 16)
def _sorted_strength(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    f = evaluate(cards, fog=fog, mud=mud)
    return float(f.total if f.kind is None else f.kind * KIND_STEP + f.total)


def _troops_strength(values: tuple[int, ...], colour: Colour | None, fog: bool) -> float:
    """:func:`_strength` of a complete side of troops only, from its values and its colour if only one (R9, R10).

    The formation kinds are tried in the order of :func:`battleline_lab.formations.evaluate`.
    """
    total = sum(values)
    if fog:
        return float(total)
    low, high = min(values), max(values)
    run = high - low == len(values) - 1 and len(set(values)) == len(values)
    if colour is not None and run:
        kind = FormationKind.WEDGE
    elif low == high:
        kind = FormationKind.PHALANX
    elif colour is not None:
        kind = FormationKind.BATTALION
    else:
        kind = FormationKind.SKIRMISH if run else FormationKind.HOST
    return float(kind * KIND_STEP + total)


def _any_of(count: int, needed: int) -> float:
    """Chance of getting ``needed`` cards out of ``count`` unseen candidates."""
    if needed <= 0:
        return 1.0
    if count < needed:
        return 0.0
    return float((1.0 - (1.0 - ONE_CARD) ** (count - needed + 1)) ** needed)


# _any_of for every count of unseen troops of one value (<= 6) or colour (<= 10) and every need (<= 4)
_ANY_OF = [[_any_of(count, needed) for needed in range(5)] for count in range(11)]


# the runs (Wedge, Skirmish Line) a side's troop values fit: (sum of the run, the values it still needs)
_RUNS: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}


def _runs(size: int, values: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The runs of ``size`` cards containing every one of ``values`` (none if a value repeats), remembered."""
    runs: tuple[tuple[int, tuple[int, ...]], ...] = ()
    if len(set(values)) == len(values):
        lo = min(values) if values else 1
        hi = max(values) if values else 10
        runs = tuple(
            (sum(range(start, start + size)), tuple(v for v in range(start, start + size) if v not in values))
            for start in range(max(1, hi - size + 1), min(lo, 11 - size) + 1)
        )
    _RUNS[(size, *values)] = runs
    return runs


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
        hand_value = [0] * 11
        unseen_value = [0] * 11
        hand_colour = [0] * 6  # by colour index
        unseen_colour = [0] * 6
        theirs = [0.0] * 61  # the chance of getting each troop, by ``colour.offset + value``
        for t in self.unseen:
            v, offset = t.value, t.colour.offset
            unseen_value[v] += 1
            unseen_colour[offset // 10] += 1
            theirs[offset + v] = ONE_CARD
        mine = list(theirs)
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
        runs = _RUNS.get((size, *values))
        if runs is None:
            runs = _runs(size, values)
        # Wedge and Skirmish Line: a run containing every value.  The wildcards fill the least
        # likely gaps, so the chance is the product of the ``missing`` likeliest ones (in ascending
        # order, as ``math.prod`` of the sorted chances would multiply them; with one or two
        # factors the order makes no difference)
        offset = -1 if colour is None else colour.offset
        if not wilds and missing == 1:
            for total, (x,) in runs:
                if offset >= 0:
                    prob = troop_p[offset + x]
                    value = prob * (4 * KIND_STEP + total) + (1 - prob) * host
                    if value > best:
                        best = value
                prob = value_p[x]
                value = prob * (1 * KIND_STEP + total) + (1 - prob) * host
                if value > best:
                    best = value
        elif not wilds and missing == 2:
            for total, (x, y) in runs:
                if offset >= 0:
                    prob = troop_p[offset + x] * troop_p[offset + y]
                    value = prob * (4 * KIND_STEP + total) + (1 - prob) * host
                    if value > best:
                        best = value
                prob = value_p[x] * value_p[y]
                value = prob * (1 * KIND_STEP + total) + (1 - prob) * host
                if value > best:
                    best = value
        else:
            for total, need in runs:
                if offset >= 0:
                    probs = [troop_p[offset + v] for v in need]
                    prob = max(probs) if missing == 1 else math.prod(sorted(probs)[wilds:])
                    value = prob * (4 * KIND_STEP + total) + (1 - prob) * host
                    if value > best:
                        best = value
                probs = [value_p[v] for v in need]
                prob = max(probs) if missing == 1 else math.prod(sorted(probs)[wilds:])
                value = prob * (1 * KIND_STEP + total) + (1 - prob) * host
                if value > best:
                    best = value
        # Phalanx: all the same value
        if values and min(values) == max(values):
            v = values[0]
            h, u = hand_value[v], self.unseen_value[v]
            prob = 1.0 if h >= missing else _ANY_OF[u][missing - h]
            value = prob * (3 * KIND_STEP + v * size) + (1 - prob) * host
            if value > best:
                best = value
        # Battalion Order: all the same colour
        if colour is not None:
            index = colour.offset // 10
            h, u = hand_colour[index], self.unseen_colour[index]
            prob = 1.0 if h >= missing else _ANY_OF[u][missing - h]
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


class _Board:
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

    def flag(self, n: int) -> tuple[tuple[Card, ...], tuple[Card, ...], list[Tactic]]:
        """Flag ``n``'s cards on my side, on theirs, and its environment cards (do not change them)."""
        cards = self._flags.get(n)
        if cards is None:
            v, me = self.view, self.me
            other = me.other
            env = list(v.flag_env(n, me)) + list(v.flag_env(n, other))
            cards = self._flags[n] = (v.flag_cards(n, me), v.flag_cards(n, other), env)
        return cards

    def _first(self, n: int) -> bool | None:
        first = self.view.first_complete(n)
        return None if first is None else first is self.me

    def value(self, n: int, mine: tuple[Card, ...], theirs: tuple[Card, ...], env: Iterable[Tactic]) -> float:
        env = list(env)
        size = formation_size(_MUD in env)
        fog = _FOG in env
        win = self.est.win(mine, theirs, size, fog, self._first(n))
        return FLAG_WEIGHT[n - 1] * win

    def _flag_info(self, n: int) -> _FlagInfo:
        info = self._info.get(n)
        if info is None:
            mine, theirs, env = self.flag(n)
            size = formation_size(_MUD in env)
            fog = _FOG in env
            est = self.est
            b = est._potential(theirs, size, fog, False)
            first = self._first(n)
            weight = FLAG_WEIGHT[n - 1]
            a = est._potential(mine, size, fog, True)
            now = weight * _win(a, b, len(mine) >= size, len(theirs) >= size, first)  # value(n, mine, theirs, env)
            # each card is tried once per flag, but the same at every flag where my side is empty
            after = None if mine else self._after.setdefault((size, fog), {})
            info = self._info[n] = _FlagInfo(
                mine, len(theirs) >= size, size, fog, first, weight, b, now, _parse(mine), after
            )
        return info

    def now(self, n: int) -> float:
        return self._flag_info(n).now

    def _play_gain(self, n: int, card: Card) -> float:
        """``value(n, mine + (card,), theirs, env) - now(n)``, from the flag's precomputed parts."""
        info = self._info.get(n) or self._flag_info(n)
        mine, size, after = info.mine, info.size, info.after
        a = None if after is None else after.get(card)
        count = len(mine) + 1
        if a is None:
            values, colour, wilds, base = info.parts
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
                a = _strength((mine + (card,))[:size], info.fog, size == 4)
            elif count == size:
                a = _troops_strength(values, colour, info.fog)
            elif info.fog:
                a = base + 5.0 * (size - count) + 1.0 * (size - count)
            else:
                a = self.est.reach(values, colour, wilds, base, size, size - count, True)
            if after is not None:
                after[card] = a
        # _win(a, b, ...), inline
        b = info.b
        if count >= size:
            if info.theirs_complete:
                if a != b:
                    return info.weight * (1.0 if a > b else 0.0) - info.now
                return info.weight * (1.0 if info.first else 0.0) - info.now
            if a >= b:
                return info.weight * 0.97 - info.now
        return info.weight * (1.0 / (1.0 + math.exp((b - a) / SCALE))) - info.now

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
