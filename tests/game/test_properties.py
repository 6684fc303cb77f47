"""Invariants over many complete games (seeded loops; set BATTLELINE_GAMES for more).

Every game is played by bots through ``legal_moves``/``apply`` and checked
after every action: all 70 cards in exactly one place (R1, R2), no side over
its slots (R6, R25), tactics counts (R18) and Leaders (R20), the position seen
by each player is legal for the core validator, and every claim was provable
when it was made (R12), re-proved from scratch, not from the engine's cache.
Finished games have exactly one winner by R16, or end by the blocked-game ruling.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_CARDS, Card, Tactic, Troop
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.position import ClaimTiming, Side
from battleline_lab.game import (
    Action,
    Claim,
    Deck,
    Deserter,
    Draw,
    EndClaims,
    EndReason,
    GameState,
    HeuristicBot,
    IllegalMoveError,
    MudDiscard,
    Options,
    Pass,
    Phase,
    PlayCard,
    Player,
    PlayScout,
    RandomBot,
    Redeploy,
    ReturnCard,
    Traitor,
    apply,
    claimable,
    legal_moves,
    new_game,
    play_game,
)
from battleline_lab.game.match import MAX_ACTIONS
from battleline_lab.game.record import dump_record, load_record_text
from battleline_lab.game.view import PlayerView, to_position

SCALE = int(os.environ.get("BATTLELINE_GAMES", "1"))
TIMINGS = list(ClaimTiming)
ALL_CARD_SET = set(ALL_CARDS)
LEADERS = frozenset(t for t in Tactic if t.is_leader)  # R20: Alexander and Darius
FLAGS = range(9)
# read after every action of thousands of games: an enum's attribute look-up is the slow part
_NORTH, _SOUTH = Player.NORTH, Player.SOUTH


def where(state: GameState) -> dict[Card, str]:
    """Every card's place; asserts no card is in two places (R1, R2)."""
    places: dict[Card, str] = {}

    def put(card: Card, place: str) -> None:
        assert card not in places, f"{card} is in {places[card]} and {place}"
        places[card] = place

    for deck in Deck:
        for card in state.decks[deck]:
            put(card, f"deck {deck.value}")
    for player in Player:
        for card in state.hands[player]:
            put(card, f"hand {player.value}")
        for card in state.discards[player]:
            put(card, f"discards {player.value}")
        for i in range(9):
            for card in state.cards[i][player] + list(state.env[i][player]):
                put(card, f"flag {i + 1} {player.value}")
    for card in getattr(state, "limbo", []):
        put(card, "limbo")
    return places


def r16(held: set[int]) -> bool:
    return len(held) >= 5 or any({n, n + 1, n + 2} <= held for n in range(1, 8))


def check_invariants(state: GameState, position: bool = True) -> None:
    """All cards in one place each, slots, completion times, tactics and Leaders; optionally the core validator.

    Called after every action of thousands of games: one pass over the flags gathers both sides'
    tables and checks their slots and completion stamps, the two sides written out.
    """
    pending_discards = state.pending_discards
    pending = {i for _, i in pending_discards} if pending_discards else set()
    cards, env, complete_at = state.cards, state.env, state.complete_at
    north_table = list(state.discards[_NORTH])
    south_table = list(state.discards[_SOUTH])
    for i in FLAGS:
        size = state.size(i)
        limit = size + 1 if i in pending else size
        north, south = cards[i][_NORTH], cards[i][_SOUTH]
        north_count, south_count = len(north), len(south)
        assert north_count <= limit, f"flag {i + 1} north: {north_count} cards"
        assert south_count <= limit, f"flag {i + 1} south: {south_count} cards"
        stamps = complete_at[i]
        assert (stamps[_NORTH] is not None) == (north_count >= size)
        assert (stamps[_SOUTH] is not None) == (south_count >= size)
        north_table += north
        north_table += env[i][_NORTH]
        south_table += south
        south_table += env[i][_SOUTH]
    hands = state.hands
    everywhere: list[Card] = [
        *state.decks[Deck.TROOPS],
        *state.decks[Deck.TACTICS],
        *hands[_NORTH],
        *north_table,
        *hands[_SOUTH],
        *south_table,
    ]
    assert len(everywhere) == 70 and set(everywhere) == ALL_CARD_SET, "all 70 cards, each in one place (R1, R2)"
    for p, on_table in ((_NORTH, north_table), (_SOUTH, south_table)):
        # every tactics card a player ever played lies on their side or in their discards (R18, R31)
        # type(c) is Tactic, not isinstance: the same for an enum with members (it cannot be
        # subclassed), and isinstance goes through EnumType's look-up for every troop
        played = [c for c in on_table if type(c) is Tactic]
        assert len(played) == state.tactics_played[p], "every tactics card ever played counts (R18)"
        leaders = [c for c in played if c in LEADERS]
        assert len(leaders) <= 1 and state.leader_played[p] == bool(leaders)  # R20
        assert len(hands[p]) <= 7 or state.phase in (Phase.SCOUT_DRAW, Phase.SCOUT_RETURN)  # R8
    assert abs(state.tactics_played[_NORTH] - state.tactics_played[_SOUTH]) <= 1
    if position:
        assert where(state).keys() == ALL_CARD_SET
        if not pending:
            assert to_position(state, Player.SOUTH).problems() == []


