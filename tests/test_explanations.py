"""Golden files for explanation text: ``tests/golden/<name>.txt`` is the proof of a named position.

Each file holds the position (as ``Position.build`` arguments), the claim asked, and the numbered
lines of :func:`battleline_lab.text.messages.render_analysis`.  The first five positions are the worked
examples at the end of RULES.md; the others cover Fog, Mud, each wildcard, ties, the hand trap and
every kind of proof step.

After an intended change to the wording (``battleline_lab/locale/en/core.json``) or to the proof
steps, regenerate the files (with every other generated file) and review the diff::

    ./dev regen
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.core.claims import Reason, analyse_claim
from battleline_lab.core.position import Position, Side
from battleline_lab.text.messages import render_analysis
from tests.reference import reference_claim

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

SEVENS_AND_NINES = "o7 y7 g7 b7 p7 r9 o9 y9 g9 b9 p9"

GOLDEN: dict[str, tuple[dict[str, Any], int, str]] = {
    # RULES.md worked examples
    "example-1-wedge-against-two-sixes": ({"flags": {5: {"you": "r3 r4 r5", "opponent": "r6 g6"}}}, 5, "you"),
    "example-2-blue-eight-blocked": (
        {"flags": {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}},
        5,
        "you",
    ),
    "example-3-hand-trap": (
        {"flags": {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"opponent": "b10"}}, "hand": {"you": "b7 b9"}},
        5,
        "you",
    ),
    "example-4-at-best-a-tie": ({"flags": {5: {"you": "r8 r9 r10", "opponent": "y10"}}}, 5, "you"),
    "example-5-battalion-13-beats-11": ({"flags": {5: {"you": "r4 r6 r3", "opponent": "b7 b1 b3"}}}, 5, "you"),
    # Fog (R24)
    "fog-sum-blocked": (
        {"flags": {4: {"you": "r10 b10 g9 fog", "opponent": "y10"}}, "discards": {"opponent": "o10 p10"}},
        4,
        "you",
    ),
    "fog-counterexample": ({"flags": {4: {"you": "r10 b10 g9 fog", "opponent": "y10"}}}, 4, "you"),
    "fog-leader-at-best-a-tie": ({"flags": {4: {"you": "r10 b10 g10 fog", "opponent": "alexander"}}}, 4, "you"),
    # Mud (R25)
    "mud-top-wedge-at-best-a-tie": ({"flags": {7: {"you": "b7 b8 b9 b10 mud", "opponent": "r10"}}}, 7, "you"),
    "mud-three-cards-incomplete": ({"flags": {7: {"you": "r8 r9 r10", "opponent": "mud g1"}}}, 7, "you"),
    "mud-phalanx-counterexample": ({"flags": {7: {"you": "r10 b10 g10 y10", "opponent": "mud o1"}}}, 7, "you"),
    "mud-and-fog-sum-of-four": (
        {"flags": {7: {"you": "r10 b10 g10 y9 mud fog", "opponent": "o10"}}, "discards": {"opponent": "scout"}},
        7,
        "you",
    ),
    # wildcards (R20-R22)
    "leader-opposite-counterexample": ({"flags": {3: {"you": "r7 r8 r9", "opponent": "alexander"}}}, 3, "you"),
    "companion-opposite-blocked": (
        {"flags": {3: {"you": "r5 r6 r7", "opponent": "companion"}}, "discards": {"you": SEVENS_AND_NINES}},
        3,
        "you",
    ),
    "shield-opposite-blocked": (
        {"flags": {3: {"you": "g1 g2 g3", "opponent": "shield b4"}}, "discards": {"opponent": "b2 b3 b5"}},
        3,
        "you",
    ),
    "own-leader": ({"flags": {3: {"you": "alexander r9 r10", "opponent": "b1"}}}, 3, "you"),
    # ties and complete sides (R10, R11)
    "tie-you-completed-first": (
        {"flags": {6: {"you": "r3 r4 r5", "opponent": "b5 b4 b3", "first_complete": "you"}}},
        6,
        "you",
    ),
    "tie-opponent-completed-first": (
        {"flags": {6: {"you": "r3 r4 r5", "opponent": "b5 b4 b3", "first_complete": "opponent"}}},
        6,
        "you",
    ),
    "complete-and-weaker": ({"flags": {6: {"you": "r1 b5 g9", "opponent": "y2 y3 y4"}}}, 6, "you"),
    # other proof steps
    "phalanx-short": (
        {"flags": {1: {"you": "r9 b9 g9", "opponent": "y10"}}, "discards": {"you": "o10 p10 r10 b10 y8 y9"}},
        1,
        "you",
    ),
    "battalion-short": (
        {
            "flags": {1: {"you": "r2 r5 r9", "opponent": "y10 y9"}, 2: {"you": "y1 y2 y3", "opponent": "y4 y5 y6"}},
            "discards": {"you": "y7 y8 o8 o9 o10 o1 o2 o3"},
        },
        1,
        "you",
    ),
    "skirmish-short-of-threes-and-sixes": (
        {
            "flags": {1: {"you": "r1 b2 o3", "opponent": "b4 g5"}},
            "discards": {"opponent": "r6 o6 y6 g6 b6 p6 r3 y3 g3 b3 p3"},
        },
        1,
        "you",
    ),
    "battalion-too-weak-against-two-wildcards": (
        {"flags": {8: {"you": "o10 o9 o6", "opponent": "shield companion"}, 1: {"you": "alexander"}}},
        8,
        "you",
    ),
    "real-best-wedge-below-the-bound": (
        {"flags": {5: {"you": "b7 b8 b9", "opponent": "g6"}, 1: {"you": "g8 g9"}, 2: {"opponent": "g4"}}},
        5,
        "you",
    ),
    "side-incomplete": ({"flags": {2: {"you": "r3 r4", "opponent": "b8"}}}, 2, "you"),
    "flag-already-claimed": (
        {"flags": {2: {"you": "r3 r4 r5", "opponent": "b8 b9 b10", "claimed_by": "opponent"}}},
        2,
        "you",
    ),
    "opponent-claims": ({"flags": {8: {"you": "r3 r4", "opponent": "b8 b9 b10"}}}, 8, "opponent"),
}


def _position(spec: dict[str, Any]) -> Position:
    return Position.build(spec["flags"], discards=spec.get("discards"), hand=spec.get("hand"))


def golden_text(name: str) -> str:
    spec, flag, side = GOLDEN[name]
    analysis = analyse_claim(_position(spec), flag, side)
    header = [
        f"# {name}",
        f"# position: {json.dumps(spec, sort_keys=True)}",
        f"# can {side} claim flag {flag}? {'yes' if analysis.claimable else 'no'}",
    ]
    return "\n".join(header + render_analysis(analysis)) + "\n"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_explanation_matches_golden_file(name: str) -> None:
    path = GOLDEN_DIR / f"{name}.txt"
    text = golden_text(name)
    assert path.exists(), f"missing {path.name}: run ./dev regen to create it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs (./dev regen if the change is intended)"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_positions_are_legal_and_right(name: str) -> None:
    spec, flag, side = GOLDEN[name]
    position = _position(spec)
    assert position.problems() == []
    assert analyse_claim(position, flag, side).claimable == reference_claim(position, flag, Side(side))


def test_no_stray_golden_files() -> None:
    assert {p.stem for p in GOLDEN_DIR.glob("*.txt")} == set(GOLDEN)


def test_golden_set_covers_every_reason() -> None:
    seen: set[Reason] = set()
    for spec, flag, side in GOLDEN.values():
        seen.update(analyse_claim(_position(spec), flag, side).reasons)
    assert seen == set(Reason)
