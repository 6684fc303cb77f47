"""Battle Line boards, formations and proofs as SVG/HTML strings (no Jupyter needed).

Like ``chess.svg`` for python-chess: pure functions that take engine values and
return markup, so a notebook shows a position even in a static viewer
(nbviewer, GitHub) and the widgets (:mod:`battleline_lab.widgets`) only
re-render.  The output is deterministic (no ids, no randomness, fixed order), so
nbval can compare it.

Every card is drawn in its colour *and* carries its colour letter, and every card
group has a ``<title>`` and an ``aria-label`` such as ``blue 8, Heavy Cavalry``
(from :func:`battleline_lab.text.messages.card_label`).  Every text goes through
:func:`html.escape`, so a puzzle author's ``<img src=x onerror=alert(1)>`` is
shown as text.  Stable CSS classes (``bl-card``, ``bl-highlight``,
``bl-ghost``, ``bl-flag``...) let tests and stylesheets find things.

>>> from battleline_lab import Position, parse_card
>>> svg = board_svg(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}), highlight=[parse_card("b8")])
>>> svg.startswith("<svg") and svg.count('class="bl-card ') == 4
True
>>> 'aria-label="blue 8, Heavy Cavalry"' in svg and 'data-card="b8"' in svg
True
>>> card_svg(parse_card("b8"), 0, 0) == card_svg(parse_card("b8"), 0, 0)
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.cards import Card, Colour, TacticGroup, Troop
from ..core.claims import ClaimAnalysis, PositionAnalysis, Reason
from ..core.formations import Formation
from ..core.position import FLAGS, Position, Side
from ..text.messages import DEFAULT_LANGUAGE, Theme, card_label, card_short, kind_name, message, render_analysis, themed

if TYPE_CHECKING:  # the question layer sits above rendering: no import at run time
    from ..quiz.questions import Comparison

__all__ = [
    "CARD_H",
    "BOARD_MAX_WIDTH",
    "CARD_W",
    "COLOURS",
    "TACTIC_COLOURS",
    "Picture",
    "RULES_PAGE",
    "analysis_html",
    "comparison_html",
    "position_analysis_html",
    "rating_chart_svg",
    "board_svg",
    "card_svg",
    "cards_svg",
    "escape",
    "flag_grid_columns",
    "formation_caption",
    "formation_svg",
    "show_analysis",
    "show_board",
    "show_cards",
    "show_formation",
]

CARD_W = 58
CARD_H = 40
#: The font size of a troop's name on a card: never under 11 px, however small the card
NAME_SIZE = 11
GAP = 4
COLUMN = 68
MARGIN = 10
LABEL_H = 16
CLAIM_H = 30
FLAG_ROW_H = 36
WIDTH = 2 * MARGIN + COLUMN * 9

#: The largest width the board is drawn at (it shrinks with its container below that).
BOARD_MAX_WIDTH = 820

#: The one palette of the six troop colours (board, hand buttons, explorer) and the text colour
#: on each.  Red reads as red and orange as orange, and every pair stays at least 15 CIEDE2000
#: apart with normal vision and simulated protanopia, deuteranopia and tritanopia (Machado 2009,
#: severity 1; ``tests/test_palette.py``); each card also carries its colour letter.
COLOURS: Mapping[Colour, tuple[str, str]] = {
    Colour.RED: ("#c70000", "#ffffff"),
    Colour.ORANGE: ("#e28505", "#000000"),
    Colour.YELLOW: ("#fbe900", "#000000"),
    Colour.GREEN: ("#287953", "#ffffff"),
    Colour.BLUE: ("#3a8af5", "#000000"),
    Colour.PURPLE: ("#712686", "#ffffff"),
}
#: Tactics cards by group (fill, text), on the board and on hand buttons alike.
TACTIC_COLOURS: Mapping[TacticGroup, tuple[str, str]] = {
    TacticGroup.MORALE: ("#3b3b3b", "#ffd54f"),
    TacticGroup.ENVIRONMENT: ("#cfd8dc", "#263238"),
    TacticGroup.GUILE: ("#ece4d2", "#3e2723"),
}
_TACTIC_FILL = TACTIC_COLOURS
_TABLE = "#f4f1e8"
_INK = "#222222"
_HIGHLIGHT = "#ff00aa"
_FONT = "font-family:DejaVu Sans,Verdana,sans-serif"


def escape(text: object) -> str:
    """Text for SVG/HTML content or attributes, quotes included.

    >>> escape('<img src=x onerror=alert(1)> "a" & b')
    '&lt;img src=x onerror=alert(1)&gt; &quot;a&quot; &amp; b'
    """
    return html.escape(str(text), quote=True)


def flag_grid_columns() -> str:
    """CSS ``grid-template-columns`` that puts eleven cells over the board: margin, nine flags, margin.

    The one layout source for controls tied to flags (the game's Flag and Claim buttons, the
    puzzle's flag toggles): the tracks are the board's own geometry in ``fr`` units, so at any
    width the n-th button sits under the n-th flag column of the board drawn at the same width.

    >>> flag_grid_columns()
    'minmax(0, 10fr) repeat(9, minmax(0, 68fr)) minmax(0, 10fr)'
    """
    return f"minmax(0, {MARGIN}fr) repeat(9, minmax(0, {COLUMN}fr)) minmax(0, {MARGIN}fr)"


def _description(position: Position, lang: str) -> str:
    """The board in words for a screen reader: every flag's cards, then discards and hands."""
    sep = message("a11y.card_sep", lang)
    none = message("a11y.board.desc.none", lang)

    def cards(items: Sequence[Card]) -> str:
        return sep.join(card_label(c, lang) for c in items) or none

    lines = []
    for n, state in zip(FLAGS, position.flags):
        claimed = "" if state.claimed_by is None else message(f"a11y.board.desc.claimed.{state.claimed_by.value}", lang)
        if state.is_empty and not claimed:
            continue
        lines.append(
            message(
                "a11y.board.desc.flag",
                lang,
                flag=n,
                claimed=claimed,
                you=cards(state.cards(Side.YOU)),
                opponent=cards(state.cards(Side.OPPONENT)),
            )
        )
    rows = (
        ("board.discards.opponent", position.discards_opponent),
        ("board.discards.you", position.discards_you),
        ("board.hand.opponent", position.hand_opponent),
        ("board.hand.you", position.hand_you),
    )
    for key, row in rows:
        if row:
            lines.append(message("a11y.board.desc.row", lang, title=message(key, lang), cards=cards(row)))
    return " ".join(lines)


def card_svg(
    card: Card,
    x: int,
    y: int,
    *,
    highlight: bool = False,
    ghost: bool = False,
    lang: str = DEFAULT_LANGUAGE,
    theme: Theme | str | None = None,
    extra_class: str = "",
) -> str:
    """One card as an SVG group at (x, y), ``CARD_W`` x ``CARD_H`` pixels.

    A troop shows its value, its colour letter and its troop name; a morale
    card (wild) a star, an environment card a dashed border.  ``ghost`` draws a
    card that *could* still come (a counterexample), ``highlight`` a card the
    current proof step talks about.

    >>> from battleline_lab import parse_card
    >>> print(card_svg(parse_card("b8"), 0, 0).splitlines()[0])
    <g class="bl-card bl-troop bl-colour-b" data-card="b8" role="img" aria-label="blue 8, Heavy Cavalry">
    >>> 'bl-ghost' in card_svg(parse_card("b9"), 0, 0, ghost=True)
    True
    """
    lang = themed(lang, theme)
    label = card_label(card, lang)
    classes = ["bl-card"]
    if isinstance(card, Troop):
        classes += ["bl-troop", f"bl-colour-{card.colour.letter}"]
    else:
        classes += [f"bl-tactic bl-{card.group.value}"]
        if card.is_wild:
            classes.append("bl-wild")
    if ghost:
        classes.append("bl-ghost")
        label = message("board.ghost_label", lang, card=label)
    if highlight:
        classes.append("bl-highlight")
    if extra_class:
        classes.append(extra_class)
    parts = [
        f'<g class="{" ".join(classes)}" data-card="{escape(card.notation)}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    opacity = ' opacity="0.55"' if ghost else ""
    dash = ' stroke-dasharray="4 3"' if ghost else ""
    if isinstance(card, Troop):
        fill, ink = COLOURS[card.colour]
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" '
            f'stroke="{_INK}" stroke-width="1"{dash}{opacity}/>'
        )
        parts.append(
            f'<text x="{x + 5}" y="{y + 17}" font-size="16" font-weight="bold" fill="{ink}"{opacity}>'
            f"{card.value}</text>"
        )
        letter = escape(message(f"board.letter.{card.colour.letter}", lang))
        parts.append(
            f'<circle cx="{x + CARD_W - 11}" cy="{y + 11}" r="8" fill="#ffffff" stroke="{_INK}" '
            f'stroke-width="0.8"{opacity}/>'
        )
        parts.append(
            f'<text x="{x + CARD_W - 11}" y="{y + 15}" font-size="11" font-weight="bold" text-anchor="middle" '
            f'fill="{_INK}"{opacity}>{letter}</text>'
        )
        name = message(f"troop.{card.value}", lang)
        parts.append(
            f'<text class="bl-troop-name" x="{x + CARD_W // 2}" y="{y + CARD_H - 5}" font-size="{NAME_SIZE}" '
            f'text-anchor="middle"{_fit(name)} fill="{ink}"{opacity}>{escape(name)}</text>'
        )
    else:
        fill, ink = _TACTIC_FILL[card.group]
        env_dash = ' stroke-dasharray="3 2"' if card.is_environment else dash
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" '
            f'stroke="{_INK}" stroke-width="1.2"{env_dash}{opacity}/>'
        )
        mark = "\u2605" if card.is_wild else ("\u2601" if card.is_environment else "\u2694")
        parts.append(
            f'<text x="{x + 5}" y="{y + 15}" font-size="12" fill="{ink}"{opacity}>{mark}</text>'
            f'<text x="{x + CARD_W - 5}" y="{y + 15}" font-size="8" text-anchor="end" fill="{ink}"{opacity}>'
            f"{escape(message(f'board.tactic_value.{card.value}', lang))}</text>"
        )
        parts.append(
            f'<text x="{x + CARD_W // 2}" y="{y + CARD_H - 8}" font-size="8.5" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}"{opacity}>{escape(message(f"board.short.{card.value}", lang))}</text>'
        )
    if highlight:
        parts.append(
            f'<rect class="bl-highlight-ring" x="{x - 2}" y="{y - 2}" width="{CARD_W + 4}" height="{CARD_H + 4}" '
            f'rx="7" fill="none" stroke="{_HIGHLIGHT}" stroke-width="3"/>'
        )
    parts.append("</g>")
    return "\n".join(parts)


