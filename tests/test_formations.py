"""Formations (R9-R11, R20-R25): table-driven, each row checked against the reference too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS, Colour, Tactic, Troop, format_cards, parse_cards
from battleline_lab.core.formations import (
    WILD_BEST,
    WILD_MASK,
    Formation,
    FormationError,
    FormationKind,
    ShapeFilter,
    Strength,
    evaluate,
    plan_shape,
    shapes,
    strength,
    troops_strength,
)
from tests.reference import FOG_ONLY, best_strength, classify, strength_of, wild_options

W, P, B = FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION
S, H = FormationKind.SKIRMISH, FormationKind.HOST


def judged(cards: str, fog: bool = False, mud: bool = False) -> Formation:
    """The engine's verdict, after checking it agrees with the reference and that the wildcards are honest."""
    parsed = parse_cards(cards)
    formation = evaluate(parsed, fog=fog, mud=mud)
    ref = best_strength(parsed, fog=fog, mud=mud)
    assert (FOG_ONLY if formation.kind is None else int(formation.kind), formation.total) == ref
    # what each wildcard became is a legal choice for it (R20-R22) and really makes the formation
    for card, troop in formation.wild:
        assert troop in wild_options(card)
    resolved = formation.resolved
    assert all(isinstance(t, Troop) for t in resolved)
    assert strength_of(resolved, fog) == ref
    return formation


def wild_text(formation: Formation) -> str:
    return " ".join(f"{c.notation}={t.notation}" for c, t in formation.wild)


# -- R9: each kind, 3 cards ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "kind", "total"),
    [
        ("r3 r4 r5", W, 12),
        ("g9 g8 g10", W, 27),
        ("p1 p2 p3", W, 6),
        ("r8 b8 y8", P, 24),
        ("o1 g1 p1", P, 3),
        ("r1 r5 r9", B, 15),
        ("b7 b1 b3", B, 11),
        ("r4 b5 g6", S, 15),
        ("y10 o9 r8", S, 27),
        ("r1 b5 g9", H, 15),
        ("r1 r2 b4", H, 7),
        ("r9 b9 r10", H, 28),
    ],
)
def test_R9_kinds_of_three(cards: str, kind: FormationKind, total: int) -> None:
    formation = judged(cards)
    assert (formation.kind, formation.total, formation.wild) == (kind, total, ())


@pytest.mark.parametrize(
    ("cards", "not_kind"),
    [
        ("r3 r4 r6", W),  # same colour but a gap: Battalion, not Wedge
        ("r3 r4 b5", W),  # consecutive but two colours: Skirmish Line
        ("r8 b8 y9", P),  # one value differs
        ("r1 r5 b9", B),  # one colour differs
        ("r4 b5 g7", S),  # a gap
    ],
)
def test_R9_near_misses_are_not_the_kind(cards: str, not_kind: FormationKind) -> None:
    assert judged(cards).kind is not not_kind


# -- R25: each kind on 4 cards at a Mud flag ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "kind", "total"),
    [
        ("r1 r2 r3 r4", W, 10),
        ("b7 b8 b9 b10", W, 34),
        ("r5 b5 g5 y5", P, 20),
        ("r1 r5 r9 r2", B, 17),
        ("r4 b5 g6 y7", S, 22),
        ("r4 b5 g6 y8", H, 23),
        ("r4 r5 r6 r8", B, 23),  # three in a run are not a 4-card Wedge
        ("r5 b5 g5 y6", H, 21),  # three of a value are not a 4-card Phalanx
    ],
)
def test_R25_mud_kinds_of_four(cards: str, kind: FormationKind, total: int) -> None:
    formation = judged(cards, mud=True)
    assert (formation.kind, formation.total, formation.mud) == (kind, total, True)


@pytest.mark.parametrize(("cards", "mud"), [("r1 r2 r3 r4", False), ("r1 r2 r3", True), ("r1 r2", False)])
def test_R25_wrong_number_of_cards_is_an_error(cards: str, mud: bool) -> None:
    with pytest.raises(FormationError, match="cards"):
        evaluate(parse_cards(cards), mud=mud)


