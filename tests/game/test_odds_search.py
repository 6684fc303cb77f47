"""The odds-search bot (the master before the judge): legal, reproducible, sees only its player's
view (R13), the same from either seat."""

from __future__ import annotations

import copy
import random
from typing import TypeVar

import pytest

from battleline_lab.game import (
    GameState,
    Phase,
    Player,
    PlayerView,
    legal_moves,
    make_bot,
    new_game,
)
from battleline_lab.game.bots import BOTS
from battleline_lab.game.match import play_game
from battleline_lab.game.odds_search import WIN_TABLE, OddsBot, OddsSearchBot, flag_chances, game_chance
from battleline_lab.game.state import Options

from .games import play_legally
from .test_expert import ROLLOUTS, _midgame, _reshuffle_hidden


def test_odds_search_is_registered_for_match_and_the_widget() -> None:
    assert "odds_search" in BOTS
    assert make_bot("odds_search", 1).name == "odds_search"


@pytest.mark.parametrize("seed", [3, 11, 27, 40])
def test_R13_odds_search_move_ignores_hidden_cards(seed: int) -> None:
    state = _midgame(seed)
    other = _reshuffle_hidden(state, seed)
    me = state.turn
    assert other.hands[me.other] != state.hands[me.other] or other.decks != state.decks
    legal = legal_moves(state)
    assert legal_moves(other) == legal
    a = OddsBot(seed).scores(PlayerView(state, me), legal)
    b = OddsBot(seed).scores(PlayerView(other, me), legal)
    assert a == b  # every move's worth by the odds, not only the choice
    search_a = OddsSearchBot(seed, rollouts=ROLLOUTS).search(PlayerView(state, me), legal)
    search_b = OddsSearchBot(seed, rollouts=ROLLOUTS).search(PlayerView(other, me), legal)
    assert search_a == search_b  # the same candidates, move and play-out record


T = TypeVar("T")


def _mirror(state: GameState) -> GameState:
    """The same game with the seats swapped: north's cards, hand and counts are south's, and back."""
    m = copy.deepcopy(state)
    n, s = Player.NORTH, Player.SOUTH

    def swap(d: dict[Player, T]) -> dict[Player, T]:
        return {n: d[s], s: d[n]}

    def other(p: Player | None) -> Player | None:
        return None if p is None else p.other

    m.hands = swap(m.hands)
    m.cards = [swap(c) for c in m.cards]
    m.env = [swap(e) for e in m.env]
    m.complete_at = [swap(c) for c in m.complete_at]
    m.discards = swap(m.discards)
    m.tactics_played = swap(m.tactics_played)
    m.leader_played = swap(m.leader_played)
    m.claimed = [other(c) for c in m.claimed]
    m.deck_marks = {d: [other(x) for x in marks] for d, marks in m.deck_marks.items()}
    m.turn, m.first = m.turn.other, m.first.other
    m.pending_discards = [(p.other, i) for p, i in m.pending_discards]
    m.claim_cache = {}
    m.claimable_now = None
    return m


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_odds_search_move_does_not_depend_on_its_seat(seed: int) -> None:
    state = _midgame(seed)
    mirrored = _mirror(state)
    me = state.turn
    legal = legal_moves(state)
    assert legal_moves(mirrored) == legal
    assert OddsBot(1).scores(PlayerView(state, me), legal) == OddsBot(1).scores(PlayerView(mirrored, me.other), legal)
    a = OddsSearchBot(1, rollouts=ROLLOUTS).search(PlayerView(state, me), legal)
    b = OddsSearchBot(1, rollouts=ROLLOUTS).search(PlayerView(mirrored, me.other), legal)
    assert a == b


def test_flag_chances_are_probabilities_and_claimed_flags_certain() -> None:
    state = _midgame(21, actions=60)
    view = PlayerView(state, state.turn)
    chances = flag_chances(view)
    assert len(chances) == 9 and all(0.0 <= p <= 1.0 for p in chances)
    for n, p in enumerate(chances, start=1):
        owner = view.claimed_by(n)
        if owner is not None:
            assert p == (1.0 if owner is view.player else 0.0)


def test_R16_game_chance_and_flag_worth() -> None:
    mine = 0b010010111  # flags 1 2 3 5 8: three adjacent; the opponent's 4 6 7 9 are not
    assert WIN_TABLE[mine] == 1.0 and WIN_TABLE[mine ^ 511] == 0.0
    assert WIN_TABLE[0b000111000] == 0.5  # both hold three adjacent flags: who was first is unknown
    assert WIN_TABLE[0b101010101] == 1.0  # five flags, no three adjacent on either side
    total, worth = game_chance([0.5] * 9)
    assert total == pytest.approx(0.5)
    assert worth[4] > worth[0] > 0  # the middle flag makes more triples
    rng = random.Random(3)
    p = [rng.random() for _ in range(9)]
    total, worth = game_chance(p)
    q = list(p)
    q[2] += 0.1
    assert game_chance(q)[0] - total == pytest.approx(0.1 * worth[2])  # linear in each flag's chance


def test_seeded_games_are_reproducible_and_alternate_the_first_move() -> None:
    for seed in (1, 2):
        for first in Player:
            a = play_game(OddsSearchBot(1, rollouts=ROLLOUTS), OddsBot(2), seed, Options(first=first))
            b = play_game(OddsSearchBot(1, rollouts=ROLLOUTS), OddsBot(2), seed, Options(first=first))
            assert a.first is first and a.over
            assert [x for _t, _p, x in a.history] == [x for _t, _p, x in b.history]


def test_odds_plays_only_legal_moves_in_every_phase() -> None:
    state = new_game(77)
    phases = play_legally(state, {Player.NORTH: OddsSearchBot(1, rollouts=ROLLOUTS), Player.SOUTH: OddsBot(2)})
    assert Phase.PLAY in phases
