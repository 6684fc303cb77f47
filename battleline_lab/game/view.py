"""What one player may know of a game, and a game moment as a puzzle position.

A :class:`PlayerView` shows a player the public table (R13: every flag, the
environment cards, both discard areas), their own hand, the sizes of the
opponent's hand and of the decks, how many tactics cards the opponent holds (a
public count), and the cards they themselves put back on a deck with a Scout
(R27).  It never shows the opponent's hand or the order of
the decks.  Bots receive views, not states.

:func:`to_position` turns a game moment into a :class:`~battleline_lab.core.position.Position`
seen by one player (that player is ``you``), the input of every claim proof;
:func:`to_puzzle_dict` gives the same as plain data in the puzzle file format,
so a teacher can save a moment of a game as a puzzle.

>>> from battleline_lab.game.state import new_game, Options, Player
>>> state = new_game(3, Options(first=Player.SOUTH))
>>> view = PlayerView(state, Player.NORTH)
>>> len(view.hand), view.opponent_hand_size, view.deck_sizes
(7, 7, {'troops': 46, 'tactics': 10})
>>> sorted(to_puzzle_dict(state, Player.SOUTH))
['flags', 'hand', 'rules', 'turn']
"""

from __future__ import annotations

from typing import Any

from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop
from ..core.position import FlagState, Position, Side
from .state import NUM_FLAGS, Deck, EndReason, GameState, Options, Phase, Player

__all__ = ["PlayerView", "to_position", "to_puzzle_dict"]

_ALL_TROOPS = frozenset(ALL_TROOPS)


def _side(player: Player, viewer: Player) -> Side:
    return Side.YOU if player is viewer else Side.OPPONENT


def to_position(state: GameState, viewer: Player, *, hand: bool = True) -> Position:
    """The table as ``viewer`` sees it, ``viewer`` being ``you`` (R13).

    Each side lists its formation cards, then its environment cards;
    ``first_complete`` is set where both sides are complete (R11); the
    viewer's hand is included (it is never evidence, R13) unless ``hand=False``.
    """
    other = viewer.other
    flags = []
    for i in range(NUM_FLAGS):
        cards, env = state.cards[i], state.env[i]
        first = state.first_complete(i)
        claimed = state.claimed[i]
        flags.append(
            FlagState(
                you=tuple(cards[viewer]) + tuple(env[viewer]),
                opponent=tuple(cards[other]) + tuple(env[other]),
                first_complete=None if first is None else _side(first, viewer),
                claimed_by=None if claimed is None else _side(claimed, viewer),
            )
        )
    return Position(
        flags=tuple(flags),
        discards_you=tuple(state.discards[viewer]),
        discards_opponent=tuple(state.discards[other]),
        hand_you=tuple(state.hands[viewer]) if hand else (),
        turn=_side(state.turn, viewer),
        claim_timing=state.options.claim_timing,
    )


def to_puzzle_dict(state: GameState, viewer: Player, *, hand: bool = True) -> dict[str, Any]:
    """The moment as plain data in the puzzle (position) file format, seen by ``viewer``.

    Only non-empty parts are written, but ``rules`` always is (a game's claim
    timing is never implicit, R14); dump it with ``yaml.safe_dump`` to get a
    puzzle file (add ``id``, ``title``, ``question``... by hand).
    """
    position = to_position(state, viewer, hand=hand)
    return {"rules": {"claim_timing": position.claim_timing.value}} | position.to_data()


