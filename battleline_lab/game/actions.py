"""Game actions as value types with a readable notation.

Every action a player can take is a small frozen value whose ``notation`` is
what game records store and what :func:`parse_action` reads back:

===========================  ===============================================
``play r5 3``                a troop, morale or environment card to flag 3 (R6, R20-R25)
``scout``                    play Scout (R27)
``redeploy r5 7``            move your r5 to flag 7; ``redeploy fog discard`` (R28)
``deserter b8``              discard the opponent's b8 (R29)
``traitor b8 6``             take the opponent's b8 to your side of flag 6 (R30)
``draw troops``              draw from a deck (R5; also the Scout draws, R27)
``return r5``                put a card back on its deck after a Scout (R27)
``discard r5``               the discard when Mud leaves a flag (R26)
``claim 5``                  claim flag 5 (R12, R14)
``end``                      stop claiming
``pass``                     play no card (R7)
===========================  ===============================================

>>> parse_action("play B10 3")
PlayCard(card=b10, flag=3)
>>> parse_action("redeploy fog discard").notation
'redeploy fog discard'
>>> [a.notation for a in parse_actions("play r5 3; claim 5; draw troops")]
['play r5 3', 'claim 5', 'draw troops']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ..core.cards import Card, CardNotationError, Tactic, Troop, parse_card
from .state import Deck

__all__ = [
    "Action",
    "ActionNotationError",
    "Claim",
    "Deserter",
    "Draw",
    "EndClaims",
    "MudDiscard",
    "Pass",
    "PlayCard",
    "PlayScout",
    "Redeploy",
    "ReturnCard",
    "Traitor",
    "describe",
    "parse_action",
    "parse_actions",
]


class ActionNotationError(ValueError):
    """Text that is not an action in the notation; ``key``/``params`` name the message."""

    def __init__(self, text: str, key: str, **params: object) -> None:
        from ..text.messages import message

        self.text = text
        self.key = key
        self.params = params
        super().__init__(message(f"game.notation.{key}", text=text, **params))


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a troop, morale or environment card from hand to a flag (R6, R20-R25)."""

    card: Card
    flag: int

    @property
    def notation(self) -> str:
        return f"play {self.card.notation} {self.flag}"


@dataclass(frozen=True, slots=True)
class PlayScout:
    """Play Scout: three draws, then two returns (R27)."""

    @property
    def card(self) -> Tactic:
        return Tactic.SCOUT

    @property
    def notation(self) -> str:
        return "scout"


@dataclass(frozen=True, slots=True)
class Redeploy:
    """Play Redeploy: move one of your cards to another flag (``to``) or discard it (``to=None``), R28."""

    target: Card
    to: int | None

    @property
    def card(self) -> Tactic:
        return Tactic.REDEPLOY

    @property
    def notation(self) -> str:
        return f"redeploy {self.target.notation} {'discard' if self.to is None else self.to}"


@dataclass(frozen=True, slots=True)
class Deserter:
    """Play Deserter: discard one card from the opponent's side of an unclaimed flag (R29)."""

    target: Card

    @property
    def card(self) -> Tactic:
        return Tactic.DESERTER

    @property
    def notation(self) -> str:
        return f"deserter {self.target.notation}"


@dataclass(frozen=True, slots=True)
class Traitor:
    """Play Traitor: take an opponent's troop to a free slot on your side of flag ``to`` (R30)."""

    target: Troop
    to: int

    @property
    def card(self) -> Tactic:
        return Tactic.TRAITOR

    @property
    def notation(self) -> str:
        return f"traitor {self.target.notation} {self.to}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of a deck (R5; each of the Scout's draws too, R27)."""

    deck: Deck

    @property
    def notation(self) -> str:
        return f"draw {self.deck.value}"


@dataclass(frozen=True, slots=True)
class ReturnCard:
    """After a Scout, put a card from hand face down on top of its own deck (R27)."""

    card: Card

    @property
    def notation(self) -> str:
        return f"return {self.card.notation}"


@dataclass(frozen=True, slots=True)
class MudDiscard:
    """Discard one of your formation cards from the flag Mud just left (R26)."""

    card: Card

    @property
    def notation(self) -> str:
        return f"discard {self.card.notation}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim a flag you can prove (R12) at the time the rules allow (R14)."""

    flag: int

    @property
    def notation(self) -> str:
        return f"claim {self.flag}"