def _fit(text: str, size: float = NAME_SIZE) -> str:
    """The attributes that keep a long name inside a card at its full font size: its glyphs pressed
    together (``lengthAdjust``) to the card's width when it would be wider; nothing for a short one.

    >>> _fit("Heavy Cavalry"), _fit("战车")
    (' textLength="52" lengthAdjust="spacingAndGlyphs"', '')
    """
    room = CARD_W - 6
    wide = sum(size if ord(ch) > 0x2E7F else size * 0.56 for ch in text)  # CJK glyphs are square, Latin ~0.56 em
    return f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if wide > room else ""


@dataclass(frozen=True)
class _Layout:
    """Vertical positions of the board's bands (computed once per board)."""

    opp_hand: int | None
    opp_discards: int
    opp_claim: int
    opp_rows: int
    opp_top: int
    flag_row: int
    you_top: int
    you_rows: int
    you_claim: int
    you_discards: int
    you_hand: int | None
    height: int


def _wrap_rows(count: int) -> int:
    per_row = (WIDTH - 2 * MARGIN) // (CARD_W + GAP)
    return max(1, -(-count // per_row))


def _row_height(cards: Sequence[Card]) -> int:
    """A labelled row of cards; an empty one is just its label ("none")."""
    return LABEL_H + (_wrap_rows(len(cards)) * (CARD_H + GAP) if cards else GAP)


def _claim_band(position: Position, side: Side) -> int:
    """Room for claimed pennants beyond a side's cards, only if that side holds a flag (R15)."""
    return CLAIM_H if position.claimed(side) else 2 * GAP


def _layout(position: Position, ghosts: Mapping[tuple[int, Side], Sequence[Card]]) -> _Layout:
    # an empty table is drawn compact: one row a side, no room kept for cards that are not there
    empty = not ghosts and all(s.is_empty for s in position.flags)

    def rows(side: Side) -> int:
        most = max(len(s.cards(side)) + len(ghosts.get((n, side), ())) for n, s in zip(FLAGS, position.flags))
        base = 1 if empty else 4 if any(s.mud for s in position.flags) else 3
        return max(base, most)

    y = MARGIN
    opp_hand = None
    if position.hand_opponent:
        opp_hand = y
        y += LABEL_H + _wrap_rows(len(position.hand_opponent)) * (CARD_H + GAP)
    opp_discards = y
    y += _row_height(position.discards_opponent)
    opp_claim = y
    y += _claim_band(position, Side.OPPONENT)
    opp_rows = rows(Side.OPPONENT)
    opp_top = y
    y += opp_rows * (CARD_H + GAP)
    flag_row = y
    y += FLAG_ROW_H
    you_rows = rows(Side.YOU)
    you_top = y + GAP
    y += GAP + you_rows * (CARD_H + GAP)
    you_claim = y
    y += _claim_band(position, Side.YOU)
    you_discards = y
    y += _row_height(position.discards_you)
    you_hand = None
    if position.hand_you:
        you_hand = y
        y += LABEL_H + _wrap_rows(len(position.hand_you)) * (CARD_H + GAP)
    return _Layout(
        opp_hand,
        opp_discards,
        opp_claim,
        opp_rows,
        opp_top,
        flag_row,
        you_top,
        you_rows,
        you_claim,
        you_discards,
        you_hand,
        y + MARGIN - GAP,
    )


def _row(
    title: str,
    cards: Sequence[Card],
    y: int,
    css: str,
    highlight: Collection[Card],
    lang: str,
) -> list[str]:
    out = [f'<g class="{css}">']
    if not cards:
        title = message("board.row_empty", lang, title=title)
    out.append(f'<text x="{MARGIN}" y="{y + 12}" font-size="11" fill="{_INK}">{escape(title)}</text>')
    per_row = (WIDTH - 2 * MARGIN) // (CARD_W + GAP)
    for i, card in enumerate(cards):
        cx = MARGIN + (i % per_row) * (CARD_W + GAP)
        cy = y + LABEL_H + (i // per_row) * (CARD_H + GAP)
        out.append(card_svg(card, cx, cy, highlight=card in highlight, lang=lang))
    out.append("</g>")
    return out


def _pennant(x: int, y: int, number: int, owner: Side | None, lang: str) -> str:
    """The flag token: a pole and a pennant with the flag's number."""
    if owner is None:
        fill, css, label = "#ffffff", "bl-flag-token", message("board.flag", lang, flag=number)
    else:
        fill = "#2e7d32" if owner is Side.YOU else "#b71c1c"
        css = f"bl-flag-token bl-claimed bl-claimed-{owner.value}"
        label = message(f"board.flag_claimed.{owner.value}", lang, flag=number)
    ink = _INK if owner is None else "#ffffff"
    return (
        f'<g class="{css}" role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<line x1="{x}" y1="{y}" x2="{x}" y2="{y + 26}" stroke="{_INK}" stroke-width="1.8"/>'
        f'<path d="M{x} {y} L{x + 30} {y + 9} L{x} {y + 18} Z" fill="{fill}" stroke="{_INK}" stroke-width="1"/>'
        f'<text x="{x + 10}" y="{y + 13}" font-size="11" font-weight="bold" text-anchor="middle" '
        f'fill="{ink}">{number}</text></g>'
    )


def _first_mark(x: int, y: int, number: int, side: Side, lang: str) -> str:
    """The small "1st" badge on the side that completed a flag first: it decides a tie (R11)."""
    label = message(f"course.first.label.{side.value}", lang, flag=number)
    return (
        f'<g class="bl-first-complete bl-first-complete-{side.value}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<rect x="{x}" y="{y}" width="22" height="13" rx="6" fill="#1f3b73" stroke="#ffffff" stroke-width="1"/>'
        f'<text x="{x + 11}" y="{y + 10}" font-size="8.5" font-weight="bold" text-anchor="middle" '
        f'fill="#ffffff">{escape(message("course.first.mark", lang))}</text></g>'
    )


def board_svg(
    position: Position,
    *,
    highlight: Iterable[Card] = (),
    ghosts: Mapping[tuple[int, Side], Sequence[Card]] | None = None,
    focus: Iterable[int] = (),
    lang: str = DEFAULT_LANGUAGE,
    theme: Theme | str | None = None,
) -> str:
    """The whole board: nine flags, both sides, claimed flags, discards and hands.

    The opponent sits at the top, you at the bottom; each side's first card lies
    next to the flag (R3, R6).  A claimed flag's pennant moves to its owner's
    side (R15).  ``highlight`` marks cards wherever they lie (flags, discards,
    hand), ``ghosts`` adds dashed cards that could still come to a side of a
    flag (a counterexample, R12), ``focus`` shades the flags a question is
    about.  On an unclaimed flag where a side is complete, a "1st" badge
    (``bl-first-complete-you|opponent``, titled) marks the side that
    completed first, which wins a tie there (R11).

    >>> tie = Position.build({3: {"you": "g4 g5 g6", "opponent": "y4 y5 y6", "first_complete": "opponent"}})
    >>> svg = board_svg(tie)
    >>> svg.count("bl-first-complete-opponent"), "the opponent completed their side first" in svg
    (1, True)
    >>> from battleline_lab import Position, Side, parse_cards
    >>> pos = Position.build({1: {"you": "r1 r2 r3", "opponent": "b1", "claimed_by": "you"}})
    >>> svg = board_svg(pos, ghosts={(1, Side.OPPONENT): parse_cards("b2 b3")})
    >>> svg.count("bl-ghost"), "bl-claimed-you" in svg
    (2, True)
    """
    lang = themed(lang, theme)
    highlight = frozenset(highlight)
    ghosts = ghosts or {}
    focus = frozenset(focus)
    lay = _layout(position, ghosts)
    out = [
        # as wide as its container up to BOARD_MAX_WIDTH, the height following the viewBox
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bl-board" width="100%" '
        f'viewBox="0 0 {WIDTH} {lay.height}" role="img" aria-label="{escape(message("board.label", lang))}" '
        f'style="{_FONT};max-width:{BOARD_MAX_WIDTH}px;height:auto;display:block">',
        f"<title>{escape(message('board.label', lang))}</title>",
        f"<desc>{escape(_description(position, lang))}</desc>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{lay.height}" rx="8" fill="{_TABLE}"/>',
    ]
    if lay.opp_hand is not None:
        out += _row(
            message("board.hand.opponent", lang),
            position.hand_opponent,
            lay.opp_hand,
            "bl-hand bl-hand-opponent",
            highlight,
            lang,
        )
    out += _row(
        message("board.discards.opponent", lang),
        position.discards_opponent,
        lay.opp_discards,
        "bl-discards bl-discards-opponent",
        highlight,
        lang,
    )
    for n, state in zip(FLAGS, position.flags):
        col_x = MARGIN + (n - 1) * COLUMN
        card_x = col_x + (COLUMN - CARD_W) // 2
        classes = f"bl-flag bl-flag-{n}" + (" bl-focus" if n in focus else "")
        out.append(f'<g class="{classes}" data-flag="{n}">')
        if n in focus:
            top = lay.opp_claim
            out.append(
                f'<rect class="bl-focus-band" x="{col_x + 1}" y="{top}" width="{COLUMN - 2}" '
                f'height="{lay.you_discards - top}" rx="6" fill="#fff3b0" stroke="#c9a400" stroke-width="1"/>'
            )
        for side in Side:
            cards = list(state.cards(side))
            ghost_cards = list(ghosts.get((n, side), ()))
            css = f"bl-side bl-side-{side.value}"
            out.append(f'<g class="{css}">')
            for i, card in enumerate(cards + ghost_cards):
                if side is Side.OPPONENT:
                    y = lay.flag_row - GAP - (i + 1) * (CARD_H + GAP) + GAP
                else:
                    y = lay.you_top + i * (CARD_H + GAP)
                is_ghost = i >= len(cards)
                out.append(
                    card_svg(card, card_x, y, highlight=card in highlight and not is_ghost, ghost=is_ghost, lang=lang)
                )
            out.append("</g>")
        pole_x = col_x + COLUMN // 2 - 12
        if state.claimed_by is None:
            out.append(_pennant(pole_x, lay.flag_row + 4, n, None, lang))
            first = state.completed_first
            if first is not None:  # who completed first decides a tie here (R11)
                mark_y = lay.flag_row - 3 if first is Side.OPPONENT else lay.flag_row + FLAG_ROW_H - 13
                out.append(_first_mark(col_x + COLUMN - 23, mark_y, n, first, lang))
        else:
            # the empty place where the flag stood, and the flag on its owner's side (R15)
            out.append(
                f'<text x="{col_x + COLUMN // 2}" y="{lay.flag_row + 21}" font-size="10" text-anchor="middle" '
                f'fill="#999999">{n}</text>'
            )
            y = lay.opp_claim if state.claimed_by is Side.OPPONENT else lay.you_claim
            out.append(_pennant(pole_x, y, n, state.claimed_by, lang))
        out.append("</g>")
    out += _row(
        message("board.discards.you", lang),
        position.discards_you,
        lay.you_discards,
        "bl-discards bl-discards-you",
        highlight,
        lang,
    )
    if lay.you_hand is not None:
        out += _row(
            message("board.hand.you", lang), position.hand_you, lay.you_hand, "bl-hand bl-hand-you", highlight, lang
        )
    out.append("</svg>")
    return "\n".join(out)


def cards_svg(
    cards: Sequence[Card],
    *,
    ghosts: Sequence[Card] = (),
    highlight: Iterable[Card] = (),
    caption: str = "",
    lang: str = DEFAULT_LANGUAGE,
    theme: Theme | str | None = None,
) -> str:
    """A row of cards (then ghost cards) with an optional caption underneath.

    >>> from battleline_lab import parse_cards
    >>> cards_svg(parse_cards("r3 r4"), caption="<b>").count("&lt;b&gt;")
    1
    """
    lang = themed(lang, theme)
    highlight = frozenset(highlight)
    every = list(cards) + list(ghosts)
    # wide enough for the caption too (about 7 px a character at 12 px)
    width = max(max(1, len(every)) * (CARD_W + GAP) - GAP, 7 * len(caption)) + 2 * MARGIN
    height = CARD_H + 2 * MARGIN + (18 if caption else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bl-cards" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="{_FONT}">'
    ]
    for i, card in enumerate(every):
        is_ghost = i >= len(cards)
        out.append(
            card_svg(
                card,
                MARGIN + i * (CARD_W + GAP),
                MARGIN,
                ghost=is_ghost,
                highlight=card in highlight and not is_ghost,
                lang=lang,
            )
        )
    if caption:
        out.append(
            f'<text class="bl-caption" x="{MARGIN}" y="{MARGIN + CARD_H + 15}" font-size="12" fill="{_INK}">'
            f"{escape(caption)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)


def formation_caption(formation: Formation, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """``Wedge, sum 12`` plus what each wildcard became.

    >>> from battleline_lab import evaluate
    >>> formation_caption(evaluate("alexander g5 g6"))
    'Wedge, sum 18 (Alexander as g7)'
    """
    lang = themed(lang, theme)
    if formation.kind is None:  # Fog: only the sum counts (R24)
        text = message("board.formation.fog", lang, total=formation.total)
    else:
        text = message("board.formation", lang, kind=kind_name(formation.kind, lang), total=formation.total)
    if formation.wild:
        items = ", ".join(
            message("board.wild_as", lang, card=card_label(c, lang), troop=card_short(t, lang))
            for c, t in formation.wild
        )
        text += message("board.wild_note", lang, items=items)
    return text


def formation_svg(formation: Formation, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """A formation's cards and what they make (kind, sum, wildcards).

    >>> from battleline_lab import evaluate
    >>> "Wedge, sum 12" in formation_svg(evaluate("r3 r4 r5"))
    True
    """
    lang = themed(lang, theme)
    return cards_svg(formation.cards, caption=formation_caption(formation, lang), lang=lang)


def _their_cards(analysis: ClaimAnalysis) -> tuple[Card, ...]:
    for step in analysis.steps:
        if step.reason in (Reason.THEY_NEED, Reason.THEIR_FORMATION):
            return step.cards
    return ()


#: The rules page beside the lessons (``notebooks/rules.md``, one ``### Rn`` heading per rule), as a
#: link from any lesson: JupyterLab and the site resolve ``/`` to the folder of the lessons.
RULES_PAGE = "/rules.md"
_RULE_ID = re.compile(r"\[(R\d+)\]")


def _rule_links(text: str, rules: str | None) -> str:
    """Each ``[R12]`` of an escaped proof step as a link to its rule on the ``rules`` page (None: as it is)."""
    if rules is None:
        return text
    return _RULE_ID.sub(lambda m: f'[<a class="bl-rule" href="{rules}#{m.group(1)}">{m.group(1)}</a>]', text)


def analysis_html(
    analysis: ClaimAnalysis, lang: str = DEFAULT_LANGUAGE, *, rules: str | None = None, theme: Theme | str | None = None
) -> str:
    """A claim proof: both sides of the flag (counterexample as ghosts) and the numbered steps.

    ``rules``: where the rules page is (:data:`RULES_PAGE` in the lessons): each rule id of a step
    then links to its rule; ``None`` (a page of its own, as ``battleline-lab show`` writes) leaves them text.

    >>> from battleline_lab import Position, analyse_claim
    >>> out = analysis_html(analyse_claim(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}), 5))
    >>> out.count("bl-ghost"), "<ol" in out
    (2, True)
    """
    lang = themed(lang, theme)
    mine = analysis.formation.cards if analysis.formation is not None else ()
    for step in analysis.steps:
        if step.reason is Reason.SIDE_INCOMPLETE:
            mine = step.cards
    theirs = _their_cards(analysis)
    me = message(f"side.{analysis.side.value}", lang)
    verdict = "yes" if analysis.claimable else "no"
    title = message(f"explain.verdict.{verdict}", lang, me=me, flag=analysis.flag)
    parts = [
        f'<div class="bl-analysis bl-verdict-{verdict}">',
        f"<p><strong>{escape(title[:1].upper() + title[1:])}</strong></p>",
        '<div class="bl-analysis-sides">',
        cards_svg(
            theirs,
            ghosts=analysis.counterexample,
            caption=message(f"board.side_of.{analysis.side.other.value}", lang),
            lang=lang,
        ),
        cards_svg(mine, caption=message(f"board.side_of.{analysis.side.value}", lang), lang=lang),
        "</div>",
        '<ol class="bl-steps">',
    ]
    for line in render_analysis(analysis, lang):
        # render_analysis numbers the lines itself; the list shows them as they are
        text = line.split(". ", 1)[1] if ". " in line else line
        parts.append(f"<li>{_rule_links(escape(text), rules)}</li>")
    parts += ["</ol>", "</div>"]
    return "\n".join(parts)


def position_analysis_html(
    analysis: PositionAnalysis, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None
) -> str:
    """The board with the flags the side to move can claim shaded, and both sides' claimable flags.

    >>> from battleline_lab import Position, analyse_position
    >>> out = position_analysis_html(analyse_position(Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})))
    >>> "Flags you can claim now: 5" in out and "bl-focus" in out
    True
    """
    lang = themed(lang, theme)
    position = analysis.position
    lines = []
    for side in (position.turn, position.turn.other):
        flags = ", ".join(str(n) for n in analysis.claimable(side)) or message("course.analysis.none", lang)
        lines.append(f"<li>{escape(message(f'course.analysis.claimable.{side.value}', lang, flags=flags))}</li>")
    board = board_svg(position, focus=analysis.claimable(position.turn), lang=lang)
    return f'<div class="bl-position-analysis">\n{board}\n<ul>{"".join(lines)}</ul>\n</div>'


def comparison_html(comparison: Comparison, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """Two complete formations side by side (the one completed first says so) and which wins, by which rule.

    >>> from battleline_lab.quiz.questions import question_from_data
    >>> q = question_from_data({"kind": "compare", "a": ["r5", "r6", "r7"], "b": ["g5", "g6", "g7"],
    ...                         "first_complete": "b"})
    >>> out = comparison_html(q.explain(Position()))
    >>> "B, completed first" in out and "Formation B wins: R11" in out
    True
    """
    lang = themed(lang, theme)
    parts = ['<div class="bl-comparison">']
    for which, formation in (("A", comparison.a), ("B", comparison.b)):
        caption = which
        if comparison.first_complete == which.lower():
            caption = message("course.first.caption", lang, which=which)
        caption += ": " + formation_caption(formation, lang)
        parts.append(cards_svg(formation.cards, caption=caption, lang=lang))
    winner = message("compare.winner", lang, which=comparison.winner.upper(), rule=comparison.rule)
    parts += [f"<p><strong>{escape(winner)}</strong></p>", "</div>"]
    return "\n".join(parts)


@dataclass(frozen=True)
class Picture:
    """A drawing for notebooks: Jupyter shows the picture, anything else its readable ``text``.

    Unlike ``IPython.display.SVG``, whose plain-text form is ``<IPython.core.display.SVG
    object>``, a saved output of a :class:`Picture` reads as card notation or as the proof's
    lines wherever the picture itself is not shown.  ``html`` says the markup is HTML (a proof),
    not a bare SVG.

    >>> from battleline_lab import parse_cards
    >>> pic = show_cards(parse_cards("r3 r4 r5"))
    >>> pic
    r3 r4 r5
    >>> pic._repr_svg_().startswith("<svg"), pic._repr_html_()
    (True, None)
    """

    markup: str
    text: str
    html: bool = False

    def _repr_svg_(self) -> str | None:
        return None if self.html else self.markup

    def _repr_html_(self) -> str | None:
        return self.markup if self.html else None

    def __repr__(self) -> str:
        return self.text


def show_board(
    position: Position, *, lang: str = DEFAULT_LANGUAGE, theme: Theme | str | None = None, **options: Any
) -> Picture:
    """The board (:func:`board_svg`, same options) as a :class:`Picture`; its text is the position in card notation."""
    lang = themed(lang, theme)
    return Picture(board_svg(position, lang=lang, **options), repr(position))


def show_cards(
    cards: Sequence[Card], *, caption: str = "", lang: str = DEFAULT_LANGUAGE, theme: Theme | str | None = None
) -> Picture:
    """A row of cards (:func:`cards_svg`) as a :class:`Picture`; its text is the cards' notation."""
    lang = themed(lang, theme)
    text = " ".join(c.notation for c in cards) + (f": {caption}" if caption else "")
    return Picture(cards_svg(cards, caption=caption, lang=lang), text)


def show_formation(formation: Formation, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> Picture:
    """A formation (:func:`formation_svg`) as a :class:`Picture`: ``r3 r4 r5: Wedge, sum 12``.

    >>> from battleline_lab import evaluate
    >>> show_formation(evaluate("r3 r4 r5"), "zh")
    r3 r4 r5: 楔形阵，总和12
    """
    lang = themed(lang, theme)
    text = " ".join(c.notation for c in formation.cards) + ": " + formation_caption(formation, lang)
    return Picture(formation_svg(formation, lang), text)


def show_analysis(
    analysis: ClaimAnalysis, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None
) -> Picture:
    """A claim proof (:func:`analysis_html`) as a :class:`Picture`; its text is the numbered proof."""
    lang = themed(lang, theme)
    return Picture(analysis_html(analysis, lang, rules=RULES_PAGE), analysis.explain(lang), html=True)


# -- the rating chart (the trainer's gym) ------------------------------------------------------


def rating_chart_svg(history: Sequence[float], *, title: str = "", width: int = 360, height: int = 120) -> str:
    """A small line chart of the rating after each rated puzzle, as SVG text (deterministic).

    ``title`` is the accessible label (already in the learner's language; escaped here).

    >>> svg = rating_chart_svg([1500, 1580, 1540], title="Rating <3")
    >>> svg.startswith("<svg") and "Rating &lt;3" in svg and svg.count("<circle") == 3
    True
    """
    pad = 28
    points = [1500.0, *history]
    low, high = min(points), max(points)
    if high - low < 100:
        mid = (high + low) / 2
        low, high = mid - 50, mid + 50
    inner_w, inner_h = width - 2 * pad, height - 2 * 12

    def xy(i: int, value: float) -> tuple[float, float]:
        x = pad + (inner_w * i / max(1, len(points) - 1))
        y = 12 + inner_h * (high - value) / (high - low)
        return round(x, 1), round(y, 1)

    coords = [xy(i, v) for i, v in enumerate(points)]
    path = " ".join(f"{x},{y}" for x, y in coords)
    label = html.escape(title, quote=True)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bl-rating-chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{label}"><title>{label}</title>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa" stroke="#ddd"/>',
        f'<text x="4" y="16" font-size="10" fill="#555">{round(high)}</text>',
        f'<text x="4" y="{height - 6}" font-size="10" fill="#555">{round(low)}</text>',
        f'<polyline fill="none" stroke="#1565c0" stroke-width="2" points="{path}"/>',
    ]
    parts += [f'<circle cx="{x}" cy="{y}" r="2.5" fill="#1565c0"/>' for x, y in coords[1:]]
    parts.append("</svg>")
    return "".join(parts)
