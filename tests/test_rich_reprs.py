"""Readable before running: every value a lesson shows has a picture (SVG/HTML) and a readable text form.

Jupyter saves what these hooks return; a saved output must carry ``image/svg+xml`` or
``text/html`` (JupyterLab shows it in a trusted notebook), and its ``text/plain`` must never be
an ``<... object>`` repr or hold a memory address (strict nbval compares it).
"""

from __future__ import annotations

import re

import pytest
from IPython.core.formatters import DisplayFormatter

from battleline_lab import Position, analyse_claim, analyse_position, evaluate, parse_cards
from battleline_lab.quiz.questions import question_from_data
from battleline_lab.render.svg import Picture, show_analysis, show_board, show_cards, show_formation

POS = Position.build(
    {5: {"you": "r3 r4 r5", "opponent": "b8"}, 3: {"you": "g4 g5 g6", "opponent": "y4 y5 y6", "first_complete": "you"}}
)
COMPARE = question_from_data(
    {"kind": "compare", "a": ["r5", "r6", "r7"], "b": ["g5", "g6", "g7"], "first_complete": "b"}
)
VALUES = {
    "Position": POS,
    "Formation": evaluate("alexander g5 g6"),
    "ClaimAnalysis": analyse_claim(POS, 5),
    "PositionAnalysis": analyse_position(POS),
    "Comparison": COMPARE.explain(Position()),
    "show_board": show_board(POS, lang="zh"),
    "show_cards": show_cards(parse_cards("r3 o4 fog")),
    "show_formation": show_formation(evaluate("r3 r4 r5")),
    "show_analysis": show_analysis(analyse_claim(POS, 5), "zh"),
}
FORMATTER = DisplayFormatter()


@pytest.mark.parametrize("name", list(VALUES))
def test_value_has_a_picture_and_a_readable_text_form(name: str) -> None:
    value = VALUES[name]
    data, _ = FORMATTER.format(value)
    pictures = [data[m] for m in ("image/svg+xml", "text/html") if m in data]
    assert pictures and all("<svg" in p for p in pictures), sorted(data)
    text = data["text/plain"]
    assert "object>" not in text and not re.search(r" at 0x[0-9a-f]+", text)
    assert FORMATTER.format(value)[0] == data  # deterministic: nbval compares it


def test_text_forms_say_what_the_picture_shows() -> None:
    assert repr(VALUES["show_cards"]) == "r3 o4 fog"
    assert repr(VALUES["show_formation"]) == "r3 r4 r5: Wedge, sum 12"
    assert repr(VALUES["show_analysis"]).startswith("1. ")  # the proof's numbered lines, in Chinese
    assert "对手" in repr(VALUES["show_analysis"])
    assert repr(VALUES["PositionAnalysis"]) == "<PositionAnalysis you can claim: 3; the opponent: none>"
    assert eval(repr(VALUES["show_board"])) == POS  # the board's text is the position in card notation


def test_picture_is_svg_or_html_never_both() -> None:
    svg, html = Picture("<svg/>", "x"), Picture("<div><svg/></div>", "y", html=True)
    assert (svg._repr_svg_(), svg._repr_html_()) == ("<svg/>", None)
    assert (html._repr_svg_(), html._repr_html_()) == (None, "<div><svg/></div>")


def test_comparison_picture_marks_the_formation_completed_first() -> None:
    html = VALUES["Comparison"]._repr_html_()
    assert "B, completed first: Wedge, sum 18" in html and "Formation B wins: R11" in html
