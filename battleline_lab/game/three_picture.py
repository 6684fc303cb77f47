"""A picture of a three-player game (R32, R33): the triangle, its three fronts and the cards face up.

:func:`show_three` draws the players A, B and C at the corners of a triangle and each flag on its
side as a small panel with the two players' troops (the cards of :func:`~battleline_lab.render.svg.card_svg`,
at half size), the flag's number in a circle filled with the colour of whoever holds it.  Only
what is face up is drawn, so it shows the same to every player.  The picture's text (what a saved
notebook output or a terminal shows) lists the fronts in card notation.

>>> from battleline_lab.game.three import build_three
>>> print(repr(show_three(build_three({1: {"a": "r3 r4 r5", "b": "b8"}}))))
A–B: 1 A r3 r4 r5 / B b8 · 2 - · 3 -
B–C: 4 - · 5 - · 6 -
C–A: 7 - · 8 - · 9 -
"""

from __future__ import annotations

import math
from html import escape

from ..render.svg import CARD_W, Picture, card_svg
from ..text.messages import DEFAULT_LANGUAGE, message
from .three import FRONT_OF, FRONTS, Seat, ThreeState

__all__ = ["show_three", "three_svg", "three_text"]

WIDTH, HEIGHT = 760, 660
_CORNERS = {Seat.A: (70.0, 600.0), Seat.B: (380.0, 60.0), Seat.C: (690.0, 600.0)}
_SEAT_FILL = {Seat.A: "#795548", Seat.B: "#455a64", Seat.C: "#212121"}  # no troop colour
_SCALE = 0.5
_PANEL_W, _PANEL_H = 3 * CARD_W * _SCALE + 34, 104


def _flag_point(flag: int) -> tuple[float, float]:
    """Where flag ``flag`` sits: a quarter, half and three quarters along its side of the triangle."""
    x, y = FRONT_OF[flag]
    k = FRONTS[(x, y)].index(flag) + 1
    (x0, y0), (x1, y1) = _CORNERS[x], _CORNERS[y]
    return x0 + (x1 - x0) * k / 4, y0 + (y1 - y0) * k / 4


def three_svg(state: ThreeState, lang: str = DEFAULT_LANGUAGE) -> str:
    """The triangle as an SVG document (see the module doc)."""
    title = message("three.picture.title", lang)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bl-three" width="100%" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" style="font-family:DejaVu Sans,Verdana,sans-serif;'
        'max-width:760px;height:auto;display:block">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f4f1e8"/>',
    ]
    corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in _CORNERS.values())
    parts.append(f'<polygon points="{corners}" fill="none" stroke="#8d8471" stroke-width="3"/>')
    cx, cy = sum(x for x, _ in _CORNERS.values()) / 3, sum(y for _, y in _CORNERS.values()) / 3
    for seat, (x, y) in _CORNERS.items():
        dx, dy = x - cx, y - cy
        norm = math.hypot(dx, dy)
        lx, ly = x + dx / norm * 34, y + dy / norm * 34
        name = message(f"three.seat.{seat.value}", lang)
        parts.append(
            f'<text x="{lx:.0f}" y="{ly + 8:.0f}" text-anchor="middle" font-size="26" font-weight="bold" '
            f'fill="{_SEAT_FILL[seat]}">{escape(name)}</text>'
        )
    for flag in range(1, 10):
        parts.append(_panel(state, flag, lang))
    parts.append("</svg>")
    return "\n".join(parts)


def _panel(state: ThreeState, flag: int, lang: str) -> str:
    x, y = _flag_point(flag)
    left, top = x - _PANEL_W / 2, y - _PANEL_H / 2
    owner = state.claimed[flag - 1]
    label = message("three.picture.flag", lang, flag=flag)
    if owner is not None:
        label = message("three.picture.held", lang, flag=flag, seat=message(f"three.seat.{owner.value}", lang))
    out = [
        f'<g class="bl-three-flag" data-flag="{flag}" role="group" aria-label="{escape(label)}">',
        f'<rect x="{left:.0f}" y="{top:.0f}" width="{_PANEL_W:.0f}" height="{_PANEL_H}" rx="6" fill="#ffffff" '
        'stroke="#8d8471" opacity="0.92"/>',
    ]
    for row, seat in enumerate(FRONT_OF[flag]):
        row_y = top + 6 + row * (_PANEL_H - 12) / 2
        name = message(f"three.seat.{seat.value}", lang)
        out.append(
            f'<text x="{left + 14:.0f}" y="{row_y + 29:.0f}" text-anchor="middle" font-size="14" font-weight="bold" '
            f'fill="{_SEAT_FILL[seat]}">{escape(name)}</text>'
        )
        for k, card in enumerate(state.cards[flag - 1][seat]):
            card_x = (left + 28 + k * CARD_W * _SCALE) / _SCALE
            out.append(
                f'<g transform="scale({_SCALE})">{card_svg(card, round(card_x), round(row_y / _SCALE), lang=lang)}</g>'
            )
    fill = _SEAT_FILL[owner] if owner is not None else "#ffffff"
    ink = "#ffffff" if owner is not None else "#3b3b3b"
    out.append(f'<circle cx="{left:.0f}" cy="{top:.0f}" r="14" fill="{fill}" stroke="#3b3b3b"/>')
    out.append(f'<text x="{left:.0f}" y="{top + 5:.0f}" text-anchor="middle" font-size="15" fill="{ink}">{flag}</text>')
    out.append("</g>")
    return "\n".join(out)


def three_text(state: ThreeState) -> str:
    """The fronts in card notation, one line each: ``A–B: 1 A r3 r4 r5 / B b8 · 2 - · 3 -`` (a held flag
    is marked ``*A``)."""
    lines = []
    for (x, y), flags in FRONTS.items():
        shown = []
        for n in flags:
            sides = [
                f"{s.name} {' '.join(c.notation for c in state.cards[n - 1][s])}"
                for s in (x, y)
                if state.cards[n - 1][s]
            ]
            owner = state.claimed[n - 1]
            mark = f" *{owner.name}" if owner is not None else ""
            shown.append(f"{n}{mark} {' / '.join(sides) or '-'}")
        lines.append(f"{x.name}–{y.name}: " + " · ".join(shown))
    return "\n".join(lines)


def show_three(state: ThreeState, lang: str = DEFAULT_LANGUAGE) -> Picture:
    """The triangle (:func:`three_svg`) as a :class:`~battleline_lab.render.svg.Picture` for notebooks."""
    return Picture(three_svg(state, lang), three_text(state))
