"""Every bot's moves are a function of the position it sees and its seed, not of its seat.

A game is mirrored: north and south swap everywhere (hands, flags, environment, claims, the
clock stamps of R11, discards, the Scout marks of R27, who moves, the history's actors).  The
same bot with the same seed, asked for a move from the mirrored seat, must choose the same action.
Mirrored deals then give mirrored games, so a match measures the bots and not the seats.
"""

from __future__ import annotations

import pytest

from battleline_lab.game import GameState, Player, PlayerView, apply, legal_moves, make_bot, new_game
from battleline_lab.game.bots import BOTS
from battleline_lab.game.state import Options


def mirror(state: GameState) -> GameState:
    """The same game with north and south swapped."""
    m = state.copy()

    def swap(d: dict[Player, object]) -> dict[Player, object]:
        return {p: d[p.other] for p in Player}

    m.hands = swap(m.hands)  # type: ignore[arg-type,assignment]
    m.cards = [swap(s) for s in m.cards]  # type: ignore[arg-type,misc]
    m.env = [swap(s) for s in m.env]  # type: ignore[arg-type,misc]
    m.complete_at = [swap(c) for c in m.complete_at]  # type: ignore[arg-type,misc]
    m.discards = swap(m.discards)  # type: ignore[arg-type,assignment]
    m.tactics_played = swap(m.tactics_played)  # type: ignore[arg-type,assignment]
    m.leader_played = swap(m.leader_played)  # type: ignore[arg-type,assignment]
    m.claimed = [None if c is None else c.other for c in m.claimed]
    m.deck_marks = {d: [None if p is None else p.other for p in marks] for d, marks in m.deck_marks.items()}
    m.turn, m.first = m.turn.other, m.first.other
    m.winner = None if m.winner is None else m.winner.other
    m.pending_discards = [(p.other, n) for p, n in m.pending_discards]
    m.history = [(t, p.other, a) for t, p, a in m.history]
    m.claim_cache = {(i, p.other): v for (i, p), v in m.claim_cache.items()}
    m.options = Options(m.options.claim_timing, None if m.options.first is None else m.options.first.other)
    return m


def _positions(seed: int, every: int) -> list[GameState]:
    """Positions from one game between heuristic bots (all phases, both players to act)."""
    state = new_game(seed, Options(first=Player.SOUTH if seed % 2 else Player.NORTH))
    bots = {p: make_bot("heuristic", seed=seed + k) for k, p in enumerate(Player)}
    out: list[GameState] = []
    step = 0
    while not state.over:
        moves = legal_moves(state)
        if step % every == 0 and len(moves) > 1:
            out.append(state.copy())
        actor = state.to_act
        apply(state, bots[actor].choose(PlayerView(state, actor), moves))
        step += 1
    return out


def test_mirror_is_an_involution_and_keeps_the_legal_moves() -> None:
    for state in _positions(3, 7):
        twice = mirror(mirror(state))
        assert twice.hands == state.hands and twice.cards == state.cards and twice.turn is state.turn
        assert legal_moves(mirror(state)) == legal_moves(state)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_chooses_the_same_move_from_either_seat(name: str) -> None:
    kwargs = {"rollouts": 6} if name == "expert" else {}
    every = 9 if name == "expert" else 3
    checked = 0
    for seed in (1, 2):
        for state in _positions(seed, every):
            actor = state.to_act
            moves = legal_moves(state)
            here = make_bot(name, seed=40 + seed, **kwargs).choose(PlayerView(state, actor), moves)  # type: ignore[arg-type]
            flipped = mirror(state)
            there = make_bot(name, seed=40 + seed, **kwargs).choose(  # type: ignore[arg-type]
                PlayerView(flipped, actor.other), legal_moves(flipped)
            )
            assert here == there, (name, seed, state.turn_number, here, there)
            checked += 1
    assert checked >= 10
