"""Cards of Battle Line: the 60 troops (R1) and the 10 tactics (R2), as value types.

Every card has a compact notation used everywhere in the project (YAML files,
tests, reprs): a troop is its colour letter and value (``r3``, ``b10``), a
tactics card is its name (``alexander``, ``fog``).  :func:`parse_card` reads the
notation case-insensitively and :class:`CardNotationError` names a bad token and
suggests the nearest valid one.

>>> parse_card("B10")
b10
>>> parse_card("alexander").is_wild
True
>>> parse_card("r11")
Traceback (most recent call last):
...
battleline_lab.core.cards.CardNotationError: unknown card 'r11': values run from 1 to 10 (did you mean 'r10'?)
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

__all__ = [
    "ALL_CARDS",
    "ALL_TACTICS",
    "ALL_TROOPS",
    "Card",
    "CardNotationError",
    "Colour",
    "Tactic",
    "TacticGroup",
    "Troop",
    "card_sort_key",
    "format_cards",
    "parse_card",
    "parse_cards",
    "troop",
    "VALUES",
]

VALUES = range(1, 11)


class Colour(enum.Enum):
    """The six troop colours (R1), in the order the rules list them."""

    RED = "r"
    ORANGE = "o"
    YELLOW = "y"
    GREEN = "g"
    BLUE = "b"
    PURPLE = "p"

    _value_: str
    offset: int  # index * 10, set below the class

    __hash__ = object.__hash__  # members are singletons: identity hashing is fast (Enum's hashes the name)

    @property
    def letter(self) -> str:
        return self._value_

    @property
    def index(self) -> int:
        return self.offset // 10

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


_COLOUR_INDEX = {c: i for i, c in enumerate(Colour)}
for _colour, _index in _COLOUR_INDEX.items():
    _colour.offset = _index * 10  # a plain attribute: read in hot loops without a property call
_COLOUR_BY_LETTER = {c.value: c for c in Colour}


@dataclass(frozen=True, slots=True)
class Troop:
    """A troop card (部队牌): a colour and a value 1-10 (R1).

    >>> Troop(Colour.BLUE, 8)
    b8
    >>> Troop(Colour.BLUE, 8).name
    'Heavy Cavalry'
    """

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise TypeError(f"colour must be a Colour, not {self.colour!r}")
        if not isinstance(self.value, int) or not 1 <= self.value <= 10:
            raise ValueError(f"troop value must be 1-10, not {self.value!r}")

    @property
    def bit(self) -> int:
        """The troop's bit in a 60-bit set of troops, ``1 << index`` (the claim engine's sets of troops)."""
        return 1 << (self.colour.offset + self.value - 1)

    def __hash__(self) -> int:
        # the dense index: cheaper than hashing (Colour, int), and troops are hashed a lot by the claim search
        return self.colour.offset + self.value

    # ordering by (colour index, value) rather than enum value letters
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Troop):
            return NotImplemented
        return (self.colour.index, self.value) < (other.colour.index, other.value)

    @property
    def notation(self) -> str:
        return f"{self.colour.letter}{self.value}"

    @property
    def name(self) -> str:
        """The English troop name for the value (R1)."""
        return TROOP_NAMES[self.value]

    @property
    def is_troop(self) -> bool:
        return True

    @property
    def is_wild(self) -> bool:
        return False

    @property
    def is_formation_card(self) -> bool:
        """True for cards that fill a slot of a formation (troops and morale)."""
        return True

    @property
    def index(self) -> int:
        """0-59, colour-major: a dense index for bit sets."""
        return self.colour.offset + self.value - 1

    def __repr__(self) -> str:
        return self.notation

    def __str__(self) -> str:
        return self.notation


TROOP_NAMES: dict[int, str] = {
    10: "Elephants",
    9: "Chariots",
    8: "Heavy Cavalry",
    7: "Light Cavalry",
    6: "Hypaspists",
    5: "Phalangists",
    4: "Hoplites",
    3: "Javelineers",
    2: "Peltasts",
    1: "Skirmishers",
}


class TacticGroup(enum.Enum):
    """The three groups of tactics cards (R2)."""

    MORALE = "morale"
    ENVIRONMENT = "environment"
    GUILE = "guile"


class Tactic(enum.Enum):
    """The ten tactics cards (战术牌, R2), named by their notation."""

    ALEXANDER = "alexander"
    DARIUS = "darius"
    COMPANION = "companion"
    SHIELD = "shield"
    FOG = "fog"
    MUD = "mud"
    SCOUT = "scout"
    REDEPLOY = "redeploy"
    DESERTER = "deserter"
    TRAITOR = "traitor"

    __hash__ = object.__hash__  # members are singletons: identity hashing is fast (Enum's hashes the name)

    @property
    def notation(self) -> str:
        return self.value

    @property
    def group(self) -> TacticGroup:
        return _TACTIC_GROUPS[self]

    @property
    def is_troop(self) -> bool:
        return False

    @property
    def is_leader(self) -> bool:
        """Alexander and Darius, the two Leaders (R20)."""
        return self in (Tactic.ALEXANDER, Tactic.DARIUS)

    @property
    def is_wild(self) -> bool:
        """Morale cards stand for a troop in a formation (R20-R22)."""
        return self.group is TacticGroup.MORALE

    @property
    def is_formation_card(self) -> bool:
        return self.is_wild

    @property
    def is_environment(self) -> bool:
        return self.group is TacticGroup.ENVIRONMENT

    @property
    def wild_values(self) -> tuple[int, ...]:
        """The values a morale card may take (R20-R22); empty for other tactics."""
        if self.is_leader:
            return tuple(VALUES)
        if self is Tactic.COMPANION:
            return (8,)
        if self is Tactic.SHIELD:
            return (1, 2, 3)
        return ()

    @property
    def name_en(self) -> str:
        return _TACTIC_NAMES[self]

    def __repr__(self) -> str:
        return self.value

    def __str__(self) -> str:
        return self.value


_TACTIC_GROUPS = {
    Tactic.ALEXANDER: TacticGroup.MORALE,
    Tactic.DARIUS: TacticGroup.MORALE,
    Tactic.COMPANION: TacticGroup.MORALE,
    Tactic.SHIELD: TacticGroup.MORALE,
    Tactic.FOG: TacticGroup.ENVIRONMENT,
    Tactic.MUD: TacticGroup.ENVIRONMENT,
    Tactic.SCOUT: TacticGroup.GUILE,
    Tactic.REDEPLOY: TacticGroup.GUILE,
    Tactic.DESERTER: TacticGroup.GUILE,
    Tactic.TRAITOR: TacticGroup.GUILE,
}

_TACTIC_NAMES = {
    Tactic.ALEXANDER: "Alexander",
    Tactic.DARIUS: "Darius",
    Tactic.COMPANION: "Companion Cavalry",
    Tactic.SHIELD: "Shield Bearers",
    Tactic.FOG: "Fog",
    Tactic.MUD: "Mud",
    Tactic.SCOUT: "Scout",
    Tactic.REDEPLOY: "Redeploy",
    Tactic.DESERTER: "Deserter",
    Tactic.TRAITOR: "Traitor",
}

Card: TypeAlias = Troop | Tactic

ALL_TROOPS: tuple[Troop, ...] = tuple(Troop(c, v) for c in Colour for v in VALUES)
ALL_TACTICS: tuple[Tactic, ...] = tuple(Tactic)
ALL_CARDS: tuple[Card, ...] = ALL_TROOPS + ALL_TACTICS


def troop(colour: Colour, value: int) -> Troop:
    """The troop of that colour and value, without building a new object (fast; for hot loops).

    >>> troop(Colour.BLUE, 8) is troop(Colour.BLUE, 8) == Troop(Colour.BLUE, 8)
    True
    """
    if not 1 <= value <= 10:
        raise ValueError(f"troop value must be 1-10, not {value!r}")
    return ALL_TROOPS[_COLOUR_INDEX[colour] * 10 + value - 1]


_BY_NOTATION: dict[str, Card] = {c.notation: c for c in ALL_CARDS}


class CardNotationError(ValueError):
    """A token that is not a card in the notation; the message repeats the token.

    ``reason`` (``"value"``, ``"colour"``, ``"not_text"`` or None) and ``suggestion`` (the nearest
    valid notation) let a layer above say the same in another language.
    """

    def __init__(self, token: str, message: str, *, reason: str | None = None, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.token = token
        self.reason = reason
        self.suggestion = suggestion


_COLOUR_BY_NAME = {c.name.lower(): c for c in Colour}


def _suggest(token: str) -> str | None:
    """The nearest valid notation for a bad token, or None if nothing is close.

    >>> [_suggest(t) for t in ("r11", "b0", "10r", "red3", "Blue 8", "alexandr", "zzz")]
    ['r10', 'b1', 'r10', 'r3', 'b8', 'alexander', None]
    """
    low = "".join(token.lower().split())
    # colour + value, written in any order, with a letter or a colour name: clamp the value to 1-10
    match = re.fullmatch(r"([a-z]+)(\d+)|(\d+)([a-z]+)", low)
    if match:
        word = match.group(1) or match.group(4)
        digits = match.group(2) or match.group(3)
        colour = _COLOUR_BY_LETTER.get(word) or _COLOUR_BY_NAME.get(word)
        if colour is not None:
            value = int(digits) if len(digits) <= 3 else 10  # no int() of a 5,000-digit token
            return f"{colour.letter}{min(max(value, 1), 10)}"
    matches = difflib.get_close_matches(low, list(_BY_NOTATION), n=1, cutoff=0.5)
    return matches[0] if matches else None


def parse_card(token: str) -> Card:
    """Read one card from its notation (case-insensitive).

    >>> parse_card("g7"), parse_card("Companion")
    (g7, companion)
    """
    if not isinstance(token, str):
        raise CardNotationError(str(token), f"a card must be written as text, not {token!r}", reason="not_text")
    key = token.strip().lower()
    card = _BY_NOTATION.get(key)
    if card is not None:
        return card
    reason, code = "", None
    if key[:1] in _COLOUR_BY_LETTER and key[1:].isdigit():
        reason, code = ": values run from 1 to 10", "value"
    elif key[:1].isalpha() and key[1:].isdigit():
        reason, code = ": colours are r o y g b p (red, orange, yellow, green, blue, purple)", "colour"
    suggestion = _suggest(key)
    hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
    raise CardNotationError(token, f"unknown card {token!r}{reason}{hint}", reason=code, suggestion=suggestion)


def parse_cards(tokens: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards: a whitespace/comma separated string or an iterable.

    >>> parse_cards("r3 r4, r5")
    (r3, r4, r5)
    """
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return tuple(parse_card(t) for t in tokens)


def card_sort_key(card: Card) -> tuple[int, int, int]:
    """Troops first (by colour, then value), tactics after in R2 order."""
    if isinstance(card, Troop):
        return (0, card.colour.index, card.value)
    return (1, ALL_TACTICS.index(card), 0)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, space separated: ``"r3 r4 r5"``."""
    return " ".join(c.notation for c in cards)
