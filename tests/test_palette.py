"""The six troop colours stay apart for every learner, and red reads as red, orange as orange.

The simulation is Machado, Oliveira & Fernandes (2009) at severity 1.0 (protanopia, deuteranopia,
tritanopia: the strongest forms), the distance CIEDE2000 (``tests/colour_vision.py``),
itself checked against Sharma, Wu & Dalal's published test pairs.

Threshold: 15 ΔE00.  A just-noticeable difference is about 2.3, and about 10 is a difference
seen at a glance between large patches; cards are small and the learner compares them across
the board, so we ask for well over that.  The palette (svg.COLOURS) reaches 17.0 at worst
(deuteranopia, orange vs green; about 31 with normal vision); the Okabe–Ito set it replaced
reached only 4.8 (deuteranopia, blue vs purple).  The colour letter on every card stays the
second cue.
"""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from battleline_lab.core.cards import Colour
from battleline_lab.render.svg import COLOURS
from tests.colour_vision import DEFICIENCIES, ciede2000, delta_e_2000, lab, simulate

THRESHOLD = 15.0

# Sharma, Wu & Dalal (2005), Table 1: a sample of the 34 published pairs (L, a, b) and ΔE00
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
    ((90.8027, -2.0831, 1.441), (91.1528, -1.6435, 0.0447), 1.4441),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA)
def test_ciede2000_matches_sharma_test_data(
    first: tuple[float, ...], second: tuple[float, ...], expected: float
) -> None:
    assert delta_e_2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert delta_e_2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_simulation_collapses_red_and_green_for_red_green_deficiencies() -> None:
    # the simulation is not the identity: pure red and green come close for protans and deutans
    for deficiency in ("protanopia", "deuteranopia"):
        assert ciede2000(simulate("#ff0000", deficiency), simulate("#00ff00", deficiency)) < 0.5 * ciede2000(
            "#ff0000", "#00ff00"
        )
    # and tritanopes lose blue against green-cyan, not red against green
    assert ciede2000(simulate("#ff0000", "tritanopia"), simulate("#00ff00", "tritanopia")) > 50


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_every_pair_of_troop_colours_stays_apart(deficiency: str) -> None:
    for (c1, (fill1, _)), (c2, (fill2, _)) in combinations(COLOURS.items(), 2):
        d = ciede2000(simulate(fill1, deficiency), simulate(fill2, deficiency))
        assert d >= THRESHOLD, f"{c1.name} and {c2.name} are {d:.1f} apart under {deficiency}"


def _hue(colour: str) -> float:
    _l, a, b = lab(colour)
    return math.degrees(math.atan2(b, a)) % 360


@pytest.mark.parametrize(
    ("colour", "low", "high"),
    [
        (Colour.RED, 20, 42),  # pure #ff0000 is at 40 degrees; red must not drift to orange
        (Colour.ORANGE, 52, 75),
        (Colour.YELLOW, 85, 105),
        (Colour.GREEN, 130, 165),
        (Colour.BLUE, 245, 290),
        (Colour.PURPLE, 295, 345),
    ],
)
def test_each_colour_reads_as_its_name(colour: Colour, low: float, high: float) -> None:
    assert low <= _hue(COLOURS[colour][0]) <= high


def test_red_and_orange_differ_in_hue_and_lightness() -> None:
    red, orange = COLOURS[Colour.RED][0], COLOURS[Colour.ORANGE][0]
    assert _hue(orange) - _hue(red) >= 20
    assert lab(orange)[0] - lab(red)[0] >= 15


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@pytest.mark.parametrize("colour", list(Colour))
def test_text_on_each_card_meets_wcag_aa(colour: Colour) -> None:
    fill, ink = COLOURS[colour]
    hi, lo = sorted((_luminance(fill), _luminance(ink)), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 4.5
