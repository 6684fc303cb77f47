"""Every claim proof of the puzzle library is short (at most 8 steps) and drops no reason (R12, R13).

Grouped steps say several shapes at once (every blue Wedge through b8 needs b7 or b10); this test
checks that no shape the opponent could still aim for is left out of the proof: each one is ruled out
by a step that names it, by a step about its whole kind (their cards fit no such kind, a lower kind,
or the best sum the kind can still reach), and every face-up card a grouped step relies on is named
in its sentence, in both languages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from battleline_lab.core.claims import ClaimAnalysis, Reason, analyse_claim, state_unseen_once
from battleline_lab.core.formations import FormationKind, Shape, Strength, plan_shape, shapes
from battleline_lab.core.position import Position
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.text.messages import LANGUAGES, card_short, render_analysis
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "puzzles").rglob("*.yaml"))
MAX_STEPS = 8
FIXED = (FormationKind.WEDGE, FormationKind.SKIRMISH, FormationKind.PHALANX)
SHAPE_REASONS = (Reason.SHAPE_BLOCKED, Reason.SHAPE_SHORT, Reason.SHAPE_TOO_WEAK, Reason.AT_BEST_TIE)


def _proofs(path: Path) -> list[tuple[Position, ClaimAnalysis]]:
    puzzle = load_puzzle(path)
    question, position = puzzle.question, puzzle.position
    if isinstance(question, ClaimQuestion):
        return [(position, analyse_claim(position, question.flag, position.turn))]
    if isinstance(question, ClaimableQuestion):
        return [(position, a) for a in state_unseen_once(question.explain(position).values())]
    return []


@functools.cache
def library_proofs() -> list[tuple[str, Position, ClaimAnalysis]]:
    """Every claim proof of the library, named ``theme/puzzle:flag`` (built when first run, not collected)."""
    return [(f"{p.parent.name}/{p.stem}:{a.flag}", pos, a) for p in LIBRARY for pos, a in _proofs(p)]


def test_the_library_has_claim_proofs() -> None:
    assert len(library_proofs()) > 100


def _each_proof(check: Callable[[Position, ClaimAnalysis], None]) -> None:
    """``check`` every proof of the library in one pass; the failure names each proof that fails."""
    cases = ((name, (position, analysis)) for name, position, analysis in library_proofs())
    check_every(cases, lambda case: check(*case))


def test_R12_every_library_proof_has_at_most_8_steps_in_both_languages() -> None:
    _each_proof(_at_most_8_steps_in_both_languages)


def test_R13_a_short_proof_still_rules_out_every_shape() -> None:
    _each_proof(_rules_out_every_shape)


def test_R13_a_grouped_step_names_every_card_it_relies_on() -> None:
    _each_proof(_names_every_card_it_relies_on)


def _at_most_8_steps_in_both_languages(position: Position, analysis: ClaimAnalysis) -> None:
    for lang in LANGUAGES:
        lines = render_analysis(analysis, lang)
        assert len(lines) <= MAX_STEPS, "\n".join(lines)


def _rules_out_every_shape(position: Position, analysis: ClaimAnalysis) -> None:
    if not analysis.claimable or analysis.formation is None or Reason.THEY_NEED not in analysis.reasons:
        return  # refuted by a counterexample, or decided by two complete sides: nothing searched
    state = position.flag(analysis.flag)
    size = state.size
    theirs = state.formation_cards(analysis.side.other)
    target = analysis.formation.strength
    named: set[Shape] = set()
    whole_kinds: set[FormationKind | None] = set()
    for step in analysis.steps:
        if step.reason in SHAPE_REASONS and step.shape is not None:
            named.update(step.shapes or (step.shape,))
        if step.reason in (Reason.KIND_RULED_OUT, Reason.LOWER_KINDS):
            whole_kinds.update(step.kinds)
        if step.reason in (Reason.KIND_TOO_WEAK, Reason.AT_BEST_TIE) and step.kind in FIXED:
            whole_kinds.add(step.kind)  # a bound on the sums of the kind: every weaker shape is covered
    kinds: tuple[FormationKind | None, ...] = (None,) if state.fog else tuple(FormationKind)
    for kind in kinds:
        for shape in shapes(kind, size):
            plans = plan_shape(shape, theirs, size)
            if not plans:
                continue  # their cards rule it out by themselves
            if kind in whole_kinds and not (kind in FIXED and Strength(kind, plans[0].base) > target):
                continue
            if kind is not None and target.kind is not None and kind < target.kind:
                assert kind in whole_kinds, f"{kind} is not said to be weaker"
                continue
            assert shape in named, f"no step rules out {shape}:\n" + analysis.explain()


def _names_every_card_it_relies_on(position: Position, analysis: ClaimAnalysis) -> None:
    for lang in LANGUAGES:
        for step, line in zip(analysis.steps, render_analysis(analysis, lang)):
            if len(step.shapes) > 1:
                for card, _ in step.where:
                    assert card_short(card, lang) in line, line