def fresh_claimable(state: GameState, player: Player) -> tuple[int, ...]:
    position = to_position(state, player)
    return tuple(
        n for n in range(1, 10) if state.claimed[n - 1] is None and analyse_claim(position, n, Side.YOU).claimable
    )


def run_checked(seed: int, timing: ClaimTiming, bots: tuple[str, str], deep: bool) -> GameState:
    make = {"random": RandomBot, "heuristic": HeuristicBot}
    players = {Player.NORTH: make[bots[0]](seed * 7 + 1), Player.SOUTH: make[bots[1]](seed * 7 + 2)}
    state = new_game(seed, Options(claim_timing=timing))
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        player = state.to_act
        moves = legal_moves(state)
        assert moves, "a game in progress always offers an action"
        action = players[player].choose(PlayerView(state, player), moves)
        if isinstance(action, Claim):
            # R12: provable from the claimer's view, checked from scratch
            assert analyse_claim(to_position(state, player), action.flag, Side.YOU).claimable
        if deep and state.phase is Phase.CLAIM:
            assert state.claimable_now == fresh_claimable(state, player)
        apply(state, action)
        check_invariants(state, position=deep)
        if deep:
            if not state.over and state.phase is not Phase.MUD_DISCARD:
                for p in Player:
                    assert claimable(state, p) == fresh_claimable(state, p), (
                        "the claim cache must agree with the prover"
                    )
    assert state.over
    check_invariants(state)
    return state


def check_finished(state: GameState) -> None:
    held = {p: set(state.held(p)) for p in Player}
    if state.end_reason in (EndReason.BREAKTHROUGH, EndReason.ENVELOPMENT):
        assert state.winner is not None and r16(held[state.winner]) and not r16(held[state.winner.other])
        last = state.history[-1]
        assert isinstance(last[2], Claim) and last[1] is state.winner  # at once, on the winning claim (R16)
    else:
        # ruling G5: two idle turns in a row; the flags as they stand decide: R16, else more flags
        assert state.idle_streak == 2
        if state.winner is None:
            assert len(held[Player.NORTH]) == len(held[Player.SOUTH])
            assert r16(held[Player.NORTH]) == r16(held[Player.SOUTH])
        else:
            loser = state.winner.other
            assert (r16(held[state.winner]) and not r16(held[loser])) or (
                r16(held[state.winner]) == r16(held[loser]) and len(held[state.winner]) > len(held[loser])
            )


@pytest.mark.parametrize("timing", TIMINGS, ids=[t.value for t in TIMINGS])
def test_random_games_keep_every_invariant(timing: ClaimTiming) -> None:
    """The invariants after every action (the core validator and cache checks only in the deep tests)."""
    for seed in range(1000 * SCALE):
        state = run_checked(seed, timing, ("random", "random"), deep=False)
        check_finished(state)


@pytest.mark.parametrize("seed", range(8))
def test_deep_checks_random_games(seed: int) -> None:
    """Full invariants and the claim cache against fresh proofs after every action."""
    timing = TIMINGS[seed % 3]
    check_finished(run_checked(1000 + seed, timing, ("random", "random"), deep=True))


@pytest.mark.parametrize("seed", range(3))
def test_deep_checks_heuristic_games(seed: int) -> None:
    bots = ("heuristic", "random") if seed % 2 else ("heuristic", "heuristic")
    check_finished(run_checked(2000 + seed, TIMINGS[seed % 3], bots, deep=True))


