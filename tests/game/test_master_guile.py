"""The master's guile and the claim window: table-driven positions where breaking a finished
formation with Deserter (R29) or Traitor (R30) saves a flag, where it does not, and where Scout
(R27) or a pass (R7) beats spending a card for nothing."""

from __future__ import annotations

import pytest

from battleline_lab.core.cards import Card, Tactic, Troop, parse_card, parse_cards
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Deck, GameState, Phase, Player, PlayerView, legal_moves, new_game
from battleline_lab.game.actions import Action, Deserter, Pass, PlayCard, PlayScout, Redeploy, Traitor
from battleline_lab.game.master import JudgeBot
from battleline_lab.game.state import Options

from .test_expert import _reshuffle_hidden


def _table(
    hand: str,
    flags: dict[int, tuple[str, str]],
    timing: ClaimTiming = ClaimTiming.START_OF_TURN,
    their_tactics: int = 0,
    env: dict[int, tuple[str, str]] | None = None,
) -> GameState:
    """South to play: ``hand`` (troops and tactics) and each flag's (south, north) cards, and
    environment cards (``env``, R24 R25) likewise; the other troops in North's hand and the deck,
    the other tactics in the tactics deck."""
    state = new_game(1, Options(claim_timing=timing, first=Player.SOUTH))
    mine: list[Card] = list(parse_cards(hand))
    placed = list(mine)
    for n, (south, north) in flags.items():
        state.cards[n - 1][Player.SOUTH] = list(parse_cards(south))
        state.cards[n - 1][Player.NORTH] = list(parse_cards(north))
        placed += state.cards[n - 1][Player.SOUTH] + state.cards[n - 1][Player.NORTH]
    for n, (south, north) in (env or {}).items():
        for player, cards in ((Player.SOUTH, south), (Player.NORTH, north)):
            state.env[n - 1][player] = [c for c in parse_cards(cards) if isinstance(c, Tactic)]
            placed += state.env[n - 1][player]
        state.refresh_env(n - 1)
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
    state.tactics_played = {
        p: sum(isinstance(c, Tactic) for n in range(9) for c in state.cards[n][p] + state.env[n][p]) for p in Player
    }
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


# The window and the moves that win a flag now: each case fails with the judge before these rules
# (guile judged only on their formation cards, never to prove a flag of ours; morale cards played
# where a troop completes the side as well).
WINDOW = [
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b6",
        {5: ("r2 r3 r4", "b9 g8 y10")},
        {5: ("", "fog")},
        ClaimTiming.START_OF_TURN,
        {Deserter(Tactic.FOG)},
        "guile-rescue",
        # under their Fog only sums count (27 against our 9): deserting the Fog gives our Wedge back
        id="R24-R26-R29-deserter-takes-their-fog-off-the-flag-they-would-claim",
    ),
    pytest.param(
        "deserter r2 g1 y2 o2 p3 b6",
        {4: ("r7 r8 r9", "g9 g10")},
        {},
        ClaimTiming.AFTER_PLAY,
        {Deserter(parse_card("g9")), Deserter(parse_card("g10"))},
        "guile-win",
        # the unseen g8 still makes their Wedge 27 over our 24: without g9 or g10 we prove the flag now
        id="R12-R29-deserter-lets-us-prove-a-finished-wedge-now",
    ),
    pytest.param(
        "deserter r2 g1 y2 o2 p3 b6",
        {4: ("r7 r8 r9", "g9 g10")},
        {},
        ClaimTiming.START_OF_TURN,
        {Deserter(parse_card("g9")), Deserter(parse_card("g10"))},
        "guile-win",
        id="R12-R14-R29-deserter-makes-our-wedge-provable-before-the-window",
    ),
    pytest.param(
        "traitor r2 g1 y2 o2 p3 b6",
        {3: ("r9 r10", ""), 7: ("", "r8 b2 y3")},
        {},
        ClaimTiming.AFTER_PLAY,
        {Traitor(parse_card("r8"), 3)},
        "guile-win",
        # their r8 completes our red 8-9-10, the strongest formation there is (R9, R10): proven at once
        id="R12-R30-traitor-takes-the-troop-that-completes-our-wedge",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "env", "timing", "expected", "reason"), WINDOW)
def test_R12_R29_R30_guile_saves_or_wins_a_flag_in_the_window(
    hand: str,
    flags: dict[int, tuple[str, str]],
    env: dict[int, tuple[str, str]],
    timing: ClaimTiming,
    expected: set[Action],
    reason: str,
) -> None:
    state = _table(hand, flags, timing, env=env)
    action, why = _move(state)
    assert (action, why) in {(a, reason) for a in expected}
    assert action in legal_moves(state)


