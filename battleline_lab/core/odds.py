"""Outs and odds: what the unseen troops can still do at a flag (R9-R13, R24, R25).

Public information only, as for claims (R13): the *pool* is the unseen troops of
:meth:`Position.unseen_troops` (the 60 troops minus every face-up card; hands
count as unseen).

- :func:`outs` says, for one side of a flag, each formation kind it can still
  reach (under Fog, R24, only a sum), the best sum of that kind, how many
  completions from the pool make it (``ways``) and which unseen troops take part
  in at least one of them (the *outs*).
- :func:`flag_odds` is the chance each side wins the flag if the open slots on
  both sides were filled by troops drawn uniformly at random, without
  replacement, from the pool.  **A tie goes to the side that is already
  complete; if neither is, a tie counts half to each side** (R11: the side
  completing first wins a tie; with both incomplete who completes first is
  unknown).  Fog and Mud are respected (R24, R25); morale cards take their best
  values (R20-R22), as in :func:`~battleline_lab.core.formations.evaluate`.

The odds are exact (:class:`fractions.Fraction`) whenever the count is cheap,
which covers every flag without Mud: the joint draw is counted by
inclusion-exclusion over the troops both sides' draws would share, and a side
without morale cards is counted by *values* (a completion's kind depends only
on its values and whether all its cards share a colour), not card by card.
Otherwise (a Mud flag with many open slots on both sides) they are estimated
from :data:`SAMPLES` seeded random fills, whose 95 % error is at most
:data:`SAMPLED_ERROR` (0.5 percentage points) for any true value.

>>> from battleline_lab import Position
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
>>> flag_odds(pos, 5).you
Fraction(1, 1)
>>> pos = Position.build({1: {"you": "b8 b9", "opponent": "r10 g10 y10"}})
>>> odds = flag_odds(pos, 1)
>>> odds.you, odds.opponent, odds.exact
(Fraction(2, 55), Fraction(53, 55), True)
>>> [(k.kind_key, k.best, k.count) for k in outs(pos, 1, "you").kinds][:2]
[('wedge', 27, 2), ('battalion', 23, 6)]
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import Card, Colour, Troop, card_sort_key
from .formations import FormationKind, evaluate
from .position import Position, Side, check_side

__all__ = [
    "FlagOdds",
    "KindOuts",
    "SAMPLED_ERROR",
    "SAMPLES",
    "SideOuts",
    "draw_at_least",
    "flag_odds",
    "odds_from_pool",
    "outs",
    "position_odds",
]

SAMPLED_ERROR = 0.005  # the 95 % half-width of a sampled estimate, at worst (p = 1/2)
SAMPLES = math.ceil((1.96 / SAMPLED_ERROR) ** 2 * 0.25)  # 38,416 fills: 1.96 * sqrt(1/4 / n) <= 0.005
EXACT_BUDGET = 60_000  # above this many value-combinations (an estimate of the work), sample instead

_COLOURS = tuple(Colour)
_KIND_STEP = 64  # rank = (kind + 1) * 64 + sum: a sum is at most 40 (R10); under Fog rank = sum (R24)


def _rank(kind: FormationKind | None, total: int) -> int:
    return total if kind is None else (int(kind) + 1) * _KIND_STEP + total


_KINDS = tuple(sorted(FormationKind))  # by value: _KINDS[int(kind)] is kind (a look-up, not a call of the enum)


def _kind_of(rank: int, fog: bool) -> FormationKind | None:
    return None if fog else _KINDS[rank // _KIND_STEP - 1]


@functools.lru_cache(maxsize=1 << 14)
def _troop_rank(values: tuple[int, ...], same_colour: bool, fog: bool) -> int:
    """The rank of a formation of troops with these (sorted) values (R9, R10, R24)."""
    total = sum(values)
    if fog:
        return total
    run = all(b == a + 1 for a, b in zip(values, values[1:]))
    if same_colour and run:
        kind = FormationKind.WEDGE
    elif values[0] == values[-1]:
        kind = FormationKind.PHALANX
    elif same_colour:
        kind = FormationKind.BATTALION
    else:
        kind = FormationKind.SKIRMISH if run else FormationKind.HOST
    return _rank(kind, total)


def _card_rank(cards: tuple[Card, ...], fog: bool, mud: bool) -> int:
    strength = evaluate(tuple(sorted(cards, key=card_sort_key)), fog=fog, mud=mud).strength
    return _rank(strength.kind, strength.total)


_Hist = dict[int, int]  # rank -> number of completions


class _Pool:
    """The troops to draw from, as counts per value and a bit mask of values per colour."""

    def __init__(self, troops: Sequence[Troop]) -> None:
        self.troops = tuple(troops)
        counts = [0] * 11
        masks = [0] * 6
        for t in self.troops:
            counts[t.value] += 1
            masks[t.colour.index] |= 1 << t.value
        self.counts = tuple(counts)
        self.masks = tuple(masks)

    def without(self, shared: tuple[Troop, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        counts = list(self.counts)
        masks = list(self.masks)
        for t in shared:
            counts[t.value] -= 1
            masks[t.colour.index] &= ~(1 << t.value)
        return tuple(counts), tuple(masks)


class _Side:
    """One side of a flag: its formation cards, how many slots are open, and how to count completions."""

    def __init__(self, cards: tuple[Card, ...], size: int, fog: bool, mud: bool) -> None:
        self.cards = cards
        self.size = size
        self.fog = fog
        self.mud = mud
        self.missing = max(0, size - len(cards))
        self.troops = tuple(c for c in cards if isinstance(c, Troop))
        self.pure = len(self.troops) == len(cards)  # no morale card: counted by values

    def rank(self, drawn: Sequence[Troop]) -> int:
        """The rank of this side completed with ``drawn``."""
        if not self.pure:
            return _card_rank(self.cards + tuple(drawn), self.fog, self.mud)
        troops = self.troops + tuple(drawn)
        colour = troops[0].colour
        same = all(t.colour is colour for t in troops)
        return _troop_rank(tuple(sorted(t.value for t in troops)), same, self.fog)

    def hist(self, fixed: tuple[Troop, ...], pool: _Pool, counts: tuple[int, ...], masks: tuple[int, ...]) -> _Hist:
        """Ranks of every completion that contains the troops ``fixed`` (drawn from the pool), the
        rest drawn from the pool without them (``counts`` per value, ``masks`` per colour)."""
        k = self.missing - len(fixed)
        if k < 0:
            return {}
        if not self.pure:
            cards = self.cards + fixed
            if k == 0:
                return {_card_rank(cards, self.fog, self.mud): 1}
            rest = [t for t in pool.troops if t not in fixed] if fixed else pool.troops
            return _hist_cards(cards, rest, k, self.fog, self.mud)
        troops = self.troops + fixed
        colours = {t.colour.index for t in troops}
        if len(colours) == 1:
            have: int | tuple[int, ...] | None = masks[next(iter(colours))]
        elif not colours:
            have = masks
        else:
            have = None
        values = tuple(sorted(t.value for t in troops))
        return _value_hist(values, len(colours), k, counts, have, self.fog)


def _hist_cards(cards: tuple[Card, ...], pool: Sequence[Troop], k: int, fog: bool, mud: bool) -> _Hist:
    """Completions of a side with morale cards, judged one by one (R20-R22)."""
    out: _Hist = {}
    for rest in itertools.combinations(pool, k):
        r = _card_rank(cards + rest, fog, mud)
        out[r] = out.get(r, 0) + 1
    return out


_VALUE_CACHE: dict[tuple[object, ...], _Hist] = {}


def _value_hist(
    values: tuple[int, ...],
    n_colours: int,
    k: int,
    counts: tuple[int, ...],
    have: int | tuple[int, ...] | None,
    fog: bool,
) -> _Hist:
    """Completions counted by the values drawn: ``prod C(n_v, m_v)`` ways, of which those with
    every card of one colour make a Wedge or Battalion (R9).  ``have``: the values of the side's
    one colour still in the pool (a bit mask), every colour's (n_colours 0) or None (mixed)."""
    key = (values, n_colours, k, counts, have, fog)
    cached = _VALUE_CACHE.get(key)
    if cached is not None:
        return cached
    out: _Hist = {}
    for drawn in _DRAWS[k]:
        ways = 1
        for v, m in drawn[1]:
            ways *= math.comb(counts[v], m)
            if not ways:
                break
        if not ways:
            continue
        same = 0
        bits = drawn[2]
        if drawn[3]:  # distinct values: one colour is possible
            if n_colours == 1:
                assert isinstance(have, int)
                same = 1 if have & bits == bits else 0
            elif n_colours == 0:
                assert isinstance(have, tuple)
                same = sum(1 for h in have if h & bits == bits)
        allv = tuple(sorted(values + drawn[0]))
        if same:
            r = _troop_rank(allv, True, fog)
            out[r] = out.get(r, 0) + same
        if ways > same:
            r = _troop_rank(allv, False, fog)
            out[r] = out.get(r, 0) + ways - same
    if len(_VALUE_CACHE) > 100_000:
        _VALUE_CACHE.clear()
    _VALUE_CACHE[key] = out
    return out


