"""Formations (阵型): classify, resolve wildcards and compare (R9-R11, R20-R25).

A formation is the 3 cards (4 at a Mud flag, R25) on one side of a flag.  Morale
cards are wild (R20-R22) and always take their best values; under Fog (R24) only
sums count.  :func:`evaluate` returns a :class:`Formation` that says what each
wildcard was taken to be.

The same machinery answers the claim question (R12): a :class:`Shape` is one
concrete way to make a formation kind (a blue Wedge 6-7-8, a Phalanx of 8s, a
green Battalion, ...); :func:`plan_shape` says how a partial side could complete
that shape, and which troops it would still need.

>>> f = evaluate(parse_cards("r3 r4 r5"))
>>> f.kind, f.total
(<FormationKind.WEDGE: 4>, 12)
>>> evaluate(parse_cards("alexander g5 g6")).wild
((alexander, g7),)
>>> evaluate(parse_cards("r4 r6 r3")).strength > evaluate(parse_cards("b7 b1 b3")).strength
True
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, TypeAlias

from .cards import ALL_TACTICS, Card, Colour, Tactic, Troop, parse_cards, troop

__all__ = [
    "Formation",
    "FormationError",
    "FormationKind",
    "Shape",
    "ShapeFilter",
    "ShapePlan",
    "SideSummary",
    "Strength",
    "evaluate",
    "formation_size",
    "plan_shape",
    "shapes",
    "side_strength",
    "strength",
    "summarise",
    "troops_strength",
]


class FormationKind(enum.IntEnum):
    """The five formation kinds (R9); a higher value is stronger."""

    HOST = 0  # 杂兵阵: anything else
    SKIRMISH = 1  # 散兵线: consecutive values, any colours
    BATTALION = 2  # 营阵: same colour
    PHALANX = 3  # 方阵: same value
    WEDGE = 4  # 楔形阵: same colour, consecutive values

    @property
    def key(self) -> str:
        """The lower-case name used in files and the message catalogue."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"<FormationKind.{self.name}: {self.value}>"


class FormationError(ValueError):
    """Cards that cannot be judged as a formation (wrong count, non-formation cards)."""


def formation_size(mud: bool) -> int:
    """3 cards a side, 4 at a Mud flag (R6, R25)."""
    return 4 if mud else 3


# What a morale card may stand for (R20-R22), read from ``Tactic.wild_values`` once: the values as a
# 10-bit mask (bit ``value - 1``) and its best value
WILD_MASK: dict[Card, int] = {t: sum(1 << (v - 1) for v in t.wild_values) for t in ALL_TACTICS if t.wild_values}
WILD_BEST: dict[Card, int] = {t: max(t.wild_values) for t in ALL_TACTICS if t.wild_values}
_WILD_VALUES: dict[Card, tuple[int, ...]] = {t: t.wild_values for t in ALL_TACTICS}
_WEDGE, _PHALANX, _BATTALION, _SKIRMISH, _HOST = 4, 3, 2, 1, 0
MUD_BIT, FOG_BIT = 1, 2


#: What one side of a flag holds, read in one pass by :func:`summarise` (plain numbers, for hot loops).
#: A plain tuple, made at once (the decision summarises every side it reads, and a NamedTuple's
#: constructor costs three times the tuple), read by unpacking or by the indexes ``S_*`` below:
#: the number of troops; their values as a mask (bit ``value - 1``); their sum; their colour index
#: (-1 for no troop, -2 for mixed colours); whether their values are all different; each morale
#: card's value mask (R20-R22); the morale cards' best values, summed; the side's cards as given;
#: the environment cards as bits (``MUD_BIT``, ``FOG_BIT``); the number of formation cards (troops
#: and morale cards); the troops as a 60-bit set (bit ``Troop.index``).
SideSummary: TypeAlias = tuple[int, int, int, int, bool, list[int], int, tuple[Card, ...], int, int, int]
# the fields' indexes (``Final``: a type checker knows each field's type by its index)
S_COUNT: Final = 0
S_VALUES: Final = 1
S_TOTAL: Final = 2
S_COLOUR: Final = 3
S_DISTINCT: Final = 4
S_WILDS: Final = 5
S_WILD_BEST: Final = 6
S_CARDS: Final = 7
S_ENV: Final = 8
S_FILLED: Final = 9
S_BITS: Final = 10


