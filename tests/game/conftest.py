"""Fixtures for the game tests: arrange a game state card by card."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from battleline_lab.core.cards import Card, Tactic, Troop, parse_cards
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Deck, GameState, Options, Player, new_game
from battleline_lab.game.rules import _restamp

Arrange = Callable[..., GameState]


def _take(state: GameState, card: Card) -> None:
    """Remove a card from the decks or hands (where undealt cards are)."""
    for deck in Deck:
        if card in state.decks[deck]:
            index = state.decks[deck].index(card)
            del state.decks[deck][index]
            del state.deck_marks[deck][index]
            return
    for player in Player:
        if card in state.hands[player]:
            state.hands[player].remove(card)
            return
    raise AssertionError(f"{card} is already placed")


def arrange(
    seed: int = 0,
    *,
    turn: str = "south",
    timing: str = "after_play",
    hands: Mapping[str, str] | None = None,
    flags: Mapping[int, Mapping[str, str]] | None = None,
    discards: Mapping[str, str] | None = None,
    claimed: Mapping[int, str] | None = None,
    deck_top: Mapping[str, str] | None = None,
    deck_only: Mapping[str, str] | None = None,
) -> GameState:
    """A game at the start of ``turn``'s turn with the given cards placed.

    Flag sides are placed in the order their keys are written, card by card
    (so the side written first completes first, R11).  Tactics cards on the
    table or in a player's discards count as played by that player (R18).
    ``hands`` replaces a hand completely (the old cards go under their deck).
    ``deck_top`` puts cards on top of a deck, first listed on top;
    ``deck_only`` leaves only those cards in a deck and sets the others aside
    in ``state.limbo`` (so that the card count still adds up to 70).
    """
    state = new_game(seed, Options(ClaimTiming(timing), first=Player(turn)))
    state.limbo = []  # type: ignore[attr-defined]
    for name in hands or {}:
        player = Player(name)
        for card in state.hands[player]:
            deck = Deck.of(card)
            state.decks[deck].insert(0, card)
            state.deck_marks[deck].insert(0, None)
        state.hands[player] = []
    for n, sides in (flags or {}).items():
        for name, spec in sides.items():
            player = Player(name)
            for card in parse_cards(spec):
                _take(state, card)
                if isinstance(card, Tactic):
                    state.tactics_played[player] += 1
                    state.leader_played[player] |= card.is_leader
                if isinstance(card, Tactic) and card.is_environment:
                    state.env[n - 1][player].append(card)
                    state.refresh_env(n - 1)
                else:
                    state.cards[n - 1][player].append(card)
                if isinstance(card, Troop):
                    state.visible_troops.add(card)
                _restamp(state, n - 1, player)
    for name, spec in (discards or {}).items():
        player = Player(name)
        for card in parse_cards(spec):
            _take(state, card)
            state.discards[player].append(card)
            if isinstance(card, Troop):
                state.visible_troops.add(card)
            else:
                state.tactics_played[player] += 1
                state.leader_played[player] |= card.is_leader
    for n, name in (claimed or {}).items():
        state.claimed[n - 1] = Player(name)
    for name, spec in (hands or {}).items():
        for card in parse_cards(spec):
            _take(state, card)
            state.hands[Player(name)].append(card)
    for name, spec in (deck_top or {}).items():
        deck = Deck(name)
        for card in reversed(parse_cards(spec)):
            _take(state, card)
            state.decks[deck].append(card)
            state.deck_marks[deck].append(None)
    for name, spec in (deck_only or {}).items():
        deck = Deck(name)
        keep = list(parse_cards(spec))
        state.limbo.extend(c for c in state.decks[deck] if c not in keep)  # type: ignore[attr-defined]
        state.decks[deck] = [c for c in state.decks[deck] if c in keep]
        state.deck_marks[deck] = [None] * len(state.decks[deck])
    state.claim_cache.clear()
    return state


@pytest.fixture
def arranged() -> Arrange:
    """The :func:`arrange` helper."""
    return arrange