_Draw = tuple[tuple[int, ...], tuple[tuple[int, int], ...], int, bool]


def _draws(k: int) -> tuple[_Draw, ...]:
    """Every multiset of k values: (values, (value, multiplicity) pairs, bit mask, all distinct?)."""
    out = []
    for drawn in itertools.combinations_with_replacement(range(1, 11), k):
        mult = tuple((v, drawn.count(v)) for v in sorted(set(drawn)))
        distinct = len(set(drawn)) == len(drawn)
        out.append((drawn, mult, sum(1 << v for v in drawn), distinct))
    return tuple(out)


_DRAWS = tuple(_draws(k) for k in range(5))


def _compare(a: _Hist, b: _Hist) -> tuple[int, int]:
    """(pairs where a's rank is higher, pairs with equal ranks)."""
    if not a or not b:
        return 0, 0
    if len(b) == 1:
        ((rb, nb),) = b.items()
        return nb * sum(na for ra, na in a.items() if ra > rb), nb * a.get(rb, 0)
    if len(a) == 1:
        ((ra, na),) = a.items()
        return na * sum(nb for rb, nb in b.items() if rb < ra), na * b.get(ra, 0)
    keys = sorted(b)
    cumulative = list(itertools.accumulate(b[k] for k in keys))
    wins = ties = 0
    for ra, na in a.items():
        i = bisect.bisect_left(keys, ra)
        below = cumulative[i - 1] if i else 0
        wins += na * below
        if i < len(keys) and keys[i] == ra:
            ties += na * b[ra]
    return wins, ties


