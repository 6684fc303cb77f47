"""The three-player game (R32-R37): state, legal moves, player views and the rules of a turn.

The project's reading of the one-line three-player rule of the rule texts (docs/rules.md):
three players sit at the corners of a triangle, A, B and C; the nine flags form its sides,
three flags a side, and each side is a *front* contested by the two players at its ends
(R32).  Flags 1-3 are the front A-B (from A towards B), 4-6 the front B-C, 7-9 the front C-A,
so going round the triangle the flags are 1 to 9 and each player's six flags, their *line*, run
through their corner: A's line is 7 8 9 1 2 3 (R33).  60 troops and no tactics cards; a turn
is play a troop on one of your six flags, claim, draw a troop (R34); a claim is between the
two players of the flag's front, proved exactly as in the two-player game from the cards face
up anywhere (R35, through :func:`battleline_lab.core.decide.decide`); three adjacent flags on
your line or any four win at once (R36); when nobody can win any more, most flags and then the
last claim decide (R37).

The two-player game (:mod:`~battleline_lab.game.state`, :mod:`~battleline_lab.game.rules`) is
untouched: this module shares the core's formations and claim decision and the game's actions
(``play r5 3``, ``claim 2``, ``draw troops``, ``end``, ``pass``) and their notation.

>>> state = new_three_game(4, first=Seat.A)
>>> [len(state.hands[s]) for s in SEATS], len(state.deck)
([7, 7, 7], 39)
>>> LINES[Seat.A], FRONT_OF[1], opponent_at(Seat.A, 8)
((7, 8, 9, 1, 2, 3), (Seat.A, Seat.B), Seat.C)
>>> legal_three_moves(state)[0]
PlayCard(card=r2, flag=1)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.cards import ALL_TROOPS, Card, Troop, card_sort_key
from ..core.decide import Pool, decide
from ..core.formations import evaluate
from ..text.messages import message
from .actions import Action, Claim, Draw, EndClaims, Pass, PlayCard
from .state import HAND_LIMIT, Deck

__all__ = [
    "FRONT_OF",
    "FRONTS",
    "LINES",
    "SEATS",
    "Seat",
    "ThreeEnd",
    "ThreeIllegalMoveError",
    "ThreePhase",
    "ThreeState",
    "ThreeView",
    "adjacent_triples",
    "apply_three",
    "build_three",
    "end_text",
    "seat_name",
    "can_still_win",
    "claimable_three",
    "legal_three_moves",
    "new_three_game",
    "opponent_at",
    "play_three_game",
    "wins_by_flags",
]

NUM_FLAGS = 9
SLOTS = 3  # R34: three slots a side, no Mud


class Seat(enum.Enum):
    """The three players, named by their corner of the triangle (R32); A, B, C is the order of play (R34)."""

    A = "a"
    B = "b"
    C = "c"

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    @property
    def next(self) -> Seat:
        """Who plays after this seat (R34: in order around the table)."""
        return SEATS[(SEATS.index(self) + 1) % 3]


SEATS: tuple[Seat, Seat, Seat] = (Seat.A, Seat.B, Seat.C)

#: R32: each front, its two players and its flags (from the first player's corner towards the second's)
FRONTS: dict[tuple[Seat, Seat], tuple[int, int, int]] = {
    (Seat.A, Seat.B): (1, 2, 3),
    (Seat.B, Seat.C): (4, 5, 6),
    (Seat.C, Seat.A): (7, 8, 9),
}
#: R32: flag 1-9 -> the two players of its front
FRONT_OF: dict[int, tuple[Seat, Seat]] = {n: pair for pair, flags in FRONTS.items() for n in flags}
#: R33: each player's six flags in order along the triangle through their corner
LINES: dict[Seat, tuple[int, ...]] = {
    Seat.A: (7, 8, 9, 1, 2, 3),
    Seat.B: (1, 2, 3, 4, 5, 6),
    Seat.C: (4, 5, 6, 7, 8, 9),
}


def opponent_at(seat: Seat, flag: int) -> Seat:
    """The other player of ``flag``'s front (R32); ``seat`` must be one of its two players."""
    x, y = FRONT_OF[flag]
    if seat is x:
        return y
    if seat is y:
        return x
    raise ValueError(f"flag {flag} is not on {seat.name}'s line")


