"""Outs and odds (battleline_lab.core.odds) against brute force, the tie rule and the claim proofs (R9-R13, R24, R25).

The brute force below deals every ordered pair of disjoint fills of both sides' open slots from the
unseen troops and judges each with :func:`evaluate`; small pools (most troops discarded) keep it
fast.  The claim link: a flag a side can claim (R12) has odds 1 for it; a flag with a counterexample
never has.
"""

from __future__ import annotations

import itertools
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab import Position
from battleline_lab.core.cards import ALL_TROOPS, Card, Tactic, Troop, card_sort_key, parse_card
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.formations import FormationKind, evaluate
from battleline_lab.core.odds import SAMPLED_ERROR, SAMPLES, flag_odds, outs, position_odds
from battleline_lab.core.position import Side

sys.path.insert(0, str(Path(__file__).parent))
from random_positions import random_positions  # noqa: E402

FLAG = 1


def _key(cards: tuple[Card, ...], fog: bool, mud: bool) -> tuple[int, int]:
    return evaluate(tuple(sorted(cards, key=card_sort_key)), fog=fog, mud=mud).strength.key


def brute_odds(position: Position, flag: int) -> tuple[Fraction, Fraction]:
    """(chance you win, chance of a tie) by dealing every fill (the tie rule of the odds module)."""
    state = position.flag(flag)
    you, opp = state.formation_cards(Side.YOU), state.formation_cards(Side.OPPONENT)
    ka, kb = state.size - len(you), state.size - len(opp)
    pool = sorted(position.unseen_troops())
    wins = ties = total = 0
    tie_you = Fraction(1) if ka == 0 else Fraction(0) if kb == 0 else Fraction(1, 2)  # R11: the complete side
    if ka == 0 and kb == 0:
        tie_you = Fraction(1) if state.completed_first is Side.YOU else Fraction(0)
    for fill_a in itertools.combinations(pool, ka):
        rest = [t for t in pool if t not in fill_a]
        ra = _key(you + fill_a, state.fog, state.mud)
        for fill_b in itertools.combinations(rest, kb):
            rb = _key(opp + fill_b, state.fog, state.mud)
            total += 1
            wins += ra > rb
            ties += ra == rb
    tie = Fraction(ties, total)
    return Fraction(wins, total) + tie * tie_you, tie


def small(flag_spec: dict[str, str], keep: int, seed: int = 0) -> Position:
    """Flag 1 as given; all but ``keep`` of the other troops discarded (a small pool)."""
    on_flag = {
        c for side in ("you", "opponent") for c in Position.build({FLAG: flag_spec}).flag(FLAG).cards(Side(side))
    }
    rest = [t for t in ALL_TROOPS if t not in on_flag]
    random.Random(seed).shuffle(rest)
    return Position.build({FLAG: flag_spec}, discards={"you": rest[keep:]})


CASES = [
    # (id, flag 1, unseen troops kept, rules)
    ("empty-vs-one", {"you": "", "opponent": "b8"}, 10, "R9 R10"),
    ("one-vs-one", {"you": "r3", "opponent": "r4"}, 11, "R9"),
    ("two-vs-empty", {"you": "g5 g6"}, 10, "R9"),
    ("complete-vs-one", {"you": "r3 r4 r5", "opponent": "b8"}, 12, "R11 R12"),
    ("complete-vs-two", {"you": "y2 o2 p2", "opponent": "b9 b10"}, 14, "R11"),
    ("fog", {"you": "fog r3", "opponent": "b8 b9"}, 11, "R24"),
    ("mud", {"you": "mud r3 r4", "opponent": "b8 b9"}, 9, "R25"),
    ("mud-fog", {"you": "mud fog r3", "opponent": "b8"}, 8, "R24 R25"),
    ("leader", {"you": "alexander r5", "opponent": "b7"}, 10, "R20"),
    ("companion-shield", {"you": "companion", "opponent": "shield g2"}, 8, "R21 R22"),
    ("mixed-colours", {"you": "r3 b4", "opponent": "g9"}, 12, "R9"),
]


@pytest.mark.parametrize(("name", "spec", "keep", "rules"), CASES, ids=[c[0] for c in CASES])
def test_odds_agree_with_brute_force(name: str, spec: dict[str, str], keep: int, rules: str) -> None:
    for seed in range(3):
        pos = small(spec, keep, seed)
        odds = flag_odds(pos, FLAG)
        want, tie = brute_odds(pos, FLAG)
        assert odds.exact, name
        assert odds.you == want, (name, seed)
        assert odds.you + odds.opponent == 1
        assert odds.tie == tie


