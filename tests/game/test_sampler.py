"""The sampling master: legal and reproducible moves, only its player's view (R13: the deals are
drawn from the unseen cards only), and a look-ahead that plays the claim window (R14) with the
opponent's guile (R29)."""

from __future__ import annotations

import pytest

from battleline_lab.core.cards import parse_card, parse_cards
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Deck, HeuristicBot, Player, PlayerView, apply, legal_moves, new_game, sampler
from battleline_lab.game.actions import Action, Claim, Deserter, PlayCard, PlayScout
from battleline_lab.game.master import JudgeBot
from battleline_lab.game.match import play_game
from battleline_lab.game.sampler import MasterBot, candidates, playout
from battleline_lab.game.state import Options

from .games import play_legally
from .test_expert import _reshuffle_hidden
from .test_master_guile import FOURS, _table


@pytest.mark.parametrize("timing", list(ClaimTiming), ids=lambda t: t.value)
def test_every_move_is_legal_in_a_game_against_the_heuristic_bot(timing: ClaimTiming) -> None:
    state = new_game(40, Options(claim_timing=timing, first=Player.SOUTH))
    play_legally(state, {Player.SOUTH: MasterBot(5, samples=1), Player.NORTH: HeuristicBot(5)})


def test_a_seeded_game_is_reproducible() -> None:
    one = play_game(MasterBot(7, samples=2), JudgeBot(8), 2027)
    two = play_game(MasterBot(7, samples=2), JudgeBot(8), 2027)
    assert one.history == two.history and one.winner is two.winner


_MIDDLES = [f"{c}{v}" for v in range(4, 8) for c in "roygbp"]
#: flags 1-8 full on South's side; at flag 9 nothing in the hand can beat North's red 10
SCOUT_TABLE = {**{n: (" ".join(_MIDDLES[3 * (n - 1) : 3 * n]), "") for n in range(1, 9)}, 9: ("", "r10")}

#: (id, South's hand, flags (south, north), the moves that must be among the candidates)
SEARCHED = [
    pytest.param(
        "deserter r7 g1 y2 o2 p3 b9",
        FOURS,
        {Deserter(parse_card(c)) for c in ("o4", "y4", "p4")},
        id="R29-a-deserter-on-their-finished-phalanx-is-searched",
    ),
    pytest.param(
        "scout o1 y1 g2 b2 p3 r3",
        SCOUT_TABLE,
        {PlayScout()},
        id="R27-scout-is-searched-when-no-card-is-worth-playing",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "expected"), SEARCHED)
def test_tactics_in_play_are_searched_beside_the_judges_move(
    hand: str, flags: dict[int, tuple[str, str]], expected: set[Action]
) -> None:
    state = _table(hand, flags, their_tactics=2)
    view, legal = PlayerView(state, Player.SOUTH), legal_moves(state)
    judge = JudgeBot(1)
    mine = judge.choose(view, legal)
    found = candidates(view, legal, JudgeBot(1), mine)
    assert found[0] == mine and expected <= set(found) and set(found) <= set(legal)
    bot = MasterBot(1, samples=2)
    assert bot.choose(view, legal) in found and bot.searched == 1


