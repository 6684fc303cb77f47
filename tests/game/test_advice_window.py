"""The coach names the claim window (R14) when it decides the move: a Deserter or Traitor that
breaks a finished formation the opponent would claim (R29, R30), a Fog or Mud that makes such a
flag winnable again (R24, R25), and, with claims at the start of the turn, a formation of ours
that stands through the opponent's turn, with only the guile cards they can still play against it
(public information only, R13, R18); in English and Chinese."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battleline_lab.core.cards import Tactic, Troop, parse_card, parse_cards
from battleline_lab.core.formations import evaluate
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import Deck, GameState, Options, Phase, Player, PlayerView, apply, legal_moves, new_game
from battleline_lab.game.actions import Deserter, PlayCard, Redeploy, Traitor
from battleline_lab.game.advice import advice_text, advise, explain, wait_lines, window_guile, window_lines
from battleline_lab.game.bots import make_bot
from battleline_lab.game.master import Judgment
from battleline_lab.game.sampler import WINDOW_SAMPLES
from battleline_lab.text.messages import kind_name, message

from .conftest import arrange
from .test_expert import _reshuffle_hidden
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


# two flags the judge calls lost to a finished formation of North's: only the first is lost by the
# public proof (R12, R13), so only there does the coach say they would claim it
BREAKS = [
    ({6: {"south": "r2 b3", "north": "o4 y4 p4"}, 2: {"south": "r4", "north": "g4"}, 4: {"south": "b4 b5"}}, "o4"),
    ({6: {"south": "r10 r4", "north": "g10 g5 g7"}}, "g10"),  # a red 9 still beats the Battalion of 22
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R12_R29_the_break_line_says_they_would_claim_only_a_flag_they_can_prove(lang: str) -> None:
    said = []
    for flags, target in BREAKS:
        state = arrange(timing="start_of_turn", hands={"south": "deserter b2 g1 y7 p3 o2 b9"}, flags=flags)
        view = PlayerView(state, Player.SOUTH)
        action = Deserter(parse_card(target))
        assert action in legal_moves(state) and Judgment(view).flags[6].lost
        theirs = view.flag_cards(6, Player.NORTH)
        line = message("coach.window.break", lang, flag=6, kind=kind_name(evaluate(theirs).kind, lang))
        said.append(line in advice_text(view, explain(view, action), lang))
    assert said == [True, False]


def _wedge_table(timing: ClaimTiming, seen: str) -> GameState:
    """South to play the Wedge table; the tactics cards ``seen`` lie in North's discard area (R31)."""
    state = _table("r8 b2 g5 y7 p3 o4 b6", WEDGE, timing, their_tactics=1)  # North holds a tactics card
    for name in seen.split():
        tactic = parse_card(name)
        assert isinstance(tactic, Tactic)
        state.decks[next(iter(d for d in state.decks if tactic in state.decks[d]))].remove(tactic)
        state.discards[Player.NORTH].append(tactic)
    return state


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
    state = _wedge_table(timing, seen)
    view = PlayerView(state, Player.SOUTH)
    # the coach's words for finishing the Wedge (with claims at the start of the turn the master
    # itself may prefer to wait: its play-outs weigh finishing against a move elsewhere)
    finish = PlayCard(parse_card("r8"), 3)
    assert finish in legal_moves(state)
    advice = explain(view, finish)
    expected = message("coach.window.protect.both", lang, flag=3, kind=message("kind.wedge", lang))
    assert (expected in window_lines(view, advice, lang)) is named
    assert (expected in advice_text(view, advice, lang)) is named


# -- the window, exact about public information (R13) ------------------------------------------
# South completes a side at flag 3 with claims at the start of the turn (R14): which guile cards
# can North still play against it in the one turn before South's claim?

SOUTH_HAND = "r8 b2 g5 y7 p3 o4 b6"
NORTH_HAND = "alexander g1 g2 o1 o2 p1 p2"  # one tactics card, six troops