def test_a_tie_goes_to_the_complete_side_else_half() -> None:
    # r1 r2 r3 (Wedge 6) against g1 g2 + one of {g3} only: a tie at Wedge 6 whatever is drawn
    rest = [t for t in ALL_TROOPS if t.notation not in {"r1", "r2", "r3", "g1", "g2", "g3"}]
    pos = Position.build({FLAG: {"you": "r1 r2 r3", "opponent": "g1 g2"}}, discards={"you": rest})
    assert flag_odds(pos, FLAG).you == 1  # R11: you completed first
    pos = Position.build({FLAG: {"you": "r1 r2", "opponent": "g1 g2"}}, discards={"you": rest + ["g3"]})
    # pool {r3} only: you can complete, the opponent cannot -> you
    assert flag_odds(pos, FLAG).you == 1
    both_open = [t for t in ALL_TROOPS if t.notation not in {"r1", "r2", "g1", "g2", "r3", "g3"}]
    pos = Position.build({FLAG: {"you": "r1 r2", "opponent": "g1 g2"}}, discards={"you": both_open})
    odds = flag_odds(pos, FLAG)  # r3 / g3 each way round: always Wedge 6 against Wedge 6, half each
    assert (odds.you, odds.tie) == (Fraction(1, 2), 1)


def test_complete_flags_and_claimed_flags() -> None:
    pos = Position.build(
        {
            1: {"you": "r1 r2 r3", "opponent": "g1 g2 g3", "first_complete": "opponent"},
            2: {"you": "b8 b9 b10", "opponent": "y1 y2 y4"},
            3: {"you": "o5", "opponent": "p7 p8 p9", "claimed_by": "opponent"},
        }
    )
    assert flag_odds(pos, 1).you == 0  # R11: the tie goes to who completed first
    assert flag_odds(pos, 2).you == 1
    assert flag_odds(pos, 3).opponent == 1  # R15
    assert outs(pos, 3, "you").claimed


def test_empty_flags_are_even_and_all_nine_come_out() -> None:
    odds = position_odds(Position.build({2: {"you": "r5"}}))
    assert set(odds) == set(range(1, 10))
    assert odds[1].you == Fraction(1, 2) and odds[1].exact


def test_mud_with_many_open_slots_is_sampled_within_the_stated_error() -> None:
    assert SAMPLES >= (1.96 / SAMPLED_ERROR) ** 2 / 4  # the worst case p = 1/2 (R25 flags are the big ones)
    pos = Position.build({FLAG: {"you": "mud", "opponent": "y4"}})
    odds = flag_odds(pos, FLAG)
    assert not odds.exact and odds.error == SAMPLED_ERROR
    assert 0.5 < float(odds.you) < 0.6  # four free cards against a fixed y4


def test_sampling_agrees_with_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    import battleline_lab.core.odds as odds_module

    monkeypatch.setattr(odds_module, "EXACT_BUDGET", 0)
    pos = small({"you": "r3", "opponent": "b8 b9"}, 10)
    odds = flag_odds(pos, FLAG)
    want, _ = brute_odds(pos, FLAG)
    assert not odds.exact
    assert abs(float(odds.you) - float(want)) <= 2 * SAMPLED_ERROR  # 95 % within one error; 2 for a fixed seed


# -- outs ---------------------------------------------------------------------------------------


def brute_outs(position: Position, flag: int, side: Side) -> dict[str, tuple[int, int, set[str]]]:
    state = position.flag(flag)
    mine = state.formation_cards(side)
    k = state.size - len(mine)
    out: dict[str, tuple[int, int, set[str]]] = {}
    for fill in itertools.combinations(sorted(position.unseen_troops()), k):
        f = evaluate(tuple(sorted(mine + fill, key=card_sort_key)), fog=state.fog, mud=state.mud)
        name = "sum" if f.kind is None else f.kind.key
        best, ways, troops = out.get(name, (0, 0, set()))
        out[name] = (max(best, f.total), ways + 1, troops | {t.notation for t in fill})
    return out


@pytest.mark.parametrize(("name", "spec", "keep", "rules"), CASES, ids=[c[0] for c in CASES])
def test_outs_agree_with_brute_force(name: str, spec: dict[str, str], keep: int, rules: str) -> None:
    pos = small(spec, keep)
    for side in Side:
        got = {k.kind_key: (k.best, k.ways, {t.notation for t in k.troops}) for k in outs(pos, FLAG, side).kinds}
        want = brute_outs(pos, FLAG, side)
        if pos.flag(FLAG).is_complete(side):
            assert len(got) == 1 and next(iter(got.values()))[1:] == (1, set())
        else:
            assert got == want, (name, side)


def test_outs_example_blue_eight_and_nine() -> None:
    pos = Position.build({FLAG: {"you": "b8 b9", "opponent": "r10 g10 y10"}})
    kinds = outs(pos, FLAG, "you").kinds
    assert kinds[0].kind is FormationKind.WEDGE
    assert [t.notation for t in kinds[0].troops] == ["b7", "b10"] and kinds[0].best == 27  # R9
    assert kinds[0].as_dict() == {"best": 27, "ways": 2, "count": 2, "troops": ["b7", "b10"]}


# -- hypothesis: random small flags against brute force ---------------------------------------------

_FORMATION_TACTICS = [Tactic.ALEXANDER, Tactic.COMPANION, Tactic.SHIELD]


