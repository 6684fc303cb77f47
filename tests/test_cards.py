"""Cards and their notation (R1, R2): table-driven."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab.core.cards import (
    ALL_CARDS,
    ALL_TACTICS,
    ALL_TROOPS,
    CardNotationError,
    Colour,
    Tactic,
    TacticGroup,
    Troop,
    card_sort_key,
    format_cards,
    parse_card,
    parse_cards,
)


def test_R1_sixty_troops_six_colours_values_1_to_10() -> None:
    assert len(ALL_TROOPS) == len(set(ALL_TROOPS)) == 60
    assert {t.colour for t in ALL_TROOPS} == set(Colour)
    for colour in Colour:
        assert sorted(t.value for t in ALL_TROOPS if t.colour is colour) == list(range(1, 11))
    assert sorted(t.index for t in ALL_TROOPS) == list(range(60))


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (10, "Elephants"),
        (9, "Chariots"),
        (8, "Heavy Cavalry"),
        (7, "Light Cavalry"),
        (6, "Hypaspists"),
        (5, "Phalangists"),
        (4, "Hoplites"),
        (3, "Javelineers"),
        (2, "Peltasts"),
        (1, "Skirmishers"),
    ],
)
def test_R1_troop_names(value: int, name: str) -> None:
    assert Troop(Colour.GREEN, value).name == name


@pytest.mark.parametrize("value", [0, 11, -1, 3.0, "3"])
def test_R1_troop_value_out_of_range_is_rejected(value: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        Troop(Colour.RED, value)  # type: ignore[arg-type]


def test_R1_troop_colour_must_be_a_colour() -> None:
    with pytest.raises(TypeError):
        Troop("r", 3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("tactic", "group", "wild_values"),
    [
        (Tactic.ALEXANDER, TacticGroup.MORALE, tuple(range(1, 11))),
        (Tactic.DARIUS, TacticGroup.MORALE, tuple(range(1, 11))),
        (Tactic.COMPANION, TacticGroup.MORALE, (8,)),
        (Tactic.SHIELD, TacticGroup.MORALE, (1, 2, 3)),
        (Tactic.FOG, TacticGroup.ENVIRONMENT, ()),
        (Tactic.MUD, TacticGroup.ENVIRONMENT, ()),
        (Tactic.SCOUT, TacticGroup.GUILE, ()),
        (Tactic.REDEPLOY, TacticGroup.GUILE, ()),
        (Tactic.DESERTER, TacticGroup.GUILE, ()),
        (Tactic.TRAITOR, TacticGroup.GUILE, ()),
    ],
)
def test_R2_tactics_groups_and_wild_values(tactic: Tactic, group: TacticGroup, wild_values: tuple[int, ...]) -> None:
    assert tactic.group is group
    assert tactic.wild_values == wild_values
    assert tactic.is_wild == (group is TacticGroup.MORALE) == tactic.is_formation_card
    assert tactic.is_environment == (group is TacticGroup.ENVIRONMENT)
    assert tactic.is_leader == (tactic in (Tactic.ALEXANDER, Tactic.DARIUS))


def test_R2_ten_tactics_seventy_cards() -> None:
    assert len(ALL_TACTICS) == 10
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 70


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("r3", Troop(Colour.RED, 3)),
        ("R3", Troop(Colour.RED, 3)),
        ("b10", Troop(Colour.BLUE, 10)),
        ("B10", Troop(Colour.BLUE, 10)),
        (" o1 ", Troop(Colour.ORANGE, 1)),
        ("y7", Troop(Colour.YELLOW, 7)),
        ("g5", Troop(Colour.GREEN, 5)),
        ("P9", Troop(Colour.PURPLE, 9)),
        ("alexander", Tactic.ALEXANDER),
        ("Darius", Tactic.DARIUS),
        ("COMPANION", Tactic.COMPANION),
        ("shield", Tactic.SHIELD),
        ("Fog", Tactic.FOG),
        ("mud", Tactic.MUD),
        ("scout", Tactic.SCOUT),
        ("redeploy", Tactic.REDEPLOY),
        ("deserter", Tactic.DESERTER),
        ("traitor", Tactic.TRAITOR),
    ],
)
def test_R1_R2_notation_parses_case_insensitively(token: str, card: object) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize(
    ("token", "says", "suggestion"),
    [
        ("r11", "values run from 1 to 10", "r10"),
        ("b0", "values run from 1 to 10", "b1"),
        ("x5", "colours are r o y g b p", None),
        ("alexandr", "", "alexander"),
        ("Fogg", "", "fog"),
        ("10r", "", "r10"),
        ("red3", "", "r3"),
        ("Blue 8", "", "b8"),
        ("companion cavalry", "", "companion"),
        ("mud!", "", "mud"),
    ],
)
def test_R1_R2_bad_token_names_it_and_suggests(token: str, says: str, suggestion: str | None) -> None:
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    text = str(info.value)
    assert info.value.token == token
    assert repr(token) in text
    assert says in text
    if suggestion is not None:
        assert f"(did you mean {suggestion!r}?)" in text
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("token", ["", "zzzzzz", "12345"])
def test_R1_R2_hopeless_token_has_no_suggestion(token: str) -> None:
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    assert "did you mean" not in str(info.value)


def test_R1_non_text_token_is_a_notation_error() -> None:
    with pytest.raises(CardNotationError, match="as text"):
        parse_card(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "notation"),
    [("r3 r4 r5", "r3 r4 r5"), ("r3,r4, R5", "r3 r4 r5"), ("", ""), ("fog  b10", "fog b10")],
)
def test_R1_parse_cards_accepts_spaces_and_commas(text: str, notation: str) -> None:
    assert format_cards(parse_cards(text)) == notation
    assert parse_cards(notation.split()) == parse_cards(text)


@given(st.sampled_from(ALL_CARDS))
def test_R1_R2_notation_round_trips(card: Troop | Tactic) -> None:
    assert parse_card(card.notation) == card
    assert parse_card(card.notation.upper()) == card
    assert repr(card) == str(card) == card.notation


def test_R1_sort_key_troops_by_colour_then_value_then_tactics() -> None:
    cards = sorted(parse_cards("fog b1 r10 alexander r2"), key=card_sort_key)
    assert format_cards(cards) == "r2 r10 b1 alexander fog"
    assert Troop(Colour.RED, 10) < Troop(Colour.ORANGE, 1)