def _guard(
    *,
    south: str = SOUTH_HAND,
    north: str = NORTH_HAND,
    flags: dict[int, dict[str, str]] | None = None,
    discards: dict[str, str] | None = None,
    scouted: str = "",
    full: bool = False,
) -> GameState:
    """South to play at the start of a turn, claims at the start of the turn; ``scouted`` tactics
    lie on the tactics deck where South's Scout put them back (R27); ``full`` fills every other
    flag's North side (no free slot for a Traitor to use, R30)."""
    flags = flags if flags is not None else {3: {"south": "r9 r10", "north": "y4"}}
    state = arrange(timing="start_of_turn", hands={"south": south, "north": north}, flags=flags, discards=discards)
    for card in parse_cards(scouted):
        state.decks[Deck.TACTICS].remove(card)
        state.decks[Deck.TACTICS].append(card)
        state.deck_marks[Deck.TACTICS] = [None] * (len(state.decks[Deck.TACTICS]) - 1) + [Player.SOUTH]
    if full:
        for i in range(9):
            while len(state.cards[i][Player.NORTH]) < 3:
                troop = next(c for c in reversed(state.decks[Deck.TROOPS]) if isinstance(c, Troop))
                state.decks[Deck.TROOPS].remove(troop)
                state.deck_marks[Deck.TROOPS].pop()
                state.cards[i][Player.NORTH].append(troop)
                state.visible_troops.add(troop)
    assert state.card_count() + len(state.limbo) == 70  # type: ignore[attr-defined]
    return state


GUARD = [
    pytest.param(
        {"discards": {"south": "scout", "north": "traitor"}},
        "r8",
        ("deserter",),
        id="R31-traitor-in-their-discards-leaves-deserter",
    ),
    pytest.param(
        {"discards": {"south": "scout", "north": "deserter"}},
        "r8",
        ("traitor",),
        id="R31-deserter-in-their-discards-leaves-traitor",
    ),
    pytest.param(
        {"south": "r8 deserter g5 y7 p3 o4 b6"}, "r8", ("traitor",), id="R13-deserter-in-our-hand-leaves-traitor"
    ),
    pytest.param(
        {"discards": {"south": "scout"}, "scouted": "deserter"},
        "r8",
        ("traitor",),
        id="R27-deserter-our-scout-put-back-on-the-deck-leaves-traitor",
    ),
    pytest.param({"north": "g1 g2 o1 o2 p1 p2 b1"}, "r8", (), id="R13-their-hand-holds-no-tactics-card"),
    pytest.param({"discards": {"north": "scout"}}, "r8", (), id="R18-they-have-played-more-tactics-than-we"),
    pytest.param(
        {
            "south": "shield b2 g5 y7 p3 o4 b6",
            "north": "fog g1 g2 o1 o2 p1 p2",
            "flags": {3: {"south": "alexander companion", "north": "y4 g9 r1"}},
            "discards": {"north": "scout redeploy"},
        },
        "shield",
        ("deserter",),
        id="R30-no-troop-in-our-side-for-a-traitor-to-take",
    ),
    pytest.param(
        {"flags": {3: {"south": "r9 r10", "north": "y4 y5 g3"}}, "full": True},
        "r8",
        ("deserter",),
        id="R30-no-free-slot-for-a-traitor-to-fill",
    ),
]


@pytest.mark.parametrize(("setup", "card", "expected"), GUARD)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R14_the_window_names_only_the_guile_they_can_still_play(
    setup: dict[str, Any], card: str, expected: tuple[str, ...], lang: str
) -> None:
    state = _guard(**setup)
    view = PlayerView(state, Player.SOUTH)
    action = PlayCard(parse_card(card), 3)
    assert action in legal_moves(state)
    assert window_guile(view, action) == tuple(parse_card(name) for name in expected)
    lines = advice_text(view, explain(view, action), lang)
    kind = kind_name(evaluate(view.flag_cards(3, Player.SOUTH) + (action.card,)).kind, lang)
    said = {
        which
        for which in ("both", "deserter", "traitor")
        if message(f"coach.window.protect.{which}", lang, flag=3, kind=kind) in lines
    }
    assert said == ({"both"} if len(expected) == 2 else set(expected))