WINDOW_KEEPS = [
    pytest.param(
        "deserter r2 g1 y2 o2 p3 b6",
        {4: ("r8 r9 r10", "g9 g10")},  # red 8-9-10 is proven already: nothing to win
        {},
        id="R12-R29-no-deserter-on-a-flag-we-can-prove-already",
    ),
    pytest.param(
        "deserter r2 g1 y2 o2 p3 b6",
        {4: ("r3 b4 y5", "g9 g10")},  # without g9 or g10 a Battalion still beats our Skirmish Line
        {},
        id="R12-R29-no-deserter-that-leaves-the-flag-unprovable",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "env"), WINDOW_KEEPS)
def test_R12_R29_guile_is_kept_when_it_neither_saves_nor_wins(
    hand: str, flags: dict[int, tuple[str, str]], env: dict[int, tuple[str, str]]
) -> None:
    action, why = _move(_table(hand, flags, ClaimTiming.AFTER_PLAY, env=env))
    assert not isinstance(action, (Deserter, Traitor)), why


def test_R24_R29_no_deserter_on_a_fog_whose_flag_stays_lost() -> None:
    # without the Fog their Host (27) still beats our Host (10): the Fog is not the card to desert
    state = _table("deserter r7 g1 y2 o2 p3 b6", {5: ("r2 r3 b5", "b9 g8 y10")}, env={5: ("", "fog")})
    action, _ = _move(state)
    assert action != Deserter(Tactic.FOG)


def test_R13_the_guile_win_ignores_hidden_cards() -> None:
    state = _table("deserter r2 g1 y2 o2 p3 b6", {4: ("r7 r8 r9", "g9 g10")}, ClaimTiming.AFTER_PLAY, their_tactics=2)
    other = _reshuffle_hidden(state, 5)
    assert other.hands[Player.NORTH] != state.hands[Player.NORTH] or other.decks != state.decks
    legal = legal_moves(state)
    a = JudgeBot(1).choose(PlayerView(state, Player.SOUTH), legal)
    b = JudgeBot(1).choose(PlayerView(other, Player.SOUTH), legal)
    assert a == b and isinstance(a, Deserter)


def test_R28_the_lost_flag_rule_reads_guile_at_its_targets_flag() -> None:
    # flag 5 is lost (their g8-9-10 completed first; our r10 reaches a tie at best, R11); Redeploy
    # takes our r10 from it to flag 6, completing a Phalanx of 10s there (R28)
    state = _table("redeploy g1 y2 o2 p3 b6 y3", {5: ("r10", "g8 g9 g10"), 6: ("b10 y10", "")})
    action, why = _move(state)
    assert isinstance(action, Redeploy) and action.target == parse_card("r10") and why == "lost-tactic"


MORALE = [
    pytest.param(
        "alexander b10 g1 y2 o2 p3",
        {5: ("r1", "g8 g9 g10"), 2: ("b8 b9", "")},
        PlayCard(parse_card("b10"), 2),
        id="R20-the-troop-completes-the-wedge-the-leader-would",
    ),
    pytest.param(
        "companion b8 g1 y2 o2 p3",
        {5: ("r1", "g8 g9 g10"), 2: ("b9 b10", "")},
        PlayCard(parse_card("b8"), 2),
        id="R21-the-troop-completes-the-wedge-the-companion-would",
    ),
    pytest.param(
        "shield r3 g5 y2 o6 p9",
        {5: ("r1", "g8 g9 g10"), 2: ("b3 y3", "g1 p2")},  # their best is a Skirmish Line 1-2-3
        PlayCard(parse_card("r3"), 2),
        id="R22-the-troop-completes-the-phalanx-the-shield-would",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "expected"), MORALE)
def test_R20_R22_a_troop_completes_the_side_rather_than_a_morale_card(
    hand: str, flags: dict[int, tuple[str, str]], expected: Action
) -> None:
    # a side completed stands through their turn before our claim (R14): a morale card in it is
    # open to their Deserter (R29), a troop that beats the target as well keeps the card
    action, why = _move(_table(hand, flags))
    assert action == expected and why == "troop-over-morale"


def test_R20_a_morale_card_still_completes_when_no_troop_beats_the_target() -> None:
    # no troop of the hand completes blue 8-9 to a Wedge: the Leader does
    action, why = _move(_table("alexander g1 y2 o2 p3 r5", {5: ("r1", "g8 g9 g10"), 2: ("b8 b9", "")}))
    assert action == PlayCard(Tactic.ALEXANDER, 2) and why == "lost-tactic"
