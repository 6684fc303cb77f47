"""The coach names the claim window (R14) when it decides the move: a Deserter or Traitor that
breaks a finished formation the opponent would claim (R29, R30), and, with claims at the start
of the turn, a formation of ours that stands through the opponent's turn; in English and Chinese."""

from __future__ import annotations

import pytest

from battleline_lab.core.cards import Tactic, parse_card
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Player, PlayerView, legal_moves
from battleline_lab.game.actions import Deserter, PlayCard
from battleline_lab.game.advice import advice_text, advise, window_lines
from battleline_lab.text.messages import message

from .test_master_guile import FOURS, _table

WEDGE = {3: ("r9 r10", "y4")}  # the hand's r8 completes a sure Wedge at flag 3


def _lines(hand: str, flags: dict[int, tuple[str, str]], timing: ClaimTiming, lang: str) -> tuple[object, list[str]]:
    state = _table(hand, flags, timing)
    view = PlayerView(state, Player.SOUTH)
    advice = advise(view, legal_moves(state))
    return advice.action, advice_text(view, advice, lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R29_the_coach_says_the_deserter_saves_a_flag_they_would_claim(lang: str) -> None:
    action, lines = _lines("deserter r7 g1 y2 o2 p3 b9", FOURS, ClaimTiming.START_OF_TURN, lang)
    assert isinstance(action, Deserter)
    kind = message("kind.phalanx", lang)
    assert message("coach.window.break", lang, flag=6, kind=kind) in lines


WINDOW = [
    pytest.param(ClaimTiming.START_OF_TURN, "", True, id="R14-start-of-turn-the-wedge-stands-a-turn"),
    pytest.param(ClaimTiming.AFTER_PLAY, "", False, id="R14-after-play-it-is-claimed-at-once"),
    pytest.param(ClaimTiming.START_OF_TURN, "deserter traitor", False, id="R29-R30-no-guile-left-unseen"),
]


@pytest.mark.parametrize(("timing", "seen", "named"), WINDOW)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R14_the_coach_names_the_window_a_finished_formation_stands_in(
    timing: ClaimTiming, seen: str, named: bool, lang: str
) -> None:
    state = _table("r8 b2 g5 y7 p3 o4 b6", WEDGE, timing)
    for name in seen.split():
        tactic = parse_card(name)
        assert isinstance(tactic, Tactic)
        state.decks[next(iter(d for d in state.decks if tactic in state.decks[d]))].remove(tactic)
        state.discards[Player.NORTH].append(tactic)
    view = PlayerView(state, Player.SOUTH)
    advice = advise(view, legal_moves(state))
    assert advice.action == PlayCard(parse_card("r8"), 3)
    expected = message("coach.window.protect", lang, flag=3, kind=message("kind.wedge", lang))
    assert (expected in window_lines(view, advice, lang)) is named
    assert (expected in advice_text(view, advice, lang)) is named