def summarise(cards: tuple[Card, ...]) -> SideSummary:
    """A side's cards summarised in one pass (see :data:`SideSummary`); guile cards are ignored.

    >>> s = summarise(parse_cards("r3 r5 alexander mud"))
    >>> s[S_COUNT], bin(s[S_VALUES]), s[S_TOTAL], s[S_COLOUR], s[S_DISTINCT], s[S_WILD_BEST], s[S_FILLED]
    (2, '0b10100', 8, 0, True, 10, 3)
    >>> s[S_ENV] == MUD_BIT, len(s[S_CARDS]), s[S_BITS] == troop(Colour.RED, 3).bit | troop(Colour.RED, 5).bit
    (True, 4, True)
    """
    count = values = total = env = wsum = bits = 0
    colour = -1
    distinct = True
    wilds: list[int] = []
    for card in cards:
        if type(card) is Troop:
            v = card.value
            bit = 1 << (v - 1)
            if values & bit:
                distinct = False
            values |= bit
            total += v
            offset = card.colour.offset  # (the colour as its offset while reading, its index below)
            bits |= 1 << (offset + v - 1)  # card.bit, without the property call
            if colour != offset:
                colour = offset if colour == -1 else -2
            count += 1
        elif card is Tactic.MUD:
            env |= MUD_BIT
        elif card is Tactic.FOG:
            env |= FOG_BIT
        elif card in WILD_MASK:
            wilds.append(WILD_MASK[card])
            wsum += WILD_BEST[card]
    if colour > 0:
        colour //= 10
    return (count, values, total, colour, distinct, wilds, wsum, cards, env, count + len(wilds), bits)


def assign_wilds(wilds: Sequence[int], missing: int, need: int) -> int:
    """Values (bits of ``missing``) the wildcards take, one each, all different, covering ``need``; -1 if impossible."""
    if not wilds:
        return 0 if not need else -1
    if need.bit_count() > len(wilds):
        return -1
    rest = wilds[1:]
    options = missing & wilds[0]
    while options:
        low = options & -options
        options ^= low
        taken = assign_wilds(rest, missing & ~low, need & ~low)
        if taken >= 0:
            return taken | low
    return -1


def _troops_kind(values: int, distinct: bool, one_colour: bool, size: int) -> int:
    """The kind of ``size`` troops (R9), from their values as a mask: the one classifier of troops."""
    low = (values & -values).bit_length()
    run = distinct and values >> (low - 1) == (1 << size) - 1
    if one_colour and run:
        return _WEDGE
    if values & (values - 1) == 0:
        return _PHALANX
    if one_colour:
        return _BATTALION
    return _SKIRMISH if run else _HOST


def troops_strength(values: Iterable[int], one_colour: bool, *, fog: bool = False) -> tuple[int, int]:
    """(kind, sum) of a complete formation of troops given by their values and whether they share a colour.

    The same classifier :func:`evaluate` and the claim decision use (R9, R10; kind -1 under Fog, R24).

    >>> troops_strength((3, 4, 5), True), troops_strength((7, 7, 7), False), troops_strength((1, 9, 2), False)
    ((4, 12), (3, 21), (0, 12))
    """
    mask = total = size = 0
    for v in values:
        mask |= 1 << (v - 1)
        total += v
        size += 1
    if fog:
        return (-1, total)
    return (_troops_kind(mask, mask.bit_count() == size, one_colour, size), total)


def _repeated_tactic(cards: tuple[Card, ...]) -> bool:
    tactics = [c for c in cards if type(c) is not Troop]
    return len(set(tactics)) != len(tactics)


