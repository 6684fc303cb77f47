"""The game session without a front end (battleline_lab.game.session): game flow tested with no ipywidgets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from battleline_lab.core.cards import Tactic
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import (
    Claim,
    Deck,
    Draw,
    Options,
    Phase,
    PlayCard,
    Player,
    PlayerView,
    RandomBot,
    legal_moves,
    new_game,
    score,
)
from battleline_lab.game.review import review
from battleline_lab.game.session import GameSession, Notice, action_path


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


# -- what the widget used to decide itself: the prompt, the offer, notices, opponent, coach, review --------


def play_randomly(session: GameSession, seed: int, *, until: object = None) -> None:
    """Click random legal moves until the game is over (or ``until(session)`` holds)."""
    chooser = RandomBot(seed)
    while not session.state.over and not (callable(until) and until(session)):
        action = chooser.choose(PlayerView(session.state, session.state.to_act), session.legal())
        for token in action_path(action):
            session.claim(token[1]) if token[0] == "claim" else session.choose(token)


def test_R5_R14_the_prompt_follows_the_phase_and_the_choice_in_progress() -> None:
    session = GameSession(bot="heuristic", seed=3)
    key, params = session.prompt()
    assert key == "game_widget.prompt.play" and params == {"player": Player.SOUTH}
    assert session.prompt(session.offer()) == (key, params)
    card = session.hand()[0]
    session.choose(("card", card))
    assert session.prompt() == ("game_widget.prompt.flag", {"card": card})
    session.choose(("flag", 5))
    assert session.prompt() == ("game_widget.prompt.draw", {"player": Player.SOUTH})
    play_randomly(session, 3)
    assert session.prompt() == session.prompt(session.offer()) == ("game_widget.prompt.over", {})


def test_R16_the_offer_groups_the_legal_moves_as_the_board_shows_them() -> None:
    session = GameSession(bot="random", seed=11)
    guile = {Tactic.DESERTER, Tactic.TRAITOR, Tactic.REDEPLOY}
    seen_targets = 0
    chooser = RandomBot(11)
    while not session.state.over:
        offer = session.offer()
        legal = session.legal()
        assert list(offer.legal) == legal
        assert offer.first == session.offered() and offer.current == session.offered(session.selection)
        assert offer.draw == (session.state.phase in (Phase.DRAW, Phase.SCOUT_DRAW))
        assert offer.claims == {n for n in range(1, 10) if session.state.claimed[n - 1] is None}
        for card in guile & {tok[1] for tok in offer.first if tok[0] == "card"}:
            session.choose(("card", card))
            targets = session.offer().targets
            assert {c for c, _flag in targets} == {tok[1] for tok in session.offered(session.selection)}
            for target, flag in targets:  # each target at the flag it is at on the table
                assert flag is not None and any(
                    target in session.state.cards[flag - 1][p] or target in session.state.env[flag - 1][p]
                    for p in Player
                )
            assert session.target_prompt() == f"game_widget.targets.{card.value}"
            seen_targets += len(targets)
            session.cancel()
        action = chooser.choose(PlayerView(session.state, session.state.to_act), legal)
        for token in action_path(action):
            session.claim(token[1]) if token[0] == "claim" else session.choose(token)
    assert session.offer().claims == frozenset() and session.offer().first == frozenset()
    assert seen_targets, "the game should have offered a guile card with targets"


def test_notices_last_until_the_next_click() -> None:
    session = GameSession(bot="heuristic", seed=3)
    assert session.notice is None
    refused = session.claim(5)
    assert session.notice is refused and refused.tone == "refused"
    session.cancel()
    assert session.notice is refused  # cancelling a choice keeps what was said
    session.choose(("card", session.hand()[0]))
    assert session.notice is None
    assert session.choose(("pass",)).kind == "not_offered" and session.notice is not None
    assert session.notice.tone == "refused"
    session.restart()
    assert session.notice is None


def test_R12_a_claim_the_engine_allows_is_made_and_said() -> None:
    session = GameSession(bot="random", seed=6)
    play_randomly(session, 6, until=lambda s: any(tok[0] == "claim" for tok in s.offered()))
    assert not session.state.over, "this seed offers the learner a claim before the end"
    flag = next(tok[1] for tok in session.offered() if tok[0] == "claim")
    notice = session.claim(flag)
    assert notice.kind == "claimed" and notice.tone == "claimed" and session.notice is notice
    assert session.state.claimed[flag - 1] is session.human


def test_the_opponent_changes_at_once_before_the_first_move_else_from_the_next_game() -> None:
    session = GameSession(bot="heuristic", seed=3)
    assert session.choose_bot("random") and session.bot is not None and session.bot.name == "random"
    assert session.state.turn_number == 1 and not session.state.history
    session.choose(("card", session.hand()[0]))
    session.choose(("flag", 1))
    assert not session.choose_bot("expert")
    assert session.bot.name == "random" and session.notice == Notice("bot_next", bot="expert")
    assert session.notice.tone == "info"
    seed = session.seed
    session.new_game()
    assert session.seed == seed + 1 and session.bot is not None and session.bot.name == "expert"
    assert not GameSession(bot=None, seed=1).choose_bot("random")  # two people on one screen: no bot to change


def test_the_suggestion_only_on_request_and_only_when_the_learner_plays() -> None:
    session = GameSession(bot="heuristic", seed=5)
    assert session.suggestion is None and session.notice is None
    notice = session.suggest_move()
    assert notice.kind == "suggestion" and notice.suggestion is session.suggestion
    assert notice.view is not None and notice.view.player is session.human
    assert session.suggestion is not None and session.suggestion.action in session.legal()
    for token in action_path(session.suggestion.action):
        session.choose(token)
    assert session.notice is None and session.state.phase is Phase.DRAW
    assert session.suggest_move().kind == "not_now"


def test_the_coach_is_shown_on_request_and_never_after_the_game() -> None:
    session = GameSession(bot="random", seed=2)
    assert not session.coach_visible
    session.show_coach(True)
    assert session.coach_visible
    for finding in session.coach():
        assert finding.now == (Claim(finding.flag) in session.legal())
    play_randomly(session, 2)
    assert session.coach_shown and not session.coach_visible


def test_R16_the_outcome_and_the_review_at_game_end(tmp_path: Path) -> None:
    session = GameSession(bot="random", seed=17)
    assert session.outcome() is None and session.open_review(tmp_path) is None
    play_randomly(session, 17)
    state = session.state
    outcome = session.outcome()
    assert outcome is not None and outcome.winner is state.winner and outcome.reason is state.end_reason
    assert outcome.points == score(state)
    assert outcome.flags == (tuple(state.held(state.winner)) if state.winner else ())
    result = session.open_review(tmp_path)
    assert result is not None and result == review(state, session.human) and session.review is result
    assert session.saved == ("saved", str(tmp_path) if result.moments else "")
    assert sorted(f.stem for f in tmp_path.glob("*.yaml")) == sorted(m.id for m in result.moments)
    assert session.moment == (0 if result.moments else None)
    if result.moments:
        assert session.open_moment(len(result.moments) - 1) is True
        assert session.moment == len(result.moments) - 1
    before = session.moment
    assert session.open_moment(len(result.moments)) is False and session.moment == before  # refused, unchanged
    session.new_game()
    assert session.review is None and session.saved is None and session.moment is None


def test_a_review_that_cannot_be_saved_says_why(tmp_path: Path) -> None:
    session = GameSession(bot="random", seed=17)
    play_randomly(session, 17)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    session.open_review(blocker / "review")
    assert session.saved is not None and session.saved[0] == "save_failed" and session.saved[1]


def test_R13_the_highlight_shows_the_choice_and_what_the_bot_did_since() -> None:
    session = GameSession(bot="heuristic", seed=3)
    card = session.hand()[0]
    session.choose(("card", card))
    assert session.highlight() == [card]
    session.choose(("flag", 5))
    session.choose(("draw", Deck.TROOPS))
    since = session.state.history[session.last_seen :]
    assert since[0][2] == Draw(Deck.TROOPS)  # the learner's own draw is not highlighted ...
    bot_plays = [a.card for _t, p, a in since if p is not session.human and isinstance(a, PlayCard)]
    assert bot_plays and session.highlight() == bot_plays  # ... the bot's card is


def test_resume_goes_on_from_a_state_set_from_outside() -> None:
    session = GameSession(bot="heuristic", seed=3)
    session.claim(5)
    session.state = new_game(9, Options(first=Player.NORTH))
    session.resume()  # the bot moves first, the old notice is gone
    assert session.notice is None and session.selection == ()
    assert session.state.to_act is session.human and session.state.history
    assert session.last_seen == 0 and session.highlight()  # the bot's first card is highlighted
