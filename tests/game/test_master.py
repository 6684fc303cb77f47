"""The judge bot: its odds against brute force, legal and reproducible moves, only its
player's view (R13), and hand-made positions where the right play is clear."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS, Card, Tactic, Troop, parse_card, parse_cards
from battleline_lab.game import (
    Deck,
    GameState,
    HeuristicBot,
    Phase,
    Player,
    PlayerView,
    legal_moves,
    make_bot,
    new_game,
)
from battleline_lab.game.actions import PlayCard
from battleline_lab.game.bot_base import RandomBot
from battleline_lab.game.bots import BOTS
from battleline_lab.game.master import (
    TARGET_FLOOR,
    JudgeBot,
    Judgment,
    MasterSearchBot,
    Supply,
    _each_one,
    _judged,
    _target,
    _troop_deck_split,
    plan_chance,
    plans,
)
from battleline_lab.game.match import play_game
from battleline_lab.game.state import Options

from .conftest import Arrange
from .games import play_legally
from .test_expert import _midgame, _reshuffle_hidden


def test_judge_is_registered() -> None:
    assert "judge" in BOTS and make_bot("judge", 1).name == "judge"  # the master's prior and play-out policy
    assert make_bot("master", 1).name == "master"
    assert "master_search" in BOTS and make_bot("master_search", 1).name == "master_search"


# -- the odds, against brute force ------------------------------------------------------


@pytest.mark.parametrize(("n", "d", "sizes"), [(10, 3, (2, 3)), (9, 4, (1, 1, 2)), (8, 2, (1, 1, 1)), (7, 7, (2, 2))])
def test_each_one_matches_counting_every_draw(n: int, d: int, sizes: tuple[int, ...]) -> None:
    groups: list[range] = []
    start = 0
    for s in sizes:
        groups.append(range(start, start + s))
        start += s
    draws = list(itertools.combinations(range(n), d))
    good = sum(1 for draw in draws if all(any(c in g for c in draw) for g in groups))
    assert _each_one(n, d, sizes) == pytest.approx(good / len(draws))


def _t(text: str) -> Troop:
    card = parse_card(text)
    assert isinstance(card, Troop)
    return card


@pytest.mark.parametrize(
    ("rule", "cards", "size", "fog", "kinds"),
    [
        ("R9", "r9 r10", 3, False, {4, 2, 1, 0}),  # Wedge, Battalion, Skirmish, Host: no Phalanx
        ("R9", "g7 b7", 3, False, {3, 0}),  # Phalanx or Host
        ("R24", "g7 b7", 3, True, {-1}),  # Fog: only sums
        ("R25", "r3 r4 r5", 4, False, {4, 2, 1, 0}),  # Mud: four cards, still a Wedge
        ("R20", "alexander y9", 3, False, {4, 3, 2, 1, 0}),  # a Leader fits everything
        ("R22", "shield g8", 3, False, {2, 0}),  # Shield (1-3) and an 8: no run, no Phalanx
    ],
)
def test_plans_list_the_formations_still_reachable(
    rule: str, cards: str, size: int, fog: bool, kinds: set[int]
) -> None:
    assert {p.kind for p in plans(parse_cards(cards), size, fog)} == kinds, rule


def test_a_plan_from_the_hand_is_certain_and_a_missing_troop_is_drawn() -> None:
    r8, r9, r10 = _t("r8"), _t("r9"), _t("r10")
    wedge = next(p for p in plans((r9, r10), 3, False) if p.kind == 4 and p.total == 27)
    sure = plan_chance(wedge, Supply(frozenset({r8}), frozenset({_t("b1"), _t("b2")}), 1, 1.5))
    assert sure.chance == 1.0 and sure.uses == (r8,) and sure.key == (4, 27.0)
    pool = frozenset({r8, _t("b1"), _t("b2"), _t("b3")})
    drawn = plan_chance(wedge, Supply(frozenset(), pool, 2, 3.0))
    assert drawn.chance == pytest.approx(1 - math.comb(3, 2) / math.comb(4, 2))  # r8 among 2 of 4
    gone = plan_chance(wedge, Supply(frozenset(), frozenset({_t("b1")}), 1, 1.0))
    assert gone.chance == 0.0  # r8 is not unseen: the Wedge is out of reach


_SIDE_CARDS: list[Card] = [*ALL_TROOPS, Tactic.ALEXANDER, Tactic.COMPANION, Tactic.SHIELD]


@settings(max_examples=300, deadline=None)
@given(
    side=st.lists(st.sampled_from(_SIDE_CARDS), max_size=3, unique=True),
    size=st.sampled_from([3, 4]),
    fog=st.booleans(),
    pool=st.sets(st.sampled_from(ALL_TROOPS), max_size=45),
    draws=st.integers(0, 25),
)
def test_the_target_found_in_order_of_strength_is_the_strongest_live_plan(
    side: list[Card], size: int, fog: bool, pool: set[Troop], draws: int
) -> None:
    """The opponent's target at a side, judged a few plans deep in order of strength, is the
    strongest of all its plans with a chance (the weakest plan when none has one), for any side
    (empty, troops, morale cards, Mud's four, Fog) and any pool."""
    pool_set = frozenset(pool - {c for c in side if isinstance(c, Troop)})
    mean = sum(t.value for t in pool_set) / len(pool_set) if pool_set else 5.5
    supply = Supply(frozenset(), pool_set, min(draws, len(pool_set)), mean)
    every = _judged(tuple(side), size, fog, supply)
    live = [j.key for j in every if j.chance > TARGET_FLOOR] or [min(j.key for j in every)]
    assert _target(tuple(side), size, fog, supply) == max(live)


# -- moves: legal, reproducible, the view only --------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_move_is_legal_in_games_against_random_and_heuristic_bots(seed: int) -> None:
    for other in (RandomBot(seed), HeuristicBot(seed)):
        state = new_game(seed, Options(first=Player.SOUTH if seed % 2 else Player.NORTH))
        play_legally(state, {Player.SOUTH: JudgeBot(seed), Player.NORTH: other})


def test_a_seeded_short_match_is_reproducible() -> None:
    one = play_game(JudgeBot(7), HeuristicBot(8), 2027)
    two = play_game(JudgeBot(7), HeuristicBot(8), 2027)
    assert one.history == two.history and one.winner is two.winner


@pytest.mark.parametrize("seed", [3, 11, 27, 40, 52])
def test_R13_judge_move_ignores_hidden_cards(seed: int) -> None:
    state = _midgame(seed)
    other = _reshuffle_hidden(state, seed)
    me = state.turn
    assert other.hands[me.other] != state.hands[me.other] or other.decks != state.decks
    legal = legal_moves(state)
    assert legal_moves(other) == legal
    a, b = Judgment(PlayerView(state, me)), Judgment(PlayerView(other, me))
    assert a.flags == b.flags and a.reserved == b.reserved and a.order == b.order  # the whole reading
    assert JudgeBot(seed).choose(PlayerView(state, me), legal) == JudgeBot(seed).choose(PlayerView(other, me), legal)
    search_a = MasterSearchBot(seed, rollouts=8).choose(PlayerView(state, me), legal)
    search_b = MasterSearchBot(seed, rollouts=8).choose(PlayerView(other, me), legal)
    assert search_a == search_b


# -- the troop split: how many troops the opponent holds ------------------------------------

# (rules, the south hand, the north hand, flags, discards): south to play.  Every tactics card in a
# discard pile was played (R18) and is counted in ``tactics_played`` already; a second count made
# the judge believe the opponent held a troop card more than they do.
_SPLITS = [
    ("R2 R4 control: no tactics played", "r1 r2 r3 r4 r5 r6 r7", "alexander b1 b2 b3 b4 b5 b6", {}, {}),
    ("R27 R31 their Scout discarded", "r1 r2 r3 r4 r5 r6 r7", "fog b1 b2 b3 b4 b5 b6", {}, {"north": "scout"}),
    ("R27 R31 our Scout discarded", "r1 r2 r3 r4 r5 r6 r7", "mud b1 b2 b3 b4 b5 b6", {}, {"south": "scout"}),
    (
        "R29 R31 their Deserter took our Fog",
        "r1 r2 r3 r4 r5 r6",
        "darius b1 b2 b3 b4 b5 b6",
        {3: {"south": "g7", "north": "g8"}},
        {"north": "deserter", "south": "fog"},
    ),
    (
        "R28 R31 our Redeploy discarded our Mud; a morale card on the table",
        "r1 r2 r3 r4 r5 r6 companion",
        "traitor b1 b2 b3 b4 b5 b6",
        {2: {"south": "alexander", "north": "y9 shield"}},
        {"south": "redeploy mud", "north": "scout"},
    ),
]


@pytest.mark.parametrize(
    ("ours", "theirs", "flags", "discards"),
    [case[1:] for case in _SPLITS],
    ids=[case[0] for case in _SPLITS],
)
def test_troop_split_counts_each_seen_tactics_card_once(
    arranged: Arrange, ours: str, theirs: str, flags: dict[int, dict[str, str]], discards: dict[str, str]
) -> None:
    state = arranged(hands={"south": ours, "north": theirs}, flags=flags, discards=discards)
    view = PlayerView(state, Player.SOUTH)
    held = sum(isinstance(c, Troop) for c in state.hands[Player.NORTH])  # the truth, hidden from the view
    assert 0 < held < len(state.hands[Player.NORTH])  # they hold both kinds, so a wrong count shows
    troop_deck = len(state.decks[Deck.TROOPS])
    assert _troop_deck_split(view) == (held, (troop_deck + 1) // 2, held + troop_deck // 2)


# -- hand-made positions -------------------------------------------------------------------


def _table(hand: str, flags: dict[int, tuple[str, str]], seed: int = 1) -> GameState:
    """South to play a card: ``hand`` and each flag's (south, north) cards; the rest in the decks."""
    state = new_game(seed, Options(first=Player.SOUTH))
    placed = list(parse_cards(hand))
    for n, (south, north) in flags.items():
        state.cards[n - 1][Player.SOUTH] = list(parse_cards(south))
        state.cards[n - 1][Player.NORTH] = list(parse_cards(north))
        placed += state.cards[n - 1][Player.SOUTH] + state.cards[n - 1][Player.NORTH]
    pool = [c for c in state.hands[Player.SOUTH] + state.hands[Player.NORTH] + state.decks[Deck.TROOPS]]
    pool = [c for c in pool if c not in placed]
    state.hands[Player.SOUTH] = list(parse_cards(hand))
    state.hands[Player.NORTH] = pool[:7]
    state.decks[Deck.TROOPS] = pool[7:]
    state.deck_marks[Deck.TROOPS] = [None] * len(pool[7:])
    state.visible_troops = {c for side in state.cards for cards in side.values() for c in cards if isinstance(c, Troop)}
    state.turn = Player.SOUTH
    assert state.phase is Phase.PLAY
    return state


def _judge_move(state: GameState) -> tuple[PlayCard, str]:
    bot = JudgeBot(1)
    action = bot.choose(PlayerView(state, Player.SOUTH), legal_moves(state))
    assert isinstance(action, PlayCard)
    return action, bot.reason


def test_completing_a_sure_wedge_beats_opening_a_new_flag() -> None:
    state = _table("r10 b2 g5 y7 p3 o4 b6", {3: ("r8 r9", "y4")})
    action, _ = _judge_move(state)
    assert action == PlayCard(parse_card("r10"), 3)


def test_a_lost_flag_takes_the_least_useful_card() -> None:
    # flag 5 is lost (a complete Wedge b8-b9-b10 against a lone g2); r10 r9 serve the red start at flag 2
    state = _table("o1 r10 r9 y8 y7 g6 p5", {2: ("r8", ""), 5: ("g2", "b8 b9 b10")})
    action, reason = _judge_move(state)
    assert action == PlayCard(parse_card("o1"), 5) and reason == "dump-lost"


def test_the_second_card_of_a_flag_serves_its_best_plan() -> None:
    # g7 on flag 4: the hand's g8 and g9 make a sure Wedge 7-8-9 there, beyond any answer to y3
    state = _table("g8 g9 b1 r2 o3 p4 y6", {4: ("g7", "y3")})
    action, _ = _judge_move(state)
    assert action.flag == 4 and action.card in (parse_card("g8"), parse_card("g9"))


def test_a_morale_card_is_kept_when_a_troop_does_as_well() -> None:
    state = _table("alexander r10 b2 g5 y7 p3 o4", {3: ("r8 r9", "y4")})
    action, _ = _judge_move(state)
    assert action.card == parse_card("r10") and not isinstance(action.card, Tactic)