def adjacent_triples(seat: Seat) -> tuple[frozenset[int], ...]:
    """The four sets of three adjacent flags along ``seat``'s line (R33, R36)."""
    line = LINES[seat]
    return tuple(frozenset(line[k : k + 3]) for k in range(4))


_TRIPLES = {s: adjacent_triples(s) for s in SEATS}


def wins_by_flags(seat: Seat, held: set[int] | frozenset[int]) -> ThreeEnd | None:
    """R36: three adjacent flags on the line (a breakthrough) or any four (an envelopment), else None."""
    if any(t <= held for t in _TRIPLES[seat]):
        return ThreeEnd.BREAKTHROUGH
    if len(held) >= 4:
        return ThreeEnd.ENVELOPMENT
    return None


class ThreePhase(enum.Enum):
    """The steps of a turn (R34: play, claim, draw) and the end."""

    PLAY = "play"
    CLAIM = "claim"
    DRAW = "draw"
    OVER = "over"

    __hash__ = object.__hash__


class ThreeEnd(enum.Enum):
    """Why a three-player game ended."""

    BREAKTHROUGH = "breakthrough"  # R36: three adjacent flags on the line
    ENVELOPMENT = "envelopment"  # R36: any four flags
    MOST_FLAGS = "most_flags"  # R37: nobody can win any more; most flags, then the last claim
    NO_WINNER = "no_winner"  # R37: ... and nobody holds a flag (only after a blocked game)


