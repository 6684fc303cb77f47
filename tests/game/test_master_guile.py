"""The master's guile and the claim window: table-driven positions where breaking a finished
formation with Deserter (R29) or Traitor (R30) saves a flag, where it does not, and where Scout
(R27) or a pass (R7) beats spending a card for nothing."""

from __future__ import annotations

import pytest

from battleline_lab.core.cards import Card, Tactic, Troop, parse_card, parse_cards
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Deck, GameState, Phase, Player, PlayerView, legal_moves, new_game
from battleline_lab.game.actions import Action, Deserter, Pass, PlayScout, Traitor
from battleline_lab.game.master import JudgeBot
from battleline_lab.game.state import Options

from .test_expert import _reshuffle_hidden


def _table(
    hand: str,
    flags: dict[int, tuple[str, str]],
    timing: ClaimTiming = ClaimTiming.START_OF_TURN,
    their_tactics: int = 0,
) -> GameState:
    """South to play: ``hand`` (troops and tactics) and each flag's (south, north) cards; the
    other troops in North's hand and the deck, the other tactics in the tactics deck."""
    state = new_game(1, Options(claim_timing=timing, first=Player.SOUTH))
    mine: list[Card] = list(parse_cards(hand))
    placed = list(mine)
    for n, (south, north) in flags.items():
        state.cards[n - 1][Player.SOUTH] = list(parse_cards(south))
        state.cards[n - 1][Player.NORTH] = list(parse_cards(north))
        placed += state.cards[n - 1][Player.SOUTH] + state.cards[n - 1][Player.NORTH]
    troops = [c for c in state.hands[Player.SOUTH] + state.hands[Player.NORTH] + state.decks[Deck.TROOPS]]
    troops = [c for c in troops if c not in placed]
    tactics = [c for c in state.decks[Deck.TACTICS] if c not in placed]
    state.hands[Player.SOUTH] = mine
    state.hands[Player.NORTH] = tactics[:their_tactics] + troops[: 7 - their_tactics]
    state.decks[Deck.TROOPS] = troops[7 - their_tactics :]
    state.decks[Deck.TACTICS] = tactics[their_tactics:]
    for deck in Deck:
        state.deck_marks[deck] = [None] * len(state.decks[deck])
    state.visible_troops = {c for side in state.cards for cards in side.values() for c in cards if isinstance(c, Troop)}
    state.tactics_played = {p: sum(isinstance(c, Tactic) for c in placed if c not in mine) for p in Player}
    state.turn = Player.SOUTH
    assert state.phase is Phase.PLAY and state.card_count() == 70
    return state


def _move(state: GameState) -> tuple[Action, str]:
    bot = JudgeBot(1)
    action = bot.choose(PlayerView(state, Player.SOUTH), legal_moves(state))
    return action, bot.reason


# built after a measured loss (seed 60013, turn 48; the seats swapped): North's Phalanx of 4s on
# flag 6 stands to be claimed at North's next turn (every other 4 is seen), and a Deserter saves it
FOURS = {6: ("r2 b3", "o4 y4 p4"), 2: ("r4", "g4"), 4: ("b4 b5", "g9"), 3: ("y9 y10", "p1 p2")}

RESCUES = [
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b9",
        FOURS,
        ClaimTiming.START_OF_TURN,
        {Deserter(parse_card("o4")), Deserter(parse_card("y4")), Deserter(parse_card("p4"))},
        id="R29-deserter-breaks-the-phalanx-standing-in-the-window",
    ),
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b9",
        FOURS,
        ClaimTiming.AFTER_PLAY,
        {Deserter(parse_card("o4")), Deserter(parse_card("y4")), Deserter(parse_card("p4"))},
        id="R29-deserter-breaks-a-finished-phalanx-claimed-after-play-too",
    ),
    pytest.param(
        "traitor r7 g1 y2 o2 p3 b9",
        {5: ("b8 r2", "g6 g7 g8"), 1: ("o10", "")},
        ClaimTiming.START_OF_TURN,
        {Traitor(parse_card(c), n) for c in ("g6", "g7", "g8") for n in range(1, 10) if n != 5},
        id="R30-traitor-takes-a-troop-of-the-wedge-that-beats-us",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "timing", "expected"), RESCUES)
def test_R29_R30_guile_breaks_a_finished_formation_that_would_take_a_flag(
    hand: str, flags: dict[int, tuple[str, str]], timing: ClaimTiming, expected: set[Action]
) -> None:
    action, reason = _move(_table(hand, flags, timing))
    assert action in expected and reason == "guile-rescue"


KEEPS = [
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b9",
        {6: ("r10 r9", "o4 y4 p4")},  # our red 8 is still out: the Wedge beats their Phalanx
        id="R29-no-deserter-while-our-wedge-can-still-beat-theirs",
    ),
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b9",
        {6: ("r2 b3", "o4 y4")},  # nothing finished yet: the Deserter waits
        id="R29-no-deserter-on-an-unfinished-side",
    ),
    pytest.param(
        "traitor r8 g1 y2 o2 p3 b9",
        {3: ("r9 r10", "o4 y5 p6")},  # their Skirmish loses to our coming Wedge
        id="R30-no-traitor-on-a-formation-we-beat",
    ),
]


@pytest.mark.parametrize(("hand", "flags"), KEEPS)
def test_R29_R30_guile_is_kept_when_no_flag_is_saved(hand: str, flags: dict[int, tuple[str, str]]) -> None:
    action, _ = _move(_table(hand, flags))
    assert not isinstance(action, (Deserter, Traitor))


def test_R13_the_guile_decision_ignores_hidden_cards() -> None:
    state = _table("deserter r7 g1 y2 o2 p3 b9", FOURS, their_tactics=2)
    other = _reshuffle_hidden(state, 3)
    assert other.hands[Player.NORTH] != state.hands[Player.NORTH] or other.decks != state.decks
    legal = legal_moves(state)
    a = JudgeBot(1).choose(PlayerView(state, Player.SOUTH), legal)
    b = JudgeBot(1).choose(PlayerView(other, Player.SOUTH), legal)
    assert a == b and isinstance(a, Deserter)


def test_R27_scout_is_played_when_no_card_is_worth_playing() -> None:
    # flags 1-8 are full on our side; at flag 9 nothing in the hand can beat North's red 10
    middles = [f"{c}{v}" for v in range(4, 8) for c in "roygbp"]
    flags = {n: (" ".join(middles[3 * (n - 1) : 3 * n]), "") for n in range(1, 9)}
    flags[9] = ("", "r10")
    state = _table("scout o1 y1 g2 b2 p3 r3", flags)
    action, reason = _move(state)
    assert isinstance(action, PlayScout) and reason == "scout"


def test_R7_a_pass_beats_spending_a_tactic_for_nothing() -> None:
    # our sides are full everywhere open: no troop can be played; Fog gains nothing
    flags = {n: (f"{c}1 {c}2 {c}3", f"{c}7 {c}8 {c}9") for n, c in zip(range(1, 7), "roygbp")}
    flags |= {7: ("r4 o4 y4", "g10 b10"), 8: ("r5 o5 y5", "p10"), 9: ("g4 b4 p4", "r10")}
    state = _table("fog", flags)
    assert Pass() in legal_moves(state)
    action, _ = _move(state)
    assert action == Pass()
