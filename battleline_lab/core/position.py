"""A Battle Line position: the nine flags, discards and hands, as plain values.

A :class:`Position` is what a puzzle shows: the cards on both sides of every flag
(R3, R6), who completed first where both sides are complete (R11), claimed
flags (R15), both discard areas (R31) and, optionally, hands (never evidence,
R13).  It knows which cards are public (R13) and checks itself for impossible
states with :meth:`Position.problems`, which the YAML loader turns into
``FILE:LINE:COL`` errors.

:meth:`Position.build` is the Python way to say a position, and it refuses what a
puzzle file may not say, with the loader's own checks (:func:`flag_key`,
:func:`side_value`, the card notation) and words: a :class:`PositionError` lists
every problem; what the loader would refuse but an analysis can still answer
(tactics counts apart, R18; a tie without ``first_complete``, R11, which the
analysis refuses with ``UndecidedTieError``) is a :class:`PositionWarning`.
The analyses check their flag and side arguments the same way
(:func:`check_flag`, :func:`check_side`), once at the entry, never in a loop.

>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
>>> pos.flag(5).cards(Side.YOU)
(r3, r4, r5)
>>> len(pos.unseen_troops())
54
"""

from __future__ import annotations

import enum
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeGuard

from .cards import ALL_TROOPS, Card, CardNotationError, Tactic, Troop, parse_card, parse_cards
from .formations import evaluate, formation_size

__all__ = [
    "ClaimTiming",
    "FlagState",
    "Location",
    "Position",
    "PositionError",
    "PositionWarning",
    "Problem",
    "Side",
    "FLAGS",
    "FLAG_KEYS",
    "SIDE_KEYS",
    "WARNED_CODES",
    "check_flag",
    "check_side",
    "flag_key",
    "is_flag_number",
    "side_value",
]

FLAGS = range(1, 10)
#: The keys of one flag in a position (a puzzle file's ``flags: {5: {...}}``, :meth:`Position.build`).
FLAG_KEYS = ("you", "opponent", "first_complete", "claimed_by")
#: The two sides as a position spells them (``turn``, ``first_complete``, ``claimed_by``, areas' keys).
SIDE_KEYS = ("you", "opponent")
#: Problems an analysis can still answer: :meth:`Position.build` warns about them (the loader refuses them).
WARNED_CODES = frozenset({"tactics_count", "first_complete_missing"})
_FLAG_TEXT = re.compile("[1-9]")


class Side(enum.Enum):
    """The two players, as the position's ``you`` player sees them."""

    YOU = "you"
    OPPONENT = "opponent"

    # members are singletons: identity hashing is fast (Enum's __hash__ hashes the name, in Python),
    # and the analyses are keyed by (side, flag)
    __hash__ = object.__hash__

    @property
    def other(self) -> Side:
        return Side.OPPONENT if self is Side.YOU else Side.YOU

    def __repr__(self) -> str:
        return f"Side.{self.name}"


# the two sides in the enum's order, iterated without Enum.__iter__ (a generator: slow in hot loops)
_SIDES = (Side.YOU, Side.OPPONENT)


class ClaimTiming(enum.Enum):
    """When a player may claim (R14)."""

    AFTER_PLAY = "after_play"
    START_OF_TURN = "start_of_turn"
    END_OF_TURN = "end_of_turn"


@dataclass(frozen=True)
class Location:
    """Where a visible card lies: a side of a flag, a discard area or a hand."""

    area: str  # "flag" | "discard" | "hand"
    side: Side
    flag: int | None = None

    def __repr__(self) -> str:
        if self.area == "flag":
            return f"flag {self.flag} ({self.side.value})"
        return f"{self.side.value} {self.area}"


def _cards(value: Iterable[Card | str] | str) -> tuple[Card, ...]:
    """Cards from a notation string, or from a list of cards and/or notation tokens."""
    if isinstance(value, str):
        return parse_cards(value)
    return tuple(parse_card(c) if isinstance(c, str) else c for c in value)


def _notation(cards: Iterable[Card]) -> list[str]:
    """Cards as notation tokens: ``['r3', 'alexander']``."""
    return [c.notation for c in cards]