@settings(max_examples=25 * SCALE)
@given(seed=st.integers(0, 2**32 - 1), timing=st.sampled_from(TIMINGS))
def test_records_replay_exactly(seed: int, timing: ClaimTiming) -> None:
    state = play_game(RandomBot(seed), RandomBot(seed + 1), seed, Options(claim_timing=timing))
    replayed = load_record_text(dump_record(state)).replay()
    assert replayed.history == state.history
    assert (replayed.winner, replayed.end_reason, replayed.turn_number) == (
        state.winner,
        state.end_reason,
        state.turn_number,
    )
    assert replayed.hands == state.hands and replayed.decks == state.decks and replayed.claimed == state.claimed


def test_same_seed_and_bots_same_game() -> None:
    a = play_game(HeuristicBot(1), RandomBot(2), 77)
    b = play_game(HeuristicBot(1), RandomBot(2), 77)
    assert a.history == b.history


def _snapshot(state: GameState) -> tuple[object, ...]:
    return (
        state.phase,
        state.turn,
        state.step,
        {p: list(h) for p, h in state.hands.items()},
        [{_NORTH: list(s[_NORTH]), _SOUTH: list(s[_SOUTH])} for s in state.cards],
        [{_NORTH: list(s[_NORTH]), _SOUTH: list(s[_SOUTH])} for s in state.env],
        {p: list(d) for p, d in state.discards.items()},
        {d: list(c) for d, c in state.decks.items()},
        list(state.claimed),
        dict(state.tactics_played),
        len(state.history),
        [dict(c) for c in state.complete_at],
    )


def _universe(state: GameState, rng: random.Random) -> list[Action]:
    """Plausible actions, legal or not: every kind, with cards from hand, table and decks."""
    table = [c for i in range(9) for p in Player for c in state.cards[i][p] + list(state.env[i][p])]
    hand = list(state.hands[state.to_act])
    cards = hand + table + rng.sample(list(ALL_CARDS), 5)
    flags = list(range(1, 10))
    out: list[Action] = [Pass(), EndClaims(), PlayScout(), Draw(Deck.TROOPS), Draw(Deck.TACTICS)]
    out += [Claim(n) for n in flags]
    for card in cards:
        out.append(PlayCard(card, rng.choice(flags)))
        out.append(Redeploy(card, rng.choice([None, *flags])))
        out.append(Deserter(card))
        out.append(ReturnCard(card))
        out.append(MudDiscard(card))
        if isinstance(card, Troop):
            out.append(Traitor(card, rng.choice(flags)))
    return out


@pytest.mark.parametrize("seed", range(10 * SCALE))
def test_legal_moves_and_apply_agree(seed: int) -> None:
    """An action is accepted exactly when legal_moves lists it; a refusal changes nothing."""
    rng = random.Random(seed)
    state = new_game(seed, Options(claim_timing=TIMINGS[seed % 3]))
    bot = RandomBot(seed)
    while not state.over:
        legal = legal_moves(state)
        listed = set(legal)
        # each refusal is compared with the state as it stood before this position's first one: while
        # refusals change nothing that is the state just before it, and the first that changes
        # something fails there (taken once per position: the snapshots were half of the test's time)
        before: tuple[object, ...] | None = None
        for action in rng.sample(_universe(state, rng), 20) + rng.sample(legal, min(5, len(legal))):
            if action in listed:
                apply(state.copy(), action)
            else:
                if before is None:
                    before = _snapshot(state)
                with pytest.raises(IllegalMoveError) as info:
                    apply(state, action)
                assert info.value.rule in str(info.value)
                assert _snapshot(state) == before, action
        apply(state, bot.choose(PlayerView(state, state.to_act), legal))


def test_the_invariant_checks_catch_corruption() -> None:
    """The checks above can fail: a duplicated card, a lost card, a miscounted tactic, an extra slot."""
    state = new_game(1)
    check_invariants(state)
    broken = state.copy()
    broken.hands[Player.NORTH].append(broken.hands[Player.SOUTH][0])
    broken.decks[Deck.TROOPS].pop()
    with pytest.raises(AssertionError, match="each in one place"):
        check_invariants(broken)
    broken = state.copy()
    broken.tactics_played[Player.NORTH] = 1
    with pytest.raises(AssertionError, match="R18"):
        check_invariants(broken)
    broken = state.copy()
    for card in broken.hands[Player.SOUTH][:4]:
        broken.cards[0][Player.SOUTH].append(card)
    del broken.hands[Player.SOUTH][:4]
    with pytest.raises(AssertionError, match="flag 1 south: 4 cards"):
        check_invariants(broken)
