"""The state of a game of Battle Line: decks, hands, flags, discards, turn and phase.

A :class:`GameState` holds everything, hidden information included: both hands,
the order of both decks, who completed each side of each flag when (R11), how
many tactics cards each player has played (R18) and whether they played a
Leader (R20).  :func:`new_game` deals a game from a seed (R4): the same seed and
options always give the same game.

The state is mutable for speed; :mod:`battleline_lab.game.rules` changes it
(``apply``) and lists what may happen next (``legal_moves``).  Players see it
only through :mod:`battleline_lab.game.view`.

>>> state = new_game(7)
>>> len(state.hands[Player.NORTH]), len(state.hands[Player.SOUTH]), len(state.decks[Deck.TROOPS])
(7, 7, 46)
>>> new_game(7).hands == state.hands
True
>>> state.phase, state.turn in Player
(<Phase.PLAY: 'play'>, True)
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop
from ..core.position import ClaimTiming

if TYPE_CHECKING:
    from .actions import Action

__all__ = [
    "Deck",
    "EndReason",
    "GameState",
    "HAND_LIMIT",
    "Options",
    "Phase",
    "Player",
    "new_game",
]

HAND_LIMIT = 7  # R8
NUM_FLAGS = 9


class Player(enum.Enum):
    """The two players of a game, named by where they sit at the table."""

    NORTH = "north"
    SOUTH = "south"

    __hash__ = object.__hash__  # members are singletons: identity hashing is fast and consistent

    other: Player  # the opponent; a plain attribute (set below the class): read in hot loops without a call

    def __repr__(self) -> str:
        return f"Player.{self.name}"


Player.NORTH.other = Player.SOUTH
Player.SOUTH.other = Player.NORTH


class Deck(enum.Enum):
    """The two draw decks (R4): troops and tactics."""

    TROOPS = "troops"
    TACTICS = "tactics"

    __hash__ = object.__hash__

    @classmethod
    def of(cls, card: Card) -> Deck:
        """The deck a card belongs to (a Scout return goes back there, R27)."""
        return cls.TROOPS if isinstance(card, Troop) else cls.TACTICS


class Phase(enum.Enum):
    """Where in a turn the game is (R5, R14, R26, R27).

    ``PLAY``, ``CLAIM`` and ``DRAW`` are the three steps of a turn, in the
    order the claim timing sets; ``SCOUT_DRAW``/``SCOUT_RETURN`` follow a
    Scout (R27) and ``MUD_DISCARD`` follows Mud leaving a flag where a side
    holds 4 cards (R26).  ``OVER``: the game has ended.
    """

    PLAY = "play"
    CLAIM = "claim"
    DRAW = "draw"
    SCOUT_DRAW = "scout_draw"
    SCOUT_RETURN = "scout_return"
    MUD_DISCARD = "mud_discard"
    OVER = "over"

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<Phase.{self.name}: {self.value!r}>"


STEPS: dict[ClaimTiming, tuple[Phase, ...]] = {
    ClaimTiming.AFTER_PLAY: (Phase.PLAY, Phase.CLAIM, Phase.DRAW),
    ClaimTiming.START_OF_TURN: (Phase.CLAIM, Phase.PLAY, Phase.DRAW),
    ClaimTiming.END_OF_TURN: (Phase.PLAY, Phase.DRAW, Phase.CLAIM),
}

_STEPS_BY_ID = {id(timing): steps for timing, steps in STEPS.items()}  # enum members are singletons

# Enum members read in the hot paths, bound once: ``Player.NORTH`` is looked up through the Enum
# metaclass, about ten times slower than reading a module constant (CPython 3.11)
_NORTH, _SOUTH = Player.NORTH, Player.SOUTH
_MUD_DISCARD, _OVER = Phase.MUD_DISCARD, Phase.OVER
_FOG, _MUD = Tactic.FOG, Tactic.MUD


class EndReason(enum.Enum):
    """Why a game ended: R16, or the project's ruling for a blocked game (docs/game.md)."""

    BREAKTHROUGH = "breakthrough"  # 3 adjacent flags (R16)
    ENVELOPMENT = "envelopment"  # any 5 flags (R16)
    BLOCKED = "blocked"  # ruling G5: nobody moves on; flags go as they stand; R16, else more flags, wins
    BLOCKED_DRAW = "blocked_draw"  # ruling G5: ... and neither wins by R16 or by more flags


