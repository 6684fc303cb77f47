"""The claim decision without the proof (R11-R13, R20-R25): fast verdicts for bots, the CLI and games.

:func:`battleline_lab.core.claims.analyse_claim` builds the whole explanation: every
shape it rules out becomes a proof step.  Most callers only need the verdict:
``claims``, the bots, the coach's buttons, the generator's first filter.  This
module answers the same question with no steps, no plans and no stand-in
troops, and stops at the first completion that beats the claimer:

* the unseen troops (R13) are one 60-bit integer (bit ``colour * 10 + value - 1``),
  split into six 10-bit masks, one per colour (:class:`Pool`);
* per formation kind, strongest first (R9, R10), it asks whether the open slots
  can be filled from the pool so that the kind is reached (and, for the
  claimer's own kind, with a higher sum): a Wedge or Skirmish Line is a mask of
  run values that the pool and the wildcards must cover (a tiny matching of
  wildcards to values, R20-R22), a Phalanx is a count of one value, a Battalion
  the best troops of one colour, a Host or a Fog sum (R24) the best troops left;
* a tie at best still lets the claimer claim (R11: they completed first), two
  complete sides are compared directly, with ``first_complete`` breaking ties,
  and Mud makes formations of four (R25).

The verdicts are the ones :func:`~battleline_lab.core.claims.analyse_claim` gives (the
hypothesis tests in ``tests/test_equivalence.py`` check both against the naive
reference in ``tests/reference.py``).

>>> from battleline_lab.core.position import Position, Side
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
>>> can_claim(pos, 5, Side.YOU)
True
>>> claimable_flags(Position.build({5: {"you": "r3 r4 r5", "opponent": "r7 r8"}}), Side.YOU)
()
>>> decide_position(pos)
{Side.YOU: (5,), Side.OPPONENT: ()}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn

from .cards import ALL_TROOPS, Card, Colour, Troop
from .formations import (
    FOG_BIT,
    MUD_BIT,
    S_BITS,
    S_ENV,
    S_FILLED,
    FormationKind,
    ShapePlan,
    SideSummary,
    assign_wilds,
    side_strength,
    strength,
    summarise,
)
from .position import FLAGS, FlagState, Location, Position, Side, check_side

__all__ = [
    "Pool",
    "UndecidedTieError",
    "can_claim",
    "claimable_flags",
    "decide",
    "decide_flag",
    "decide_position",
    "strength",
    "troop_mask",
    "troops_of",
]

_ALL = (1 << 60) - 1
_BIT: dict[Card, int] = {t: 1 << t.index for t in ALL_TROOPS}
BY_INDEX = _BY_INDEX = tuple(sorted(ALL_TROOPS, key=lambda t: t.index))  # each troop at its index (bit)
VALUE_BITS = {v: sum(1 << t.index for t in ALL_TROOPS if t.value == v) for v in range(1, 11)}
COLOUR_BITS = {c: sum(1 << t.index for t in ALL_TROOPS if t.colour is c) for c in Colour}
_WEDGE, _PHALANX, _BATTALION, _SKIRMISH, _HOST = 4, 3, 2, 1, 0
# the two sides in the order of the decision's tables
_SIDES = (Side.YOU, Side.OPPONENT)


class UndecidedTieError(ValueError):
    """Both formations tie and the position does not say who completed first (R11)."""


def undecided(flag: int, total: int) -> NoReturn:
    """Raise the one :class:`UndecidedTieError` of a tie the position leaves open (R11)."""
    raise UndecidedTieError(
        f"flag {flag}: both formations tie at {total}; the position must say who completed first (R11)"
    )


def troop_mask(troops: Iterable[Card]) -> int:
    """The troops among ``cards`` as a bit set (tactics cards are ignored).

    >>> from battleline_lab.core.cards import parse_cards
    >>> troop_mask(parse_cards("r1 o2 fog")) == (1 << 0) | (1 << 11)
    True
    """
    get = _BIT.get
    mask = 0
    for card in troops:
        mask |= get(card, 0)
    return mask


def troops_of(mask: int) -> tuple[Troop, ...]:
    """The troops of a bit set, in card order (colour, then value).

    >>> from battleline_lab.core.cards import parse_cards
    >>> troops_of(troop_mask(parse_cards("b8 r3")))
    (r3, b8)
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_INDEX[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


class Pool:
    """The unseen troops (R13) as bit sets: all of them, and one 10-bit value mask per colour.

    One 60-bit set (bit ``Troop.index`` = ``colour * 10 + value - 1``), split into six 10-bit
    masks, one per colour; the decision reads the masks, the proof
    (:mod:`battleline_lab.core.claims`) the troops of a value, of a colour or strongest first
    (:meth:`fill`) and where the face-up ones lie (:meth:`where`).  ``in_discards`` are the
    troops in the discard areas (0 when the pool was built from a bit set alone).

    >>> pool = Pool.of_position(Position.build({5: {"you": "r3 r4 r5"}}))
    >>> pool.count, bin(pool.colours[0]), pool.counts
    (57, '0b1111100011', (3, 0))
    """

    __slots__ = (
        "mask",
        "colours",
        "values",
        "count",
        "position",
        "in_discards",
        "_top",
        "_top_troops",
        "_places",
        "_wedges",
        "said",
    )

    def __init__(self, mask: int, position: Position | None = None, in_discards: int = 0) -> None:
        self.mask = mask = mask & _ALL
        # one 10-bit mask per colour, written out (a comprehension over range(6) costs more than the masks)
        self.colours = colours = [
            mask & 0x3FF,
            mask >> 10 & 0x3FF,
            mask >> 20 & 0x3FF,
            mask >> 30 & 0x3FF,
            mask >> 40 & 0x3FF,
            mask >> 50 & 0x3FF,
        ]
        self.values = colours[0] | colours[1] | colours[2] | colours[3] | colours[4] | colours[5]  # values still unseen
        self.count = mask.bit_count()
        self.position = position
        self.in_discards = in_discards
        self._top: list[int] | None = None
        self._top_troops: list[Troop] | None = None
        self._places: list[Location | None] | None = None
        self._wedges: list[tuple[int, int] | None] = [None, None]  # best_wedge's, for 3 and 4 cards
        # what the proof says of the pool for each side, worked out once a position (claims._unseen):
        # the unseen count, the troops on the flags and in the discards, the hand's troops; the hand's bits
        self.said: dict[Side, tuple[tuple[int, int, int, tuple[Troop, ...]], int]] = {}

    @classmethod
    def of_position(cls, position: Position) -> Pool:
        """The unseen troops of a position: every troop not face up on a flag or in a discard area (R13)."""
        visible = 0
        for state in position.flags:
            for card in state.you:
                if type(card) is Troop:
                    visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
            for card in state.opponent:
                if type(card) is Troop:
                    visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
        return cls.of_flags(position, visible)

    @classmethod
    def of_flags(cls, position: Position, visible: int) -> Pool:
        """:meth:`of_position` for a caller that has read the troops on the flags (``visible``, a bit set)."""
        in_discards = 0
        for card in position.discards_you + position.discards_opponent:
            if type(card) is Troop:
                in_discards |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
        return cls(_ALL & ~(visible | in_discards), position, in_discards)

    @classmethod
    def of_visible(cls, visible: Iterable[Card]) -> Pool:
        """The troops not among ``visible`` (the face-up cards)."""
        return cls(_ALL & ~troop_mask(visible))

    @property
    def seen(self) -> int:
        """The face-up troops, as a bit set."""
        return _ALL & ~self.mask

    @property
    def counts(self) -> tuple[int, int]:
        """The face-up troops on the flags and in the discards, for the proof's unseen count (R13).

        A troop listed twice counts once, where it was listed last (discards after flags).
        """
        in_discards = self.in_discards
        return ((self.seen & ~in_discards).bit_count(), in_discards.bit_count())

    def top(self, count: int) -> tuple[int, int]:
        """The sum and bit set of the ``count`` highest unseen troops (any colour)."""
        if self._top is None:
            self._top = [b for b in _STRONGEST_BITS if self.mask & b]
        chosen = self._top[:count]
        total = 0
        mask = 0
        for b in chosen:
            total += _BIT_VALUE[b]
            mask |= b
        return total, mask

    def top_of_colour(self, ci: int, count: int) -> tuple[int, int]:
        """The sum and bit set of the ``count`` highest unseen troops of colour index ``ci``."""
        m = self.colours[ci]
        total = 0
        mask = 0
        v = 10
        while count and v:
            if m >> (v - 1) & 1:
                total += v
                mask |= 1 << (ci * 10 + v - 1)
                count -= 1
            v -= 1
        return total, mask

    def best_wedge(self, size: int) -> tuple[int, int]:
        """The highest run start of ``size`` unseen troops of one colour, and that colour's index (the
        lowest such colour); (0, 0) if there is none: what an empty side can make best (R9), worked out
        once a pool and size."""
        got = self._wedges[size - 3]
        if got is None:
            best = found = 0
            for ci, m in enumerate(self.colours):
                runs = m & m >> 1 & m >> 2
                if size == 4:
                    runs &= m >> 3
                if runs.bit_length() > best:
                    best, found = runs.bit_length(), ci
            got = self._wedges[size - 3] = (best, found)
        return got

    def of_value(self, v: int, count: int) -> int:
        """A bit set of ``count`` unseen troops of value ``v``, or -1 if there are fewer."""
        mask = 0
        shift = v - 1
        for ci, m in enumerate(self.colours):
            if not count:
                break
            if m >> shift & 1:
                mask |= 1 << (ci * 10 + shift)
                count -= 1
        return -1 if count else mask

    def where(self, troops: int) -> tuple[tuple[Card, Location], ...]:
        """The troops of a bit set that are face up, in card order, with where each lies (R13).

        The places are those of ``Position.visible``: one per side of a flag and per
        discard area, the last one listed for a troop listed twice (a pool of a position only).
        """
        places = self._places
        if places is None:
            position = self.position
            assert position is not None, "where() needs a pool of a position (Pool.of_position)"
            places = self._places = [None] * len(_BY_INDEX)
            for n, state in zip(FLAGS, position.flags):
                for side, cards in ((Side.YOU, state.you), (Side.OPPONENT, state.opponent)):
                    if cards:
                        place = Location("flag", side, n)
                        for card in cards:
                            if type(card) is Troop:
                                places[card.index] = place
            for side in _SIDES:
                place = Location("discard", side)
                for card in position.discards(side):
                    if type(card) is Troop:
                        places[card.index] = place
        out = []
        while troops:
            low = troops & -troops
            troops ^= low
            i = low.bit_length() - 1
            found = places[i]
            if found is not None:
                out.append((_BY_INDEX[i], found))
        return tuple(out)

    def fill(self, plan: ShapePlan) -> tuple[Troop, ...] | None:
        """The best unseen troops that complete ``plan`` (a shape's plan, R13), or None if there are not enough."""
        shape = plan.shape
        mask = self.mask
        if plan.exact:
            return plan.exact if not troop_mask(plan.exact) & ~mask else None
        if plan.values:
            out = []
            for v in plan.values:
                left = mask & VALUE_BITS[v]
                if not left:
                    return None
                out.append(_BY_INDEX[(left & -left).bit_length() - 1])  # the first of that value in card order
            return tuple(out)
        if plan.count == 0:
            return ()
        group: list[Troop] | tuple[Troop, ...]
        if shape.kind is FormationKind.PHALANX:
            assert shape.value is not None
            group = troops_of(mask & VALUE_BITS[shape.value])
        elif shape.kind is FormationKind.BATTALION:
            assert shape.colour is not None
            group = troops_of(mask & COLOUR_BITS[shape.colour])[::-1]  # highest value first
        else:
            if self._top_troops is None:
                self._top_troops = [_BY_INDEX[b.bit_length() - 1] for b in _STRONGEST_BITS if mask & b]
            group = self._top_troops
        return tuple(group[: plan.count]) if len(group) >= plan.count else None


_STRONGEST_BITS = [1 << t.index for t in sorted(ALL_TROOPS, key=lambda t: (-t.value, t.index))]
_BIT_VALUE = {1 << t.index: t.value for t in ALL_TROOPS}


def beating(theirs: SideSummary, size: int, fog: bool, kind: int, total: int, pool: Pool) -> int:
    """Unseen troops that complete ``theirs`` into something stronger than (kind, total), as a bit set; 0 if none.

    Only the open slots come from the pool; a wildcard on their side stands for
    any troop it may be (R20-R23), even one face up elsewhere.  Kinds are tried strongest
    first and shapes in the order of :func:`~battleline_lab.core.formations.shapes`, so the troops are
    those of the first shape the proof (:mod:`battleline_lab.core.claims`) finds that beats the claimer.
    """
    _, tvalues, tsum, tcolour, distinct, wilds, wsum, _, _, filled, _ = theirs
    open_slots = size - filled
    if pool.count < open_slots:
        return 0  # no completion at all
    base = tsum + wsum
    if fog:
        # only sums count under Fog (R24): the best troops left
        best, mask = pool.top(open_slots)
        return mask if base + best > total else 0
    if not filled:
        # an empty side (a third of the calls): the pool's best Wedge (R9), when it beats the claimer: the
        # start and colour the loop below finds (its window only cuts starts too low to beat a Wedge)
        best, found = pool.best_wedge(size)
        if best and (kind != _WEDGE or best > (total - size * (size - 1) // 2) // size):
            return (((1 << size) - 1) << (best - 1)) << (found * 10)

    colours = range(6) if tcolour == -1 else (tcolour,) if tcolour >= 0 else ()
    run_free = (1 << size) - 1
    high = tvalues.bit_length()  # the highest troop value, 0 if none
    low = (tvalues & -tvalues).bit_length() or 10  # the lowest, 10 if none
    first, last = max(1, high - size + 1), min(low, 11 - size)  # where a run holding them may start
    if distinct and colours and not wilds:
        # Wedge (R9) of troops alone: the highest run start that some colour's unseen troops (with theirs)
        # cover, the lowest such colour (the order of the loop below), all colours read at once
        lowest = first if kind != _WEDGE else max(first, (total - size * (size - 1) // 2) // size + 1)
        if lowest <= last:
            window = ((1 << (last - lowest + 1)) - 1) << (lowest - 1)  # bit start - 1 of each start allowed
            best = found = 0
            pool_colours = pool.colours
            for ci in colours:
                m = pool_colours[ci] | tvalues
                runs = m & m >> 1 & m >> 2 & window
                if size == 4:
                    runs &= m >> 3
                if runs and runs.bit_length() > best:
                    best, found = runs.bit_length(), ci
            if best:
                return ((run_free << (best - 1)) & ~tvalues) << (found * 10)
    elif distinct and colours:
        # Wedge (R9): one colour, consecutive values; runs strongest first
        for start in range(last, first - 1, -1):
            if kind == _WEDGE and size * start + size * (size - 1) // 2 <= total:
                break
            missing = (run_free << (start - 1)) & ~tvalues
            for ci in colours:
                have = pool.colours[ci]
                if wilds:
                    taken = assign_wilds(wilds, missing, missing & ~have)
                    if taken >= 0:
                        return (missing & ~taken) << (ci * 10) or -1
                elif missing & ~have == 0:
                    return missing << (ci * 10)
    if kind == _WEDGE:
        return 0
    if tvalues & (tvalues - 1) == 0:
        # Phalanx (R9): one value
        allowed = tvalues or 0x3FF
        for w in wilds:
            allowed &= w
        while allowed:  # the values it may take, highest first
            v = allowed.bit_length()
            if kind == _PHALANX and v * size <= total:
                break
            mask = pool.of_value(v, open_slots)
            if mask >= 0:
                return mask or -1
            allowed ^= 1 << (v - 1)
    if kind == _PHALANX:
        return 0
    for ci in colours:
        # Battalion Order (R9): one colour, the best troops of it
        if pool.colours[ci].bit_count() >= open_slots:
            best, mask = pool.top_of_colour(ci, open_slots)
            if kind < _BATTALION or base + best > total:
                return mask or -1
    if kind == _BATTALION:
        return 0
    if distinct:
        # Skirmish Line (R9): consecutive values, any colours
        for start in range(last, first - 1, -1):
            if kind == _SKIRMISH and size * start + size * (size - 1) // 2 <= total:
                break
            missing = (run_free << (start - 1)) & ~tvalues
            taken = assign_wilds(wilds, missing, missing & ~pool.values)
            if taken >= 0:
                needed = missing & ~taken
                mask = 0
                while needed:
                    bit = needed & -needed
                    needed ^= bit
                    mask |= pool.of_value(bit.bit_length(), 1)
                return mask or -1
    if kind == _SKIRMISH:
        return 0
    # the claimer holds a Host (R9): any completion with a higher sum beats it (R10)
    best, mask = pool.top(open_slots)
    return mask if base + best > total else 0


class _LazyPool:
    """A position's pool, worked out only when a search needs it (two complete sides never do)."""

    __slots__ = ("position", "pool")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.pool: Pool | None = None

    def get(self) -> Pool:
        if self.pool is None:
            self.pool = Pool.of_position(self.position)
        return self.pool


def _verdict(
    mine: SideSummary, theirs: SideSummary, size: int, fog: bool, first: bool | None, pool: Pool | _LazyPool, flag: int
) -> tuple[bool, int]:
    if mine[S_FILLED] < size:
        return False, 0  # R12: a complete formation first
    strength = side_strength(mine, size, fog)
    if theirs[S_FILLED] >= size:
        other = side_strength(theirs, size, fog)
        if other != strength:
            return strength > other, 0
        if first is None:
            undecided(flag, strength[1])
        return first, 0
    if type(pool) is _LazyPool:
        pool = pool.get()
    witness = beating(theirs, size, fog, strength[0], strength[1], pool)  # type: ignore[arg-type]
    return witness == 0, witness


def decide(
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
    pool: Pool,
    *,
    fog: bool = False,
    mud: bool = False,
    first: bool | None = None,
    flag: int = 0,
) -> tuple[bool, int]:
    """Can the side holding ``mine`` claim against ``theirs`` now (R12)?

    ``mine`` and ``theirs`` are the formation cards of each side (anything else is
    ignored).  Returns the verdict and, for a refusal, the unseen troops of one
    completion that beats the claimer as a bit set (``-1`` if it needs no troop;
    0 when the refusal needs no completion: an incomplete side, a stronger
    complete one).  ``first`` says whether the claimer completed first (R11), for
    two complete sides that tie; ``None`` there raises
    :class:`UndecidedTieError`.

    >>> from battleline_lab.core.cards import parse_cards
    >>> pool = Pool.of_visible(parse_cards("r3 r4 r5 b8 b7 b10"))
    >>> decide(parse_cards("r3 r4 r5"), parse_cards("b8"), pool)
    (True, 0)
    >>> ok, witness = decide(parse_cards("r3 r4 r5"), parse_cards("b8"), Pool.of_visible(parse_cards("r3 r4 r5")))
    >>> ok, troops_of(witness)
    (False, (b9, b10))
    """
    return _verdict(summarise(mine), summarise(theirs), 4 if mud else 3, fog, first, pool, flag)


def _flag(
    state: FlagState, side: Side | None, pool: Pool | _LazyPool, flag: int
) -> tuple[tuple[bool, int], tuple[bool, int]]:
    """The verdicts of you and the opponent at one flag (R12, R15)."""
    you = summarise(state.you)
    opponent = summarise(state.opponent)
    env = you[S_ENV] | opponent[S_ENV]
    size = 4 if env & MUD_BIT else 3
    fog = bool(env & FOG_BIT)
    first = state.first_complete
    no: tuple[bool, int] = (False, 0)
    return (
        no
        if side is Side.OPPONENT
        else _verdict(you, opponent, size, fog, None if first is None else first is Side.YOU, pool, flag),
        no
        if side is Side.YOU
        else _verdict(opponent, you, size, fog, None if first is None else first is Side.OPPONENT, pool, flag),
    )


def _may_claim(state: FlagState) -> bool:
    """A quick test that someone may claim the flag at all: unclaimed, and a side with 3 cards or more."""
    return state.claimed_by is None and (len(state.you) >= 3 or len(state.opponent) >= 3)


def decide_flag(position: Position, flag: int, side: Side, pool: Pool | _LazyPool | None = None) -> tuple[bool, int]:
    """:func:`decide` for one flag of a position (R12, R15): the verdict and the beating completion."""
    state = position.flags[flag - 1]
    if not _may_claim(state):
        return False, 0
    verdicts = _flag(state, side, _LazyPool(position) if pool is None else pool, flag)
    return verdicts[0] if side is Side.YOU else verdicts[1]


def can_claim(position: Position, flag: int, side: Side | str | None = None) -> bool:
    """Whether ``side`` (default: whose turn it is) can claim ``flag`` now (R12): the verdict alone.

    The same verdict as :func:`~battleline_lab.core.claims.analyse_claim`, without building the proof.
    """
    side = position.turn if side is None else side if type(side) is Side else check_side(side)
    position.flag(flag)  # validates the number (an int 1-9, not a bool or a float)
    return decide_flag(position, flag, side)[0]


def claimable_flags(position: Position, side: Side | str | None = None) -> tuple[int, ...]:
    """The unclaimed flags ``side`` (default: whose turn) can claim now, in order (R12)."""
    side = position.turn if side is None else side if type(side) is Side else check_side(side)
    pool = _LazyPool(position)
    index = 0 if side is Side.YOU else 1
    return tuple(
        n for n, state in zip(FLAGS, position.flags) if _may_claim(state) and _flag(state, side, pool, n)[index][0]
    )


def decide_position(position: Position) -> dict[Side, tuple[int, ...]]:
    """Both sides' claimable flags (R12), sharing one unseen pool: the whole position decided."""
    visible = 0
    todo: list[tuple[int, FlagState, SideSummary, SideSummary]] = []
    for n, state in zip(FLAGS, position.flags):
        you_cards, opponent_cards = state.you, state.opponent
        if state.claimed_by is None and (len(you_cards) >= 3 or len(opponent_cards) >= 3):
            a = summarise(you_cards)
            b = summarise(opponent_cards)
            visible |= a[S_BITS] | b[S_BITS]
            todo.append((n, state, a, b))
            continue
        for card in you_cards + opponent_cards:
            if type(card) is Troop:
                visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
    you: list[int] = []
    opponent: list[int] = []
    if not todo:
        return {Side.YOU: (), Side.OPPONENT: ()}
    for card in position.discards_you + position.discards_opponent:
        if type(card) is Troop:
            visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
    pool = Pool(_ALL & ~visible)
    for n, state, a, b in todo:
        env = a[S_ENV] | b[S_ENV]
        size = 4 if env & MUD_BIT else 3
        fog = env & FOG_BIT == FOG_BIT
        if a[S_FILLED] >= size and b[S_FILLED] >= size:
            # both complete (R10, R11): one comparison decides for both sides
            strength = side_strength(a, size, fog)
            other = side_strength(b, size, fog)
            if strength == other:
                first = state.first_complete
                if first is None:
                    undecided(n, strength[1])
                (you if first is Side.YOU else opponent).append(n)
            else:
                (you if strength > other else opponent).append(n)
        elif a[S_FILLED] >= size:
            if not beating(b, size, fog, *side_strength(a, size, fog), pool):
                you.append(n)
        elif b[S_FILLED] >= size:
            if not beating(a, size, fog, *side_strength(b, size, fog), pool):
                opponent.append(n)
    return {Side.YOU: tuple(you), Side.OPPONENT: tuple(opponent)}
