"""The three-player game rule by rule (R32-R37), its records, its bots and ``match A B C``."""

from __future__ import annotations

import json

import pytest

from battleline_lab.cli.game import main
from battleline_lab.core.cards import Troop, parse_cards
from battleline_lab.game import Action, Claim, Deck, Draw, EndClaims, Pass, PlayCard, make_bot
from battleline_lab.game.three import (
    FRONT_OF,
    LINES,
    SEATS,
    Seat,
    ThreeEnd,
    ThreeIllegalMoveError,
    ThreePhase,
    ThreeState,
    ThreeView,
    apply_three,
    can_still_win,
    claimable_three,
    legal_three_moves,
    new_three_game,
    opponent_at,
    play_three_game,
    wins_by_flags,
)
from battleline_lab.game.three_bots import ThreeHeuristicBot, ThreeRandomBot, run_three_match, seating
from battleline_lab.game.three_record import ThreeRecordError, dump_three_record, replay_three

A, B, C = SEATS


def troops(text: str) -> list[Troop]:
    return [c for c in parse_cards(text) if isinstance(c, Troop)]


def take(state: ThreeState, card: Troop) -> None:
    """Take ``card`` from wherever it is (deck, hand or a flag)."""
    if card in state.deck:
        state.deck.remove(card)
        return
    for hand in state.hands.values():
        if card in hand:
            hand.remove(card)
            state.deck.insert(0, state.deck.pop())  # keep the counts: nothing is added to the deck
            return
    for i, flag in enumerate(state.cards):
        for seat, side in flag.items():
            if card in side:
                side.remove(card)
                state.complete_at[i][seat] = None
                state.visible.discard(card)
                return
    raise AssertionError(card)


def place(state: ThreeState, seat: Seat, flag: int, text: str) -> None:
    """Put troops face up on ``seat``'s side of ``flag``, as if played (completion stamped, R11)."""
    for card in troops(text):
        take(state, card)
        state.cards[flag - 1][seat].append(card)
        state.visible.add(card)
        if len(state.cards[flag - 1][seat]) == 3:
            state.clock += 1
            state.complete_at[flag - 1][seat] = state.clock


def give(state: ThreeState, seat: Seat, text: str) -> None:
    """Put troops into ``seat``'s hand, the hand keeping 7 cards (its others go to the deck)."""
    for card in troops(text):
        if card in state.hands[seat]:
            continue
        if card in state.deck:
            state.deck.remove(card)
        else:
            for other in SEATS:
                if card in state.hands[other]:
                    state.hands[other].remove(card)
                    state.hands[other].append(state.deck.pop())
        state.deck.insert(0, state.hands[seat].pop(0))
        state.hands[seat].append(card)


def fresh(first: Seat = A, seed: int = 1) -> ThreeState:
    return new_three_game(seed, first=first)


# -- R32, R33: the triangle, its fronts and the lines ----------------------------------


@pytest.mark.parametrize(
    ("flag", "players"),
    [(1, (A, B)), (3, (A, B)), (4, (B, C)), (6, (B, C)), (7, (C, A)), (9, (C, A))],
    ids=lambda v: str(v),
)
def test_R32_each_flag_is_contested_by_the_two_players_of_its_front(flag: int, players: tuple[Seat, Seat]) -> None:
    assert FRONT_OF[flag] == players
    x, y = players
    assert opponent_at(x, flag) is y and opponent_at(y, flag) is x
    third = next(s for s in SEATS if s not in players)
    assert flag not in LINES[third] and set(fresh().cards[flag - 1]) == set(players)


def test_R32_R33_each_player_contests_six_flags_and_each_flag_is_on_two_lines() -> None:
    assert all(len(LINES[s]) == 6 for s in SEATS)
    assert sorted(n for s in SEATS for n in LINES[s]) == sorted(list(range(1, 10)) * 2)


# a set's flags are named in ascending order: a set literal's own order differs between this module
# compiled from source and loaded from its bytecode, and pytest-xdist's workers (one may compile while
# the other reads the bytecode just written) must name every case alike or the run stops
@pytest.mark.parametrize(
    ("seat", "held", "reason"),
    [
        (A, {9, 1, 2}, ThreeEnd.BREAKTHROUGH),  # 9 and 1 meet at A's corner
        (A, {8, 9, 1}, ThreeEnd.BREAKTHROUGH),
        (A, {7, 8, 9}, ThreeEnd.BREAKTHROUGH),
        (B, {3, 4, 5}, ThreeEnd.BREAKTHROUGH),  # 3 and 4 meet at B's corner
        (C, {6, 7, 8}, ThreeEnd.BREAKTHROUGH),
        (A, {7, 9, 2}, None),  # not adjacent along A's line
        (A, {3, 7, 9}, None),  # 3 and 7 are the two ends of A's line
        (B, {1, 3, 5}, None),
        (A, {7, 9, 1, 3}, ThreeEnd.ENVELOPMENT),
        (C, {4, 6, 7, 9}, ThreeEnd.ENVELOPMENT),
    ],
    ids=lambda v: str(sorted(v)) if isinstance(v, set) else str(v),
)
def test_R33_R36_adjacency_is_along_the_line_through_the_corner(seat: Seat, held: set[int], reason: object) -> None:
    assert wins_by_flags(seat, held) is reason


