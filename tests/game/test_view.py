"""Player views hide what a player may not know (R13); game moments export as puzzles."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml

from battleline_lab.core.cards import Tactic, parse_card
from battleline_lab.core.position import Side
from battleline_lab.game import (
    GameState,
    Options,
    Player,
    PlayerView,
    RandomBot,
    apply,
    legal_moves,
    new_game,
    play_game,
    to_position,
    to_puzzle_dict,
)
from battleline_lab.quiz.loader import load_puzzle_text

Arrange = Callable[..., GameState]  # the `arranged` fixture (tests/game/conftest.py)


def test_a_view_shows_own_hand_and_public_counts_only() -> None:
    state = new_game(8, Options(first=Player.NORTH))
    view = PlayerView(state, Player.SOUTH)
    assert view.hand == tuple(state.hands[Player.SOUTH])
    assert view.opponent_hand_size == 7 and view.deck_sizes == {"troops": 46, "tactics": 10}
    public = [name for name in dir(view) if not name.startswith("_")]
    assert not any("opponent_hand" == name or "deck" == name or name == "decks" for name in public)
    assert len(view.unseen_troops()) == 60  # the own hand is unseen too (R13)


def test_R13_the_position_of_a_view_never_holds_the_opponents_hand(arranged: Arrange) -> None:
    state = arranged(
        flags={5: {"south": "r3 r4 r5", "north": "b8"}, 1: {"north": "alexander"}},
        hands={"south": "b7 b9", "north": "g1 g2"},
        claimed={},
    )
    south = to_position(state, Player.SOUTH)
    north = to_position(state, Player.NORTH)
    assert south.flag(5).cards(Side.YOU) == north.flag(5).cards(Side.OPPONENT)
    assert south.hand(Side.YOU) == (parse_card("b7"), parse_card("b9")) and south.hand(Side.OPPONENT) == ()
    assert north.hand(Side.YOU) == (parse_card("g1"), parse_card("g2"))
    assert south.turn is Side.YOU and north.turn is Side.OPPONENT


def test_a_finished_game_saves_as_a_valid_puzzle_position() -> None:
    state = play_game(RandomBot(1), RandomBot(2), 17)
    for player in Player:
        data = to_puzzle_dict(state, player)
        text = yaml.safe_dump(data, sort_keys=False)
        puzzle = load_puzzle_text(text, "from-game.yaml")
        assert puzzle.position == to_position(state, player)


def test_puzzle_dict_in_the_middle_of_a_game(arranged: Arrange) -> None:
    state = arranged(
        flags={
            2: {"south": "r2 g5 b9", "north": "y2 p5 o9"},
            4: {"north": "fog", "south": "g10"},
            6: {"south": "r8 r9 r10"},
        },
        claimed={6: "south"},
        discards={"south": "scout"},
        hands={"south": "b1 b2"},
    )
    data = to_puzzle_dict(state, Player.NORTH)
    assert data["flags"][2] == {"you": ["y2", "p5", "o9"], "opponent": ["r2", "g5", "b9"], "first_complete": "opponent"}
    assert data["flags"][4] == {"you": ["fog"], "opponent": ["g10"]}
    assert data["flags"][6]["claimed_by"] == "opponent"
    assert data["discards"] == {"opponent": ["scout"]} and data["turn"] == "opponent"
    assert data["hand"] == {"you": [c.notation for c in state.hands[Player.NORTH]]}
    assert data["rules"] == {"claim_timing": "after_play"}
    position = load_puzzle_text(yaml.safe_dump(data), "moment.yaml").position
    assert position.problems() == []


def test_game_log_sentences_never_reveal_a_returned_card() -> None:
    from battleline_lab.game import describe, parse_action

    assert describe(parse_action("traitor b8 6"), "north") == (
        "north plays Traitor: blue 8, Heavy Cavalry changes sides, to flag 6"
    )
    assert describe(parse_action("return r5"), "south") == "south puts a card back on the troop deck"
    assert describe(parse_action("draw tactics"), "south") == "south draws from the tactics deck"
    assert describe(parse_action("discard g2"), "north") == "north discards green 2, Peltasts where the Mud left"
    for text in ["scout", "end", "pass", "claim 4", "deserter fog", "redeploy r1 2", "play alexander 1"]:
        assert describe(parse_action(text), "south").startswith("south ")


def test_explain_claim_from_a_players_view(arranged: Arrange) -> None:
    from battleline_lab.game import explain_claim

    state = arranged(flags={5: {"south": "r3 r4 r5", "north": "b8"}}, hands={"south": "b7 b9"})
    analysis = explain_claim(state, Player.SOUTH, 5)
    assert not analysis.claimable and analysis.counterexample
    assert "Counterexample" in analysis.explain() and "your hand" in analysis.explain().lower()


@pytest.mark.parametrize("seed", [2, 9])
def test_R13_the_opponents_tactics_count_is_known_from_public_cards(seed: int) -> None:
    # at every step of a whole game, from both seats: the count the view derives from the table,
    # the discards, the tactics deck's size and the own hand (R2, R4, R31) is the real one
    state = new_game(seed, Options(first=Player.SOUTH))
    bots = {p: RandomBot(seed) for p in Player}
    held = set()
    while not state.over:
        for player in Player:
            real = sum(isinstance(c, Tactic) for c in state.hands[player.other])
            assert PlayerView(state, player).opponent_hand_tactics == real
            held.add(real)
        apply(state, bots[state.to_act].choose(PlayerView(state, state.to_act), legal_moves(state)))
    assert len(held) > 1  # the count did change during the game
