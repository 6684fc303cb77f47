"""The judge (``judge``, :class:`JudgeBot`): a static judgment built on outs and odds; and ``master_search``.

The judge was the master until the master became its search (:mod:`~battleline_lab.game.sampler`,
which plays the judge's move except where tactics are in play, and uses the judge as its play-out
policy).

The idea is the one the public prob bot's strategy notes describe (rezder/go-battleline, read,
not copied); the design and the code are this project's own:

* **Plans.**  For each flag and each side, every formation the side's cards still allow is
  listed as a *plan*: a kind, its sum, and the troops it still needs, as groups ("this one
  troop", "two of the 7s", "one 5 of any colour" ...).  Fog (R24) leaves only sums, Mud (R25)
  four cards.
* **Odds.**  A plan's chance: the troops it needs from the player's own hand are certain; the
  rest are drawn from the troops the player cannot see (R13), the player drawing half the troop
  deck, the opponent its hand's troops plus the other half (hypergeometric, counted with binomial
  coefficients: ``math.comb``).  The opponent's hand is unseen, so its troops are in that pool.
* **Target.**  At each flag the opponent's strongest plan with a chance above zero is the
  target (its complete formation, when it is complete; a tie then goes to it, R11).  A flag is
  *lost* when no plan of ours reaches the target.
* **Flag worth.**  Place (centre flags first) and distance to flags already claimed or lost
  (R16: five flags, or three adjacent).
* **Choice of card**, in order: a Deserter or Traitor that saves a flag their finished formation
  would take (the window before a claim, R14) or lets us prove a flag now (R12); a useless card
  is dumped on a lost flag; flags nearest to
  complete are served first (the card with the most chance summed over the plans that beat the
  target; else the strongest live plan's card); a new flag is opened with the card with the best
  prospects that no started flag needs (each hand card serves one flag: the cards the started
  flags' plans need are *reserved*); morale cards when they make a flag certain (a troop instead
  when one does it as well: a finished side waits a turn for its claim); other tactics
  on a lost or dangerous flag when the heuristic bot's estimate gains a clear margin; else the
  least useful card on the least valuable flag.

Claims, draws, Scout returns and Mud discards are the heuristic bot's.  No random numbers: the
move is a function of the view (ties broken by card and flag order).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from itertools import permutations
from typing import NamedTuple

from ..core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop
from ..core.formations import FormationKind, strength
from ..core.odds import draw_at_least
from . import arguments
from .actions import Action, Deserter, Pass, PlayCard, PlayScout, Redeploy, Traitor
from .expert import ExpertBot, determinize
from .heuristic import TACTIC_COST, Board, HeuristicBot
from .rules import apply, claimable, legal_moves
from .state import Deck, GameState, Phase, Player
from .view import PlayerView

__all__ = ["JudgeBot", "MasterSearchBot", "Plan", "plans", "plan_chance"]

_WEDGE = int(FormationKind.WEDGE)
_PHALANX = int(FormationKind.PHALANX)
_BATTALION = int(FormationKind.BATTALION)
_SKIRMISH = int(FormationKind.SKIRMISH)
_HOST = int(FormationKind.HOST)
_FOG_KIND = -1
#: The kinds of plans whose strength depends on the supply (the needed troops add their values).
_ADDITIVE = (_BATTALION, _HOST, _FOG_KIND)

_BY_VALUE: dict[int, frozenset[Troop]] = {v: frozenset(t for t in ALL_TROOPS if t.value == v) for v in range(1, 11)}
_BY_COLOUR: dict[Colour, frozenset[Troop]] = {c: frozenset(t for t in ALL_TROOPS if t.colour is c) for c in Colour}
_ALL = frozenset(ALL_TROOPS)
_HIGH = frozenset(t for t in ALL_TROOPS if t.value >= 7)
_TOP = frozenset(t for t in ALL_TROOPS if t.value >= 9)
_WILD_BEST = {Tactic.ALEXANDER: 10, Tactic.DARIUS: 10, Tactic.COMPANION: 8, Tactic.SHIELD: 3}

TACTIC_MARGIN = 0.35  # a non-morale tactics card needs this much of the heuristic's estimated gain
NEW_FLAG_FLOOR = 0.05  # a new flag is opened on prospects (summed chance) above this
TARGET_FLOOR = 0.0  # an opponent's plan counts for the target when its chance is above this
GUILE_RESCUE = True  # Deserter/Traitor break a finished opponent formation that would take a flag
LOST_TACTICS = True  # tactics cards may be played on a lost flag instead of a useless troop
SCOUT_PLAY = True  # Scout instead of dumping a card nobody needs
PASS_OVER_TACTIC = True  # with no troop to play, pass rather than spend a tactics card that gains little
GUILE_TARGET_FLAGS = True  # guile is judged at the flag of its target (environment cards too), not its destination
GUILE_WIN = True  # Deserter/Traitor that let us prove a flag now (R12) are weighed with the rescues
TROOP_OVER_MORALE = True  # complete a side with a troop rather than a morale card when both beat the target


class Group(NamedTuple):
    """``need`` distinct troops out of ``troops`` are still needed."""

    troops: frozenset[Troop]
    need: int


class Plan(NamedTuple):
    """A formation a side can still make: its (kind, sum) and the troops it still needs.

    ``total`` is exact for Wedge, Phalanx and Skirmish; for Battalion and Host (and under Fog) it
    is the fixed part, the needed troops adding their values (the hand's exactly, the drawn ones
    at the pool's mean).
    """

    kind: int
    total: int
    groups: tuple[Group, ...]


class Judged(NamedTuple):
    """A plan judged for a side: its strength, chance and the hand troops it uses."""

    key: tuple[int, float]
    chance: float
    uses: tuple[Troop, ...]


def _wild_fits(wild: Tactic, value: int) -> bool:
    return value in wild.wild_values


def _fill(missing: Sequence[int], wilds: Sequence[Tactic]) -> list[tuple[int, ...]]:
    """The ways the morale cards can stand for some of the ``missing`` values: what is left each way."""
    if not wilds:
        return [tuple(missing)]
    if len(wilds) > len(missing):
        return []
    out: set[tuple[int, ...]] = set()
    for chosen in permutations(missing, len(wilds)):
        if all(_wild_fits(w, v) for w, v in zip(wilds, chosen)):
            left = list(missing)
            for v in chosen:
                left.remove(v)
            out.add(tuple(left))
    return sorted(out)


@functools.lru_cache(maxsize=4096)
def plans(cards: tuple[Card, ...], size: int, fog: bool) -> tuple[Plan, ...]:
    """Every plan for a side holding ``cards`` (troops and morale) on a flag of ``size`` (3, or 4
    under Mud); a complete side has the one plan of its formation (no groups).

    >>> sorted({p.kind for p in plans((Troop(Colour.RED, 9), Troop(Colour.RED, 10)), 3, False)})
    [0, 1, 2, 4]
    """
    troops = [c for c in cards if isinstance(c, Troop)]
    wilds = [c for c in cards if isinstance(c, Tactic) and c.is_wild]
    missing = size - len(troops) - len(wilds)
    if missing <= 0:
        kind, total = strength(cards, fog=fog, mud=size == 4)
        return (Plan(kind, total, ()),)
    fixed = sum(t.value for t in troops) + sum(_WILD_BEST[w] for w in wilds)
    out: list[Plan] = []
    if fog:
        for pool in (_TOP, _HIGH, _ALL):
            out.append(Plan(_FOG_KIND, fixed, (Group(pool, missing),)))
        return tuple(out)
    values = [t.value for t in troops]
    distinct = len(set(values)) == len(values)
    colours = {t.colour for t in troops}
    one_colour = len(colours) <= 1
    colour_choices = list(colours) if colours else list(Colour)
    # runs: Wedge (one colour) and Skirmish
    if distinct:
        for start in range(10 - size + 1, 0, -1):
            run = range(start, start + size)
            if not all(v in run for v in values):
                continue
            total = size * start + size * (size - 1) // 2
            gaps = [v for v in run if v not in values]
            for left in _fill(gaps, wilds):
                if one_colour:
                    for colour in colour_choices:
                        out.append(Plan(_WEDGE, total, tuple(Group(frozenset((Troop(colour, v),)), 1) for v in left)))
                out.append(Plan(_SKIRMISH, total, tuple(Group(_BY_VALUE[v], 1) for v in left)))
    # Phalanx
    if len(set(values)) <= 1:
        for v in [values[0]] if values else range(10, 0, -1):
            if all(_wild_fits(w, v) for w in wilds):
                out.append(Plan(_PHALANX, v * size, (Group(_BY_VALUE[v], missing),)))
    # Battalion
    if one_colour:
        for colour in colour_choices:
            out.append(Plan(_BATTALION, fixed, (Group(_BY_COLOUR[colour] & _HIGH, missing),)))
            out.append(Plan(_BATTALION, fixed, (Group(_BY_COLOUR[colour], missing),)))
    out.append(Plan(_HOST, fixed, (Group(_HIGH, missing),)))
    out.append(Plan(_HOST, fixed, (Group(_ALL, missing),)))
    return tuple(out)


@functools.lru_cache(maxsize=65536)
def _each_one(n: int, d: int, sizes: tuple[int, ...]) -> float:
    """P(at least one card of each of the disjoint groups of ``sizes`` among ``d`` drawn from ``n``)."""
    if any(s == 0 for s in sizes):
        return 0.0
    if len(sizes) > d:
        return 0.0
    d = min(d, n)
    total = math.comb(n, d)
    acc = 0
    k = len(sizes)
    for mask in range(1 << k):
        out = 0
        bits = 0
        for i in range(k):
            if mask >> i & 1:
                out += sizes[i]
                bits += 1
        acc += (-1) ** bits * math.comb(n - out, d)
    return acc / total


class Supply(NamedTuple):
    """What a side can use: its hand's troops (certain), the pool it draws from and how many."""

    hand: frozenset[Troop]
    pool: frozenset[Troop]
    draws: int
    mean: float  # the pool's mean value


def plan_chance(plan: Plan, supply: Supply) -> Judged:
    """The plan's strength, its chance with this supply and the hand troops it would use.

    >>> r9, r10, r8 = Troop(Colour.RED, 9), Troop(Colour.RED, 10), Troop(Colour.RED, 8)
    >>> wedge = plans((r9, r10), 3, False)[0]
    >>> plan_chance(wedge, Supply(frozenset({r8}), frozenset(), 0, 0.0)).chance
    1.0
    """
    hand, pool, d, mean = supply
    n = len(pool)
    uses: list[Troop] = []
    total = float(plan.total)
    ones: list[int] = []
    many: list[tuple[int, int]] = []
    additive = plan.kind in _ADDITIVE
    for group in plan.groups:
        mine = sorted(group.troops & hand, key=lambda t: (-t.value, t.colour.index))[: group.need]
        uses.extend(mine)
        need = group.need - len(mine)
        if additive:
            total += sum(t.value for t in mine)
        if need <= 0:
            continue
        avail = group.troops & pool
        if additive:
            total += need * (sum(t.value for t in avail) / len(avail) if avail else mean)
        if need == 1:
            ones.append(len(avail))
        else:
            many.append((len(avail), need))
    chance = 1.0
    if ones:
        chance = _each_one(n, d, tuple(sorted(ones)))
    for p, r in many:
        chance *= draw_at_least(n, d, p, r)
        d -= r
    return Judged((plan.kind, total), chance, tuple(uses))


@functools.lru_cache(maxsize=2048)
def _judged(cards: tuple[Card, ...], size: int, fog: bool, supply: Supply, ranked: bool = False) -> tuple[Judged, ...]:
    """Every plan of a side judged with ``supply`` (strongest first when ``ranked``): a pure function,
    cached because a search reads the same sides again and again (empty sides above all)."""
    out = [plan_chance(p, supply) for p in plans(cards, size, fog)]
    if ranked:
        out.sort(key=lambda j: (j.key, j.chance), reverse=True)
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _by_strength(cards: tuple[Card, ...], size: int, fog: bool) -> tuple[tuple[int, tuple[Plan, ...]], ...]:
    """The side's plans by kind, the strongest kind first; within a kind whose strength does not
    depend on the supply, the highest total first."""
    kinds: dict[int, list[Plan]] = {}
    for p in plans(cards, size, fog):
        kinds.setdefault(p.kind, []).append(p)
    out = []
    for kind in sorted(kinds, reverse=True):
        group = kinds[kind]
        if kind not in _ADDITIVE:
            group = sorted(group, key=lambda p: -p.total)  # stable: equal totals keep their order
        out.append((kind, tuple(group)))
    return tuple(out)


@functools.lru_cache(maxsize=2048)
def _target(cards: tuple[Card, ...], size: int, fog: bool, supply: Supply) -> tuple[int, float]:
    """The opponent's target at a side: the strongest (kind, total) among its plans with a chance
    above :data:`TARGET_FLOOR`, or its weakest plan's when none has one.

    The same as the maximum over :func:`_judged`'s live plans, found in order of strength: the first
    kind with a live plan holds the strongest one, and within a kind whose total is fixed the first
    live plan is it; so the opponent's side is judged a few plans deep, not all of them (most of the
    judge's plans were an empty side's 80)."""
    for kind, group in _by_strength(cards, size, fog):
        if kind in _ADDITIVE:
            live = [j.key for j in (plan_chance(p, supply) for p in group) if j.chance > TARGET_FLOOR]
            if live:
                return max(live)
            continue
        for p in group:
            j = plan_chance(p, supply)
            if j.chance > TARGET_FLOOR:
                return j.key
    return min(j.key for j in _judged(cards, size, fog, supply))


class FlagJudgment(NamedTuple):
    flag: int
    size: int
    fog: bool
    mine: tuple[Card, ...]
    theirs: tuple[Card, ...]
    target: tuple[int, float]  # the opponent's strongest live plan
    made: bool  # the opponent's side is complete
    judged: tuple[Judged, ...]  # our plans, strongest first
    lost: bool
    worth: float

    @property
    def open(self) -> bool:
        return len(self.mine) < self.size

    def beats(self, key: tuple[int, float]) -> bool:
        """Does a formation of this strength beat the target (a tie goes to a complete opponent)?"""
        return key > self.target or (key == self.target and not self.made)


def _troop_deck_split(view: PlayerView) -> tuple[int, int, int]:
    """(troops the opponent holds, our draws, the opponent's draws) in the model."""
    troop_deck = view.deck_sizes[Deck.TROOPS.value]
    # The view's public count looks at each tactics card once, wherever it lies (R2, R13, R31).
    # Adding the discard piles to ``tactics_played`` counted a discarded tactics card twice (every
    # one of them was played, R18), so the opponent seemed to hold a troop card more than they do.
    their_tactics = view.opponent_hand_tactics
    their_troops = max(0, min(view.opponent_hand_size, view.opponent_hand_size - their_tactics))
    ours = (troop_deck + 1) // 2
    theirs = their_troops + troop_deck // 2
    return their_troops, ours, theirs


class Judgment:
    """The judge's reading of a view: each flag's plans, target, worth, and the hand's reservations."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        me, them = view.player, view.player.other
        hand = view.hand
        self.hand_troops = tuple(
            sorted((c for c in hand if isinstance(c, Troop)), key=lambda t: (-t.value, t.colour.index))
        )
        unseen = view.unseen_troops()
        hand_set = frozenset(self.hand_troops)
        pool = unseen - hand_set
        _their_troops, ours, theirs = _troop_deck_split(view)
        mean = sum(t.value for t in pool) / len(pool) if pool else 5.5
        self.mine_supply = Supply(hand_set, frozenset(pool), min(ours, len(pool)), mean)
        self.their_supply = Supply(frozenset(), frozenset(pool), min(theirs, len(pool)), mean)
        claimed = [view.claimed_by(n) for n in range(1, 10)]
        flags: dict[int, FlagJudgment] = {}
        for n in range(1, 10):
            if claimed[n - 1] is not None:
                continue
            size, fog = view.size(n), view.fog(n)
            mine, theirs_cards = view.flag_cards(n, me), view.flag_cards(n, them)
            made = len(theirs_cards) >= size
            target = _target(theirs_cards, size, fog, self.their_supply)
            ours_j = _judged(mine, size, fog, self.mine_supply, ranked=True)
            if made and len(mine) >= size:
                lost = not (ours_j[0].key > target or (ours_j[0].key == target and view.first_complete(n) is me))
            else:
                lost = made and not any(j.chance > 0 and (j.key > target) for j in ours_j)
            flags[n] = FlagJudgment(n, size, fog, mine, theirs_cards, target, made, tuple(ours_j), lost, 0.0)
        self.claimed = claimed
        # flag worth: place, and distance to flags claimed or lost (R16)
        gone = {n for n in range(1, 10) if claimed[n - 1] is not None or (n in flags and flags[n].lost)}
        for n, fj in list(flags.items()):
            worth = {1: 10, 9: 10, 2: 20, 8: 20}.get(n, 30) + len(fj.theirs)
            for m in gone:
                if abs(m - n) == 1:
                    worth += 40
                elif abs(m - n) == 2:
                    worth += 30
            flags[n] = fj._replace(worth=worth)
        self.flags = flags
        self.order = sorted(flags, key=lambda n: (-flags[n].worth, abs(n - 5), n))
        self.reserved = self._reserve()

    def _reserve(self) -> frozenset[Troop]:
        """The hand troops the started, live flags' best plans need (each card to one flag: the
        flags served in order of worth)."""
        taken: set[Troop] = set()
        for n in self.order:
            fj = self.flags[n]
            if fj.lost or not fj.open or not fj.mine:
                continue
            best = [j for j in fj.judged if j.chance > 0]
            if not best:
                continue
            top_kind = best[0].key[0]
            for j in best:
                if j.key[0] < top_kind or (top_kind == _WEDGE and j.key[0] < _PHALANX):
                    break
                free = [t for t in j.uses if t not in taken]
                if len(free) == len(j.uses):
                    taken.update(free)
                    break
        return frozenset(taken)

    def win_cards(self, fj: FlagJudgment) -> dict[Troop, float]:
        """Each hand troop's summed chance over our plans there that beat the target."""
        out: dict[Troop, float] = {}
        for j in fj.judged:
            if j.chance > 0 and fj.beats(j.key):
                for t in j.uses:
                    out[t] = out.get(t, 0.0) + j.chance
        return out

    def new_flag_prospect(self, card: Troop, fj: FlagJudgment) -> float:
        """The summed chance of the plans a lone ``card`` opens at an empty side of this flag that
        beat the target there (the card leaves the hand)."""
        hand = self.mine_supply.hand - {card}
        supply = self.mine_supply._replace(hand=hand - self.reserved)
        acc = 0.0
        for p in plans((card,), fj.size, fj.fog):
            j = plan_chance(p, supply)
            if j.chance > 0 and fj.beats(j.key):
                acc += j.chance
        return acc


