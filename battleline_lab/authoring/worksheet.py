"""``battleline-lab worksheet``: puzzles as a print-ready page for a class, with an answer key.

One HTML document, made for printing (A4, print CSS): the puzzles numbered,
``--per-page`` 1, 2, 4 or 6 to a sheet (a class of 25 and 12 puzzles: 75 sheets
at 4, not 300), each with its title, the question (once), the board and a box to
write the answer in (a cell never cuts them: the board takes the room the text leaves, and a
puzzle too tall for one cell takes two, :func:`sheet_layout`); a question page holds no rule
hint and no file path.  Then
the **answer key** on pages of its own, each answer with a
short proof (the claim proof's steps with their rule ids, the comparison or the
formation).  ``answers``: ``end`` (the key after the questions, starting on a
new page), ``separate`` (the key in a second file, ``NAME.key.html``) or
``none``.  Like ``battleline-lab show`` the page runs no script, loads nothing
and escapes every text an author wrote.

>>> from battleline_lab.quiz.loader import load_puzzle_text
>>> p = load_puzzle_text("title: <i>Wedge</i>\\nflags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\\n"
...                      "question: {kind: claim, flag: 5}\\nanswer: true\\n", "p.yaml")
>>> sheet = worksheet_html([p])
>>> "&lt;i&gt;Wedge&lt;/i&gt;" in sheet, "<script" in sheet, sheet.count('class="bl-sheet-puzzle"')
(True, False, 1)
>>> sheet.index("bl-key") > sheet.index("bl-sheet-puzzle")
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from ..core.claims import UndecidedTieError
from ..quiz.puzzle import Puzzle
from ..render.svg import escape
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .preview import _CSP, _answer_text, _focus, _question_html, _who, question_board_svg, question_once

__all__ = [
    "ANSWERS",
    "PER_PAGE",
    "Cell",
    "answer_key_html",
    "is_tall",
    "key_entries",
    "key_path",
    "sheet_layout",
    "worksheet_html",
]


#: Where the answer key goes.
ANSWERS = ("end", "separate", "none")
#: Puzzles on one printed sheet.
PER_PAGE = (1, 2, 4, 6)

_CSS = """
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
  sans-serif; color: #000; background: #fff; margin: 0; }