# -- R34: cards, turns and legal moves -----------------------------------------------------


def test_R34_sixty_troops_no_tactics_seven_each_turns_in_order() -> None:
    state = fresh(first=B)
    assert [len(state.hands[s]) for s in SEATS] == [7, 7, 7] and len(state.deck) == 39
    assert all(type(c) is Troop for c in [*state.deck, *(c for h in state.hands.values() for c in h)])
    seen: list[Seat] = []
    while len(seen) < 4:
        seen.append(state.turn)
        while state.turn is seen[-1]:
            apply_three(state, legal_three_moves(state)[0])
    assert seen == [B, C, A, B]


@pytest.mark.parametrize("seat", SEATS, ids=lambda s: s.name)
def test_R34_a_troop_goes_only_to_a_free_slot_of_the_players_own_line(seat: Seat) -> None:
    state = fresh(first=seat)
    moves = legal_three_moves(state)
    assert {m.flag for m in moves if isinstance(m, PlayCard)} == set(LINES[seat])
    assert len(moves) == 7 * 6


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        ("flag_off_line", "R33", "is not on A's line"),
        ("tactic", "R34", "no tactics cards"),
        ("not_in_hand", "R34", "is not in the hand"),
        ("claim_now", "R34", "claims come after playing a troop"),
        ("draw_now", "R34", "must play a troop or pass"),
        ("pass", "R7", "a troop can still be played"),
    ],
)
def test_R34_refusals_name_their_rule_and_change_nothing(action: str, rule: str, words: str) -> None:
    state = fresh(first=A)
    card = state.hands[A][0]
    not_mine = next(c for c in state.deck)
    choices: dict[str, Action] = {
        "flag_off_line": PlayCard(card, 5),
        "tactic": PlayCard(parse_cards("alexander")[0], 1),
        "not_in_hand": PlayCard(not_mine, 1),
        "claim_now": Claim(1),
        "draw_now": Draw(Deck.TROOPS),
        "pass": Pass(),
    }
    tried = choices[action]
    before = state.copy()
    with pytest.raises(ThreeIllegalMoveError) as err:
        apply_three(state, tried)
    assert err.value.rule == rule and words in str(err.value)
    assert state == before


def test_R34_a_full_side_takes_no_more_troops_and_the_draw_is_troops_only() -> None:
    state = fresh(first=A)
    place(state, A, 1, "r1 r2 r3")
    give(state, A, "y7")
    with pytest.raises(ThreeIllegalMoveError) as err:
        apply_three(state, PlayCard(troops("y7")[0], 1))
    assert err.value.rule == "R34" and 1 not in {m.flag for m in legal_three_moves(state) if isinstance(m, PlayCard)}
    apply_three(state, PlayCard(troops("y7")[0], 2))
    if state.phase is ThreePhase.CLAIM:
        apply_three(state, EndClaims())
    assert legal_three_moves(state) == [Draw(Deck.TROOPS)]
    with pytest.raises(ThreeIllegalMoveError, match="only the troop deck"):
        apply_three(state, Draw(Deck.TACTICS))


# -- R35: claims between the two players of a front --------------------------------------------


@pytest.mark.parametrize(
    ("where_b7", "where_b10", "claimable"),
    [
        ("flag 5", "flag 8", True),  # both face up on other fronts: every blue Wedge through b8 needs one (R35)
        ("hand of C", "flag 8", False),  # the third player's hand is as unseen as any (R13)
        ("deck", "flag 8", False),
        ("flag 5", "hand of A", False),  # the claimer's own hand is no evidence either
    ],
    ids=["both-face-up-elsewhere", "b7-in-the-third-hand", "b7-in-the-deck", "b10-in-own-hand"],
)
def test_R35_the_proof_uses_every_face_up_card_and_nothing_hidden(
    where_b7: str, where_b10: str, claimable: bool
) -> None:
    state = fresh(first=A)
    place(state, A, 1, "r3 r4 r5")
    place(state, B, 1, "b8")
    for card, where in (("b7", where_b7), ("b10", where_b10)):
        if where == "flag 5":
            place(state, C, 5, card)
        elif where == "flag 8":
            place(state, C, 8, card)
        elif where == "hand of C":
            give(state, C, card)
        elif where == "hand of A":
            give(state, A, card)
        else:
            take(state, troops(card)[0])
            state.deck.append(troops(card)[0])
    assert (1 in claimable_three(state, A)) is claimable
    assert 1 not in claimable_three(state, B)


