"""Claims (R11-R13, R20-R25 at a flag): table-driven; every verdict is also checked against the reference.

Positions are written in ``Position.build`` form: the flag under test is 5 unless a row says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from battleline_lab.core import decide as _decide
from battleline_lab.core.cards import ALL_TROOPS, parse_cards
from battleline_lab.core.claims import ClaimAnalysis, Reason, UndecidedTieError, analyse_claim, claimable_flags
from battleline_lab.core.position import Position, Side
from tests.reference import best_strength, reference_claim

SEVENS_AND_NINES_BUT_R7 = "o7 y7 g7 b7 p7 r9 o9 y9 g9 b9 p9"  # with r7 on your side: every Wedge with an 8 blocked


def decide(position: Position, flag: int = 5, side: Side = Side.YOU) -> ClaimAnalysis:
    """The engine's analysis; its verdict must equal the naive reference's."""
    analysis = analyse_claim(position, flag, side)
    assert analysis.claimable == reference_claim(position, flag, side)
    assert analysis.steps[-1].reason is (Reason.CAN_CLAIM if analysis.claimable else Reason.CANNOT_CLAIM)
    if analysis.counterexample:
        assert not analysis.claimable
        state = position.flag(flag)
        assert set(analysis.counterexample) <= position.unseen_troops()
        theirs = list(state.formation_cards(side.other)) + list(analysis.counterexample)
        mine = state.formation_cards(side)
        assert best_strength(theirs, fog=state.fog, mud=state.mud) > best_strength(mine, fog=state.fog, mud=state.mud)
    return analysis


def build(flags: dict[int, dict[str, Any]], **kw: Any) -> Position:
    return Position.build(flags, **kw)


# -- the five worked examples of RULES.md ------------------------------------------------------------------------
def test_R12_example_1_wedge_against_two_sixes_claimable() -> None:
    analysis = decide(build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}}))
    assert analysis.claimable
    assert Reason.KIND_RULED_OUT in analysis.reasons  # no Wedge with r6 and g6


def test_R13_example_2_blue_eight_blocked_by_visible_b7_b10() -> None:
    position = build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    analysis = decide(position)
    assert analysis.claimable
    blocked = [s for s in analysis.steps if s.reason is Reason.SHAPE_BLOCKED]
    assert len(blocked) == 1  # one step for the three blue Wedges: each needs b7 or b10
    assert [s.start for s in blocked[0].shapes] == [8, 7, 6]  # 8-9-10, 7-8-9, 6-7-8
    assert {(c.notation, repr(loc)) for s in blocked for c, loc in s.where} == {
        ("b10", "flag 2 (opponent)"),
        ("b7", "flag 2 (you)"),
    }


@pytest.mark.parametrize("where", ["hand_you", "hand_opponent", "deck"])
def test_R13_example_3_b7_b9_unseen_even_in_your_hand_not_claimable(where: str) -> None:
    hand = {"you": "b7 b9"} if where == "hand_you" else {"opponent": "b7 b9"} if where == "hand_opponent" else {}
    position = build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"opponent": "b10"}}, hand=hand)
    analysis = decide(position)
    assert not analysis.claimable
    assert analysis.counterexample == parse_cards("b7 b9")
    assert (Reason.HAND_NOT_EVIDENCE in analysis.reasons) == (where == "hand_you")


@pytest.mark.parametrize("theirs", ["b10 b9", "y10"])
def test_R11_example_4_at_best_a_tie_goes_to_who_completed_first(theirs: str) -> None:
    analysis = decide(build({5: {"you": "r8 r9 r10", "opponent": theirs}}))
    assert analysis.claimable
    assert Reason.AT_BEST_TIE in analysis.reasons


def test_R10_example_5_battalion_13_beats_battalion_11_at_a_flag() -> None:
    position = build({5: {"you": "r4 r6 r3", "opponent": "b7 b1 b3"}})
    assert decide(position).claimable
    assert not decide(position, side=Side.OPPONENT).claimable


# -- R12 basics ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flags", "side", "claimable", "reason"),
    [
        ({5: {"you": "r3 r4", "opponent": ""}}, Side.YOU, False, Reason.SIDE_INCOMPLETE),
        ({5: {"you": "", "opponent": ""}}, Side.YOU, False, Reason.SIDE_INCOMPLETE),
        ({5: {"you": "r3 r4 r5", "opponent": "b1", "claimed_by": "you"}}, Side.YOU, False, Reason.FLAG_CLAIMED),
        (
            {5: {"you": "r3 r4 r5", "opponent": "b1 b2 b3", "claimed_by": "you"}},
            Side.OPPONENT,
            False,
            Reason.FLAG_CLAIMED,
        ),
        ({5: {"you": "r3 r4 r5", "opponent": "b1 b5 g9"}}, Side.YOU, True, Reason.YOU_ARE_STRONGER),
        ({5: {"you": "r3 r4 r5", "opponent": "b1 b5 g9"}}, Side.OPPONENT, False, Reason.THEY_ARE_STRONGER),
        ({5: {"you": "r3 r4 r5", "opponent": "b2 b3 b4"}}, Side.OPPONENT, False, Reason.THEY_ARE_STRONGER),
        ({5: {"you": "r3 r4 r5", "opponent": ""}}, Side.YOU, False, Reason.COUNTEREXAMPLE),
        ({5: {"you": "r8 r9 r10", "opponent": ""}}, Side.YOU, True, Reason.AT_BEST_TIE),  # 27 is the top Wedge
        ({5: {"you": "r3 r4 r5", "opponent": "b1"}}, Side.YOU, True, Reason.KIND_TOO_WEAK),  # b1-b2-b3 is only 6
    ],
)
def test_R12_claim_basics(flags: dict[int, dict[str, Any]], side: Side, claimable: bool, reason: Reason | None) -> None:
    analysis = decide(build(flags), side=side)
    assert analysis.claimable is claimable
    if reason is not None:
        assert reason in analysis.reasons


def test_R12_counterexample_names_troops_that_win() -> None:
    analysis = decide(build({5: {"you": "r3 r4 r5", "opponent": "b8"}}))
    assert not analysis.claimable
    assert analysis.counterexample == parse_cards("b9 b10")  # the strongest completion is shown
    assert analysis.opponent_formation is not None and analysis.formation is not None
    assert analysis.opponent_formation.strength > analysis.formation.strength


def test_R12_weak_flag_against_empty_side_not_claimable() -> None:
    analysis = decide(build({5: {"you": "r1 b5 g9", "opponent": ""}}))
    assert not analysis.claimable


def test_R12_opponent_cannot_complete_from_unseen_troops_claimable() -> None:
    # every troop but one is face up: the opponent's two open slots can never be filled
    troops = list(ALL_TROOPS)
    mine, theirs, left, rest = troops[:3], troops[3:4], troops[4:5], troops[5:]
    position = Position.build({5: {"you": mine, "opponent": theirs}}, discards={"you": rest})
    assert position.unseen_troops() == frozenset(left)
    assert decide(position).claimable


def test_R12_claimable_flags_lists_every_flag_in_order() -> None:
    position = build(
        {
            1: {"you": "r8 r9 r10", "opponent": ""},
            3: {"you": "b1 b2 b3", "opponent": "g1 g2 g3", "first_complete": "opponent"},
            5: {"you": "r3 r4 r5", "opponent": "r6 g6"},
            7: {"you": "y1 y5 y9", "opponent": "o1 o5 o9", "claimed_by": "you"},
        }
    )
    assert claimable_flags(position, Side.YOU) == (1, 5)
    assert claimable_flags(position, Side.OPPONENT) == (3,)


# -- R11: ties between complete sides ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "side", "claimable"),
    [
        ("you", Side.YOU, True),
        ("you", Side.OPPONENT, False),
        ("opponent", Side.YOU, False),
        ("opponent", Side.OPPONENT, True),
    ],
)
def test_R11_tie_both_complete_first_complete_wins(first: str, side: Side, claimable: bool) -> None:
    position = build({5: {"you": "r3 r4 r5", "opponent": "b5 b4 b3", "first_complete": first}})
    analysis = decide(position, side=side)
    assert analysis.claimable is claimable
    assert Reason.TIE_FIRST_COMPLETE in analysis.reasons


def test_R11_tie_under_fog_first_complete_wins() -> None:
    position = build({5: {"you": "r10 b9 g1 fog", "opponent": "g10 y2 y8", "first_complete": "opponent"}})
    assert not decide(position).claimable
    assert decide(position, side=Side.OPPONENT).claimable


def test_R11_tie_without_first_complete_is_undecided() -> None:
    position = build({5: {"you": "r3 r4 r5", "opponent": "b5 b4 b3"}})
    with pytest.raises(UndecidedTieError, match="R11"):
        analyse_claim(position, 5, Side.YOU)


def test_R11_one_undecided_tie_error_and_message_for_the_proof_and_the_decision() -> None:
    """The error is defined where it is raised (decide.py) and kept importable from claims."""
    assert UndecidedTieError is _decide.UndecidedTieError
    position = build({5: {"you": "r3 r4 r5", "opponent": "b5 b4 b3"}})
    messages = []
    for engine in (analyse_claim, _decide.can_claim, lambda p, n, s: _decide.decide_position(p)):
        with pytest.raises(UndecidedTieError) as raised:
            engine(position, 5, Side.YOU)
        messages.append(str(raised.value))
    assert messages == ["flag 5: both formations tie at 12; the position must say who completed first (R11)"] * 3


def test_position_error_renders_its_problems_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """PositionError is raised without loading the message catalogue; str() renders the problems."""
    from battleline_lab.core.position import PositionError
    from battleline_lab.text import messages

    calls: list[object] = []
    render = messages.render_problem

    def counted(problem: Any, *args: Any, **kwargs: Any) -> str:
        calls.append(problem)
        return render(problem, *args, **kwargs)

    monkeypatch.setattr(messages, "render_problem", counted)
    with pytest.raises(PositionError) as raised:
        Position.build({5: {"you": "r3 r3"}})
    problems = raised.value.problems
    assert calls == [] and [p.code for p in problems] == ["duplicate_card"]
    assert str(raised.value) == "; ".join(render(p) for p in problems) and len(calls) == len(problems)


# -- R13: only public information ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "kw", "claimable"),
    [
        ({}, {}, False),  # b7 b9 unseen
        ({}, {"discards": {"opponent": "b7"}}, True),  # discards count: b7 blocks 6-7-8 and 7-8-9
        ({}, {"discards": {"you": "b6 b9"}}, True),
        ({}, {"discards": {"you": "b9"}}, False),  # b6 b7 are still unseen
        ({1: {"you": "b7 g1 g2", "opponent": "y1 y2 y3", "claimed_by": "opponent"}}, {}, True),  # a claimed flag counts
        ({}, {"hand": {"you": "b7 b9"}}, False),  # your hand never counts
        ({}, {"hand": {"opponent": "b7 b9"}}, False),
    ],
)
def test_R13_public_information(extra: dict[int, dict[str, Any]], kw: dict[str, Any], claimable: bool) -> None:
    flags: dict[int, dict[str, Any]] = {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"opponent": "b10"}}
    flags.update(extra)
    assert decide(build(flags, **kw)).claimable is claimable


def test_R13_unplayed_tactics_never_prevent_a_claim() -> None:
    # a Leader in the opponent's hand could be r7 or r10, but completions use unseen troops only
    position = build(
        {5: {"you": "b3 b4 b5", "opponent": "r8 r9"}, 1: {"you": "r7"}, 2: {"opponent": "r10"}},
        hand={"opponent": "alexander companion"},
    )
    assert decide(position).claimable


def test_R13_unseen_count_step_counts_flags_and_discards() -> None:
    position = build(
        {5: {"you": "r3 r4 r5", "opponent": "b8"}, 1: {"you": "g1 fog"}}, discards={"you": "y1 scout", "opponent": "p2"}
    )
    unseen = next(s for s in decide(position).steps if s.reason is Reason.UNSEEN)
    assert (unseen.count, unseen.total, unseen.available) == (53, 5, 2)


# -- R20-R22: wildcards already on the opponent's side take their best values ----------------------------------------
@pytest.mark.parametrize(
    ("mine", "theirs", "visible", "claimable"),
    [
        ("r8 r9 r10", "alexander", "", True),  # a Leader can at best tie the top Wedge
        ("r7 r8 r9", "alexander", "", False),  # ...but beats a lower one: x8 x9 + Leader as x10
        ("r3 r4 r5", "alexander b10", "", False),
        ("r5 r6 r7", "companion", SEVENS_AND_NINES_BUT_R7, True),  # every Wedge with an 8 is blocked
        ("r5 r6 r7", "companion", "", False),
        ("r10 b10 y10", "companion", SEVENS_AND_NINES_BUT_R7 + " r7", True),  # Phalanx 30 tops a Phalanx of 8s
        ("r10 b10 y10", "companion o9", "", False),  # o8 o9 o10 or o7: a Wedge beats a Phalanx
        ("g1 g2 g3", "shield", "", False),  # Shield as x2 or x3 in 2-3-4 beats 1-2-3
        ("g1 g2 g3", "shield b4", "b2 b3 b5", True),  # Shield + b4 needs b2, b3 or b5 for a Wedge
        ("g1 g2 g3", "shield b4", "b2 b3", False),  # Shield as b3, b4, b5: 12 beats 6
        ("r10 b10 y10", "alexander companion", "", False),  # x9 + Leader x10 + Companion x8: Wedge 27
        ("r10 b10 y10", "shield companion", "", True),  # an 8 and a 1-3 never make a Wedge or Phalanx
    ],
)
def test_R20_R21_R22_wildcards_on_the_opponent_side(mine: str, theirs: str, visible: str, claimable: bool) -> None:
    position = build({5: {"you": mine, "opponent": theirs}}, discards={"you": visible})
    assert decide(position).claimable is claimable


def test_R20_your_own_wildcard_at_its_best() -> None:
    position = build({5: {"you": "alexander r9 r10", "opponent": ""}})
    analysis = decide(position)
    assert analysis.claimable  # r8 r9 r10: the top Wedge, at best tied
    first = analysis.steps[0]
    assert first.reason is Reason.YOUR_FORMATION and [t.notation for _, t in first.wild] == ["r8"]


# -- R24 Fog ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mine", "theirs", "visible", "claimable"),
    [
        ("r10 b10 g9 fog", "y10", "", False),  # y10 + o10 + p10 = 30 beats 29
        ("r10 b10 g9 fog", "y10", "o10 p10", True),  # at best y10 + 9 + 9 = 28
        ("r10 b10 g10 fog", "alexander", "", True),  # Leader counts 10: at best 30, a tie
        ("r10 b10 g9 fog", "alexander", "", False),
        ("r3 r4 r5 fog", "b1 b2", "", False),  # a Wedge is only a sum under Fog
        ("r1 r2 r3", "fog b10 b9", "", False),  # Fog on either side counts for the flag
        ("r10 b10 g10", "fog b9 o9", "y10 p10 o10", True),  # only 9s are left: 27 at best
        ("r10 b10 y10", "fog companion shield", "", True),  # 8 + 3 + 10 = 21 at best: Companion and Shield at best
    ],
)
def test_R24_fog_compares_sums(mine: str, theirs: str, visible: str, claimable: bool) -> None:
    position = build({5: {"you": mine, "opponent": theirs}}, discards={"opponent": visible})
    analysis = decide(position)
    assert analysis.claimable is claimable
    assert Reason.FOG in analysis.reasons
    assert analysis.formation is not None and analysis.formation.kind is None


# -- R25 Mud -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mine", "theirs", "visible", "claimable"),
    [
        ("r8 r9 r10 mud", "", "", False),  # three cards are not enough at a Mud flag
        ("r1 r2 r3 r4 mud", "", "", False),
        ("b7 b8 b9 b10 mud", "", "", True),  # the top 4-card Wedge: at best a tie
        ("b7 b8 b9 b10 mud", "r10", "", True),
        ("b6 b7 b8 b9 mud", "", "", False),
        ("b6 b7 b8 b9 mud", "r10", "r7 r8", True),  # r10 needs r7 r8 r9 for a Wedge 34
        ("r5 b5 g5 y5", "mud", "", False),  # Phalanx 20 loses to any 4-card Wedge
        ("r10 b10 g10 y10", "mud o1", "", False),  # o1 o2 o3 o4 beats a Phalanx
        ("r10 b10 g10 y10", "mud o1", "o2 o3", True),
        ("r10 b10 g10 y9 mud fog", "o10", "", True),  # Fog and Mud: o10 + p10 + two 9s = 38 < 39
        ("r10 b10 g9 y9 mud fog", "o10", "", False),  # o10 y10 p10 + a 10... 40 beats 38
        ("r10 b10 g10 y8 mud fog", "o10", "", False),  # o10 y10 p10 and a 9: 39 beats 38
        ("alexander companion r9 r10 mud", "", "", True),  # 7-8-9-10 red: 34, at best a tie
    ],
)
def test_R25_mud_four_cards(mine: str, theirs: str, visible: str, claimable: bool) -> None:
    position = build({5: {"you": mine, "opponent": theirs}}, discards={"opponent": visible})
    analysis = decide(position)
    assert analysis.claimable is claimable
    assert Reason.MUD in analysis.reasons


def test_R25_mud_on_the_opponent_side_makes_both_sides_four() -> None:
    position = build({5: {"you": "r1 r2 r3", "opponent": "mud b4 b5 b6"}})
    assert not decide(position).claimable  # your 3 cards are incomplete now
    assert not decide(position, side=Side.OPPONENT).claimable  # you could still make a Wedge of 4


def test_R12_side_argument_defaults_to_whose_turn() -> None:
    position = Position.build({5: {"you": "r1 r2 r3", "opponent": "b8 b9 b10"}}, turn="opponent")
    assert analyse_claim(position, 5).side is Side.OPPONENT
    assert analyse_claim(position, 5).claimable


SEARCH_REASONS = {
    Reason.KIND_RULED_OUT,
    Reason.KIND_TOO_WEAK,
    Reason.SHAPE_BLOCKED,
    Reason.SHAPE_SHORT,
    Reason.SHAPE_TOO_WEAK,
}


@pytest.mark.parametrize(
    ("flags", "expected_ruled_out"),
    [
        # R12: b10 blocks blue 8-9-10, but 7-8-9 is still open: the refutation is the counterexample alone
        ({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"opponent": "b10"}}, {Reason.SHAPE_BLOCKED}),
        # nothing is ruled out before the first (strongest) counterexample
        ({5: {"you": "r3 r4 r5"}}, set()),
    ],
    ids=["blocked-top-wedge", "empty-side"],
)
def test_R12_a_refuted_claim_is_its_counterexample(flags: dict, expected_ruled_out: set) -> None:
    analysis = analyse_claim(Position.build(flags), 5, Side.YOU)
    assert not analysis.claimable
    assert analysis.reasons[-2:] == (Reason.COUNTEREXAMPLE, Reason.CANNOT_CLAIM)
    assert not SEARCH_REASONS & set(analysis.reasons)
    assert {s.reason for s in analysis.ruled_out} == expected_ruled_out


def test_R12_a_proved_claim_keeps_every_shape_in_its_steps() -> None:
    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    analysis = analyse_claim(pos, 5, Side.YOU)
    assert analysis.claimable and analysis.ruled_out == ()
    [blocked] = [s for s in analysis.steps if s.reason is Reason.SHAPE_BLOCKED]
    assert len(blocked.shapes) == 3