def _joined(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A ``to_data`` mapping with its card lists written as one notation string each (for :func:`repr`)."""
    return {key: " ".join(value) if isinstance(value, list) else value for key, value in spec.items()}


@dataclass(frozen=True)
class FlagState:
    """One flag: each side's cards (formation and environment cards), R6, R11, R15."""

    you: tuple[Card, ...] = ()
    opponent: tuple[Card, ...] = ()
    first_complete: Side | None = None
    claimed_by: Side | None = None

    def cards(self, side: Side) -> tuple[Card, ...]:
        """Everything on that side: troops, morale and environment cards."""
        return self.you if side is Side.YOU else self.opponent

    def formation_cards(self, side: Side) -> tuple[Card, ...]:
        """Troops and morale cards on that side (what fills slots)."""
        return self._formation_you if side is Side.YOU else self._formation_opponent

    # derived data is computed once per (immutable) flag: the claim search asks for it often
    @cached_property
    def _formation_you(self) -> tuple[Card, ...]:
        return tuple(c for c in self.you if c.is_formation_card)

    @cached_property
    def _formation_opponent(self) -> tuple[Card, ...]:
        return tuple(c for c in self.opponent if c.is_formation_card)

    @cached_property
    def environment(self) -> tuple[Tactic, ...]:
        return tuple(c for c in self.you + self.opponent if isinstance(c, Tactic) and c.is_environment)

    @cached_property
    def fog(self) -> bool:
        return Tactic.FOG in self.environment

    @cached_property
    def mud(self) -> bool:
        return Tactic.MUD in self.environment

    @cached_property
    def size(self) -> int:
        return formation_size(self.mud)

    def is_complete(self, side: Side) -> bool:
        return len(self.formation_cards(side)) >= self.size

    @property
    def completed_first(self) -> Side | None:
        """The side that completed its formation here first (R11), once that is known.

        Both sides complete: ``first_complete``; one side complete: that side
        (the other can only complete later); neither: None.

        >>> FlagState(you=_cards("r1 r2 r3"), opponent=_cards("b5")).completed_first
        Side.YOU
        """
        you, opponent = self.is_complete(Side.YOU), self.is_complete(Side.OPPONENT)
        if you and opponent:
            return self.first_complete
        if you or opponent:
            return Side.YOU if you else Side.OPPONENT
        return None

    @property
    def is_empty(self) -> bool:
        return not self.you and not self.opponent and self.claimed_by is None


@dataclass(frozen=True)
class Problem:
    """Something impossible in a position: a code, where (a path), and details.

    ``path`` names the offending node, e.g. ``("flags", 5, "you", 2)``; text
    comes from the message catalogue (``problem.<code>``; a problem with what
    was written, such as ``bad_flag_number``, in the loader's words, ``load.<code>``).
    """

    code: str
    path: tuple[str | int, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str) -> Any:
        return dict(self.params)[name]


class _Problems(Exception):
    """What a refusal and a warning of a position share: the problems, said in the loader's words."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)
        self.problems = problems

    def text(self, lang: str = "en") -> str:
        """Every problem in words, in ``lang`` (the loader's words for the same mistake in a file)."""
        from ..text.messages import render_problem

        return "; ".join(render_problem(p, lang) for p in self.problems)

    def __str__(self) -> str:
        """Every problem in English, rendered when asked (the core does not load the message catalogue to raise)."""
        return self.text()


class PositionError(_Problems, ValueError):
    """A position that breaks the rules, or that is not written as a position is; ``problems`` lists every reason."""


class PositionWarning(_Problems, UserWarning):
    """A position an analysis can answer but a puzzle file may not hold (:data:`WARNED_CODES`)."""


# -- the checks a position's input shares with the puzzle loader --------------------------------


def is_flag_number(value: object) -> TypeGuard[int]:
    """A flag number (R3) as a program passes it: an int 1-9, never a bool, a float or a text.

    >>> is_flag_number(5), is_flag_number(True), is_flag_number(5.0), is_flag_number("5"), is_flag_number(10)
    (True, False, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 9


def flag_key(key: object) -> int | None:
    """A key of a position's ``flags`` mapping as a flag number (R3), or None.

    An int 1-9 (not a bool), or one ASCII digit 1-9 as text, as the file schema's
    ``propertyNames`` (a YAML or JSON key may be quoted); never ``"²"``, ``" 5"``,
    ``"05"`` or a 5,000-digit number.

    >>> flag_key(5), flag_key("5"), flag_key("10"), flag_key(0), flag_key(True), flag_key(5.0), flag_key("\uff15")
    (5, 5, None, None, None, None, None)
    """
    if isinstance(key, str):
        return int(key) if _FLAG_TEXT.fullmatch(key) else None
    return key if is_flag_number(key) else None


def side_value(value: object) -> Side | None:
    """A side as a position spells it (``"you"``, ``"opponent"``) or a :class:`Side`; None for anything else.

    >>> side_value("opponent"), side_value(Side.YOU), side_value("east"), side_value(True)
    (Side.OPPONENT, Side.YOU, None, None)
    """
    if type(value) is Side:
        return value
    if isinstance(value, str) and value in SIDE_KEYS:
        return Side(value)
    return None


def check_flag(flag: object) -> int:
    """``flag`` if it is a flag number (:func:`is_flag_number`); else :class:`PositionError`, in the words
    a puzzle file's question gets for the same mistake."""
    if not is_flag_number(flag):
        raise PositionError([Problem("bad_flag", ("flag",), (("flag", flag),))])
    return flag


def check_side(side: object, what: str = "side") -> Side:
    """``side`` as a :class:`Side` (:func:`side_value`); else :class:`PositionError`, as the loader says it."""
    found = side_value(side)
    if found is None:
        raise PositionError([_bad_choice(what, side, SIDE_KEYS)])
    return found


def _bad_choice(what: str, value: object, choices: Iterable[str]) -> Problem:
    return Problem("bad_choice", (what,), (("what", what), ("value", value), ("choices", tuple(choices))))


class _Reader:
    """Reads :meth:`Position.build`'s arguments as the loader reads a file's, noting every problem."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.card_errors = False

    def note(self, code: str, path: tuple[str | int, ...], **params: object) -> None:
        self.problems.append(Problem(code, path, tuple(params.items())))

    def cards(self, value: object, path: tuple[str | int, ...], what: str) -> tuple[Card, ...]:
        """Cards from a notation string or a list of cards and notation tokens (None: no cards)."""
        if value is None:
            return ()
        if isinstance(value, str):
            try:
                return parse_cards(value)
            except CardNotationError as err:
                return self.card_error(err, path)
        if isinstance(value, (Mapping, bytes)) or not isinstance(value, Iterable):
            self.note("expected_cards", path, what=what)
            return ()
        out: list[Card] = []
        for i, item in enumerate(value):
            if isinstance(item, (Troop, Tactic)):
                out.append(item)
            elif isinstance(item, str):
                try:
                    out.append(parse_card(item))
                except CardNotationError as err:
                    self.card_error(err, path + (i,))
            else:
                self.note("card_not_text", path + (i,), value=item)
                self.card_errors = True
        return tuple(out)

    def card_error(self, err: CardNotationError, path: tuple[str | int, ...]) -> tuple[Card, ...]:
        self.note("unknown_card", path, token=err.token, reason=err.reason, suggestion=err.suggestion)
        self.card_errors = True
        return ()

    def mapping(self, value: object, path: tuple[str | int, ...], what: str) -> Mapping[Any, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.note("expected_mapping", path, what=what)
            return {}
        return value

    def side(self, value: object, path: tuple[str | int, ...], what: str) -> Side | None:
        if value is None:
            return None
        found = side_value(value)
        if found is None:
            self.problems.append(Problem("bad_choice", path, _bad_choice(what, value, SIDE_KEYS).params))
        return found

    def keys(self, entry: Mapping[Any, Any], allowed: tuple[str, ...], path: tuple[str | int, ...]) -> None:
        for key in entry:
            if key not in allowed:
                self.note("unknown_key", path + (str(key),), key=key, choices=allowed)

    def flags(self, flags: object) -> list[FlagState]:
        states = [FlagState() for _ in FLAGS]
        seen: set[int] = set()
        for key, spec in self.mapping(flags, ("flags",), "flags").items():
            number = flag_key(key)
            if number is None:
                self.note("bad_flag_number", ("flags", str(key)), value=key)
                continue
            if number in seen:
                self.note("duplicate_key", ("flags", number), key=key)
                continue
            seen.add(number)
            entry = self.mapping(spec, ("flags", number), f"flag {number}")
            self.keys(entry, FLAG_KEYS, ("flags", number))
            you, opponent = (self.cards(entry.get(k), ("flags", number, k), f"flag {number}, {k}") for k in SIDE_KEYS)
            first, claimed = (self.side(entry.get(k), ("flags", number, k), k) for k in FLAG_KEYS[2:])
            states[number - 1] = FlagState(you, opponent, first, claimed)
        return states

    def area(self, value: object, name: str) -> dict[Side, tuple[Card, ...]]:
        area = self.mapping(value, (name,), name)
        out: dict[Side, tuple[Card, ...]] = {}
        for key, cards in area.items():
            side = side_value(key)
            if side is None:
                self.note("unknown_key", (name, str(key)), key=key, choices=SIDE_KEYS)
            elif side in out:
                self.note("duplicate_key", (name, side.value), key=key)
            else:
                out[side] = self.cards(cards, (name, side.value), f"{name}, {side.value}")
        return out


@dataclass(frozen=True)
class Position:
    """Nine flags, two discard areas, optional hands, whose turn and the claim timing."""

    flags: tuple[FlagState, ...] = field(default_factory=lambda: tuple(FlagState() for _ in FLAGS))
    discards_you: tuple[Card, ...] = ()
    discards_opponent: tuple[Card, ...] = ()
    hand_you: tuple[Card, ...] = ()
    hand_opponent: tuple[Card, ...] = ()
    turn: Side = Side.YOU
    claim_timing: ClaimTiming = ClaimTiming.AFTER_PLAY

    def __post_init__(self) -> None:
        if len(self.flags) != 9:
            raise ValueError(f"a position has 9 flags, not {len(self.flags)}")

    def __repr__(self) -> str:
        """A :meth:`build` call in card notation that recreates this position.

        >>> Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}, discards={"opponent": "scout"})
        Position.build({5: {'you': 'r3 r4 r5', 'opponent': 'b8'}}, discards={'opponent': 'scout'})
        >>> pos = Position.build({2: {"you": "b7", "claimed_by": None}}, hand={"you": "alexander"}, turn="opponent")
        >>> eval(repr(pos)) == pos
        True
        """
        data = self.to_data()
        args = [repr({n: _joined(spec) for n, spec in data["flags"].items()})]
        args += [f"{name}={_joined(data[name])!r}" for name in ("discards", "hand") if name in data]
        if self.turn is not Side.YOU:
            args.append(f"turn={self.turn.value!r}")
        if self.claim_timing is not ClaimTiming.AFTER_PLAY:
            args.append(f"claim_timing={self.claim_timing.value!r}")
        return f"Position.build({', '.join(args)})"

    def to_data(self) -> dict[str, Any]:
        """The position part of a puzzle file as plain data, cards as lists in notation.

        Keys in file order: ``rules`` (only if the claim timing is not the
        default, R14), ``turn``, ``flags`` (only flags with something on them),
        ``discards`` and ``hand`` (only non-empty areas).  :meth:`build` takes
        it back: ``Position.build(**data)`` with ``rules`` unpacked.

        >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}, hand={"you": "b9"})
        >>> pos.to_data()
        {'turn': 'you', 'flags': {5: {'you': ['r3', 'r4', 'r5'], 'opponent': ['b8']}}, 'hand': {'you': ['b9']}}
        >>> Position.build(claim_timing="start_of_turn").to_data()
        {'rules': {'claim_timing': 'start_of_turn'}, 'turn': 'you', 'flags': {}}
        """
        data: dict[str, Any] = {}
        if self.claim_timing is not ClaimTiming.AFTER_PLAY:
            data["rules"] = {"claim_timing": self.claim_timing.value}
        data["turn"] = self.turn.value
        flags: dict[int, dict[str, Any]] = {}
        for n, state in zip(FLAGS, self.flags):
            entry: dict[str, Any] = {}
            for side in _SIDES:
                if state.cards(side):
                    entry[side.value] = _notation(state.cards(side))
            if state.first_complete is not None:
                entry["first_complete"] = state.first_complete.value
            if state.claimed_by is not None:
                entry["claimed_by"] = state.claimed_by.value
            if entry:
                flags[n] = entry
        data["flags"] = flags
        for name, getter in (("discards", self.discards), ("hand", self.hand)):
            area = {side.value: _notation(getter(side)) for side in _SIDES if getter(side)}
            if area:
                data[name] = area
        return data

    # -- construction -------------------------------------------------
    @classmethod
    def build(
        cls,
        flags: Mapping[int, Mapping[str, Any]] | None = None,
        *,
        discards: Mapping[str, Iterable[Card | str] | str] | None = None,
        hand: Mapping[str, Iterable[Card | str] | str] | None = None,
        turn: Side | str = Side.YOU,
        claim_timing: ClaimTiming | str = ClaimTiming.AFTER_PLAY,
    ) -> Position:
        """A position from plain data, cards in notation (strings or lists), checked as the loader checks a file.

        Flags are keyed by number (an int 1-9, or one digit as text, as in a file); each
        flag's keys, the sides, the cards and the rules (R1, R6, R11, R12, R20, R31, ...)
        are checked: :class:`PositionError` lists every problem, in the loader's words.
        Tactics counts apart (R18) and a tie without ``first_complete`` (R11) are only a
        :class:`PositionWarning`: the analyses answer such a position (the tie with
        ``UndecidedTieError``).

        >>> Position.build({1: {"you": ["r1", "r2", "r3"], "claimed_by": "you"}}).flag(1).claimed_by
        Side.YOU
        >>> Position.build({5: {"you": "r1 r1"}, 10: {}})
        Traceback (most recent call last):
        ...
        battleline_lab.core.position.PositionError: flag '10' does not exist: flags are numbered 1 to 9 (R3)
        """
        reader = _Reader()
        states = reader.flags(flags)
        discards_by = reader.area(discards, "discards")
        hand_by = reader.area(hand, "hand")
        side = side_value(turn)
        if side is None:
            reader.problems.append(_bad_choice("turn", turn, SIDE_KEYS))
        timings = tuple(t.value for t in ClaimTiming)
        timing = claim_timing if type(claim_timing) is ClaimTiming else None
        if timing is None and isinstance(claim_timing, str) and claim_timing in timings:
            timing = ClaimTiming(claim_timing)
        if timing is None:
            reader.problems.append(_bad_choice("claim_timing", claim_timing, timings))
        if reader.problems:
            raise PositionError(reader.problems)
        position = cls(
            flags=tuple(states),
            discards_you=discards_by.get(Side.YOU, ()),
            discards_opponent=discards_by.get(Side.OPPONENT, ()),
            hand_you=hand_by.get(Side.YOU, ()),
            hand_opponent=hand_by.get(Side.OPPONENT, ()),
            turn=side or Side.YOU,
            claim_timing=timing or ClaimTiming.AFTER_PLAY,
        )
        problems = position.problems()
        refused = [p for p in problems if p.code not in WARNED_CODES]
        if refused:
            raise PositionError(refused)
        if problems:
            warnings.warn(PositionWarning(problems), stacklevel=2)
        return position

    # -- access -------------------------------------------------------
    def flag(self, number: int) -> FlagState:
        """The flag numbered 1-9 (R3); any other number, a bool or a float is a :class:`PositionError`."""
        if type(number) is not int or not 0 < number < 10:
            check_flag(number)  # raises, but for an int subclass (never a bool) in range
        return self.flags[number - 1]

    def discards(self, side: Side) -> tuple[Card, ...]:
        return self.discards_you if side is Side.YOU else self.discards_opponent

    def hand(self, side: Side) -> tuple[Card, ...]:
        return self.hand_you if side is Side.YOU else self.hand_opponent

    def placed(self) -> Iterator[tuple[Card, Location]]:
        """Every face-up card with where it lies: flags, then discards (R13, R31)."""
        for n, state in zip(FLAGS, self.flags):
            for side in _SIDES:
                cards = state.cards(side)
                if cards:
                    where = Location("flag", side, n)  # one value per place, shared by its cards
                    for card in cards:
                        yield card, where
        for side in _SIDES:
            where = Location("discard", side)
            for card in self.discards(side):
                yield card, where

    @cached_property
    def visible(self) -> Mapping[Card, Location]:
        """Public cards and where they are (R13): flags (claimed ones too) and discards."""
        return {card: loc for card, loc in self.placed()}

    def unseen_troops(self) -> frozenset[Troop]:
        """The 60 troops minus the visible ones; hands count as unseen (R13)."""
        return self._unseen

    @cached_property
    def _unseen(self) -> frozenset[Troop]:
        visible = self.visible
        return frozenset(t for t in ALL_TROOPS if t not in visible)

    def claimed(self, side: Side) -> tuple[int, ...]:
        return tuple(n for n, s in zip(FLAGS, self.flags) if s.claimed_by is side)

    def winner(self) -> Side | None:
        """The side whose claimed flags already end the game (R16), if any."""
        for side in _SIDES:
            held = set(self.claimed(side))
            if len(held) >= 5 or any({n, n + 1, n + 2} <= held for n in range(1, 8)):
                return side
        return None

    def tactics_played(self, side: Side) -> int:
        """Tactics cards this side has visibly played (R18): on flags and in its discards.

        A Deserter's victim lies in its owner's discard area (R31) and so counts
        for its owner.
        """
        on_flags = sum(1 for s in self.flags for c in s.cards(side) if isinstance(c, Tactic))
        return on_flags + sum(1 for c in self.discards(side) if isinstance(c, Tactic))

    # -- validation ---------------------------------------------------
    def problems(self) -> list[Problem]:
        """Every way this position breaks the rules; empty if it is a legal position."""
        out: list[Problem] = []
        first_seen: dict[Card, tuple[str | int, ...]] = {}

        def note(card: Card, path: tuple[str | int, ...]) -> None:
            if card in first_seen:
                out.append(Problem("duplicate_card", path, (("card", card), ("first", first_seen[card]))))
            else:
                first_seen[card] = path

        for n, state in zip(FLAGS, self.flags):
            # the flag's derived data worked out here, not read from its cached properties: filling those
            # writes the flag's __dict__, and every later attribute read of it (the analyses' hot path) is
            # slower in CPython 3.11+ (analyse_claim ~9%): checking a position must leave it as fast as it was
            env = [c for c in state.you + state.opponent if isinstance(c, Tactic) and c.is_environment]
            fog, mud = Tactic.FOG in env, Tactic.MUD in env
            size = formation_size(mud)
            formation = {side: [c for c in state.cards(side) if c.is_formation_card] for side in _SIDES}
            complete = {side: len(formation[side]) >= size for side in _SIDES}
            for side in _SIDES:
                cards = state.cards(side)
                for i, card in enumerate(cards):
                    note(card, ("flags", n, side.value, i))
                    if isinstance(card, Tactic) and not (card.is_wild or card.is_environment):
                        out.append(Problem("guile_on_flag", ("flags", n, side.value, i), (("card", card),)))
                count = len(formation[side])
                if count > size:
                    out.append(
                        Problem(
                            "too_many_cards",
                            ("flags", n, side.value),
                            (("flag", n), ("count", count), ("size", size), ("mud", mud)),
                        )
                    )
            if state.claimed_by is not None and not complete[state.claimed_by]:
                # a claimed flag always had a complete formation on the claimant's side (R12)
                out.append(Problem("claimed_incomplete", ("flags", n, "claimed_by"), (("flag", n),)))
            if (
                state.first_complete is None
                and state.claimed_by is None
                and all(len(cards) == size for cards in formation.values())
                and evaluate(formation[Side.YOU], fog=fog, mud=mud).strength
                == evaluate(formation[Side.OPPONENT], fog=fog, mud=mud).strength
            ):
                # equal formations: only who completed first decides (R11)
                out.append(Problem("first_complete_missing", ("flags", n), (("flag", n),)))
            if state.first_complete is not None and not (complete[Side.YOU] and complete[Side.OPPONENT]):
                out.append(Problem("first_complete_unused", ("flags", n, "first_complete"), (("flag", n),)))
        for side in _SIDES:
            for i, card in enumerate(self.discards(side)):
                note(card, ("discards", side.value, i))
            for i, card in enumerate(self.hand(side)):
                note(card, ("hand", side.value, i))
        for side in _SIDES:
            leaders: list[tuple[str | int, ...]] = [
                ("flags", n, side.value, i)
                for n, s in zip(FLAGS, self.flags)
                for i, c in enumerate(s.cards(side))
                if isinstance(c, Tactic) and c.is_leader
            ]
            leaders += [
                ("discards", side.value, i)
                for i, c in enumerate(self.discards(side))
                if isinstance(c, Tactic) and c.is_leader
            ]
            if len(leaders) > 1:
                out.append(Problem("two_leaders", leaders[1], (("side", side),)))
        you, opp = self.tactics_played(Side.YOU), self.tactics_played(Side.OPPONENT)
        if abs(you - opp) > 1:
            out.append(Problem("tactics_count", ("flags",), (("you", you), ("opponent", opp))))
        return out

    def check(self) -> Position:
        """Raise :class:`PositionError` listing every problem; return self if none."""
        problems = self.problems()
        if problems:
            raise PositionError(problems)
        return self

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter and static notebook viewers (lazy: the core never imports rendering)."""
        from ..render.svg import board_svg

        return board_svg(self)