class PlayerView:
    """A read-only window on a game for one player: public table, own hand, counts.

    It wraps the live state (no copy, so it is cheap) and exposes nothing
    hidden from ``player``.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: GameState, player: Player) -> None:
        self._state = state
        self.player = player

    # -- own information ----------------------------------------------
    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(self._state.hands[self.player])

    @property
    def known_deck_tops(self) -> dict[str, tuple[Card, ...]]:
        """Per deck, cards this player put back with a Scout that are still on top, top first (R27)."""
        out: dict[str, tuple[Card, ...]] = {}
        for deck in Deck:
            cards, marks = self._state.decks[deck], self._state.deck_marks[deck]
            known: list[Card] = []
            for card, mark in zip(reversed(cards), reversed(marks)):
                if mark is not self.player:
                    break
                known.append(card)
            out[deck.value] = tuple(known)
        return out

    # -- public information -------------------------------------------
    @property
    def opponent_hand_size(self) -> int:
        return len(self._state.hands[self.player.other])

    @property
    def deck_sizes(self) -> dict[str, int]:
        return {d.value: len(self._state.decks[d]) for d in Deck}

    @property
    def opponent_hand_tactics(self) -> int:
        """How many tactics cards the opponent holds, from public counts only: the tactics deck is
        a deck of its own (R4), so its size is seen, and every other tactics card is face up (flags,
        environment, discards, R13, R31) or in this player's hand; the rest of the ten (R2) are in
        the opponent's hand.  Their hand itself is never read."""
        state = self._state
        known = len(state.decks[Deck.TACTICS]) + sum(isinstance(c, Tactic) for c in state.hands[self.player])
        for player in (self.player, self.player.other):
            known += sum(isinstance(c, Tactic) for c in state.discards[player])
            for i in range(NUM_FLAGS):
                known += sum(isinstance(c, Tactic) for c in state.cards[i][player]) + len(state.env[i][player])
        return len(ALL_TACTICS) - known

    def flag_cards(self, flag: int, player: Player) -> tuple[Card, ...]:
        """Formation cards (troops, morale) on ``player``'s side of flag 1-9."""
        return tuple(self._state.cards[flag - 1][player])

    def flag_env(self, flag: int, player: Player) -> tuple[Tactic, ...]:
        return tuple(self._state.env[flag - 1][player])

    def flag_sides(self, flag: int) -> tuple[tuple[Card, ...], tuple[Card, ...], list[Tactic], Player | None]:
        """Flag 1-9 at once: this player's formation cards, the opponent's, every environment card
        there (this player's first) and who completed first (R11); for the bots' hot loops."""
        i = flag - 1
        state = self._state
        me = self.player
        other = me.other
        cards, env = state.cards[i], state.env[i]
        return tuple(cards[me]), tuple(cards[other]), env[me] + env[other], state.first_complete(i)

    def claimed_by(self, flag: int) -> Player | None:
        return self._state.claimed[flag - 1]

    def size(self, flag: int) -> int:
        return self._state.size(flag - 1)

    def fog(self, flag: int) -> bool:
        return self._state.fog(flag - 1)

    def mud(self, flag: int) -> bool:
        return self._state.mud(flag - 1)

    def first_complete(self, flag: int) -> Player | None:
        return self._state.first_complete(flag - 1)

    def discards(self, player: Player) -> tuple[Card, ...]:
        return tuple(self._state.discards[player])

    def unseen_troops(self) -> frozenset[Troop]:
        """Troops not face up on the table (R13); includes this player's own hand."""
        return _ALL_TROOPS.difference(self._state.visible_troops)

    def tactics_played(self, player: Player) -> int:
        return self._state.tactics_played[player]

    def leader_played(self, player: Player) -> bool:
        return self._state.leader_played[player]

    @property
    def options(self) -> Options:
        return self._state.options

    @property
    def turn(self) -> Player:
        return self._state.turn

    @property
    def to_act(self) -> Player:
        return self._state.to_act

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    @property
    def pending_discard_flag(self) -> int | None:
        """During a Mud discard (R26), the flag (1-9) where this player must discard."""
        pending = self._state.pending_discards
        if pending and pending[0][0] is self.player:
            return pending[0][1] + 1
        return None

    @property
    def winner(self) -> Player | None:
        return self._state.winner

    @property
    def end_reason(self) -> EndReason | None:
        return self._state.end_reason

    def position(self) -> Position:
        """The table as a :class:`Position`, this player being ``you``."""
        return to_position(self._state, self.player)

    def __repr__(self) -> str:
        return f"<PlayerView {self.player.value} turn {self._state.turn_number} {self._state.phase.value}>"