MOVED = [
    pytest.param(
        "redeploy b2 g5 y7 p3 o4 b6",
        {3: {"south": "r9 r10", "north": "y4"}, 5: {"south": "r8"}},
        Redeploy(parse_card("r8"), 3),
        "both",
        id="R28-a-redeploy-completes-the-wedge-both-guile-cards-unseen",
    ),
    pytest.param(
        "traitor b2 g5 y7 p3 o4 b6",
        {3: {"south": "r9 r10", "north": "y4"}, 5: {"north": "r8 g8"}},
        Traitor(parse_card("r8"), 3),
        "deserter",
        id="R30-a-traitor-completes-the-wedge-only-deserter-left-unseen",
    ),
]


@pytest.mark.parametrize(("south", "flags", "action", "which"), MOVED)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R14_a_side_completed_by_redeploy_or_traitor_stands_in_the_window(
    south: str, flags: dict[int, dict[str, str]], action: Redeploy | Traitor, which: str, lang: str
) -> None:
    state = _guard(south=south, flags=flags)
    view = PlayerView(state, Player.SOUTH)
    assert action in legal_moves(state)
    line = message(f"coach.window.protect.{which}", lang, flag=3, kind=message("kind.wedge", lang))
    assert line in advice_text(view, explain(view, action), lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R12_R14_the_window_is_named_only_for_a_side_the_learner_can_then_prove(lang: str) -> None:
    # r8 completes a red Wedge North's yellow 4 can never beat (provable, R12); b2 completes a Host
    # of 21 that North may still beat, so no claim waits at the start of South's next turn
    state = _guard()
    view = PlayerView(state, Player.SOUTH)
    said = []
    for card, kind in (("r8", "kind.wedge"), ("b2", "kind.host")):
        action = PlayCard(parse_card(card), 3)
        advice = explain(view, action)
        assert window_guile(view, action) == (Tactic.DESERTER, Tactic.TRAITOR)
        line = message("coach.window.protect.both", lang, flag=3, kind=message(kind, lang))
        said.append((3 in advice.then_claim, line in advice_text(view, advice, lang)))
    assert said == [(True, True), (False, False)]


def test_R18_our_own_tactics_card_lets_them_answer_in_the_window() -> None:
    # North has played one tactics card more than South: after a troop they may play none (R18),
    # after South's Leader completes the same Wedge the counts are level and both guile cards remain
    state = _guard(south="r8 darius g5 y7 p3 o4 b6", north="fog g1 g2 o1 o2 p1 p2", discards={"north": "scout"})
    view = PlayerView(state, Player.SOUTH)
    troop, leader = PlayCard(parse_card("r8"), 3), PlayCard(Tactic.DARIUS, 3)
    assert troop in legal_moves(state) and leader in legal_moves(state)
    assert (window_guile(view, troop), window_guile(view, leader)) == ((), (Tactic.DESERTER, Tactic.TRAITOR))
    for lang in ("en", "zh"):
        texts = [advice_text(view, explain(view, action), lang) for action in (troop, leader)]
        kinds = [message("kind.wedge", lang), kind_name(evaluate("r9 r10 darius").kind, lang)]
        lines = [message("coach.window.protect.both", lang, flag=3, kind=kind) for kind in kinds]
        assert (lines[0] in texts[0], lines[1] in texts[1]) == (False, True)


def test_R13_the_count_of_their_tactics_is_the_public_one() -> None:
    state = _guard(discards={"south": "scout", "north": "fog"})
    assert PlayerView(state, Player.SOUTH).opponent_hand_tactics == 1
    assert PlayerView(state, Player.NORTH).opponent_hand_tactics == 0
    other = _reshuffle_hidden(state, 5)  # another hidden deal: the same public count
    assert PlayerView(other, Player.SOUTH).opponent_hand_tactics == 1


# a Fog (R24) or Mud (R25) on a flag their finished formation would take: explained when it makes
# the flag winnable again, and not in the twin position that differs in one thing
ENVIRONMENT = [
    pytest.param(
        "fog",
        {"south": "r10 y10", "north": "g5 g6 g7"},
        {"south": "r1 y1", "north": "g5 g6 g7"},
        id="R24-fog-lets-our-sum-beat-their-wedge-not-a-sum-that-cannot",
    ),
    pytest.param(
        "mud",
        {"south": "r10 y10", "north": "g5 g6 g7"},
        {"south": "r10 y10", "north": "g5 g6"},
        id="R25-mud-unfinishes-their-wedge-not-an-unfinished-side",
    ),
    pytest.param(
        "fog",
        {"south": "r10 y10", "north": "g5 g6 g7"},
        {"south": "r9 r10", "north": "g5 g6 g7"},
        id="R24-fog-on-a-lost-flag-not-on-one-our-wedge-can-still-take",
    ),
]


@pytest.mark.parametrize(("card", "saved", "twin"), ENVIRONMENT)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R24_R25_fog_or_mud_that_makes_their_flag_winnable_is_explained(
    card: str, saved: dict[str, str], twin: dict[str, str], lang: str
) -> None:
    hand = f"{card} b2 g1 y7 p3 o4 b6"
    action = PlayCard(parse_card(card), 5)
    views = []
    for sides in (saved, twin):
        state = arrange(timing="start_of_turn", hands={"south": hand}, flags={5: sides})
        assert action in legal_moves(state)
        views.append(PlayerView(state, Player.SOUTH))
    theirs = views[0].flag_cards(5, Player.NORTH)
    kind = kind_name(evaluate(theirs).kind, lang)
    line = message(f"coach.window.{card}", lang, flag=5, kind=kind, total=evaluate(theirs, fog=True).total)
    assert line in advice_text(views[0], explain(views[0], action), lang)
    assert window_lines(views[1], explain(views[1], action), lang) == []


def _guile_they_can_play(state: GameState, action: PlayCard | Redeploy | Traitor, flag: int) -> set[Tactic]:
    """Play ``action`` for South, draw, let North claim nothing: the guile cards North may then
    really play against a card of South's side of ``flag`` (R29, R30), in this deal."""
    after = state.copy()
    apply(after, action)
    while not after.over and not (after.turn is Player.NORTH and after.phase is Phase.PLAY):
        apply(after, legal_moves(after)[-1])  # the last draw / ``end`` of the claim step
    if after.over:
        return set()
    side = after.cards[flag - 1][Player.SOUTH]
    out: set[Tactic] = set()
    for move in legal_moves(after):
        if isinstance(move, Deserter) and move.target in side:
            out.add(Tactic.DESERTER)
        if isinstance(move, Traitor) and move.target in side:
            out.add(Tactic.TRAITOR)
    return out


def test_R13_R18_a_guile_card_not_named_cannot_be_played_in_any_deal() -> None:
    # whole games with claims at the start of the turn: at each of South's card plays, every move
    # that completes a side (a card played, a Redeploy, a Traitor); the guile the coach leaves out
    # is unplayable against it in the real deal and in deals of the hidden cards made anew (the
    # coach reads public information only)
    answers: set[tuple[Tactic, ...]] = set()
    for seed in (22, 24):
        state = new_game(seed, Options(claim_timing=ClaimTiming.START_OF_TURN, first=Player.SOUTH))
        bots = {p: make_bot("heuristic", seed) for p in Player}
        while not state.over:
            if state.phase is Phase.PLAY and state.turn is Player.SOUTH:
                view = PlayerView(state, Player.SOUTH)
                for action in legal_moves(state):
                    if isinstance(action, PlayCard):
                        card, flag = action.card, action.flag
                    elif isinstance(action, (Redeploy, Traitor)) and action.to is not None:
                        card, flag = action.target, action.to
                    else:
                        continue
                    if isinstance(card, Tactic) and card.is_environment:
                        continue  # an environment card completes no side
                    if len(view.flag_cards(flag, Player.SOUTH)) + 1 < view.size(flag):
                        continue  # it completes no side
                    guile = window_guile(view, action)
                    for deal in (state, _reshuffle_hidden(state, seed)):
                        assert _guile_they_can_play(deal, action, flag) <= set(guile), (seed, state.turn_number, action)
                    answers.add(guile)
            apply(state, bots[state.to_act].choose(PlayerView(state, state.to_act), legal_moves(state)))
    assert answers >= {(), (Tactic.DESERTER,), (Tactic.TRAITOR,)}  # each way of leaving guile out was met


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R29_R30_a_traitor_that_breaks_their_phalanx_and_completes_ours_gets_both_lines(lang: str) -> None:
    # North's Phalanx of 4s at flag 6 is provable (every other 4 seen); the Traitor takes its orange
    # 4 to South's green and blue 4 at flag 3, a Phalanx North's complete Skirmish Line cannot beat
    flags = {
        6: {"south": "r2 b3", "north": "o4 y4 p4"},
        3: {"south": "g4 b4", "north": "r1 y2 o3"},
        2: {"south": "r4"},
    }
    state = _guard(south="traitor b9 g5 y7 p3 r7 b6", flags=flags)
    view = PlayerView(state, Player.SOUTH)
    action = Traitor(parse_card("o4"), 3)
    assert action in legal_moves(state)
    kind = message("kind.phalanx", lang)
    assert window_lines(view, explain(view, action), lang) == [
        message("coach.window.break", lang, flag=6, kind=kind),
        message("coach.window.protect.deserter", lang, flag=3, kind=kind),
    ]


# -- waiting: the master passes over finishing a side (R14) --------------------------------------
# On the Wedge table above the master's play-outs (the coach's seed 0) prefer a troop elsewhere to
# finishing flag 3: the coach says why finishing was passed over, with the guile they may still play.

WAIT = [
    pytest.param(ClaimTiming.START_OF_TURN, "", "both", id="R14-R29-R30-both-guile-cards-unseen"),
    pytest.param(ClaimTiming.START_OF_TURN, "traitor", "deserter", id="R14-R29-only-the-deserter-unseen"),
    pytest.param(ClaimTiming.START_OF_TURN, "deserter traitor", None, id="R14-no-guile-left-no-reason-to-wait"),
    pytest.param(ClaimTiming.AFTER_PLAY, "", None, id="R14-after-play-claimed-at-once"),
]


@pytest.mark.parametrize(("timing", "seen", "which"), WAIT)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R14_the_wait_line_says_why_finishing_a_side_was_passed_over(
    timing: ClaimTiming, seen: str, which: str | None, lang: str
) -> None:
    view = PlayerView(_wedge_table(timing, seen), Player.SOUTH)
    finish = PlayCard(parse_card("r8"), 3)
    red8 = message("expert.coach.troop", lang, colour=message("colour.r", lang), value=8)
    kind = message("kind.wedge", lang)
    lines = wait_lines(view, finish, lang)
    if which is None:
        assert lines == []
    else:
        assert lines == [
            message(f"coach.window.wait.{which}", lang, flag=3, kind=kind, card=red8, samples=WINDOW_SAMPLES)
        ]
    # a move that completes no side, or no troop at all, is never a reason to wait
    assert wait_lines(view, PlayCard(parse_card("b2"), 5), lang) == []
    assert wait_lines(view, Deserter(parse_card("y4")), lang) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_R14_the_coach_explains_the_masters_waiting_move(lang: str) -> None:
    state = _wedge_table(ClaimTiming.START_OF_TURN, "")
    view = PlayerView(state, Player.SOUTH)
    advice = advise(view, legal_moves(state))
    finish = PlayCard(parse_card("r8"), 3)
    assert advice.searched and advice.passed_over == finish and advice.action != finish
    assert not (isinstance(advice.action, PlayCard) and advice.action.flag == 3)
    text = advice_text(view, advice, lang)
    assert wait_lines(view, finish, lang)[0] in text
    # what the move does is said as before, and finishing's own line is not (the side is not finished)
    both = message("coach.window.protect.both", lang, flag=3, kind=message("kind.wedge", lang))
    assert both not in text
    # a move that finishes the flag another way is not waiting (its own window line says the rest)
    other = replace(explain(view, PlayCard(parse_card("b2"), 3)), passed_over=finish)
    assert not set(wait_lines(view, finish, lang)) & set(window_lines(view, other, lang))
    # the rules' own move, explained, has no passed-over move and so no wait line
    plain = explain(view, finish)
    assert plain.passed_over is None and not any(
        line in advice_text(view, plain, lang) for line in wait_lines(view, finish, lang)
    )