@st.composite
def small_flags(draw: st.DrawFn) -> Position:
    troops = draw(st.permutations(ALL_TROOPS))
    env = draw(st.sampled_from(["", "fog", "mud"]))
    size = 4 if env == "mud" else 3
    n_you = draw(st.integers(0, size))
    n_opp = draw(st.integers(0, size))
    you: list[Card | str] = list(troops[:n_you])
    opp: list[Card | str] = list(troops[n_you : n_you + n_opp])
    if draw(st.booleans()) and you and len(you) < size:
        you[0] = draw(st.sampled_from(_FORMATION_TACTICS))
    if env:
        you.append(env)
    keep = draw(st.integers(4, 8))
    rest = [t for t in troops[n_you + n_opp :]]
    spec: dict[str, object] = {"you": you, "opponent": opp}
    if n_you == size and n_opp == size:
        spec["first_complete"] = draw(st.sampled_from(["you", "opponent"]))
    discarded = [t for t in rest[keep:] if isinstance(t, Troop)]
    return Position.build({FLAG: spec}, discards={"you": discarded})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_flags())
def test_hypothesis_odds_equal_brute_force(pos: Position) -> None:
    state = pos.flag(FLAG)
    ka = state.size - len(state.formation_cards(Side.YOU))
    kb = state.size - len(state.formation_cards(Side.OPPONENT))
    if ka + kb > len(pos.unseen_troops()):
        return  # both sides cannot be filled from this pool at once (a documented special case)
    odds = flag_odds(pos, FLAG)
    assert odds.exact
    assert odds.you == brute_odds(pos, FLAG)[0]


# -- claims: a proof means odds 1, a counterexample means odds below 1 (R12) ----------------------


@pytest.mark.parametrize("stage", ["mid", "late", "tactics"])
def test_claimable_means_certain_and_counterexample_means_not(stage: str) -> None:
    checked = 0
    for pos in random_positions(12, seed=11, stage=stage):
        for flag in range(1, 10):
            state = pos.flag(flag)
            if (
                state.claimed_by is not None
                or state.mud
                and not (state.is_complete(Side.YOU) or state.is_complete(Side.OPPONENT))
            ):
                continue
            odds = flag_odds(pos, flag)
            for side in Side:
                analysis = analyse_claim(pos, flag, side)
                if analysis.claimable:
                    assert odds.of(side) == 1, (stage, flag, side)
                    checked += 1
                elif analysis.counterexample:
                    assert odds.of(side) < 1, (stage, flag, side)
                    checked += 1
    assert checked > 0


# -- outs are counted once for what they read ---------------------------------------------------

_BASE = {2: {"opponent": "r3 r4"}, 5: {"you": "b1"}}


def _fresh_outs(position: Position, flag: int, side: Side) -> object:
    """:func:`outs` counted anew, past its cache (the module's own counting)."""
    from battleline_lab.core import odds

    state = position.flag(flag)
    mine = odds._Side(state.formation_cards(side), state.size, state.fog, state.mud)
    return odds._outs(flag, side, mine, sorted(position.unseen_troops()))


def test_R13_outs_are_counted_once_for_one_card_played_on_any_other_flag() -> None:
    """A play puzzle judges each card of the hand on every flag: their side's outs at flag 2 depend on
    which card left the unseen ones, not on where it went, so they are one value, counted once."""
    from battleline_lab.quiz.questions.odds import played

    before = Position.build(_BASE, hand={"you": "g7 y2"})
    there, elsewhere = (played(before, parse_card("g7"), n) for n in (5, 8))
    assert there != elsewhere
    assert outs(there, 2, Side.OPPONENT) is outs(elsewhere, 2, Side.OPPONENT)
    assert outs(there, 2, Side.OPPONENT) == _fresh_outs(there, 2, Side.OPPONENT)


@pytest.mark.parametrize(
    ("flags", "extra"),
    [
        pytest.param({**_BASE, 2: {"opponent": "r3 r4 fog"}}, {}, id="R24-fog-at-the-flag"),
        pytest.param({**_BASE, 2: {"opponent": "r3 r4 mud"}}, {}, id="R25-mud-at-the-flag"),
        pytest.param({**_BASE, 2: {"opponent": "r3 r4 alexander"}}, {}, id="R20-a-wildcard-on-their-side"),
        pytest.param(_BASE, {"discards": {"you": "r5"}}, id="R13-an-out-discarded"),
        pytest.param({**_BASE, 7: {"you": "r2"}}, {}, id="R13-an-out-seen-on-another-flag"),
        pytest.param({2: {"opponent": "r3 r4"}, 5: {"you": "b1 r2"}}, {}, id="R13-an-out-on-your-side-elsewhere"),
    ],
)
def test_R13_outs_change_with_everything_they_read(flags: dict[int, dict[str, str]], extra: dict[str, object]) -> None:
    """The cache is keyed by all that counts: each change gives the outs counted anew, not the cached ones."""
    base = Position.build(_BASE)
    changed = Position.build(flags, **extra)  # type: ignore[arg-type]
    assert outs(base, 2, Side.OPPONENT) == _fresh_outs(base, 2, Side.OPPONENT)
    assert outs(changed, 2, Side.OPPONENT) == _fresh_outs(changed, 2, Side.OPPONENT)
    assert outs(changed, 2, Side.OPPONENT) != outs(base, 2, Side.OPPONENT)
