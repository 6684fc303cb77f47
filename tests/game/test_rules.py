"""Targeted tests of the game rules, one or more per rule id (R4-R31) and per ruling."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battleline_lab.core.cards import Tactic, parse_card
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.position import Side
from battleline_lab.game import (
    ActionNotationError,
    ClaimNotProvableError,
    ClaimTimingError,
    Deck,
    EndReason,
    FlagClaimedError,
    GameState,
    IllegalMoveError,
    LeaderError,
    MudDiscardError,
    NoFreeSlotError,
    NotInHandError,
    Options,
    Pass,
    PassNotAllowedError,
    Phase,
    Player,
    PlayerView,
    TacticsLimitError,
    TacticTargetError,
    WrongPhaseError,
    apply,
    claimable,
    legal_moves,
    new_game,
    parse_action,
    parse_actions,
    score,
    to_position,
)

Arrange = Callable[..., GameState]  # the `arranged` fixture (tests/game/conftest.py)
S, N = Player.SOUTH, Player.NORTH


def act(state: GameState, text: str) -> GameState:
    for action in parse_actions(text):
        apply(state, action)
    return state


def phase(state: GameState) -> Phase:
    """The phase, read through a call so that type checkers do not narrow it across actions."""
    return state.phase


def notations(state: GameState) -> list[str]:
    return [a.notation for a in legal_moves(state)]


def refused(state: GameState, text: str, error: type[IllegalMoveError], rule: str) -> IllegalMoveError:
    before = (state.phase, state.turn, [list(h) for h in state.hands.values()], len(state.history))
    with pytest.raises(error) as info:
        apply(state, parse_action(text))
    assert info.value.rule == rule
    assert rule in str(info.value)
    after = (state.phase, state.turn, [list(h) for h in state.hands.values()], len(state.history))
    assert before == after, "a refused action must leave the state unchanged"
    return info.value


# -- R4 setup -----------------------------------------------------------------------


def test_R4_same_seed_same_game() -> None:
    a, b, c = new_game(11), new_game(11), new_game(12)
    assert a.hands == b.hands and a.decks == b.decks and a.first == b.first
    assert (a.hands, a.decks) != (c.hands, c.decks)


@pytest.mark.parametrize("first", list(Player))
def test_R4_deal_seven_troops_each_and_the_chosen_player_starts(first: Player) -> None:
    state = new_game(3, Options(first=first))
    assert state.turn is first and phase(state) is Phase.PLAY and state.turn_number == 1
    for player in Player:
        assert len(state.hands[player]) == 7
        assert all(not isinstance(c, Tactic) for c in state.hands[player])
    assert len(state.decks[Deck.TROOPS]) == 46 and len(state.decks[Deck.TACTICS]) == 10


def test_R4_the_seed_chooses_who_starts() -> None:
    assert {new_game(seed).first for seed in range(20)} == set(Player)


# -- R5 turn structure ----------------------------------------------------------------


def test_R5_play_then_draw_then_the_other_player(arranged: Arrange) -> None:
    state = arranged(hands={"south": "r1 r2 r3 r4 r5 r6 r7"})
    act(state, "play r1 5")
    assert phase(state) is Phase.DRAW and notations(state) == ["draw troops", "draw tactics"]
    act(state, "draw tactics")
    assert state.turn is N and phase(state) is Phase.PLAY and state.turn_number == 2
    assert len(state.hands[S]) == 7 and isinstance(state.hands[S][-1], Tactic)


def test_R5_actions_out_of_step_are_refused(arranged: Arrange) -> None:
    state = arranged(hands={"south": "r1 r2 r3 r4 r5 r6 r7"})
    refused(state, "draw troops", WrongPhaseError, "R5")
    refused(state, "play b1 5", NotInHandError, "R5")
    act(state, "play r1 5")
    error = refused(state, "play r2 5", WrongPhaseError, "R5")
    assert "must draw" in str(error)


def test_R5_when_both_decks_are_empty_nobody_draws(arranged: Arrange) -> None:
    state = arranged(hands={"south": "r1 r2"}, deck_only={"troops": "", "tactics": ""})
    act(state, "play r1 5")
    assert state.turn is N and phase(state) is Phase.PLAY


# -- R6 slots -----------------------------------------------------------------------


def test_R6_a_full_side_takes_no_more_cards(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r1 r2 r3"}}, hands={"south": "b4 b5"})
    assert "play b4 1" not in notations(state) and "play b4 2" in notations(state)
    refused(state, "play b4 1", NoFreeSlotError, "R6")


def test_R6_R25_mud_gives_a_fourth_slot(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r1 r2 r3", "north": "mud"}}, hands={"south": "b4 b5"})
    assert "play b4 1" in notations(state)
    act(state, "play b4 1")
    assert len(state.cards[0][S]) == 4


# -- R7 pass, R8 hand limit -----------------------------------------------------------


def test_R7_no_pass_while_a_troop_can_be_played(arranged: Arrange) -> None:
    state = arranged(hands={"south": "r1 fog"})
    assert "pass" not in notations(state)
    refused(state, "pass", PassNotAllowedError, "R7")


def test_R7_pass_or_tactics_without_troops_R8_no_draw_at_seven(arranged: Arrange) -> None:
    state = arranged(hands={"south": "fog mud scout redeploy deserter traitor alexander"})
    moves = notations(state)
    assert moves[-1] == "pass" and "play fog 1" in moves and "scout" in moves
    act(state, "pass")
    # R8: the hand already holds 7 cards, so the turn ends without a draw
    assert state.turn is N and phase(state) is Phase.PLAY


def test_R7_pass_when_no_slot_is_free(arranged: Arrange) -> None:
    full = {n: {"south": f"{c}1 {c}2 {c}3"} for n, c in zip(range(1, 10), "roygbp")}
    full.update({7: {"south": "r4 r5 r6"}, 8: {"south": "o4 o5 o6"}, 9: {"south": "y4 y5 y6"}})
    state = arranged(flags=full, hands={"south": "b9 b10"})
    assert notations(state) == ["pass"]


# -- R11 completion times ---------------------------------------------------------------


def test_R11_who_completes_first_wins_a_tie(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r2 g5 b9", "north": "y2 p5 o9"}}, hands={"south": "r1"})
    assert state.first_complete(0) is S
    assert claimable(state, S) == (1,) and claimable(state, N) == ()


def test_R11_ruling_tie_after_redeploy_recompletion(arranged: Arrange) -> None:
    # south completed first; Redeploy takes a card away and a new one re-completes the side later,
    # so now north completed first and wins the tie (R11 Ruling)
    state = arranged(
        flags={1: {"south": "r2 g5 b9", "north": "y2 p5 o9"}, 5: {"north": "y10"}},
        discards={"north": "scout"},
        hands={"south": "redeploy y5 r10", "north": "o1 o2 o3 o4 o6"},
    )
    act(state, "redeploy g5 4")
    assert state.complete_at[0][S] is None and state.first_complete(0) is None
    act(state, "draw troops; play o1 6; draw troops; play y5 1")
    assert state.first_complete(0) is N
    assert claimable(state, S) == ()
    assert claimable(state, N) == (1,)


def test_R11_ruling_mud_makes_both_sides_incomplete(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r2 g5 b9", "north": "y2 p5 o9"}}, hands={"south": "mud"})
    assert state.first_complete(0) is S
    act(state, "play mud 1")
    assert state.complete_at[0] == {N: None, S: None} and state.size(0) == 4


# -- R12-R14 claims ------------------------------------------------------------------------


TIMINGS = ["after_play", "start_of_turn", "end_of_turn"]


@pytest.mark.parametrize("timing", TIMINGS)
def test_R14_claim_timing(arranged: Arrange, timing: str) -> None:
    state = arranged(
        timing=timing,
        flags={1: {"south": "r8 r9"}},
        hands={"south": "r10 g1 g2", "north": "b1 b2 b3"},
    )
    act(state, "play r10 1")
    if timing == "after_play":
        assert phase(state) is Phase.CLAIM and notations(state) == ["claim 1", "end"]
        act(state, "claim 1")
        assert phase(state) is Phase.DRAW
    elif timing == "end_of_turn":
        assert phase(state) is Phase.DRAW
        refused(state, "claim 1", ClaimTimingError, "R14")
        act(state, "draw troops")
        assert phase(state) is Phase.CLAIM and state.turn is S
        act(state, "claim 1")
        assert state.turn is N
    else:
        assert phase(state) is Phase.DRAW
        refused(state, "claim 1", ClaimTimingError, "R14")
        act(state, "draw troops; play b1 5; draw troops")
        assert state.turn is S and phase(state) is Phase.CLAIM
        act(state, "claim 1")
        assert phase(state) is Phase.PLAY and state.turn is S
    assert state.claimed[0] is S


def test_R14_end_leaves_a_flag_unclaimed(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r8 r9"}}, hands={"south": "r10 g1"})
    act(state, "play r10 1; end")
    assert phase(state) is Phase.DRAW and state.claimed[0] is None


def test_R12_unprovable_claim_refused(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "r8 r9"}, 2: {"south": "b1 g2 y4"}}, hands={"south": "r10"})
    act(state, "play r10 1")
    assert notations(state) == ["claim 1", "end"]
    refused(state, "claim 2", ClaimNotProvableError, "R12")


@pytest.mark.parametrize(
    ("elsewhere", "hand", "provable"),
    [
        ({2: {"north": "b7"}, 3: {"north": "b10"}}, "g1", True),  # RULES.md example 2
        ({}, "b7 b9 b10", False),  # example 3: your own hand is no evidence (R13)
    ],
)
def test_R13_only_public_cards_prove(
    arranged: Arrange, elsewhere: dict[int, dict[str, str]], hand: str, provable: bool
) -> None:
    flags = {5: {"south": "r3 r4 r5", "north": "b8"}, **elsewhere}
    state = arranged(flags=flags, hands={"south": hand})
    assert (5 in claimable(state, S)) is provable
    assert analyse_claim(to_position(state, S), 5, Side.YOU).claimable is provable


def test_R15_claimed_flags_are_frozen(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"north": "b1 b2 b3", "south": "g7"}, 2: {"north": "b5"}},
        claimed={1: "north"},
        hands={"south": "r1 deserter traitor"},
    )
    moves = notations(state)
    assert not any(m.endswith(" 1") for m in moves)
    assert "deserter b1" not in moves and "deserter b5" in moves
    refused(state, "play r1 1", FlagClaimedError, "R15")
    refused(state, "deserter b1", FlagClaimedError, "R15")
    refused(state, "traitor b2 3", FlagClaimedError, "R15")


# -- R16, R17 victory and scoring ---------------------------------------------------------


def test_R16_breakthrough_ends_the_game_at_once(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "g1 g2 g3"}, 2: {"south": "y1 y2 y3"}, 3: {"south": "r8 r9"}, 4: {"south": "o8 o9 o10"}},
        claimed={1: "south", 2: "south"},
        hands={"south": "r10"},
    )
    act(state, "play r10 3")
    assert notations(state) == ["claim 3", "claim 4", "end"]
    act(state, "claim 3")
    assert state.over and state.winner is S and state.end_reason is EndReason.BREAKTHROUGH
    assert legal_moves(state) == [] and state.claimed[3] is None  # nothing further is claimed
    assert score(state) == {S: 5, N: 0}  # R17


def test_R16_envelopment_and_R17_loser_scores_its_flags(arranged: Arrange) -> None:
    state = arranged(
        flags={
            1: {"south": "g1 g2 g3"},
            3: {"south": "y1 y2 y3"},
            5: {"south": "o1 o2 o3"},
            7: {"south": "p1 p2 p3"},
            9: {"south": "r8 r9"},
            2: {"north": "b1 b2 b3"},
        },
        claimed={1: "south", 3: "south", 5: "south", 7: "south", 2: "north"},
        hands={"south": "r10"},
    )
    act(state, "play r10 9; claim 9")
    assert state.winner is S and state.end_reason is EndReason.ENVELOPMENT
    assert score(state) == {S: 5, N: 1}


# -- R18, R20 tactics limits ----------------------------------------------------------------


def test_R18_never_more_than_one_tactic_ahead(arranged: Arrange) -> None:
    state = arranged(flags={5: {"south": "fog"}}, hands={"south": "r1 mud alexander scout"})
    assert notations(state) == [f"play r1 {n}" for n in range(1, 10)]
    refused(state, "play mud 3", TacticsLimitError, "R18")
    refused(state, "scout", TacticsLimitError, "R18")


def test_R18_moved_tactics_still_count(arranged: Arrange) -> None:
    # north's Fog was deserted into north's discards: it still counts for north
    state = arranged(discards={"north": "fog", "south": "deserter"}, hands={"south": "r1 mud"})
    assert "play mud 1" in notations(state)
    state = arranged(discards={"north": "fog"}, hands={"south": "r1 mud", "north": "b1 scout"}, turn="north")
    assert "scout" not in notations(state)


def test_R20_one_leader_per_player(arranged: Arrange) -> None:
    state = arranged(flags={1: {"south": "alexander"}, 2: {"north": "fog"}}, hands={"south": "r1 darius companion"})
    moves = notations(state)
    assert "play darius 3" not in moves and "play companion 3" in moves
    refused(state, "play darius 3", LeaderError, "R20")


# -- R24-R26 environment -----------------------------------------------------------------


def test_R24_fog_goes_beside_any_unclaimed_flag(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"north": "b1 b2 b3", "south": "g1 g2 g3"}}, claimed={2: "north"}, hands={"south": "fog"}
    )
    moves = notations(state)
    assert "play fog 1" in moves and "play fog 2" not in moves
    act(state, "play fog 1")
    assert state.fog(0) and to_position(state, S).flag(1).fog


def _mud_board(arranged: Arrange, hand: str, **extra: object) -> GameState:
    return arranged(
        flags={1: {"north": "mud r1 r2 r3 r4", "south": "b1 b2 b3 b4"}, 2: {"north": "g9"}},
        hands={"south": hand, "north": "y1 y2"},
        **extra,
    )


def test_R26_deserted_mud_with_four_cards_each(arranged: Arrange) -> None:
    state = _mud_board(arranged, "deserter o7")
    act(state, "deserter mud")
    # the actor's discard first, then the opponent's; each owner chooses (R26)
    assert phase(state) is Phase.MUD_DISCARD and state.to_act is S
    assert notations(state) == ["discard b1", "discard b2", "discard b3", "discard b4"]
    refused(state, "discard r1", MudDiscardError, "R26")
    act(state, "discard b1")
    assert state.to_act is N and notations(state) == ["discard r1", "discard r2", "discard r3", "discard r4"]
    assert PlayerView(state, N).pending_discard_flag == 1
    act(state, "discard r4")
    # back in south's turn: b2-b3-b4 now beats r1-r2-r3, so the claim step follows
    assert phase(state) is Phase.CLAIM and state.turn is S and notations(state) == ["claim 1", "end"]
    assert state.discards[N] == [Tactic.MUD, parse_card("r4")] and state.discards[S] == [
        Tactic.DESERTER,
        parse_card("b1"),
    ]
    assert state.size(0) == 3 and len(state.cards[0][N]) == len(state.cards[0][S]) == 3
    # both sides kept their completion times: north completed first (ruling, docs/game.md)
    assert state.first_complete(0) is N


def test_R26_redeployed_mud_needs_a_discard_only_where_a_side_holds_four(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "mud r1 r2 r3 r4", "north": "b1 b2"}, 2: {"north": "g9"}},
        hands={"south": "redeploy", "north": "y1"},
        discards={"north": "scout"},
    )
    act(state, "redeploy mud 2")
    assert phase(state) is Phase.MUD_DISCARD and state.to_act is S
    act(state, "discard r1")
    assert state.mud(1) and not state.mud(0) and state.turn is S
    assert phase(state) is Phase.CLAIM and notations(state) == ["claim 1", "end"]  # r2-r3-r4 beats any b1-b2-x


# -- R27 Scout ---------------------------------------------------------------------------------


def test_R27_scout_draws_three_returns_two_and_draws_no_more(arranged: Arrange) -> None:
    state = arranged(
        hands={"south": "scout r1 r2 r3 r4 r5 r6"},
        deck_top={"troops": "b1 b2", "tactics": "fog"},
    )
    act(state, "scout")
    assert phase(state) is Phase.SCOUT_DRAW and notations(state) == ["draw troops", "draw tactics"]
    act(state, "draw troops; draw tactics; draw troops")
    assert phase(state) is Phase.SCOUT_RETURN and len(state.hands[S]) == 9
    refused(state, "draw troops", WrongPhaseError, "R5")
    act(state, "return r6; return fog")
    # no normal draw after a Scout: the turn is over
    assert state.turn is N and phase(state) is Phase.PLAY and len(state.hands[S]) == 7
    assert state.decks[Deck.TROOPS][-1] == parse_card("r6") and state.decks[Deck.TACTICS][-1] is Tactic.FOG
    assert PlayerView(state, S).known_deck_tops == {"troops": (parse_card("r6"),), "tactics": (Tactic.FOG,)}
    assert PlayerView(state, N).known_deck_tops == {"troops": (), "tactics": ()}
    assert state.discards[S] == [Tactic.SCOUT]


@pytest.mark.parametrize(
    ("troops", "tactics", "draws", "returns"),
    [("g1", "", 1, 0), ("g1", "fog", 2, 1), ("", "", 0, 0), ("g1 g2", "fog", 3, 2)],
)
def test_R27_ruling_scout_near_empty_decks(
    arranged: Arrange, troops: str, tactics: str, draws: int, returns: int
) -> None:
    state = arranged(
        hands={"south": "scout r1 r2 r3 r4 r5 r6", "north": "y1 y2"}, deck_only={"troops": troops, "tactics": tactics}
    )
    act(state, "scout")
    for _ in range(draws):
        assert phase(state) is Phase.SCOUT_DRAW
        apply(state, legal_moves(state)[0])
    for _ in range(returns):
        assert phase(state) is Phase.SCOUT_RETURN
        apply(state, legal_moves(state)[0])
    assert state.turn is N
    assert len(state.hands[S]) == 6 + draws - returns


# -- R28-R30 guile --------------------------------------------------------------------------


def test_R28_redeploy_moves_or_discards_own_cards(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "r1 r2 r3 fog"}, 3: {"north": "b1"}},
        hands={"south": "redeploy"},
        discards={"north": "scout"},
    )
    moves = notations(state)
    assert "redeploy r1 2" in moves and "redeploy r1 discard" in moves and "redeploy fog 3" in moves
    assert "redeploy r1 1" not in moves and "redeploy b1 discard" not in moves
    refused(state, "redeploy r1 1", TacticTargetError, "R28")
    refused(state, "redeploy b1 2", TacticTargetError, "R28")
    act(state, "redeploy r3 2")
    assert state.cards[0][S] == [parse_card("r1"), parse_card("r2")] and state.cards[1][S] == [parse_card("r3")]
    assert state.complete_at[0][S] is None
    assert state.discards[S] == [Tactic.REDEPLOY]


def test_R28_redeploy_to_discard(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "r1 fog"}, 3: {"north": "b1"}}, hands={"south": "redeploy"}, discards={"north": "scout"}
    )
    act(state, "redeploy fog discard")
    assert not state.fog(0) and state.discards[S] == [Tactic.REDEPLOY, Tactic.FOG]


def test_R29_deserter_discards_to_the_owner(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"north": "b1 b2 mud"}, 2: {"south": "g1"}}, hands={"south": "deserter"}, discards={"south": "scout"}
    )
    moves = notations(state)
    assert moves == ["deserter b1", "deserter b2", "deserter mud", "pass"]
    refused(state, "deserter g1", TacticTargetError, "R29")
    act(state, "deserter b2")
    assert state.discards[N] == [parse_card("b2")] and state.discards[S] == [Tactic.SCOUT, Tactic.DESERTER]


def test_R30_traitor_takes_a_troop_to_a_free_own_slot(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"north": "b7 companion"}, 2: {"south": "g1 g2 g3"}, 3: {"south": "y5"}},
        hands={"south": "traitor"},
        discards={"north": "scout"},
    )
    moves = notations(state)
    assert "traitor b7 3" in moves and "traitor b7 2" not in moves
    assert not any(m.startswith("traitor companion") for m in moves)
    refused(state, "traitor b7 2", NoFreeSlotError, "R6")  # onto a full flag: refused
    refused(state, "traitor y5 1", TacticTargetError, "R30")  # not an opponent's card
    with pytest.raises(ActionNotationError, match="R30"):
        parse_action("traitor companion 3")
    act(state, "traitor b7 3")
    assert state.cards[2][S] == [parse_card("y5"), parse_card("b7")] and state.cards[0][N] == [Tactic.COMPANION]


def test_R31_guile_and_discards_are_public(arranged: Arrange) -> None:
    state = arranged(flags={1: {"north": "b1"}}, hands={"south": "deserter"}, discards={"north": "scout"})
    act(state, "deserter b1")
    position = to_position(state, N)
    assert position.discards(Side.YOU) == (Tactic.SCOUT, parse_card("b1"))
    assert position.discards(Side.OPPONENT) == (Tactic.DESERTER,)
    assert parse_card("b1") not in position.unseen_troops()


# -- ruling G5: a blocked game -------------------------------------------------------------


def test_ruling_blocked_game_ends_after_two_idle_turns(arranged: Arrange) -> None:
    state = arranged(
        flags={
            1: {"south": "r1 r2 r3"},
            2: {"south": "g5 g6 g7", "north": "b5 b6 b7"},
            3: {"north": "y1"},
            4: {"north": "o1 o2 o3"},
            5: {"south": "p5 p6 p7", "north": "p1 p2 p3"},
        },
        hands={"south": "", "north": ""},
        deck_only={"troops": "", "tactics": ""},
    )
    assert legal_moves(state) == [Pass()]
    act(state, "pass")
    # south could claim flags 2 and 5 but declines: still an idle turn
    assert notations(state) == ["claim 2", "claim 5", "end"]
    act(state, "end")
    assert not state.over and state.turn is N
    act(state, "pass")
    assert state.over and state.end_reason is EndReason.BLOCKED
    # flag 1 and 5 go to south (complete / stronger), flag 2 to south (tie: south completed first), 4 to north
    assert state.held(S) == [1, 2, 5] and state.held(N) == [4] and state.winner is S


def test_ruling_blocked_game_can_be_a_draw(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "r1 r2 r3"}, 4: {"north": "o1 o2 o3"}},
        hands={"south": "", "north": ""},
        deck_only={"troops": "", "tactics": ""},
    )
    act(state, "pass; pass")
    assert state.over and state.winner is None and state.end_reason is EndReason.BLOCKED_DRAW
    assert score(state) == {S: 0, N: 0}


def test_game_over_refuses_everything(arranged: Arrange) -> None:
    state = arranged(
        flags={1: {"south": "r1 r2 r3"}}, hands={"south": "", "north": ""}, deck_only={"troops": "", "tactics": ""}
    )
    act(state, "pass; pass")
    refused(state, "pass", IllegalMoveError, "R16")


def test_copy_is_independent() -> None:
    state = new_game(2)
    twin = state.copy()
    apply(twin, legal_moves(twin)[0])
    assert state.history == [] and phase(state) is Phase.PLAY and len(state.hands[state.turn]) == 7
    assert twin.history and len(twin.hands[twin.turn]) == 6
    assert state.cards != twin.cards and state.visible_troops != twin.visible_troops


def test_R27_known_deck_tops_end_when_drawn(arranged: Arrange) -> None:
    state = arranged(hands={"south": "scout r1 r2 r3 r4 r5 r6", "north": "y1 y2 y3 y4 y5 y6 y7"})
    act(state, "scout; draw troops; draw troops; draw troops; return r1; return r2")
    assert PlayerView(state, S).known_deck_tops["troops"] == (parse_card("r2"), parse_card("r1"))
    act(state, "play y1 1; draw troops")
    assert state.hands[N][-1] == parse_card("r2")
    assert PlayerView(state, S).known_deck_tops["troops"] == (parse_card("r1"),)
