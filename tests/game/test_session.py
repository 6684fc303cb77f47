"""The game session without a front end (battleline_lab.game.session): game flow tested with no ipywidgets."""

from __future__ import annotations

import subprocess
import sys

import pytest

from battleline_lab.game import PlayerView, RandomBot, legal_moves
from battleline_lab.game.session import GameSession, action_path
from battleline_lab.position import ClaimTiming


def paths_from_offered(session: GameSession) -> set[tuple[object, ...]]:
    """Every full click path the session offers, walked token by token."""
    full: set[tuple[object, ...]] = set()
    legal_paths = {action_path(a) for a in session.legal()}
    frontier: list[tuple[object, ...]] = [()]
    while frontier:
        prefix = frontier.pop()
        if prefix in legal_paths:
            full.add(prefix)
        for token in session.offered(prefix):  # type: ignore[arg-type]
            frontier.append((*prefix, token))
    return full


@pytest.mark.parametrize("timing", list(ClaimTiming))
def test_R16_a_whole_game_by_clicks_offers_exactly_the_legal_moves(timing: ClaimTiming) -> None:
    session = GameSession(bot="heuristic", seed=7, claim_timing=timing)
    chooser = RandomBot(7)
    steps = 0
    while not session.state.over:
        legal = legal_moves(session.state)
        if steps % 5 == 0:
            assert paths_from_offered(session) == {action_path(a) for a in legal}
        action = chooser.choose(PlayerView(session.state, session.state.to_act), legal)
        before = len(session.state.history)
        *firsts, last = action_path(action)
        for token in firsts:
            assert session.choose(token).kind == "chosen"
        notice = session.claim(last[1]) if last[0] == "claim" else session.choose(last)
        assert notice.kind in ("played", "claimed")
        assert session.state.history[before][2] == action
        steps += 1
        assert steps < 2000
    assert session.choose(("pass",)).kind == "over" and session.claim(1).kind == "over"


def test_R13_R15_tally_and_the_bot_hand_only_at_the_end() -> None:
    session = GameSession(bot="random", seed=4)
    assert session.tally() == (0, 0) and session.revealed_hand() == ()
    chooser = RandomBot(4)
    while not session.state.over:
        assert session.revealed_hand() == ()
        action = chooser.choose(PlayerView(session.state, session.state.to_act), session.legal())
        for token in action_path(action):
            session.claim(token[1]) if token[0] == "claim" else session.choose(token)
    state = session.state
    assert session.tally() == (len(state.held(session.human)), len(state.held(session.human.other)))
    assert sorted(session.revealed_hand(), key=str) == sorted(state.hands[session.human.other], key=str)
    session.restart(5)
    assert not session.state.over and session.tally() == (0, 0)


def test_R12_a_refused_claim_carries_the_engine_proof_and_counterexample() -> None:
    session = GameSession(bot="heuristic", seed=3)
    notice = session.claim(5)
    assert notice.kind == "refused" and notice.error is not None and notice.analysis is not None
    assert notice.analysis.flag == 5 and not notice.analysis.claimable


def test_a_click_that_is_not_offered_changes_nothing() -> None:
    session = GameSession(bot="heuristic", seed=3)
    before = len(session.state.history)
    assert session.choose(("flag", 5)).kind == "not_offered"  # no card chosen yet
    assert len(session.state.history) == before and not session.selection
    card = session.hand()[0]
    assert session.choose(("card", card)).kind == "chosen" and session.selection == (("card", card),)
    session.cancel()
    assert not session.selection


def test_the_coach_lists_claimable_flags_first() -> None:
    session = GameSession(bot="random", seed=2)
    chooser = RandomBot(2)
    seen = False
    while not session.state.over and not seen:
        findings = session.coach()
        flags = [f.claimable for f in findings]
        assert flags == sorted(flags, reverse=True)
        seen = any(flags)
        action = chooser.choose(PlayerView(session.state, session.state.to_act), session.legal())
        for token in action_path(action):
            session.claim(token[1]) if token[0] == "claim" else session.choose(token)


def test_the_session_imports_no_front_end() -> None:
    code = "import sys, battleline_lab.game.session; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