def test_R35_R11_two_complete_sides_the_first_to_complete_wins_a_tie() -> None:
    state = fresh(first=A)
    place(state, C, 7, "r2 o3 y4")  # C completes first
    place(state, A, 7, "g2 b3 p4")  # the same Skirmish Line, completed later
    assert claimable_three(state, C) == (7,) and 7 not in claimable_three(state, A)


# -- R36, R37: the end -----------------------------------------------------------------------------


def _claim_turn(state: ThreeState, seat: Seat, flag: int, wins: str, loses: str) -> None:
    """Set up ``flag`` so that ``seat`` wins it outright with its third troop, play that troop and claim."""
    state.turn = seat
    state.phase = ThreePhase.PLAY
    *two, last = wins.split()
    place(state, seat, flag, " ".join(two))
    place(state, opponent_at(seat, flag), flag, loses)
    give(state, seat, last)
    apply_three(state, PlayCard(troops(last)[0], flag))
    assert state.phase is ThreePhase.CLAIM, claimable_three(state, seat)
    apply_three(state, Claim(flag))


def test_R36_three_adjacent_flags_through_the_corner_win_at_once() -> None:
    state = fresh(first=A)
    state.claimed[8] = state.claimed[0] = A  # flags 9 and 1, adjacent at A's corner
    state.claims += [(9, A), (1, A)]
    _claim_turn(state, A, 2, "r8 r9 r10", "y1 o2 g4")
    assert state.over and state.winner is A and state.end_reason is ThreeEnd.BREAKTHROUGH


@pytest.mark.parametrize(
    ("claimed", "claimer", "flag"),
    [
        ({7: A, 9: A, 2: A, 1: B, 3: B, 5: B, 4: C, 6: C}, C, 8),
        ({7: A, 9: A, 1: B, 3: B, 5: B, 4: C, 6: C, 8: C}, A, 2),
        ({7: A, 9: A, 2: A, 1: B, 3: B, 4: C, 6: C, 8: C}, B, 5),
    ],
    ids=["C-claims-last", "A-claims-last", "B-claims-last"],
)
def test_R37_when_no_one_can_win_the_last_claim_breaks_the_tie_of_most_flags(
    claimed: dict[int, Seat], claimer: Seat, flag: int
) -> None:
    state = fresh(first=A)
    for n, s in claimed.items():
        state.claimed[n - 1] = s
        state.claims.append((n, s))
    assert any(can_still_win(state, s) for s in SEATS)  # the open flag still makes someone's fourth
    _claim_turn(state, claimer, flag, "r8 r9 r10", "y1 o2 g4")
    assert not any(can_still_win(state, s) for s in SEATS)
    assert [len(state.held(s)) for s in SEATS] == [3, 3, 3]
    assert state.over and state.end_reason is ThreeEnd.MOST_FLAGS and state.winner is claimer


def test_R37_no_one_can_win_only_when_all_nine_flags_are_held_three_each() -> None:
    """Over all 3**9 ways the flags can be held or open: a fact the lesson teaches."""
    import itertools

    ends = []
    for owners in itertools.product((None, 0, 1), repeat=9):
        state = fresh()
        state.claimed = [None if o is None else FRONT_OF[n][o] for n, o in enumerate(owners, start=1)]
        if any(wins_by_flags(s, set(state.held(s))) for s in SEATS):
            continue
        if not any(can_still_win(state, s) for s in SEATS):
            ends.append(state.claimed)
    assert ends and all(None not in c and sorted(c.count(s) for s in SEATS) == [3, 3, 3] for c in ends)


def test_R37_games_end_by_it_in_play() -> None:
    ended = [play_three_game([ThreeRandomBot(s), ThreeRandomBot(s + 1), ThreeRandomBot(s + 2)], s) for s in range(40)]
    decided = [g for g in ended if g.end_reason is ThreeEnd.MOST_FLAGS]
    assert decided and all(g.winner is g.claims[-1][1] for g in decided)


# -- views, records ----------------------------------------------------------------------------------


def test_R35_a_view_shows_no_other_hand_and_no_deck_order() -> None:
    state = fresh(first=A)
    view = ThreeView(state, B)
    public = {name for name in dir(view) if not name.startswith("_")}
    assert view.hand == tuple(state.hands[B]) and view.hand_sizes == {"a": 7, "b": 7, "c": 7}
    assert not {"hands", "deck", "state"} & public
    assert len(view.unseen_troops()) == 60  # nothing face up yet; the own hand counts as unseen


