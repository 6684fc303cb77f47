"""The SVG board (battleline_lab.render.svg): labels, colour letters, determinism, escaping, claimed flags, ghosts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab import (
    ALL_CARDS,
    Card,
    FlagState,
    Position,
    Side,
    Troop,
    analyse_claim,
    evaluate,
    parse_card,
    parse_cards,
)
from battleline_lab.render.svg import (
    BOARD_MAX_WIDTH,
    COLUMN,
    MARGIN,
    RULES_PAGE,
    WIDTH,
    analysis_html,
    board_svg,
    card_svg,
    cards_svg,
    flag_grid_columns,
    formation_svg,
)
from battleline_lab.text.messages import card_label, message

NS = "{http://www.w3.org/2000/svg}"
XSS = "<img src=x onerror=alert(1)>"

# R3/R31: flags, discards and hands all drawn; R24/R25 environment cards; R20-R22 wildcards
SAMPLE = Position.build(
    {
        1: {"you": "g1 g2 g3", "opponent": "y5 y6 y7", "first_complete": "you", "claimed_by": "opponent"},
        2: {"you": "b7 alexander", "opponent": "b10 fog"},
        5: {"you": "r3 r4 r5", "opponent": "b8"},
        8: {"you": "o1 o2 o3", "opponent": "p1", "claimed_by": "you"},
        9: {"you": "p10 p9 p8 mud", "opponent": "o10 companion"},
    },
    discards={"you": "scout", "opponent": "r1 deserter"},
    hand={"you": "b9 y10"},
)


def _cards(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{NS}g") if "bl-card" in g.get("class", "").split()]


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def _visible_cards(position: Position) -> list[Card]:
    out = [c for s in position.flags for side in Side for c in s.cards(side)]
    for side in Side:
        out += list(position.discards(side)) + list(position.hand(side))
    return out


def test_every_card_has_a_title_and_aria_label() -> None:
    cards = _cards(board_svg(SAMPLE))
    assert sorted(g.get("data-card", "") for g in cards) == sorted(c.notation for c in _visible_cards(SAMPLE))
    for g in cards:
        card = parse_card(g.get("data-card", ""))
        title = g.find(f"{NS}title")
        assert title is not None and title.text == card_label(card) == g.get("aria-label")
        assert g.get("role") == "img"


def test_every_troop_card_carries_its_colour_letter() -> None:
    """R1: six colours tellable apart without colour vision: the letter is printed on the card."""
    for g in _cards(board_svg(SAMPLE)):
        card = parse_card(g.get("data-card", ""))
        texts = [t.text for t in g.iter(f"{NS}text")]
        if isinstance(card, Troop):
            assert message(f"board.letter.{card.colour.letter}") in texts
            assert str(card.value) in texts
            assert f"bl-colour-{card.colour.letter}" in _classes(g)
        else:
            assert message(f"board.short.{card.value}") in texts


def test_card_label_example_blue_8() -> None:
    svg = card_svg(parse_card("b8"), 0, 0)
    assert 'aria-label="blue 8, Heavy Cavalry"' in svg
    assert "<title>blue 8, Heavy Cavalry</title>" in svg


def test_wildcards_and_environment_cards_are_marked() -> None:
    classes = {g.get("data-card"): _classes(g) for g in _cards(board_svg(SAMPLE))}
    assert {"bl-wild", "bl-morale"} <= classes["alexander"]
    assert {"bl-wild", "bl-morale"} <= classes["companion"]
    assert "bl-environment" in classes["fog"] and "bl-environment" in classes["mud"]
    assert "bl-wild" not in classes["fog"]


def test_output_is_deterministic_and_has_no_ids() -> None:
    analysis = analyse_claim(SAMPLE, 5)
    outputs = {board_svg(SAMPLE, highlight=analysis.steps[1].highlight) for _ in range(3)}
    assert len(outputs) == 1
    svg = outputs.pop()
    assert " id=" not in svg and "url(#" not in svg
    assert analysis_html(analysis) == analysis_html(analyse_claim(SAMPLE, 5))


@pytest.mark.parametrize("cards", ["r3 r4", ""])
def test_author_text_is_escaped(cards: str) -> None:
    svg = cards_svg(parse_cards(cards), caption=XSS)
    assert "<img" not in svg
    root = ET.fromstring(svg)
    assert not list(root.iter("img")) and not list(root.iter(f"{NS}img"))
    captions = [t.text for t in root.iter(f"{NS}text") if "bl-caption" in _classes(t)]
    assert captions == [XSS]


def _pennant_y(svg: str, css: str, exclude: str = "") -> list[float]:
    root = ET.fromstring(svg)
    ys = []
    for g in root.iter(f"{NS}g"):
        if css in _classes(g) and exclude not in _classes(g):
            line = g.find(f"{NS}line")
            assert line is not None
            ys.append(float(line.get("y1", "0")))
    return ys


def _card_y(svg: str, notation: str) -> float:
    for g in _cards(svg):
        if g.get("data-card") == notation:
            rect = g.find(f"{NS}rect")
            assert rect is not None
            return float(rect.get("y", "0"))
    raise AssertionError(notation)


def test_R15_claimed_flags_sit_on_the_owners_side() -> None:
    """The opponent is drawn at the top, you at the bottom; a claimed flag moves to its owner (R15)."""
    svg = board_svg(SAMPLE)
    (mine,) = _pennant_y(svg, "bl-claimed-you")
    (theirs,) = _pennant_y(svg, "bl-claimed-opponent")
    unclaimed = _pennant_y(svg, "bl-flag-token", exclude="bl-claimed")
    assert len(unclaimed) == 7 and len(set(unclaimed)) == 1
    middle = unclaimed[0]
    assert theirs < _card_y(svg, "p1") < middle < _card_y(svg, "o3") < mine  # flag 8 mine, flag 1 theirs
    assert theirs < _card_y(svg, "y7") and mine > _card_y(svg, "g3")


def test_R6_first_card_lies_next_to_the_flag() -> None:
    svg = board_svg(SAMPLE)
    assert _card_y(svg, "r3") < _card_y(svg, "r4") < _card_y(svg, "r5")  # you: downwards from the flag
    assert _card_y(svg, "y5") > _card_y(svg, "y6") > _card_y(svg, "y7")  # opponent: upwards


def test_R12_counterexample_drawn_as_ghost_cards_on_the_opponents_side() -> None:
    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
    analysis = analyse_claim(pos, 5)
    assert not analysis.claimable
    svg = board_svg(pos, ghosts={(5, Side.OPPONENT): analysis.counterexample})
    ghosts = [g for g in _cards(svg) if "bl-ghost" in _classes(g)]
    assert [g.get("data-card") for g in ghosts] == [c.notation for c in analysis.counterexample]
    for g in ghosts:
        assert "could still come" in (g.get("aria-label") or "")
        assert _card_y(svg, g.get("data-card", "")) < _card_y(svg, "b8")  # stacked beyond b8, away from the flag


def test_R13_step_highlights_follow_the_proof() -> None:
    """Each proof step highlights exactly the cards it talks about, in the hand too (R13)."""
    pos = Position.build(
        {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}, hand={"you": "b9"}
    )
    seen = set()
    for step in analyse_claim(pos, 5).steps:
        svg = board_svg(pos, highlight=step.highlight)
        lit = {g.get("data-card") for g in _cards(svg) if "bl-highlight" in _classes(g)}
        assert lit == {c.notation for c in step.highlight}
        seen.add(frozenset(lit))
    assert len(seen) >= 4  # the highlights change from step to step


def test_focus_flag_is_marked() -> None:
    root = ET.fromstring(board_svg(SAMPLE, focus=[5]))
    focused = [g.get("data-flag") for g in root.iter(f"{NS}g") if "bl-focus" in _classes(g)]
    assert focused == ["5"]


def test_R25_mud_flag_gets_four_card_rows() -> None:
    plain = ET.fromstring(board_svg(Position.build({1: {"you": "r1 r2 r3"}})))
    mud = ET.fromstring(board_svg(Position.build({1: {"you": "r1 r2 r3 mud"}})))
    assert _view_height(mud) > _view_height(plain)


def _view_height(root: ET.Element) -> float:
    return float(root.get("viewBox", "0 0 0 0").split()[3])


def test_board_scales_with_its_container_and_describes_its_cards() -> None:
    root = ET.fromstring(board_svg(SAMPLE))
    assert root.get("width") == "100%" and root.get("height") is None  # the viewBox keeps the proportions
    assert f"max-width:{BOARD_MAX_WIDTH}px" in (root.get("style") or "")
    assert root.get("role") == "img" and root.find(f"{NS}title") is not None
    desc = root.find(f"{NS}desc")
    assert desc is not None and desc.text
    for card in SAMPLE.flag(5).cards(Side.YOU):
        assert card_label(card) in desc.text
    zh = ET.fromstring(board_svg(SAMPLE, lang="zh")).find(f"{NS}desc")
    assert zh is not None and zh.text and "号旗" in zh.text


def test_flag_grid_matches_the_board_columns() -> None:
    # eleven tracks in the board's own proportions: margin, nine columns, margin
    tracks = [float(t) for t in re.findall(r"(\d+)fr", flag_grid_columns())]
    assert tracks == [MARGIN, COLUMN, MARGIN]
    assert flag_grid_columns().count("repeat(9,") == 1 and MARGIN * 2 + 9 * COLUMN == WIDTH


def test_formation_svg_names_kind_sum_and_wildcards() -> None:
    svg = formation_svg(evaluate("alexander g5 g6"))
    assert "Wedge, sum 18 (Alexander as g7)" in svg
    assert evaluate("r3 r4 r5")._repr_svg_() == formation_svg(evaluate("r3 r4 r5"))


def test_repr_hooks_on_core_values() -> None:
    assert SAMPLE._repr_svg_() == board_svg(SAMPLE)
    html = analyse_claim(SAMPLE, 5)._repr_html_()
    assert html == analysis_html(analyse_claim(SAMPLE, 5), rules=RULES_PAGE)  # rule ids link the rules page
    assert '<ol class="bl-steps">' in html and html.count("<li>") == len(analyse_claim(SAMPLE, 5).steps)


def _positions() -> st.SearchStrategy[Position]:
    @st.composite
    def build(draw: st.DrawFn) -> Position:
        cards = draw(st.permutations(ALL_CARDS))
        sizes = draw(st.lists(st.integers(0, 5), min_size=22, max_size=22))
        chunks: list[tuple[Card, ...]] = []
        i = 0
        for n in sizes:
            chunks.append(tuple(cards[i : i + n]))
            i += n
        claims = draw(st.lists(st.sampled_from([None, Side.YOU, Side.OPPONENT]), min_size=9, max_size=9))
        flags = tuple(FlagState(chunks[2 * k], chunks[2 * k + 1], claimed_by=claims[k]) for k in range(9))
        return Position(flags, chunks[18], chunks[19], chunks[20], chunks[21])

    return build()


@given(_positions(), st.data())
def test_any_position_renders_well_formed_with_each_card_once(position: Position, data: st.DataObject) -> None:
    visible = _visible_cards(position)
    highlight = data.draw(st.lists(st.sampled_from(visible), unique=True) if visible else st.just([]))
    svg = board_svg(position, highlight=highlight)
    cards = _cards(svg)  # parses: well-formed XML
    assert sorted(g.get("data-card", "") for g in cards) == sorted(c.notation for c in visible)
    assert {g.get("data-card") for g in cards if "bl-highlight" in _classes(g)} == {c.notation for c in highlight}
    assert svg == board_svg(position, highlight=list(reversed(highlight)))
