"""A troop's name on any card is at least 11 px, and an empty board is drawn compact.

The proof's card thumbnails (a claim proof's both sides, ``analysis_html``; loose cards,
``cards_svg``; the board picture, ``board_svg``) drew the names at 7.5 px.  Every name is now
11 px; a long one ("Heavy Cavalry") is pressed to the card's width instead of shrunk.
"""

from __future__ import annotations

import re

import pytest

from battleline_lab import Position, analyse_claim
from battleline_lab.core.cards import parse_card
from battleline_lab.render.svg import BOARD_MAX_WIDTH, CARD_W, analysis_html, board_svg, card_svg, cards_svg
from battleline_lab.text.messages import LANGUAGES, message

MIN_PX = 11
NAME = re.compile(r'<text class="bl-troop-name"[^>]*font-size="([\d.]+)"([^>]*)>([^<]*)</text>')

PICTURES = {
    "card": lambda lang: card_svg(parse_card("b8"), 0, 0, lang=lang),
    "ghost-card": lambda lang: card_svg(parse_card("r1"), 0, 0, ghost=True, lang=lang),
    "loose-cards": lambda lang: cards_svg([parse_card(c) for c in ("r7", "g8", "y10")], lang=lang),
    "proof-thumbnails": lambda lang: analysis_html(
        analyse_claim(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}), 5), lang
    ),
    "board": lambda lang: board_svg(Position.build({2: {"you": "o6 o7", "opponent": "p9"}}), lang=lang),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_every_troop_name_is_at_least_11_px(picture: str, lang: str) -> None:
    svg = PICTURES[picture](lang)
    names = NAME.findall(svg)
    assert names, svg[:300]  # the names are there, each marked
    assert all(float(size) >= MIN_PX for size, _attrs, _name in names), names


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("value", range(1, 11))
def test_a_long_name_is_pressed_to_the_card_not_shrunk(value: int, lang: str) -> None:
    svg = card_svg(parse_card(f"r{value}"), 0, 0, lang=lang)
    ((size, attrs, name),) = NAME.findall(svg)
    assert float(size) >= MIN_PX and name == message(f"troop.{value}", lang)
    pressed = re.search(r'textLength="(\d+)"', attrs)
    if len(name) * MIN_PX * 0.56 > CARD_W:  # wider than the card at 11 px: fitted to it
        assert pressed is not None and int(pressed.group(1)) < CARD_W


def _drawn_height(svg: str) -> float:
    """The board's height on screen at its widest (it keeps its viewBox's proportions)."""
    found = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert found is not None
    return int(found.group(2)) * BOARD_MAX_WIDTH / int(found.group(1))


def test_R6_an_empty_board_is_compact_at_its_widest() -> None:
    """Lesson 0's first picture, an empty table, was a 560 px tall box of nothing on a wide screen."""
    empty = _drawn_height(board_svg(Position()))
    one_card = _drawn_height(board_svg(Position.build({1: {"you": "r1"}})))
    assert empty <= 280 < one_card  # a table with cards keeps the room for three on each side (R6)
