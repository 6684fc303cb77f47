"""Hypothesis: the fast engine agrees with the naive reference (``tests/reference.py``) on random positions.

The claim search never enumerates combinations of unseen troops; the reference does nothing else.  To keep
the reference affordable, the generated positions make most troops visible (spread over the other flags
and both discard areas) so that the unseen pool is small enough for ``itertools.combinations``; the
bound is on ``C(unseen, missing) x (wildcard substitutions)``, so Mud with an empty or one-card opposing
side and wildcards are covered too (with smaller pools).

CI runs are derandomized by the ``ci`` profile in ``tests/conftest.py``; the example counts are here.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop
from battleline_lab.core.claims import Reason, UndecidedTieError, analyse_claim, analyse_position
from battleline_lab.core.decide import Pool, can_claim, claimable_flags, decide, decide_position, strength, troops_of
from battleline_lab.core.formations import evaluate
from battleline_lab.core.position import FLAGS, Position, PositionWarning, Side
from battleline_lab.text.messages import render_analysis
from tests.random_positions import STAGES, random_positions
from tests.reference import FOG_ONLY, best_strength, reference_claim, strength_of, unseen, wild_options

MORALE = (Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD)
# how many concrete formations the reference may try per example (completions x wildcard substitutions)
BUDGET = 4000

EQUIVALENCE = settings(
    max_examples=500,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Case:
    """A generated position and the flag and side under test (a plain class: hypothesis prints its repr)."""

    def __init__(self, position: Position, flag: int, side: Side) -> None:
        self.position, self.flag, self.side = position, flag, side

    def __repr__(self) -> str:  # readable in hypothesis' falsifying example
        state = self.position.flag(self.flag)
        mine, theirs = state.cards(self.side), state.cards(self.side.other)
        return (
            f"Case(flag={self.flag}, side={self.side.value}, mine={list(mine)}, theirs={list(theirs)}, "
            f"first={state.first_complete}, unseen={sorted(unseen(self.position))}, "
            f"hand={list(self.position.hand_you)}, discards={list(self.position.discards_you)}"
            f" / {list(self.position.discards_opponent)}, flags={[(s.you, s.opponent) for s in self.position.flags]})"
        )


def substitution_count(cards: list[Card]) -> int:
    return math.prod(len(wild_options(c)) for c in cards if isinstance(c, Tactic))


@st.composite
def cases(draw: st.DrawFn) -> Case:
    flag = draw(st.integers(1, 9))
    side = draw(st.sampled_from(Side))
    mud, fog = draw(st.booleans()), draw(st.booleans())
    size = 4 if mud else 3

    # a small "interesting" universe of troops (few colours, a window of values) makes strong shapes likely
    colours = draw(st.lists(st.sampled_from(list(Colour)), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 8))
    high = min(10, low + draw(st.integers(2, 5)))
    near: list[Troop] = draw(st.permutations([Troop(c, v) for c in colours for v in range(low, high + 1)]))
    far: list[Troop] = draw(st.permutations([t for t in ALL_TROOPS if t not in near]))

    my_wild = draw(st.integers(0, 3))  # up to three morale cards a side, at most one Leader each (R20)
    their_count = draw(st.integers(0, size))
    their_wild = draw(st.integers(0, min(3, len(MORALE) - my_wild, their_count)))
    morale = _one_leader_each(draw(st.permutations(MORALE)), my_wild, their_wild)
    mine_w, theirs_w = list(morale[:my_wild]), list(morale[my_wild : my_wild + their_wild])
    mine: list[Card] = [*mine_w, *_take(near, far, size - my_wild, draw(st.booleans()))]
    theirs: list[Card] = [*theirs_w, *_take(near, far, their_count - their_wild, draw(st.booleans()))]
    mine = draw(st.permutations(mine))
    theirs = draw(st.permutations(theirs))

    # the unseen pool: as large as the reference can afford
    missing = size - len(theirs)
    subs = substitution_count(theirs)
    limit = len(near) + len(far)
    if missing:
        limit = min(limit, max(n for n in range(0, 61) if n < missing or math.comb(n, missing) * subs <= BUDGET))
    pool_size = draw(st.integers(0, limit))
    from_near = draw(st.integers(0, min(pool_size, len(near))))
    pool = near[:from_near] + far[: pool_size - from_near]
    visible = near[from_near:] + far[pool_size - from_near :]

    # where the visible troops lie: other flags (3 a side), some claimed, the rest in the discards
    flags: dict[int, dict[str, Any]] = {}
    for n in FLAGS:
        if n == flag:
            continue
        spec: dict[str, Any] = {}
        for who in ("you", "opponent"):
            count = draw(st.integers(0, 3))
            spec[who], visible = visible[:count], visible[count:]
        full = [who for who in ("you", "opponent") if len(spec[who]) == 3]
        if len(full) == 2:
            spec["first_complete"] = draw(st.sampled_from(full))
        if full and draw(st.integers(0, 3)) == 0:
            spec["claimed_by"] = full[0]
        flags[n] = spec
    split = draw(st.integers(0, len(visible)))
    discards = {"you": visible[:split], "opponent": visible[split:]}
    hand = {"you": pool[: draw(st.integers(0, min(3, len(pool))))]}

    # environment cards on either side of the flag under test; first_complete where both sides are complete
    env: dict[Side, list[Card]] = {Side.YOU: [], Side.OPPONENT: []}
    if mud:
        env[draw(st.sampled_from(Side))].append(Tactic.MUD)
    if fog:
        env[draw(st.sampled_from(Side))].append(Tactic.FOG)
    cards = {side: mine + env[side], side.other: theirs + env[side.other]}
    spec = {"you": cards[Side.YOU], "opponent": cards[Side.OPPONENT]}
    if len(theirs) == size:
        spec["first_complete"] = draw(st.sampled_from(["you", "opponent"]))
    if draw(st.integers(0, 15)) == 0:
        complete = [s.value for s in Side if len(cards[s]) - len(env[s]) == size]
        if complete:
            spec["claimed_by"] = complete[0]
    flags[flag] = spec
    with warnings.catch_warnings():  # tactics counts far apart (R18) are the point here, not a mistake
        warnings.simplefilter("ignore", PositionWarning)
        return Case(Position.build(flags, discards=discards, hand=hand), flag, side)


def _one_leader_each(morale: list[Tactic], mine: int, theirs: int) -> list[Tactic]:
    """The morale cards reordered so that neither side's share (the first ``mine``, the next ``theirs``)
    holds both Leaders (R20): the second Leader of a share changes places with a card outside it."""
    order = list(morale)
    for low, high in ((0, mine), (mine, mine + theirs)):
        leaders = [i for i in range(low, high) if order[i].is_leader]
        if len(leaders) == 2:
            j = next(i for i in range(len(order)) if not low <= i < high and not order[i].is_leader)
            order[leaders[1]], order[j] = order[j], order[leaders[1]]
    return order


def _take(near: list[Troop], far: list[Troop], count: int, prefer_near: bool) -> list[Troop]:
    """Remove and return ``count`` troops, from ``near`` first if preferred (else from ``far``)."""
    first, second = (near, far) if prefer_near else (far, near)
    out = first[:count]
    del first[:count]
    rest = count - len(out)
    out += second[:rest]
    del second[:rest]
    return out


def _check_where(position: Position, step_where: Any) -> None:
    for card, loc in step_where:
        if loc.area == "flag":
            assert card in position.flag(loc.flag).cards(loc.side), (card, loc)
        else:
            assert loc.area == "discard" and card in position.discards(loc.side), (card, loc)


@EQUIVALENCE
@given(cases())
def test_R12_R13_fast_claim_equals_reference(case: Case) -> None:
    position, flag, side = case.position, case.flag, case.side
    analysis = analyse_claim(position, flag, side)
    assert analysis.claimable == reference_claim(position, flag, side)
    assert can_claim(position, flag, side) is analysis.claimable  # the decision path (decide.py) agrees

    state = position.flag(flag)
    pool = set(unseen(position))
    mine, theirs = list(state.formation_cards(side)), list(state.formation_cards(side.other))
    # what was covered: see `pytest --hypothesis-show-statistics`
    event("claimable" if analysis.claimable else "counterexample" if analysis.counterexample else "not claimable")
    event(f"{'mud' if state.mud else 'no mud'}, {'fog' if state.fog else 'no fog'}, their side {len(theirs)} cards")
    event(f"wildcards on their side: {sum(isinstance(c, Tactic) for c in theirs)}")
    event(f"unseen pool {'<10' if len(pool) < 10 else '10-19' if len(pool) < 20 else '20+'}")
    # a counterexample is a set of unseen troops that really completes their side into something stronger
    if analysis.counterexample:
        assert not analysis.claimable
        assert set(analysis.counterexample) <= pool
        assert len(analysis.counterexample) == state.size - len(theirs)
        completed = theirs + list(analysis.counterexample)
        assert best_strength(completed, fog=state.fog, mud=state.mud) > best_strength(
            mine, fog=state.fog, mud=state.mud
        )
    if analysis.claimable:
        assert Reason.COUNTEREXAMPLE not in analysis.reasons
        assert analysis.reasons[-1] is Reason.CAN_CLAIM
    else:
        assert analysis.reasons[-1] is Reason.CANNOT_CLAIM
    for step in analysis.steps:
        assert (step.flag, step.side) == (flag, side)
        _check_where(position, step.where)  # every card in step.where is visible where it says
        assert not {c for c, _ in step.where} & pool
        if step.reason in (Reason.COUNTEREXAMPLE, Reason.SHAPE_TOO_WEAK):
            assert set(step.needed) <= pool  # a completion only uses unseen troops
        if step.reason is Reason.SHAPE_BLOCKED:
            assert step.where and {c for c, _ in step.where} <= set(step.needed)
    lines = render_analysis(analysis)
    assert len(lines) == len(analysis.steps) and all(line.endswith("]") for line in lines)


@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_R12_R13_decision_witness_is_a_real_completion_that_beats(case: Case) -> None:
    """A refusal of the decision path comes with unseen troops that really complete their side into a winner."""
    position, flag, side = case.position, case.flag, case.side
    state = position.flag(flag)
    mine, theirs = state.formation_cards(side), state.formation_cards(side.other)
    first = state.first_complete
    try:
        claimable, witness = decide(
            mine,
            theirs,
            Pool.of_position(position),
            fog=state.fog,
            mud=state.mud,
            first=None if first is None else first is side,
            flag=flag,
        )
    except UndecidedTieError:
        claimable, witness = False, 0
    if state.claimed_by is None:
        assert claimable is reference_claim(position, flag, side)
    if witness > 0:
        fill = troops_of(witness)
        assert set(fill) <= set(unseen(position)) and len(fill) == state.size - len(theirs)
        completed = list(theirs) + list(fill)
        assert best_strength(completed, fog=state.fog, mud=state.mud) > best_strength(
            list(mine), fog=state.fog, mud=state.mud
        )
    event("refused with a completion" if witness > 0 else "no completion needed")


@settings(max_examples=1000, deadline=None, database=None)
@given(st.sampled_from(STAGES), st.integers(0, 2**32))
def test_R11_R12_whole_positions_decision_equals_proof_and_reference(stage: str, seed: int) -> None:
    """Random legal mid-game, late-game and tactics-heavy positions: every unclaimed flag, both sides."""
    (position,) = random_positions(1, seed=seed, stage=stage)
    decided = decide_position(position)
    analysis = analyse_position(position)
    for side in Side:
        assert decided[side] == analysis.claimable(side) == claimable_flags(position, side)
        naive = tuple(n for n in FLAGS if position.flag(n).claimed_by is None and reference_claim(position, n, side))
        assert decided[side] == naive, (side, position)
    event(f"{stage}: {len(decided[Side.YOU]) + len(decided[Side.OPPONENT])} claimable")


def test_R11_decision_path_raises_on_an_undecided_tie_like_the_proof() -> None:
    position = Position.build({4: {"you": "r3 r4 r5", "opponent": "b3 b4 b5"}})
    for call in (lambda: analyse_claim(position, 4, Side.YOU), lambda: can_claim(position, 4, Side.YOU)):
        try:
            call()
        except UndecidedTieError as err:
            assert "R11" in str(err)
        else:  # pragma: no cover - a failure
            raise AssertionError("no UndecidedTieError")
    tie = Position.build({4: {"you": "r3 r4 r5", "opponent": "b3 b4 b5", "first_complete": "opponent"}})
    assert (can_claim(tie, 4, Side.YOU), can_claim(tie, 4, Side.OPPONENT)) == (False, True)
    assert decide_position(tie) == {Side.YOU: (), Side.OPPONENT: (4,)}


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_R12_analyse_position_agrees_with_single_claims(case: Case) -> None:
    position = case.position
    overall = analyse_position(position)
    for (side, n), analysis in overall.claims.items():
        assert analysis.claimable == analyse_claim(position, n, side).claimable
    assert decide_position(position) == {side: overall.claimable(side) for side in Side}
    assert all(position.flag(n).claimed_by is None for _, n in overall.claims)


@st.composite
def formations(draw: st.DrawFn) -> tuple[list[Card], bool, bool]:
    mud, fog = draw(st.booleans()), draw(st.booleans())
    size = 4 if mud else 3
    wild = draw(st.lists(st.sampled_from(MORALE), max_size=min(3, size), unique=True))
    colours = draw(st.lists(st.sampled_from(list(Colour)), min_size=1, max_size=6, unique=True))
    low = draw(st.integers(1, 10))
    values = range(low, min(10, low + draw(st.integers(0, 9))) + 1)
    universe = [Troop(c, v) for c in colours for v in values]
    count = min(size - len(wild), len(universe))
    troops = draw(st.lists(st.sampled_from(universe), min_size=count, max_size=count, unique=True))
    extra = size - len(wild) - len(troops)
    troops += draw(
        st.lists(
            st.sampled_from([t for t in ALL_TROOPS if t not in troops]), min_size=extra, max_size=extra, unique=True
        )
    )
    cards: list[Card] = draw(st.permutations([*wild, *troops]))
    return cards, fog, mud


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(formations())
def test_R9_R10_R20_R25_evaluate_equals_reference(sample: tuple[list[Card], bool, bool]) -> None:
    cards, fog, mud = sample
    formation = evaluate(cards, fog=fog, mud=mud)
    reference = best_strength(cards, fog=fog, mud=mud)
    assert (FOG_ONLY if formation.kind is None else int(formation.kind), formation.total) == reference
    assert strength(cards, fog=fog, mud=mud) == reference  # the decision path's own reckoning (decide.py)
    # what each wildcard became is legal for it and really gives that strength
    assert [c for c, _ in formation.wild] == [c for c in cards if isinstance(c, Tactic)]
    for card, troop in formation.wild:
        assert troop in wild_options(card)
    assert strength_of(formation.resolved, fog) == reference