@pytest.mark.parametrize("cards", ["r1 r2 fog", "r1 r2 scout", "mud r1 r2"])
def test_R9_only_troops_and_morale_cards_form(cards: str) -> None:
    with pytest.raises(FormationError, match="not a formation card"):
        evaluate(parse_cards(cards))


# -- R10: ordering: kind first, then sum ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("r1 r2 r3", "r10 b10 g10"),  # the weakest Wedge beats the best Phalanx
        ("r1 b1 g1", "r10 r9 r7"),  # Phalanx beats Battalion
        ("r1 r2 r4", "r10 b9 g8"),  # Battalion beats Skirmish Line
        ("r1 b2 g3", "r10 b10 g9"),  # Skirmish Line beats Host
        ("r4 r5 r6", "b3 b4 b5"),  # same kind: higher sum
        ("r10 b10 g10", "r9 b9 g9"),
        ("r1 b5 g9", "r1 b5 g8"),
        ("r4 r6 r3", "b7 b1 b3"),  # RULES.md example 5: Battalion 13 beats Battalion 11
    ],
)
def test_R10_kind_first_then_sum(stronger: str, weaker: str) -> None:
    assert judged(stronger).strength > judged(weaker).strength
    assert judged(weaker).strength < judged(stronger).strength


def test_R10_same_kind_and_sum_is_a_tie() -> None:
    a, b = judged("r3 r4 r5"), judged("b5 b3 b4")
    assert a.strength == b.strength and not a.strength > b.strength and a.strength <= b.strength


def test_R10_example_5_battalion_13_beats_battalion_11() -> None:
    mine, theirs = judged("r4 r6 r3"), judged("b7 b1 b3")
    assert (mine.kind, mine.total, theirs.kind, theirs.total) == (B, 13, B, 11)
    assert mine.strength > theirs.strength


def test_R10_strength_order_is_total() -> None:
    ranks = sorted(Strength(k, t) for k in (None, *FormationKind) for t in (6, 20))
    assert [s.kind for s in ranks][:2] == [None, None]
    assert ranks[-1] == Strength(W, 20)


# -- R20-R22: wildcards at their best, and what they became ---------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "kind", "total", "wild"),
    [
        # R20 Leaders: any colour, any value
        ("alexander r4 r5", W, 15, "alexander=r6"),
        ("darius g5 g6", W, 18, "darius=g7"),
        ("alexander r8 r10", W, 27, "alexander=r9"),
        ("alexander b8 y8", P, 24, "alexander=r8"),
        ("darius p2 p9", B, 21, "darius=p10"),
        ("alexander r4 b5", S, 15, "alexander=o6"),
        ("alexander r1 b5", H, 16, "alexander=o10"),
        # R21 Companion Cavalry: an 8 of any colour
        ("companion r9 r10", W, 27, "companion=r8"),
        ("companion r6 r7", W, 21, "companion=r8"),
        ("companion b8 y8", P, 24, "companion=r8"),
        ("companion g2 g3", B, 13, "companion=g8"),
        ("companion r7 b9", S, 24, "companion=o8"),
        ("companion r1 b1", H, 10, "companion=o8"),
        # R22 Shield Bearers: 1, 2 or 3 of any colour
        ("shield r2 r1", W, 6, "shield=r3"),
        ("shield r3 r4", W, 9, "shield=r2"),
        ("shield r2 r4", W, 9, "shield=r3"),
        ("shield b1 y1", P, 3, "shield=r1"),
        ("shield g2 b2", P, 6, "shield=r2"),
        ("shield b9 b10", B, 22, "shield=b3"),
        ("shield r1 b2", S, 6, "shield=o3"),
        ("shield r10 b10", H, 23, "shield=o3"),
    ],
)
def test_R20_R21_R22_single_wildcard(cards: str, kind: FormationKind, total: int, wild: str) -> None:
    formation = judged(cards)
    assert (formation.kind, formation.total) == (kind, total)
    assert wild_text(formation) == wild


