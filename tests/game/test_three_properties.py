"""Invariants of the three-player game (R32-R37) over many complete games, in the style of test_properties.py.

Every game is played by bots through ``legal_three_moves``/``apply_three`` and checked after every
action: the 60 troops each in exactly one place (R34), no side over its three slots, no tactics
card anywhere, every claim provable when made (R35, re-proved from scratch with the core's
``analyse_claim``, the third player's face-up cards counted as seen), and the end exactly as R36
and R37 say.  A bot's choice never depends on the cards it cannot see: re-dealing the other hands
and the deck gives the same choice (R13, R35).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

from battleline_lab.core.cards import ALL_TROOPS, Troop
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.position import FlagState, Position, Side
from battleline_lab.game.actions import Claim, PlayCard
from battleline_lab.game.three import (
    LINES,
    SEATS,
    Seat,
    ThreeEnd,
    ThreePhase,
    ThreeState,
    ThreeView,
    apply_three,
    claimable_three,
    legal_three_moves,
    new_three_game,
    opponent_at,
)
from battleline_lab.game.three_bots import ThreeBot, ThreeHeuristicBot, ThreeRandomBot

SCALE = int(os.environ.get("BATTLELINE_GAMES", "1"))
ALL = set(ALL_TROOPS)


def r36(seat: Seat, held: set[int]) -> bool:
    """Written out from the rule text: three adjacent flags along the line, or any four (R33, R36)."""
    line = LINES[seat]
    return len(held) >= 4 or any(set(line[k : k + 3]) <= held for k in range(4))


def fresh_claimable(state: ThreeState, seat: Seat, flag: int) -> bool:
    """R35 from scratch: the two-player proof at ``flag``; every other face-up troop is seen (R13)."""
    other = opponent_at(seat, flag)
    mine, theirs = tuple(state.cards[flag - 1][seat]), tuple(state.cards[flag - 1][other])
    first = state.first_complete(flag)
    seen = [t for t in state.visible if t not in mine and t not in theirs]
    flags = [FlagState() for _ in range(9)]
    flags[flag - 1] = FlagState(
        you=mine,
        opponent=theirs,
        first_complete=None if first is None else Side.YOU if first is seat else Side.OPPONENT,
    )
    position = Position(flags=tuple(flags), discards_opponent=tuple(seen))
    return analyse_claim(position, flag, Side.YOU).claimable


def check_invariants(state: ThreeState, deep: bool) -> None:
    places: list[Troop] = [*state.deck]
    for seat in SEATS:
        assert all(type(c) is Troop for c in state.hands[seat]), "no tactics cards (R34)"
        places += state.hands[seat]
    for i, flag in enumerate(state.cards):
        assert set(flag) == set(opponent_pair(i + 1)), "only the front's two players have sides there (R32)"
        for seat, side in flag.items():
            assert len(side) <= 3, f"flag {i + 1} {seat}: {len(side)} troops (R34)"
            assert all(type(c) is Troop for c in side)
            assert (state.complete_at[i][seat] is not None) == (len(side) == 3)
            places += side
    assert len(places) == 60 and set(places) == ALL, "all 60 troops, each in one place (R34)"
    assert all(len(h) <= 7 for h in state.hands.values())
    assert state.visible == {c for flag in state.cards for side in flag.values() for c in side}
    for seat in SEATS:
        held = set(state.held(seat))
        assert held <= set(LINES[seat]), "a player holds only flags of their line (R33)"
        if not state.over:
            assert not r36(seat, held), "a win by R36 ends the game at once"
    if not state.over:
        assert any(r36(s, {n for n in LINES[s] if state.claimed[n - 1] in (None, s)}) for s in SEATS), "R37"
        if deep:
            for seat in SEATS:
                expected = tuple(
                    n
                    for n in LINES[seat]
                    if state.claimed[n - 1] is None and len(state.cards[n - 1][seat]) == 3
                    if fresh_claimable(state, seat, n)
                )
                assert claimable_three(state, seat) == expected


def opponent_pair(flag: int) -> tuple[Seat, Seat]:
    return next((s, opponent_at(s, flag)) for s in SEATS if flag in LINES[s])


def check_finished(state: ThreeState) -> None:
    held = {s: set(state.held(s)) for s in SEATS}
    assert state.over and state.end_reason is not None
    if state.end_reason in (ThreeEnd.BREAKTHROUGH, ThreeEnd.ENVELOPMENT):
        assert state.winner is not None and r36(state.winner, held[state.winner])
        if state.idle_streak < 3:  # at once, on the winning claim (R36)
            last = state.history[-1]
            assert isinstance(last[2], Claim) and last[1] is state.winner
            assert [s for s in SEATS if r36(s, held[s])] == [state.winner]
    else:
        most = max(len(h) for h in held.values())
        if state.end_reason is ThreeEnd.NO_WINNER:
            assert state.winner is None and most == 0
        else:
            assert state.winner is not None and len(held[state.winner]) == most  # R37: most flags
            tied = {s for s in SEATS if len(held[s]) == most}
            assert [s for _, s in state.claims if s in tied][-1] is state.winner  # ... then the last claim


def run_checked(seed: int, kinds: tuple[str, str, str], deep: bool) -> ThreeState:
    make: dict[str, Callable[[int], ThreeBot]] = {"random": ThreeRandomBot, "heuristic": ThreeHeuristicBot}
    bots: dict[Seat, ThreeBot] = {s: make[k](seed * 3 + j) for j, (s, k) in enumerate(zip(SEATS, kinds, strict=True))}
    state = new_three_game(seed)
    for _ in range(2000):
        if state.over:
            break
        seat = state.turn
        moves = legal_three_moves(state)
        assert moves, "a game in progress always offers an action"
        for move in moves:
            if isinstance(move, PlayCard):
                assert move.flag in LINES[seat] and move.card in state.hands[seat]
        action = bots[seat].choose(ThreeView(state, seat), moves)
        if isinstance(action, Claim):
            assert fresh_claimable(state, seat, action.flag), "R35: provable from what the claimer sees"
        apply_three(state, action)
        check_invariants(state, deep)
    check_finished(state)
    return state


def test_R34_R36_random_games_keep_every_invariant() -> None:
    for seed in range(150 * SCALE):
        run_checked(seed, ("random", "random", "random"), deep=False)


@pytest.mark.parametrize("seed", range(6))
def test_R35_deep_checks_the_claims_against_fresh_proofs(seed: int) -> None:
    kinds = (("heuristic", "random", "random"), ("random", "random", "random"), ("heuristic",) * 3)[seed % 3]
    run_checked(500 + seed, kinds, deep=True)


def test_R37_games_decided_by_most_flags_happen_and_are_checked() -> None:
    reasons = {run_checked(seed, ("random", "random", "random"), deep=False).end_reason for seed in range(60)}
    assert ThreeEnd.MOST_FLAGS in reasons and ThreeEnd.BREAKTHROUGH in reasons and ThreeEnd.ENVELOPMENT in reasons


def redeal_unseen(state: ThreeState, seat: Seat, seed: int) -> ThreeState:
    """The same table and the same hand of ``seat``; the other hands and the deck dealt again from
    the cards ``seat`` cannot see (R13, R35)."""
    other = state.copy()
    unseen = [*other.deck, *(c for s in SEATS if s is not seat for c in other.hands[s])]
    random.Random(seed).shuffle(unseen)
    for s in SEATS:
        if s is not seat:
            count = len(other.hands[s])
            other.hands[s], unseen = unseen[:count], unseen[count:]
    other.deck = unseen
    return other


@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_R35_hidden_cards_never_change_a_bots_choice(kind: str) -> None:
    makers: dict[str, Callable[[int], ThreeBot]] = {"random": ThreeRandomBot, "heuristic": ThreeHeuristicBot}
    make = makers[kind]
    checked = changed = 0
    for seed in range(12):
        state = new_three_game(seed)
        mover = ThreeRandomBot(seed + 100)
        while not state.over:
            seat = state.turn
            moves = legal_three_moves(state)
            if state.phase is ThreePhase.PLAY:
                other = redeal_unseen(state, seat, seed * 1000 + state.turn_number)
                assert other.hands[seat] == state.hands[seat] and other.cards == state.cards
                changed += other.deck != state.deck or other.hands != state.hands
                here = make(seed).choose(ThreeView(state, seat), moves)
                there = make(seed).choose(ThreeView(other, seat), legal_three_moves(other))
                assert here == there, f"seed {seed} turn {state.turn_number}"
                checked += 1
            apply_three(state, mover.choose(ThreeView(state, seat), moves))
    assert checked > 300 and changed > 0.9 * checked  # the re-deals really moved the hidden cards