def test_records_replay_exactly_with_their_result() -> None:
    for seed in range(5):
        state = play_three_game([ThreeHeuristicBot(1), ThreeRandomBot(seed), ThreeRandomBot(seed + 9)], seed)
        text = dump_three_record(state, {A: "heuristic", B: "random", C: "random"})
        replayed = replay_three(text, "g.yaml")
        assert replayed.history == state.history and replayed.winner == state.winner
        assert replayed.claims == state.claims and replayed.end_reason == state.end_reason


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("- a: play", "- b: play"), "g.yaml:6:3: error: turn 1 is A's, not b's"),
        (("variant: three", "variant: two"), "g.yaml:2:10: error: variant must be one of three, not 'two'"),
        (("seed: 3", "seed: x"), "g.yaml:3:7: error: seed must be a whole number, not 'x'"),
        (("result: {winner: ", "result: {winner: x"), "g.yaml:"),
        (("moves:", "moves: &m"), "g.yaml:"),
    ],
    ids=["wrong-seat", "variant", "seed", "result", "anchor"],
)
def test_bad_records_are_located_errors(change: tuple[str, str], expected: str) -> None:
    state = play_three_game([ThreeRandomBot(1), ThreeRandomBot(2), ThreeRandomBot(3)], 3, first=A)
    text = dump_three_record(state).replace(*change, 1)
    with pytest.raises(ThreeRecordError) as err:
        replay_three(text, "g.yaml")
    assert str(err.value).startswith(expected) and "\n" not in str(err.value)


def test_an_illegal_move_in_a_record_is_located_at_the_move_with_its_rule() -> None:
    state = fresh(first=A)
    card = sorted(state.hands[A], key=lambda c: c.index)[0]
    text = f"variant: three\nseed: 1\nfirst: a\nmoves:\n- a: play {card.notation} 5\n"
    with pytest.raises(ThreeRecordError) as err:
        replay_three(text, "g.yaml")
    assert str(err.value) == (
        f"g.yaml:5:6: error: turn 1, 'play {card.notation} 5' is not possible now: flag 5 is not on A's line (R33)"
    )


# -- bots and match -----------------------------------------------------------------------------------


def test_heuristic_wins_most_of_60_games_against_two_random_bots() -> None:
    """The figure in docs/game.md: ``match heuristic random random --games 60`` (seed 0)."""
    result = run_three_match("heuristic", "random", "random", games=60, seed=0)
    assert result.games == 60 and sum(result.wins.values()) + result.draws == 60
    assert result.wins["A"] > result.wins["B"] + result.wins["C"] and result.wins["A"] >= 40


def test_seats_rotate_and_matches_are_reproducible() -> None:
    assert [seating(k)[A] for k in range(3)] == ["A", "B", "C"]
    one = run_three_match("random", "heuristic", "random", games=6, seed=4).as_dict()
    two = run_three_match("random", "heuristic", "random", games=6, seed=4).as_dict()
    assert {k: v for k, v in one.items() if k != "seconds"} == {k: v for k, v in two.items() if k != "seconds"}


def test_match_with_three_names_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "heuristic", "random", "random", "--games", "6", "--seed", "2", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    data = json.loads(lines[0])
    assert len(lines) == 1 and set(data["wins"]) == {"A", "B", "C"} and data["players"] == 3
    assert sum(data["wins"].values()) + data["draws"] == 6
    assert data["bots"] == {"A": "heuristic", "B": "random", "C": "random"}


def test_match_with_three_names_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "random", "heuristic", "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "random (A), random (B) and heuristic (C), three players: 3 games from seed 1" in out
    assert "wins: A" in out and ", C " in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["heuristic", "random", "expert"], "bot 'expert' does not play the three-player game"),
        (["heuristic", "random", "random", "--jobs", "2"], "--jobs belongs to the two-player game"),
        (["heuristic", "random", "random", "--winner-starts"], "--winner-starts belongs to the two-player game"),
        (["heuristic", "random", "random", "--claim-timing", "end_of_turn"], "--claim-timing belongs"),
        (["heuristic", "random", "clever"], "invalid choice: 'clever'"),
        (["heuristic", "random", "random", "--games", "0"], "--games"),
    ],
    ids=["expert", "jobs", "winner-starts", "claim-timing", "unknown", "games"],
)
def test_match_with_three_names_bad_usage_is_one_located_line_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *argv]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and words in errors[0] and errors[0].startswith("battleline-lab match: error:")
    assert "Traceback" not in err


def test_two_player_bots_are_unchanged_by_the_variant() -> None:
    assert make_bot("heuristic", 1).name == "heuristic"
    assert run_three_match("random", "random", "random", games=1).games == 1