@pytest.mark.parametrize(
    ("cards", "mud", "kind", "total"),
    [
        ("alexander companion r9", False, W, 27),  # 8-9-10: companion 8, leader 10
        ("companion alexander r7", False, W, 24),  # 7-8-9
        ("alexander shield r2", False, W, 9),  # 2-3-4 beats 1-2-3
        ("companion shield r9", False, B, 20),  # 8 and 3 never make a run
        ("companion shield alexander", False, B, 21),  # all three wild: a Battalion 10+8+3
        ("shield alexander b2", False, W, 9),
        ("alexander companion b8", False, P, 24),
        ("alexander shield r1 r2", True, W, 10),  # Mud: r1 and r2 pin the run to 1-2-3-4
        ("alexander companion r7 r9", True, W, 34),  # 7-8-9-10
        ("shield companion alexander r5", True, B, 26),
        ("companion r8 b8 y8", True, P, 32),
    ],
)
def test_R20_R21_R22_wildcard_combinations(cards: str, mud: bool, kind: FormationKind, total: int) -> None:
    formation = judged(cards, mud=mud)
    assert (formation.kind, formation.total) == (kind, total)
    assert {c for c, _ in formation.wild} == {c for c in parse_cards(cards) if isinstance(c, Tactic)}


# -- R23: a wildcard may stand for any card, even a visible one ------------------------------------------------
def test_R23_wildcard_may_duplicate_a_card_in_its_own_formation() -> None:
    formation = judged("r10 r2 alexander")
    assert (formation.kind, formation.total, wild_text(formation)) == (B, 22, "alexander=r10")


def test_R23_companion_may_be_a_colour_already_used() -> None:
    formation = judged("companion r9 r10")
    assert formation.resolved == parse_cards("r8 r9 r10")  # r8 may well lie on another flag


# -- R24: Fog compares sums only; wildcards at best value ----------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "mud", "total"),
    [
        ("r3 r4 r5", False, 12),  # a Wedge is just 12 under Fog
        ("r10 b10 g9", False, 29),
        ("alexander r1 r3", False, 14),
        ("companion shield alexander", False, 21),
        ("shield r1 b1", False, 5),
        ("r1 r2 r3 r4", True, 10),  # R25 with Fog: the sum of 4
        ("r10 b10 g10 alexander", True, 40),
        ("companion shield r1 r2", True, 14),
    ],
)
def test_R24_fog_sums_only(cards: str, mud: bool, total: int) -> None:
    formation = judged(cards, fog=True, mud=mud)
    assert (formation.kind, formation.total, formation.fog) == (None, total, True)


def test_R24_fog_a_host_beats_a_wedge_with_a_higher_sum() -> None:
    assert judged("r10 b9 g7", fog=True).strength > judged("r3 r4 r5", fog=True).strength
    assert judged("r10 b9 g7").strength < judged("r3 r4 r5").strength


def test_R9_classify_reference_sanity() -> None:
    # the reference reads R9 literally; make sure it is not trivially agreeing
    samples = ("r1 r2 r3", "r1 b1 g1", "r1 r2 r4", "r1 b2 g3", "r1 b2 g4")
    troops = [[c for c in parse_cards(s) if isinstance(c, Troop)] for s in samples]
    assert [classify(t) for t in troops] == [4, 3, 2, 1, 0]


def test_formation_repr_uses_notation() -> None:
    formation = evaluate(parse_cards("alexander g5 g6"))
    assert repr(formation) == "<Formation alexander g5 g6: wedge 18>"
    assert format_cards(formation.resolved) == "g7 g5 g6"


# -- one strength: the troop classifier the bots use is evaluate's (R9, R10, R24) ------------------------------
@st.composite
def complete_troops(draw: st.DrawFn) -> list[Troop]:
    """3 or 4 different troops: any, all of one colour, or a run (so every kind R9 names comes up)."""
    size = draw(st.sampled_from((3, 4)))
    how = draw(st.sampled_from(("any", "colour", "run")))
    if how == "any":
        return draw(st.lists(st.sampled_from(ALL_TROOPS), min_size=size, max_size=size, unique=True))
    if how == "colour":
        colour = draw(st.sampled_from(Colour))
        values = draw(st.lists(st.integers(1, 10), min_size=size, max_size=size, unique=True))
        return [Troop(colour, v) for v in values]
    start = draw(st.integers(1, 11 - size))
    colours = draw(st.lists(st.sampled_from(Colour), min_size=size, max_size=size))
    return draw(st.permutations([Troop(c, start + i) for i, c in enumerate(colours)]))


