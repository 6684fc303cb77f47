"""Whole games for the bot tests: played to the end, every move checked against ``legal_moves``."""

from __future__ import annotations

from collections.abc import Mapping

from battleline_lab.game import GameState, Phase, Player, PlayerView, apply, legal_moves
from battleline_lab.game.bot_base import Bot


def play_legally(state: GameState, bots: Mapping[Player, Bot]) -> set[Phase]:
    """Play ``state`` to its end, each player's bot choosing in its own view from the legal moves;
    every move chosen must be one of them.  The phases the game went through."""
    phases: set[Phase] = set()
    while not state.over:
        moves = legal_moves(state)
        action = bots[state.to_act].choose(PlayerView(state, state.to_act), moves)
        assert action in moves, (state.phase, action)
        phases.add(state.phase)
        apply(state, action)
    return phases