@dataclass(frozen=True)
class FlagOdds:
    """The chance each side wins a flag (see the module docstring for the draw and the tie rule).

    ``you`` + ``opponent`` = 1.  ``tie`` is the chance the two formations come out equal (already
    shared out in ``you`` and ``opponent``: to the complete side, else half each); None where it
    was not needed (two empty sides are exchangeable: 1/2 each whatever the chance of a tie).  ``exact`` says
    whether the figures are exact fractions or sampled (``error``: the 95 % half-width).
    """

    flag: int
    you: Fraction | float
    opponent: Fraction | float
    tie: Fraction | float | None
    exact: bool
    error: float = 0.0

    def of(self, side: Side | str) -> Fraction | float:
        return self.you if Side(side) is Side.YOU else self.opponent


def _sides(position: Position, flag: int) -> tuple[_Side, _Side]:
    state = position.flag(flag)
    return (
        _Side(state.formation_cards(Side.YOU), state.size, state.fog, state.mud),
        _Side(state.formation_cards(Side.OPPONENT), state.size, state.fog, state.mud),
    )


def flag_odds(position: Position, flag: int) -> FlagOdds:
    """The chance each side wins ``flag`` when both sides' open slots are filled at random from the
    unseen troops (R13), a tie going to the side already complete, else half to each (R11).

    A claimed flag (R15) is its holder's.

    >>> from battleline_lab import Position
    >>> flag_odds(Position.build({}), 3).you
    Fraction(1, 2)
    """
    state = position.flag(flag)
    if state.claimed_by is not None:
        one, zero = Fraction(1), Fraction(0)
        return FlagOdds(
            flag,
            one if state.claimed_by is Side.YOU else zero,
            zero if state.claimed_by is Side.YOU else one,
            zero,
            True,
        )
    you, opp = _sides(position, flag)
    first = state.completed_first if you.missing == 0 and opp.missing == 0 else None
    return odds_from_pool(flag, you, opp, sorted(position.unseen_troops()), first)