def _completed_plan(fj: FlagJudgment, troop: Troop) -> Plan | None:
    """The formation ``troop`` completes our side at ``fj`` to, when it beats the target there (R11:
    a tie goes to the side complete first), else None."""
    plan = plans(fj.mine + (troop,), fj.size, fj.fog)[0]
    return plan if not plan.groups and fj.beats((plan.kind, float(plan.total))) else None


def _place(card: Troop, flags: Sequence[int]) -> int:
    """Where a card opens a new flag: high cards on the most valuable of ``flags`` (in order of
    worth), low ones on the least, middling ones in the middle."""
    if card.value >= 8:
        return flags[0]
    if card.value >= 6:
        return flags[len(flags) // 2]
    return flags[-1]


_SCOUT = PlayScout()
_PASS = Pass()


def _flag_of(view: PlayerView, card: Card, player: Player) -> int | None:
    """The unclaimed flag where ``card`` lies on ``player``'s side (formation or environment card)."""
    for n in range(1, 10):
        if view.claimed_by(n) is None and (card in view.flag_cards(n, player) or card in view.flag_env(n, player)):
            return n
    return None


def _touched_flag(view: PlayerView, action: Action) -> int | None:
    """The flag a tactics move acts on: a card's flag; for guile the flag its target is taken from
    (Deserter and Traitor the opponent's card, R29 R30; Redeploy our own, R28)."""
    if isinstance(action, PlayCard):
        return action.flag
    if GUILE_TARGET_FLAGS and isinstance(action, (Deserter, Traitor)):
        return _flag_of(view, action.target, view.player.other)
    if GUILE_TARGET_FLAGS and isinstance(action, Redeploy):
        return _flag_of(view, action.target, view.player)
    n = getattr(action, "flag", None)
    return n if isinstance(n, int) else None


def _key(card: Card) -> tuple[int, int]:
    if isinstance(card, Troop):
        return (card.value, card.colour.index)
    return (100, list(Tactic).index(card))


class JudgeBot(HeuristicBot):
    """A static judgment on outs and odds (see the module doc): deterministic, fast."""

    name = "judge"
    reason = ""  # which rule chose the last card play (for tests and the coach)
    _guile_saves = True  # the last guile move chosen saves a flag (else it only wins one)

    def _play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.phase is not Phase.PLAY:
            return super()._play(view, legal)
        plays: dict[tuple[int, Card], PlayCard] = {}
        for a in legal:
            if type(a) is PlayCard:
                plays[(a.flag, a.card)] = a
        troop_plays = {k: a for k, a in plays.items() if isinstance(k[1], Troop)}
        if not troop_plays:
            return self._tactics_or_any(view, legal, Judgment(view), plays, final=True)
        j = Judgment(view)
        move = self._choose(view, legal, j, plays)
        return move

    def _choose(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        j: Judgment,
        plays: dict[tuple[int, Card], PlayCard],
    ) -> Action:
        hand = j.hand_troops
        spare = [t for t in reversed(hand) if t not in j.reserved]  # lowest first
        # 0. a finished formation of theirs that will take a flag: break it with Deserter or Traitor
        guile = self._guile(view, legal, j) if GUILE_RESCUE else None
        if guile is not None:
            self.reason = "guile-rescue" if self._guile_saves else "guile-win"
            return guile
        # 1. a lost flag takes a useless card
        for n in j.order:
            fj = j.flags[n]
            if fj.lost and fj.open:
                card = spare[0] if spare else hand[-1]
                if (n, card) in plays:
                    tactic = self._tactic(view, legal, j, lost_only=True) if LOST_TACTICS else None
                    self.reason = "lost-tactic" if tactic else "dump-lost"
                    if type(tactic) is PlayCard and isinstance(tactic.card, Troop):
                        self.reason = "troop-over-morale"
                    return tactic or plays[(n, card)]
        # 2. the flags nearest to complete first
        for have in range(3, 0, -1):
            flags = [
                j.flags[n] for n in j.order if len(j.flags[n].mine) == have and j.flags[n].open and not j.flags[n].lost
            ]
            for fj in flags:
                cards = j.win_cards(fj)
                if cards:
                    best = max(cards, key=lambda t: (cards[t], t.value, -t.colour.index))
                    if (fj.flag, best) in plays:
                        self.reason = f"win-card-{have}"
                        return plays[(fj.flag, best)]
            for fj in flags:
                for jd in fj.judged:
                    if jd.chance <= 0:
                        continue
                    if jd.key[0] >= _PHALANX and jd.uses:
                        card = max(jd.uses, key=lambda t: (t.value, -t.colour.index))
                        if (fj.flag, card) in plays:
                            self.reason = f"top-plan-{have}"
                            return plays[(fj.flag, card)]
                    break
            for fj in flags:
                if fj.made:
                    continue
                # a sure Wedge (of any height) while the opponent is not complete
                for jd in fj.judged:
                    if jd.key[0] != _WEDGE:
                        break
                    if jd.chance >= 1.0 and jd.uses:
                        card = max(jd.uses, key=lambda t: (t.value, -t.colour.index))
                        if (fj.flag, card) in plays:
                            self.reason = f"sure-wedge-{have}"
                            return plays[(fj.flag, card)]
            if have != 1:
                continue
            for fj in flags:
                # a card that joins the flag's card in several Wedges
                live = [jd for jd in fj.judged if jd.chance > 0]
                if not live or live[0].key[0] != _WEDGE:
                    continue
                counts: dict[Troop, int] = {}
                for jd in live:
                    if jd.key[0] == _WEDGE:
                        for t in jd.uses:
                            counts[t] = counts.get(t, 0) + 1
                links = [t for t, c in counts.items() if c >= fj.size - 1 and (fj.flag, t) in plays]
                if links:
                    self.reason = "wedge-link"
                    return plays[(fj.flag, max(links, key=lambda t: (t.value, -t.colour.index)))]
            for fj in flags:
                if fj.made:
                    continue
                for jd in fj.judged:
                    if jd.key[0] == _PHALANX and jd.chance >= 1.0 and jd.uses and (fj.flag, jd.uses[0]) in plays:
                        self.reason = "sure-phalanx"
                        return plays[(fj.flag, jd.uses[0])]
        free = [t for t in hand if t not in j.reserved]
        # 3a. a new flag the opponent has started: the free card whose plans beat its target most
        for n in j.order:
            fj = j.flags[n]
            if fj.mine or not fj.open or fj.lost or not fj.theirs:
                continue
            scored = [(j.new_flag_prospect(t, fj), t.value, -t.colour.index, t) for t in free if (n, t) in plays]
            scored = [x for x in scored if x[0] > 0]
            if scored:
                self.reason = "new-flag-answer"
                return plays[(n, max(scored)[3])]
        empty = [n for n in j.order if not j.flags[n].mine and not j.flags[n].theirs and j.flags[n].open]
        if empty:
            # 3b. a formation the hand makes for sure, else 3c. the best Wedge and Phalanx prospects
            made: tuple[tuple[int, float], int, int, Troop] | None = None
            hope: tuple[float, int, int, Troop] | None = None
            for t in free:
                supply = j.mine_supply._replace(hand=j.mine_supply.hand - j.reserved - {t})
                acc = 0.0
                for p in plans((t,), 3, False):
                    if p.kind < _PHALANX:
                        continue
                    jd = plan_chance(p, supply)
                    acc += jd.chance
                    if jd.chance >= 1.0 and (made is None or (jd.key, -len(jd.uses), t.value) > made[:3]):
                        made = (jd.key, -len(jd.uses), t.value, t)
                if acc > 0 and (hope is None or (acc, t.value, -t.colour.index) > hope[:3]):
                    hope = (acc, t.value, -t.colour.index, t)
            pick = made[3] if made is not None else (hope[3] if hope is not None and hope[0] > NEW_FLAG_FLOOR else None)
            if pick is not None:
                n = _place(pick, empty)
                if (n, pick) in plays:
                    self.reason = "new-flag-made" if made is not None else "new-flag-hope"
                    return plays[(n, pick)]
        # 4. tactics that help
        tactic = self._tactic(view, legal, j, lost_only=False)
        if tactic is not None:
            self.reason = "tactic"
            if type(tactic) is PlayCard and isinstance(tactic.card, Troop):
                self.reason = "troop-over-morale"
            return tactic
        # 4b. a second card for a one-card flag's Phalanx-or-better plan
        for n in j.order:
            fj = j.flags[n]
            if len(fj.mine) != 1 or not fj.open or fj.lost:
                continue
            for jd in fj.judged:
                if jd.key[0] >= _PHALANX and jd.chance > 0 and jd.uses:
                    card = max(jd.uses, key=lambda t: (t.value, -t.colour.index))
                    if (n, card) in plays:
                        self.reason = "second-card"
                        return plays[(n, card)]
        # 4c. Scout: three draws for a hand with nothing worth playing (R27)
        if SCOUT_PLAY and _SCOUT in legal and view.deck_sizes[Deck.TROOPS.value] >= 3:
            self.reason = "scout"
            return _SCOUT
        # 5. the least useful card to the least valuable open flag
        for n in reversed(j.order):
            fj = j.flags[n]
            if not fj.open:
                continue
            for jd in fj.judged:
                usable = [t for t in jd.uses if t not in j.reserved and (n, t) in plays]
                if usable and jd.chance > 0:
                    self.reason = "dump-useful"
                    return plays[(n, min(usable, key=lambda t: (t.value, t.colour.index)))]
            for t in spare + [t for t in reversed(hand) if t not in spare]:
                if (n, t) in plays:
                    self.reason = "dump"
                    return plays[(n, t)]
        self.reason = "fallback"
        return self._tactics_or_any(view, legal, j, plays, final=True)

    def _tactic(self, view: PlayerView, legal: Sequence[Action], j: Judgment, *, lost_only: bool) -> Action | None:
        """A tactics move worth its card: a morale card completing a side that beats the target
        for sure, or another tactics move the heuristic estimate finds clearly gaining."""
        me, them = view.player, view.player.other
        if view.tactics_played(me) > view.tactics_played(them):
            return None  # R17: not allowed anyway (the legal list would be empty of them)
        board: Board | None = None
        best: tuple[float, int] | None = None
        for i, a in enumerate(legal):
            if type(a) is PlayCard and isinstance(a.card, Troop):
                continue
            card = getattr(a, "card", None)
            if not isinstance(card, Tactic):
                continue
            if type(a) is PlayCard and card.is_wild:
                fj = j.flags.get(a.flag)
                if fj is None or fj.lost and lost_only is False:
                    continue
                mine = fj.mine + (card,)
                if len(mine) == fj.size:
                    key = plans(mine, fj.size, fj.fog)[0]
                    if fj.beats((key.kind, float(key.total))):
                        score = 1.0 + fj.worth / 1000
                        if best is None or score > best[0]:
                            best = (score, i)
                            if TROOP_OVER_MORALE:
                                # the side would stand through their turn (the window before a claim,
                                # R14) with the morale card in it, open to their Deserter (R29); a troop
                                # that beats the target as well keeps the card for later (R20-R22): the
                                # strongest formation, then the lowest card, then the first in ``legal``
                                troops = [
                                    ((plan.kind, plan.total, -t.card.value), k)
                                    for k, t in enumerate(legal)
                                    if type(t) is PlayCard and t.flag == fj.flag and isinstance(t.card, Troop)
                                    if (plan := _completed_plan(fj, t.card)) is not None
                                ]
                                if troops:
                                    best = (score, max(troops, key=lambda sk: sk[0])[1])
                continue
            if lost_only:
                n = _touched_flag(view, a)
                fj = j.flags.get(n) if n is not None else None
                if fj is None or not fj.lost:
                    continue
            if board is None:
                board = Board(view)
            gain = board.gain(a) - TACTIC_COST
            if gain > TACTIC_MARGIN and (best is None or gain > best[0]):
                best = (gain, i)
        return legal[best[1]] if best is not None else None

    def _tactics_or_any(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        j: Judgment,
        plays: dict[tuple[int, Card], PlayCard],
        *,
        final: bool,
    ) -> Action:
        tactic = self._tactic(view, legal, j, lost_only=False)
        if tactic is not None:
            return tactic
        if PASS_OVER_TACTIC and _PASS in legal:
            return _PASS
        return super()._play(view, legal)

    def _guile(self, view: PlayerView, legal: Sequence[Action], j: Judgment) -> Action | None:
        """A Deserter or Traitor that saves a flag or wins one (R29, R30).

        Saves: it breaks a finished opponent formation which beats all we can still make there, the
        flag they would claim, at once or when it is provable (under claims at the start of the turn
        it stands one turn, the window, R14); their environment card there counts too (R26).  Wins
        (``GUILE_WIN``): it lets us prove a flag now (R12) that we cannot prove yet, by taking a card
        out of their side or, with Traitor, completing ours.  The judgment and the proofs are read
        again on the table after each candidate (a state dealt from the view, so nothing hidden is
        used, R13); the most valuable flags saved or won first, then the best chance left to beat
        them at the flag saved, then the fewest flags lost."""
        cands = [a for a in legal if isinstance(a, (Deserter, Traitor))]
        if not cands:
            return None
        me, them = view.player, view.player.other
        doomed = {n for n, fj in j.flags.items() if fj.made and fj.lost}
        done: set[int] = set()  # our complete sides (a win needs one not provable yet)
        short: set[int] = set()  # our sides one card short (a Traitor's troop can complete them)
        if GUILE_WIN:
            done = {n for n, fj in j.flags.items() if not fj.open}
            short = {n for n, fj in j.flags.items() if len(fj.mine) == fj.size - 1}
        if not doomed and not done and not short:
            return None
        base: GameState | None = None  # dealt, and its proofs made, only when a candidate needs them
        proven: frozenset[int] = frozenset()
        best: tuple[float, float, int, int] | None = None
        for i, a in enumerate(cands):
            if GUILE_TARGET_FLAGS:
                flag = _flag_of(view, a.target, them)
            else:
                flag = next((n for n in doomed if a.target in view.flag_cards(n, them)), None)
            if flag is None:
                continue
            rescue = flag in doomed
            completes = (
                isinstance(a, Traitor) and a.to in short and _completed_plan(j.flags[a.to], a.target) is not None
            )
            if not rescue and flag not in done and not completes:
                continue
            if base is None:
                base = determinize(view, random.Random(0))
                proven = frozenset(claimable(base, me)) if GUILE_WIN else frozenset()
            win = (flag in done and flag not in proven) or completes
            if not rescue and not win:
                continue
            after = base.copy()
            apply(after, a)
            while after.phase is Phase.MUD_DISCARD:  # Mud deserted (R26): each discard as the heuristic bot's
                apply(after, HeuristicBot(0).choose(PlayerView(after, after.to_act), legal_moves(after)))
            if after.over:
                continue
            j2 = Judgment(PlayerView(after, me))
            value = 0.0
            chance = 1.0
            fj2 = j2.flags.get(flag)
            if rescue and fj2 is not None and not fj2.lost:
                value += j.flags[flag].worth
                chance = max((jd.chance for jd in fj2.judged if jd.chance > 0 and fj2.beats(jd.key)), default=0.0)
            if win:
                value += sum(j.flags[n].worth for n in set(claimable(after, me)) - proven if n in j.flags)
            if value <= 0:
                continue
            lost_after = sum(1 for f in j2.flags.values() if f.lost)
            score = (value, chance, -lost_after, -i)
            if best is None or score > best:
                best = score
                self._guile_saves = rescue and fj2 is not None and not fj2.lost
        return cands[-best[3]] if best is not None else None


class MasterSearchBot(ExpertBot):
    """The judge's move, checked by a search (the odds search's): the judge's play is the first candidate
    of the expert's search (determinized play-outs of heuristic bots, ``depth`` card plays, then
    scored), the heuristic bot's best plays the others; another candidate is played only if its
    share of won play-outs beats the judge's by ``margin`` (0.2).  Claims, draws and the rest are the
    judge's (the heuristic bot's)."""

    name = "master_search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int = 64,
        candidates: int = 6,
        depth: int | None = 2,
        margin: float = 0.2,
    ) -> None:
        super().__init__(seed, rollouts=rollouts, candidates=candidates, depth=depth)
        self.margin = arguments.number(margin, "margin", 0.0, 1.0)  # a difference of two shares of wins
        self._judge = JudgeBot(seed)

    def ranked(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        first = self._judge.choose(view, legal)
        return [first] + [a for a in super().ranked(view, legal) if a != first]

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        arguments.require_moves(self.name, legal)
        if len(legal) > 1 and view.phase is Phase.PLAY:
            mine = self._judge.choose(view, legal)
            found = self.search(view, legal)
            if found.action == mine:
                return mine
            for action, wins, games in found.alternatives:
                if action == mine:
                    if games and found.rate > wins / games + self.margin:
                        return found.action
                    return mine
            return mine
        return self._judge.choose(view, legal)
