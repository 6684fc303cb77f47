"""The difficulty measure: what it counts in the engine's proofs, its levels, and the docs report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab.core.position import Position
from battleline_lab.quiz.difficulty import LEVEL_THRESHOLDS, WEIGHTS, Features, claim_features, estimate, level_for
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.questions import question_from_data
from tests.every import check_every
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent


def _position(spec: dict[str, Any]) -> Position:
    return Position.build(
        spec.get("flags", {}),
        discards=spec.get("discards"),
        hand=spec.get("hand"),
        turn=spec.get("turn", "you"),
    )


# (test id, position, question, expected features (a subset), expected level or None)
CASES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], int | None]] = [
    (
        "R10_both_complete_kind_decides",
        {"flags": {5: {"you": "r3 r4 r5", "opponent": "b8 b9 g10"}}},
        {"kind": "claim", "flag": 5},
        {"kinds": 1, "shapes": 0, "needed": 0, "counterexample": False},
        1,
    ),
    (
        "R12_incomplete_side_is_easy",
        {"flags": {5: {"you": "r3 r4", "opponent": "b8"}}},
        {"kind": "claim", "flag": 5},
        {"incomplete": True, "kinds": 0},
        1,
    ),
    (
        "R13_blocked_wedges_count_shapes_and_blockers",
        {"flags": {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}},
        {"kind": "claim", "flag": 5},
        {"kinds": 1, "shapes": 3, "blockers": 2, "needed": 2, "discards": False},
        2,
    ),
    (
        "R13_cards_at_the_flag_itself_are_not_blockers",
        {"flags": {5: {"you": "g10 g9 g7", "opponent": "b6 b4"}, 2: {"you": "b5", "opponent": "r8"}}},
        {"kind": "claim", "flag": 5},
        {"kinds": 3, "shapes": 2, "blockers": 1},
        3,
    ),
    (
        "R31_a_blocker_in_the_discards",
        {
            "flags": {5: {"you": "g4 g5 g6", "opponent": "r7"}, 2: {"you": "b1", "opponent": "r8"}},
            "discards": {"you": "r6", "opponent": "deserter"},
        },
        {"kind": "claim", "flag": 5},
        {"discards": True, "shapes": 3, "blockers": 2},
        3,
    ),
    (
        "R31_discards_around_a_failed_claim_still_count",
        {
            "flags": {2: {"you": "y2 y3 y4", "opponent": "g5 g6"}, 8: {"you": "r9", "opponent": "p3"}},
            "discards": {"you": "g4", "opponent": "deserter"},
        },
        {"kind": "claim", "flag": 2},
        {"counterexample": True, "discards": True, "shapes": 1, "blockers": 1},
        2,
    ),
    (
        "R13_hand_trap",
        {
            "flags": {5: {"you": "o3 o4 o5", "opponent": "p9"}, 2: {"you": "g7", "opponent": "b2"}},
            "hand": {"you": "p8"},
        },
        {"kind": "claim", "flag": 5},
        {"hand_trap": True, "counterexample": True},
        2,
    ),
    (
        "R13_a_hand_the_proof_never_needs_is_no_trap",
        {
            "flags": {5: {"you": "o3 o4 o5", "opponent": "p9"}, 2: {"you": "g7", "opponent": "b2"}},
            "hand": {"you": "r1"},
        },
        {"kind": "claim", "flag": 5},
        {"hand_trap": False, "counterexample": True},
        1,
    ),
    (
        "R11_at_best_a_tie",
        {"flags": {4: {"you": "r5 r6 r7", "opponent": "b5 b6"}}},
        {"kind": "claim", "flag": 4},
        {"tie": True, "kinds": 1},
        2,
    ),
    (
        "R11_tie_decided_by_first_complete",
        {"flags": {4: {"you": "b9 g9 r9", "opponent": "o9 y9 p9", "first_complete": "you"}}},
        {"kind": "claim", "flag": 4},
        {"tie": True},
        2,
    ),
    (
        "R24_fog",
        {"flags": {3: {"you": "r10 b9 g1 fog", "opponent": "p3 p4 p5"}}},
        {"kind": "claim", "flag": 3},
        {"fog": True, "mud": False},
        2,
    ),
    (
        "R25_mud_and_an_incomplete_side",
        {"flags": {5: {"you": "r3 r4 r5", "opponent": "b1 b2 b6 mud"}}},
        {"kind": "claim", "flag": 5},
        {"mud": True, "incomplete": True},
        2,
    ),
    (
        "R20_your_wildcard",
        {"flags": {2: {"you": "companion b9 b10", "opponent": "r9 r10"}}},
        {"kind": "claim", "flag": 2},
        {"wild_yours": True, "wild_theirs": False, "tie": True},
        3,
    ),
    (
        "R13_R20_their_wildcard",
        {"flags": {5: {"you": "r4 r5 r6", "opponent": "alexander"}}},
        {"kind": "claim", "flag": 5},
        {"wild_theirs": True, "wild_yours": False, "counterexample": True, "needed": 2},
        2,
    ),
    (
        "R10_compare_kind_beats_a_bigger_sum",
        {},
        {"kind": "compare", "a": ["r3", "r4", "r5"], "b": ["g9", "b9", "y9"]},
        {"kinds": 2, "kind_beats_sum": True, "sum_decides": False},
        2,
    ),
    (
        "R10_compare_sum_decides",
        {},
        {"kind": "compare", "a": ["r3", "g3", "b3"], "b": ["y4", "o4", "p4"]},
        {"kinds": 1, "sum_decides": True, "kind_beats_sum": False},
        1,
    ),
    (
        "R11_compare_tie",
        {},
        {"kind": "compare", "a": ["r5", "r6", "r7"], "b": ["g5", "g6", "g7"], "first_complete": "b"},
        {"tie": True},
        2,
    ),
    (
        "R24_compare_in_fog",
        {},
        {"kind": "compare", "a": ["y1", "y2", "y3"], "b": ["o4", "b2", "r1"], "environment": ["fog"]},
        {"fog": True, "sum_decides": True},
        2,
    ),
    (
        "R9_formation_plain",
        {},
        {"kind": "formation", "cards": ["b7", "b9", "b8"]},
        {"kinds": 1, "wildcards": 0},
        1,
    ),
    (
        "R20_R21_R25_formation_with_wildcards_in_mud",
        {},
        {"kind": "formation", "cards": ["alexander", "companion", "g9", "g10"], "environment": ["mud"]},
        {"wildcards": 2, "mud": True},
        3,
    ),
    (
        "R12_claimable_counts_flags_with_your_cards",
        {
            "flags": {
                1: {"you": "r8 r9 r10", "opponent": "g8 g9"},
                3: {"you": "o1 y2 p3", "opponent": "b7 b8 b9"},
                5: {"you": "y4 y5", "opponent": "g4"},
                6: {"opponent": "g6"},
            }
        },
        {"kind": "claimable"},
        {"flags": 3, "incomplete": True, "tie": True},
        None,
    ),
]


@pytest.mark.parametrize(
    ("position", "question", "expected", "level"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_features_and_level(
    position: dict[str, Any], question: dict[str, Any], expected: dict[str, Any], level: int | None
) -> None:
    pos = _position(position)
    assert pos.problems() == []
    d = estimate(pos, question_from_data(question))
    got = {name: getattr(d.features, name) for name in expected}
    assert got == expected
    assert d.level == level_for(d.score)
    if level is not None:
        assert d.level == level


def test_R13_hand_trap_adds_exactly_its_weight() -> None:
    spec = {"flags": {5: {"you": "o3 o4 o5", "opponent": "p9"}, 2: {"you": "g7", "opponent": "b2"}}}
    q = question_from_data({"kind": "claim", "flag": 5})
    plain = estimate(_position(spec), q)
    trapped = estimate(_position({**spec, "hand": {"you": "p8 r1"}}), q)
    assert trapped.score == pytest.approx(plain.score + WEIGHTS["hand_trap"])
    assert replace(trapped.features, hand_trap=False) == plain.features


def test_more_evidence_never_lowers_the_score() -> None:
    """Blocking the open end of a Wedge (R13) turns a counterexample into a longer proof."""
    q = question_from_data({"kind": "claim", "flag": 6})
    open_end = _position({"flags": {6: {"you": "b3 b4 b5", "opponent": "y6 y7"}, 2: {"you": "g9", "opponent": "y5"}}})
    closed = _position(
        {"flags": {6: {"you": "b3 b4 b5", "opponent": "y6 y7"}, 2: {"you": "g9", "opponent": "y5"}, 3: {"you": "y8"}}}
    )
    assert estimate(closed, q).score > estimate(open_end, q).score


def test_claim_features_of_the_worked_example() -> None:
    """RULES.md example 2: blue 8 against red 3-4-5, blue 7 and 10 elsewhere."""
    from battleline_lab.core.claims import analyse_claim

    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    assert claim_features(pos, analyse_claim(pos, 5)) == Features(kinds=1, shapes=3, blockers=2, needed=2)


@pytest.mark.parametrize(
    ("score", "level"),
    [(1.0, 1), (1.59, 1), (1.6, 2), (2.49, 2), (2.5, 3), (3.24, 3), (3.25, 4), (4.24, 4), (4.25, 5), (12.0, 5)],
)
def test_level_thresholds(score: float, level: int) -> None:
    assert level_for(score) == level


@given(st.floats(min_value=0, max_value=50), st.floats(min_value=0, max_value=50))
def test_level_for_is_monotone_and_in_range(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert 1 <= level_for(lo) <= level_for(hi) <= 5


def test_thresholds_increase() -> None:
    assert list(LEVEL_THRESHOLDS) == sorted(set(LEVEL_THRESHOLDS)) and len(LEVEL_THRESHOLDS) == 4


def test_every_library_puzzle_has_a_level() -> None:
    check_every(((p.stem, p) for p in sorted(iter_puzzle_files([ROOT / "puzzles"]))), _has_a_level)


def _has_a_level(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.question is not None
    d = estimate(puzzle.position, puzzle.question)
    assert 1 <= d.level <= 5 and d.level == level_for(d.score)
    assert estimate(puzzle.position, puzzle.question) == d  # deterministic


def _report_module() -> ModuleType:
    return load_script(ROOT / "tools" / "difficulty_report.py", "difficulty_report")


def test_docs_report_is_current() -> None:
    """docs/puzzles.md shows where authors disagree with the measure; regenerate it when puzzles change."""
    report = _report_module()
    doc = (ROOT / "docs" / "puzzles.md").read_text(encoding="utf-8")
    assert doc == report.updated(doc, report.report()), "docs/puzzles.md is out of date: run ./dev regen"


@st.composite
def claim_positions(draw: st.DrawFn) -> tuple[Position, Position]:
    """A position with your complete side at flag 5, some cards elsewhere; and the same with a hand."""
    from battleline_lab.core.cards import ALL_TROOPS

    troops = list(draw(st.permutations(ALL_TROOPS)))
    mud = draw(st.booleans())
    fog = draw(st.booleans())
    size = 4 if mud else 3
    mine = troops[:size]
    theirs = troops[size : size + draw(st.integers(0, size - 1))]
    rest = troops[size + len(theirs) :]
    elsewhere = rest[: draw(st.integers(0, 12))]
    rest = rest[len(elsewhere) :]
    discards = rest[: draw(st.integers(0, 3))]
    hand = rest[len(discards) : len(discards) + draw(st.integers(1, 7))]
    env = (["mud"] if mud else []) + (["fog"] if fog else [])
    flags: dict[int, dict[str, Any]] = {
        5: {"you": [t.notation for t in mine] + env, "opponent": [t.notation for t in theirs]}
    }
    for i, t in enumerate(elsewhere):
        flags.setdefault(1 + i % 4, {"you": [], "opponent": []})["you" if i % 2 else "opponent"].append(t.notation)
    # your environment cards count as tactics played (R18): the opponent discarded as many guile cards
    guile = ["scout", "redeploy"][: len(env)]
    spec = {"flags": flags, "discards": {"you": [t.notation for t in discards], "opponent": guile}}
    with_hand = {**spec, "hand": {"you": [t.notation for t in hand]}}
    return _position(spec), _position(with_hand)


@given(claim_positions())
def test_R13_a_hand_changes_the_measure_only_through_the_hand_trap(positions: tuple[Position, Position]) -> None:
    plain, with_hand = positions
    assert plain.problems() == [] and with_hand.problems() == []
    q = question_from_data({"kind": "claim", "flag": 5})
    a, b = estimate(plain, q), estimate(with_hand, q)
    assert replace(b.features, hand_trap=False) == a.features
    assert b.score == pytest.approx(a.score + (WEIGHTS["hand_trap"] if b.features.hand_trap else 0.0))
    assert 1 <= a.level <= b.level <= 5
    if b.features.hand_trap:
        assert b.features.counterexample or b.features.shapes > 0
