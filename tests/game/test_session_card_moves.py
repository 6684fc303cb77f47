"""GameSession.card_moves: the flags each hand card may go to, decided by the engine (R6, R25, R27-R30).

The board component lights a card's flags in the browser without asking the kernel, so the
session must give it exactly the engine's ``PlayCard`` moves per card, and mark the cards whose
next choices the session makes (Scout, guile cards, Scout returns).
"""

from __future__ import annotations

import pytest

from battleline_lab.game import PlayCard, PlayerView, RandomBot, apply, legal_moves
from battleline_lab.game.session import GameSession, action_path


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_card_moves_are_the_engine_plays_per_card_at_every_step_of_whole_games(seed: int) -> None:
    session = GameSession(bot=None, seed=seed)
    chooser = RandomBot(seed)
    steps = 0
    while not session.state.over and steps < 400:
        legal = legal_moves(session.state)
        moves = session.card_moves()
        starts = {action_path(a)[0][1] for a in legal if action_path(a)[0][0] == "card"}
        assert set(moves) == starts  # every card that starts a move, and no other
        for card, flags in moves.items():
            mine = [a for a in legal if action_path(a)[0] == ("card", card)]
            if flags is None:  # the session makes the next choices: some move of this card is not a plain play
                assert any(not isinstance(a, PlayCard) for a in mine)
            else:
                assert all(isinstance(a, PlayCard) for a in mine)
                assert sorted(a.flag for a in mine if isinstance(a, PlayCard)) == list(flags)
        apply(session.state, chooser.choose(PlayerView(session.state, session.state.to_act), legal))
        steps += 1
    assert steps > 20
