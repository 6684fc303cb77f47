"""The flat proofs of ``analyse_position`` (R10-R13, R24, R25) against the walk over every shape.

``analyse_position`` says each kind of proof with one flat function: an incomplete side, two
complete sides, and a complete side against an incomplete one (a refusal by the decision's
beating completion, or the walk over every shape when none beats the claimer).  The shapes a
refusal's search rules out are worked out when first read.  These tests check, on seeded random
positions of every stage, that every analysis equals the one the walk (``claims._Prover``) builds
eagerly, field by field, whether its steps are read first or last; that pickling and copying work
the ruled-out shapes out first; and that the two shortcuts the flat proofs rest on (``formations.judge`` and
the Wedge of troops alone in ``decide.beating``) agree with the code they stand for.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from battleline_lab.core import claims, decide, formations
from battleline_lab.core.cards import ALL_TROOPS, Tactic
from battleline_lab.core.claims import ClaimAnalysis, analyse_claim, analyse_position
from battleline_lab.core.decide import Pool
from battleline_lab.core.formations import assign_wilds, evaluate, judge, side_strength, summarise
from battleline_lab.core.position import Position, Side
from tests.random_positions import STAGES, random_positions

FIELDS = list(ClaimAnalysis._fields)


def _walked(position: Position, flag: int, side: Side) -> ClaimAnalysis:
    """The proof built eagerly by the walk over every shape (no decision first, no lazy steps)."""
    state = position.flags[flag - 1]
    return claims._Prover(position, Pool.of_position(position), flag, side, claims._flag_cards(state)).run()


def _fields(analysis: ClaimAnalysis) -> list[object]:
    return [getattr(analysis, name) for name in FIELDS]


@pytest.mark.parametrize("stage", STAGES)
def test_R12_R13_flat_proofs_equal_the_walk_over_every_shape(stage: str) -> None:
    seen = set()
    for position in random_positions(60, seed=21, stage=stage):
        analysis = analyse_position(position)
        for (side, flag), claim in analysis.claims.items():
            walked = _walked(position, flag, side)
            assert _fields(claim) == _fields(walked), (stage, flag, side, position)
            assert _fields(analyse_claim(position, flag, side)) == _fields(walked)
            seen.add(claim.steps[-2].reason if len(claim.steps) > 1 else claim.steps[0].reason)
    # the positions reach every kind of flat proof: incomplete, complete sides, refusal, a proof that holds
    assert {claims.Reason.SIDE_INCOMPLETE, claims.Reason.COUNTEREXAMPLE} <= seen
    assert seen & {claims.Reason.YOU_ARE_STRONGER, claims.Reason.THEY_ARE_STRONGER}


@pytest.mark.parametrize("stage", STAGES)
def test_R12_lazy_steps_read_late_pickled_or_copied_are_the_same(stage: str) -> None:
    for position in random_positions(30, seed=22, stage=stage):
        first = analyse_position(position).claims
        # verdicts and formations read first, the steps afterwards
        verdicts = {key: (c.claimable, c.formation, c.opponent_formation, c.counterexample) for key, c in first.items()}
        steps = {key: c.steps for key, c in first.items()}
        assert all(first[key].steps is steps[key] for key in first)  # worked out once, then kept
        again = analyse_position(position).claims
        assert again == first  # equality reads every field, steps included
        read = {key: (c.claimable, c.formation, c.opponent_formation, c.counterexample) for key, c in again.items()}
        assert read == verdicts
        fresh = analyse_position(position).claims
        assert {key: pickle.loads(pickle.dumps(c)) for key, c in fresh.items()} == first
        fresh = analyse_position(position).claims
        assert {key: copy.copy(c) for key, c in fresh.items()} == first
        assert {key: copy.deepcopy(c) for key, c in analyse_position(position).claims.items()} == first


def test_R11_two_complete_sides_that_tie_with_no_first_complete_raise_for_either_side() -> None:
    position = Position.build({4: {"you": "r3 r4 r5", "opponent": "b3 b4 b5"}})
    for side in Side:
        with pytest.raises(claims.UndecidedTieError, match="flag 4: both formations tie at 12"):
            analyse_claim(position, 4, side)
    with pytest.raises(claims.UndecidedTieError):
        analyse_position(position)


_WILDS = (Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD)


def _formations(count: int) -> list[tuple[tuple[object, ...], bool, bool]]:
    rng = random.Random(23)
    out = []
    for _ in range(count):
        mud, fog = rng.random() < 0.3, rng.random() < 0.3
        size = 4 if mud else 3
        wild = rng.sample(_WILDS, rng.choice((0, 0, 0, 1, 2)))
        troops = rng.sample(ALL_TROOPS, size - len(wild))
        if rng.random() < 0.3:  # one colour, for Wedges and Battalions
            colour = troops[0].colour
            troops = rng.sample([t for t in ALL_TROOPS if t.colour is colour], size - len(wild))
        out.append((tuple(rng.sample([*troops, *wild], size)), fog, mud))
    return out


def test_R9_R10_R20_R24_judge_is_summarise_side_strength_and_evaluate() -> None:
    for cards, fog, mud in _formations(3000):
        size = 4 if mud else 3
        rank, total, formation = judge(cards, size, fog, mud)  # type: ignore[arg-type]
        assert (rank, total) == side_strength(summarise(cards), size, fog)  # type: ignore[arg-type]
        assert formation == evaluate(cards, fog=fog, mud=mud), cards  # type: ignore[arg-type]


def _wedge_loop(theirs: formations.SideSummary, size: int, kind: int, total: int, pool: Pool) -> int | None:
    """The Wedge part of ``decide.beating`` as the loop over run starts and colours (None: no Wedge)."""
    tvalues, tcolour = theirs[formations.S_VALUES], theirs[formations.S_COLOUR]
    colours = range(6) if tcolour == -1 else (tcolour,) if tcolour >= 0 else ()
    high, low = tvalues.bit_length(), (tvalues & -tvalues).bit_length() or 10
    for start in range(min(low, 11 - size), max(1, high - size + 1) - 1, -1):
        if kind == 4 and size * start + size * (size - 1) // 2 <= total:
            break
        missing = (((1 << size) - 1) << (start - 1)) & ~tvalues
        for ci in colours:
            if assign_wilds(theirs[formations.S_WILDS], missing, missing & ~pool.colours[ci]) >= 0:
                return missing << (ci * 10)
    return None


@pytest.mark.parametrize("size", [3, 4])
def test_R9_R13_R25_a_wedge_of_troops_alone_is_the_loop_s_first(size: int) -> None:
    rng = random.Random(24 + size)
    checked = 0
    for _ in range(4000):
        colour = rng.choice([t.colour for t in ALL_TROOPS])
        same = [t for t in ALL_TROOPS if t.colour is colour]
        theirs = tuple(rng.sample(same if rng.random() < 0.6 else ALL_TROOPS, rng.randrange(size)))
        seen = rng.sample([t for t in ALL_TROOPS if t not in theirs], rng.randrange(0, 50))
        pool = Pool.of_visible([*theirs, *seen])
        kind, total = rng.choice([(4, rng.randrange(6, 35)), (3, 20), (2, 15), (0, 10)])
        summary = summarise(theirs)
        if not summary[formations.S_DISTINCT] or summary[formations.S_COLOUR] == -2:
            continue
        expected = _wedge_loop(summary, size, kind, total, pool)
        got = decide.beating(summary, size, False, kind, total, pool)
        if expected is not None:
            assert got == expected, (theirs, kind, total)
            checked += 1
        elif kind == 4:
            assert got == 0
    assert checked > 500


@pytest.mark.parametrize("stage", STAGES)
def test_R13_a_refusal_names_the_troops_of_its_completion_in_hand_exactly(stage: str) -> None:
    # the flat refusal looks for them only when the completion's bits meet the hand's: never misses one
    named = 0
    rng = random.Random(24)
    for position in random_positions(60, seed=24, stage=stage):
        unseen = list(decide.troops_of(Pool.of_position(position).mask))
        hands = rng.sample(unseen, min(len(unseen), 14))  # seven troops in each hand (unseen: R13)
        position = dataclasses.replace(position, hand_you=tuple(hands[:7]), hand_opponent=tuple(hands[7:]))
        assert position.problems() == []
        for (side, flag), claim in analyse_position(position).claims.items():
            if not claim.counterexample:
                continue
            assert _fields(claim) == _fields(_walked(position, flag, side))  # the hand changes nothing else
            in_hand = tuple(t for t in claim.counterexample if t in position.hand(side))
            said = [s for s in claim.steps if s.reason is claims.Reason.HAND_NOT_EVIDENCE]
            assert [s.cards for s in said] == ([in_hand] if in_hand else [])
            named += bool(in_hand)
    assert named  # the positions reach the case


def test_lazy_fields_read_like_plain_fields() -> None:
    position = random_positions(1, seed=25, stage="late")[0]
    for claim in analyse_position(position).claims.values():
        assert not hasattr(claim, "no_such_field")
        assert claim._replace() == claim and isinstance(claim.ruled_out, tuple)
    assert list(ClaimAnalysis._fields) == FIELDS
    # a refusal's ruled-out shapes are said when read, from a field of its own (a plain value)
    assert all(isinstance(claim.search, claims.RuledOut) for claim in analyse_position(position).claims.values())