def position_odds(position: Position) -> dict[int, FlagOdds]:
    """:func:`flag_odds` of all nine flags."""
    return {n: flag_odds(position, n) for n in range(1, 10)}


def odds_from_pool(
    flag: int, you: _Side, opp: _Side, pool: Sequence[Troop], first: Side | None = None, *, seed: int = 0
) -> FlagOdds:
    """:func:`flag_odds` with an explicit pool of troops to draw from (a bot may leave out its hand)."""
    ka, kb = you.missing, opp.missing
    n = len(pool)
    zero, half, one = Fraction(0), Fraction(1, 2), Fraction(1)
    if ka == 0 and kb == 0:
        ra, rb = _card_rank(you.cards, you.fog, you.mud), _card_rank(opp.cards, opp.fog, opp.mud)
        if ra != rb:
            return FlagOdds(flag, one if ra > rb else zero, zero if ra > rb else one, zero, True)
        share = half if first is None else (one if first is Side.YOU else zero)
        return FlagOdds(flag, share, one - share, one, True)
    if ka > n or kb > n:  # a side that cannot be completed at all loses (both: half each)
        if ka > n and kb > n:
            return FlagOdds(flag, half, half, zero, True)
        return FlagOdds(flag, zero if ka > n else one, one if ka > n else zero, zero, True)
    if ka + kb > n:
        # each side can be completed alone but not both: fill them independently (the only case
        # where the two draws are not disjoint)
        return _independent(flag, you, opp, pool)
    tie_you = one if ka == 0 else zero if kb == 0 else half  # R11: the side already complete wins a tie
    if not you.cards and not opp.cards and ka == kb:
        return _exact_result(flag, half, None, tie_you)  # the two sides are exchangeable
    if _work(you, opp, n) > EXACT_BUDGET:
        return _sampled(flag, you, opp, pool, tie_you, seed)
    wins, ties, total = _count(you, opp, pool)
    return _exact_result(flag, Fraction(wins, total), Fraction(ties, total), tie_you)


def _exact_result(flag: int, win: Fraction, tie: Fraction | None, tie_you: Fraction) -> FlagOdds:
    if tie is None:  # exchangeable sides: the win chance is 1/2 whatever the chance of a tie
        return FlagOdds(flag, win, 1 - win, None, True)
    you = win + tie * tie_you
    return FlagOdds(flag, you, 1 - you, tie, True)


def _work(a: _Side, b: _Side, n: int) -> int:
    def cost(side: _Side, k: int) -> int:
        if k <= 0:
            return 1
        return math.comb(9 + k, k) if side.pure else math.comb(n, k)

    m = min(a.missing, b.missing)
    return sum(math.comb(n, t) * (cost(a, a.missing - t) + cost(b, b.missing - t)) for t in range(m + 1))


def _count(a: _Side, b: _Side, troops: Sequence[Troop]) -> tuple[int, int, int]:
    """(fills where a wins, fills with a tie, all fills), by inclusion-exclusion over the troops
    both draws would contain: the sum over sets T of (-1)^|T| * pairs of completions containing T."""
    pool = _Pool(troops)
    m = min(a.missing, b.missing)
    wins = ties = total = 0
    seen: dict[tuple[int, int], tuple[int, int, int, _Hist, _Hist]] = {}  # keeps both alive: ids stay unique
    for size in range(m + 1):
        sign = -1 if size % 2 else 1
        for shared in itertools.combinations(pool.troops, size):
            counts, masks = pool.without(shared)
            ha = a.hist(shared, pool, counts, masks)
            hb = b.hist(shared, pool, counts, masks)
            key = (id(ha), id(hb))
            got = seen.get(key)
            if got is None:
                w, t2 = _compare(ha, hb)
                got = seen[key] = (w, t2, sum(ha.values()) * sum(hb.values()), ha, hb)
            wins += sign * got[0]
            ties += sign * got[1]
            total += sign * got[2]
    return wins, ties, total