@dataclass
class ThreeState:
    """Everything about a three-player game at one moment, hidden information included.

    ``cards[i]`` holds, for flag index ``i`` (flag number minus one), the troops of the two
    players of its front; ``complete_at`` their completion clock stamps (R11, as in two-player);
    ``claims`` the claims in the order they were made (R37 needs the last one).  The deck has its
    top card last.
    """

    seed: int
    deck: list[Troop]
    hands: dict[Seat, list[Troop]]
    first: Seat
    cards: list[dict[Seat, list[Troop]]] = field(
        default_factory=lambda: [{s: [] for s in FRONT_OF[i + 1]} for i in range(NUM_FLAGS)]
    )
    complete_at: list[dict[Seat, int | None]] = field(
        default_factory=lambda: [{s: None for s in FRONT_OF[i + 1]} for i in range(NUM_FLAGS)]
    )
    claimed: list[Seat | None] = field(default_factory=lambda: [None] * NUM_FLAGS)
    claims: list[tuple[int, Seat]] = field(default_factory=list)
    visible: set[Troop] = field(default_factory=set)
    turn: Seat = Seat.A
    phase: ThreePhase = ThreePhase.PLAY
    turn_number: int = 1
    clock: int = 0
    passed: bool = False
    acted: bool = False
    idle_streak: int = 0
    claimable_now: tuple[int, ...] = ()
    winner: Seat | None = None
    end_reason: ThreeEnd | None = None
    history: list[tuple[int, Seat, Action]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.phase is ThreePhase.OVER

    @property
    def to_act(self) -> Seat:
        return self.turn

    def held(self, seat: Seat) -> list[int]:
        """Flag numbers (1-9) ``seat`` has claimed."""
        return [i + 1 for i, c in enumerate(self.claimed) if c is seat]

    def first_complete(self, flag: int) -> Seat | None:
        """Who completed first at ``flag`` when both sides are complete (R11), else None."""
        (x, sx), (y, sy) = self.complete_at[flag - 1].items()
        if sx is None or sy is None:
            return None
        return x if sx < sy else y

    def free_slot(self, flag: int, seat: Seat) -> bool:
        """An unclaimed flag on ``seat``'s line with room on their side (R34)."""
        i = flag - 1
        return self.claimed[i] is None and seat in self.cards[i] and len(self.cards[i][seat]) < SLOTS

    def card_count(self) -> int:
        """All the troops the game holds, wherever they are (always 60, R34)."""
        on_flags = sum(len(side) for flag in self.cards for side in flag.values())
        return len(self.deck) + sum(len(h) for h in self.hands.values()) + on_flags

    def copy(self) -> ThreeState:
        """An independent copy."""
        return ThreeState(
            seed=self.seed,
            deck=list(self.deck),
            hands={s: list(h) for s, h in self.hands.items()},
            first=self.first,
            cards=[{s: list(c) for s, c in flag.items()} for flag in self.cards],
            complete_at=[dict(c) for c in self.complete_at],
            claimed=list(self.claimed),
            claims=list(self.claims),
            visible=set(self.visible),
            turn=self.turn,
            phase=self.phase,
            turn_number=self.turn_number,
            clock=self.clock,
            passed=self.passed,
            acted=self.acted,
            idle_streak=self.idle_streak,
            claimable_now=self.claimable_now,
            winner=self.winner,
            end_reason=self.end_reason,
            history=list(self.history),
        )

    def __repr__(self) -> str:
        status = self.phase.value
        if self.over:
            status = f"over, {self.winner.name if self.winner else 'no'} winner"
        return f"<ThreeState seed={self.seed} turn {self.turn_number} {self.turn.name} {status}>"


def build_three(
    flags: dict[int, dict[str, str]], *, claimed: dict[int, str] | None = None, turn: str = "a"
) -> ThreeState:
    """A three-player position for lessons and tests: the troops face up on each flag, written per seat.

    ``flags`` maps a flag number to ``{"a": "r3 r4 r5", "b": "b8"}`` (only the two players of its
    front, R32); the sides complete in the order written, flag by flag (R11).  ``claimed`` maps flag
    numbers to the seat holding them.  The other troops are dealt seven to each player in card
    order and the rest is the deck: what is not face up is unseen (R35), wherever it lies.
    Raises :class:`ValueError` with the problem in words.

    >>> state = build_three({1: {"a": "r3 r4 r5", "b": "b8"}, 5: {"c": "b7"}, 8: {"c": "b10"}})
    >>> claimable_three(state, Seat.A)
    (1,)
    """
    from ..core.cards import parse_cards

    state = ThreeState(seed=0, deck=[], hands={s: [] for s in SEATS}, first=Seat(turn), turn=Seat(turn))
    placed: set[Troop] = set()
    for n, sides in sorted(flags.items()):
        if not _is_flag(n):
            raise ValueError(message("three.build.bad_flag", flag=repr(n)))
        for seat_name, text in sides.items():
            seat = Seat(seat_name)
            if seat not in FRONT_OF[n]:
                front = "–".join(s.name for s in FRONT_OF[n])
                raise ValueError(message("three.build.not_on_front", flag=n, front=front, seat=seat.name))
            for card in parse_cards(text):
                if not isinstance(card, Troop):
                    raise ValueError(message("three.build.not_a_troop", card=card.notation))
                if card in placed:
                    raise ValueError(message("three.build.card_twice", card=card.notation))
                placed.add(card)
                side = state.cards[n - 1][seat]
                if len(side) >= SLOTS:
                    raise ValueError(message("three.build.too_many", flag=n, seat=seat.name))
                side.append(card)
                state.visible.add(card)
                if len(side) == SLOTS:
                    state.clock += 1
                    state.complete_at[n - 1][seat] = state.clock
    for n, seat_name in (claimed or {}).items():
        state.claimed[n - 1] = Seat(seat_name)
        state.claims.append((n, Seat(seat_name)))
    rest = sorted((t for t in ALL_TROOPS if t not in placed), key=card_sort_key, reverse=True)
    for seat in SEATS:
        state.hands[seat] = [rest.pop() for _ in range(min(HAND_LIMIT, len(rest)))]
    state.deck = rest
    return state


def end_text(reason: ThreeEnd, lang: str = "en") -> str:
    """Why a game ended, in words: ``breakthrough (3 adjacent flags on a line)``."""
    return message(f"three.end.{reason.value}", lang)


def seat_name(seat: Seat, lang: str = "en") -> str:
    """A seat's name in ``lang``: ``A`` (甲 in Chinese)."""
    return message(f"three.seat.{seat.value}", lang)


def new_three_game(seed: int, first: Seat | None = None) -> ThreeState:
    """Deal a three-player game from ``seed`` (R34): 60 troops shuffled, seven to each player in
    turn from the first, the rest the deck.  ``first=None`` lets the seed choose who starts (R4)."""
    rng = random.Random(seed)
    troops = list(ALL_TROOPS)
    rng.shuffle(troops)
    start = first if first is not None else rng.choice(SEATS)
    order = [start, start.next, start.next.next]
    hands: dict[Seat, list[Troop]] = {s: [] for s in SEATS}
    for _ in range(HAND_LIMIT):
        for s in order:
            hands[s].append(troops.pop())
    return ThreeState(seed=seed, deck=troops, hands=hands, first=start, turn=start)


# -- errors -------------------------------------------------------------------


class ThreeIllegalMoveError(ValueError):
    """An action the three-player rules forbid now; ``rule`` names the rule, ``code`` the message."""

    rule: ClassVar[str] = "R34"

    def __init__(self, action: object, code: str, rule: str, **params: Any) -> None:
        self.action = action
        self.code = code
        self.rule = rule  # type: ignore[misc]
        self.params = params
        super().__init__(action, code)

    def text(self, lang: str = "en") -> str:
        """The whole message in ``lang``: ``'play r5 4' is not possible now: ... (R34)``."""
        notation = getattr(self.action, "notation", None)
        reason = message(f"three.illegal.{self.code}", lang, **self.params)
        shown = notation if isinstance(notation, str) else repr(self.action)
        return message("game.illegal", lang, action=shown, text=reason, rule=self.rule)

    def __str__(self) -> str:
        return self.text()


# -- queries ------------------------------------------------------------------


def claimable_three(state: ThreeState, seat: Seat) -> tuple[int, ...]:
    """Flags of ``seat``'s line they can prove a claim on now (R35, R12, R13).

    The proof is the two-player one between the two players of the front: ``seat``'s complete
    side against the other's, every troop face up anywhere seen, every other troop (in any hand
    or the deck, the third player's included) possibly the opponent's.
    """
    out: list[int] = []
    pool: Pool | None = None
    for n in LINES[seat]:
        i = n - 1
        if state.claimed[i] is not None or len(state.cards[i][seat]) < SLOTS:
            continue
        other = opponent_at(seat, n)
        if pool is None:
            pool = Pool.of_visible(state.visible)
        first = state.first_complete(n)
        verdict, _ = decide(
            tuple(state.cards[i][seat]),
            tuple(state.cards[i][other]),
            pool,
            first=None if first is None else first is seat,
            flag=n,
        )
        if verdict:
            out.append(n)
    return tuple(out)


def can_still_win(state: ThreeState, seat: Seat) -> bool:
    """Whether ``seat`` could still win by R36: their flags and the unclaimed ones on their line."""
    possible = {n for n in LINES[seat] if state.claimed[n - 1] in (None, seat)}
    return wins_by_flags(seat, possible) is not None


_END = EndClaims()
_PASS = Pass()
_DRAW = Draw(Deck.TROOPS)


def legal_three_moves(state: ThreeState) -> list[Action]:
    """Every legal action of the player on turn, in a fixed order.

    Play: troops in card order x the free flags of the player's line in flag order (R34), or
    ``pass`` alone when no troop can be played (R7).  Claim: ``claim N`` in flag order, then
    ``end``.  Draw: ``draw troops``.  Over: nothing.
    """
    phase = state.phase
    if phase is ThreePhase.PLAY:
        seat = state.turn
        free = [n for n in range(1, 10) if state.free_slot(n, seat)]
        hand = sorted(state.hands[seat], key=card_sort_key)
        moves: list[Action] = [PlayCard(t, n) for t in hand for n in free]
        return moves or [_PASS]
    if phase is ThreePhase.CLAIM:
        return [*(Claim(n) for n in state.claimable_now), _END]
    if phase is ThreePhase.DRAW:
        return [_DRAW]
    return []


# -- applying actions ---------------------------------------------------------


def _is_flag(value: object) -> bool:
    return type(value) is int and 1 <= value <= NUM_FLAGS


def apply_three(state: ThreeState, action: Action) -> ThreeState:
    """Do ``action`` for the player on turn, changing ``state`` in place; returns it.

    Raises :class:`ThreeIllegalMoveError` (naming the rule) and leaves the state unchanged when
    the action is not legal now.
    """
    seat = state.turn
    if state.over:
        raise ThreeIllegalMoveError(action, "game_over", "R36")
    if isinstance(action, PlayCard):
        _expect(state, action, ThreePhase.PLAY)
        card, n = action.card, action.flag
        if not isinstance(card, Troop):
            raise ThreeIllegalMoveError(action, "no_tactics", "R34", card=getattr(card, "notation", repr(card)))
        if not _is_flag(n):
            raise ThreeIllegalMoveError(action, "bad_flag", "R32", flag=repr(n))
        if card not in state.hands[seat]:
            raise ThreeIllegalMoveError(action, "not_in_hand", "R34", card=card.notation)
        if n not in LINES[seat]:
            raise ThreeIllegalMoveError(action, "not_your_flag", "R33", flag=n, seat=_name(seat))
        if state.claimed[n - 1] is not None:
            raise ThreeIllegalMoveError(action, "flag_claimed", "R15", flag=n)
        if len(state.cards[n - 1][seat]) >= SLOTS:
            raise ThreeIllegalMoveError(action, "no_slot", "R34", flag=n)
        state.hands[seat].remove(card)
        state.cards[n - 1][seat].append(card)
        state.visible.add(card)
        if len(state.cards[n - 1][seat]) == SLOTS:
            state.clock += 1
            state.complete_at[n - 1][seat] = state.clock
        state.history.append((state.turn_number, seat, action))
        _after_play(state)
    elif isinstance(action, Pass):
        _expect(state, action, ThreePhase.PLAY)
        if any(state.free_slot(n, seat) for n in LINES[seat]) and state.hands[seat]:
            raise ThreeIllegalMoveError(action, "pass", "R7")
        state.passed = True
        state.history.append((state.turn_number, seat, action))
        _after_play(state)
    elif isinstance(action, Claim):
        _expect(state, action, ThreePhase.CLAIM, code="claim_phase")
        if action.flag not in state.claimable_now:
            raise ThreeIllegalMoveError(action, "not_provable", "R35", flag=action.flag)
        state.claimed[action.flag - 1] = seat
        state.claims.append((action.flag, seat))
        state.acted = True
        state.history.append((state.turn_number, seat, action))
        if _check_end(state, seat):
            return state
        state.claimable_now = tuple(n for n in state.claimable_now if n != action.flag)
        if not state.claimable_now:
            _to_draw(state)
    elif isinstance(action, EndClaims):
        _expect(state, action, ThreePhase.CLAIM)
        state.history.append((state.turn_number, seat, action))
        _to_draw(state)
    elif isinstance(action, Draw):
        _expect(state, action, ThreePhase.DRAW)
        if action.deck is not Deck.TROOPS:
            raise ThreeIllegalMoveError(action, "no_tactics_deck", "R34")
        state.hands[seat].append(state.deck.pop())
        state.acted = True
        state.history.append((state.turn_number, seat, action))
        _end_turn(state)
    else:
        raise ThreeIllegalMoveError(action, "not_an_action", "R34")
    return state


def _name(seat: Seat) -> str:
    return message(f"three.seat.{seat.value}")


def _expect(state: ThreeState, action: Action, phase: ThreePhase, code: str = "phase") -> None:
    if state.phase is not phase:
        raise ThreeIllegalMoveError(
            action, code, "R34", expected=message(f"three.expect.{state.phase.value}", seat=_name(state.turn))
        )


def _after_play(state: ThreeState) -> None:
    flags = claimable_three(state, state.turn)
    if flags:
        state.phase = ThreePhase.CLAIM
        state.claimable_now = flags
    else:
        _to_draw(state)


def _to_draw(state: ThreeState) -> None:
    state.claimable_now = ()
    if state.deck and len(state.hands[state.turn]) < HAND_LIMIT:  # R5, R8: back up to 7 while there are cards
        state.phase = ThreePhase.DRAW
    else:
        _end_turn(state)


def _end_turn(state: ThreeState) -> None:
    # R37 (as ruling G5): three idle turns in a row (a pass with nothing claimed or drawn) end a blocked game
    state.idle_streak = state.idle_streak + 1 if state.passed and not state.acted else 0
    if state.idle_streak >= 3:
        _blocked_end(state)
        return
    state.turn = state.turn.next
    state.turn_number += 1
    state.passed = state.acted = False
    state.phase = ThreePhase.PLAY


def _check_end(state: ThreeState, claimer: Seat) -> bool:
    """R36 for the claimer, then R37: the game ends when nobody can win any more."""
    reason = wins_by_flags(claimer, set(state.held(claimer)))
    if reason is not None:
        _finish(state, claimer, reason)
        return True
    if not any(can_still_win(state, s) for s in SEATS):
        _decide_by_flags(state)
        return True
    return False


def _decide_by_flags(state: ThreeState) -> None:
    """R37: most flags wins; among equals, the one who claimed last."""
    counts = {s: len(state.held(s)) for s in SEATS}
    best = max(counts.values())
    if best == 0:
        _finish(state, None, ThreeEnd.NO_WINNER)
        return
    tied = {s for s in SEATS if counts[s] == best}
    last = next(s for _, s in reversed(state.claims) if s in tied)
    _finish(state, last, ThreeEnd.MOST_FLAGS)


def _blocked_end(state: ThreeState) -> None:
    """R37 for a blocked game: the open flags go as the formations stand (as ruling G5), in flag
    order, then R36 if exactly one player wins by it, else most flags and the last claim."""
    for i in range(NUM_FLAGS):
        if state.claimed[i] is not None:
            continue
        (x, cx), (y, cy) = state.cards[i].items()
        complete = [s for s, c in ((x, cx), (y, cy)) if len(c) >= SLOTS]
        owner: Seat | None = None
        if len(complete) == 1:
            owner = complete[0]
        elif len(complete) == 2:
            sx, sy = evaluate(cx).strength, evaluate(cy).strength
            owner = (x if sx > sy else y) if sx != sy else state.first_complete(i + 1)
        if owner is not None:
            state.claimed[i] = owner
            state.claims.append((i + 1, owner))
    winners = [(s, r) for s in SEATS if (r := wins_by_flags(s, set(state.held(s)))) is not None]
    if len(winners) == 1:
        _finish(state, *winners[0])
    else:
        _decide_by_flags(state)


def _finish(state: ThreeState, winner: Seat | None, reason: ThreeEnd) -> None:
    state.winner = winner
    state.end_reason = reason
    state.phase = ThreePhase.OVER
    state.claimable_now = ()


# -- what one player may see ----------------------------------------------------

_ALL_TROOPS = frozenset(ALL_TROOPS)


class ThreeView:
    """What one player may know (R13, R35): every flag's cards, every claim, their own hand, the
    sizes of the other hands and of the deck.  Never another hand or the order of the deck.

    >>> state = new_three_game(4, first=Seat.A)
    >>> view = ThreeView(state, Seat.B)
    >>> len(view.hand), view.hand_sizes, view.deck_size, view.line
    (7, {'a': 7, 'b': 7, 'c': 7}, 39, (1, 2, 3, 4, 5, 6))
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: ThreeState, player: Seat) -> None:
        self._state = state
        self.player = player

    @property
    def hand(self) -> tuple[Troop, ...]:
        return tuple(self._state.hands[self.player])

    @property
    def hand_sizes(self) -> dict[str, int]:
        return {s.value: len(self._state.hands[s]) for s in SEATS}

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def line(self) -> tuple[int, ...]:
        return LINES[self.player]

    def flag_cards(self, flag: int, seat: Seat) -> tuple[Card, ...]:
        """The troops on ``seat``'s side of ``flag`` (empty if ``seat`` does not play there)."""
        return tuple(self._state.cards[flag - 1].get(seat, ()))

    def claimed_by(self, flag: int) -> Seat | None:
        return self._state.claimed[flag - 1]

    def first_complete(self, flag: int) -> Seat | None:
        return self._state.first_complete(flag)

    def unseen_troops(self) -> frozenset[Troop]:
        """Troops not face up on any flag (R13, R35); this player's own hand included."""
        return _ALL_TROOPS.difference(self._state.visible)

    def claims(self) -> tuple[tuple[int, Seat], ...]:
        return tuple(self._state.claims)

    @property
    def turn(self) -> Seat:
        return self._state.turn

    @property
    def phase(self) -> ThreePhase:
        return self._state.phase

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    @property
    def winner(self) -> Seat | None:
        return self._state.winner

    @property
    def end_reason(self) -> ThreeEnd | None:
        return self._state.end_reason

    def can_still_win(self, seat: Seat) -> bool:
        return can_still_win(self._state, seat)

    def __repr__(self) -> str:
        return f"<ThreeView {self.player.name} turn {self._state.turn_number} {self._state.phase.value}>"


def play_three_game(bots: Sequence[Any], seed: int, first: Seat = Seat.A, max_actions: int = 5000) -> ThreeState:
    """Play one game to its end: ``bots[k]`` sits at ``SEATS[k]`` and chooses from its :class:`ThreeView`."""
    state = new_three_game(seed, first=first)
    views = {s: ThreeView(state, s) for s in SEATS}
    players = dict(zip(SEATS, bots, strict=True))
    for _ in range(max_actions):
        if state.over:
            return state
        seat = state.turn
        apply_three(state, players[seat].choose(views[seat], legal_three_moves(state)))
    raise RuntimeError(f"three-player game with seed {seed} did not end after {max_actions} actions")