@dataclass(frozen=True)
class Options:
    """Rules options of a game: the claim timing (R14) and who starts.

    ``first=None`` lets the seed choose (R4: a seeded random choice is
    equivalent to cutting the deck).
    """

    claim_timing: ClaimTiming = ClaimTiming.AFTER_PLAY
    first: Player | None = None

    def as_dict(self) -> dict[str, str]:
        out = {"claim_timing": self.claim_timing.value}
        if self.first is not None:
            out["first"] = self.first.value
        return out


@dataclass
class GameState:
    """Everything about a game at one moment, hidden information included.

    Flags are indexed 0-8 internally (flag number minus one).  ``cards`` holds
    the formation cards (troops and morale) on each side, ``env`` the
    environment cards each side placed there (R24, R25).  ``complete_at`` is a
    clock stamp per side (R11): set when the side reaches its size, cleared when
    it drops below.  Decks have their top card last.
    """

    seed: int
    options: Options
    decks: dict[Deck, list[Card]]
    hands: dict[Player, list[Card]]
    cards: list[dict[Player, list[Card]]] = field(
        default_factory=lambda: [{p: [] for p in Player} for _ in range(NUM_FLAGS)]
    )
    env: list[dict[Player, list[Tactic]]] = field(
        default_factory=lambda: [{p: [] for p in Player} for _ in range(NUM_FLAGS)]
    )
    claimed: list[Player | None] = field(default_factory=lambda: [None] * NUM_FLAGS)
    mud_at: list[bool] = field(default_factory=lambda: [False] * NUM_FLAGS)
    complete_at: list[dict[Player, int | None]] = field(
        default_factory=lambda: [{p: None for p in Player} for _ in range(NUM_FLAGS)]
    )
    discards: dict[Player, list[Card]] = field(default_factory=lambda: {p: [] for p in Player})
    tactics_played: dict[Player, int] = field(default_factory=lambda: {p: 0 for p in Player})
    leader_played: dict[Player, bool] = field(default_factory=lambda: {p: False for p in Player})
    # who put each deck card where it is (a Scout return, R27), parallel to the deck; None = dealt
    deck_marks: dict[Deck, list[Player | None]] = field(default_factory=dict)
    visible_troops: set[Troop] = field(default_factory=set)
    turn: Player = Player.SOUTH
    first: Player = Player.SOUTH
    phase: Phase = Phase.PLAY
    step: int = 0
    clock: int = 0
    turn_number: int = 1
    scout_draws: int = 0
    scout_returns: int = 0
    scouted: bool = False
    passed: bool = False
    acted: bool = False  # claimed or drew this turn
    idle_streak: int = 0
    pending_discards: list[tuple[Player, int]] = field(default_factory=list)
    winner: Player | None = None
    end_reason: EndReason | None = None
    history: list[tuple[int, Player, Action]] = field(default_factory=list)  # (turn, actor, action)
    claim_cache: dict[tuple[int, Player], tuple[object, bool, tuple[Troop, ...]]] = field(default_factory=dict)
    claimable_now: tuple[int, ...] | None = None

    # -- derived ------------------------------------------------------
    @property
    def to_act(self) -> Player:
        """Who must choose the next action: the player to move, or the owner of a Mud discard (R26)."""
        if self.phase is _MUD_DISCARD:
            return self.pending_discards[0][0]
        return self.turn

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def steps(self) -> tuple[Phase, ...]:
        return _STEPS_BY_ID[id(self.options.claim_timing)]  # STEPS[...], without hashing the enum member

    def mud(self, i: int) -> bool:
        return self.mud_at[i]

    def fog(self, i: int) -> bool:
        e = self.env[i]
        return _FOG in e[_NORTH] or _FOG in e[_SOUTH]

    def size(self, i: int) -> int:
        """Slots per side at flag index ``i``: 3, or 4 with Mud (R6, R25)."""
        return 4 if self.mud_at[i] else 3

    def refresh_env(self, i: int) -> None:
        """Call after changing the environment cards at flag index ``i``."""
        e = self.env[i]
        self.mud_at[i] = _MUD in e[_NORTH] or _MUD in e[_SOUTH]

    def free_slot(self, i: int, player: Player) -> bool:
        """An unclaimed flag (R15) with room on ``player``'s side (R6)."""
        return self.claimed[i] is None and len(self.cards[i][player]) < self.size(i)

    def held(self, player: Player) -> list[int]:
        """Flag numbers (1-9) ``player`` has claimed."""
        return [i + 1 for i, c in enumerate(self.claimed) if c is player]

    def first_complete(self, i: int) -> Player | None:
        """Who completed first at flag index ``i`` when both sides are complete (R11)."""
        stamps = self.complete_at[i]
        n, s = stamps[_NORTH], stamps[_SOUTH]
        if n is None or s is None:
            return None
        return _NORTH if n < s else _SOUTH

    def card_count(self) -> int:
        """How many cards the state holds in all places (always 70, R1, R2)."""
        total = sum(len(d) for d in self.decks.values()) + sum(len(h) for h in self.hands.values())
        total += sum(len(d) for d in self.discards.values())
        for i in range(NUM_FLAGS):
            for p in Player:
                total += len(self.cards[i][p]) + len(self.env[i][p])
        return total

    def copy(self) -> GameState:
        """An independent copy (for look-ahead); the history is shared-nothing too."""
        return GameState(
            seed=self.seed,
            options=self.options,
            decks={d: list(c) for d, c in self.decks.items()},
            hands={p: list(h) for p, h in self.hands.items()},
            # both players in the enum's order, written out: a copy per look-ahead step made Player's
            # Enum.__iter__ (a generator) a visible cost of the search bots
            cards=[{_NORTH: list(s[_NORTH]), _SOUTH: list(s[_SOUTH])} for s in self.cards],
            env=[{_NORTH: list(s[_NORTH]), _SOUTH: list(s[_SOUTH])} for s in self.env],
            claimed=list(self.claimed),
            mud_at=list(self.mud_at),
            complete_at=[dict(c) for c in self.complete_at],
            discards={p: list(d) for p, d in self.discards.items()},
            tactics_played=dict(self.tactics_played),
            leader_played=dict(self.leader_played),
            deck_marks={d: list(m) for d, m in self.deck_marks.items()},
            visible_troops=set(self.visible_troops),
            turn=self.turn,
            first=self.first,
            phase=self.phase,
            step=self.step,
            clock=self.clock,
            turn_number=self.turn_number,
            scout_draws=self.scout_draws,
            scout_returns=self.scout_returns,
            scouted=self.scouted,
            passed=self.passed,
            acted=self.acted,
            idle_streak=self.idle_streak,
            pending_discards=list(self.pending_discards),
            winner=self.winner,
            end_reason=self.end_reason,
            history=list(self.history),
            claim_cache=dict(self.claim_cache),
            claimable_now=self.claimable_now,
        )

    def __repr__(self) -> str:
        status = f"over, {self.winner.value if self.winner else 'no'} winner" if self.over else self.phase.value
        return f"<GameState seed={self.seed} turn {self.turn_number} {self.turn.value} {status}>"