def _independent(flag: int, a: _Side, b: _Side, troops: Sequence[Troop]) -> FlagOdds:
    pool = _Pool(troops)
    ha, hb = a.hist((), pool, pool.counts, pool.masks), b.hist((), pool, pool.counts, pool.masks)
    wins, ties = _compare(ha, hb)
    total = sum(ha.values()) * sum(hb.values())
    tie_you = Fraction(1) if a.missing == 0 else Fraction(0) if b.missing == 0 else Fraction(1, 2)
    you = Fraction(wins, total) + Fraction(ties, total) * tie_you
    return FlagOdds(flag, you, 1 - you, Fraction(ties, total), True)


def _sampled(flag: int, a: _Side, b: _Side, pool: Sequence[Troop], tie_you: Fraction, seed: int) -> FlagOdds:
    """:data:`SAMPLES` seeded random fills: the 95 % error is at most :data:`SAMPLED_ERROR`."""
    rng = random.Random(f"odds:{flag}:{seed}")
    ka, kb = a.missing, b.missing
    wins = ties = 0
    for _ in range(SAMPLES):
        drawn = rng.sample(pool, ka + kb)
        ra = a.rank(drawn[:ka])
        rb = b.rank(drawn[ka:])
        if ra > rb:
            wins += 1
        elif ra == rb:
            ties += 1
    you = (wins + ties * float(tie_you)) / SAMPLES
    return FlagOdds(flag, you, 1 - you, ties / SAMPLES, False, SAMPLED_ERROR)


@functools.lru_cache(maxsize=1 << 16)
def draw_at_least(pool: int, drawn: int, marked: int, wanted: int) -> float:
    """The chance of at least ``wanted`` of the ``marked`` cards among ``drawn`` cards drawn from ``pool``.

    The hypergeometric tail: ``drawn`` cards taken uniformly at random, without replacement, from a
    pool of ``pool`` cards of which ``marked`` are the ones wanted.  For the bots the pool is the
    troops a player cannot see (R13: the unseen troops, the opponent's hand among them).  Wanting
    nothing is certain (``wanted <= 0``); wanting more than are marked or drawn, or drawing nothing,
    is impossible; drawing more than the pool holds draws the whole pool.  The good draws are
    counted exactly (``math.comb``) and divided once, so the float is the exact ratio, rounded.
    ``marked`` must lie in ``0..pool``.

    >>> draw_at_least(10, 3, 2, 1)  # 1 - C(8, 3) / C(10, 3) = 64/120
    0.5333333333333333
    >>> draw_at_least(10, 3, 2, 0), draw_at_least(10, 3, 2, 3), draw_at_least(4, 9, 2, 2)
    (1.0, 0.0, 1.0)
    """
    if wanted <= 0:
        return 1.0
    if not 0 <= marked <= pool:
        raise ValueError(f"marked must lie in 0..{pool}, not {marked}")
    if wanted > marked or wanted > drawn or drawn <= 0:
        return 0.0
    drawn = min(drawn, pool)
    total = math.comb(pool, drawn)
    top = min(marked, drawn)
    good = sum(math.comb(marked, j) * math.comb(pool - marked, drawn - j) for j in range(wanted, top + 1))
    return good / total