@pytest.mark.parametrize(
    ("timing", "deals"),
    [
        pytest.param(ClaimTiming.START_OF_TURN, 16, id="R14-start-of-turn-16-deals"),
        pytest.param(ClaimTiming.AFTER_PLAY, 8, id="R14-after-play-8-deals"),
    ],
)
def test_a_searched_decision_plays_each_candidate_out_on_the_deals_its_claim_timing_gives(
    timing: ClaimTiming, deals: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a Deserter on their finished Phalanx is searched under both timings (the guile of SEARCHED)
    state = _table("deserter r7 g1 y2 o2 p3 b9", FOURS, timing=timing, their_tactics=2)
    view, legal = PlayerView(state, Player.SOUTH), legal_moves(state)
    calls: list[int] = []
    real = sampler.playout

    def counted(game: object, me: Player, judges: object) -> float:
        calls.append(1)
        return real(game, me, judges)  # type: ignore[arg-type]

    monkeypatch.setattr(sampler, "playout", counted)
    assert sampler.samples_for(timing) == deals
    bot = MasterBot(1)
    judge = JudgeBot(1)
    found = candidates(view, legal, judge, judge.choose(view, legal))
    bot.choose(view, legal)
    assert bot.searched == 1 and len(calls) == deals * len(found)
    calls.clear()
    MasterBot(1, samples=3).choose(view, legal)  # a count given to the bot is used under any timing
    assert len(calls) == 3 * len(found)


def test_a_troop_play_with_no_tactics_in_play_is_the_judges_without_a_search() -> None:
    state = _table("r7 g1 y2 o2 p3 b9 r8", {5: ("r9", "g6 g7")})
    view, legal = PlayerView(state, Player.SOUTH), legal_moves(state)
    bot = MasterBot(1)
    assert bot.choose(view, legal) == JudgeBot(1).choose(view, legal) and bot.searched == 0


#: (id, claim timing, North's tactics cards in hand, whether finishing flag 5 is searched)
FINISHING = [
    pytest.param(ClaimTiming.START_OF_TURN, 1, True, id="R14-start-of-turn-their-tactics-card-finishing-is-searched"),
    pytest.param(ClaimTiming.START_OF_TURN, 0, False, id="R14-start-of-turn-no-tactics-card-with-them-not-searched"),
    pytest.param(ClaimTiming.AFTER_PLAY, 1, False, id="R14-after-play-claimed-before-their-turn-not-searched"),
]


@pytest.mark.parametrize(("timing", "their_tactics", "searched"), FINISHING)
def test_finishing_a_side_in_the_claim_window_is_weighed_against_a_move_elsewhere(
    timing: ClaimTiming, their_tactics: int, searched: bool
) -> None:
    # the judge completes a Phalanx of 9s on flag 5; with claims at the start of the turn it stands
    # through North's turn (R14), open to a Deserter, Traitor, Fog or Mud North may hold (R24-R29)
    state = _table("r9 g1 y2 o2 p3 b1 r2", {5: ("y9 o9", "g3 b4")}, timing=timing, their_tactics=their_tactics)
    view, legal = PlayerView(state, Player.SOUTH), legal_moves(state)
    judge = JudgeBot(1)
    mine = judge.choose(view, legal)
    assert mine == PlayCard(parse_card("r9"), 5)
    found = candidates(view, legal, judge, mine)
    assert found[0] == mine and set(found) <= set(legal)
    if searched:
        assert len(found) == 2 and isinstance(found[1], PlayCard) and found[1].flag != 5
    else:
        assert found == [mine]
    bot = MasterBot(1, samples=2)
    assert bot.choose(view, legal) in found and bot.searched == int(searched)


@pytest.mark.parametrize(("hand", "flags", "expected"), SEARCHED)
def test_R13_the_searched_move_ignores_hidden_cards(
    hand: str, flags: dict[int, tuple[str, str]], expected: set[Action]
) -> None:
    state = _table(hand, flags, their_tactics=2)
    other = _reshuffle_hidden(state, 3)
    assert other.hands[Player.NORTH] != state.hands[Player.NORTH] or other.decks != state.decks
    legal = legal_moves(state)
    here, there = MasterBot(1, samples=4), MasterBot(1, samples=4)
    a = here.choose(PlayerView(state, Player.SOUTH), legal)
    b = there.choose(PlayerView(other, Player.SOUTH), legal)
    assert a == b and here.searched == there.searched == 1


WINDOW = [
    pytest.param(
        ClaimTiming.START_OF_TURN,
        True,
        id="R14-R29-start-of-turn-their-deserter-breaks-our-phalanx-before-we-claim",
    ),
    pytest.param(
        ClaimTiming.AFTER_PLAY,
        False,
        id="R14-after-play-our-phalanx-is-claimed-before-their-turn",
    ),
]


@pytest.mark.parametrize(("timing", "broken"), WINDOW)
def test_the_play_out_plays_the_opponents_turn_in_the_claim_window(timing: ClaimTiming, broken: bool) -> None:
    # South finishes a Phalanx of 9s on flag 5 that beats anything North can still make there; North
    # holds a Deserter
    state = _table("r9 g1 y2 o2 p3 b1 r2", {5: ("y9 o9", "g3 b4")}, timing=timing, their_tactics=1)
    deserter, north = parse_card("deserter"), state.hands[Player.NORTH]
    if deserter not in north:
        tactics = state.decks[Deck.TACTICS]
        tactics[tactics.index(deserter)], north[0] = north[0], deserter
    apply(state, PlayCard(parse_card("r9"), 5))
    start = len(state.history)
    score = playout(state, Player.SOUTH, (JudgeBot(1), JudgeBot(2)))
    assert state.over and score == {Player.SOUTH: 1.0, Player.NORTH: 0.0, None: 0.5}[state.winner]
    first_north = next(a for _t, p, a in state.history[start:] if p is Player.NORTH)
    south_claims = [a for _t, p, a in state.history[start:] if p is Player.SOUTH and isinstance(a, Claim)]
    if broken:  # North's first action: the Deserter on a 9 of the Phalanx, before South could claim it
        assert isinstance(first_north, Deserter) and first_north.target in parse_cards("r9 y9 o9")
    else:  # South claims flag 5 in the turn it plays the 9
        assert south_claims[:1] == [Claim(5)] and not isinstance(first_north, Deserter)