def new_game(seed: int, options: Options | None = None) -> GameState:
    """Deal a game (R4): shuffle both decks, 7 troops to each player, choose who starts.

    Everything random comes from ``random.Random(seed)``, so the same seed and
    options give the same game.  The starting player deals second; with
    ``options.first`` unset the seed chooses (R4).
    """
    options = options or Options()
    rng = random.Random(seed)
    troops: list[Card] = list(ALL_TROOPS)
    tactics: list[Card] = list(ALL_TACTICS)
    rng.shuffle(troops)
    rng.shuffle(tactics)
    first = options.first if options.first is not None else rng.choice((Player.NORTH, Player.SOUTH))
    hands: dict[Player, list[Card]] = {first: [], first.other: []}
    for _ in range(HAND_LIMIT):
        for p in (first, first.other):
            hands[p].append(troops.pop())
    decks = {Deck.TROOPS: troops, Deck.TACTICS: tactics}
    state = GameState(seed=seed, options=options, decks=decks, hands=hands)
    state.deck_marks = {d: [None] * len(c) for d, c in decks.items()}
    state.turn = state.first = first
    # nothing can be claimed before the first card is played: skip a leading claim step
    steps = STEPS[options.claim_timing]
    state.step = 1 if steps[0] is Phase.CLAIM else 0
    state.phase = steps[state.step]
    return state
