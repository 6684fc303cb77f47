"""A naive, obviously-correct reference for formations and claims, to test the engine against.

Nothing here is clever, and nothing is shared with the engine: it imports only the
card and position *data types* (never ``formations`` or ``claims``) and re-derives
every rule straight from RULES.md:

* :func:`classify` reads R9 literally on concrete troops.
* :func:`best_strength` tries every concrete substitution of the wildcards (R20-R23):
  a Leader is any of the 60 troop identities, Companion Cavalry any colour of 8,
  Shield Bearers any colour of 1, 2 or 3 -- even cards visible elsewhere (R23).
  Fog compares sums only (R24); Mud makes formations of 4 (R25).
* :func:`reference_claim` decides R12 by enumerating *every* combination of unseen
  troops (R13) that completes the opponent's side (``itertools.combinations``), with
  the tie rule R11.

It is slow on purpose: the benchmark measures the engine against it.

>>> from battleline_lab.core.cards import parse_cards
>>> best_strength(parse_cards("r3 r4 r5"))
(4, 12)
>>> best_strength(parse_cards("alexander g5 g6"))
(4, 18)
>>> best_strength(parse_cards("r10 b10 g9"), fog=True)
(-1, 29)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from battleline_lab.core.cards import Card, Colour, Tactic, Troop
from battleline_lab.core.position import Position, Side

__all__ = [
    "FOG_ONLY",
    "HOST",
    "SKIRMISH",
    "BATTALION",
    "PHALANX",
    "WEDGE",
    "KIND_NAMES",
    "best_strength",
    "beats_with",
    "classify",
    "completions",
    "reference_claim",
    "substitutions",
    "unseen",
    "wild_options",
]

# Kinds as plain ranks (R9, strongest last); under Fog the "kind" is FOG_ONLY (R24).
FOG_ONLY, HOST, SKIRMISH, BATTALION, PHALANX, WEDGE = -1, 0, 1, 2, 3, 4
KIND_NAMES = {HOST: "host", SKIRMISH: "skirmish", BATTALION: "battalion", PHALANX: "phalanx", WEDGE: "wedge"}

Strength = tuple[int, int]  # (kind rank, sum): compared kind first, then sum (R10)

_TROOPS = tuple(Troop(c, v) for c in Colour for v in range(1, 11))
_MORALE = (Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD)


def wild_options(card: Tactic) -> tuple[Troop, ...]:
    """Every troop a morale card may stand for (R20-R23).

    >>> len(wild_options(Tactic.ALEXANDER)), len(wild_options(Tactic.COMPANION)), len(wild_options(Tactic.SHIELD))
    (60, 6, 18)
    """
    if card in (Tactic.ALEXANDER, Tactic.DARIUS):
        return _TROOPS
    if card is Tactic.COMPANION:
        return tuple(t for t in _TROOPS if t.value == 8)
    if card is Tactic.SHIELD:
        return tuple(t for t in _TROOPS if t.value in (1, 2, 3))
    raise ValueError(f"{card} is not a morale card")


def classify(troops: Sequence[Troop]) -> int:
    """The kind of concrete troops, read straight from R9 (strongest test first).

    >>> from battleline_lab.core.cards import parse_cards
    >>> [KIND_NAMES[classify(parse_cards(s))] for s in ("g7 g9 g8", "r8 b8 y8", "r1 r5 r9", "r4 b5 g6", "r1 b5 g9")]
    ['wedge', 'phalanx', 'battalion', 'skirmish', 'host']
    """
    values = sorted(t.value for t in troops)
    same_colour = len({t.colour for t in troops}) == 1
    same_value = len(set(values)) == 1
    consecutive = all(b == a + 1 for a, b in zip(values, values[1:]))
    if same_colour and consecutive:
        return WEDGE
    if same_value:
        return PHALANX
    if same_colour:
        return BATTALION
    if consecutive:
        return SKIRMISH
    return HOST


def strength_of(troops: Sequence[Troop], fog: bool = False) -> Strength:
    """Kind and sum of concrete troops; under Fog only the sum (R10, R24)."""
    total = sum(t.value for t in troops)
    return (FOG_ONLY, total) if fog else (classify(troops), total)


def _is_formation_card(card: Card) -> bool:
    return isinstance(card, Troop) or card in _MORALE


def substitutions(cards: Sequence[Card]) -> Iterator[tuple[Troop, ...]]:
    """Every concrete troop tuple the cards can stand for (wildcards replaced, R20-R23)."""
    choices = [(c,) if isinstance(c, Troop) else wild_options(c) for c in cards]
    return itertools.product(*choices)


def best_strength(cards: Sequence[Card], *, fog: bool = False, mud: bool = False) -> Strength:
    """The best (kind, sum) of a complete formation, by brute force over substitutions."""
    size = 4 if mud else 3
    if len(cards) != size:
        raise ValueError(f"a formation has {size} cards here, not {len(cards)}")
    return max(strength_of(troops, fog) for troops in substitutions(cards))


def beats_with(cards: Sequence[Card], target: Strength, *, fog: bool = False) -> tuple[Troop, ...] | None:
    """Some substitution of ``cards`` whose strength is above ``target``, else None."""
    for troops in substitutions(cards):
        if strength_of(troops, fog) > target:
            return troops
    return None


def unseen(position: Position) -> list[Troop]:
    """The 60 troops minus every face-up card: all flags (claimed too) and both discards (R13).

    Hands are not looked at: a hand is unseen (R13).
    """
    visible: set[Card] = set()
    for state in position.flags:
        visible.update(state.you)
        visible.update(state.opponent)
    visible.update(position.discards_you)
    visible.update(position.discards_opponent)
    return [t for t in _TROOPS if t not in visible]


def completions(position: Position, flag: int, side: Side) -> Iterator[tuple[Troop, ...]]:
    """Every set of unseen troops that fills ``side``'s open slots at ``flag`` (R12, R13)."""
    state = position.flags[flag - 1]
    cards = [c for c in (state.you if side is Side.YOU else state.opponent) if _is_formation_card(c)]
    size = 4 if Tactic.MUD in state.you + state.opponent else 3
    return itertools.combinations(unseen(position), size - len(cards))


def reference_claim(position: Position, flag: int, side: Side) -> bool:
    """Can ``side`` claim ``flag`` now?  R11-R13 by exhaustive enumeration.

    Raises ValueError for a complete tie without ``first_complete``.
    """
    state = position.flags[flag - 1]
    if state.claimed_by is not None:
        return False  # R15
    environment = state.you + state.opponent
    fog, mud = Tactic.FOG in environment, Tactic.MUD in environment
    size = 4 if mud else 3
    mine = [c for c in (state.you if side is Side.YOU else state.opponent) if _is_formation_card(c)]
    theirs = [c for c in (state.opponent if side is Side.YOU else state.you) if _is_formation_card(c)]
    if len(mine) < size:
        return False  # R12 (a): a complete formation first
    target = best_strength(mine, fog=fog, mud=mud)
    if len(theirs) == size:  # R12: compare complete formations (R10), ties by R11
        other = best_strength(theirs, fog=fog, mud=mud)
        if target != other:
            return target > other
        if state.first_complete is None:
            raise ValueError("tie without first_complete")
        return state.first_complete is side
    # R12 (b): no completion from unseen troops may beat us; a tie goes to us (we completed first, R11)
    for fill in completions(position, flag, side.other):
        if beats_with(theirs + list(fill), target, fog=fog) is not None:
            return False
    return True