main { max-width: 700px; margin: 0 auto; padding: 12px 20px; }
h1 { font-size: 1.35em; margin: 0 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 1.1em; margin: 0 0 8px; overflow-wrap: anywhere; }
.bl-sheet-head { color: #333; font-size: 0.9em; margin: 0 0 8px; }
.bl-sheet-page { break-after: page; page-break-after: always; display: grid; gap: 4mm; }
.bl-sheet-puzzle { break-inside: avoid; padding-top: 4px; overflow: hidden; }
.bl-per-2 { grid-template-rows: repeat(2, 116mm); }
.bl-per-4 { grid-template-columns: 1fr 1fr; grid-template-rows: repeat(2, 116mm); font-size: 0.85em; }
.bl-per-6 { grid-template-columns: 1fr 1fr; grid-template-rows: repeat(3, 76mm); font-size: 0.75em; }
[data-cell~="r1"] { grid-row-start: 1; } [data-cell~="r2"] { grid-row-start: 2; }
[data-cell~="r3"] { grid-row-start: 3; }
[data-cell~="c1"] { grid-column: 1; } [data-cell~="c2"] { grid-column: 2; }
[data-cell~="double"] { grid-row-end: span 2; }
.bl-per-4 .bl-cards svg, .bl-per-6 .bl-cards svg, .bl-per-4 > section svg, .bl-per-6 > section svg { max-width: 100%;
  height: auto; }
.bl-per-2 .bl-space, .bl-per-4 .bl-space { min-height: 18mm; }
.bl-per-6 .bl-space { min-height: 10mm; margin-top: 4px; }
/* a cell's height is fixed: the board takes what the title, the question and the answer box leave */
.bl-per-2 .bl-sheet-puzzle, .bl-per-4 .bl-sheet-puzzle, .bl-per-6 .bl-sheet-puzzle { display: flex;
  flex-direction: column; min-height: 0; }
.bl-per-2 .bl-sheet-puzzle > *, .bl-per-4 .bl-sheet-puzzle > *, .bl-per-6 .bl-sheet-puzzle > * { flex: none; }
.bl-per-2 .bl-board-wrap, .bl-per-4 .bl-board-wrap, .bl-per-6 .bl-board-wrap { flex: 0 1 auto; min-height: 0;
  display: flex; }
.bl-per-2 .bl-board-wrap svg, .bl-per-4 .bl-board-wrap svg { max-width: 100%; max-height: min(100%, 68mm); }
.bl-per-6 .bl-board-wrap svg { max-width: 100%; max-height: min(100%, 40mm); }
.bl-question { font-size: 1.1em; font-weight: bold; }
.bl-board-wrap svg { max-width: 100%; height: auto; }
.bl-space { border: 1px solid #777; border-radius: 4px; min-height: 42mm; margin-top: 10px; padding: 6px 10px;
  color: #555; }
.bl-key { break-before: page; page-break-before: always; }
.bl-key ol { padding-left: 1.6em; }
.bl-key ol.bl-digits-2 { padding-left: 2.2em; } .bl-key ol.bl-digits-3 { padding-left: 2.8em; }
.bl-key ol.bl-digits-4 { padding-left: 3.4em; }
.bl-key li { margin: 0 0 10px; break-inside: avoid; }
.bl-key .bl-proof { font-size: 0.8em; color: #222; margin: 3px 0 0; padding-left: 0.6em; list-style: none; }
.bl-key .bl-proof li { margin: 1px 0; }
footer { color: #555; font-size: 0.75em; margin-top: 10px; }
@page { size: A4; margin: 14mm; }
@media print { main { max-width: none; padding: 0; } }
"""


_m = scoped("teachers.worksheet")


def _document(title: str, body: list[str], lang: str) -> str:
    head = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
    ]
    return "\n".join([*head, *body, "</main>", "</body>", "</html>"]) + "\n"


def _question_page(number: int, puzzle: Puzzle, lang: str, cell: str = "") -> str:
    """One puzzle's box: number and title, the question once, the board without rule hints, space to answer."""
    position = puzzle.position
    title = puzzle.title_before_answer(lang)
    parts = [
        '<section class="bl-sheet-puzzle"' + (f' data-cell="{cell}">' if cell else ">"),
        f"<h2>{escape(_m('number', lang, number=number, title=title))}</h2>",
        *question_once(title, _question_html(puzzle, lang)),
    ]
    if any(not s.is_empty for s in position.flags) or position.discards_you or position.discards_opponent:
        parts += [
            f"<p>{escape(message('authoring.preview.turn', lang, who=_who(position.turn, lang)))}</p>",
            '<div class="bl-board-wrap">',
            question_board_svg(position, focus=_focus(puzzle), lang=lang),
            "</div>",
        ]
    parts += [f'<div class="bl-space">{escape(_m("your_answer", lang))}</div>', "</section>"]
    return "\n".join(parts)


#: The grid of a sheet, ``(rows, columns)``, for each number of puzzles to a sheet (one: a page of its own).
GRID = {1: (1, 1), 2: (2, 1), 4: (2, 2), 6: (3, 2)}
#: About how many characters of the title or the question fill one line of a cell, and how many
#: lines of them (with a board, without one) leave no room in one cell: the board too small to
#: read, or the answer box pushed out.  Past that a puzzle takes a double cell.  Measured by
#: printing the library (tests/browser/test_worksheet_pdf.py checks every cell).
_LINE = {2: 80, 4: 38, 6: 44}
_TALL = {2: (5, 20), 4: (5, 20), 6: (4, 9)}
#: A picture in the question (the card to play, the cards to rank) takes about this many lines.
_PICTURE_LINES = 3


class Cell(NamedTuple):
    """Where one puzzle sits on its sheet: its number, its row and column, and whether it takes two rows."""

    number: int
    row: int
    column: int
    double: bool

    @property
    def words(self) -> str:
        """The cell's ``data-cell`` (the sheet's CSS places it by these words)."""
        return f"r{self.row} c{self.column}" + (" double" if self.double else "")


def _has_board(puzzle: Puzzle) -> bool:
    position = puzzle.position
    return any(not s.is_empty for s in position.flags) or bool(position.discards_you or position.discards_opponent)


def text_lines(puzzle: Puzzle, per_page: int, lang: str = DEFAULT_LANGUAGE) -> int:
    """About how many lines the title and the question take in a cell, at ``per_page`` to a sheet."""
    width = _LINE[per_page]
    title = puzzle.title_before_answer(lang)
    parts = question_once(title, _question_html(puzzle, lang))
    joined = "".join(parts)
    pictures = joined.count("<svg")
    words = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<svg.*?</svg>", "", joined, flags=re.DOTALL)))
    heading = len(_m("number", lang, number=100, title=title))  # "Puzzle 100. " and the title
    lines = -(-heading // width) + (-(-len(words) // width) if words else 0)
    return lines + pictures * _PICTURE_LINES


def is_tall(puzzle: Puzzle, per_page: int, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Does the puzzle need a double cell at ``per_page`` (its board would be too small to read in one)?"""
    if per_page not in _TALL:
        return False
    with_board, without = _TALL[per_page]
    return text_lines(puzzle, per_page, lang) >= (with_board if _has_board(puzzle) else without)


def sheet_layout(puzzles: Sequence[Puzzle], per_page: int, lang: str = DEFAULT_LANGUAGE) -> list[list[Cell]]:
    """The sheets, each a list of cells, in the puzzles' order: a tall puzzle (:func:`is_tall`) takes
    two cells one above the other; one that does not fit on the current sheet starts the next."""
    rows, columns = GRID[per_page]
    sheets: list[list[Cell]] = []
    taken: set[tuple[int, int]] = set()
    current: list[Cell] = []
    for number, puzzle in enumerate(puzzles, 1):
        double = rows > 1 and is_tall(puzzle, per_page, lang)
        span = 2 if double else 1
        free = [
            (r, c)
            for r in range(1, rows - span + 2)
            for c in range(1, columns + 1)
            if all((r + k, c) not in taken for k in range(span))
        ]
        if not free:
            sheets.append(current)
            current, taken = [], set()
            free = [(1, 1)]
        row, column = free[0]
        taken.update((row + k, column) for k in range(span))
        current.append(Cell(number, row, column, double))
    if current:
        sheets.append(current)
    return sheets


def _proof(puzzle: Puzzle, lang: str) -> list[str]:
    """A short proof: the claim proof's steps, the verdict per flag, the comparison or the formation."""
    question = puzzle.question
    if question is None:
        return []
    return question.key_lines(puzzle.position, lang)


def key_entries(puzzles: Sequence[Puzzle], lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str, list[str]]]:
    """``(title, answer, proof lines)`` per puzzle, the engine's answer in words a learner reads."""
    out = []
    for puzzle in puzzles:
        answer = ""
        if puzzle.question is not None:
            try:
                answer = _answer_text(puzzle, puzzle.question.solve(puzzle.position), lang)
            except (UndecidedTieError, ValueError) as err:
                answer = str(err)
        out.append((puzzle.title_text(lang), answer, _proof(puzzle, lang)))
    return out


def _key_section(puzzles: Sequence[Puzzle], lang: str) -> str:
    items = []
    for title, answer, proof in key_entries(puzzles, lang):
        steps = "".join(f"<li>{escape(line)}</li>" for line in proof)
        items.append(
            f"<li><strong>{escape(title)}</strong>: {escape(_m('answer', lang, answer=answer))}"
            + (f'<ul class="bl-proof">{steps}</ul>' if steps else "")
            + "</li>"
        )
    return "\n".join(
        [
            '<section class="bl-key">',
            f"<h1>{escape(_m('key', lang))}</h1>",
            # room for the widest number ("10.", "121."), never clipped at the page's edge
            f'<ol class="bl-digits-{len(str(len(items)))}">{"".join(items)}</ol>',
            f"<footer>{escape(_m('footer', lang))}</footer>",
            "</section>",
        ]
    )


def worksheet_html(
    puzzles: Sequence[Puzzle], lang: str = DEFAULT_LANGUAGE, *, answers: str = "end", per_page: int = 1
) -> str:
    """The worksheet: the puzzles ``per_page`` to a sheet, then (``answers="end"``) the key on pages of its own."""
    if answers not in ANSWERS:
        raise ValueError(f"answers must be one of {ANSWERS}, not {answers!r}")
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {PER_PAGE}, not {per_page!r}")
    body = [
        f"<h1>{escape(_m('title', lang))}</h1>",
        f'<p class="bl-sheet-head">{escape(_m("head", lang, count=len(puzzles)))}</p>',
    ]
    for sheet in sheet_layout(puzzles, per_page, lang):
        body.append(f'<div class="bl-sheet-page bl-per-{per_page}">')
        for cell in sheet:
            body.append(_question_page(cell.number, puzzles[cell.number - 1], lang, cell.words if per_page > 1 else ""))
        body.append("</div>")
    if answers == "end":
        body.append(_key_section(puzzles, lang))
    return _document(_m("title", lang), body, lang)


def answer_key_html(puzzles: Sequence[Puzzle], lang: str = DEFAULT_LANGUAGE) -> str:
    """The answer key alone, as its own document (``--answers separate``)."""
    return _document(_m("key", lang), [_key_section(puzzles, lang)], lang)


# -- writing ------------------------------------------------------------------------------------


def key_path(out: Path) -> Path:
    """Where ``--answers separate`` writes the key: ``sheet.html`` -> ``sheet.key.html``."""
    return out.with_name(f"{out.stem}.key{out.suffix or '.html'}")