def side_strength(side: SideSummary, size: int, fog: bool) -> tuple[int, int]:
    """(kind, sum) of a complete side, wildcards at their best (R9, R10, R20-R24); kind -1 under Fog.

    Raises :class:`FormationError` for a side that is not a formation of ``size`` cards.
    """
    count, values, total, colour, distinct, wilds, wsum, cards, _, filled, _ = side
    if filled != size or (len(wilds) > 1 and _repeated_tactic(cards)):
        _check(tuple(c for c in cards if type(c) is Troop or c in WILD_MASK), size == 4)  # raises FormationError
        raise AssertionError("_check raises for these cards")  # pragma: no cover
    if fog:
        return (-1, total + wsum)
    if not wilds:
        return (_troops_kind(values, distinct, colour >= 0, size), total)
    # wildcards: the strongest kind they can complete (R20-R22), a stand-in may repeat any card (R23)
    high = values.bit_length()
    low = (values & -values).bit_length() or 10
    first, last = max(1, high - size + 1), min(low, 11 - size)
    run_free = (1 << size) - 1
    if distinct and colour != -2:
        for start in range(last, first - 1, -1):
            missing = (run_free << (start - 1)) & ~values
            if assign_wilds(wilds, missing, missing) >= 0:
                return (_WEDGE, size * start + size * (size - 1) // 2)
    if values & (values - 1) == 0:
        allowed = values or 0x3FF
        for w in wilds:
            allowed &= w
        if allowed:
            return (_PHALANX, allowed.bit_length() * size)
    if colour != -2:
        return (_BATTALION, total + wsum)
    if distinct:
        for start in range(last, first - 1, -1):
            missing = (run_free << (start - 1)) & ~values
            if assign_wilds(wilds, missing, missing) >= 0:
                return (_SKIRMISH, size * start + size * (size - 1) // 2)
    return (_HOST, total + wsum)


def strength(cards: Iterable[Card], *, fog: bool = False, mud: bool = False) -> tuple[int, int]:
    """(kind, sum) of a complete formation, wildcards at their best, as plain numbers (R9, R10, R20-R25).

    The kind is the :class:`FormationKind` value, -1 under Fog: what :func:`evaluate` gives
    (it uses this), without building a Formation.

    >>> strength(parse_cards("alexander g5 g6")), strength(parse_cards("r10 b10 g9"), fog=True)
    ((4, 18), (-1, 29))
    """
    return side_strength(summarise(tuple(cards)), 4 if mud else 3, fog)


@dataclass(frozen=True)
class Strength:
    """What decides a flag: the kind (None under Fog, R24) and the sum (R10)."""

    kind: FormationKind | None
    total: int

    @property
    def key(self) -> tuple[int, int]:
        return (-1 if self.kind is None else int(self.kind), self.total)

    def __lt__(self, other: Strength) -> bool:
        return self.key < other.key

    def __le__(self, other: Strength) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Strength) -> bool:
        return self.key > other.key

    def __ge__(self, other: Strength) -> bool:
        return self.key >= other.key


class Formation(NamedTuple):
    """A complete formation, judged (R9, R10).

    ``wild`` says what each morale card was taken to be, as a troop.  Under Fog
    ``kind`` is None: only ``total`` counts (R24).

    A NamedTuple, as the proof's steps are: every proof judges each complete side, and the tuple is
    made at once where a frozen dataclass sets its six fields one call each (about twice the cost).
    """

    cards: tuple[Card, ...]
    kind: FormationKind | None
    total: int
    wild: tuple[tuple[Tactic, Troop], ...] = ()
    fog: bool = False
    mud: bool = False

    @property
    def strength(self) -> Strength:
        return Strength(self.kind, self.total)

    @property
    def resolved(self) -> tuple[Troop, ...]:
        """The cards as troops, wildcards replaced by what they stand for."""
        table = dict(self.wild)
        out = []
        for card in self.cards:
            out.append(card if isinstance(card, Troop) else table[card])
        return tuple(out)

    def __repr__(self) -> str:
        kind = "fog" if self.kind is None else self.kind.key
        cards = " ".join(c.notation for c in self.cards)
        return f"<Formation {cards}: {kind} {self.total}>"

    def _repr_svg_(self) -> str:
        """The cards and what they make, as SVG for Jupyter (lazy import: the core never imports rendering)."""
        from ..render.svg import formation_svg

        return formation_svg(self)


@dataclass(frozen=True)
class Shape:
    """One concrete way to make a kind: colour and/or value, or a run start.

    Wedge: colour + start; Skirmish Line: start; Phalanx: value; Battalion:
    colour; Host (and Fog sums): neither.
    """

    kind: FormationKind | None
    colour: Colour | None = None
    value: int | None = None
    start: int | None = None

    def run(self, size: int) -> range:
        assert self.start is not None
        return range(self.start, self.start + size)


def shapes(kind: FormationKind | None, size: int) -> tuple[Shape, ...]:
    """Every shape of a kind, strongest first (ties in any fixed order).

    >>> [s.start for s in shapes(FormationKind.SKIRMISH, 4)]
    [7, 6, 5, 4, 3, 2, 1]
    """
    return _shapes(kind, size)


@functools.cache
def _shapes(kind: FormationKind | None, size: int) -> tuple[Shape, ...]:
    if kind is FormationKind.WEDGE:
        return tuple(Shape(kind, colour=colour, start=start) for start in range(11 - size, 0, -1) for colour in Colour)
    if kind is FormationKind.PHALANX:
        return tuple(Shape(kind, value=value) for value in range(10, 0, -1))
    if kind is FormationKind.BATTALION:
        return tuple(Shape(kind, colour=colour) for colour in Colour)
    if kind is FormationKind.SKIRMISH:
        return tuple(Shape(kind, start=start) for start in range(11 - size, 0, -1))
    return (Shape(kind),)


@dataclass(frozen=True)
class ShapePlan:
    """How a side could complete a shape.

    ``wild`` is what the morale cards stand for; ``exact`` lists troops that
    must come from the deck (Wedge); ``values`` lists values that must each be
    filled by a troop of any colour (Skirmish Line); ``count`` troops of
    ``colour`` / ``value`` / anything are needed for Battalion, Phalanx, Host.
    ``base`` is the sum without the open slots that are free to choose
    (Battalion and Host add the best troops found).
    """

    shape: Shape
    wild: tuple[tuple[Tactic, Troop], ...]
    exact: tuple[Troop, ...] = ()
    values: tuple[int, ...] = ()
    count: int = 0
    base: int = 0


def _split(cards: Iterable[Card]) -> tuple[list[Troop], list[Tactic]]:
    troops: list[Troop] = []
    wilds: list[Tactic] = []
    for card in cards:
        if isinstance(card, Troop):
            troops.append(card)
        elif card in WILD_MASK:
            wilds.append(card)
        else:
            raise FormationError(f"{card.notation} is not a formation card (only troops and morale cards are)")
    return troops, wilds


def _spare_colour(troops: Sequence[Troop], value: int | None = None) -> Colour:
    """A colour for a wildcard whose colour does not matter: one not in use."""
    used = {t.colour for t in troops if value is None or t.value == value}
    for colour in Colour:
        if colour not in used:
            return colour
    return Colour.RED


def _best_wild_value(card: Tactic) -> int:
    return max(_WILD_VALUES[card])


def _run_plans(shape: Shape, troops: Sequence[Troop], wilds: Sequence[Tactic], size: int) -> Iterator[ShapePlan]:
    """Plans for a Wedge or Skirmish Line: wildcards take some missing values."""
    run = shape.run(size)
    values = [t.value for t in troops]
    if len(set(values)) != len(values) or any(v not in run for v in values):
        return
    if shape.colour is not None and any(t.colour is not shape.colour for t in troops):
        return
    missing = [v for v in run if v not in values]
    colour = shape.colour if shape.colour is not None else _spare_colour(troops)
    seen: set[tuple[int, ...]] = set()
    for chosen in itertools.permutations(missing, len(wilds)):
        if any(v not in _WILD_VALUES[w] for v, w in zip(chosen, wilds)):
            continue
        rest = tuple(v for v in missing if v not in chosen)
        key = tuple(sorted(chosen))
        if key in seen:
            continue
        seen.add(key)
        wild = tuple((w, troop(colour, v)) for w, v in zip(wilds, chosen))
        if shape.colour is not None:
            yield ShapePlan(shape, wild, exact=tuple(troop(shape.colour, v) for v in rest), base=sum(run))
        else:
            yield ShapePlan(shape, wild, values=rest, base=sum(run))


def plan_shape(shape: Shape, cards: Iterable[Card], size: int) -> list[ShapePlan]:
    """All ways the cards could complete ``shape`` (empty if their cards rule it out).

    The cards are what a side holds so far; the missing ``size - len(cards)``
    slots are described by each plan.

    >>> [p.exact for p in plan_shape(Shape(FormationKind.WEDGE, Colour.BLUE, start=6), parse_cards("b8"), 3)]
    [(b6, b7)]
    """
    troops, wilds = _split(cards)
    open_slots = size - len(troops) - len(wilds)
    if open_slots < 0:
        raise FormationError(f"{len(troops) + len(wilds)} cards do not fit a formation of {size}")
    kind = shape.kind
    if kind in (FormationKind.WEDGE, FormationKind.SKIRMISH):
        return list(_run_plans(shape, troops, wilds, size))
    if kind is FormationKind.PHALANX:
        v = shape.value
        assert v is not None
        if any(t.value != v for t in troops) or any(v not in _WILD_VALUES[w] for w in wilds):
            return []
        phalanx_wild: list[tuple[Tactic, Troop]] = []
        used = list(troops)
        for w in wilds:
            stand_in = troop(_spare_colour(used, v), v)
            used.append(stand_in)
            phalanx_wild.append((w, stand_in))
        return [ShapePlan(shape, tuple(phalanx_wild), count=open_slots, base=v * size)]
    if kind is FormationKind.BATTALION:
        colour = shape.colour
        assert colour is not None
        if any(t.colour is not colour for t in troops):
            return []
        wild = tuple((w, troop(colour, _best_wild_value(w))) for w in wilds)
        base = sum(t.value for t in troops) + sum(t.value for _, t in wild)
        return [ShapePlan(shape, wild, count=open_slots, base=base)]
    # Host, or a sum under Fog: anything goes
    wild_list = []
    used = list(troops)
    for w in wilds:
        stand_in = troop(_spare_colour(used), _best_wild_value(w))
        used.append(stand_in)
        wild_list.append((w, stand_in))
    base = sum(t.value for t in troops) + sum(t.value for _, t in wild_list)
    return [ShapePlan(shape, tuple(wild_list), count=open_slots, base=base)]


class ShapeFilter:
    """A quick test that the cards already on a side do not rule a shape out.

    It rejects only shapes that :func:`plan_shape` would reject too (wrong colour, value
    outside the run, a different value), without building any plan: a cheap filter in
    front of it (the claim search, :func:`evaluate` with wildcards).  :meth:`open_shapes` lists
    the shapes of a kind it lets through; calling it on one shape asks whether that shape is
    among them.

    >>> fits = ShapeFilter(parse_cards("b8 alexander"), 3)
    >>> [s.start for s in shapes(FormationKind.WEDGE, 3) if fits(s)]
    [8, 7, 6]
    >>> fits(Shape(FormationKind.PHALANX, value=8)), fits(Shape(FormationKind.BATTALION, Colour.RED))
    (True, False)
    """

    def __init__(self, cards: Iterable[Card], size: int) -> None:
        cards = tuple(cards)
        self.size = size
        troops = [c for c in cards if isinstance(c, Troop)]
        # every card must lie in the run: the troops' values, and the values each wildcard
        # allows (a Companion is an 8, Shield Bearers 1-3: R21, R22), bound where a run may start
        spans = [(t.value, t.value) for t in troops]
        spans += [(min(_WILD_VALUES[c]), max(_WILD_VALUES[c])) for c in cards if not isinstance(c, Troop)]
        self.first_start = max((low - size + 1 for low, _ in spans), default=1)
        self.last_start = min((high for _, high in spans), default=10)
        colours = {t.colour for t in troops}
        self.colour = next(iter(colours)) if len(colours) == 1 else None
        self.any_colour = not colours
        values = {t.value for t in troops}
        allowed = set(range(1, 11)) if len(values) <= 1 else set()
        allowed &= values or allowed
        for card in cards:
            if not isinstance(card, Troop):
                allowed &= set(_WILD_VALUES[card])
        self.phalanx_values = frozenset(allowed)

    def open_shapes(self, kind: FormationKind | None) -> tuple[Shape, ...]:
        """The shapes of ``kind`` this filter lets through, strongest first, in the order of
        :func:`shapes`: the starts of a run picked as one slice, colours and values by the cards.

        >>> fits = ShapeFilter(parse_cards("b8 alexander"), 3)
        >>> [s.start for s in fits.open_shapes(FormationKind.WEDGE)]
        [8, 7, 6]
        """
        size = self.size
        if kind is FormationKind.WEDGE or kind is FormationKind.SKIRMISH:
            # shapes() lists a run's starts highest first (a Wedge's six colours at each), so the
            # starts let through are one slice of the list
            every = _shapes(kind, size)
            per = 6 if kind is FormationKind.WEDGE else 1
            high = min(self.last_start, 11 - size)
            low = max(self.first_start, 1)
            if high < low:
                return ()
            chosen = every[(11 - size - high) * per : (11 - size - low + 1) * per]
            if kind is FormationKind.SKIRMISH or self.any_colour:
                return chosen
            colour = self.colour
            return tuple(s for s in chosen if s.colour is colour)
        if kind is FormationKind.PHALANX:
            allowed = self.phalanx_values
            return tuple(s for s in _shapes(kind, size) if s.value in allowed)
        if kind is FormationKind.BATTALION:
            if self.any_colour:
                return _shapes(kind, size)
            colour = self.colour
            return tuple(s for s in _shapes(kind, size) if s.colour is colour)
        return _shapes(kind, size)

    def __call__(self, shape: Shape) -> bool:
        return shape in self.open_shapes(shape.kind)


def evaluate(cards: Iterable[Card] | str, *, fog: bool = False, mud: bool = False) -> Formation:
    """Judge a complete formation, wildcards at their best (R9, R10, R20-R25).

    >>> evaluate("companion shield alexander")
    <Formation companion shield alexander: battalion 21>
    >>> evaluate("r10 b10 g9", fog=True)
    <Formation r10 b10 g9: fog 29>
    >>> evaluate("r1 r2 r3 alexander", mud=True).kind
    <FormationKind.WEDGE: 4>
    """
    cards = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    return _evaluate(cards, fog, mud)


_KINDS: tuple[FormationKind | None, ...] = (*FormationKind, None)  # by kind value, -1 for Fog


def _check(cards: tuple[Card, ...], mud: bool) -> None:
    """Raise :class:`FormationError` unless ``cards`` are a formation: troops and morale cards, each tactic once."""
    size = formation_size(mud)
    _, wilds = _split(cards)
    if len(cards) != size:
        where = "a Mud flag" if mud else "a flag"
        raise FormationError(
            f"a formation at {where} has {size} cards, not {len(cards)}: {' '.join(c.notation for c in cards)}"
        )
    if len(set(wilds)) != len(wilds):
        raise FormationError("the same tactics card appears twice in one formation")


@functools.lru_cache(maxsize=1 << 14)
def _evaluate(cards: tuple[Card, ...], fog: bool, mud: bool) -> Formation:
    """:func:`evaluate` of a tuple of cards, remembered: a Formation is immutable, and the claim
    proofs judge the same formations again and again (errors are raised each time, never kept).

    The kind and sum are :func:`side_strength`'s; with morale cards, what each stands for is the
    first plan of the strongest shape of that kind (:func:`plan_shape`)."""
    size = formation_size(mud)
    side = summarise(cards)
    if not (side[S_FILLED] == len(cards) == size and (len(side[S_WILDS]) < 2 or not _repeated_tactic(cards))):
        _check(cards, mud)  # raises FormationError
    rank, total = side_strength(side, size, fog)
    kind = _KINDS[rank]
    if not side[S_WILDS]:
        return Formation(cards, kind, total, (), fog, mud)
    return _evaluate_wild(cards, kind, fog, mud)


def judged(cards: tuple[Card, ...], wild: bool, rank: int, total: int, fog: bool, mud: bool) -> Formation:
    """``evaluate(cards, fog=fog, mud=mud)`` for cards already judged by :func:`side_strength`
    (``rank``, ``total``; ``wild``: whether a morale card is among them): nothing is worked out
    again (the claim proof says the completion the decision found).  Only morale cards need a
    search: what each stands for."""
    if not wild:
        return Formation(cards, _KINDS[rank], total, (), fog, mud)
    return _evaluate_wild(cards, _KINDS[rank], fog, mud)


def judge(cards: tuple[Card, ...], size: int, fog: bool, mud: bool) -> tuple[int, int, Formation]:
    """A complete side's (kind, sum) as :func:`side_strength` gives it (kind -1 under Fog) and its
    :class:`Formation`, as :func:`judged` builds it: ``summarise``, ``side_strength`` and ``judged`` in one.

    A side of troops alone (the commonest) is read in one loop, with no summary; one with a
    morale card takes the three steps.

    >>> from battleline_lab.core.cards import parse_cards
    >>> judge(parse_cards("r3 r5 r4"), 3, False, False)[:2], judge(parse_cards("r3 b3 g3"), 3, True, False)[:2]
    ((4, 12), (-1, 9))
    """
    if size == 3 and len(cards) == 3:
        # three troops, the commonest, read without a loop (the same mask, sum and colour test)
        a, b, c = cards
        if type(a) is Troop and type(b) is Troop and type(c) is Troop:
            va, vb, vc = a.value, b.value, c.value
            values = 1 << va - 1 | 1 << vb - 1 | 1 << vc - 1
            total = va + vb + vc
            rank = -1 if fog else _troops_kind(values, values.bit_count() == 3, a.colour is b.colour is c.colour, 3)
            return rank, total, Formation(cards, _KINDS[rank], total, (), fog, mud)
    values = total = 0
    colour = -1
    distinct = True
    for card in cards:
        if type(card) is not Troop:
            side = summarise(cards)
            rank, total = side_strength(side, size, fog)
            return rank, total, judged(cards, bool(side[S_WILDS]), rank, total, fog, mud)
        v = card.value
        bit = 1 << (v - 1)
        if values & bit:
            distinct = False
        values |= bit
        total += v
        offset = card.colour.offset
        if colour != offset:
            colour = offset if colour == -1 else -2
    if len(cards) != size:
        side_strength(summarise(cards), size, fog)  # raises FormationError
    rank = -1 if fog else _troops_kind(values, distinct, colour >= 0, size)
    return rank, total, Formation(cards, _KINDS[rank], total, (), fog, mud)


@functools.lru_cache(maxsize=8192)
def _evaluate_wild(cards: tuple[Card, ...], kind: FormationKind | None, fog: bool, mud: bool) -> Formation:
    """What the wildcards stand for: the first plan of the strongest shape of ``kind``, remembered."""
    size = formation_size(mud)
    # only the shapes the cards leave open: the others plan_shape would find no way to make
    for shape in ShapeFilter(cards, size).open_shapes(kind):
        for plan in plan_shape(shape, cards, size):
            return Formation(cards, kind, plan.base, plan.wild, fog, mud)
    raise AssertionError("side_strength names a kind the cards can make")  # pragma: no cover