@given(complete_troops(), st.booleans())
@settings(max_examples=400, deadline=None, database=None)
def test_R9_troops_strength_agrees_with_evaluate(troops: list[Troop], fog: bool) -> None:
    mud = len(troops) == 4
    formation = evaluate(troops, fog=fog, mud=mud)
    one_colour = len({t.colour for t in troops}) == 1
    expected = (-1 if formation.kind is None else int(formation.kind), formation.total)
    assert troops_strength([t.value for t in troops], one_colour, fog=fog) == expected
    assert strength(troops, fog=fog, mud=mud) == expected
    assert expected == best_strength(tuple(troops), fog=fog, mud=mud)  # and the naive reference


@pytest.mark.parametrize(
    ("values", "one_colour", "expected"),
    [
        ((3, 4, 5), True, (W, 12)),  # R9 Wedge
        ((8, 8, 8), False, (P, 24)),  # R9 Phalanx
        ((1, 5, 9), True, (B, 15)),  # R9 Battalion
        ((5, 3, 4), False, (S, 12)),  # R9 Skirmish Line
        ((1, 2, 9), False, (H, 12)),  # R9 Host
        ((1, 2, 3, 4), True, (W, 10)),  # R25 four at Mud
    ],
)
def test_R9_troops_strength_table(values: tuple[int, ...], one_colour: bool, expected: tuple[int, int]) -> None:
    assert troops_strength(values, one_colour) == (int(expected[0]), expected[1])
    assert troops_strength(values, one_colour, fog=True) == (-1, sum(values))  # R24


def test_wild_tables_come_from_the_cards() -> None:
    """R20-R22: the decision's wildcard masks are derived from ``Tactic.wild_values``, never typed in."""
    for card in Tactic:
        if card.wild_values:
            assert WILD_MASK[card] == sum(1 << (v - 1) for v in card.wild_values)
            assert WILD_BEST[card] == max(card.wild_values)
        else:
            assert card not in WILD_MASK


@given(
    st.lists(st.sampled_from(ALL_TROOPS), min_size=1, max_size=4, unique=True),
    st.lists(
        st.sampled_from([Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD]), max_size=3, unique=True
    ),
    st.booleans(),
    st.booleans(),
)
@settings(max_examples=300, deadline=None, database=None)
def test_R20_one_strength_with_wildcards_is_evaluates(
    troops: list[Troop], wilds: list[Tactic], fog: bool, mud: bool
) -> None:
    """evaluate, the decision path's strength() and the naive reference agree, wildcards included (R9, R10, R20-R25)."""
    size = 4 if mud else 3
    cards = (tuple(wilds) + tuple(troops))[:size]
    if len(cards) < size:
        return
    formation = evaluate(cards, fog=fog, mud=mud)
    judged = (-1 if formation.kind is None else int(formation.kind), formation.total)
    assert strength(cards, fog=fog, mud=mud) == judged == best_strength(cards, fog=fog, mud=mud)  # and the reference


@given(
    st.lists(st.sampled_from(ALL_TROOPS), max_size=3, unique=True),
    st.lists(
        st.sampled_from([Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD]), max_size=2, unique=True
    ),
    st.booleans(),
)
@settings(max_examples=400, deadline=None, database=None)
def test_R9_R20_R25_the_shape_filter_keeps_every_shape_the_cards_can_make(
    troops: list[Troop], wilds: list[Tactic], mud: bool
) -> None:
    """ShapeFilter.open_shapes lists shapes of the kind in the order of shapes() (strongest first), and
    never one fewer than plan_shape can make from the cards (it only skips shapes with no plan)."""
    size = 4 if mud else 3
    cards = (tuple(troops) + tuple(wilds))[: size - 1]
    fits = ShapeFilter(cards, size)
    for kind in (*FormationKind, None):
        every = shapes(kind, size)
        kept = fits.open_shapes(kind)
        assert list(kept) == [s for s in every if s in kept]  # a subsequence of shapes(), in its order
        assert all(fits(s) for s in kept)
        makeable = [s for s in every if plan_shape(s, cards, size)]
        assert set(makeable) <= set(kept), (cards, kind)
        assert not any(fits(s) for s in every if s not in kept)