@dataclass(frozen=True)
class KindOuts:
    """One formation kind a side can still reach (None: a sum under Fog, R24)."""

    kind: FormationKind | None
    best: int  # the best sum of this kind
    ways: int  # completions from the unseen troops that make this kind
    troops: tuple[Troop, ...]  # unseen troops in at least one of them (the outs)

    @property
    def kind_key(self) -> str:
        return "sum" if self.kind is None else self.kind.key

    @property
    def count(self) -> int:
        return len(self.troops)

    def as_dict(self) -> dict[str, object]:
        return {"best": self.best, "ways": self.ways, "count": self.count, "troops": [t.notation for t in self.troops]}


@dataclass(frozen=True)
class SideOuts:
    """What one side of a flag can still make: ``kinds`` strongest first; ``missing`` open slots."""

    flag: int
    side: Side
    missing: int
    kinds: tuple[KindOuts, ...]
    claimed: bool = False

    def as_dict(self) -> dict[str, object]:
        return {k.kind_key: k.as_dict() for k in self.kinds}


def outs(position: Position, flag: int, side: Side | str, troops: Iterable[Troop] | None = None) -> SideOuts:
    """Each kind ``side`` can still reach at ``flag``, its best sum, its number of completions and
    the unseen troops (R13) that complete it.  A complete side has one kind, its own, no outs.
    ``troops``: draw from these instead of the unseen ones (an explanation asks what the face-up
    troops would have made, to strike them out).

    >>> from battleline_lab import Position
    >>> pos = Position.build({2: {"you": "r3 r4"}, 4: {"you": "r5"}})
    >>> [(k.kind_key, k.best, [t.notation for t in k.troops]) for k in outs(pos, 2, "you").kinds][:1]
    [('wedge', 9, ['r2'])]
    """
    side = check_side(side)
    state = position.flag(flag)
    if state.claimed_by is not None:
        return SideOuts(flag, side, max(0, state.size - len(state.formation_cards(side))), (), claimed=True)
    pool = _in_order(position.unseen_troops() if troops is None else frozenset(troops))
    return _outs_of(flag, side, state.formation_cards(side), state.size, state.fog, state.mud, pool)


@functools.lru_cache(maxsize=256)
def _in_order(troops: frozenset[Troop]) -> tuple[Troop, ...]:
    """``troops`` sorted: a position's unseen troops are asked for once per flag and side, and sorting
    them compares troops in Python about 300 times."""
    return tuple(sorted(troops))


@functools.lru_cache(maxsize=4096)
def _outs_of(
    flag: int, side: Side, cards: tuple[Card, ...], size: int, fog: bool, mud: bool, pool: tuple[Troop, ...]
) -> SideOuts:
    """:func:`outs` from all it reads, counted once: a play puzzle judges each card of the hand on every
    flag, and wherever a card goes but this flag, this side and the unseen troops are the same."""
    return _outs(flag, side, _Side(cards, size, fog, mud), pool)


def _outs(flag: int, side: Side, mine: _Side, troops: Sequence[Troop]) -> SideOuts:
    pool = _Pool(troops)
    fog = mine.fog
    if mine.missing == 0:
        r = _card_rank(mine.cards, fog, mine.mud)
        return SideOuts(flag, side, 0, (KindOuts(_kind_of(r, fog), r % _KIND_STEP if not fog else r, 1, ()),))
    if mine.missing > len(troops):
        return SideOuts(flag, side, mine.missing, ())
    whole = mine.hist((), pool, pool.counts, pool.masks)
    by_kind: dict[FormationKind | None, tuple[int, int]] = {}
    for r, ways in whole.items():
        kind = _kind_of(r, fog)
        best, total = by_kind.get(kind, (0, 0))
        by_kind[kind] = (max(best, r if fog else r % _KIND_STEP), total + ways)
    members: dict[FormationKind | None, list[Troop]] = {k: [] for k in by_kind}
    for t in troops:
        counts, masks = pool.without((t,))
        for kind in {_kind_of(r, fog) for r in mine.hist((t,), pool, counts, masks)}:
            members[kind].append(t)
    order = sorted(by_kind, key=lambda k: -1 if k is None else int(k), reverse=True)
    kinds = tuple(KindOuts(k, by_kind[k][0], by_kind[k][1], tuple(members[k])) for k in order)
    return SideOuts(flag, side, mine.missing, kinds)
