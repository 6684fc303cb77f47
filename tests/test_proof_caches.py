"""The full analysis remembers work between calls (R12, R13): what it remembers never goes stale.

``claims._candidates`` keeps, per kind and per side's cards, the shapes those cards leave open
(with their plans) and ``formations._evaluate`` keeps judged formations; neither depends on the
unseen cards.  These tests check that a warm cache gives exactly what a cold one gives, that a
position changed after an analysis is analysed afresh, and that the value types keep their
dataclass behaviour (their constructors were written by hand for speed).
"""

from __future__ import annotations

import pytest

from battleline_lab.core import claims, formations
from battleline_lab.core.claims import ClaimAnalysis, Reason, Step, analyse_claim, analyse_position
from battleline_lab.core.position import Position, Side
from tests.random_positions import STAGES, random_positions


def _cold() -> None:
    claims._candidates.cache_clear()
    formations._evaluate.cache_clear()


@pytest.mark.parametrize("stage", STAGES)
def test_R12_R13_warm_caches_give_the_proofs_cold_caches_give(stage: str) -> None:
    positions = random_positions(40, seed=3, stage=stage)
    warm = [analyse_position(p).claims for p in positions]  # each analysed after the others filled the caches
    warm_again = [analyse_position(p).claims for p in positions]
    cold = []
    for p in positions:
        _cold()
        cold.append(analyse_position(p).claims)
    assert warm == warm_again == cold


def test_R13_a_changed_position_is_analysed_afresh() -> None:
    # the same cards on both sides of flag 5; only whether b7 and b10 are face up elsewhere changes (R13)
    open_ = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
    blocked = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    first = analyse_claim(open_, 5, Side.YOU)
    second = analyse_claim(blocked, 5, Side.YOU)
    third = analyse_claim(open_, 5, Side.YOU)
    assert not first.claimable and first.counterexample
    assert second.claimable and not second.counterexample
    assert Reason.SHAPE_BLOCKED in second.reasons
    assert third == first
    _cold()
    assert analyse_claim(blocked, 5, Side.YOU) == second


def test_R12_a_card_added_to_a_side_changes_the_proof() -> None:
    before = Position.build({3: {"you": "g8 g9", "opponent": "y2 y3 y4"}})
    after = Position.build({3: {"you": "g8 g9 g10", "opponent": "y2 y3 y4"}})
    assert analyse_claim(before, 3, Side.YOU).reasons[0] is Reason.SIDE_INCOMPLETE
    assert analyse_claim(after, 3, Side.YOU).claimable
    assert not analyse_claim(before, 3, Side.YOU).claimable


def test_steps_and_analyses_keep_their_dataclass_behaviour() -> None:
    step = Step(Reason.SHAPE_SHORT, Side.YOU, 5, count=2, available=1)
    assert step == Step(Reason.SHAPE_SHORT, Side.YOU, 5, count=2, available=1)
    assert hash(step) == hash(Step(Reason.SHAPE_SHORT, Side.YOU, 5, count=2, available=1))
    assert step._replace(count=3).count == 3 and step.count == 2
    assert tuple(step)[:3] == (Reason.SHAPE_SHORT, Side.YOU, 5)
    with pytest.raises(AttributeError):
        step.count = 4  # type: ignore[misc]
    analysis = ClaimAnalysis(5, Side.YOU, True, (step,))
    assert analysis.counterexample == () and analysis.ruled_out == () and analysis.formation is None
    assert analysis._replace(claimable=False) == ClaimAnalysis(5, Side.YOU, False, (step,))
    with pytest.raises(AttributeError):
        analysis.claimable = False  # type: ignore[misc]