@dataclass(frozen=True, slots=True)
class EndClaims:
    """Stop claiming for this step of the turn."""

    @property
    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no card: allowed only when no troop can be played (R7)."""

    @property
    def notation(self) -> str:
        return "pass"


Action: TypeAlias = (
    PlayCard | PlayScout | Redeploy | Deserter | Traitor | Draw | ReturnCard | MudDiscard | Claim | EndClaims | Pass
)

PLAY_ACTIONS = (PlayCard, PlayScout, Redeploy, Deserter, Traitor)


def _card(text: str, token: str) -> Card:
    try:
        return parse_card(token)
    except CardNotationError as exc:
        raise ActionNotationError(text, "bad_card", detail=str(exc)) from None


def _flag(text: str, token: str) -> int:
    if not (token.isascii() and token.isdigit() and len(token) <= 2) or not 1 <= int(token) <= 9:
        raise ActionNotationError(text, "bad_flag", token=token)
    return int(token)


_ARITY = {
    "play": 2,
    "scout": 0,
    "redeploy": 2,
    "deserter": 1,
    "traitor": 2,
    "draw": 1,
    "return": 1,
    "discard": 1,
    "claim": 1,
    "end": 0,
    "pass": 0,
}


def parse_action(text: str) -> Action:
    """Read one action from its notation (case-insensitive).

    >>> parse_action("traitor g7 2")
    Traitor(target=g7, to=2)
    >>> parse_action("claim 10")
    Traceback (most recent call last):
    ...
    battleline_lab.game.actions.ActionNotationError: 'claim 10': flags are numbered 1-9, not '10'
    """
    words = text.strip().lower().split()
    if not words:
        raise ActionNotationError(text, "empty")
    verb, args = words[0], words[1:]
    if verb not in _ARITY:
        raise ActionNotationError(text, "unknown_verb", verb=verb, verbs=", ".join(_ARITY))
    if len(args) != _ARITY[verb]:
        raise ActionNotationError(text, "arity", verb=verb, count=_ARITY[verb])
    if verb == "play":
        return PlayCard(_card(text, args[0]), _flag(text, args[1]))
    if verb == "scout":
        return PlayScout()
    if verb == "redeploy":
        return Redeploy(_card(text, args[0]), None if args[1] == "discard" else _flag(text, args[1]))
    if verb == "deserter":
        return Deserter(_card(text, args[0]))
    if verb == "traitor":
        target = _card(text, args[0])
        if not isinstance(target, Troop):
            raise ActionNotationError(text, "traitor_troop", card=target.notation)
        return Traitor(target, _flag(text, args[1]))
    if verb == "draw":
        try:
            return Draw(Deck(args[0]))
        except ValueError:
            raise ActionNotationError(text, "bad_deck", token=args[0]) from None
    if verb == "return":
        return ReturnCard(_card(text, args[0]))
    if verb == "discard":
        return MudDiscard(_card(text, args[0]))
    if verb == "claim":
        return Claim(_flag(text, args[0]))
    if verb == "end":
        return EndClaims()
    return Pass()


def describe(action: Action, player: str, lang: str = "en") -> str:
    """A sentence for a game log: ``south plays blue 8, Heavy Cavalry at flag 3``.

    >>> describe(parse_action("play b8 3"), "south")
    'south plays blue 8, Heavy Cavalry at flag 3'
    >>> describe(parse_action("redeploy fog discard"), "north")
    'north plays Redeploy: Fog is discarded'
    """
    from ..text.messages import card_label, message

    def label(card: Card) -> str:
        return card_label(card, lang)

    deck = ""
    if isinstance(action, Draw):
        deck = message(f"game.deck.{action.deck.value}", lang)
    elif isinstance(action, (ReturnCard, MudDiscard)):
        deck = message(f"game.deck.{Deck.of(action.card).value}", lang)
    params: dict[str, object] = {"player": player}
    if isinstance(action, PlayCard):
        key, params = "play", {**params, "card": label(action.card), "flag": action.flag}
    elif isinstance(action, Redeploy):
        key = "redeploy" if action.to is not None else "redeploy_discard"
        params = {**params, "card": label(action.target), "flag": action.to}
    elif isinstance(action, Deserter):
        key, params = "deserter", {**params, "card": label(action.target)}
    elif isinstance(action, Traitor):
        key, params = "traitor", {**params, "card": label(action.target), "flag": action.to}
    elif isinstance(action, Draw):
        key, params = "draw", {**params, "deck": deck}
    elif isinstance(action, (ReturnCard, MudDiscard)):
        key = "return" if isinstance(action, ReturnCard) else "discard"
        params = {**params, "card": label(action.card), "deck": deck}
    elif isinstance(action, Claim):
        key, params = "claim", {**params, "flag": action.flag}
    else:
        key = {PlayScout: "scout", EndClaims: "end", Pass: "pass"}[type(action)]
    return message(f"game.log.{key}", lang, **params)


def parse_actions(text: str) -> list[Action]:
    """Several actions separated by ``;`` (one turn in a game record)."""
    return [parse_action(part) for part in text.split(";") if part.strip()]
